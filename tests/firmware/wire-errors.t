#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wire-errors.t - the firmware lane: bytes damaged on the wire are
# counted as errors and everything else arrives.  The STM32F405 firmware
# of tests/firmware/stm32f4 runs under QEMU as in mprof.t.
#
# MiniProfiler: mprof-proxy.py sits between USART1's pty and mttprofile
# (ASan) and damages three PROFILE_DATA packets as they pass: a record
# byte (from the 2nd packet on), the CRC's low byte (from the 5th) and
# the end marker (from the 8th).  mttprofile must count exactly 2 CRC
# errors and 1 end-marker error (and the rest of those packets as bytes
# skipped), receive every record of the other
# packets (300 less the damaged packets' records, as the proxy counted
# them), keep in capture.mprof exactly the bytes the proxy passed on;
# the device's final STATUS still says 300 captured.  mttprofile stops
# on SIGTERM once the proxy has passed on packets holding all 300
# records (its STOP and final STATUS follow those bytes on the line).
#
# MTT: USART2's capture of the same run (native frames with CRC words),
# copied and damaged at chosen offsets: a payload byte of frame 4 and a
# CRC byte of frame 30 (mttdecode --input=mtt marks exactly those two
# [CRC_ERROR], frame 4 with its damaged value), the sync of frame 10
# flipped and the first byte of frame 20 deleted (each reported as one
# loss of exactly that frame's bytes, less the one deleted); every other
# line of the decoded text is the clean capture's.  About 10 s.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/lib.sh"

need python3 python3
stm32_setup "$TMP/fw"
ELF=$TMP/fw/fw.elf
S=$TMP/sess
ALL=300

stm32_qemu "$ELF" "$TMP/mtt.bin"
python3 "$TOP/tests/firmware/mprof-proxy.py" "$pty" "$TMP/line" $ALL \
	2:10 5:-3 8:-1 >"$TMP/proxy.log" 2>"$TMP/proxy.err" &
ppid=$!
i=0
while [ ! -e "$TMP/line" ] && [ $i -lt 1000 ] && kill -0 $ppid 2>/dev/null; do
	sleep 0.01
	i=$((i + 1))
done
[ -e "$TMP/line" ] || { sed 's/^/# /' "$TMP/proxy.err"; bail "the proxy made no pty"; }
"$TMP/mttprofile" --timeout=120 --status-interval=0 -o "$S" --elf="$ELF" \
	"$TMP/line" >"$TMP/out" 2>"$TMP/err" &
mpid=$!
# a hang guard only: 600 s
i=0
while ! grep -q '^forwarded' "$TMP/proxy.log" && [ $i -lt 60000 ] &&
    kill -0 $mpid 2>/dev/null; do
	sleep 0.01
	i=$((i + 1))
done
kill -TERM $mpid 2>/dev/null
wait $mpid
rc=$?
kill $ppid $qpid 2>/dev/null
{ wait $ppid $qpid; } 2>/dev/null
sed 's/^/# /' "$TMP/err" "$TMP/proxy.err" "$TMP/proxy.log"

tap_is "$rc" 0 "mttprofile profiled through the damaging proxy and exits 0"
tap_is "$(sed -n 's/^forwarded //p' "$TMP/proxy.log")" $ALL \
	"the proxy passed on PROFILE_DATA packets holding all $ALL records"
tap_is "$(grep -c '^damaged' "$TMP/proxy.log")" 3 "the proxy damaged 3 packets"
lost=$(awk '/^damaged/ { n += $4 } END { print n + 0 }' "$TMP/proxy.log")
kv() { sed -n "s/^$1=//p" "$S/session.txt"; }
# a packet discarded, the search for the next header resumes two bytes
# after its start (Documentation/miniprofiler.rst): the rest of it is
# skipped
skip=$(awk '/^damaged/ { n += $3 - 2 } END { print n + 0 }' "$TMP/proxy.log")
tap_is "$(kv crc_errors) $(kv end_errors) $(kv garbage_bytes) $(kv truncated)" \
	"2 1 $skip 0" "mttprofile counts 2 CRC errors, 1 bad end marker, the damaged packets' other $skip bytes skipped"
tap_is "$(kv records)" $((ALL - lost)) \
	"every record of the undamaged packets arrived ($ALL less the $lost of the damaged)"
tap_is "$(kv device_records_captured) $(kv buffer_overflows)" "$ALL 0" \
	"the device captured $ALL records, no overflow"
cmp -s "$S/capture.mprof" "$TMP/line.sent"
tap_ok $? "capture.mprof holds exactly the bytes the proxy passed on"

# MTT: the clean capture first
"$MTTDECODE" --input=mtt "$TMP/mtt.bin" >"$TMP/clean.txt" 2>&1
tap_is "$(mtt_norm "$TMP/clean.txt")" "$(stm32_mtt 25)" \
	"USART2's capture decodes to the firmware's MTT work"
"$MTTDECODE" --input=mtt --format=json "$TMP/mtt.bin" |
	sed -n 's/.*"offset":\([0-9]*\).*/\1/p' >"$TMP/offsets"
size=$(wc -c <"$TMP/mtt.bin")
echo "$size" >>"$TMP/offsets"
# off K, len K: frame K's offset and length (1-based)
off() { sed -n "${1}p" "$TMP/offsets"; }
len() { echo $(($(sed -n "$(($1 + 1))p" "$TMP/offsets") - $(off "$1"))); }

# flip OFF: XOR 0xff the byte at OFF of $TMP/bad.bin
flip() {
	b=$(od -An -tu1 -j "$1" -N1 "$TMP/bad.bin" | tr -d ' ')
	bytes "$(printf %02x $((b ^ 255)))" |
		dd of="$TMP/bad.bin" bs=1 seek="$1" conv=notrunc 2>/dev/null
}
cp "$TMP/mtt.bin" "$TMP/bad.bin"
# frame 4: app count = 0 (ERROR): its first payload byte (after the
# preamble, TS64 and level: 32 bytes); frame 30: its CRC's low byte;
# frame 10: word 0's top byte (the sync)
flip $(($(off 4) + 32))
flip $(($(off 30) + $(len 30) - 4))
flip $(($(off 10) + 3))
# frame 20: its first byte deleted (the frames after it move back by 1)
o20=$(off 20)
{ head -c "$o20" "$TMP/bad.bin"; tail -c +$((o20 + 2)) "$TMP/bad.bin"; } >"$TMP/bad2.bin"
"$MTTDECODE" --input=mtt "$TMP/bad2.bin" >"$TMP/bad.txt" 2>"$TMP/bad.err"
tap_is "$?" 0 "mttdecode decodes the damaged capture"
tap_is "$(grep -c 'CRC_ERROR' "$TMP/bad.txt") $(grep -c '^!! loss' "$TMP/bad.txt")" \
	"2 2" "the damaged capture: 2 CRC errors, 2 losses"
want=$(mtt_norm "$TMP/clean.txt" | awk -v l10="$(off 10) $(len 10)" \
	-v l20="$o20 $(($(len 20) - 1))" '
	function loss(s) { split(s, a, " ")
		return "!! loss: MTT framing lost at offset " a[1] ", " a[2] " bytes skipped" }
	NR == 4 { sub(/= 0 /, "= 255 "); print $0 " [CRC_ERROR]"; next }
	NR == 30 { print $0 " [CRC_ERROR]"; next }
	NR == 10 { print loss(l10); next }
	NR == 20 { print loss(l20); next }
	{ print }')
tap_is "$(mtt_norm "$TMP/bad.txt")" "$want" \
	"exactly the damaged frames are errors or losses, every other frame unchanged"
tap_done
