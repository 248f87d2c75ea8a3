// See COPYING file for copyright and license details.
//
// bridgea64.cc: AArch64 behind the bridge (bridge.hh).  What BOLT's
// BinaryContext builds for an AArch64 ELF file (createBinaryContext:
// target "aarch64", features "+all", the assembler dialect's printer),
// decoding without a symbolizer (BOLT has none for AArch64); the
// resolver says what BOLT's disassembly made of the operands
// (AArch64MCPlusBuilder: replaceBranchTarget or createNoop for a direct
// branch's target; replaceImmWithSymbolRef, each time on the first
// immediate left; replaceMemOperandDisp for the PC-relative operand;
// getTargetExprFor's specifier around the symbol), then hashBlock's
// rules (AArch64MCPlusBuilder::isNoop: hint #0).
#include "bridge.hh"

#include <cstdio>
#include <cstring>

#include "llvm-c/Target.h"
#include "llvm/MC/MCInstrDesc.h"

using namespace llvm;

namespace ppbridge {

namespace {

class A64 : public Bridge {
public:
	bool open(char *err, size_t errlen);
	size_t insn(const uint8_t *p, size_t n, uint64_t addr, unsigned flags,
	    llvmbr_resolve fn, void *arg) override;

private:
	// the resolver's answer to question kind (index) about the
	// instruction at addr
	bool ask(llvmbr_resolve fn, void *arg, int kind, unsigned index,
	    uint64_t addr, llvmbr_sym &s);
	// replaceMemOperandDisp's operand: an adr's or adrp's second, else
	// the PC-relative one of the description
	unsigned pcrelOperand(const MCInst &inst) const;

	unsigned HINT = 0, ADR = 0, ADRP = 0, TBZW = 0, TBZX = 0, TBNZW = 0,
	    TBNZX = 0;
};

bool
A64::open(char *err, size_t errlen)
{
	struct {
		unsigned	*op;
		const char	*name;
	} named[] = {
		{ &HINT, "HINT" }, { &ADR, "ADR" }, { &ADRP, "ADRP" },
		{ &TBZW, "TBZW" }, { &TBZX, "TBZX" }, { &TBNZW, "TBNZW" },
		{ &TBNZX, "TBNZX" },
	};

	LLVMInitializeAArch64TargetInfo();
	LLVMInitializeAArch64TargetMC();
	LLVMInitializeAArch64Disassembler();
	if (!setup("aarch64--", "aarch64", "+all", "AArch64", err, errlen))
		return false;
	for (auto &o : named)
		if ((*o.op = opcode(o.name)) == 0) {
			snprintf(err, errlen, "LLVM: AArch64 opcode %s missing",
			    o.name);
			return false;
		}
	return true;
}

bool
A64::ask(llvmbr_resolve fn, void *arg, int kind, unsigned index,
    uint64_t addr, llvmbr_sym &s)
{
	llvmbr_ref r;

	std::memset(&r, 0, sizeof(r));
	std::memset(&s, 0, sizeof(s));
	r.kind = kind;
	r.index = index;
	r.addr = addr;
	r.size = 4;
	fn(arg, &r, &s);
	return s.sym != 0 || s.nop != 0;
}

unsigned
A64::pcrelOperand(const MCInst &inst) const
{
	const MCInstrDesc &d = mii->get(inst.getOpcode());
	unsigned k, opc = inst.getOpcode();

	if (opc == ADR || opc == ADRP)
		return 1;
	for (k = 0; k < d.getNumOperands(); k++)
		if (d.operands()[k].OperandType == MCOI::OPERAND_PCREL)
			break;
	return k;
}

SymRef
symRef(const llvmbr_sym &s)
{
	return SymRef{ (unsigned)s.target, s.hasval != 0, s.value, s.addend };
}

size_t
A64::insn(const uint8_t *p, size_t n, uint64_t addr, unsigned flags,
    llvmbr_resolve fn, void *arg)
{
	MCInst inst;
	uint64_t size;
	llvmbr_sym s;
	bool tail = (flags & LLVMBR_TAIL) != 0;
	unsigned opc, k, i;

	refs.clear();
	if (n < 4 || !get(inst, size, p, 4, addr) || size != 4)
		return 0;
	if (ask(fn, arg, LLVMBR_REF_TARGET, 0, addr, s)) {
		if (s.nop) {
			// createNoop: HINT #0
			inst.clear();
			inst.setOpcode(HINT);
			inst.addOperand(MCOperand::createImm(0));
			tail = false;
		} else {
			// replaceBranchTarget: the first operand, the second
			// of a conditional branch, the third of a test and
			// branch
			opc = inst.getOpcode();
			k = mia->isConditionalBranch(inst) ? 1 : 0;
			if (opc == TBZW || opc == TBZX || opc == TBNZW ||
			    opc == TBNZX)
				k = 2;
			if (k < inst.getNumOperands())
				inst.getOperand(k) = ref(symRef(s));
		}
	}
	// replaceImmWithSymbolRef, each time on the first immediate left
	for (i = 0; ask(fn, arg, LLVMBR_REF_IMM, i, addr, s); i++)
		for (k = 0; k < inst.getNumOperands(); k++)
			if (inst.getOperand(k).isImm()) {
				inst.getOperand(k) = ref(symRef(s));
				break;
			}
	if (ask(fn, arg, LLVMBR_REF_MEM, 0, addr, s) &&
	    (k = pcrelOperand(inst)) < inst.getNumOperands())
		inst.getOperand(k) = ref(symRef(s));
	// hashBlock: unconditional branches (not tail calls) are left out
	if (mia->isUnconditionalBranch(inst) && !tail)
		return 4;
	opc = inst.getOpcode();
	hashInst(inst, opc);
	// hashBlockLoose: no NOPs (isNoop: hint #0); "JMP" for any
	// conditional branch
	looseInst(inst, opc == HINT && inst.getNumOperands() > 0 &&
	    inst.getOperand(0).isImm() && inst.getOperand(0).getImm() == 0,
	    mia->isConditionalBranch(inst));
	return 4;
}

} // namespace

Bridge *
openA64(char *err, size_t errlen)
{
	std::unique_ptr<A64> m(new A64);

	if (!m->open(err, errlen))
		return nullptr;
	return m.release();
}

} // namespace ppbridge
