// llvmopt.cpp: the driver of bench/fdatawrite-llvm.sh: LLVM 19's
// optimizer (the -O2 module pipeline of PassBuilder) on an IR file,
// printing the optimized module; linked statically from Debian's
// llvm-19-dev archives, it is a program of about 29 MB of .text.
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

int main(int argc, char **argv)
{
	LLVMContext ctx;
	SMDiagnostic err;

	if (argc != 2) {
		errs() << "usage: llvmopt file.ll\n";
		return 2;
	}
	std::unique_ptr<Module> m = parseIRFile(argv[1], err, ctx);
	if (!m) {
		err.print(argv[0], errs());
		return 1;
	}
	PassBuilder pb;
	LoopAnalysisManager lam;
	FunctionAnalysisManager fam;
	CGSCCAnalysisManager cgam;
	ModuleAnalysisManager mam;
	pb.registerModuleAnalyses(mam);
	pb.registerCGSCCAnalyses(cgam);
	pb.registerFunctionAnalyses(fam);
	pb.registerLoopAnalyses(lam);
	pb.crossRegisterProxies(lam, fam, cgam, mam);
	ModulePassManager mpm =
	    pb.buildPerModuleDefaultPipeline(OptimizationLevel::O2);
	mpm.run(*m, mam);
	m->print(outs(), nullptr);
	return 0;
}
