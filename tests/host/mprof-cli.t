#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof-cli.t - mttdecode reaches a MiniProfiler capture through its own
# option parsing and input detection: every option works before or after
# the capture (GNU argument order), with the output of the plain
# "mttdecode CAPTURE" (or of its --format); options for other kinds of
# input do not change it (--segment, -j, --input=auto); --stats sums the
# capture up on stderr and --no-output prints nothing; an --elf that is not the
# device's is warned about whatever the format.  The capture is written by
# the device emulator (src/mprof_emu.c, from the protocol seed alone).
. "$(dirname "$0")/lib.sh"
need_mttdecode
M=$MTTDECODE

cc=$(ctest_cc)
$cc -std=c11 -Wall -Wextra -Werror -g -O1 -o "$TMP/emu" \
	"$TOP/tests/host/src/mprof_emu.c" >"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build the emulator"; }
# main 0x100 (0..100 us) calls a 0x200 twice (10..30, 40..60), sent in
# exit order, 2 records per PROFILE_DATA
printf '0x200 10 20 1\n0x200 40 20 1\n0x100 0 100 0\n' >"$TMP/cap.rec"
C=$TMP/cap.mprof
"$TMP/emu" file "$C" --per-packet=2 <"$TMP/cap.rec" ||
	bail "cannot write the capture"

"$M" "$C" >"$TMP/plain.out" 2>"$TMP/plain.err"
tap_is "$? $(grep -c ' entry=' "$TMP/plain.out")" "0 3" \
	"mttdecode CAPTURE: exit 0, its 3 records"
"$M" --format=json "$C" >"$TMP/json.out" 2>/dev/null
tap_is "$? $(grep -c '"kind":"function"' "$TMP/json.out")" "0 2" \
	"mttdecode --format=json CAPTURE: 2 functions"

# both OPTS... CAPTURE and CAPTURE OPTS...: exit 0, stdout as WANT's
both() { # both WANT NAME OPT...
	want=$1
	name=$2
	shift 2
	"$M" "$@" "$C" >"$TMP/a.out" 2>"$TMP/a.err"
	ra=$?
	"$M" "$C" "$@" >"$TMP/b.out" 2>"$TMP/b.err"
	rb=$?
	cmp -s "$TMP/a.out" "$want" && cmp -s "$TMP/b.out" "$want"
	tap_is "$ra $rb $?" "0 0 0" "$name: before and after the capture, the same output"
	[ "$ra $rb" = "0 0" ] || sed 's/^/# /' "$TMP/a.err" "$TMP/b.err"
}
both "$TMP/plain.out" "--stats" --stats
both "$TMP/json.out" "--format=json" --format=json
both "$TMP/json.out" "-f json" -f json
both "$TMP/json.out" "--format json" --format json
both "$TMP/json.out" "--stats --format=json" --stats --format=json
both "$TMP/plain.out" "--segment 4096 (an STP option)" --segment 4096
both "$TMP/plain.out" "-j 2 (an STP option)" -j 2
both "$TMP/plain.out" "--input=auto" --input=auto
both "$TMP/plain.out" "--input mprof" --input mprof

"$M" "$C" --stats >/dev/null 2>"$TMP/stats.err"
tap_is "$(tr -s ' ' <"$TMP/stats.err")" \
"bytes in: $(wc -c <"$C" | tr -d ' ')
packets: 6 (metadata 1, status 1, ack 2, nack 0, profile_data 2)
records: 3 (0 PROFILE_DATA of another version, 0 bad payloads skipped)
stream errors: 0 bytes skipped, 0 CRC errors, 0 bad end markers, 0 packets cut short" \
	"--stats: the capture's bytes, packets by type, records and errors on stderr"
"$M" --no-output "$C" >"$TMP/n.out" 2>&1
tap_is "$? $(wc -c <"$TMP/n.out" | tr -d ' ')" "0 0" "--no-output: decoded, nothing printed"

# the emulator's build id is 0xDEADBEEF: no ELF's .text CRC32
for f in text json chrome folded html; do
	"$M" --format=$f --elf="$TMP/emu" "$C" >/dev/null 2>"$TMP/w.err"
	grep -q "^mttdecode: warning: $TMP/emu does not match the device (its .text CRC32 is 0x[0-9a-f]*, the device's build id 0xdeadbeef): names may be wrong\$" "$TMP/w.err" ||
		echo $f
done >"$TMP/nowarn"
tap_is "$(tr '\n' ' ' <"$TMP/nowarn")" "" "an ELF not the device's is warned about in every format"

"$M" --format=csv "$C" >/dev/null 2>"$TMP/csv.err"
tap_is "$? $(cat "$TMP/csv.err")" "1 mttdecode: $C: a MiniProfiler capture: its formats are text, json, chrome, folded, html" \
	"--format=csv with a capture: exit 1, said"
printf 'no trace' >"$TMP/x.stp"
"$M" --format=folded "$TMP/x.stp" >/dev/null 2>"$TMP/fold.err"
tap_is "$? $(cat "$TMP/fold.err")" "1 mttdecode: --format=folded is for MiniProfiler captures" \
	"--format=folded with another input: exit 1, said"
"$M" --elf="$TMP/emu" "$TMP/x.stp" >/dev/null 2>"$TMP/elf.err"
tap_is "$? $(cat "$TMP/elf.err")" "1 mttdecode: --elf is for MiniProfiler captures" \
	"--elf with another input: exit 1, said"
"$M" "$C" "$C" >/dev/null 2>"$TMP/two.err"
tap_is "$? $(cat "$TMP/two.err")" "1 mttdecode: one MiniProfiler capture at a time" \
	"two captures: exit 1, said"
tap_done
