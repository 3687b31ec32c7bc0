#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# altbench.t - make bench's alt_bench (tests/guest/alt_bench.c, run in the
# VM by tests/guest/bench_alt.sh) on the host, where no STM device or
# tracefs is needed: it builds as tests/Makefile builds it, refuses bad
# arguments (exit 2), sends exactly W + N events of each size through
# libmtt into a file (mttdecode finds every RAW frame, of the right size)
# and through write(2) into a plain file standing in for trace_marker
# (every byte there), times the clock read alone, and without
# -DALT_LTTNG says where LTTng is.  The
# LTTng-UST build (-DALT_LTTNG, liblttng-ust) is compiled when
# <lttng/tracepoint.h> is installed (make deps), else skipped saying so.
# Times are printed by the program, never checked.
. "$(dirname "$0")/lib.sh"

L=$TOOLS/lib/mtt
need_mttdecode
B=$TMP/alt_bench
cc -O2 -Wall -Wextra -Werror -std=gnu11 -I"$TOP/include/uapi" -I"$TOP/include" \
	-I"$L/include" -I"$L/include/mtt" -o "$B" "$TOP/tests/guest/alt_bench.c" \
	"$TOOLS/build/libmtt.a" -lpthread >"$TMP/cc.log" 2>&1
r=$?
tap_ok $r "alt_bench builds with tests/Makefile's flags"
[ $r = 0 ] || { sed 's/^/# /' "$TMP/cc.log"; tap_done; }

# bad arguments: usage, exit 2
for args in "" "-m mtt-write -n 5" "-m mtt-write -s 16" "-m nosuch -s 16 -n 5" \
	"-m marker -s 0 -n 5" "-m marker -s 4097 -n 5" "-m marker -s 16, -n 5" \
	"-m marker -s 16 -n 0" "-m marker -s 16 -n 5x" "-m marker -s 16 -n 5 -c -2" \
	"-m marker -s 16 -n 5 extra"; do
	# shellcheck disable=SC2086 # the arguments, split
	"$B" $args >/dev/null 2>&1
	tap_is "$?" 2 "alt_bench $args: exit 2"
done

# libmtt into a file: W + N RAW frames of each size, nothing lost
"$B" -m mtt-write -d "$TMP/out.mtt" -s 16,1024 -n 30 -w 7 -c -1 >"$TMP/mw.out"
tap_ok $? "mtt-write into a file"
tap_is "$(sed 's/ ns=.*//' "$TMP/mw.out")" "alt mtt-write 16 sent=37 failed=0
alt mtt-write 1024 sent=37 failed=0" "mtt-write: one line a size, 37 sent, none refused"
"$MTTDECODE" --format json "$TMP/out.mtt" | awk '
	/"cmd":"RAW"/ {
		ti = $0; sub(/.*"type_info":/, "", ti); sub(/[,}].*/, "", ti)
		n[ti % 65536]++; next
	}
	/"cmd":"META"/ { meta++; next }
	{ other++ }
	END { printf "meta=%d 16=%d 1024=%d other=%d\n", meta, n[16], n[1024], other }' >"$TMP/count"
tap_is "$(cat "$TMP/count")" "meta=1 16=37 1024=37 other=0" \
	"mttdecode: every frame, of its size (bench_alt.sh counts them so)"

# write(2) per event into a plain file: every byte
: >"$TMP/marker"
"$B" -m marker -o "$TMP/marker" -s 16,64 -n 10 -c -1 >"$TMP/mk.out"
tap_ok $? "marker into a plain file"
tap_is "$(sed 's/ ns=.*//' "$TMP/mk.out")" "alt marker 16 sent=11 failed=0
alt marker 64 sent=11 failed=0" "marker: -w defaults to N / 10"
tap_is "$(wc -c <"$TMP/marker" | tr -d ' ')" $((11 * 16 + 11 * 64)) \
	"marker: every byte written"
tap_is "$(head -c 16 "$TMP/marker")" abcdefghijklmnop "marker: the payload"

"$B" -m marker -o "$TMP/nosuch/marker" -s 16 -n 1 >/dev/null 2>&1
tap_is "$?" 1 "marker: a path that cannot be opened: exit 1"
"$B" -m lttng -s 16 -n 1 2>"$TMP/lt.err"
tap_is "$?" 1 "lttng without -DALT_LTTNG: exit 1"
tap_is "$(cat "$TMP/lt.err")" \
	"alt_bench: lttng is in alt_bench_lttng (make -C tests bench-lttng)" \
	"lttng without -DALT_LTTNG: says where it is"

# clock: the timestamp's read alone, no output
tap_is "$("$B" -m clock -s 16 -n 5 -w 2 -c -1 | sed 's/ ns=.*//')" \
	"alt clock 16 sent=7 failed=0" "clock: a line, nothing refused"

# the LTTng-UST build, as make -C tests bench-lttng makes it
if echo '#include <lttng/tracepoint.h>' | cc -E -x c - >/dev/null 2>&1; then
	cc -O2 -Wall -Wextra -Werror -std=gnu11 -DALT_LTTNG -I"$TOP/tests/guest" \
		-I"$TOP/include/uapi" -I"$TOP/include" -I"$L/include/mtt" \
		-o "$TMP/alt_bench_lttng" "$TOP/tests/guest/alt_bench.c" \
		"$TOOLS/build/libmtt.a" -llttng-ust -ldl -lpthread >"$TMP/cc.log" 2>&1
	r=$?
	tap_ok $r "alt_bench_lttng builds against liblttng-ust"
	[ $r = 0 ] || sed 's/^/# /' "$TMP/cc.log"
else
	echo "ok $((tap_n + 1)) - alt_bench_lttng builds # SKIP no <lttng/tracepoint.h> (liblttng-ust-dev; make deps)"
	tap_n=$((tap_n + 1))
fi
tap_done
