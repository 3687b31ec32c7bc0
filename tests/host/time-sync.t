#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# time-sync.t - the TIME_SYNC clock exchange on the wire and in the
# decoders (tests/host/src/timesync.c, under ASan + UBSan: bytes spelled
# out from Documentation/miniprofiler.rst and mtt.rst, "Clock
# exchanges"), then mttdecode's text and JSON lines for the captures it
# writes: an MTT reply's seq, t_rx, t_tx and end offset; a MiniProfiler
# one's, and its unwrapped times in the report.
. "$(dirname "$0")/lib.sh"
san_tools
san_cc "$TMP/timesync" "$TOP/tests/host/src/timesync.c" \
	"$SAN/libmprof.a" "$SAN/libmttdecode.a" -lelf -lexpat \
	>"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build timesync with $(ctest_cc) and ASan/UBSan"; }
"$TMP/timesync" "$TMP" | grep -v '^1\.\.' >"$TMP/c.tap"
cat "$TMP/c.tap"
n=$(grep -c '^\(not \)\{0,1\}ok ' "$TMP/c.tap")
D=$SAN/mttdecode

check() {	# check NAME EXPECTED-FILE GOT-FILE
	n=$((n + 1))
	if cmp -s "$2" "$3"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		diff "$2" "$3" | sed 's/^/# /'
	fi
}

"$D" --input=mtt "$TMP/capture.bin" | grep TIME_SYNC >"$TMP/got" 2>&1
cat >"$TMP/want" <<'X'
           3000 - MTT TIME_SYNC REPLY - comp:0xffffffff [1000, 2000] seq 9 t_rx 1000 t_tx 2000 end 44 cpu 80
              - - MTT TIME_SYNC NACK - comp:0xffffffff 0x00000007 seq 9 cpu 80
X
check "mttdecode text: the reply's t_rx, t_tx, end offset; the NACK without" "$TMP/want" "$TMP/got"

"$D" --input=mtt --format=json "$TMP/capture.bin" |
	grep -o '"cmd":"TIME_SYNC".*' | sed 's/"component".*"payload":"[0-9a-f]*"//' >"$TMP/got"
cat >"$TMP/want" <<'X'
"cmd":"TIME_SYNC","reply":"ok","target":80,,"t_rx":1000,"t_tx":2000,"end_offset":44,"crc":null}
"cmd":"TIME_SYNC","reply":"nack","target":80,,"crc":null}
X
check "mttdecode JSON: t_rx, t_tx, end_offset on the reply only" "$TMP/want" "$TMP/got"

"$D" "$TMP/capture.mprof" >"$TMP/out" 2>&1
grep -A2 'TIME_SYNC' "$TMP/out" | grep -v '^--$' >"$TMP/got"
cat >"$TMP/want" <<'X'
@25 TIME_SYNC seq=305419896 t_rx=4294967280 t_tx=16 end=45
@45 PROFILE_DATA version=1 records=1
  0x00001000 entry=32 dur=5 depth=0
# clock exchanges (TIME_SYNC), on the records' timeline
       seq        t_rx_us        t_tx_us   end_offset
 305419896     4294967280     4294967312           45
X
check "mttdecode on a MiniProfiler capture: the exchange's line, its unwrapped times" "$TMP/want" "$TMP/got"
echo "1..$n"
