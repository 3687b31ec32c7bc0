#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# jmem.t - mttdecode -j keeps its memory bounded: on SyS-T over STP and
# raw STP captures (tools/bench's streams, written with the spec encoders
# of tests/host/enc), a lossy raw capture (pargen.c) of 8 and 32 MiB and
# the reference printer's hex lines (bench-printer's corpus, 8 and 32 MB),
# every output format at -j2 has a peak RSS (ru_maxrss of the child, by
# maxrss.c) under the bound of performance.rst ("Memory"):
#
#   -j1's peak RSS on the same input + (N + 1) x (3 x segment + 8 MiB)
#
# whatever the input's size (the bound has no term for it) and however
# much output a piece makes (pieces made smaller for a format that prints
# much, cut short at the cap when the output grows later in the file);
# and its output is -j1's byte for byte.  A
# fixed amount of work; no timing.  Not built with ASan (it would
# measure the sanitiser's memory).
. "$(dirname "$0")/lib.sh"
need_mttdecode
M=$MTTDECODE
mkdir -p "$TOOLS/build" && flock "$TOOLS/build/.make.lock" \
	make -s -C "$TOOLS" build/bench build/bench-printer >"$TMP/make.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/make.log"; bail "cannot build tools/build/bench"; }
cc=$(ctest_cc)
for g in maxrss pargen; do
	$cc -std=c11 -Wall -Wextra -Werror -O1 -D_DEFAULT_SOURCE \
	    -I"$TOOLS/lib/mttdecode/include" -I"$TOP/tests/host/enc" \
	    -o "$TMP/$g" "$TOP/tests/host/src/$g.c" "$TOP/tests/host/enc/stpenc.c" \
	    >"$TMP/cc.log" 2>&1 || { sed 's/^/# /' "$TMP/cc.log"; bail "$g"; }
done

for n in 8 32; do
	"$TOOLS/build/bench" --write-syst "$TMP/s$n.stp" $n &&
		"$TOOLS/build/bench" --write "$TMP/r$n.stp" $n &&
		"$TMP/pargen" "$TMP/l$n.stp" $((n << 20)) 3 &&
		"$TOOLS/build/bench-printer" --write "$TMP/h$n.stp" \
			"$TMP/coll.xml" $n ||
		bail "cannot write the $n MiB captures"
done

J=2
MIB=1024	# KiB

# check KIND SEGMENT_KIB ARGS...: for both sizes of capture KIND (s, r,
# l), -j2's peak RSS under the bound and its output that of -j1
check() {
	kind=$1 seg=$2
	shift 2
	for n in 8 32; do
		f=$TMP/$kind$n.stp
		r1=$("$TMP/maxrss" "$TMP/o1" "$M" -j1 "$@" "$f") ||
			bail "mttdecode -j1 $* $f failed"
		r2=$("$TMP/maxrss" "$TMP/o2" "$M" -j$J "$@" "$f") ||
			bail "mttdecode -j$J $* $f failed"
		bound=$((r1 + (J + 1) * (3 * seg + 8 * MIB)))
		out=$(($(wc -c <"$TMP/o1") / 1048576))
		[ "$r2" -le "$bound" ]
		tap_ok $? "$kind$n $*: -j$J peak RSS $r2 KiB <= $bound KiB (-j1 $r1 KiB, $out MiB out)"
		cmp -s "$TMP/o1" "$TMP/o2"
		tap_ok $? "$kind$n $*: -j$J output is -j1's"
	done
}

S=$((8 * MIB))	# --segment's default with --syst
check s $S --syst
check s $S --syst --format=json
check s $S --format=csv
check s $S --syst --format=chrome
R=$((4 * MIB))	# the default without
check r $R
check r $R --format=json
check r $R --format=chrome
check r $R --packets
check l $R
check l $R --format=json
check l $R --packets --nulls
C=--collateral=$TMP/coll.xml	# hex lines: SyS-T's segment
check h $S "$C"
check h $S "$C" --format=json
check h $S "$C" --format=csv
check h $S "$C" --format=chrome

# a format that prints more than 3 bytes a byte (SyS-T JSON, 5): the
# pieces are made smaller from the first window's rate, so that workers
# decode them whole (none cut short at the cap)
"$M" -j$J --stats --syst --format=json "$TMP/s32.stp" 2>"$TMP/e" >/dev/null
capped=$(sed -n 's/^-j pieces:.* \([0-9]*\) finished in order (output cap)$/\1/p' "$TMP/e")
echo "# $(grep '^-j pieces' "$TMP/e")"
tap_is "$capped" 0 "SyS-T JSON at -j$J: smaller pieces, none cut short at the cap"

# output that grows past the first window's rate: 8 MiB of raw STP, then
# 16 MiB of NULL packets (an ASYNC every 4 KiB) printed with --packets
# --nulls (36 bytes a byte): pieces are cut short at the cap and finished
# in order, within the bound, with -j1's output
{ bytes "ff ff ff ff ff ff ff ff ff ff 0f"; head -c 4085 /dev/zero; } >"$TMP/blk"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	cat "$TMP/blk" "$TMP/blk" >"$TMP/blk2" && mv "$TMP/blk2" "$TMP/blk"
done
cat "$TMP/r8.stp" "$TMP/blk" >"$TMP/m24.stp"
r1=$("$TMP/maxrss" "$TMP/o1" "$M" -j1 --packets --nulls "$TMP/m24.stp")
r2=$("$TMP/maxrss" "$TMP/o2" "$M" -j$J --stats --packets --nulls \
	"$TMP/m24.stp" 2>"$TMP/e")
bound=$((r1 + (J + 1) * (3 * R + 8 * MIB)))
[ "$r2" -le "$bound" ]
tap_ok $? "growing output: -j$J peak RSS $r2 KiB <= $bound KiB (-j1 $r1 KiB)"
cmp -s "$TMP/o1" "$TMP/o2"
tap_ok $? "growing output: -j$J output is -j1's"
capped=$(sed -n 's/^-j pieces:.* \([0-9]*\) finished in order (output cap)$/\1/p' "$TMP/e")
echo "# $(grep '^-j pieces' "$TMP/e")"
[ "${capped:-0}" -gt 0 ]
tap_ok $? "growing output: pieces cut short at the cap ($capped)"

tap_done
