# SPDX-License-Identifier: GPL-2.0
# fuzz/Build.mk - libFuzzer targets (clang, ASan, UBSan), one per parser:
# the STP decoder and the SyS-T layer (chunking must not change the
# result), the collateral XML loader, the RISC-V encapsulation decoder,
# the framing layers, MTT frames, the MiniProfiler parser.  They link the
# libraries built once more, by a sub-make into $(B)/fuzz/lib, with the
# sanitizers and libFuzzer's coverage.  Seeds: fuzz/corpus/ (fuzz_stp,
# fuzz_syst), fuzz/corpus-<name>/ for the others; "make seeds" rewrites
# the generated ones (fuzz/mkseeds.c, fuzz/mkseeds_rv.c, on the
# specification-written test encoders of ../tests/host/enc/).
FUZZ_NAMES := stp syst coll rv framing mtt mprof
FUZZ_TARGETS := $(FUZZ_NAMES:%=$(B)/fuzz/fuzz_%)
FUZZ_SAN := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB := $(B)/fuzz/lib
FUZZ_LONG_SECONDS ?= 600
TESTENC := ../tests/host/enc

fuzz: $(FUZZ_TARGETS)

# the libraries with coverage for libFuzzer (a make of their own)
$(FUZZ_LIB)/libmttdecode.a $(FUZZ_LIB)/libmprof.a: FORCE
	$(MAKE) --no-print-directory B=$(FUZZ_LIB) CC=$(FUZZ_CC) \
		SANITIZE= EXTRA_CFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" \
		$(FUZZ_LIB)/libmttdecode.a $(FUZZ_LIB)/libmprof.a
.PHONY: FORCE
FORCE:

$(B)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_hash.h $(FUZZ_LIB)/libmttdecode.a \
		$(FUZZ_LIB)/libmprof.a
	$(FUZZ_CC) $(INC_PUBLIC) -D_DEFAULT_SOURCE $(WARN) $(FUZZ_SAN) \
		-fsanitize=fuzzer -o $@ $< $(FUZZ_LIB)/libmttdecode.a \
		$(FUZZ_LIB)/libmprof.a $(MTTD_LIBS) $(MPROF_LIBS)

seeds: $(B)/mkseeds $(B)/mkseeds_rv
	$(B)/mkseeds fuzz/corpus fuzz/corpus-coll
	mkdir -p fuzz/corpus-rv
	$(B)/mkseeds_rv fuzz/corpus-rv

$(B)/mkseeds_rv: fuzz/mkseeds_rv.c $(TESTENC)/rvenc.c $(TESTENC)/rvenc.h
	$(CC) $(CPPFLAGS_ALL) -I$(TESTENC) $(CFLAGS_ALL) -o $@ \
		fuzz/mkseeds_rv.c $(TESTENC)/rvenc.c

$(B)/mkseeds: fuzz/mkseeds.c $(TESTENC)/stpenc.c $(TESTENC)/stpenc.h \
		$(B)/libmttdecode.a
	$(CC) $(CPPFLAGS_ALL) -I$(TESTENC) $(CFLAGS_ALL) -o $@ fuzz/mkseeds.c \
		$(TESTENC)/stpenc.c $(B)/libmttdecode.a $(MTTD_LIBS)

# Long runs; new corpus entries and crashes go to $(B)/fuzz/<target>.out/
fuzz-long: fuzz
	set -e; for n in $(FUZZ_NAMES); do \
		t=$(B)/fuzz/fuzz_$$n; seeds=fuzz/corpus-$$n; \
		case $$n in stp|syst) seeds=fuzz/corpus;; esac; \
		mkdir -p $$t.out/corpus; \
		$$t -max_total_time=$(FUZZ_LONG_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
			-artifact_prefix=$$t.out/ $$t.out/corpus $$seeds; \
	done
