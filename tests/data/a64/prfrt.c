/*
 * prfrt.c: a minimal LLVM profile runtime for the AArch64 tests.  Debian
 * ships compiler-rt's profile runtime (libclang_rt.profile) for x86 only,
 * so an AArch64 program built with -fprofile-generate or
 * -fprofile-instr-generate (and -mllvm -disable-vp=true: no value
 * profiling) links this instead.  At exit it writes the raw profile,
 * version 10 as LLVM 19 writes it (compiler-rt's InstrProfilingWriter.c,
 * written from the format's definition in InstrProfData.inc: the header,
 * then the data, counter, bitmap, name, vtable and vtable-name sections
 * as the program holds them, each padded to 8 bytes), to
 * $LLVM_PROFILE_FILE or default.profraw.  No binary ids.  Built without
 * instrumentation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* the linker's bounds of the sections the compiler fills; weak, as a
 * program may have no bitmap or vtable section */
#define SECTION(s) \
	extern char __start_##s[] __attribute__((weak, visibility("hidden"))); \
	extern char __stop_##s[] __attribute__((weak, visibility("hidden")))
SECTION(__llvm_prf_data);
SECTION(__llvm_prf_cnts);
SECTION(__llvm_prf_bits);
SECTION(__llvm_prf_names);
SECTION(__llvm_prf_vtab);
SECTION(__llvm_prf_vns);

/* the compiler defines it for IR instrumentation, with its variant bits */
extern uint64_t __llvm_profile_raw_version __attribute__((weak));

/* every instrumented object references it, to pull the runtime in */
int __llvm_profile_runtime;

#define DATA_SIZE	64	/* __llvm_profile_data, 8-aligned */
#define VTAB_SIZE	24	/* VTableProfData: name hash, start, size */

static void
put64(FILE *fp, uint64_t v)
{
	fwrite(&v, 8, 1, fp);
}

static void
section(FILE *fp, const char *start, const char *stop)
{
	static const char zero[8];
	size_t n = (size_t)(stop - start);

	if (n > 0)
		fwrite(start, 1, n, fp);
	fwrite(zero, 1, (8 - n % 8) % 8, fp);
}

static uint64_t
pad8(uint64_t n)
{
	return (8 - n % 8) % 8;
}

static void
dump(void)
{
	const char *path = getenv("LLVM_PROFILE_FILE");
	uint64_t data = (uint64_t)(__stop___llvm_prf_data - __start___llvm_prf_data);
	uint64_t cnts = (uint64_t)(__stop___llvm_prf_cnts - __start___llvm_prf_cnts);
	uint64_t bits = (uint64_t)(__stop___llvm_prf_bits - __start___llvm_prf_bits);
	uint64_t names = (uint64_t)(__stop___llvm_prf_names - __start___llvm_prf_names);
	uint64_t vtab = (uint64_t)(__stop___llvm_prf_vtab - __start___llvm_prf_vtab);
	uint64_t vns = (uint64_t)(__stop___llvm_prf_vns - __start___llvm_prf_vns);
	FILE *fp;

	if ((fp = fopen(path && *path ? path : "default.profraw", "wb")) == NULL)
		return;
	put64(fp, 0xff6c70726f667281ULL);	/* "\x81rforpl\xff" */
	put64(fp, &__llvm_profile_raw_version != NULL ?
	    __llvm_profile_raw_version : 10);
	put64(fp, 0);				/* binary ids' size */
	put64(fp, data / DATA_SIZE);
	put64(fp, 0);				/* padding before counters */
	put64(fp, cnts / 8);
	put64(fp, pad8(cnts));
	put64(fp, bits);
	put64(fp, pad8(bits));
	put64(fp, names);
	put64(fp, (uint64_t)(uintptr_t)__start___llvm_prf_cnts -
	    (uint64_t)(uintptr_t)__start___llvm_prf_data);
	put64(fp, (uint64_t)(uintptr_t)__start___llvm_prf_bits -
	    (uint64_t)(uintptr_t)__start___llvm_prf_data);
	put64(fp, (uint64_t)(uintptr_t)__start___llvm_prf_names);
	put64(fp, vtab / VTAB_SIZE);
	put64(fp, vns);
	put64(fp, 2);				/* IPVK_Last: IPVK_VTableTarget */
	section(fp, __start___llvm_prf_data, __stop___llvm_prf_data);
	section(fp, __start___llvm_prf_cnts, __stop___llvm_prf_cnts);
	section(fp, __start___llvm_prf_bits, __stop___llvm_prf_bits);
	section(fp, __start___llvm_prf_names, __stop___llvm_prf_names);
	section(fp, __start___llvm_prf_vtab, __stop___llvm_prf_vtab);
	section(fp, __start___llvm_prf_vns, __stop___llvm_prf_vns);
	fclose(fp);
}

__attribute__((constructor)) static void
start(void)
{
	atexit(dump);
}
