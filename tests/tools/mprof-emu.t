#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof-emu.t - mttprofile and mttdecode against a MiniProfiler device
# emulator written from the seed alone (src/mprof_emu.c: its own CRC16,
# CRC32 and packing, nothing of libmprofdev), on a pty or into a capture
# file:
#  - entry_time wrapping at 2^32 us: the call tree, profile.folded, the
#    statistics and the Chrome events agree, over one wrap and many.
. "$(dirname "$0")/lib.sh"

cc=$(ctest_cc)
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
make -s -C "$TOOLS" all >"$TMP/build.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/build.log"; bail "make -C tools failed"; }
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror -g -O1 $SAN -D_DEFAULT_SOURCE \
	-I"$TOOLS/mprof" -I"$TOOLS/mprofdev" -o "$TMP/mttprofile" \
	"$TOOLS"/mttprofile/*.c "$TOOLS"/mprof/*.c "$TOOLS/mprofdev/mprof_wire.c" \
	-lelf >"$TMP/cc.log" 2>&1 &&
$cc -std=c11 -Wall -Wextra -Werror -g -O1 -o "$TMP/emu" \
	"$TOP/tests/tools/src/mprof_emu.c" >>"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build mttprofile or the emulator"; }
tap_ok 0 "mttprofile (ASan) and the device emulator built"
M=$TOOLS/build/mttdecode

# reap PID: its exit status; a hang guard kills it after 60 s (status 137)
reap() {
	n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt 1200 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	kill -9 "$1" 2>/dev/null
	wait "$1"
}

# live NAME RECORDS [EMULATOR-OPTION...] -- [MTTPROFILE-OPTION...]: the
# emulator on a pty (commands logged in $TMP/NAME.log), mttprofile on
# its slave into $TMP/NAME; sets lrc (mttprofile's status) and erc (the
# emulator's)
live() {
	ln=$1
	rf=$2
	shift 2
	eo=
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		eo="$eo $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	"$TMP/emu" pty "$TMP/$ln.pty" --log="$TMP/$ln.log" $eo <"$rf" &
	epid=$!
	i=0
	while [ ! -s "$TMP/$ln.pty" ] && [ $i -lt 2000 ] && kill -0 $epid 2>/dev/null; do
		sleep 0.01
		i=$((i + 1))
	done
	[ -s "$TMP/$ln.pty" ] || { kill $epid 2>/dev/null; bail "the emulator did not open a pty"; }
	timeout -k 10 120 "$TMP/mttprofile" -q --status-interval=0 -o "$TMP/$ln" \
		"$@" "$(cat "$TMP/$ln.pty")" >"$TMP/$ln.out" 2>"$TMP/$ln.err"
	lrc=$?
	sed 's/^/# /' "$TMP/$ln.err"
	reap $epid
	erc=$?
}

# the call tree of a profile.txt, "name calls total self" per line
tree() {
	sed -n '/^# call tree/,$p' "$1" | sed '1d; s/  calls=\([0-9]*\) total=\([0-9]*\) self=\([0-9]*\)$/ \1 \2 \3/'
}
# the statistics table: "name calls total self" per function
stats() {
	awk 'NF == 7 && $1 ~ /^[0-9]+$/ { print $7, $1, $2, $3 }' "$1" | sort
}
# Chrome events: "name ts dur" per complete event, in file order
chrome() {
	perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
		print "$_->{name} $_->{ts} $_->{dur}\n"
			for grep { $_->{ph} eq "X" } @{$j->{traceEvents}}' <"$1"
}

# ---- 1. entry_time wraps at 2^32 us ----
# tick (0x08000600) from 0xFFFFFE0C for 2000 us calls x (0x08000640) at
# 0xFFFFFED4 for 100 us and, after the wrap, at 200 for 400 us; sent in
# exit order as a device does
cat >"$TMP/wrap.rec" <<EOF
0x08000640 0xFFFFFED4 100 1
0x08000640 200 400 1
0x08000600 0xFFFFFE0C 2000 0
EOF
live wrap "$TMP/wrap.rec" -- --records=3
tap_is "$lrc $erc" "0 0" "one wrap: mttprofile and the emulator exit 0"
W=$TMP/wrap
tap_is "$(tree "$W/profile.txt")" "0x08000600 1 2000 1500
  0x08000640 2 500 500" "one wrap: call tree: tick (self 1500) -> x twice"
tap_is "$(stats "$W/profile.txt")" "0x08000600 1 2000 1500
0x08000640 2 500 500" "one wrap: statistics: tick 1 call, self 1500; x 2 calls, 500"
tap_is "$(cat "$W/profile.folded")" "0x08000600 1500
0x08000600;0x08000640 500" "one wrap: profile.folded: x under tick only"
tap_is "$(chrome "$W/profile.chrome.json")" "0x08000600 4294966796 2000
0x08000640 4294966996 100
0x08000640 4294967496 400" "one wrap: Chrome events on one timeline (the last x at 2^32 + 200)"
"$M" --format=folded "$W" >"$TMP/wrap.folded" 2>"$TMP/wrap.derr"
tap_is "$? $(cat "$TMP/wrap.folded")" "0 0x08000600 1500
0x08000600;0x08000640 500" "one wrap: mttdecode DIR --format=folded agrees"

# the first record after the wrap: its caller entered before it
printf '0x08000640 200 400 1\n0x08000600 0xFFFFFE0C 2000 0\n' >"$TMP/late.rec"
"$TMP/emu" file "$TMP/late.mprof" <"$TMP/late.rec"
"$M" --format=chrome "$TMP/late.mprof" >"$TMP/late.json"
tap_is "$(chrome "$TMP/late.json")" "0x08000600 4294966796 2000
0x08000640 4294967496 400" "a stream starting after the wrap: the caller still comes first"

# many wraps: tick every 1.5e9 us (10 ticks, 4 wraps), each calling x
# at +200 for 100 us and at +1200 for 400 us
perl -e 'for my $k (0 .. 9) { my $b = 0xFFFFFE0C + $k * 1500000000;
	printf "0x08000640 %u 100 1\n0x08000640 %u 400 1\n0x08000600 %u 2000 0\n",
		($b + 200) % 2**32, ($b + 1200) % 2**32, $b % 2**32;
	print STDERR "0x08000600 $b 2000\n0x08000640 ", $b + 200,
		" 100\n0x08000640 ", $b + 1200, " 400\n" }' \
	>"$TMP/many.rec" 2>"$TMP/many.want"
"$TMP/emu" file "$TMP/many.mprof" --per-packet=7 <"$TMP/many.rec"
"$M" "$TMP/many.mprof" >"$TMP/many.txt"
tap_is "$(tree "$TMP/many.txt")" "0x08000600 10 20000 15000
  0x08000640 20 5000 5000" "4 wraps: call tree: tick x10 (self 15000) -> x x20"
tap_is "$(stats "$TMP/many.txt")" "0x08000600 10 20000 15000
0x08000640 20 5000 5000" "4 wraps: the statistics agree"
"$M" --format=folded "$TMP/many.mprof" >"$TMP/many.folded"
tap_is "$(cat "$TMP/many.folded")" "0x08000600 15000
0x08000600;0x08000640 5000" "4 wraps: folded stacks agree"
"$M" --format=chrome "$TMP/many.mprof" >"$TMP/many.json"
chrome "$TMP/many.json" >"$TMP/many.got"
cmp -s "$TMP/many.got" "$TMP/many.want"
st=$?
tap_ok $st "4 wraps: every Chrome event at its 64-bit time, in time order"
[ $st -eq 0 ] || diff "$TMP/many.want" "$TMP/many.got" | head -n 10 | sed 's/^/# /'
grep -q "entry times wrapped 4 times" "$TMP/many.txt"
tap_ok $? "4 wraps: the text report says how often the times wrapped"

tap_done
