#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# riscv-cli.t - mttdecode --input=riscv-encap on hand-made streams: a
# sync sequence of the right length, a message, a GERR loss, a packet
# swstm never writes (shown as it is, no loss), packets with --packets
# and their flow, the issue's example of another source's packet in
# text, JSON and CSV, --srcid-proto, --unframed, an impossible header and
# the resync after it (JSON sync with the bytes skipped), MTT frames on
# srcIDs named mtt, the width options and their refusals, a stream that
# never synchronises (exit status 3).
. "$(dirname "$0")/lib.sh"
need_mttdecode

# nulls K: K null.idle bytes as hex
nulls() {
	i=0
	while [ "$i" -lt "$1" ]; do printf '00 '; i=$((i + 1)); done
}

# srcID 8 bits, T = 0: N = 31 + 0 + 1, sync = 32 x 00, 80
SYNC="$(nulls 32)80"
# DATA marked+ts (type 0x18), master 0 channel 5: "hi!\n"
MSG="05 05 18 68 69 21 0a"
# GERR (type 0x04), source 0, 7 lost
GERR="02 00 04 07"
# reserved kind 7: not swstm's, shown as the packet it is
BAD="02 09 07 00"
{ bytes "$SYNC"; bytes "$MSG"; bytes "$GERR"; bytes "$BAD"; bytes "$MSG"
  bytes "$SYNC"; bytes "$MSG"; } >"$TMP/s.bin"

out=$("$MTTDECODE" --input=riscv-encap --srcid-bits=8 --ts-bytes=0 "$TMP/s.bin")
tap_ok $? "decodes (exit status 0)"
tap_is "$out" "-- sync at offset 0
              0 m0 c5     4  \"hi!\\n\"
!! loss: 7 packets (GERR) at offset 40, m0 c0
@44 ENCAP flow=0 srcid=9 len=2 0700
              0 m0 c5     4  \"hi!\\n\"
              0 m0 c5     4  \"hi!\\n\"" \
	"message, GERR, a packet swstm never writes shown as it is (no loss), message, sync, message"

out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 -p -M "$TMP/s.bin" | grep '^@' | head -n 3)
tap_is "$out" "@0 ASYNC m0 c0
@33 D32MTS m0 c5 0a216968 marked ts=0 flow=0
@40 GERR m0 c0 07 flow=0" "--srcid-bits implies --input=riscv-encap; --packets with the flow"

# srcID 4 bits, T = 2: N = 31 + 2 + 0; master 1 channel 0x23: src 0x10023,
# srcID 3, X = 2 bytes 0x1002; DATA 1 byte 'A' with ts 0x1234, marked
# bits after the header: 3 (4 bits), ts 34 12, type 0x58, 02 10, 41,
# 4 bits of padding: 43 23 81 25 00 11 04
{ bytes "$(nulls 33)80"; bytes "85 43 23 81 25 00 11 04"; } >"$TMP/t.bin"
out=$("$MTTDECODE" --input=riscv-encap --srcid-bits=4 --ts-bytes=2 -f json "$TMP/t.bin")
tap_is "$out" '{"kind":"sync","offset":0,"skipped":0}
{"kind":"msg","master":1,"channel":35,"ts":4660,"len":1,"data":"41","complete":true}' \
	"4-bit srcID, 2-byte timestamp, source bytes beyond the srcID"

# The issue's example: a 15-byte packet of flow 1, srcID 5 (another
# source), then swstm's D8M "A" on srcID 2 with one source byte (channel
# 0x102)
EX="2f 05 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f"
D8M="03 02 28 01 41"
{ bytes "$SYNC"; bytes "$EX"; bytes "$D8M"; } >"$TMP/ex.bin"
out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 "$TMP/ex.bin")
tap_is "$out" '-- sync at offset 0
@33 ENCAP flow=1 srcid=5 len=15 0102030405060708090a0b0c0d0e0f
              - m0 c258     1  "A"' \
	"the issue's example: another source's packet, then swstm's D8M, no loss (text)"
out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 -f json -p "$TMP/ex.bin")
tap_is "$out" '{"kind":"packet","offset":0,"op":"ASYNC","master":0,"channel":0,"marked":false}
{"kind":"sync","offset":0,"skipped":0}
{"kind":"encap","offset":33,"flow":1,"srcid":5,"ts":null,"len":15,"bits":120,"payload":"0102030405060708090a0b0c0d0e0f"}
{"kind":"packet","offset":50,"op":"D8M","master":0,"channel":258,"size":1,"value":"41","marked":true,"flow":0}
{"kind":"msg","master":0,"channel":258,"ts":null,"len":1,"data":"41","complete":true}' \
	"the same in JSON with --packets: encap record, flow on the packet"
out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 -f csv --csv-extra "$TMP/ex.bin" | sed -n 2p)
tap_is "$out" 'OK,"0102030405060708090a0b0c0d0e0f",ENCAP:FLOW1,,srcid:5,,,0x0000000000000000,,15,,,,,,,33,true' \
	"the same in CSV: the packet as a row (Type ENCAP:FLOW1, Origin srcid:5)"
out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 --srcid-proto='*:raw' \
	--srcid-proto=5:stp "$TMP/ex.bin")
tap_is "$out" '-- sync at offset 0
@33 ENCAP flow=1 srcid=5 len=15 0102030405060708090a0b0c0d0e0f
@50 ENCAP flow=0 srcid=2 len=3 280141' \
	"--srcid-proto: srcID 2 raw (a swstm packet shown as it is); 5 stp, but not in swstm's layout"
# srcID 4 bits, T = 1: a timestamped packet of flow 3 with 76 payload
# bits (the public vector CA D3 38 ..., its srcID 3)
{ bytes "$(nulls 32)80"; bytes "ea d3 38 07 00 00 00 90 11 04 80 00"; } >"$TMP/v.bin"
out=$("$MTTDECODE" --srcid-bits=4 --ts-bytes=1 -f json "$TMP/v.bin" | sed -n 2p)
tap_is "$out" '{"kind":"encap","offset":33,"flow":3,"srcid":3,"ts":141,"len":10,"bits":76,"payload":"73000000001941000800"}' \
	"a 4-bit srcID: timestamp 0x8d, 76 payload bits (JSON)"
out=$("$MTTDECODE" --srcid-bits=4 --ts-bytes=1 "$TMP/v.bin" | sed -n 2p)
tap_is "$out" '@33 ENCAP flow=3 srcid=3 ts=141 len=10 bits=76 73000000001941000800' \
	"the same as text"

# unframed: a packet after a null.idle is a loss; framed it is not.  An
# impossible header (extend with T = 0) too; JSON says the bytes skipped
{ bytes "$SYNC"; bytes "$MSG"; bytes "00"; bytes "$MSG"; bytes "$SYNC"
  bytes "$MSG"; } >"$TMP/u.bin"
out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 --unframed "$TMP/u.bin")
tap_is "$out" '-- sync at offset 0
              0 m0 c5     4  "hi!\n"
!! loss: desync at offset 41 (bad encapsulated packet), 7 bytes skipped
-- sync at offset 48, 7 bytes skipped
              0 m0 c5     4  "hi!\n"' \
	"--unframed: a packet after a null.idle is a loss up to the next sync"
out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 "$TMP/u.bin" | grep -c hi)
tap_is "$out" 3 "framed (the default): the same stream loses nothing"
{ bytes "$SYNC"; bytes "82 05 18"; bytes "$MSG"; bytes "$SYNC"; bytes "$MSG"; } >"$TMP/x.bin"
out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 -f json "$TMP/x.bin")
tap_is "$out" '{"kind":"sync","offset":0,"skipped":0}
{"kind":"loss","offset":33,"reason":"desync","master":0,"channel":0,"count":10}
{"kind":"sync","offset":43,"skipped":10}
{"kind":"msg","master":0,"channel":5,"ts":0,"len":4,"data":"6869210a","complete":true}' \
	"extend with no timestamp field: a loss; the JSON sync says the bytes skipped"
out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 --stats "$TMP/ex.bin" 2>&1 >/dev/null | grep encapsulated)
tap_is "$out" "encapsulated:    1 packets not STP (1 on STP srcIDs), 0 null.alignment losses" \
	"--stats counts the packets not decoded as STP"

# MTT frames in the payloads of srcIDs 3 and 4 (--srcid-proto=...:mtt):
# a 28-byte frame (word 0 target 0x50, LEVEL, component 1, UINT32, INFO,
# 42) cut into packets of 16 and 12 bytes on srcID 3, a META frame naming
# component 1 "app" whole on srcID 4 between them (Documentation/mtt.rst)
FA1="10 03 50 10 e0 ee 04 00 00 00 01 00 00 00 00 00 00 00"
FA2="0c 03 04 00 00 05 00 00 00 20 2a 00 00 00"
FB="18 04 50 10 e0 ee 00 00 00 40 01 00 00 00 00 00 00 00 03 00 02 01 61 70 70 00"
{ bytes "$SYNC"; bytes "$FA1"; bytes "$FB"; bytes "$FA2"; bytes "$MSG"; } >"$TMP/m.bin"
out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 --unframed --srcid-proto=3-4:mtt "$TMP/m.bin")
tap_is "$out" '-- sync at offset 0
              - src4 MTT META 0x00000001 "app"
              - src3 MTT INFO app 42 cpu 80
              0 m0 c5     4  "hi!\n"' \
	"--srcid-proto=3-4:mtt: each srcID's payloads are its frames, reassembled across packets"
out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 --srcid-proto=3-4:mtt -f json "$TMP/m.bin" | grep '"mtt"' | cut -c1-60)
tap_is "$out" '{"kind":"mtt","via":"riscv","master":null,"channel":null,"so
{"kind":"mtt","via":"riscv","master":null,"channel":null,"so' "JSON: via riscv"

"$MTTDECODE" --input=riscv-encap --srcid-bits=8 --ts-bytes=1 "$TMP/s.bin" \
	>/dev/null 2>"$TMP/err"
tap_is "$?:$(cat "$TMP/err")" "3:mttdecode: $TMP/s.bin: nothing synchronised in 95 bytes: no RISC-V sync sequence (see --srcid-bits, --ts-bytes)" \
	"wrong widths: the sync is too short, nothing synchronised, exit status 3"

for o in --srcid-bits=17 --ts-bytes=9 --srcid-bits=x --ts-bytes=-1 \
    --srcid-proto=5 --srcid-proto=5:syt --srcid-proto=65536:raw \
    --srcid-proto=9-3:raw --srcid-proto=:raw; do
	"$MTTDECODE" "$o" /dev/null >/dev/null 2>&1
	tap_is "$?" 2 "$o refused (a usage error)"
done
"$MTTDECODE" --srcid-bits=4 --srcid-proto=16:raw /dev/null >/dev/null 2>"$TMP/err"
tap_is "$?:$(cat "$TMP/err")" "1:mttdecode: --srcid-proto: srcID 16 does not fit in 4 bits (--srcid-bits)" \
	"--srcid-proto naming a srcID wider than --srcid-bits refused"
"$MTTDECODE" --help | grep -q -- "--input=KIND.*" &&
	"$MTTDECODE" --help | grep -q "riscv-encap: RISC-V trace encapsulation"
tap_ok $? "--help describes riscv-encap"
tap_done
