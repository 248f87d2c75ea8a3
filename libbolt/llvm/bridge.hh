// See COPYING file for copyright and license details.
//
// bridge.hh: the inside of the bridge (llvmbr.h), shared by its C++
// files and nothing else: bridge.cc, what both architectures do (the MC
// layer BOLT's BinaryContext sets up, decoding, the strings of
// HashUtilities.cpp and their hashes, the table the loader calls);
// bridgex86.cc and bridgea64.cc, what each asks of LLVM and what BOLT's
// disassembly does to an instruction of it before hashing.  Built once
// per release against that release's headers (LLVM_VERSION_MAJOR); what
// differs between releases is in the tables of struct Rules.
#ifndef PROFPIPE_BRIDGE_HH
#define PROFPIPE_BRIDGE_HH

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include "llvmbr.h"

namespace ppbridge {

// what BOLT's hashing of an operand made an expression does in this
// release (HashUtilities.cpp: hashExpr), where releases differ
struct Rules {
	unsigned	 major;		// LLVM_VERSION_MAJOR
	// an AArch64 expression of the target's own (AArch64MCPlusBuilder::
	// getTargetExprFor): 19 an AArch64MCExpr, of kind MCExpr::Target,
	// hashed as nothing; from 21 an MCSpecifierExpr, of kind
	// MCExpr::Specifier, hashed as its specifier's number and then the
	// expression it wraps
	bool		 specifier;
};
const Rules &rules();

// an operand the resolver made symbol + addend, kept while its
// instruction is hashed: an expression operand holds its index
struct SymRef {
	unsigned	 spec;		// AArch64: the specifier around it (0:
					// none)
	bool		 hasval;
	uint64_t	 value;
	int64_t		 addend;
};

// one target's MC layer and BOLT's strings of its instructions; the
// architectures derive from it
class Bridge {
public:
	virtual ~Bridge();
	// an instruction BOLT disassembles and hashes (llvmbr_insn)
	virtual size_t insn(const uint8_t *p, size_t n, uint64_t addr,
	    unsigned flags, llvmbr_resolve fn, void *arg) = 0;
	size_t decode(const uint8_t *p, size_t n, uint64_t addr);
	int text(const uint8_t *p, size_t n, uint64_t addr, char *buf,
	    size_t len);
	void blockBegin();
	void blockEnd(int stdhash, llvmbr_block *b);
	uint64_t funcEnd(int stdhash);

protected:
	// set up target ARCH of triple TRIPLE as ObjectFile::makeTriple
	// gives an ELF file of it, with FEATURES; NAME in the messages
	bool setup(const char *triple, const char *arch, const char *features,
	    const char *name, char *err, size_t errlen);
	unsigned opcode(const char *name) const;
	// decode for hashing: Fail is no instruction (BinaryFunction::
	// disassemble), SoftFail one
	bool get(llvm::MCInst &inst, uint64_t &size, const uint8_t *p,
	    size_t n, uint64_t addr);
	// an expression operand standing for what the resolver answered
	llvm::MCOperand ref(const SymRef &r);
	// hashBlock's part of one instruction: the name of opcode opc (0,
	// an instruction BOLT dropped, as a NUL) into the strings with and
	// without operands, then the operands into the first
	void hashInst(const llvm::MCInst &inst, unsigned opc);
	// hashBlockLoose's part: nop and cond as the architecture's
	// MCPlusBuilder says (isNoop, isConditionalBranch)
	void looseInst(const llvm::MCInst &inst, bool nop, bool cond);

	llvm::Triple		 triple;
	const llvm::Target	*target = nullptr;
	std::unique_ptr<llvm::MCRegisterInfo> mri;
	std::unique_ptr<llvm::MCAsmInfo> mai;
	std::unique_ptr<llvm::MCSubtargetInfo> sti;
	std::unique_ptr<llvm::MCInstrInfo> mii;
	std::unique_ptr<llvm::MCContext> ctx;
	std::unique_ptr<llvm::MCDisassembler> dis;
	std::unique_ptr<llvm::MCInstrAnalysis> mia;
	std::unique_ptr<llvm::MCInstPrinter> printer;
	std::vector<SymRef>	 refs;		// of the instruction decoded

private:
	void hashOperand(std::string &s, const llvm::MCOperand &o) const;

	std::string		 full, bare;	// hashBlock with and without
						// operands, this block
	std::string		 func;		// hashBlock without, all blocks
	// hashBlockLoose's set of this block: ids of mnem's strings (one
	// per opcode: its mnemonic without white space, made once; the
	// first one "JMP"), sorted and made unique at the block's end
	std::vector<uint32_t>	 loose;
	std::vector<int32_t>	 mnemid;	// per opcode, -1: not made yet
	std::vector<std::string> mnem;
	std::vector<uint64_t>	 mnemkey;	// its first 8 bytes, big-endian:
						// the strings' order, mostly
	std::unordered_map<std::string, uint32_t> mnemof;
	std::string		 lbuf;		// the block's loose string
};

Bridge *openX86(char *err, size_t errlen);
Bridge *openA64(char *err, size_t errlen);

} // namespace ppbridge

#endif
