#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# framing.t - mttdecode reads STP out of framed captures: Intel Trace Hub
# MSC multi-block buffers (block descriptors, valid_dw, several windows,
# a wrapped ring read from its oldest block) and CoreSight formatter
# frames (TMC memory frames with and without FSYNC barriers, TPIU port
# captures with FSYNC and HSYNC, ID changes immediate and delayed, other
# IDs and padding in between), written by src/framegen.c around random
# STP streams (src/ocsdgen.c) and a SyS-T stream.  Each framed capture
# must decode exactly like the raw stream it carries, with --input given
# and when detected; OpenCSD (trc_pkt_lister, snapshot buffer
# format=coresight) must read the same packets from the same frames.  A
# missing trc_pkt_lister is a failure, not a skip.
. "$(dirname "$0")/lib.sh"
need_mttdecode
. "$TOP/tests/lib/opencsd.sh"
M=$MTTDECODE

cc=${CC:-cc}
if $cc -std=c11 -O1 -D_DEFAULT_SOURCE -I"$TOOLS/lib/mttdecode/include" -I"$TOP/tests/host/enc" \
    -I"$TOP/tests/host/src" -o "$TMP/ocsdgen" "$TOP/tests/host/src/ocsdgen.c" \
    "$TOP/tests/host/src/testutil.c" "$TOP/tests/host/enc/stpenc.c" \
    "$TOOLS/build/libmttdecode.a" -lexpat 2>"$TMP/cc.log" &&
    $cc -std=c11 -Wall -Wextra -Werror -O1 -o "$TMP/framegen" \
    "$TOP/tests/host/src/framegen.c" 2>>"$TMP/cc.log"; then
	tap_ok 0 "build the stream and capture generators"
else
	sed 's/^/# /' "$TMP/cc.log"
	tap_ok 1 "build the stream and capture generators"
	tap_done
fi
"$TMP/ocsdgen" 1 2000 >"$TMP/r1.stp"
"$TMP/ocsdgen" 2 1500 >"$TMP/r2.stp"
cp "$TOOLS/fuzz/corpus/syst-linux.stp" "$TMP/syst.stp"

# same A B NAME [MTTDECODE OPTIONS FOR B...]: packets and messages of
# raw STP file A equal those of framed capture B
same() {
	_a=$1 _b=$2 _n=$3
	shift 3
	"$M" --packets --input=stp "$_a" >"$TMP/want" 2>&1
	"$M" --packets "$@" "$_b" >"$TMP/got" 2>&1
	if [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got"; then
		tap_ok 0 "$_n ($(grep -c '^@' "$TMP/want") packets)"
	else
		tap_ok 1 "$_n"
		diff "$TMP/want" "$TMP/got" | head -n 8 | sed 's/^/# /'
	fi
}

# same_auto A B NAME: messages of A (raw STP) equal those of B, its kind
# detected
same_auto() {
	"$M" --input=stp "$1" >"$TMP/want" 2>&1
	"$M" "$2" >"$TMP/got" 2>&1
	if [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got"; then
		tap_ok 0 "$3"
	else
		tap_ok 1 "$3"
		diff "$TMP/want" "$TMP/got" | head -n 8 | sed 's/^/# /'
	fi
}

# pad FILE: FILE padded with 0x00 to whole 32-bit words (MSC valid_dw)
pad() {
	cp "$1" "$TMP/padded"
	while [ $(($(wc -c <"$TMP/padded") % 4)) -ne 0 ]; do
		printf '\000' >>"$TMP/padded"
	done
}

# ---- Intel TH MSC ----
# msc NAME RAW UNITS BLOCKS WINDOWS
msc() {
	"$TMP/framegen" msc "$2" "$TMP/$1.msc" "$TMP/$1.exp" "$3" "$4" "$5"
	tap_ok $? "msc $1: capture written ($4 blocks of $(($3 * 64)) bytes x $5)"
	pad "$2"
	if [ "$(wc -c <"$TMP/$1.exp")" -lt "$(wc -c <"$TMP/padded")" ]; then
		# wrapped: the oldest data is the tail of the stream
		tail -c "$(wc -c <"$TMP/$1.exp")" "$TMP/padded" >"$TMP/tail"
		cmp -s "$TMP/tail" "$TMP/$1.exp"
		tap_ok $? "msc $1: what the ring keeps is the stream's tail"
	else
		cmp -s "$TMP/padded" "$TMP/$1.exp"
		tap_ok $? "msc $1: the capture holds the whole stream"
	fi
	same "$TMP/$1.exp" "$TMP/$1.msc" "msc $1: --input=intel-th-msc" \
		--input=intel-th-msc
	same_auto "$TMP/$1.exp" "$TMP/$1.msc" "msc $1: detected"
}
msc one "$TMP/r1.stp" 64 8 1
msc multi "$TMP/r1.stp" 8 10 3
msc wrap "$TMP/r1.stp" 8 8 1
msc wrap2 "$TMP/r2.stp" 4 7 1
"$M" --no-output --stats --input=intel-th-msc "$TMP/wrap.msc" 2>"$TMP/stats"
grep -q '^msc blocks: *8 (1 windows, 1 wrapped, 0 bad' "$TMP/stats"
tap_ok $? "msc wrap: --stats counts the wrapped window"
grep '^msc' "$TMP/stats" | sed 's/^/# /'

# SyS-T over STP through an MSC buffer, as a user with the hardware has it
"$TMP/framegen" msc "$TMP/syst.stp" "$TMP/syst.msc" "$TMP/syst.exp" 16 20 1
"$M" --syst --input=stp "$TMP/syst.exp" >"$TMP/want" 2>&1
"$M" --syst "$TMP/syst.msc" >"$TMP/got" 2>&1
[ "$(grep -c . "$TMP/want")" -gt 3 ] && cmp -s "$TMP/want" "$TMP/got"
tap_ok $? "msc: SyS-T messages ($(grep -c . "$TMP/want") lines) as from the raw stream"

# a capture cut inside a block: what was there is decoded, the cut said
head -c 1000 "$TMP/one.msc" >"$TMP/cut.msc"
"$M" --no-output --stats "$TMP/cut.msc" 2>"$TMP/stats"
grep -q '^msc blocks: *1 (0 windows, 0 wrapped, 0 bad 64-byte units, 1 cut short)' \
	"$TMP/stats"
tap_ok $? "msc: a capture cut inside its first block is reported"

# raw STP is not taken for an MSC capture, nor MSC for STP
"$M" --no-output --stats "$TMP/r1.stp" 2>"$TMP/stats"
! grep -q '^msc' "$TMP/stats" && ! grep -q '^cs' "$TMP/stats"
tap_ok $? "raw STP is still read as raw STP"

# ---- CoreSight ----
if ! command -v "$(opencsd_lister)" >/dev/null 2>&1; then
	tap_ok 1 "trc_pkt_lister is installed (apt-get install libopencsd-bin)"
	tap_done
fi
tap_ok 0 "trc_pkt_lister is installed"
OPENCSD_TRACE_ID=0x10 opencsd_norm "$TMP/r1.stp" >"$TMP/o.r1"
OPENCSD_TRACE_ID=0x10 opencsd_norm "$TMP/r2.stp" >"$TMP/o.r2"
[ "$(grep -c . "$TMP/o.r1")" -gt 1000 ] && [ "$(grep -c . "$TMP/o.r2")" -gt 700 ]
tap_ok $? "OpenCSD reads the raw streams"

# cs NAME RAW SEED ID MODE OPENCSD_ARGS [DECOY]
cs() {
	_name=$1 _raw=$2 _seed=$3 _id=$4 _mode=$5 _oargs=$6 _sync=$5
	[ "$_mode" = plain ] && _sync=frame
	shift 6
	"$TMP/framegen" cs "$TMP/$_raw.stp" "$TMP/$_name.cs" "$_seed" "$_id" \
		"$_mode" "$@"
	tap_ok $? "cs $_name: capture written ($_mode, ID $_id)"
	o=$(OPENCSD_FORMAT=coresight OPENCSD_TRACE_ID=$_id \
		OPENCSD_ARGS=$_oargs opencsd_norm "$TMP/$_name.cs")
	tap_is "$o" "$(cat "$TMP/o.$_raw")" \
		"cs $_name: OpenCSD ($_oargs) reads the raw stream's packets from the frames"
	m=$(MTTDECODE_ARGS="--input=coresight --cs-sync=$_sync --trace-id=$_id" \
		mttdecode_norm "$TMP/$_name.cs")
	tap_is "$m" "$o" "cs $_name: mttdecode agrees with OpenCSD"
	same "$TMP/$_raw.stp" "$TMP/$_name.cs" "cs $_name: every packet as raw" \
		--input=coresight --cs-sync="$_sync" --trace-id="$_id"
}
# framegen modes; OpenCSD 1.3.3 needs -tpiu to step over FSYNCs
cs plain r1 1 0x10 plain ""
cs barrier r1 2 0x10 frame -tpiu
cs barrier2 r2 3 0x10 frame -tpiu
cs tpiu r1 4 0x10 fsync -tpiu
cs tpiu-hsync r2 5 0x10 hsync -tpiu_hsync

# detection: the kind, and the trace ID from the first ASYNC
"$TMP/framegen" cs "$TMP/r1.stp" "$TMP/id.cs" 6 0x2b frame
same "$TMP/r1.stp" "$TMP/id.cs" "cs: trace ID 0x2b detected" --input=coresight
same_auto "$TMP/r1.stp" "$TMP/id.cs" "cs: kind and trace ID detected"
"$M" --no-output --stats "$TMP/id.cs" 2>"$TMP/stats"
grep -q '^cs trace id: *0x2b' "$TMP/stats" &&
	grep -q '^cs ids seen: *0x00 0x07 0x2b 0x42$' "$TMP/stats"
tap_ok $? "cs: --stats names the trace ID and every ID seen"
grep '^cs' "$TMP/stats" | sed 's/^/# /'

# a second STP stream under another ID, starting first: detection takes
# it, --trace-id picks the STM's
"$TMP/framegen" cs "$TMP/r1.stp" "$TMP/decoy.cs" 7 0x10 frame "$TMP/r2.stp"
same "$TMP/r2.stp" "$TMP/decoy.cs" "cs decoy: detection takes the ID whose ASYNC comes first" \
	--input=coresight
same "$TMP/r1.stp" "$TMP/decoy.cs" "cs decoy: --trace-id=16 takes the STM's" \
	--input=coresight --trace-id=16
o=$(OPENCSD_FORMAT=coresight OPENCSD_TRACE_ID=0x10 OPENCSD_ARGS=-tpiu \
	opencsd_norm "$TMP/decoy.cs")
tap_is "$o" "$(cat "$TMP/o.r1")" "cs decoy: OpenCSD reads ID 0x10 alike"

# bad options
"$M" --input=coresight --trace-id=0x70 "$TMP/id.cs" >/dev/null 2>&1
[ $? -eq 2 ]
tap_ok $? "--trace-id=0x70 (reserved) is refused"
"$M" --input=coresight --cs-sync=nope "$TMP/id.cs" >/dev/null 2>&1
[ $? -eq 2 ]
tap_ok $? "--cs-sync=nope is refused"

tap_done
