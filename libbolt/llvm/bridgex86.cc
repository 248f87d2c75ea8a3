// See COPYING file for copyright and license details.
//
// bridgex86.cc: x86-64 behind the bridge (bridge.hh).  What BOLT's
// BinaryContext builds for an x86-64 ELF file (createBinaryContext:
// target "x86-64", features "+nopl", the assembler dialect's printer),
// decoding with a symbolizer of its own that plays X86MCSymbolizer's
// part (bolt/lib/Target/X86/X86MCSymbolizer.cpp) and asks the resolver
// what each operand becomes; then what BinaryFunction::disassemble does
// to the instruction (replaceBranchTarget, handlePCRelOperand,
// processIndirectBranch's jump table label, createNoop, convertJmpTo-
// TailCall) and hashBlock's x86 rules (the short form of a conditional
// jump, X86::isNOP).
#include "bridge.hh"

#include <cstdio>
#include <cstring>

#include "llvm-c/Target.h"
#include "llvm/MC/MCDisassembler/MCSymbolizer.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace ppbridge {

namespace {

// base, scale, index at operand i of the n so far
bool
isMemAt(const MCInst &inst, unsigned i, unsigned n)
{
	int64_t sc;

	if (i + 3 > n || !inst.getOperand(i).isReg() ||
	    !inst.getOperand(i + 1).isImm() || !inst.getOperand(i + 2).isReg())
		return false;
	sc = inst.getOperand(i + 1).getImm();
	return sc == 1 || sc == 2 || sc == 4 || sc == 8;
}

// the first operand of the memory reference (X86MCPlusBuilder::
// getMemoryOperandNo) of a decoded instruction, or -1: the five
// operands base, scale, index, displacement, segment the disassembler
// adds for a memory reference (the operand types of the instruction
// description do not say it for all: lea's are "unknown")
int
memOperandNo(const MCInst &inst)
{
	unsigned i, n = inst.getNumOperands();

	for (i = 0; i + 5 <= n; i++)
		if (isMemAt(inst, i, n) && inst.getOperand(i + 4).isReg() &&
		    (inst.getOperand(i + 3).isImm() ||
		    inst.getOperand(i + 3).isExpr()))
			return (int)i;
	return -1;
}

bool
isReg(const MCOperand &o, unsigned r)
{
	return o.isReg() && (unsigned)o.getReg() == r;
}

SymRef
symRef(const llvmbr_sym &s)
{
	return SymRef{ 0, s.sym && s.hasval, s.value, s.sym ? s.addend : 0 };
}

class X86 : public Bridge {
public:
	bool open(char *err, size_t errlen);
	size_t insn(const uint8_t *p, size_t n, uint64_t addr, unsigned flags,
	    llvmbr_resolve fn, void *arg) override;
	// the symbolizer's question (tryAddingSymbolicOperand)
	bool symbolize(MCInst &inst, int64_t value, uint64_t addr,
	    bool isBranch, uint64_t immOff, uint64_t immSize,
	    uint64_t instSize);

private:
	// the indirect branch's PC-relative or table operand
	void indirect(MCInst &inst, llvmbr_ref &r, uint64_t addr,
	    uint64_t size);
	void ask(llvmbr_ref &r, llvmbr_sym &s);

	// the opcodes BOLT's x86 code names (X86::JMP_1 ...), by name
	unsigned JMP_1 = 0, JMP_2 = 0, JMP_4 = 0, JCC_1 = 0, JCC_2 = 0,
	    JCC_4 = 0, JMP16m = 0, JMP32m = 0, JMP64m = 0, JMP16r = 0,
	    JMP32r = 0, JMP64r = 0, NOOP = 0;
	std::vector<bool>	 nop;		// X86::isNOP
	unsigned		 pc = 0;	// the program counter register
	llvmbr_resolve		 fn = nullptr;	// while decoding for a hash
	void			*arg = nullptr;
};

class Symbolizer : public MCSymbolizer {
	X86 *m;

public:
	Symbolizer(MCContext &c, X86 *mm) : MCSymbolizer(c, nullptr), m(mm) {}

	bool
	tryAddingSymbolicOperand(MCInst &inst, raw_ostream &, int64_t value,
	    uint64_t addr, bool isBranch, uint64_t immOff, uint64_t immSize,
	    uint64_t instSize) override
	{
		return m->symbolize(inst, value, addr, isBranch, immOff,
		    immSize, instSize);
	}

	void
	tryAddingPcLoadReferenceComment(raw_ostream &, int64_t,
	    uint64_t) override
	{
	}
};

void
X86::ask(llvmbr_ref &r, llvmbr_sym &s)
{
	std::memset(&s, 0, sizeof(s));
	fn(arg, &r, &s);
}

// X86MCSymbolizer::tryAddingSymbolicOperand: branches and calls are left
// alone (their targets come later), so are implicit operands; the
// resolver decides the rest (relocations, PC-relative references)
bool
X86::symbolize(MCInst &inst, int64_t value, uint64_t addr, bool isBranch,
    uint64_t immOff, uint64_t immSize, uint64_t instSize)
{
	const MCInstrDesc &d = mii->get(inst.getOpcode());
	unsigned no = inst.getNumOperands();
	llvmbr_ref r;
	llvmbr_sym s;

	if (isBranch || immSize == 0 || d.isBranch() || d.isCall() ||
	    fn == nullptr)
		return false;
	std::memset(&r, 0, sizeof(r));
	r.kind = LLVMBR_REF_OPERAND;
	r.value = (uint64_t)value;
	r.addr = addr;
	r.size = (uint32_t)instSize;
	r.immoff = (uint32_t)immOff;
	r.immsize = (uint32_t)immSize;
	// a displacement: the disassembler has just added the base, scale
	// and index before it
	r.disp = no >= 3 && isMemAt(inst, no - 3, no);
	r.ripdisp = r.disp && isReg(inst.getOperand(no - 3), pc) &&
	    isReg(inst.getOperand(no - 1), 0);
	ask(r, s);
	if (!s.sym)
		return false;
	inst.addOperand(ref(SymRef{ 0, s.hasval != 0, s.value, s.addend }));
	return true;
}

bool
X86::open(char *err, size_t errlen)
{
	struct {
		unsigned	*op;
		const char	*name;
	} named[] = {
		{ &JMP_1, "JMP_1" }, { &JMP_2, "JMP_2" }, { &JMP_4, "JMP_4" },
		{ &JCC_1, "JCC_1" }, { &JCC_2, "JCC_2" }, { &JCC_4, "JCC_4" },
		{ &JMP16m, "JMP16m" }, { &JMP32m, "JMP32m" },
		{ &JMP64m, "JMP64m" }, { &JMP16r, "JMP16r" },
		{ &JMP32r, "JMP32r" }, { &JMP64r, "JMP64r" }, { &NOOP, "NOOP" },
	};
	unsigned i;

	LLVMInitializeX86TargetInfo();
	LLVMInitializeX86TargetMC();
	LLVMInitializeX86Disassembler();
	if (!setup("x86_64--", "x86-64", "+nopl", "x86-64", err, errlen))
		return false;
	dis->setSymbolizer(std::make_unique<Symbolizer>(*ctx, this));
	pc = mri->getProgramCounter();
	for (auto &o : named)
		if ((*o.op = opcode(o.name)) == 0) {
			snprintf(err, errlen, "LLVM: x86-64 opcode %s missing",
			    o.name);
			return false;
		}
	// X86::isNOP (TableGen's X86 mnemonic tables; in the X86 target it
	// accepts these seven opcodes and no other)
	nop.assign(mii->getNumOpcodes(), false);
	for (const char *nm : { "NOOP", "NOOPL", "NOOPLr", "NOOPQ", "NOOPQr",
	    "NOOPW", "NOOPWr" }) {
		if ((i = opcode(nm)) == 0) {
			snprintf(err, errlen, "LLVM: x86-64 opcode %s missing", nm);
			return false;
		}
		nop[i] = true;
	}
	return true;
}

// handlePCRelOperand of an indirect branch or call, or processIndirect-
// Branch's jump table: its address becomes its label
void
X86::indirect(MCInst &inst, llvmbr_ref &r, uint64_t addr, uint64_t size)
{
	int memop = memOperandNo(inst);
	unsigned m = (unsigned)memop;
	llvmbr_sym s;

	if (memop < 0 || m + 3 >= inst.getNumOperands())
		return;
	if (inst.getOperand(m).isReg() && !isReg(inst.getOperand(m), pc) &&
	    inst.getOperand(m + 3).isImm()) {
		r.kind = LLVMBR_REF_DISP;
		r.value = (uint64_t)inst.getOperand(m + 3).getImm();
	} else {
		std::optional<uint64_t> t = mia->evaluateMemoryOperandAddress(
		    inst, sti.get(), addr, size);
		if (!t.has_value())
			return;
		r.kind = LLVMBR_REF_MEM;
		r.value = *t;
	}
	ask(r, s);
	if (s.sym)
		inst.getOperand(m + 3) = ref(SymRef{ 0, s.hasval != 0,
		    s.value, s.addend });
}

size_t
X86::insn(const uint8_t *p, size_t n, uint64_t addr, unsigned flags,
    llvmbr_resolve f, void *a)
{
	MCInst inst;
	uint64_t size = 0, to;
	llvmbr_ref r;
	llvmbr_sym s;
	bool tail = (flags & LLVMBR_TAIL) != 0;

	refs.clear();
	fn = f;
	arg = a;
	bool ok = get(inst, size, p, n, addr);
	fn = nullptr;
	if (!ok)
		return 0;
	if (flags & LLVMBR_FIXED)
		return (size_t)size;		// a direct jump: not hashed
	const MCInstrDesc &d = mii->get(inst.getOpcode());
	std::memset(&r, 0, sizeof(r));
	r.addr = addr;
	r.size = (uint32_t)size;
	fn = f;
	if ((d.isBranch() || d.isCall()) &&
	    mia->evaluateBranch(inst, addr, size, to)) {
		// replaceBranchTarget: operand 0 becomes the symbol
		r.kind = LLVMBR_REF_TARGET;
		r.value = to;
		ask(r, s);
		if (s.nop) {
			// createNoop: a jump past the end
			inst.clear();
			inst.setOpcode(NOOP);
			tail = false;
		} else if (inst.getNumOperands() > 0)
			inst.getOperand(0) = ref(symRef(s));
	} else if (d.isBranch() || d.isCall())
		indirect(inst, r, addr, size);
	fn = nullptr;
	if (tail) {
		// convertJmpToTailCall
		unsigned opc = inst.getOpcode();

		if (opc == JMP_1 || opc == JMP_2 || opc == JMP_4)
			inst.setOpcode(JMP_4);
		else if (opc == JMP16m || opc == JMP32m || opc == JMP64m)
			inst.setOpcode(JMP32m);
		else if (opc == JMP16r || opc == JMP32r || opc == JMP64r)
			inst.setOpcode(JMP32r);
	}
	// hashBlock: unconditional branches (not tail calls) are left out;
	// a conditional branch in its short form
	if (mia->isUnconditionalBranch(inst) && !tail)
		return (size_t)size;
	unsigned opc = inst.getOpcode();
	bool cond = mia->isConditionalBranch(inst);
	if (cond && (opc == JCC_2 || opc == JCC_4))
		opc = JCC_1;
	hashInst(inst, opc);
	// hashBlockLoose: no NOPs; "JMP" for any conditional branch
	looseInst(inst, nop[inst.getOpcode()], cond);
	return (size_t)size;
}

} // namespace

Bridge *
openX86(char *err, size_t errlen)
{
	std::unique_ptr<X86> m(new X86);

	if (!m->open(err, errlen))
		return nullptr;
	return m.release();
}

} // namespace ppbridge
