// See COPYING file for copyright and license details.
//
// bridge.cc: what the bridge does for both architectures (bridge.hh): the
// MC layer as BOLT's BinaryContext::createBinaryContext builds it,
// decoding and LLVM's text of an instruction, BOLT's hash strings
// (bolt/lib/Core/HashUtilities.cpp: hashBlock, hashBlockLoose,
// hashInstOperand, hashExpr) and their hashes (xxh3, or libstdc++'s
// std::hash), and the one function the shared object exports, the
// table of llvmbrops.h.  Opcode numbers are looked up by name in LLVM's
// tables: the targets' private headers are not installed.
#include "bridge.hh"
#include "llvmbrops.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <functional>

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace ppbridge {

// the releases' rules (bridge.hh); one entry is compiled in, the one of
// the headers the object is built against
static const Rules releases[] = {
	{ 19, false },
	{ 22, true },
};

const Rules &
rules()
{
	for (const Rules &r : releases)
		if (r.major == LLVM_VERSION_MAJOR)
			return r;
	static_assert(LLVM_VERSION_MAJOR == 19 || LLVM_VERSION_MAJOR == 22,
	    "a release llvmrel.h does not know: add its rules");
	return releases[0];
}

namespace {

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

uint64_t
hashString(const std::string &s, int stdhash)
{
	if (stdhash)
		return std::hash<std::string>{}(s);
	return xxh3_64bits(StringRef(s));
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

unsigned
regNumber(const MCOperand &o)
{
#if LLVM_VERSION_MAJOR >= 20
	return o.getReg().id();
#else
	return o.getReg();
#endif
}

} // namespace

Bridge::~Bridge() = default;

bool
Bridge::setup(const char *tr, const char *arch, const char *features,
    const char *name, char *err, size_t errlen)
{
	std::string e;

	triple = Triple(tr);
	triple.setObjectFormat(Triple::ELF);
	target = TargetRegistry::lookupTarget(arch, triple, e);
	if (target == nullptr) {
		snprintf(err, errlen, "LLVM: no %s target: %s", name, e.c_str());
		return false;
	}
#if LLVM_VERSION_MAJOR >= 21
	const Triple &tn = triple;
#else
	const std::string tn = triple.str();
#endif
	mri.reset(target->createMCRegInfo(tn));
	if (mri)
		mai.reset(target->createMCAsmInfo(*mri, tn, MCTargetOptions()));
	sti.reset(target->createMCSubtargetInfo(tn, "", features));
	mii.reset(target->createMCInstrInfo());
	if (!mri || !mai || !sti || !mii) {
		snprintf(err, errlen, "LLVM: cannot set up the %s MC layer", name);
		return false;
	}
	ctx.reset(new MCContext(triple, mai.get(), mri.get(), sti.get()));
	dis.reset(target->createMCDisassembler(*sti, *ctx));
	mia.reset(target->createMCInstrAnalysis(mii.get()));
	printer.reset(target->createMCInstPrinter(triple,
	    mai->getAssemblerDialect(), *mai, *mii, *mri));
	if (!dis || !mia || !printer) {
		snprintf(err, errlen, "LLVM: no %s disassembler, analysis "
		    "or printer", name);
		return false;
	}
	// hashBlockLoose's strings: "JMP" for any conditional branch
	mnemid.assign(mii->getNumOpcodes(), -1);
	mnem.push_back("JMP");
	mnemkey.push_back(orderKey(mnem[0]));
	mnemof.emplace("JMP", 0);
	return true;
}

unsigned
Bridge::opcode(const char *name) const
{
	unsigned i;

	for (i = 0; i < mii->getNumOpcodes(); i++)
		if (mii->getName(i) == name)
			return i;
	return 0;
}

bool
Bridge::get(MCInst &inst, uint64_t &size, const uint8_t *p, size_t n,
    uint64_t addr)
{
	size = 0;
	return dis->getInstruction(inst, size, ArrayRef<uint8_t>(p, n), addr,
	    nulls()) != MCDisassembler::Fail && size > 0 && size <= n;
}

size_t
Bridge::decode(const uint8_t *p, size_t n, uint64_t addr)
{
	MCInst inst;
	uint64_t size;

	refs.clear();
	return get(inst, size, p, n, addr) ? (size_t)size : 0;
}

int
Bridge::text(const uint8_t *p, size_t n, uint64_t addr, char *buf,
    size_t len)
{
	MCInst inst;
	uint64_t size;
	std::string s;
	raw_string_ostream os(s);

	refs.clear();
	if (len == 0 || !get(inst, size, p, n, addr))
		return 0;
	printer->printInst(&inst, addr, "", *sti, os);
	os.flush();
	snprintf(buf, len, "%s", s.c_str());
	return 1;
}

MCOperand
Bridge::ref(const SymRef &r)
{
	refs.push_back(r);
	return MCOperand::createExpr(MCConstantExpr::create(
	    (int64_t)(refs.size() - 1), *ctx));
}

// hashInstOperand, hashExpr of the expressions ref made: SymbolRef
// (hashSymbol) or Binary(Add, SymbolRef, Constant), maybe inside an
// AArch64 expression (rules: nothing, or the specifier's number first)
void
Bridge::hashOperand(std::string &s, const MCOperand &o) const
{
	int64_t k;

	if (o.isImm())
		hashInteger(s, (uint64_t)o.getImm());
	else if (o.isReg())
		hashInteger(s, regNumber(o));
	else if (o.isExpr() && o.getExpr()->evaluateAsAbsolute(k) && k >= 0 &&
	    (size_t)k < refs.size()) {
		const SymRef &r = refs[(size_t)k];

		if (r.spec != 0) {
			if (!rules().specifier)
				return;
			hashInteger(s, r.spec);
		}
		if (r.hasval)
			hashInteger(s, r.value);
		if (r.addend != 0) {
			hashInteger(s, (uint64_t)MCBinaryExpr::Add);
			hashInteger(s, (uint64_t)r.addend);
		}
	}
}

void
Bridge::hashInst(const MCInst &inst, unsigned opc)
{
	if (opc == 0) {
		full.push_back(0);
		bare.push_back(0);
	} else {
		StringRef name = printer->getOpcodeName(opc);
		full.append(name.data(), name.size());
		bare.append(name.data(), name.size());
	}
	for (const MCOperand &op : inst)
		hashOperand(full, op);
}

void
Bridge::looseInst(const MCInst &inst, bool nop, bool cond)
{
	if (nop)
		return;
	if (cond) {
		loose.push_back(0);
		return;
	}
	// the printer's mnemonic is its table's entry for the opcode (the
	// operands play no part): made once per opcode
	int32_t &id = mnemid[inst.getOpcode()];
	if (id < 0) {
#if LLVM_VERSION_MAJOR >= 21
		std::pair<const char *, uint64_t> mn = printer->getMnemonic(inst);
#else
		std::pair<const char *, uint64_t> mn = printer->getMnemonic(&inst);
#endif
		std::string t;
		for (const char *c = mn.first ? mn.first : ""; *c; c++)
			if (!std::isspace((unsigned char)*c))
				t.push_back(*c);
		// one id per string: opcodes of one mnemonic share it
		auto it = mnemof.find(t);
		if (it != mnemof.end())
			id = (int32_t)it->second;
		else {
			id = (int32_t)mnem.size();
			mnemof.emplace(t, (uint32_t)id);
			mnem.push_back(t);
			mnemkey.push_back(orderKey(t));
		}
	}
	loose.push_back((uint32_t)id);
}

void
Bridge::blockBegin()
{
	full.clear();
	bare.clear();
	loose.clear();
}

void
Bridge::blockEnd(int stdhash, llvmbr_block *b)
{
	const std::vector<std::string> &mn = mnem;
	const std::vector<uint64_t> &key = mnemkey;

	// std::set<std::string>'s order: the strings' (an id is one
	// string, a string one id); their first bytes decide most
	std::sort(loose.begin(), loose.end());
	loose.erase(std::unique(loose.begin(), loose.end()), loose.end());
	std::sort(loose.begin(), loose.end(),
	    [&mn, &key](uint32_t x, uint32_t y) {
		return key[x] != key[y] ? key[x] < key[y] : mn[x] < mn[y];
	    });
	lbuf.clear();
	for (uint32_t x : loose)
		lbuf += mn[x];
	b->instr = hashString(full, stdhash);
	b->opcode = hashString(lbuf, stdhash);
	func += bare;
}

uint64_t
Bridge::funcEnd(int stdhash)
{
	uint64_t h = hashString(func, stdhash);

	func.clear();
	return h;
}

} // namespace ppbridge

// ---- the table the loader calls (llvmbrops.h) ----

namespace {

using ppbridge::Bridge;

void *
op_open(unsigned machine, char *err, size_t errlen)
{
	switch (machine) {
	case 62:	// EM_X86_64
		return ppbridge::openX86(err, errlen);
	case 183:	// EM_AARCH64
		return ppbridge::openA64(err, errlen);
	}
	snprintf(err, errlen, "LLVM: no bridge for ELF machine %u", machine);
	return nullptr;
}

void
op_close(void *b)
{
	delete static_cast<Bridge *>(b);
}

size_t
op_decode(void *b, const uint8_t *p, size_t n, uint64_t addr)
{
	return static_cast<Bridge *>(b)->decode(p, n, addr);
}

int
op_text(void *b, const uint8_t *p, size_t n, uint64_t addr, char *buf,
    size_t len)
{
	return static_cast<Bridge *>(b)->text(p, n, addr, buf, len);
}

void
op_block_begin(void *b)
{
	static_cast<Bridge *>(b)->blockBegin();
}

size_t
op_insn(void *b, const uint8_t *p, size_t n, uint64_t addr, unsigned flags,
    llvmbr_resolve fn, void *arg)
{
	return static_cast<Bridge *>(b)->insn(p, n, addr, flags, fn, arg);
}

void
op_block_end(void *b, int stdhash, llvmbr_block *out)
{
	static_cast<Bridge *>(b)->blockEnd(stdhash, out);
}

uint64_t
op_func_end(void *b, int stdhash)
{
	return static_cast<Bridge *>(b)->funcEnd(stdhash);
}

uint64_t
op_hash16(uint64_t low, uint64_t high)
{
	return hashing::detail::hash_16_bytes(low, high);
}

uint64_t
op_hash_value(uint64_t v)
{
	return (uint64_t)(size_t)hash_value(v);
}

#define STR2(x) #x
#define STR(x) STR2(x)

const llvmbr_ops ops = {
	LLVMBR_ABI,
	LLVM_VERSION_MAJOR,
	"LLVM " STR(LLVM_VERSION_MAJOR) "." STR(LLVM_VERSION_MINOR) "."
	    STR(LLVM_VERSION_PATCH),
	op_open,
	op_close,
	op_decode,
	op_text,
	op_block_begin,
	op_insn,
	op_block_end,
	op_func_end,
	op_hash16,
	op_hash_value,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const llvmbr_ops *
profpipe_llvm_bridge(void)
{
	return &ops;
}
