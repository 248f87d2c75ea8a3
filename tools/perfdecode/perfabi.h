/* See COPYING file for copyright and license details. */
/*
 * perfabi.h: the numbers of the perf.data format that perfdecode reads
 * and tests/tools/mkperfdata writes (one copy for both): record types
 * (include/uapi/linux/perf_event.h and perf's util/event.h), header misc
 * bits, and the perf_event_attr fields' bits a sample's layout depends on.
 */
#ifndef PERFABI_H
#define PERFABI_H

/* perf_event_header.type */
enum {
	R_MMAP = 1, R_LOST = 2, R_COMM = 3, R_EXIT = 4, R_FORK = 7,
	R_SAMPLE = 9, R_MMAP2 = 10, R_LOST_SAMPLES = 13,
	R_HEADER_ATTR = 64, R_HEADER_BUILD_ID = 67, R_FINISHED_ROUND = 68,
	R_AUXTRACE = 71, R_EVENT_UPDATE = 78, R_HEADER_FEATURE = 80,
	R_COMPRESSED = 81,
	R_COMPRESSED2 = 83	/* perf >= 6.15: data size, then padded data */
};

/* perf_event_header.misc */
#define MISC_KERNEL	1
#define MISC_USER	2
#define MISC_COMM_EXEC	(1u << 13)
#define MISC_MMAP_DATA	(1u << 13)
#define MISC_MMAP_BUILD_ID (1u << 14)
#define MISC_BUILD_ID_SIZE (1u << 15)

/* sample_type: the fields of a sample, in this order */
#define S_IP		(1u << 0)
#define S_TID		(1u << 1)
#define S_TIME		(1u << 2)
#define S_ADDR		(1u << 3)
#define S_READ		(1u << 4)
#define S_CALLCHAIN	(1u << 5)
#define S_ID		(1u << 6)
#define S_CPU		(1u << 7)
#define S_PERIOD	(1u << 8)
#define S_STREAM_ID	(1u << 9)
#define S_RAW		(1u << 10)
#define S_BRANCH_STACK	(1u << 11)
#define S_REGS_USER	(1u << 12)
#define S_STACK_USER	(1u << 13)
#define S_WEIGHT	(1u << 14)
#define S_DATA_SRC	(1u << 15)
#define S_IDENTIFIER	(1u << 16)
#define S_TRANSACTION	(1u << 17)
#define S_REGS_INTR	(1u << 18)
#define S_PHYS_ADDR	(1u << 19)
#define S_AUX		(1u << 20)
#define S_CGROUP	(1u << 21)
#define S_DATA_PAGE	(1u << 22)
#define S_CODE_PAGE	(1u << 23)
#define S_WEIGHT_STRUCT	(1u << 24)

/* branch_sample_type */
#define BR_USER		(1u << 0)
#define BR_ANY		(1u << 3)
#define BR_TYPE_SAVE	(1u << 16)
#define BR_HW_INDEX	(1u << 17)
#define BR_COUNTERS	(1u << 19)

/* read_format */
#define RF_ENABLED	1
#define RF_RUNNING	2
#define RF_ID		4
#define RF_GROUP	8
#define RF_LOST		16

/* the attr's flag word: sample_id_all, the bit number */
#define F_SAMPLE_ID_ALL	18

#endif
