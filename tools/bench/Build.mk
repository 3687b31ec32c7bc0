# SPDX-License-Identifier: GPL-2.0
# bench/Build.mk - the benchmarks (figures printed, never asserted):
# bench/decode/ times libmttdecode and mttdecode on streams written by
# the test encoders; bench/libmtt/ times an mtt_trace call, filtered out
# and enabled.  Built by "make bench" only.
BENCH_DECODE_SRC := $(wildcard bench/decode/*.c)

bench: $(B)/bench $(B)/bench-libmtt $(B)/mttdecode
	$(B)/bench $(B)/mttdecode
	$(B)/bench-libmtt

$(B)/bench: $(BENCH_DECODE_SRC) bench/decode/bench.h $(TESTENC)/stpenc.c \
		$(TESTENC)/stpenc.h $(B)/libmttdecode.a
	$(CC) $(CPPFLAGS_ALL) -I$(TESTENC) $(CFLAGS_ALL) -o $@ \
		$(BENCH_DECODE_SRC) $(TESTENC)/stpenc.c $(B)/libmttdecode.a \
		$(MTTD_LIBS)

$(B)/bench-libmtt: bench/libmtt/bench.c $(B)/libmtt.a
	$(CC) $(CPPFLAGS_ALL) -Ilib/mtt/include/mtt $(CFLAGS_ALL) -o $@ \
		bench/libmtt/bench.c $(B)/libmtt.a -lpthread
