#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fuzz-smoke.t - runs the libFuzzer targets (tools/build/fuzz/fuzz_stp,
# fuzz_syst, fuzz_coll, fuzz_rv, fuzz_mprof, fuzz_framing and fuzz_mtt, built by
# "make -C tools fuzz" with clang, ASan and UBSan) for about 20 seconds
# each from the seed corpus in tools/fuzz/corpus (tools/fuzz/corpus-coll
# for fuzz_coll, tools/fuzz/corpus-rv for fuzz_rv, tools/fuzz/corpus-mprof
# for fuzz_mprof, tools/fuzz/corpus-framing for fuzz_framing,
# tools/fuzz/corpus-mtt for fuzz_mtt); any
# crash, sanitizer report, leak, timeout or chunking mismatch fails.
# FUZZ_SECONDS overrides the duration of each run ("make -C tools
# fuzz-long" runs them for longer).  New corpus entries go to a temporary
# directory.
. "$(dirname "$0")/lib.sh"

secs=${FUZZ_SECONDS:-20}

if mkdir -p "$TOOLS/build" && flock "$TOOLS/build/.make.lock" make -s -C "$TOOLS" fuzz >"$TMP/build.log" 2>&1 &&
    [ -x "$TOOLS/build/fuzz/fuzz_stp" ] && [ -x "$TOOLS/build/fuzz/fuzz_syst" ] &&
    [ -x "$TOOLS/build/fuzz/fuzz_coll" ] && [ -x "$TOOLS/build/fuzz/fuzz_rv" ] &&
    [ -x "$TOOLS/build/fuzz/fuzz_mprof" ] &&
    [ -x "$TOOLS/build/fuzz/fuzz_framing" ] &&
    [ -x "$TOOLS/build/fuzz/fuzz_mtt" ]; then
	tap_ok 0 "fuzz targets built"
else
	sed 's/^/# /' "$TMP/build.log"
	tap_ok 1 "fuzz targets built (needs clang with libFuzzer)"
	tap_done
fi

n=0
for f in "$TOOLS"/fuzz/corpus/*; do
	[ -f "$f" ] && n=$((n + 1))
done
[ "$n" -gt 0 ]
tap_ok $? "seed corpus present ($n files)"
n=0
for f in "$TOOLS"/fuzz/corpus-coll/*.xml; do
	[ -f "$f" ] && n=$((n + 1))
done
[ "$n" -gt 0 ]
tap_ok $? "collateral seed corpus present ($n files)"
n=0
for f in "$TOOLS"/fuzz/corpus-rv/*.rv; do
	[ -f "$f" ] && n=$((n + 1))
done
[ "$n" -gt 0 ]
tap_ok $? "RISC-V encapsulation seed corpus present ($n files)"
n=0
for f in "$TOOLS"/fuzz/corpus-mprof/*.bin; do
	[ -f "$f" ] && n=$((n + 1))
done
[ "$n" -gt 0 ]
tap_ok $? "MiniProfiler seed corpus present ($n files)"

n=0
for f in "$TOOLS"/fuzz/corpus-framing/*; do
	[ -f "$f" ] && n=$((n + 1))
done
[ "$n" -gt 0 ]
tap_ok $? "framing seed corpus present ($n files)"

for t in fuzz_stp fuzz_syst fuzz_coll fuzz_rv fuzz_mprof fuzz_framing fuzz_mtt; do
	seeds=$TOOLS/fuzz/corpus
	[ "$t" = fuzz_coll ] && seeds=$TOOLS/fuzz/corpus-coll
	[ "$t" = fuzz_rv ] && seeds=$TOOLS/fuzz/corpus-rv
	[ "$t" = fuzz_mprof ] && seeds=$TOOLS/fuzz/corpus-mprof
	[ "$t" = fuzz_framing ] && seeds=$TOOLS/fuzz/corpus-framing
	[ "$t" = fuzz_mtt ] && seeds=$TOOLS/fuzz/corpus-mtt
	mkdir "$TMP/corpus-$t" "$TMP/artifacts-$t"
	"$TOOLS/build/fuzz/$t" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$TMP/artifacts-$t/" \
		"$TMP/corpus-$t" "$seeds" >"$TMP/$t.log" 2>&1
	rc=$?
	grep -E "^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)" \
		"$TMP/$t.log" | sed "s/^/# $t /"
	if [ "$rc" -eq 0 ] && [ -z "$(ls "$TMP/artifacts-$t")" ]; then
		tap_ok 0 "$t: ${secs}s of fuzzing, no crash"
	else
		tail -n 40 "$TMP/$t.log" | sed 's/^/# /'
		for a in "$TMP/artifacts-$t"/*; do
			[ -f "$a" ] || continue
			echo "# crashing input (hex): $(od -An -tx1 "$a" | tr -d '\n' | cut -c1-400)"
		done
		tap_ok 1 "$t: ${secs}s of fuzzing, no crash"
	fi
done

tap_done
