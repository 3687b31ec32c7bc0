#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# riscv-cli.t - mttdecode --input=riscv-encap on hand-made streams: a
# sync sequence of the right length, a message, a GERR loss, a bad packet
# and the resync after it, packets with --packets, the width options and
# their refusals, a stream that never synchronises (exit status 2).
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
# reserved kind 7: a desync
BAD="02 09 07 00"
{ bytes "$SYNC"; bytes "$MSG"; bytes "$GERR"; bytes "$BAD"; bytes "$MSG"
  bytes "$SYNC"; bytes "$MSG"; } >"$TMP/s.bin"

out=$("$MTTDECODE" --input=riscv-encap --srcid-bits=8 --ts-bytes=0 "$TMP/s.bin")
tap_ok $? "decodes (exit status 0)"
tap_is "$out" "-- sync at offset 0
              0 m0 c5     4  \"hi!\\n\"
!! loss: 7 packets (GERR) at offset 40, m0 c0
!! loss: desync at offset 44 (bad encapsulated packet), 11 bytes skipped
-- sync at offset 55, 11 bytes skipped
              0 m0 c5     4  \"hi!\\n\"" \
	"message, GERR, bad packet skipped up to the next sync, message"

out=$("$MTTDECODE" --srcid-bits=8 --ts-bytes=0 -p -M "$TMP/s.bin" | grep '^@' | head -n 3)
tap_is "$out" "@0 ASYNC m0 c0
@33 D32MTS m0 c5 0a216968 marked ts=0
@40 GERR m0 c0 07" "--srcid-bits implies --input=riscv-encap; --packets"

# srcID 4 bits, T = 2: N = 31 + 2 + 0; master 1 channel 0x23: src 0x10023,
# srcID 3, X = 2 bytes 0x1002; DATA 1 byte 'A' with ts 0x1234, marked
# bits after the header: 3 (4 bits), ts 34 12, type 0x58, 02 10, 41,
# 4 bits of padding: 43 23 81 25 00 11 04
{ bytes "$(nulls 33)80"; bytes "85 43 23 81 25 00 11 04"; } >"$TMP/t.bin"
out=$("$MTTDECODE" --input=riscv-encap --srcid-bits=4 --ts-bytes=2 -f json "$TMP/t.bin")
tap_is "$out" '{"kind":"sync","offset":0}
{"kind":"msg","master":1,"channel":35,"ts":4660,"len":1,"data":"41","complete":true}' \
	"4-bit srcID, 2-byte timestamp, source bytes beyond the srcID"

"$MTTDECODE" --input=riscv-encap --srcid-bits=8 --ts-bytes=1 "$TMP/s.bin" \
	>/dev/null 2>"$TMP/err"
tap_is "$?:$(cat "$TMP/err")" "2:mttdecode: $TMP/s.bin: nothing synchronised in 95 bytes: no RISC-V sync sequence (see --srcid-bits, --ts-bytes)" \
	"wrong widths: the sync is too short, nothing synchronised, exit status 2"

for o in --srcid-bits=17 --ts-bytes=9 --srcid-bits=x --ts-bytes=-1; do
	"$MTTDECODE" "$o" /dev/null >/dev/null 2>&1
	tap_is "$?" 1 "$o refused"
done
"$MTTDECODE" --help | grep -q -- "--input=KIND.*" &&
	"$MTTDECODE" --help | grep -q "riscv-encap: RISC-V trace encapsulation"
tap_ok $? "--help describes riscv-encap"
tap_done
