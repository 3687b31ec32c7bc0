#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# printer-compat.t - mttdecode as a drop-in for the MIPI reference
# printer: its CSV (columns, type spellings, RAW:<protocol name> rendered
# from the collateral's format, Origin = client name, Collateral = file,
# hex timestamps and checksum, RFC 4180 quoting byte for byte), SHORT
# messages with --short-guid, loss and bad-line rows, input sniffing (STP,
# "SYS-T RAW DATA:" text, plain SyS-T), the "nothing synchronised"
# message and exit status, several inputs in order, --max-message on
# every kind of input.  Every message and expected row below is derived
# by hand (header bits: [3:0] type, [6:4] severity, 9 LEN, 10 CHK, 11 TS,
# [29:24] subtype; little-endian).  mttdecode is built with ASan + UBSan.
. "$(dirname "$0")/lib.sh"
asan_mttdecode
C=$TOP/tests/tools/data/printer-coll.xml
H='Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,Context TimeStamp,Location,Raw Length,Checksum,Collateral'

# RAW   0x01000006: RAW, MAX, protocol 1; payload de ad
# SHORT 0x01000071: SHORT32 value 0x100007
# QUOTE 0x01000042: STRING:GENERIC INFO: 'a,b "q" c\d' LF 'e' NUL
# ENTER/EXIT/INVPARAM 0x02/0x03/0x05000042 "f" "g" "p"
# PF32  0x0b000042 "%d" NUL 7;  PF64 0x0c000042 "%ld" NUL 9 (64-bit)
# TSCRC 0x01000c42: TS 0x1234, "hi" NUL, CRC-32C 0x7a87e90b (computed
#       with a bitwise CRC-32C outside the library)
RAW="06 00 00 01 de ad"
SHORT="71 00 00 01"
QUOTE="42 00 00 01 61 2c 62 20 22 71 22 20 63 5c 64 0a 65 00"
ENTER="42 00 00 02 66 00"
EXIT="42 00 00 03 67 00"
INVP="42 00 00 05 70 00"
PF32="42 00 00 0b 25 64 00 07 00 00 00"
PF64="42 00 00 0c 25 6c 64 00 09 00 00 00 00 00 00 00"
TSCRC="42 0c 00 01 34 12 00 00 00 00 00 00 68 69 00 0b e9 87 7a"
for v in RAW SHORT QUOTE ENTER EXIT INVP PF32 PF64 TSCRC; do
	eval "echo \"SYS-T RAW DATA: \$$v\""
done >"$TMP/ref.txt"

NL='
'
tap_is "$("$M" -f csv --collateral "$C" "$TMP/ref.txt"; echo "rc=$?")" \
"$H
OK,\"dead\",RAW:Protocol1,MAX,Default,0,,,,6,,$C
OK,\"0x100007\",SHORT32,,Default,,,,,4,,$C
OK,\"a,b \"\"q\"\" c\\d${NL}e\",STRING:GENERIC,INFO,Default,0,,,,18,,$C
OK,\"f\",STRING:ENTER,INFO,Default,0,,,,6,,$C
OK,\"g\",STRING:EXIT,INFO,Default,0,,,,6,,$C
OK,\"p\",STRING:INVPARAM,INFO,Default,0,,,,6,,$C
OK,\"7\",STRING:PRINTF32,INFO,Default,0,,,,11,,$C
OK,\"9\",STRING:PRINTF64,INFO,Default,0,,,,16,,$C
OK,\"hi\",STRING:GENERIC,INFO,Default,0,0x0000000000001234,,,19,0x7A87E90B,$C
rc=0" "CSV: printer spellings, RAW:Protocol1, quoting byte for byte, hex cells"

# the quoted payload is RFC 4180: Python's csv module reads it back
"$M" -f csv --collateral "$C" "$TMP/ref.txt" >"$TMP/ref.csv"
python3 - "$TMP/ref.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0][0] == "Decode Status" and len(rows[0]) == 12, rows[0]
assert all(len(r) == 12 for r in rows), rows
assert rows[3][1] == 'a,b "q" c\\d\ne', repr(rows[3][1])
PY
tap_ok $? "CSV: a csv reader gets 12 cells a row and the text back exactly"

tap_is "$("$M" -f csv --collateral "$C" \
	--short-guid '{11111111-2222-3333-4444-555555555555}' "$TMP/ref.txt" |
	sed -n 3p)" \
"OK,\"short value 7\",SHORT32,,shorty,,,,,4,,$C" \
	"--short-guid: SHORT32 takes that client's Short32 format"
"$M" --short-guid nonsense "$TMP/ref.txt" >/dev/null 2>&1
tap_is $? 1 "--short-guid: a bad GUID is a usage error"

tap_is "$("$M" --collateral "$C" "$TMP/ref.txt" | sed -n 1p)" \
"              - - MAX Default RAW:Protocol1 dead" \
	"text output: RAW:Protocol1 too"

# ---- rows for losses and bad input lines ----
P="ff ff ff ff ff ff ff ff ff ff 0f 0f 30"
bytes "$P 01 37 30 6f c6 c6 56 86 51 2f 30 8f f6" >"$TMP/gerr.stp"
tap_is "$("$M" -f csv "$TMP/gerr.stp" | grep '^LOSS')" \
'LOSS,"3 packets (GERR) at offset 22, m7 c3",,,,,,,,,,' \
	"CSV: a GERR loss is a LOSS row"
printf 'SYS-T RAW DATA: 4zz\n' >"$TMP/bad.txt"
tap_is "$("$M" -f csv "$TMP/bad.txt")" \
"$H
BAD_INPUT_LINE,\"bad SYS-T RAW DATA line 1 at offset 0\",,,,,,,,,," \
	"CSV: a bad input line is a BAD_INPUT_LINE row"
bytes "42 00 00 01 6f 6b 00 ff ff ff ff 42 00 00 01 79 6f 00" >"$TMP/resync.syst"
tap_is "$("$M" -f csv --input=syst "$TMP/resync.syst" | sed -n 3p)" \
'LOSS,"SyS-T framing lost at offset 7, 4 bytes skipped",,,,,,,,,,' \
	"CSV: lost SyS-T framing is a LOSS row"

# ---- --csv-extra ----
# m4 c0 ts 5: STRING/GENERIC INFO + LEN "hi" (see syst-cli.t, message A)
bytes "$P 01 34 00 6f 10 00 20 24 51 05 00 52 96 86 ef" >"$TMP/a.stp"
tap_is "$("$M" -f csv --csv-extra "$TMP/a.stp")" \
"$H,Source,Master,Channel,GUID,Offset,Complete
OK,\"hi\",STRING:GENERIC,INFO,{00000000-0004-0000-0000-000000000000},0,,0x0000000000000005,,8,,,,4,0,,16,true" \
	"--csv-extra: columns after the printer's"

# ---- sniffing ----
tap_is "$("$M" -f csv "$TMP/a.stp")" "$("$M" -f csv --input=stp "$TMP/a.stp")" \
	"sniffed: STP"
tap_is "$("$M" --collateral "$C" "$TMP/ref.txt")" \
	"$("$M" --collateral "$C" --input=systtext "$TMP/ref.txt")" \
	"sniffed: reference printer text"
for v in QUOTE ENTER EXIT INVP PF32 PF64 TSCRC; do
	eval "bytes \"\$$v\""
done >"$TMP/plain.syst"
"$M" -f csv "$TMP/plain.syst" >"$TMP/plain.auto"
"$M" -f csv --input=syst "$TMP/plain.syst" >"$TMP/plain.syst.csv"
cmp -s "$TMP/plain.auto" "$TMP/plain.syst.csv" &&
	[ "$(grep -c '^OK,' "$TMP/plain.auto")" -eq 7 ]
tap_ok $? "sniffed: plain SyS-T (7 messages)"
tap_is "$(head -c 40 "$TMP/ref.txt" >"$TMP/t2"; cat "$TMP/plain.syst" >>"$TMP/t2"
	"$M" "$TMP/t2" 2>&1 | grep -c 'STRING')" 0 \
	"sniffed: text marker before binary wins (no line, no STRING message)"

# ---- nothing synchronised ----
printf 'no lines here\n' >"$TMP/none.txt"
tap_is "$("$M" --input=systtext "$TMP/none.txt" 2>&1; echo "rc=$?")" \
"mttdecode: $TMP/none.txt: nothing synchronised in 14 bytes: no \"SYS-T RAW DATA:\" line
rc=2" "explicit --input=systtext: nothing synchronised, exit 2"
tap_is "$("$M" "$TMP/none.txt" 2>&1; echo "rc=$?")" \
"mttdecode: $TMP/none.txt: nothing synchronised in 14 bytes: no STP ASYNC, no \"SYS-T RAW DATA:\" line, no SyS-T messages (see --input)
rc=2" "sniffed: nothing synchronised, exit 2"
: >"$TMP/empty"
tap_is "$("$M" "$TMP/empty" 2>&1; echo "rc=$?")" "rc=0" \
	"an empty input is not an error"
tap_is "$(printf 'x' | "$M" 2>&1 >/dev/null; echo "rc=$?")" \
"mttdecode: <stdin>: nothing synchronised in 1 bytes: no STP ASYNC, no \"SYS-T RAW DATA:\" line, no SyS-T messages (see --input)
rc=2" "standard input: nothing synchronised, exit 2"

# ---- several inputs, in order ----
echo "SYS-T RAW DATA: $RAW" >"$TMP/one.txt"
echo "SYS-T RAW DATA: $ENTER" >"$TMP/two.txt"
tap_is "$("$M" -f csv "$TMP/one.txt" "$TMP/two.txt" | cut -d, -f3)" \
"Type
RAW:1
STRING:ENTER" "two files, in order"
tap_is "$("$M" -f csv "$TMP/two.txt" "$TMP/one.txt" | cut -d, -f3)" \
"Type
STRING:ENTER
RAW:1" "two files, the other order"
tap_is "$("$M" -f csv "$TMP/a.stp" "$TMP/one.txt" - <"$TMP/two.txt" | cut -d, -f1-3)" \
"Decode Status,Payload,Type
OK,\"hi\",STRING:GENERIC
OK,\"dead\",RAW:1
OK,\"f\",STRING:ENTER" "STP, text and standard input in one run, each sniffed"
tap_is "$("$M" "$TMP/one.txt" "$TMP/none.txt" "$TMP/two.txt" 2>&1 >/dev/null; echo "rc=$?")" \
"mttdecode: $TMP/none.txt: nothing synchronised in 14 bytes: no STP ASYNC, no \"SYS-T RAW DATA:\" line, no SyS-T messages (see --input)
rc=2" "one input of three with nothing: said, exit 2"

# ---- --max-message on every kind of input ----
size_complete() {
	python3 -c '
import json, sys
print(" ".join("%d:%s" % (o["size"], o["complete"]) for o in
      map(json.loads, sys.stdin) if o["kind"] == "syst"))'
}
echo "SYS-T RAW DATA: $QUOTE" >"$TMP/q.txt"
echo "SYS-T RAW DATA: $ENTER" >>"$TMP/q.txt"
tap_is "$("$M" -f json --max-message=16 "$TMP/q.txt" | size_complete)" \
	"16:False 6:True" "--max-message: text input"
tap_is "$("$M" -f json --max-message=16 "$TMP/plain.syst" | size_complete)" \
	"16:False 6:True 6:True 6:True 11:True 16:True 16:False" \
	"--max-message: plain SyS-T input (framing unchanged)"
# m4 c0 ts 5: STRING/GENERIC INFO "hello world!" NUL (17 bytes):
# 1 0 4 | 3 0 0 | f 6 01000042 1 5 | 7 6f77206f6c6c6568 | 6 21646c72 |
# 4 00 | f e | 0  (M8, C8, D32TS, D64, D32, D8, FLAG, pad)
bytes "$P 01 34 00 6f 10 00 00 24 51 67 7f 27 60 6f 6c 6c 65 68 12 46 c6 27 \
04 f0 0e" >"$TMP/long.stp"
tap_is "$("$M" --syst -f json "$TMP/long.stp" | size_complete)" \
	"17:True" "STP input: the message whole without a limit"
tap_is "$("$M" --syst -f json --max-message=16 "$TMP/long.stp" | size_complete)" \
	"16:False" "--max-message: STP input"

tap_done
