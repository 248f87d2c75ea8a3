// See COPYING file for copyright and license details.
//
// mcx86.cc: BOLT 19's hash strings of x86-64 instructions (mcx86.h) and,
// at the end, of AArch64 ones (mca64.h) from LLVM 19's MC layer.  The one
// C++ file of the project, the one bridge to LLVM's MC: LLVM's MC layer
// has only a C++ interface.  For x86-64 it builds what BOLT's
// BinaryContext builds for an x86-64 ELF file
// (bolt/lib/Core/BinaryContext.cpp, createBinaryContext: target
// "x86-64", features "+nopl", the assembler dialect's printer), decodes
// with a symbolizer of its own that plays X86MCSymbolizer's part
// (bolt/lib/Target/X86/X86MCSymbolizer.cpp) and asks the caller what
// each operand becomes, and makes the strings of
// bolt/lib/Core/HashUtilities.cpp from the MCInst.  Opcode numbers are
// looked up by name in LLVM's tables: the target's private headers are
// not installed.
#include "mcx86.h"
#include "mca64.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "llvm-c/Target.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCDisassembler/MCSymbolizer.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace {

// the opcodes BOLT's x86 code names (X86::JMP_1 ...), by name
struct Opcodes {
	unsigned JMP_1 = 0, JMP_2 = 0, JMP_4 = 0, JCC_1 = 0, JCC_2 = 0,
	    JCC_4 = 0, JMP16m = 0, JMP32m = 0, JMP64m = 0, JMP16r = 0,
	    JMP32r = 0, JMP64r = 0, NOOP = 0;
};

// an operand the symbolizer made a symbol: what the resolver said
struct SymRef {
	bool	 hasval;
	uint64_t value;
	int64_t	 addend;
};

struct Resolver {
	mcx86_resolve fn = nullptr;
	void	*arg = nullptr;
};

// hashInteger: the value's bytes from the least significant, no
// trailing zero bytes, one zero byte for 0
void
hashInteger(std::string &s, uint64_t v)
{
	if (v == 0)
		s.push_back(0);
	while (v) {
		s.push_back((char)(v & 0xff));
		v >>= 8;
	}
}

// the first 8 bytes of s as a big-endian number (zeros after its end):
// two strings whose numbers differ are in the order of their numbers, as
// std::string compares them (unsigned bytes)
uint64_t
orderKey(const std::string &s)
{
	uint64_t k = 0;
	size_t i;

	for (i = 0; i < 8; i++)
		k = k << 8 | (i < s.size() ? (uint8_t)s[i] : 0);
	return k;
}

// one target's MC layer: what both architectures' hashing decodes and
// prints with, set up by mc_setup
struct MCLayer {
	Triple			 triple;
	const Target		*target = nullptr;
	std::unique_ptr<MCRegisterInfo> mri;
	std::unique_ptr<MCAsmInfo> mai;
	std::unique_ptr<MCSubtargetInfo> sti;
	std::unique_ptr<MCInstrInfo> mii;
	std::unique_ptr<MCContext> ctx;
	std::unique_ptr<MCDisassembler> dis;
	std::unique_ptr<MCInstrAnalysis> mia;
	std::unique_ptr<MCInstPrinter> printer;
};

// m's MC layer for target ARCH (registered by the caller's
// LLVMInitialize* calls) of triple TRIPLE, as ObjectFile::makeTriple
// gives an ELF file of it, with subtarget features FEATURES; NAME in the
// messages
static bool
mc_setup(MCLayer &m, const char *triple, const char *arch,
    const char *features, const char *name, char *err, size_t errlen)
{
	std::string e;

	m.triple = Triple(triple);
	m.triple.setObjectFormat(Triple::ELF);
	m.target = TargetRegistry::lookupTarget(arch, m.triple, e);
	if (m.target == nullptr) {
		snprintf(err, errlen, "LLVM: no %s target: %s", name, e.c_str());
		return false;
	}
	const std::string tn = m.triple.str();
	m.mri.reset(m.target->createMCRegInfo(tn));
	if (m.mri)
		m.mai.reset(m.target->createMCAsmInfo(*m.mri, tn,
		    MCTargetOptions()));
	m.sti.reset(m.target->createMCSubtargetInfo(tn, "", features));
	m.mii.reset(m.target->createMCInstrInfo());
	if (!m.mri || !m.mai || !m.sti || !m.mii) {
		snprintf(err, errlen, "LLVM: cannot set up the %s MC layer", name);
		return false;
	}
	m.ctx.reset(new MCContext(m.triple, m.mai.get(), m.mri.get(),
	    m.sti.get()));
	m.dis.reset(m.target->createMCDisassembler(*m.sti, *m.ctx));
	m.mia.reset(m.target->createMCInstrAnalysis(m.mii.get()));
	m.printer.reset(m.target->createMCInstPrinter(m.triple,
	    m.mai->getAssemblerDialect(), *m.mai, *m.mii, *m.mri));
	if (!m.dis || !m.mia || !m.printer) {
		snprintf(err, errlen, "LLVM: no %s disassembler, analysis "
		    "or printer", name);
		return false;
	}
	return true;
}

} // namespace

struct mcx86 : MCLayer {
	Opcodes			 op;
	std::vector<bool>	 nop;		// X86::isNOP
	unsigned		 pc = 0;	// the program counter register
	Resolver		 res;
	std::vector<SymRef>	 refs;		// of the instruction decoded
	std::string		 full, bare;	// hashBlock with and without
						// operands, this block
	std::string		 func;		// hashBlock without, all blocks
	// hashBlockLoose's set of this block: ids of mnem's strings (one
	// per opcode: its mnemonic without white space, made once; the
	// last one "JMP"), sorted and made unique at the block's end
	std::vector<uint32_t>	 loose;
	std::vector<int32_t>	 mnemid;	// per opcode, -1: not made yet
	std::vector<std::string> mnem;
	std::vector<uint64_t>	 mnemkey;	// its first 8 bytes, big-endian:
						// the strings' order, mostly
	std::unordered_map<std::string, uint32_t> mnemof;
	uint32_t		 jmpid = 0;
	std::string		 lbuf;		// the block's loose string
};

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

// placeholder operands: an expression holding the index of the SymRef
const MCExpr *
refExpr(mcx86 *m, const SymRef &r)
{
	m->refs.push_back(r);
	return MCConstantExpr::create((int64_t)(m->refs.size() - 1), *m->ctx);
}

class Symbolizer : public MCSymbolizer {
	mcx86 *m;

public:
	Symbolizer(mcx86 *mm) : MCSymbolizer(*mm->ctx, nullptr), m(mm) {}

	// X86MCSymbolizer::tryAddingSymbolicOperand: branches and calls
	// are left alone (their targets come later), so are implicit
	// operands; the resolver decides the rest (relocations,
	// PC-relative references)
	bool
	tryAddingSymbolicOperand(MCInst &inst, raw_ostream &, int64_t value,
	    uint64_t addr, bool isBranch, uint64_t immOff, uint64_t immSize,
	    uint64_t instSize) override
	{
		const MCInstrDesc &d = m->mii->get(inst.getOpcode());
		struct mcx86_ref r;
		struct mcx86_sym s;
		int memop;

		if (isBranch || immSize == 0 || d.isBranch() || d.isCall() ||
		    m->res.fn == nullptr)
			return false;
		std::memset(&r, 0, sizeof(r));
		r.kind = MCX86_REF_OPERAND;
		r.value = (uint64_t)value;
		r.addr = addr;
		r.size = (uint32_t)instSize;
		r.immoff = (uint32_t)immOff;
		r.immsize = (uint32_t)immSize;
		// a displacement: the disassembler has just added the
		// base, scale and index before it
		r.disp = inst.getNumOperands() >= 3 && isMemAt(inst,
		    inst.getNumOperands() - 3, inst.getNumOperands());
		memop = r.disp ? (int)inst.getNumOperands() - 3 : -1;
		if (r.disp && inst.getOperand((unsigned)memop).isReg() &&
		    inst.getOperand((unsigned)memop).getReg() == m->pc &&
		    inst.getOperand((unsigned)memop + 2).isReg() &&
		    inst.getOperand((unsigned)memop + 2).getReg() == 0)
			r.ripdisp = 1;
		std::memset(&s, 0, sizeof(s));
		m->res.fn(m->res.arg, &r, &s);
		if (!s.sym)
			return false;
		inst.addOperand(MCOperand::createExpr(refExpr(m,
		    SymRef{ s.hasval != 0, s.value, s.addend })));
		return true;
	}

	void
	tryAddingPcLoadReferenceComment(raw_ostream &, int64_t,
	    uint64_t) override
	{
	}
};

// hashInstOperand
void
hashOperand(mcx86 *m, std::string &s, const MCOperand &o)
{
	if (o.isImm())
		hashInteger(s, (uint64_t)o.getImm());
	else if (o.isReg())
		hashInteger(s, o.getReg());
	else if (o.isExpr()) {
		int64_t k;

		// only placeholders are made here
		if (!o.getExpr()->evaluateAsAbsolute(k) || k < 0 ||
		    (size_t)k >= m->refs.size())
			return;
		const SymRef &r = m->refs[(size_t)k];
		// hashExpr: SymbolRef (hashSymbol), or Binary(Add,
		// SymbolRef, Constant)
		if (r.hasval)
			hashInteger(s, r.value);
		if (r.addend != 0) {
			hashInteger(s, (uint64_t)MCBinaryExpr::Add);
			hashInteger(s, (uint64_t)r.addend);
		}
	}
}

void hashOperand(::mca64 *m, std::string &s, const MCOperand &o);

// hashBlock's part of one instruction, the same on both targets: the
// opcode's name (opc, which may differ from inst's: a short conditional
// jump) into the hashes with and without operands (opcode 0, an
// instruction BOLT drops, as a NUL), then the operands into the first
template <class M>
void
hashInst(M *m, const MCInst &inst, unsigned opc)
{
	if (opc == 0) {
		m->full.push_back(0);
		m->bare.push_back(0);
	} else {
		StringRef name = m->printer->getOpcodeName(opc);
		m->full.append(name.data(), name.size());
		m->bare.append(name.data(), name.size());
	}
	for (const MCOperand &op : inst)
		hashOperand(m, m->full, op);
}

unsigned
opcodeByName(const MCInstrInfo &mii, const char *name)
{
	unsigned i;

	for (i = 0; i < mii.getNumOpcodes(); i++)
		if (mii.getName(i) == name)
			return i;
	return 0;
}

} // namespace

extern "C" struct mcx86 *
mcx86_open(char *err, size_t errlen)
{
	std::unique_ptr<mcx86> m(new mcx86);
	unsigned i;

	LLVMInitializeX86TargetInfo();
	LLVMInitializeX86TargetMC();
	LLVMInitializeX86Disassembler();
	if (!mc_setup(*m, "x86_64--", "x86-64", "+nopl", "x86-64", err,
	    errlen))
		return nullptr;
	m->dis->setSymbolizer(std::make_unique<Symbolizer>(m.get()));
	m->pc = m->mri->getProgramCounter();
	Opcodes &o = m->op;
	o.JMP_1 = opcodeByName(*m->mii, "JMP_1");
	o.JMP_2 = opcodeByName(*m->mii, "JMP_2");
	o.JMP_4 = opcodeByName(*m->mii, "JMP_4");
	o.JCC_1 = opcodeByName(*m->mii, "JCC_1");
	o.JCC_2 = opcodeByName(*m->mii, "JCC_2");
	o.JCC_4 = opcodeByName(*m->mii, "JCC_4");
	o.JMP16m = opcodeByName(*m->mii, "JMP16m");
	o.JMP32m = opcodeByName(*m->mii, "JMP32m");
	o.JMP64m = opcodeByName(*m->mii, "JMP64m");
	o.JMP16r = opcodeByName(*m->mii, "JMP16r");
	o.JMP32r = opcodeByName(*m->mii, "JMP32r");
	o.JMP64r = opcodeByName(*m->mii, "JMP64r");
	o.NOOP = opcodeByName(*m->mii, "NOOP");
	if (!o.JMP_1 || !o.JMP_2 || !o.JMP_4 || !o.JCC_1 || !o.JCC_2 ||
	    !o.JCC_4 || !o.JMP16m || !o.JMP32m || !o.JMP64m || !o.JMP16r ||
	    !o.JMP32r || !o.JMP64r || !o.NOOP) {
		snprintf(err, errlen, "LLVM: x86-64 opcodes missing");
		return nullptr;
	}
	// X86::isNOP (TableGen's X86 mnemonic tables; in libLLVM's X86
	// target it accepts these seven opcodes and no other)
	m->mnemid.assign(m->mii->getNumOpcodes(), -1);
	m->mnem.push_back("JMP");
	m->mnemkey.push_back(orderKey(m->mnem[0]));
	m->mnemof.emplace("JMP", 0);
	m->jmpid = 0;
	m->nop.assign(m->mii->getNumOpcodes(), false);
	for (const char *nm : { "NOOP", "NOOPL", "NOOPLr", "NOOPQ", "NOOPQr",
	    "NOOPW", "NOOPWr" }) {
		if ((i = opcodeByName(*m->mii, nm)) == 0) {
			snprintf(err, errlen, "LLVM: x86-64 opcode %s missing", nm);
			return nullptr;
		}
		m->nop[i] = true;
	}
	return m.release();
}

extern "C" void
mcx86_close(struct mcx86 *m)
{
	delete m;
}

extern "C" void
mcx86_block_begin(struct mcx86 *m)
{
	m->full.clear();
	m->bare.clear();
	m->loose.clear();
}

extern "C" size_t
mcx86_insn(struct mcx86 *m, const uint8_t *p, size_t n, uint64_t addr,
    unsigned flags, mcx86_resolve fn, void *arg)
{
	MCInst inst;
	uint64_t size = 0, target;
	const Opcodes &o = m->op;
	struct mcx86_ref r;
	struct mcx86_sym s;
	bool tail = (flags & MCX86_TAIL) != 0;

	m->refs.clear();
	m->res.fn = fn;
	m->res.arg = arg;
	if (m->dis->getInstruction(inst, size, ArrayRef<uint8_t>(p, n), addr,
	    nulls()) != MCDisassembler::Success || size == 0)
		return 0;
	m->res.fn = nullptr;
	if (flags & MCX86_FIXED)
		return (size_t)size;		// a direct jump: not hashed
	const MCInstrDesc &d = m->mii->get(inst.getOpcode());
	std::memset(&r, 0, sizeof(r));
	r.addr = addr;
	r.size = (uint32_t)size;
	if (d.isBranch() || d.isCall()) {
		if (m->mia->evaluateBranch(inst, addr, size, target)) {
			// replaceBranchTarget: operand 0 becomes the symbol
			r.kind = MCX86_REF_TARGET;
			r.value = target;
			std::memset(&s, 0, sizeof(s));
			fn(arg, &r, &s);
			if (s.nop) {
				// createNoop: a jump past the end
				inst.clear();
				inst.setOpcode(o.NOOP);
				tail = false;
			} else if (inst.getNumOperands() > 0)
				inst.getOperand(0) = MCOperand::createExpr(
				    refExpr(m, SymRef{ s.sym && s.hasval,
				    s.value, s.sym ? s.addend : 0 }));
		} else {
			// handlePCRelOperand: a PC-relative memory operand
			int memop = memOperandNo(inst);
			uint64_t t;

			if (memop >= 0 && (unsigned)memop + 3 <
			    inst.getNumOperands() &&
			    inst.getOperand((unsigned)memop).isReg() &&
			    inst.getOperand((unsigned)memop).getReg() != m->pc &&
			    inst.getOperand((unsigned)memop + 3).isImm()) {
				// processIndirectBranch: a jump table's
				// address becomes its label
				r.kind = MCX86_REF_DISP;
				r.value = (uint64_t)inst.getOperand(
				    (unsigned)memop + 3).getImm();
				std::memset(&s, 0, sizeof(s));
				fn(arg, &r, &s);
				if (s.sym)
					inst.getOperand((unsigned)memop + 3) =
					    MCOperand::createExpr(refExpr(m,
					    SymRef{ s.hasval != 0, s.value,
					    s.addend }));
			} else if (memop >= 0 &&
			    m->mia->evaluateMemoryOperandAddress(
			    inst, m->sti.get(), addr, size).has_value()) {
				t = *m->mia->evaluateMemoryOperandAddress(inst,
				    m->sti.get(), addr, size);
				r.kind = MCX86_REF_MEM;
				r.value = t;
				std::memset(&s, 0, sizeof(s));
				fn(arg, &r, &s);
				if ((unsigned)memop + 3 < inst.getNumOperands() &&
				    s.sym)
					inst.getOperand((unsigned)memop + 3) =
					    MCOperand::createExpr(refExpr(m,
					    SymRef{ s.hasval != 0, s.value,
					    s.addend }));
			}
		}
	}
	if (tail) {
		// convertJmpToTailCall
		unsigned opc = inst.getOpcode();

		if (opc == o.JMP_1 || opc == o.JMP_2 || opc == o.JMP_4)
			inst.setOpcode(o.JMP_4);
		else if (opc == o.JMP16m || opc == o.JMP32m || opc == o.JMP64m)
			inst.setOpcode(o.JMP32m);
		else if (opc == o.JMP16r || opc == o.JMP32r || opc == o.JMP64r)
			inst.setOpcode(o.JMP32r);
	}
	// hashBlock: unconditional branches (not tail calls) are left out;
	// a conditional branch in its short form
	if (m->mia->isUnconditionalBranch(inst) && !tail)
		return (size_t)size;
	unsigned opc = inst.getOpcode();
	bool cond = m->mia->isConditionalBranch(inst);
	if (cond && (opc == o.JCC_2 || opc == o.JCC_4))
		opc = o.JCC_1;
	hashInst(m, inst, opc);
	// hashBlockLoose: no NOPs; "JMP" for any conditional branch; the
	// mnemonic without white space
	if (m->nop[inst.getOpcode()])
		return (size_t)size;
	if (cond) {
		m->loose.push_back(m->jmpid);
		return (size_t)size;
	}
	// the printer's mnemonic is its table's entry for the opcode (the
	// operands play no part): made once per opcode
	int32_t &id = m->mnemid[inst.getOpcode()];
	if (id < 0) {
		std::pair<const char *, uint64_t> mn =
		    m->printer->getMnemonic(&inst);
		std::string t;
		for (const char *c = mn.first ? mn.first : ""; *c; c++)
			if (!std::isspace((unsigned char)*c))
				t.push_back(*c);
		// one id per string: opcodes of one mnemonic share it
		auto it = m->mnemof.find(t);
		if (it != m->mnemof.end())
			id = (int32_t)it->second;
		else {
			id = (int32_t)m->mnem.size();
			m->mnemof.emplace(t, (uint32_t)id);
			m->mnem.push_back(t);
			m->mnemkey.push_back(orderKey(t));
		}
	}
	m->loose.push_back((uint32_t)id);
	return (size_t)size;
}

namespace {

uint64_t
hashString(const std::string &s, int stdhash)
{
	if (stdhash)
		return std::hash<std::string>{}(s);
	return xxh3_64bits(StringRef(s));
}

} // namespace

extern "C" void
mcx86_block_end(struct mcx86 *m, int stdhash, struct mcx86_block *b)
{
	const std::vector<std::string> &mn = m->mnem;
	const std::vector<uint64_t> &key = m->mnemkey;

	// std::set<std::string>'s order: the strings' (an id is one
	// string, a string one id); their first bytes decide most
	std::sort(m->loose.begin(), m->loose.end());
	m->loose.erase(std::unique(m->loose.begin(), m->loose.end()),
	    m->loose.end());
	std::sort(m->loose.begin(), m->loose.end(),
	    [&mn, &key](uint32_t x, uint32_t y) {
		return key[x] != key[y] ? key[x] < key[y] : mn[x] < mn[y];
	    });
	m->lbuf.clear();
	for (uint32_t x : m->loose)
		m->lbuf += mn[x];
	b->instr = hashString(m->full, stdhash);
	b->opcode = hashString(m->lbuf, stdhash);
	m->func += m->bare;
}

extern "C" uint64_t
mcx86_func_end(struct mcx86 *m, int stdhash)
{
	uint64_t h = hashString(m->func, stdhash);

	m->func.clear();
	return h;
}

extern "C" uint64_t
mcx86_hash16(uint64_t low, uint64_t high)
{
	return hashing::detail::hash_16_bytes(low, high);
}

extern "C" uint64_t
mcx86_hash_value(uint64_t v)
{
	return (uint64_t)(size_t)hash_value(v);
}

// AArch64 (mca64.h): what BOLT's BinaryContext builds for an AArch64 ELF
// file (createBinaryContext: target "aarch64", features "+all", the
// assembler dialect's printer), decoding without a symbolizer (BOLT 19
// has none for AArch64); the caller's plan says what BOLT's disassembly
// made of the operands (AArch64MCPlusBuilder: replaceBranchTarget,
// createNoop, replaceImmWithSymbolRef, replaceMemOperandDisp,
// getTargetExprFor).  hashInteger, opcodeByName and hashString are the
// x86-64 part's.

struct mca64 : MCLayer {
	unsigned		 HINT = 0, ADR = 0, ADRP = 0, TBZW = 0,
				 TBZX = 0, TBNZW = 0, TBNZX = 0;
	std::vector<mca64_sym>	 refs;		// of the instruction
	std::string		 full, bare;	// hashBlock with and without
						// operands, this block
	std::string		 func;		// hashBlock without, all blocks
	std::set<std::string>	 loose;		// hashBlockLoose's set
};

namespace {

// an operand made an expression: a constant holding its index in refs
MCOperand
refOperand(mca64 *m, const mca64_sym &s)
{
	m->refs.push_back(s);
	return MCOperand::createExpr(MCConstantExpr::create(
	    (int64_t)(m->refs.size() - 1), *m->ctx));
}

// hashInstOperand, hashExpr
void
hashOperand(mca64 *m, std::string &s, const MCOperand &o)
{
	int64_t k;

	if (o.isImm())
		hashInteger(s, (uint64_t)o.getImm());
	else if (o.isReg())
		hashInteger(s, o.getReg());
	else if (o.isExpr() && o.getExpr()->evaluateAsAbsolute(k) && k >= 0 &&
	    (size_t)k < m->refs.size()) {
		const mca64_sym &r = m->refs[(size_t)k];

		// MCExpr::Target: nothing; SymbolRef (hashSymbol), or
		// Binary(Add, SymbolRef, Constant)
		if (r.target)
			return;
		if (r.hasval)
			hashInteger(s, r.value);
		if (r.addend != 0) {
			hashInteger(s, (uint64_t)MCBinaryExpr::Add);
			hashInteger(s, (uint64_t)r.addend);
		}
	}
}

} // namespace

extern "C" struct mca64 *
mca64_open(char *err, size_t errlen)
{
	std::unique_ptr<mca64> m(new mca64);

	LLVMInitializeAArch64TargetInfo();
	LLVMInitializeAArch64TargetMC();
	LLVMInitializeAArch64Disassembler();
	if (!mc_setup(*m, "aarch64--", "aarch64", "+all", "AArch64", err,
	    errlen))
		return nullptr;
	m->HINT = opcodeByName(*m->mii, "HINT");
	m->ADR = opcodeByName(*m->mii, "ADR");
	m->ADRP = opcodeByName(*m->mii, "ADRP");
	m->TBZW = opcodeByName(*m->mii, "TBZW");
	m->TBZX = opcodeByName(*m->mii, "TBZX");
	m->TBNZW = opcodeByName(*m->mii, "TBNZW");
	m->TBNZX = opcodeByName(*m->mii, "TBNZX");
	if (!m->HINT || !m->ADR || !m->ADRP || !m->TBZW || !m->TBZX ||
	    !m->TBNZW || !m->TBNZX) {
		snprintf(err, errlen, "LLVM: AArch64 opcodes missing");
		return nullptr;
	}
	return m.release();
}

extern "C" void
mca64_close(struct mca64 *m)
{
	delete m;
}

extern "C" void
mca64_block_begin(struct mca64 *m)
{
	m->full.clear();
	m->bare.clear();
	m->loose.clear();
}

extern "C" int
mca64_insn(struct mca64 *m, uint32_t word, uint64_t addr,
    const struct mca64_plan *p)
{
	MCInst inst;
	uint64_t size = 0;
	uint8_t b[4] = { (uint8_t)word, (uint8_t)(word >> 8),
	    (uint8_t)(word >> 16), (uint8_t)(word >> 24) };
	bool tail = (p->flags & MCA64_TAIL) != 0;
	unsigned opc;

	m->refs.clear();
	if (m->dis->getInstruction(inst, size, ArrayRef<uint8_t>(b, 4), addr,
	    nulls()) != MCDisassembler::Success || size != 4)
		return 0;
	if (p->flags & MCA64_NOP) {
		// createNoop: HINT #0
		inst.clear();
		inst.setOpcode(m->HINT);
		inst.addOperand(MCOperand::createImm(0));
		tail = false;
	} else if (p->flags & MCA64_BRANCH) {
		// replaceBranchTarget: the first operand, the second of a
		// conditional branch, the third of a test and branch
		unsigned k = 0;

		opc = inst.getOpcode();
		if (m->mia->isConditionalBranch(inst))
			k = 1;
		if (opc == m->TBZW || opc == m->TBZX || opc == m->TBNZW ||
		    opc == m->TBNZX)
			k = 2;
		if (k < inst.getNumOperands())
			inst.getOperand(k) = refOperand(m, p->br);
	}
	// replaceImmWithSymbolRef, each time on the first immediate left
	for (int i = 0; i < p->nimm && i < MCA64_MAXIMM; i++)
		for (unsigned k = 0; k < inst.getNumOperands(); k++)
			if (inst.getOperand(k).isImm()) {
				inst.getOperand(k) = refOperand(m, p->imm[i]);
				break;
			}
	if (p->flags & MCA64_PCREL) {
		// replaceMemOperandDisp: an adr's or adrp's second operand,
		// else the literal operand
		const MCInstrDesc &d = m->mii->get(inst.getOpcode());
		unsigned k = 0;

		opc = inst.getOpcode();
		if (opc == m->ADR || opc == m->ADRP)
			k = 1;
		else
			for (k = 0; k < d.getNumOperands(); k++)
				if (d.operands()[k].OperandType ==
				    MCOI::OPERAND_PCREL)
					break;
		if (k < inst.getNumOperands())
			inst.getOperand(k) = refOperand(m, p->pcrel);
	}
	// hashBlock: unconditional branches (not tail calls) are left out
	if (m->mia->isUnconditionalBranch(inst) && !tail)
		return 1;
	opc = inst.getOpcode();
	hashInst(m, inst, opc);
	// hashBlockLoose: no NOPs (AArch64MCPlusBuilder::isNoop: hint #0);
	// "JMP" for any conditional branch; the mnemonic without white
	// space
	if (opc == m->HINT && inst.getNumOperands() > 0 &&
	    inst.getOperand(0).isImm() && inst.getOperand(0).getImm() == 0)
		return 1;
	if (m->mia->isConditionalBranch(inst)) {
		m->loose.insert("JMP");
		return 1;
	}
	std::pair<const char *, uint64_t> mn = m->printer->getMnemonic(&inst);
	std::string t;
	for (const char *c = mn.first ? mn.first : ""; *c; c++)
		if (!std::isspace((unsigned char)*c))
			t.push_back(*c);
	m->loose.insert(t);
	return 1;
}

extern "C" void
mca64_block_end(struct mca64 *m, int stdhash, struct mca64_block *b)
{
	std::string l;

	for (const std::string &x : m->loose)
		l += x;
	b->instr = hashString(m->full, stdhash);
	b->opcode = hashString(l, stdhash);
	m->func += m->bare;
}

extern "C" uint64_t
mca64_func_end(struct mca64 *m, int stdhash)
{
	uint64_t h = hashString(m->func, stdhash);

	m->func.clear();
	return h;
}
