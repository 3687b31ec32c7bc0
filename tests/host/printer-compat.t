#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# printer-compat.t - mttdecode as a drop-in for the MIPI reference
# printer: its CSV (columns, type spellings, RAW:<protocol name> rendered
# from the collateral's format, Origin = client name, Collateral = file,
# hex timestamps and checksum, RFC 4180 quoting, a line feed as a space),
# golden rows checked against the printer's source for every type and
# status, SHORT messages with --short-guid, loss and bad-line rows,
# input sniffing (STP,
# "SYS-T RAW DATA:" text, plain SyS-T), the "nothing synchronised"
# message and exit status, several inputs in order, --max-message on
# every kind of input.  Every message and expected row below is derived
# by hand (header bits: [3:0] type, [6:4] severity, 9 LEN, 10 CHK, 11 TS,
# [29:24] subtype; little-endian).  mttdecode is built with ASan + UBSan.
. "$(dirname "$0")/lib.sh"
asan_mttdecode
C=$TOP/tests/host/data/printer-coll.xml
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

# ("Default" here has a Guid with an all-zero Mask: it matches every
# message, in mttdecode as in the printer)
Z=0x0000000000000000
tap_is "$("$M" -f csv --collateral "$C" "$TMP/ref.txt"; echo "rc=$?")" \
"$H
OK,\"dead\",RAW:Protocol1,MAX,Default,0,,$Z,,6,,$C
OK,\"0x00100007\",SHORT32,MAX,,0,,$Z,,4,,$C
OK,\"a,b \"\"q\"\" c\\d e\",STRING:GENERIC,INFO,Default,0,,$Z,,18,,$C
OK,\"f\",STRING:ENTER,INFO,Default,0,,$Z,,6,,$C
OK,\"g\",STRING:EXIT,INFO,Default,0,,$Z,,6,,$C
OK,\"p\",STRING:INVPARAM,INFO,Default,0,,$Z,,6,,$C
OK,\"7\",STRING:PRINTF32,INFO,Default,0,,$Z,,11,,$C
OK,\"9\",STRING:PRINTF64,INFO,Default,0,,$Z,,16,,$C
OK,\"hi\",STRING:GENERIC,INFO,Default,0,0x0000000000001234,$Z,,19,0x7A87E90B,$C
rc=0" "CSV: printer spellings, RAW:Protocol1, quoting, hex cells"

# the quoted payload is RFC 4180: Python's csv module reads it back
"$M" -f csv --collateral "$C" "$TMP/ref.txt" >"$TMP/ref.csv"
python3 - "$TMP/ref.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0][0] == "Decode Status" and len(rows[0]) == 12, rows[0]
assert all(len(r) == 12 for r in rows), rows
assert rows[3][1] == 'a,b "q" c\\d e', repr(rows[3][1])
PY
tap_ok $? "CSV: a csv reader gets 12 cells a row and the text back (LF as a space)"

tap_is "$("$M" -f csv --collateral "$C" \
	--short-guid '{11111111-2222-3333-4444-555555555555}' "$TMP/ref.txt" |
	sed -n 3p)" \
"OK,\"short value 7\",SHORT32,MAX,,0,,$Z,,4,,$C" \
	"--short-guid: SHORT32 takes that client's Short32 format (Origin empty)"
"$M" --short-guid nonsense "$TMP/ref.txt" >/dev/null 2>&1
tap_is $? 2 "--short-guid: a bad GUID is a usage error"

# ---- golden rows: each cell as the reference printer's source writes it ----
# One message per type/subtype family and per status, hand-made (header
# bits as above; GUID bit 23, 16 GUID bytes after the header; CRCs with a
# bitwise CRC-32C outside the library), decoded the way the printer's
# README runs it: --short-guid with its example client's GUID and the
# collateral given as ../../sys-t/printer/test/collateral.xml, so the
# first row is the transcript's first row character for character.
# Every comment says which printer behaviour its row pins.
mkdir -p "$TMP/sys-t/printer/test" "$TMP/a/b"
cp "$TOP/tests/host/data/printer-golden.xml" "$TMP/sys-t/printer/test/collateral.xml"
CO=../../sys-t/printer/test/collateral.xml
GUID='{494E5443-8A9C-4014-A65A-2F36A36D96E4}'
{
	# BUILD:LONG 0x02801C00 (MAX, GUID, unit 1, TS, CRC): id 0x10000 and
	# "version banner string": the printer's README transcript, first row,
	# byte for byte (its CRC 0x4DDEF5B9 recomputed from these bytes): payload
	# "0x" and 16 uppercase digits, a space, the text; Origin the client
	# name; Unit the 11-bit field with a GUID; Context TimeStamp 0 (the
	# printer's stand-in on its text input is 0 for the first message)
	echo 'SYS-T RAW DATA: 001C8002494E54438A9C4014A65A2F36A36D96E4E9706A374B4A0500000001000000000076657273696F6E2062616E6E657220737472696E6700B9F5DE4D'
	# BUILD:COMPACT32 word 0x00012340: the id from bits [23:4] as "0x" and 8
	# uppercase digits; the printer zeroes the header of a one-word message,
	# so Severity MAX, Unit 0, Origin empty (it never names the client of a
	# short message; with --short-guid it still writes the Collateral: not
	# here, see the docs)
	echo 'SYS-T RAW DATA: 40230100'
	# BUILD:COMPACT64 0x0000000501002340: bits [23:4] and [63:30] (the
	# printer's mask agrees for this value, its bits 31:28 being 0): 16 digits
	echo 'SYS-T RAW DATA: 4023000105000000'
	# SHORT32 value 0xABCDEF, no collateral format: "0x" and 8 uppercase
	# digits; Origin empty even with --short-guid (the printer names the
	# client of no short message), Collateral the client's file
	echo 'SYS-T RAW DATA: F1DEBC0A'
	# SHORT32 0x0100007: the client's Short32 format gets value & ~Mask
	echo 'SYS-T RAW DATA: 71000001'
	# SHORT64 value 0x123456789A, no format: 16 digits
	echo 'SYS-T RAW DATA: A789674523010000'
	# SHORT64 0x100000009: the Short64 format
	echo 'SYS-T RAW DATA: 9700000010000000'
	# STRING:GENERIC INFO 'a,b "q" c\d' LF 'e': the payload quoted, a quote
	# doubled, the line feed written as a space, a backslash as it is
	echo 'SYS-T RAW DATA: 42108001494E54438A9C4014A65A2F36A36D96E4612C622022712220635C640A6500'
	# STRING:ENTER INFO, no GUID, origin 5 unit 3 (field 0x53): Origin the
	# origin number (the printer writes it as a raw byte: see the docs),
	# Unit the low 4 bits
	echo 'SYS-T RAW DATA: 423005026600'
	# STRING:EXIT, likewise
	echo 'SYS-T RAW DATA: 423005036700'
	# STRING:INVPARAM, severity WARNING
	echo 'SYS-T RAW DATA: 32108005494E54438A9C4014A65A2F36A36D96E47000'
	# STRING:ASSERT, severity FATAL
	echo 'SYS-T RAW DATA: 12108007494E54438A9C4014A65A2F36A36D96E461737365727400'
	# STRING:PRINTF32 "%d" 7
	echo 'SYS-T RAW DATA: 4210800B494E54438A9C4014A65A2F36A36D96E425640007000000'
	# STRING:PRINTF64 DEBUG "%ld" 9 in a 64-bit slot
	echo 'SYS-T RAW DATA: 7210800C494E54438A9C4014A65A2F36A36D96E4256C64000900000000000000'
	# CATALOG:ID32P32 id 0x12 args 1 0 0: the format's File/Line give the
	# Location as <collateral file name>:<line>
	echo 'SYS-T RAW DATA: 43108001494E54438A9C4014A65A2F36A36D96E412000000010000000000000000000000'
	# CATALOG:ID64P32 id 0x1122334455667788
	echo 'SYS-T RAW DATA: 43108002494E54438A9C4014A65A2F36A36D96E48877665544332211'
	# CATALOG:ID32P64 with TS and CRC (the transcript's second row's shape)
	echo 'SYS-T RAW DATA: 431C8005494E54438A9C4014A65A2F36A36D96E4E9706A374B4A050012000000010000000000000000000000441DD5DE'
	# CATALOG:ID64P64
	echo 'SYS-T RAW DATA: 43108006494E54438A9C4014A65A2F36A36D96E48877665544332211'
	# CATALOG id 0x99 not in the client's collateral: the printer says OK
	# and "Undefined catalog id 0x" then the id with its own "0x" again
	echo 'SYS-T RAW DATA: 43108001494E54438A9C4014A65A2F36A36D96E49900000005000000'
	# CATALOG from a client with no collateral (no GUID, origin 5):
	# MISSING_COLLATERAL, the payload all message bytes in uppercase hex,
	# the other cells filled, Collateral empty
	echo 'SYS-T RAW DATA: 4330050112000000010000000000000000000000'
	# RAW protocol 1: Type RAW:<the collateral's Protocol format rendered
	# with the id>, payload lowercase hex
	echo 'SYS-T RAW DATA: 06108001494E54438A9C4014A65A2F36A36D96E4DEADBEEF'
	# RAW protocol 2, no Protocol entry: RAW:<decimal id>
	echo 'SYS-T RAW DATA: 06108002494E54438A9C4014A65A2F36A36D96E40A'
	# CLOCK:SYNC (the printer says UNKNOWN_TYPE: we decode it, see the docs)
	echo 'SYS-T RAW DATA: 08000001001000000000000000CA9A3B00000000'
	# SBD (likewise UNKNOWN_TYPE in the printer)
	echo 'SYS-T RAW DATA: 09108000494E54438A9C4014A65A2F36A36D96E4420000000102'
	# type 10: UNKNOWN_TYPE, the bytes in uppercase hex, every other cell
	# empty (the printer: nothing of a failed message can be trusted)
	echo 'SYS-T RAW DATA: 0A000001'
	# STRING with a CRC of 0 (wrong): CHECKSUM_ERROR, bytes, empty cells
	echo 'SYS-T RAW DATA: 42148001494E54438A9C4014A65A2F36A36D96E468690000000000'
	# two bytes, less than a header: TOO_SHORT
	echo 'SYS-T RAW DATA: 4201'
	# a length field of 3 and 2 payload bytes: TOO_SHORT
	echo 'SYS-T RAW DATA: 42128001494E54438A9C4014A65A2F36A36D96E403006869'
	# location format 0 (file 1, line 64): file name from the collateral
	echo 'SYS-T RAW DATA: 42118001494E54438A9C4014A65A2F36A36D96E400010040007800'
	# location format 1 (file 7, line 9), file 7 unknown: <id>:<line>
	echo 'SYS-T RAW DATA: 42118001494E54438A9C4014A65A2F36A36D96E40107000000090000007800'
	# location format 2: "0x" and 8 uppercase digits
	echo 'SYS-T RAW DATA: 42118001494E54438A9C4014A65A2F36A36D96E402EFBEADDE7800'
	# location format 3: 16 digits (the printer never prints these)
	echo 'SYS-T RAW DATA: 42118001494E54438A9C4014A65A2F36A36D96E403EFCDAB89674523017800'
	# a catalog format's File/Line and a 32-bit address: both, a space
	# between
	echo 'SYS-T RAW DATA: 43118001494E54438A9C4014A65A2F36A36D96E402EFBEADDE12000000010000000000000000000000'
	# a GUID no client has: Origin the GUID, lowercase in braces, empty
	# Collateral
	echo 'SYS-T RAW DATA: 42708001111111112222333344445555555555556F00'
} >"$TMP/golden.txt"
golden() {
	(cd "$TMP/a/b" && "$M" -f csv "$@" --collateral "$CO" "$TMP/golden.txt")
}
tap_is "$(golden --short-guid "$GUID"; echo "rc=$?")" \
"Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,Context TimeStamp,Location,Raw Length,Checksum,Collateral
OK,\"0x0000000000010000 version banner string\",BUILD:LONG,MAX,example,1,0x00054A4B376A70E9,$Z,,62,0x4DDEF5B9,$CO
OK,\"0x00001234\",BUILD:COMPACT32,MAX,,0,,$Z,,4,,
OK,\"0x0000000001400234\",BUILD:COMPACT64,MAX,,0,,$Z,,8,,
OK,\"0x00ABCDEF\",SHORT32,MAX,,0,,$Z,,4,,$CO
OK,\"short value 7\",SHORT32,MAX,,0,,$Z,,4,,$CO
OK,\"0x000000123456789A\",SHORT64,MAX,,0,,$Z,,8,,$CO
OK,\"long short 9\",SHORT64,MAX,,0,,$Z,,8,,$CO
OK,\"a,b \"\"q\"\" c\\d e\",STRING:GENERIC,INFO,example,1,,$Z,,34,,$CO
OK,\"f\",STRING:ENTER,INFO,5,3,,$Z,,6,,
OK,\"g\",STRING:EXIT,INFO,5,3,,$Z,,6,,
OK,\"p\",STRING:INVPARAM,WARNING,example,1,,$Z,,22,,$CO
OK,\"assert\",STRING:ASSERT,FATAL,example,1,,$Z,,27,,$CO
OK,\"7\",STRING:PRINTF32,INFO,example,1,,$Z,,27,,$CO
OK,\"9\",STRING:PRINTF64,DEBUG,example,1,,$Z,,32,,$CO
OK,\"SyS-T Library version 1.0.0\",CATALOG:ID32P32,INFO,example,1,,$Z,./systclient.c:64,36,,$CO
OK,\"Hello world\",CATALOG:ID64P32,INFO,example,1,,$Z,,28,,$CO
OK,\"SyS-T Library version 1.0.0\",CATALOG:ID32P64,INFO,example,1,0x00054A4B376A70E9,$Z,./systclient.c:64,48,0xDED51D44,$CO
OK,\"Hello world\",CATALOG:ID64P64,INFO,example,1,,$Z,,28,,$CO
OK,\"Undefined catalog id 0x0x00000099\",CATALOG:ID32P32,INFO,example,1,,$Z,,28,,$CO
MISSING_COLLATERAL,\"4330050112000000010000000000000000000000\",CATALOG:ID32P32,INFO,5,3,,$Z,,20,,
OK,\"deadbeef\",RAW:Protocol1,MAX,example,1,,$Z,,24,,$CO
OK,\"0a\",RAW:2,MAX,example,1,,$Z,,21,,$CO
OK,\"clock 4096 at 1000000000 Hz\",CLOCK:SYNC,MAX,0,0,,$Z,,20,,
OK,\"sbd 0x00000042 2 bytes: 0102\",SBD:ID32,MAX,example,1,,$Z,,26,,$CO
UNKNOWN_TYPE,\"0A000001\",,,,,,,,,,
CHECKSUM_ERROR,\"42148001494E54438A9C4014A65A2F36A36D96E468690000000000\",,,,,,,,,,
TOO_SHORT,\"4201\",,,,,,,,,,
TOO_SHORT,\"42128001494E54438A9C4014A65A2F36A36D96E403006869\",,,,,,,,,,
OK,\"x\",STRING:GENERIC,INFO,example,1,,$Z,./systclient.c:64,27,,$CO
OK,\"x\",STRING:GENERIC,INFO,example,1,,$Z,7:9,31,,$CO
OK,\"x\",STRING:GENERIC,INFO,example,1,,$Z,0xDEADBEEF,27,,$CO
OK,\"x\",STRING:GENERIC,INFO,example,1,,$Z,0x0123456789ABCDEF,31,,$CO
OK,\"SyS-T Library version 1.0.0\",CATALOG:ID32P32,INFO,example,1,,$Z,./systclient.c:64 0xDEADBEEF,41,,$CO
OK,\"o\",STRING:GENERIC,INFO,{11111111-2222-3333-4444-555555555555},7,,$Z,,22,,
rc=0" "golden rows: every family and status as the printer spells them"

tap_is "$(golden --short-guid "$GUID" | sed -n 2p)" \
'OK,"0x0000000000010000 version banner string",BUILD:LONG,MAX,example,1,0x00054A4B376A70E9,0x0000000000000000,,62,0x4DDEF5B9,../../sys-t/printer/test/collateral.xml' \
	"golden: the printer README transcript's first row, verbatim"

# without --short-guid a SHORT message has no client: Origin and
# Collateral empty, as the printer writes it
tap_is "$(golden | sed -n 5p)" "OK,\"0x00ABCDEF\",SHORT32,MAX,,0,,$Z,,4,," \
	"golden: SHORT32 without a client, printer-exact"

golden --short-guid "$GUID" >"$TMP/golden.csv"
python3 - "$TMP/golden.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) == 35 and all(len(r) == 12 for r in rows), rows
assert rows[8][1] == 'a,b "q" c\\d e', repr(rows[8][1])
PY
tap_ok $? "golden: a csv reader gets 12 cells in every row"

# --csv-extra after a failed message's empty cells (Offset: its line's)
tap_is "$(golden --csv-extra | grep '^UNKNOWN_TYPE')" \
	'UNKNOWN_TYPE,"0A000001",,,,,,,,,,,,,,,1470,true' \
	"golden: --csv-extra columns follow a failure row's twelve"

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
OK,\"hi\",STRING:GENERIC,INFO,0,0,,0x0000000000000005,,8,,,,4,0,,16,true" \
	"--csv-extra: columns after the printer's; Context TimeStamp: the STP one"

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
rc=3" "explicit --input=systtext: nothing synchronised, exit 3"
tap_is "$("$M" "$TMP/none.txt" 2>&1; echo "rc=$?")" \
"mttdecode: $TMP/none.txt: nothing synchronised in 14 bytes: no STP ASYNC, no \"SYS-T RAW DATA:\" line, no SyS-T messages (see --input)
rc=3" "sniffed: nothing synchronised, exit 3"
: >"$TMP/empty"
tap_is "$("$M" "$TMP/empty" 2>&1; echo "rc=$?")" "rc=0" \
	"an empty input is not an error"
tap_is "$(printf 'x' | "$M" 2>&1 >/dev/null; echo "rc=$?")" \
"mttdecode: <stdin>: nothing synchronised in 1 bytes: no STP ASYNC, no \"SYS-T RAW DATA:\" line, no SyS-T messages (see --input)
rc=3" "standard input: nothing synchronised, exit 3"

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
rc=3" "one input of three with nothing: said, exit 3"

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
