/* See COPYING file for copyright and license details. */
/*
 * a64rel.h: what BOLT does with an AArch64 relocation of each type, in
 * one place (bolt/lib/Core/Relocation.cpp: isSupportedAArch64,
 * isGOTAArch64, getSizeForTypeAArch64; AArch64MCPlusBuilder::
 * getTargetExprFor: the specifier of the expression an operand it
 * relocates becomes), for the graph builder (a64cfg.c) and the hashes
 * (a64sym.c).
 */
#ifndef PROFPIPE_A64REL_H
#define PROFPIPE_A64REL_H

#include <stdint.h>

/* AArch64::S_* (LLVM's AArch64MCAsmInfo.h; 19's AArch64MCExpr::VK_*
 * have the same numbers): the specifiers getTargetExprFor wraps */
#define A64S_ABS	0x001u	/* adr */
#define A64S_ABS_PAGE	0x011u	/* adrp */
#define A64S_LO12	0x121u	/* :lo12: */
#define A64S_ABS_G3	0x071u
#define A64S_ABS_G2_NC	0x161u
#define A64S_ABS_G1_NC	0x151u
#define A64S_ABS_G0_NC	0x141u

struct a64rel {
	uint8_t		supported;	/* isSupportedAArch64 */
	uint8_t		got;		/* isGOTAArch64 */
	uint8_t		size;		/* getSizeForTypeAArch64 */
	uint16_t	spec;		/* getTargetExprFor's specifier for
					 * an instruction that is no adr or
					 * adrp; 0: none */
};

void	 a64rel_of(uint32_t type, struct a64rel *r);

#endif
