#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof.t - MiniProfiler end to end over a pty: a program built with
# -finstrument-functions and libmprofdev (src/mprof_target.c) is the
# device; mttprofile (built with ASan + UBSan) opens the pty slave as its
# serial line, asks for metadata, starts, stops after the 15 records the
# program's fixed calls make, and writes the session.  The profile must
# hold exactly those calls (counts and call tree exact; times only
# plausible), the ELF must match the device's build id, and mttdecode
# must read the capture to the same functions.
. "$(dirname "$0")/lib.sh"

cc=$(ctest_cc)
need_mttdecode
asan_mttprofile
$cc -std=c11 -Wall -Wextra -Werror -g -O1 -finstrument-functions \
	-I"$TOOLS/lib/mprofdev/include" -o "$TMP/target" "$TOP/tests/host/src/mprof_target.c" \
	"$TOOLS/build/libmprofdev.a" -lpthread >"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build the target"; }
tap_ok 0 "mttprofile (ASan) and the instrumented target built"

"$TMP/target" "$TMP/pty" "$TMP/addrs" &
tpid=$!
# hang guard only: the target writes the pty's path as soon as it runs
wait_pty "$TMP/pty" $tpid

S=$TMP/sess
timeout -k 10 120 "$TMP/mttprofile" --records=15 --status-interval=0.05 -o "$S" \
	--elf="$TMP/target" "$(cat "$TMP/pty")" >"$TMP/out" 2>"$TMP/err"
rc=$?
sed 's/^/# /' "$TMP/err"
tap_is "$rc" 0 "mttprofile exits 0"
reap $tpid
tap_is "$?" 0 "the target saw START, STOP and the hang-up, and exited 0"

session_files "$S"
grep -q "matches the device's build id" "$TMP/err"
tap_ok $? "the ELF's .text CRC32 matches the device's build id"
kv() { sed -n "s/^$1=//p" "$S/session.txt"; }
tap_is "$(kv records) $(kv device_records_captured) $(kv buffer_overflows)" \
	"15 15 0" "15 records received, 15 captured by the device, no overflow"
tap_is "$(kv crc_errors) $(kv garbage_bytes) $(kv truncated) $(kv fw_version)" \
	"0 0 0 test-1.0" "a clean stream, the device's metadata"

# exact counts per function, from the text table
tap_is "$(awk 'NF == 7 && $1 ~ /^[0-9]+$/ { print $7 "=" $1 }' "$S/profile.txt" | sort | tr '\n' ' ')" \
	"leaf=7 mid=3 rec=4 work=1 " "calls per function: work 1, mid 3, leaf 7, rec 4"
tap_is "$(sed -n '/^# call tree/,$p' "$S/profile.txt" | sed 's/  calls=\([0-9]*\).*/ \1/')" \
"# call tree
work 1
  mid 3
    leaf 6
  rec 1
    rec 1
      rec 1
        rec 1
  leaf 1" "call tree: work -> mid x3 -> leaf x6, work -> rec -> rec -> rec -> rec, work -> leaf"
# plausible times: min <= avg <= max, self <= total, work includes its callees
awk 'NF == 7 && $1 ~ /^[0-9]+$/ {
	if (!($4 <= $6 + 0.05 && $6 <= $5 + 0.05 && $3 <= $2 && $2 <= $1 * $5)) bad = 1
	t[$7] = $2 }
	END { if (bad || t["work"] < t["mid"]) exit 1 }' "$S/profile.txt"
tap_ok $? "times plausible: min <= avg <= max, self <= total, work >= mid"

# the addresses the device sent are the ELF's (load bias removed)
M=$TOOLS/build/mttdecode
"$M" --format=json --elf="$TMP/target" "$S/capture.mprof" >"$TMP/json"
tap_is "$?" 0 "mttdecode reads the capture (sniffed as MiniProfiler)"
"$M" --format=json "$S" >"$TMP/json-dir"
tap_is "$?" 0 "mttdecode DIR decodes a mttprofile session"
cmp -s "$TMP/json" "$TMP/json-dir"
tap_ok $? "... the same as its capture.mprof with --elf (the ELF from session.txt)"
work=$(sed -n 's/^work=//p' "$TMP/addrs")
grep -q "\"kind\":\"record\",\"func_addr\":\"$work\",\"name\":\"work\"" "$TMP/json"
tap_ok $? "work's record carries its link-time address $work and its name"
tap_is "$(sed -n 's/.*"kind":"function","name":"\([a-z]*\)".*"calls":\([0-9]*\),.*/\1=\2/p' "$TMP/json" | sort | tr '\n' ' ')" \
	"leaf=7 mid=3 rec=4 work=1 " "mttdecode: the same counts"
tap_is "$(grep -c '"kind":"record"' "$TMP/json") $(grep -c '"kind":"ack"' "$TMP/json") $(grep -c '"kind":"metadata"' "$TMP/json")" \
	"15 2 1" "capture: 15 records, ACKs of START and STOP, one METADATA"

perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
	my @x = grep { $_->{ph} eq "X" } @{$j->{traceEvents}};
	exit(@x == 15 ? 0 : 1)' <"$S/profile.chrome.json"
tap_ok $? "Chrome trace JSON parses, 15 complete events"
bad=$(grep -cvE '^[A-Za-z_][A-Za-z0-9_.+]*(;[A-Za-z_][A-Za-z0-9_.+]*)* [0-9]+$' "$S/profile.folded")
tap_is "$bad" 0 "folded stacks: every line 'a;b;c N'"

# a damaged stream: garbage, a whole capture, the same with one byte of
# its PROFILE_DATA flipped, then one cut short (data/mprof-tree.bin:
# METADATA 36 bytes, ACK 8, PROFILE_DATA 67 with 4 records, STATUS 18,
# ACK 8)
D=$TOP/tests/host/data/mprof-tree.bin
perl -e 'local $/; open(my $f, "<", $ARGV[0]) or die; my $d = <$f>;
	my $b = $d; substr($b, 64, 1) = chr(ord(substr($b, 64, 1)) ^ 1);
	print "\x01\x02\xaa", $d, $b, substr($d, 0, 100)' "$D" >"$TMP/bad.mprof"
"$M" --input=mprof --format=json "$TMP/bad.mprof" >"$TMP/bad.json"
tap_is "$?" 0 "mttdecode decodes a damaged capture"
n() { grep -c "$1" "$TMP/bad.json"; }
tap_is "$(n '"kind":"record"') $(n '"error":"crc"') $(n '"error":"truncated"') $(n '"kind":"metadata"') $(n '"kind":"status"')" \
	"4 1 1 3 2" "damaged capture: 4 records kept, 1 CRC error, 1 packet cut short, 3 METADATA, 2 STATUS"
tap_is "$(sed -n 's/.*"kind":"error","error":"garbage","offset":\([0-9]*\),"len":\([0-9]*\).*/\1:\2/p' "$TMP/bad.json" | head -n 1)" \
	"0:3" "the leading garbage is reported: 3 bytes at offset 0"
"$M" --input=mprof "$TMP/bad.mprof" | grep -q '^!! CRC error at @'
tap_ok $? "text output reports the CRC error"

"$TMP/mttprofile" --report -q --elf="$TMP/target" -o "$TMP/again" "$S" 2>"$TMP/err2"
tap_is "$?" 0 "mttprofile --report re-analyses the session"
cmp -s "$S/profile.txt" "$TMP/again/profile.txt"
tap_ok $? "... to the same profile.txt"
# Overflow: the device keeps records until STOP in a ring of 4, so 11 of
# the 15 are lost; mttprofile is stopped with SIGINT once the calls are
# made, and must warn about the overflows.
"$TMP/target" "$TMP/pty2" "" burst &
tpid=$!
wait_pty "$TMP/pty2" $tpid
# SIGINT goes to mttprofile itself: reap's hang guard (60 s) is the only
# limit on how long its STOP exchange takes on a loaded machine
"$TMP/mttprofile" -q --status-interval=0 -o "$TMP/sess2" \
	"$(cat "$TMP/pty2")" 2>"$TMP/err2" &
hpid=$!
i=0
while [ ! -e "$TMP/pty2.done" ] && [ $i -lt 6000 ] && kill -0 $tpid 2>/dev/null; do
	sleep 0.01
	i=$((i + 1))
done
kill -INT $hpid
reap $hpid
tap_is "$?" 0 "mttprofile stopped by SIGINT exits 0"
reap $tpid
tap_is "$?" 0 "burst target exited 0"
sed 's/^/# /' "$TMP/err2"
grep -q "warning: 11 records were lost to buffer overflows on the device" "$TMP/err2"
tap_ok $? "the 11 overflows are warned about"
S2=$TMP/sess2
tap_is "$(sed -n 's/^records=//p; s/^buffer_overflows=//p' "$S2/session.txt" | tr '\n' ' ')" \
	"4 11 " "session.txt: 4 records, 11 overflows"

"$TMP/mttprofile" --help | grep -q "capture.mprof"
tap_ok $? "mttprofile --help describes the session directory"

tap_done
