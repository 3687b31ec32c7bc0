# SPDX-License-Identifier: GPL-2.0
# bench/Build.mk - the benchmarks (figures printed, never asserted):
# bench/decode/ times libmttdecode and mttdecode on streams written by
# the test encoders; bench/libmtt/ times an mtt_trace call, filtered out
# and enabled; bench/printer/ times mttdecode against the MIPI SyS-T
# reference printer (a peer's sources, PRINTER_DIR, BSD-3-Clause, built
# here out of tree into $(B)/bench-systprint/ with cmake and g++, and
# nowhere else: never part of the product or the tests).  Built by
# "make bench" only.
BENCH_DECODE_SRC := $(wildcard bench/decode/*.c)
PRINTER_DIR ?= $(abspath ../../shared/peers/mipi-sys-t-printer)
SYSTPRINT := $(abspath $(B))/bench-systprint/build/systprint

bench: $(B)/bench $(B)/bench-libmtt $(B)/mttdecode bench-printer
	$(B)/bench $(B)/mttdecode
	$(B)/bench --par $(B)/mttdecode $(B) $(BENCH_PAR_MIB)
	$(B)/bench-libmtt

# mttdecode -j alone: BENCH_PAR_MIB (1024) of raw STP, of SyS-T over STP
# and of the reference printer's hex lines, written into $(B)/ and
# deleted after; BENCH_PAR_ONLY: only the kinds whose names hold it
# ("hex lines", "SyS-T", "raw STP")
BENCH_PAR_MIB ?= 1024
BENCH_PAR_ONLY ?=
bench-par: $(B)/bench $(B)/mttdecode
	$(B)/bench --par $(B)/mttdecode $(B) $(BENCH_PAR_MIB) "$(BENCH_PAR_ONLY)"

# the printer comparison alone (skipped when the peer's sources are not
# there); BENCH_PRINTER_MB of hex lines, mttdecode's side BENCH_PRINTER_REPS
# runs a round on them (its CPU time summed)
BENCH_PRINTER_MB ?= 32
BENCH_PRINTER_REPS ?= 10
bench-printer: $(B)/bench-printer $(B)/mttdecode
	@if [ -d "$(PRINTER_DIR)/printer" ]; then \
	  $(MAKE) --no-print-directory $(SYSTPRINT) && \
	  $(B)/bench-printer $(B)/mttdecode $(SYSTPRINT) \
	    $(BENCH_PRINTER_MB) $(BENCH_PRINTER_REPS); \
	else echo "bench-printer: no $(PRINTER_DIR)/printer, skipped"; fi

$(SYSTPRINT):
	mkdir -p $(dir $@)
	cmake -DCMAKE_BUILD_TYPE=Release \
	  -DPUGIXML_SRC_DIR=$(PRINTER_DIR)/pugixml/src \
	  -S $(PRINTER_DIR)/printer -B $(dir $@) >$(dir $@)../systprint.log
	$(MAKE) -C $(dir $@) systprint >>$(dir $@)../systprint.log

$(B)/bench-printer: bench/printer/printer.c bench/decode/util.c \
		bench/decode/corpus.c bench/decode/bench.h \
		$(TESTENC)/systenc.c $(TESTENC)/systenc.h $(TESTENC)/stpenc.c
	$(CC) $(CPPFLAGS_ALL) -I$(TESTENC) -Ibench/decode $(CFLAGS_ALL) \
		-o $@ bench/printer/printer.c bench/decode/util.c \
		bench/decode/corpus.c $(TESTENC)/systenc.c $(TESTENC)/stpenc.c

$(B)/bench: $(BENCH_DECODE_SRC) bench/decode/bench.h $(TESTENC)/stpenc.c \
		$(TESTENC)/stpenc.h $(TESTENC)/systenc.c $(TESTENC)/systenc.h \
		$(B)/libmttdecode.a
	$(CC) $(CPPFLAGS_ALL) -I$(TESTENC) $(CFLAGS_ALL) -o $@ \
		$(BENCH_DECODE_SRC) $(TESTENC)/stpenc.c $(TESTENC)/systenc.c \
		$(B)/libmttdecode.a $(MTTD_LIBS)

$(B)/bench-libmtt: bench/libmtt/bench.c $(B)/libmtt.a
	$(CC) $(CPPFLAGS_ALL) -Ilib/mtt/include/mtt $(CFLAGS_ALL) -o $@ \
		bench/libmtt/bench.c $(B)/libmtt.a -lpthread
