/* See COPYING file for copyright and license details. */
/*
 * boltopts.c: the names of the options perf2bolt-19 parses: its own
 * (perf2bolt --help-list-hidden) and llvm-bolt's (llvm-bolt
 * --help-list-hidden: perf2bolt is llvm-bolt under another name, and
 * parses every option of it whatever its mode), as LLVM 19.1 prints them.
 * The driver honours some (main.c's table) and refuses the others by
 * name; this list lets the message say that perf2bolt has the option,
 * where an option of neither is unknown.  tests/75-perf2bolt.bats checks
 * every name the installed perf2bolt-19 prints against it.
 */
#include <stdlib.h>
#include <string.h>

#include "p2b.h"

/* sorted as strcmp sorts (bsearch) */
static const char *const names[] = {
	"aggregate-only", "align-blocks", "align-blocks-min-size",
	"align-blocks-threshold", "align-functions",
	"align-functions-max-bytes", "align-text", "allow-stripped",
	"alt-inst-feature-size", "alt-inst-has-padlen", "asm-dump",
	"assume-abi", "autofdo", "b", "block-alignment", "bolt-id",
	"bolt-info", "bolt-seed", "break-funcs", "cg-from-perf-data",
	"cg-ignore-recursive-calls", "cg-use-split-hot-size",
	"check-encoding", "cold-threshold", "comp-dir-override",
	"conservative-instrumentation", "create-debug-names-section",
	"cu-processing-batch-size", "data", "data2", "debug-skeleton-cu",
	"dot-tooltip-code", "dump-alt-instructions", "dump-cg",
	"dump-data", "dump-dot-all", "dump-linux-exceptions", "dump-orc",
	"dump-para-sites", "dump-pci-fixups", "dump-smp-locks",
	"dump-static-calls", "dump-static-keys", "dwarf-output-path",
	"dwp", "dyno-stats", "dyno-stats-all", "dyno-stats-scale",
	"elim-link-veneers", "eliminate-unreachable", "enable-bat",
	"equalize-bb-counts", "execution-count-threshold",
	"filter-mem-profile", "fix-block-counts", "fix-func-counts",
	"force-data-relocations", "force-inline", "force-patch",
	"frame-opt", "frame-opt-rm-stores", "funcs", "funcs-file",
	"funcs-file-no-regex", "funcs-no-regex", "function-order",
	"generate-function-order", "generate-link-sections", "group-stubs",
	"h", "help", "help-hidden", "help-list", "help-list-hidden",
	"hot-data", "hot-functions-at-end", "hot-text",
	"hot-text-move-sections", "hugify", "icf", "icp",
	"icp-calls-remaining-percent-threshold", "icp-calls-topn",
	"icp-calls-total-percent-threshold", "icp-eliminate-loads",
	"icp-funcs", "icp-inline", "icp-jt-remaining-percent-threshold",
	"icp-jt-targets", "icp-jt-topn", "icp-jt-total-percent-threshold",
	"icp-jump-tables-targets", "icp-mp-threshold",
	"icp-old-code-sequence", "icp-top-callsites", "icp-topn",
	"icp-use-mp", "ignore-build-id", "ignore-interrupt-lbr",
	"indirect-call-promotion", "indirect-call-promotion-calls-topn",
	"indirect-call-promotion-jump-tables-topn",
	"indirect-call-promotion-mispredict-threshold",
	"indirect-call-promotion-topn",
	"indirect-call-promotion-use-mispredicts", "infer-fall-throughs",
	"infer-stale-profile", "inline-all", "inline-ap", "inline-limit",
	"inline-max-iters", "inline-memcpy", "inline-small-functions",
	"inline-small-functions-bytes", "insert-retpolines", "instrument",
	"instrument-calls", "instrument-hot-only",
	"instrumentation-binpath", "instrumentation-file",
	"instrumentation-file-append-pid",
	"instrumentation-no-counters-clear", "instrumentation-sleep-time",
	"instrumentation-wait-forks", "iterative-guess", "itrace",
	"jt-footprint-optimize-for-icache", "jt-footprint-reduction",
	"jump-tables", "keep-aranges", "keep-nops", "keep-tmp", "lite",
	"lite-threshold-count", "lite-threshold-pct", "log-file",
	"long-jump-labels", "match-profile-with-function-hash",
	"match-with-call-graph", "max-data-relocations", "max-funcs",
	"max-samples", "memcpy1-spec", "min-branch-clusters",
	"name-similarity-function-matching-threshold", "nl",
	"no-huge-pages", "no-inline", "no-scan", "no-threads", "o", "p",
	"pa", "pad-funcs", "peepholes", "perfdata", "pid", "plt",
	"preserve-blocks-alignment", "print-after-branch-fixup",
	"print-after-jt-footprint-reduction", "print-after-lowering",
	"print-aliases", "print-all", "print-all-options",
	"print-cache-metrics", "print-cfg", "print-clusters",
	"print-debug-info", "print-disasm", "print-dyno-opcode-stats",
	"print-dyno-stats-only", "print-estimate-edge-counts",
	"print-exceptions", "print-finalized", "print-fix-relaxations",
	"print-fix-riscv-calls", "print-fop", "print-function-statistics",
	"print-globals", "print-icf", "print-icp", "print-inline",
	"print-jump-tables", "print-large-functions", "print-longjmp",
	"print-loops", "print-mem-data", "print-normalized", "print-only",
	"print-optimize-bodyless", "print-options", "print-orc",
	"print-output-address-range", "print-peepholes", "print-plt",
	"print-profile", "print-profile-stats", "print-pseudo-probes",
	"print-regreassign", "print-relocations", "print-reordered",
	"print-reordered-data", "print-reordered-functions",
	"print-retpoline-insertion", "print-sctc", "print-sdt",
	"print-sections", "print-simplify-rodata-loads", "print-sorted-by",
	"print-sorted-by-order", "print-split", "print-stoke", "print-uce",
	"print-unknown", "print-veneer-elimination", "profile-format",
	"profile-ignore-hash", "profile-use-dfs", "r11-availability",
	"reg-reassign", "relocs", "remove-symtab", "reorder-blocks",
	"reorder-data", "reorder-data-algo", "reorder-data-inplace",
	"reorder-data-max-bytes", "reorder-data-max-symbols",
	"reorder-functions", "reorder-functions-use-hot-size",
	"reorder-skip-symbols", "reorder-symbols", "report-bad-layout",
	"report-stale", "retpoline-lfence", "runtime-hugify-lib",
	"runtime-instrumentation-lib", "sctc-mode",
	"sequential-disassembly", "shorten-instructions",
	"shrink-wrapping-threshold", "simplify-conditional-tail-calls",
	"simplify-rodata-loads", "skip-funcs", "skip-funcs-file",
	"split-align-threshold", "split-all-cold", "split-eh",
	"split-functions", "split-strategy", "split-threshold",
	"stale-matching-max-func-size", "stale-matching-min-matched-block",
	"stale-threshold", "stoke", "strict", "strip-rep-ret",
	"tail-duplication", "tasks-per-thread", "terminal-trap",
	"thread-count", "time-aggr", "time-build", "time-opts",
	"time-rewrite", "top-called-limit", "trap-avx512", "trap-old-code",
	"tsp-threshold", "update-debug-sections", "use-aggr-reg-reassign",
	"use-compact-aligner", "use-edge-counts", "use-event-pc",
	"use-gnu-stack", "use-old-text", "v", "verify-cfg", "version", "w",
	"write-dwp", "x86-align-branch-boundary-hot-only",
	"x86-strip-redundant-address-size",
};

static int
namecmp(const void *k, const void *e)
{
	return strcmp(k, *(const char *const *)e);
}

int
bolt19_has(const char *name)
{
	return bsearch(name, names, NELEM(names), sizeof(names[0]),
	    namecmp) != NULL;
}
