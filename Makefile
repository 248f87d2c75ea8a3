# profpipe: a family of small filters that turn perf and LLVM profiles
# into what BOLT and clang read.  Plain GNU make, no configure step.
#
#   make                 optimized tools in build/bin
#   make check           the bats suite against an ASan+UBSan build
#   make check-large     the slower comparisons on the large program
#   make fuzz            libFuzzer harnesses (clang-19) in build/fuzz
#   make bench           the benchmarks in bench/ against the reference tools
#   make install PREFIX=/usr/local DESTDIR=

TOOLS   = perfdecode preagg prfraw2idx bbmap batmap fdatawrite yamlwrite \
	  profpipe-perf2bolt afdowrite heatmap

CC      ?= cc
CFLAGS  ?= -O2 -g
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
BUILD   ?= build

WARN    = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	  -Wmissing-prototypes -Wwrite-strings -Wformat=2 -Wno-format-nonliteral
override CFLAGS   += -std=c11 $(WARN)
override CPPFLAGS += -D_GNU_SOURCE
# two layers: libutil/ knows nothing of profiles (util.h), libbolt/ is
# BOLT's view of a binary and its profiles, built on libutil, in
# sub-layers by folder (HACKING; tests/00-conventions keeps their order);
# every folder's headers are found by name
BOLTDIRS = $(sort $(patsubst %/,%,$(dir $(wildcard libbolt/*/*.[ch] \
	libbolt/*/*/*.[ch] libbolt/*/*.cc))))
INCLUDES = -Ilibutil $(addprefix -I,$(BOLTDIRS))
LDLIBS_perfdecode = -lzstd -pthread
LDLIBS_preagg     = -lelf -lz -pthread
LDLIBS_prfraw2idx = -lz
LDLIBS_bbmap      = -lelf -lz -lzstd
LDLIBS_batmap     = -lelf -lz
LDLIBS_fdatawrite = -lelf -lz -lcapstone
LDLIBS_yamlwrite  = -lyaml -lcapstone -lelf -lz
LDLIBS_profpipe-perf2bolt = -lelf -lz -pthread
LDLIBS_afdowrite  = -ldw -lelf -lz -lcapstone
# heatmap: Capstone (for --density's graphs) linked in, in a fixed-address
# executable: its shared library's 77,000 relocations touched 4 MB at
# every start, most of the resident size of a heat map of a large profile
LDLIBS_heatmap    = -lelf -lz -Wl,-Bstatic -lcapstone -Wl,-Bdynamic -lm -no-pie
LDLIBS  ?=

# The bridge to LLVM's MC layer (libbolt/llvm/: BOLT's hashes, and which
# AArch64 words decode), one C++ source built against each llvm-N-dev
# present into a shared object per release, build/lib/profpipe-llvmN.so,
# installed in $(LIBDIR); the tools open the release a pipeline is made
# for at run time (libbolt/llvm/llvmbr.c), so one build serves every
# release.  Each object holds only the parts of LLVM it uses, from the
# static libraries (the whole of libLLVM.so cost each run about 25 ms of
# relocation and 40 MB of memory); nothing else includes or links LLVM.
LIBDIR  ?= $(PREFIX)/lib/profpipe
LLVM_RELEASES = 19 22
LLVM_HAVE := $(foreach r,$(LLVM_RELEASES),$(if $(shell command -v llvm-config-$(r) 2>/dev/null),$(r)))
$(foreach r,$(filter-out $(LLVM_HAVE),$(LLVM_RELEASES)),$(info profpipe: LLVM $(r)'s bridge is not built: llvm-$(r)-dev is not installed))
LLVM_COMPONENTS = x86disassembler x86desc x86info aarch64disassembler \
	aarch64desc aarch64info mcdisassembler
BRIDGESRC = $(wildcard libbolt/llvm/*.cc)
BRIDGES = $(LLVM_HAVE:%=$(BUILD)/lib/profpipe-llvm%.so)
CXXWARN = -Wall -Wextra -Werror -Wshadow
# bridge_rules R: release R's objects (the C build's options but the
# C-only ones) and its shared object, exporting one function
define bridge_rules
$(BUILD)/obj/llvm$(1)/%.o: libbolt/llvm/%.cc $(HDRS) $(wildcard libbolt/llvm/*.hh)
	@mkdir -p $$(dir $$@)
	$$(CXX) $$(patsubst -I%,-isystem %,$$(shell llvm-config-$(1) --cxxflags)) \
		$$(INCLUDES) $$(filter-out -std=% $$(WARN),$$(CFLAGS)) \
		$$(CXXWARN) -fPIC -fvisibility=hidden -c -o $$@ $$<
$(BUILD)/lib/profpipe-llvm$(1).so: $(BRIDGESRC:libbolt/llvm/%.cc=$(BUILD)/obj/llvm$(1)/%.o)
	@mkdir -p $$(dir $$@)
	$$(CXX) -shared $$(LDFLAGS) -o $$@ $$^ -Wl,--exclude-libs,ALL \
		-Wl,-z,defs $$(shell llvm-config-$(1) --ldflags) \
		$$(shell llvm-config-$(1) --link-static --libs $(LLVM_COMPONENTS)) \
		-lz -lzstd -lm
endef

SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	    -DPROFPIPE_TESTHOOKS \
	    -fno-sanitize-recover=all

UTILSRC = $(wildcard libutil/*.c)
BOLTSRC = $(wildcard libbolt/*/*.c libbolt/*/*/*.c)
LIBS    = $(BUILD)/libbolt.a $(BUILD)/libutil.a
# a tool is tools/<tool>.c or a directory tools/<tool>/ of .c files
toolsrc = $(wildcard tools/$(1).c tools/$(1)/*.c)
toolobj = $(patsubst %.c,$(BUILD)/obj/%.o,$(call toolsrc,$(1)))
BINS    = $(TOOLS:%=$(BUILD)/bin/%)
HDRS    = $(wildcard libutil/*.h libbolt/*/*.h libbolt/*/*/*.h tools/*/*.h)

# helper programs the tests use (writers of synthetic inputs and such)
TESTBINS = $(patsubst tests/tools/%.c,$(BUILD)/testbin/%,$(wildcard tests/tools/*.c))
# libraries beyond these of one helper: TESTLIBS_<helper>
TESTLIBS = -lzstd -lelf -lz
TESTLIBS_brtrace = -lcapstone
TESTLIBS_cfgwalk = -lcapstone
TESTLIBS_datatest = -lcapstone
TESTLIBS_cfgtest = -lcapstone
TESTLIBS_x86dectest = -lcapstone
TESTLIBS_bbcfgtest = -lcapstone
# a helper that tests one tool's own module compiles it in: TESTSRC_<helper>
TESTSRC_bbcfgtest = tools/bbmap/bbaddrmap.c tools/bbmap/bbcfg.c
TESTSRC_commontest = tools/prfraw2idx/md5.c

all: $(BINS) $(BRIDGES)

# the bridges (bridge_rules above)
$(foreach r,$(LLVM_HAVE),$(eval $(call bridge_rules,$(r))))
$(BUILD)/obj/libbolt/llvm/llvmbr.o: override CPPFLAGS += -DPROFPIPE_LIBDIR='"$(LIBDIR)"'

.SECONDEXPANSION:
testbins: $(TESTBINS)
$(BUILD)/testbin/%: tests/tools/%.c $$(TESTSRC_$$*) $(LIBS) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(INCLUDES) $(patsubst %/,-I%,$(sort $(dir $(TESTSRC_$*)))) \
		$(CFLAGS) $(LDFLAGS) -o $@ $< $(TESTSRC_$*) $(LIBS) \
		$(TESTLIBS_$*) $(TESTLIBS)

$(BUILD)/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(INCLUDES) $(CFLAGS) -c -o $@ $<
# the utility layer sees only its own headers
$(BUILD)/obj/libutil/%.o: INCLUDES = -Ilibutil

$(BUILD)/libutil.a: $(UTILSRC:%.c=$(BUILD)/obj/%.o)
	@rm -f $@
	$(AR) rcs $@ $^
$(BUILD)/libbolt.a: $(BOLTSRC:%.c=$(BUILD)/obj/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/bin/%: $$(call toolobj,$$*) $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIBS) \
		$(LDLIBS_$*) $(LDLIBS)

# The test suite runs against a sanitized build so that memory errors in
# any parser fail the tests instead of passing by luck.
san:
	$(MAKE) BUILD=$(BUILD)/san TOOLS="$(TOOLS)" CFLAGS="$(SAN_FLAGS)" \
	    LDFLAGS="-fsanitize=address,undefined" all

# the environment of the tests; they run the fuzz harnesses briefly
# (tests/common.bash: fuzz_briefly), so check builds them first
CHECKENV = PROFPIPE_BIN="$(abspath $(BUILD))/san/bin" \
	PROFPIPE_FASTBIN="$(abspath $(BUILD))/bin" \
	PROFPIPE_TESTBIN="$(abspath $(BUILD))/testbin" \
	PROFPIPE_FUZZBIN="$(abspath $(BUILD))/fuzz"

check: all testbins san fuzz
	@mkdir -p $(BUILD)
	$(CHECKENV) scripts/run-tests $(BUILD)/check.tap $(TESTS)

# comparisons on the large benchmark program (tests/large/build-large.sh
# builds it once into build/large); CI runs them after check
check-large: all testbins san fuzz
	@mkdir -p $(BUILD)
	$(CHECKENV) scripts/run-tests $(BUILD)/check-large.tap \
	    $(or $(TESTS_LARGE),tests/large)

lint:
	mandoc -Tlint -W warning man/*.[157]

# libFuzzer harnesses: fuzz/fuzz_<format>.c links the tool's sources
# other than its main.c, and the two layers' archives (so every library
# they use: cfgdis.c needs Capstone)
FUZZ_perfdata = perfdecode
FUZZ_profraw  = prfraw2idx
FUZZ_bbaddrmap = bbmap
# fuzz_bat: the BAT decoder is all libbolt (there is no tools/bat)
FUZZ_bat      = bat
# fuzz_preagg: the pre-aggregated reader is all libbolt (pa.c)
FUZZ_preagg   = pa
# fuzz_afdodwarf: afdowrite's code map, DWARF and line-table readers
FUZZ_afdodwarf = afdowrite
# fuzz_x86dec: x86dec.c against Capstone (x86class.c), all libbolt
# fuzz_a64dec: a64dec.c against the LLVM release's disassembler (through
# the bridge, build/lib/profpipe-llvmN.so, which it loads), all libbolt
FUZZERS = $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZCC  ?= clang-19
FUZZFLAGS = -std=c11 -g -O1 -D_GNU_SOURCE -DPROFPIPE_FUZZ $(INCLUDES) \
	    -fsanitize=address,undefined
fuzz: $(FUZZERS:%=$(BUILD)/fuzz/fuzz_%)
# every source is compiled once for all harnesses (instrumented for
# coverage, not linked with libFuzzer's main), each layer into an
# archive so each harness takes only what it uses
# (the utility layer sees only its own headers here too)
$(BUILD)/fuzz/obj/libutil/%.o: INCLUDES = -Ilibutil
$(BUILD)/fuzz/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer-no-link -I$(dir $<) -c -o $@ $<
FUZZLIBS = $(BUILD)/fuzz/libbolt.a $(BUILD)/fuzz/libutil.a
$(BUILD)/fuzz/libutil.a: $(UTILSRC:%.c=$(BUILD)/fuzz/obj/%.o)
	@rm -f $@
	$(AR) rcs $@ $^
$(BUILD)/fuzz/libbolt.a: $(BOLTSRC:%.c=$(BUILD)/fuzz/obj/%.o)
	@rm -f $@
	$(AR) rcs $@ $^
# (none for a harness of library code alone: no FUZZ_<format>)
fuzzobj = $(if $(FUZZ_$(1)),$(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(filter-out %/main.c,$(call toolsrc,$(FUZZ_$(1))))))
$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c $$(call fuzzobj,$$*) $(FUZZLIBS) $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZFLAGS) -Itools/$(FUZZ_$*) -fsanitize=fuzzer -o $@ \
	    $(filter %.c %.o,$^) $(FUZZLIBS) \
	    $(LDLIBS_$(FUZZ_$*)) $(LDLIBS) -lelf -lz -lzstd -lcapstone

bench: all
	bench/run

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	install -m 0755 $(BINS) $(DESTDIR)$(BINDIR)
	$(if $(BRIDGES),mkdir -p $(DESTDIR)$(LIBDIR))
	$(if $(BRIDGES),install -m 0644 $(BRIDGES) $(DESTDIR)$(LIBDIR))
	install -m 0644 $(wildcard man/*.1) $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(wildcard man/*.5) $(DESTDIR)$(MANDIR)/man5
	install -m 0644 $(wildcard man/*.7) $(DESTDIR)$(MANDIR)/man7

clean:
	rm -rf $(BUILD)

.SECONDARY:
.PHONY: all testbins san check check-large lint fuzz bench install clean
