#!/bin/sh
# fuzz-smoke.t - runs the libFuzzer target (tools/build/fuzz/fuzz_stp,
# built by "make -C tools fuzz" with clang, ASan and UBSan) for about 20
# seconds from the seed corpus in tools/fuzz/corpus; any crash, sanitizer
# report, leak, timeout or chunking mismatch fails.  FUZZ_SECONDS
# overrides the duration.  New corpus entries go to a temporary directory.
. "$(dirname "$0")/lib.sh"

secs=${FUZZ_SECONDS:-20}
fuzzer=$TOOLS/build/fuzz/fuzz_stp

if make -s -C "$TOOLS" fuzz >"$TMP/build.log" 2>&1 && [ -x "$fuzzer" ]; then
	tap_ok 0 "fuzz target built"
else
	sed 's/^/# /' "$TMP/build.log"
	tap_ok 1 "fuzz target built (needs clang with libFuzzer)"
	tap_done
fi

n=0
for f in "$TOOLS"/fuzz/corpus/*; do
	[ -f "$f" ] && n=$((n + 1))
done
[ "$n" -gt 0 ]
tap_ok $? "seed corpus present ($n files)"

mkdir "$TMP/corpus" "$TMP/artifacts"
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-max_len=65536 -print_final_stats=1 \
	-artifact_prefix="$TMP/artifacts/" \
	"$TMP/corpus" "$TOOLS/fuzz/corpus" >"$TMP/fuzz.log" 2>&1
rc=$?
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)" "$TMP/fuzz.log" |
	sed 's/^/# /'
if [ "$rc" -eq 0 ] && [ -z "$(ls "$TMP/artifacts")" ]; then
	tap_ok 0 "${secs}s of fuzzing: no crash"
else
	tail -n 40 "$TMP/fuzz.log" | sed 's/^/# /'
	for a in "$TMP/artifacts"/*; do
		[ -f "$a" ] || continue
		echo "# crashing input (hex): $(od -An -tx1 "$a" | tr -d '\n' | cut -c1-400)"
	done
	tap_ok 1 "${secs}s of fuzzing: no crash"
fi

tap_done
