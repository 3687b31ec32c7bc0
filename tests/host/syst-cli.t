#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# syst-cli.t - mttdecode with SyS-T: every input kind (raw STP, plain
# SyS-T stream, reference printer text), every output format (text, JSON
# lines, CSV, Chrome trace JSON checked with python3 -m json.tool), policy
# source names, collateral, ftrace decoding with a handmade kallsyms and
# tracefs copy, real captures from the VM suite (tools/fuzz/corpus/vm-*),
# stp-policy-dump, option errors.  mttdecode is built
# with ASan + UBSan for this test.
. "$(dirname "$0")/lib.sh"
asan_mttdecode
D=$TOP/tests/host/data
DUMP=$TOOLS/stp-policy-dump/stp-policy-dump

# The STP stream, derived by hand.  P = ASYNC + VERSION 3.  Nibbles of
# each message in the comment (first nibble of a byte in bits [3:0]; data
# most significant nibble first; a D32 value v carries the message bytes
# v & 0xff, v >> 8 & 0xff ...).  "0" pads a message to a byte boundary.
P="ff ff ff ff ff ff ff ff ff ff 0f 0f 30"
# A  m4 c0 (policy: console), ts 5: STRING/GENERIC INFO + LEN, "hi"
#    1 0 4 | 3 0 0 | f 6 01000242 1 5 | 5 0002 | 5 6968 | f e
A="01 34 00 6f 10 00 20 24 51 05 00 52 96 86 ef"
# B  m3 c5 (user/app, deeper than user), ts 6: Linux p_sys-t data
#    0x01800042 (STRING/GENERIC INFO GUID), GUID a1b2c3d4-e5f6-0718-
#    293a-4b5c6d7e8f90, "ok" without NUL
#    1 0 3 | 3 0 5 | f 6 01800042 1 6 | 7 1807f6e5d4c3b2a1 |
#    7 908f7e6d5c4b3a29 | 5 6b6f | f e | 0
B="01 33 50 6f 10 08 00 24 61 17 08 f7 e6 d5 c4 b3 a2 71 09 f8 e7 d6 c5 b4 \
a3 92 65 6b ff 0e"
# C  m4 c0, ts 0x10: CLOCK/TRANSPORT_SYNC 0x01000008, clock 1000, 1e9 Hz
#    1 0 4 | 3 0 0 | f 6 01000008 2 1 0 | 7 00000000000003e8 |
#    7 000000003b9aca00 | f e | 0
C="01 34 00 6f 10 00 00 80 12 70 00 00 00 00 00 00 30 8e 07 00 00 00 30 9b \
ca 0a f0 0e"
# D  m4 c0, ts 0x20: SHORT32 word 0x01000071 (value 0x100007) in a D32MTS
#    a 01000071 2 2 0
D_="0a 01 00 70 21 02"
# E  m4 c0, ts 0x30: STRING/GENERIC INFO + TS 0x01000842, SyS-T ts 1500
#    (500 ns after the clock sync: STP time 0x10 + 500 = 516), "ts"
#    f 6 01000842 2 3 0 | 7 00000000000005dc | 5 7374 | f e | 0
E="6f 10 00 80 24 32 70 00 00 00 00 00 00 50 cd 75 73 f4 0e"
# F  m3 c2 (user/app), ts 0x40: CATALOG/ID32_P32 INFO 0x01000043, id
#    0x10, argument 3, ended by a D64M instead of a FLAG
#    1 0 3 | 3 0 2 | f 6 01000043 2 4 0 | f b 0000000300000010 | 0
F="01 33 20 6f 10 00 00 34 42 f0 0b 00 00 00 03 00 00 10 00"
# G  m5 c1 (ftrace), ts 0x50: STRING/GENERIC INFO 0x01000042 carrying a
#    function tracer entry: type 1, flags 0, preempt 1, pid 42, ip
#    0xffffffff81000010, parent_ip 0xffffffff81000120
#    1 0 5 | 3 0 1 | f 6 01000042 2 5 0 | 7 0000002a01000001 |
#    7 ffffffff81000010 | 7 ffffffff81000120 | f e
G="01 35 10 6f 10 00 00 24 52 70 00 00 00 a2 10 00 00 10 f7 ff ff ff 8f 01 \
00 10 70 ff ff ff ff 18 00 10 02 ef"
# H  m5 c1, ts 0x60: SBD/ID64 INFO GUID 0x01800049 (ftrace on newer
#    kernels): id 300 (event sample/my_event), then the record from
#    offset 8: value -5, name "abc", msg __data_loc 3 << 16 | 32, func
#    0xffffffff81000110, "yo" NUL
#    f 6 01800049 2 6 0 | GUID as in B | 7 000000000000012c |
#    7 00636261fffffffb | 7 0003002000000000 | 7 ffffffff81000110 |
#    5 6f79 | f 8 00
H="6f 10 08 00 94 62 70 81 70 6f 5e 4d 3c 2b 1a 97 80 7f 6e 5d 4c 3b 2a 79 \
00 00 00 00 00 00 10 c2 07 60 63 62 f1 ff ff ff 7b 00 30 00 02 00 00 00 00 \
f7 ff ff ff 8f 01 00 11 50 f6 97 8f 00"
bytes "$P $A $B $C $D_ $E $F $G $H" >"$TMP/s.stp"

ALL="--policy $D/policy.txt --collateral $D/coll-a.xml --kallsyms $D/kallsyms.txt --tracefs $D/tracefs"

# ---- text ----
# shellcheck disable=SC2086 # ALL is a list of options
tap_is "$("$M" --syst $ALL "$TMP/s.stp")" \
"-- sync at offset 0
-- version 3 (natural binary timestamps) at offset 11
              5 console INFO Default STRING:GENERIC hi
              6 user/app INFO ByGuid STRING:GENERIC ok
             16 console MAX Default CLOCK:SYNC clock 1000 at 1000000000 Hz
             32 console - Default SHORT32 short value 7
             48 console INFO Default STRING:GENERIC ts
             64 user/app INFO M3C2 CATALOG:ID32P32 master three 3
             80 ftrace INFO Default STRING:GENERIC function: do_thing+0x10 <- helper_fn+0x20
             96 ftrace INFO ByGuid SBD:ID64 my_event: value=-5 name=abc msg=yo func=helper_fn+0x10" \
	"text: every message, policy names, collateral, ftrace"

tap_is "$("$M" --syst "$TMP/s.stp" | sed -n '3,4p;8p')" \
"              5 m4/c0 INFO 0:0 STRING:GENERIC hi
              6 m3/c5 INFO {a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90} STRING:GENERIC ok
             64 m3/c2 INFO 0:0 CATALOG:ID32P32 catalog 0x00000010 args 03000000 [MISSING_COLLATERAL]" \
	"text without policy and collateral"

tap_is "$("$M" --no-syst "$TMP/s.stp" | sed -n 3p)" \
"              5 m4 c0     8  \"B\\x02\\x00\\x01\\x02\\x00hi\"" \
	"--no-syst: the STP messages are printed raw"
tap_is "$("$M" "$TMP/s.stp")" "$("$M" --syst "$TMP/s.stp")" \
	"neither: its messages are SyS-T, decoded as with --syst"

# ---- JSON ----
# shellcheck disable=SC2086
"$M" --syst -f json $ALL "$TMP/s.stp" >"$TMP/s.json"
tap_is "$(grep -c '^{"kind":"syst",' "$TMP/s.json")" 8 "JSON: 8 syst lines"
tap_is "$(sed -n 3p "$TMP/s.json")" \
'{"kind":"syst","master":4,"channel":0,"source":"console","stp_ts":5,"status":"OK","type":"STRING:GENERIC","severity":"INFO","guid":null,"origin":0,"unit":0,"location":null,"len":2,"ts":null,"crc":null,"text":"hi","payload":"6869","offset":16,"size":8,"client":"Default","value":null,"ts_stp":null,"complete":true}' \
	"JSON: a message with LEN"
tap_is "$(sed -n 4p "$TMP/s.json")" \
'{"kind":"syst","master":3,"channel":5,"source":"user/app","stp_ts":6,"status":"OK","type":"STRING:GENERIC","severity":"INFO","guid":"{a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90}","origin":null,"unit":0,"location":null,"len":null,"ts":null,"crc":null,"text":"ok","payload":"6f6b","offset":31,"size":22,"client":"ByGuid","value":null,"ts_stp":null,"complete":true}' \
	"JSON: Linux p_sys-t message (GUID, no NUL)"
tap_is "$(sed -n 6p "$TMP/s.json")" \
'{"kind":"syst","master":4,"channel":0,"source":"console","stp_ts":32,"status":"OK","type":"SHORT32","severity":null,"guid":null,"origin":null,"unit":null,"location":null,"len":null,"ts":null,"crc":null,"text":"short value 7","payload":"","offset":86,"size":4,"client":"Default","value":1048583,"ts_stp":null,"complete":true}' \
	"JSON: SHORT32"
tap_is "$(sed -n 7p "$TMP/s.json")" \
'{"kind":"syst","master":4,"channel":0,"source":"console","stp_ts":48,"status":"OK","type":"STRING:GENERIC","severity":"INFO","guid":null,"origin":0,"unit":0,"location":null,"len":null,"ts":1500,"crc":null,"text":"ts","payload":"7473","offset":92,"size":14,"client":"Default","value":null,"ts_stp":516,"complete":true}' \
	"JSON: SyS-T timestamp correlated to STP time by the CLOCK sync"
# every syst line parses and has the documented keys in order
python3 - "$TMP/s.json" <<'EOF'
import json, sys
keys = ["kind", "master", "channel", "source", "stp_ts", "status", "type",
        "severity", "guid", "origin", "unit", "location", "len", "ts", "crc",
        "text", "payload", "offset", "size", "client", "value", "ts_stp",
        "complete"]
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["kind"] == "syst" and list(o) != keys:
        sys.exit("bad keys: " + line)
EOF
tap_ok $? "JSON: every line parses; syst lines have the documented keys"

# ---- CSV ----
# the reference printer's CSV: Origin the client name, Collateral its
# file, hex timestamps; the payload byte for byte (the ftrace record's
# first byte 0x01 without --kallsyms/--tracefs)
A_="$D/coll-a.xml"
tap_is "$("$M" -f csv --policy "$D/policy.txt" --collateral "$D/coll-a.xml" \
	--collateral "$D/coll-b.xml" "$TMP/s.stp")" \
"Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,Context TimeStamp,Location,Raw Length,Checksum,Collateral
OK,\"hi\",STRING:GENERIC,INFO,Default,0,,0x0000000000000005,,8,,$A_
OK,\"ok\",STRING:GENERIC,INFO,ByGuid,0,,0x0000000000000006,,22,,$A_
OK,\"clock 1000 at 1000000000 Hz\",CLOCK:SYNC,MAX,Default,0,,0x0000000000000010,,20,,$A_
OK,\"short value 7\",SHORT32,MAX,,0,,0x0000000000000020,,4,,$A_
OK,\"ts\",STRING:GENERIC,INFO,Default,0,0x00000000000005DC,0x0000000000000030,,14,,$A_
OK,\"master three 3\",CATALOG:ID32P32,INFO,M3C2,0,,0x0000000000000040,,12,,$A_
OK,\"$(printf '\001')\",STRING:GENERIC,INFO,Default,0,,0x0000000000000050,,28,,$A_
OK,\"sbd 0x000000000000012c 27 bytes: fbffffff61626300000000002000030010010081ffffffff796f00\",SBD:ID64,INFO,ByGuid,0,,0x0000000000000060,,55,,$A_" \
	"CSV: reference printer columns and cells (implies --syst)"

# ---- Chrome trace ----
# shellcheck disable=SC2086
"$M" --syst -f chrome $ALL "$TMP/s.stp" >"$TMP/s.trace.json"
python3 -m json.tool "$TMP/s.trace.json" >/dev/null
tap_ok $? "Chrome trace: valid JSON"
python3 - "$TMP/s.trace.json" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
         if e["ph"] == "M" and e["name"] == "thread_name"}
assert names[(4, 4 << 16)] == "console", names
assert names[(3, 3 << 16 | 5)] == "user/app", names
assert names[(5, 5 << 16 | 1)] == "ftrace", names
inst = [e for e in ev if e["ph"] == "i"]
assert len(inst) == 8, len(inst)
assert all(e["s"] == "t" and "ts" in e for e in inst)
assert inst[0]["name"] == "hi" and inst[0]["ts"] == 0.005, inst[0]
assert inst[4]["ts"] == 0.516, inst[4]   # ts moved by the CLOCK sync
assert inst[6]["name"] == "function: do_thing+0x10 <- helper_fn+0x20"
cnt = [e for e in ev if e["ph"] == "C"]
assert [c["name"] for c in cnt] == ["console SHORT32",
                                    "user/app catalog 0x10"], cnt
assert cnt[0]["args"] == {"value": 1048583}
assert cnt[1]["args"] == {"arg0": 3}
assert any(e["name"] == "process_name" and e["args"]["name"] == "master 5"
           for e in ev if e["ph"] == "M")
EOF
tap_ok $? "Chrome trace: tracks named by policy, instants, counters"
"$M" -f chrome "$TMP/s.stp" | python3 -m json.tool >/dev/null
tap_ok $? "Chrome trace without --syst: valid JSON"
bytes "$P 16 32" >"$TMP/cut.stp"
"$M" -f chrome --syst "$TMP/cut.stp" | python3 -c '
import json, sys
ev = json.load(sys.stdin)["traceEvents"]
assert ev[-1]["name"] == "loss: truncated" and ev[-1]["s"] == "g", ev'
tap_ok $? "Chrome trace: a loss is a global instant event"

# ---- plain SyS-T stream (--input syst) ----
# SHORT32 0x100007 | STRING INFO LEN 2 "hi" | STRING "yo" NUL |
# CLOCK 1 at 1e9 | RAW protocol 3 without LEN (cannot be framed) 11 22 33 |
# STRING "ok" NUL (found again by the resync)
bytes "71 00 00 01 42 02 00 01 02 00 68 69 42 00 00 01 79 6f 00 \
08 00 00 01 01 00 00 00 00 00 00 00 00 ca 9a 3b 00 00 00 00 \
06 00 00 03 11 22 33 42 00 00 01 6f 6b 00" >"$TMP/plain.syst"
tap_is "$("$M" --input syst "$TMP/plain.syst")" \
"              - - - - SHORT32 0x100007
              - - INFO 0:0 STRING:GENERIC hi
              - - INFO 0:0 STRING:GENERIC yo
              - - MAX 0:0 CLOCK:SYNC clock 1 at 1000000000 Hz
!! loss: SyS-T framing lost at offset 39, 7 bytes skipped
              - - INFO 0:0 STRING:GENERIC ok" "--input syst: text"
tap_is "$("$M" --input syst -f json "$TMP/plain.syst" | sed -n '1p;5p')" \
'{"kind":"syst","master":null,"channel":null,"source":null,"stp_ts":null,"status":"OK","type":"SHORT32","severity":null,"guid":null,"origin":null,"unit":null,"location":null,"len":null,"ts":null,"crc":null,"text":"0x100007","payload":"","offset":0,"size":4,"client":null,"value":1048583,"ts_stp":null,"complete":true}
{"kind":"loss","offset":39,"reason":"framing","master":null,"channel":null,"count":7}' \
	"--input syst: JSON, master/channel null, framing loss"
"$M" --input syst -f chrome "$TMP/plain.syst" | python3 -m json.tool >/dev/null
tap_ok $? "--input syst: Chrome trace valid"
"$M" --input syst --stats --no-output "$TMP/plain.syst" 2>"$TMP/st" >"$TMP/out"
grep -q "^syst messages: *5 (ok 5," "$TMP/st" &&
	grep -q "^syst resyncs: *1 (7 bytes skipped)" "$TMP/st" &&
	[ ! -s "$TMP/out" ]
tap_ok $? "--input syst --stats --no-output"

# ---- reference printer text (--input systtext) ----
printf '%s\n' "decoder log" \
	"SYS-T RAW DATA: 42028001a1b2c3d4e5f60718293a4b5c6d7e8f900200686900" \
	"SYS-T RAW DATA: 42 04 00 01 68 69 00 89 92 65 6e" \
	"SYS-T RAW DATA: 42 04 00 01 68 6f 00 89 92 65 6e" \
	"SYS-T RAW DATA: 43000001100000000300" \
	"SYS-T RAW DATA: 42x" >"$TMP/ref.txt"
tap_is "$("$M" --input systtext -f csv "$TMP/ref.txt")" \
'Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,Context TimeStamp,Location,Raw Length,Checksum,Collateral
OK,"hi",STRING:GENERIC,INFO,{a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90},0,,0x0000000000000000,,25,,
OK,"hi",STRING:GENERIC,INFO,0,0,,0x0000000000000000,,11,0x6E659289,
CHECKSUM_ERROR,"42040001686F008992656E",,,,,,,,,,
MISSING_COLLATERAL,"43000001100000000300",CATALOG:ID32P32,INFO,0,0,,0x0000000000000000,,10,,
BAD_INPUT_LINE,"bad SYS-T RAW DATA line 6 at offset 214",,,,,,,,,,' \
	"--input systtext: CSV, CRC ok and bad, catalog without collateral, bad line row"
tap_is "$("$M" --input systtext "$TMP/ref.txt" | tail -n 1)" \
	"!! bad SYS-T RAW DATA line 6 at offset 214" "--input systtext: bad hex line"

# ---- errors ----
"$M" --syst --collateral "$D/coll-bad.xml" "$TMP/s.stp" >/dev/null 2>"$TMP/err"
tap_is "$?:$(cat "$TMP/err")" \
	"1:mttdecode: $D/coll-bad.xml:6: Format without ID" "bad collateral: exit 1"
"$M" --syst --policy "$TMP/nope" "$TMP/s.stp" >/dev/null 2>&1
tap_is $? 1 "missing policy file: exit 1"
printf 'console 4 x 0 0\n' >"$TMP/badpol"
"$M" --syst --policy "$TMP/badpol" "$TMP/s.stp" >/dev/null 2>"$TMP/err"
tap_is "$?:$(cut -d: -f1-4 "$TMP/err")" "1:mttdecode: $TMP/badpol:1: expected \"<node path> <first master> <last master> <first channel> <last channel>\"" \
	"bad policy line: exit 1, file:line"
"$M" --syst --tracefs "$TMP" "$TMP/s.stp" >/dev/null 2>&1
tap_is $? 1 "tracefs without format files: exit 1"
"$M" --input bogus "$TMP/s.stp" >/dev/null 2>&1
tap_is $? 2 "bad --input: exit 2"
"$M" --input syst --packets "$TMP/s.stp" >/dev/null 2>&1
tap_is $? 2 "--packets with --input syst: exit 2"
"$M" --format xml "$TMP/s.stp" >/dev/null 2>&1
tap_is $? 2 "bad --format: exit 2"
"$M" --help | grep -q -- "--collateral=FILE" &&
	"$M" --help | grep -q -- "--input=KIND" &&
	"$M" --help | grep -q -- "chrome"
tap_ok $? "--help lists the SyS-T options"

# ---- real captures (tools/fuzz/corpus/vm-syst-*.stp: this suite's
# p_sys-t, console, heartbeat and ftrace sources in the VM) ----
C=$TOOLS/fuzz/corpus
for f in console:419 ftrace:48 heartbeat:736 protocol:139; do
	n=${f#*:}
	f=${f%:*}
	"$M" --syst --stats --no-output "$C/vm-syst-$f.stp" 2>"$TMP/st"
	grep -q "^syst messages: *$n (ok $n," "$TMP/st"
	tap_ok $? "capture $f: $n SyS-T messages, all OK"
done
tap_is "$("$M" --syst -f json "$C/vm-syst-protocol.stp" | grep -c '"crc":"ok"')" 75 \
	"capture protocol: 75 CRC-32C values agree with the kernel's"
echo "ftrace 6 6 0 255" >"$TMP/ftrace.pol"
"$M" --syst --policy "$TMP/ftrace.pol" --kallsyms "$D/kallsyms.txt" \
	"$C/vm-syst-ftrace.stp" >"$TMP/ft.txt"
tap_is "$(grep -c ' function: 0xffffffffb9411e30 <- 0x' "$TMP/ft.txt"):$(grep -c ' print: ip=0x.* buf=syst-ftrace-marker-[1-5]$' "$TMP/ft.txt")" \
	"20:5" "capture ftrace: function and trace_marker records (built-in formats)"
"$M" --syst --policy "$TMP/ftrace.pol" -f chrome "$C/vm-syst-console.stp" |
	python3 -m json.tool >/dev/null
tap_ok $? "capture console: Chrome trace valid"

# ---- stp-policy-dump ----
R=$TMP/cfs/swstm.0:p_sys-t.example
mkdir -p "$R/user/app" "$R/console" "$R/ftrace" "$R/default"
echo swstm.0 >"$R/device"
echo p_sys-t >"$R/protocol"
node() { echo "$2" >"$R/$1/masters"; echo "$3" >"$R/$1/channels"; }
node default "1 1" "0 63"
node user "2 3" "0 255"
node user/app "3 3" "0 15"
node console "4 4" "0 0"
node ftrace "5 5" "0 255"
STP_POLICY_ROOT=$TMP/cfs sh "$DUMP" >"$TMP/pol.txt"
tap_is "$(cat "$TMP/pol.txt")" \
"# stp-policy-dump: swstm.0:p_sys-t.example
# device swstm.0 protocol p_sys-t
console 4 4 0 0
default 1 1 0 63
ftrace 5 5 0 255
user 2 3 0 255
user/app 3 3 0 15" "stp-policy-dump writes the snapshot"
tap_is "$(STP_POLICY_ROOT=$TMP/cfs sh "$DUMP" swstm.0:p_sys-t.example)" \
	"$(cat "$TMP/pol.txt")" "stp-policy-dump POLICY"
tap_is "$("$M" --syst --policy "$TMP/pol.txt" "$TMP/s.stp" | sed -n '3p;4p' | cut -c1-34)" \
"              5 console INFO 0:0 S
              6 user/app INFO {a1b" "the snapshot names the sources"
mkdir "$TMP/cfs/other.p"
STP_POLICY_ROOT=$TMP/cfs sh "$DUMP" >/dev/null 2>&1
tap_is $? 1 "stp-policy-dump: two policies and none named: exit 1"
command -v shellcheck >/dev/null 2>&1 && { shellcheck -s sh "$DUMP"; tap_ok $? "shellcheck stp-policy-dump"; }

tap_done
