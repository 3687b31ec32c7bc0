#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# session.t - the firmware lane: both boards traced as the serial targets
# of one mttcontrol session (Documentation/firmware.rst, "Trace a board
# in a session"; sessions.rst, "Serial targets"), no STM device.  QEMU
# gives each UART a pty: the STM32F405's USART1 (protocol mprof, its
# ELF) and USART2 (mtt), the RISC-V board's UART0 (riscv-encap, srcID 8
# bits, timestamp 4 bytes, unframed, srcid_proto "*:mtt", mtt_start;
# its clock exchanges as MTT command frames, the replies in the
# encapsulation).
# QEMU drops what a pty is given while nothing has it open, so both
# firmwares are built or set to write nothing before the host speaks:
# the STM32F405 (-DFW_HOLD) waits for the MiniProfiler START that
# mttcontrol sends on USART1, the RISC-V firmware (boot word 7: hold,
# wait for START, stay on) for the first byte on its UART, the MTT START
# command frame of mtt_start; mttcontrol sends both only once every port
# is open.  The work is fixed (lib.sh): the waits are for that work's
# last record, with hang guards only.  Checked: --start, --status,
# --stop's summary (records, errors and losses exact; bytes those
# captured; the clock exchanges two-way), and each capture decodes to
# exactly the firmware's work, with the 16 TIME_SYNC replies of each
# MTT or MiniProfiler port (bursts of 8 at the start and the end; each
# request waits up to 60 s for its reply, sync_wait_ms: a hang guard).
# Then PINGS ping bytes (ping.h) on each MTT port from ping_exchange
# (tests/guest, built for the host), through a second open of the pty,
# each waiting for the previous one's reply in the capture: each firmware
# answers each from its receive interrupt, exactly.  mttcontrol
# runs under ASan + UBSan.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/lib.sh"

TICKS=25
PINGS=10
need timeout coreutils
need riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
need qemu-system-riscv32 qemu-system-misc
stm32_setup "$TMP/fw0"
asan_mttcontrol
make -s -C "$FW" O="$TMP/fw" EXTRA_CFLAGS=-DFW_HOLD >"$TMP/fw.log" 2>&1 &&
	make -s -C "$TOP/tests/firmware/riscv32" O="$TMP/rv" >>"$TMP/fw.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/fw.log"; bail "cannot build the firmwares"; }
ELF=$TMP/fw/fw.elf

stm32_qemu "$ELF" "" -serial pty
P1=$pty
P2=$(pty_of "$TMP/qemu.log" serial1)
spid=$qpid
: >"$TMP/rv.log"
timeout -k 5 900 qemu-system-riscv32 -M virt -bios none -nographic \
	-monitor none -kernel "$TMP/rv/fw.elf" -serial pty \
	-device loader,addr=0x87fff000,data=7,data-len=4 \
	</dev/null >"$TMP/rv.log" 2>&1 &
rpid=$!
P3=$(pty_of "$TMP/rv.log" serial0)
trap 'kill $spid $rpid 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM

# the MiniProfiler first: its START must still wait for the other ports
cat >"$TMP/fw.conf" <<X
targets = (
	{ name = "prof"; port = "$P1"; protocol = "mprof"; elf = "$ELF";
	  sync_interval_ms = 0; sync_wait_ms = 60000; },
	{ name = "mtt"; port = "$P2"; protocol = "mtt"; sync_interval_ms = 0;
	  sync_wait_ms = 60000; },
	{ name = "rv"; port = "$P3"; protocol = "riscv-encap";
	  srcid_bits = 8; ts_bytes = 4; unframed = true;
	  srcid_proto = "*:mtt"; mtt_start = true; sync_interval_ms = 0;
	  sync_wait_ms = 60000; }
);
X
S=$TMP/sess
"$C" --start -c "$TMP/fw.conf" -o "$S" >"$TMP/out" 2>&1
rc=$?
tap_is "$rc:$(sed 's/collector pid [0-9]*/collector pid N/' "$TMP/out")" "0:session started: $S (serial targets only, collector pid N)
target prof: mprof, $P1 at 115200 baud
target mtt: mtt, $P2 at 115200 baud
target rv: riscv-encap, $P3 at 115200 baud" "--start: one session, the three UARTs"
[ $rc = 0 ] || bail "--start failed"

# until: the work's last record in each capture, decoded as it grows (a
# hang guard of 600 s only).  STM32F405: 12 * TICKS calls on USART1 (the
# STOP frame on USART2 comes before the last tick's); RISC-V: the STOP
# frame and the replies to the clock exchanges' start burst of 8 (the
# core reads its UART only once its work and the synchronisation after
# it are written: the replies come after them)
T=$S/targets
# rv_decode: the RISC-V target's decode command (its metadata), run in
# its directory with this tree's mttdecode
rv_decode() {
	(cd "$T/rv" && eval "\"\$MTTDECODE\" $(sed -n 's/^decode mttdecode //p' target)")
}
done_yet() {
	"$MTTDECODE" "$T/prof" 2>/dev/null | grep -q "^# $((12 * TICKS)) calls " &&
		"$MTTDECODE" --input=mtt "$T/mtt/capture.bin" 2>/dev/null | grep -q ' MTT STOP ' &&
		rv_decode 2>/dev/null >"$TMP/rv.now" &&
		grep -q ' MTT STOP ' "$TMP/rv.now" &&
		[ "$(grep -c ' MTT TIME_SYNC REPLY ' "$TMP/rv.now")" = 8 ]
}
wait_until done_yet
tap_ok $? "every target's capture holds its firmware's whole work"

# the pings: tests/guest/ping_exchange (multi.t's guest program), built
# for the host, its "Linux stream" a file here; each exchange waits for
# the previous one's pong in the capture, so once it is done the decoded
# captures hold every pong
make -s -C "$TOP/tests" build/guest/ping_exchange >"$TMP/px.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/px.log"; bail "cannot build ping_exchange"; }
: >"$TMP/linux.rec"
"$TOP/tests/build/guest/ping_exchange" -d "$TMP/linux.rec" -n $PINGS \
	"mtt:$P2:$T/mtt/capture.bin" "rv:$P3:$T/rv/capture.bin" >"$TMP/px.out" 2>&1
tap_is "$?:$(cat "$TMP/px.out")" "0:OK $((2 * PINGS))" "ping_exchange: $PINGS exchanges with each MTT target"
tap_is "$(cat "$TMP/linux.rec")" "$(for k in $(seq $PINGS); do
	printf 'mtt ping %s sentmtt pong %s seenrv ping %s sentrv pong %s seen' $k $k $k $k
done)" "ping_exchange: its records, one write each, in exchange order"
pongs() { grep -c ' ping pong = ' || true; }
pinged() {
	[ "$("$MTTDECODE" --input=mtt "$T/mtt/capture.bin" 2>/dev/null | pongs)" = $PINGS ] &&
		[ "$(rv_decode 2>/dev/null | pongs)" = $PINGS ]
}
pinged
tap_ok $? "each MTT target answered the $PINGS pings"

size() { wc -c <"$T/$1" | tr -d ' '; }
"$C" --status >"$TMP/status" 2>&1
tap_is "$(grep '^  target ' "$TMP/status")" \
"  target prof: mprof on $P1 at 115200 baud: $(size prof/capture.mprof) bytes
  target mtt: mtt on $P2 at 115200 baud: $(size mtt/capture.bin) bytes
  target rv: riscv-encap on $P3 at 115200 baud: $(size rv/capture.bin) bytes" \
	"--status: each target, its port and the bytes captured"

"$C" --stop >"$TMP/stop" 2>&1
rc=$?
kill $spid $rpid 2>/dev/null
wait $spid $rpid 2>/dev/null
# records: mprof's responses (PROFILE_DATA batching follows the UART's
# pace: their number is not fixed), then exact counts: USART2's 74 MTT
# frames (3 META, 3 rounds of 15, 25 ticks, STOP) and the 16 TIME_SYNC
# replies (the clock exchanges' bursts of 8 at the start and the end,
# sync_interval_ms 0: no others), the RISC-V core's 55 (3 META, the
# START reply, 45, 5 ticks, STOP) and its 16 TIME_SYNC replies, each
# then the ping META and two per ping, no error, no loss; both boards
# answer TIME_SYNC on every port: two-way
mprof_recs=$(sed -n 's/^target prof .*: \([0-9]*\) records, .*/\1/p' "$TMP/stop")
tap_is "$rc:$(cat "$TMP/stop")" "0:session stopped: $S
target prof (mprof on $P1): captured $(size prof/capture.mprof) bytes: $mprof_recs records, 0 errors (0 bytes skipped), 0 losses, $((12 * TICKS)) profile records; clock: two-way
target mtt (mtt on $P2): captured $(size mtt/capture.bin) bytes: $((90 + 1 + 2 * PINGS)) records, 0 errors (0 bytes skipped), 0 losses; clock: two-way
target rv (riscv-encap on $P3): captured $(size rv/capture.bin) bytes: $((71 + 1 + 2 * PINGS)) records, 0 errors (0 bytes skipped), 0 losses; clock: two-way" \
	"--stop: each target's bytes, records, errors and losses"

# what each capture decodes to: the firmware's fixed work, exactly
"$MTTDECODE" "$T/prof" >"$TMP/prof.txt" 2>"$TMP/prof.err"
tap_is "$?:$(cat "$TMP/prof.err")" "0:" "mttdecode targets/prof: the profile, nothing on stderr"
calls() { awk 'NF == 7 && $1 ~ /^[0-9]+$/ { print $7 "=" $1 }' "$TMP/prof.txt" | sort | tr '\n' ' '; }
tap_is "$(calls)" \
	"clamp=$TICKS control_step=$TICKS filter=$TICKS pid=$TICKS scale=$((2 * TICKS)) sensor_read=$TICKS tick_work=$TICKS walk=$((4 * TICKS)) " \
	"USART1: calls per function, named from the ELF"
mtt_check session "$T/mtt/capture.bin" "$(stm32_mtt $TICKS; ping_lines '- ' 96 $PINGS)"
# the exchanges: 16 requests each, their replies in the captures, t_rx
# not after t_tx
for t in prof mtt rv; do
	tap_is "$(($(wc -c <"$T/$t/requests") - 8))" $((16 * 12)) \
		"$t: requests holds 16 records"
done
tap_is "$(grep -c '^@[0-9]* TIME_SYNC seq=' "$TMP/prof.txt")" 16 \
	"USART1: the 16 TIME_SYNC responses"
tap_is "$(awk '/ MTT TIME_SYNC REPLY / { n++; for (i = 1; i < NF; i++) {
		if ($i == "t_rx") rx = $(i + 1); if ($i == "t_tx") tx = $(i + 1) }
		if (rx + 0 <= tx + 0) ok++ } END { print n + 0 ":" ok + 0 }' "$TMP/mtt.txt")" \
	"16:16" "USART2: the 16 TIME_SYNC replies, t_rx <= t_tx"

rv_decode >"$TMP/rv.txt" 2>"$TMP/rv.err"
tap_is "$?:$(cat "$TMP/rv.err")" "0:" "the RISC-V target's decode command (its metadata) decodes the capture"
mtt_norm "$TMP/rv.txt" >"$TMP/rv.norm"
tap_is "$(grep -v '^src[12] ' "$TMP/rv.norm")" "" "RISC-V: frames of srcIDs 1 and 2 only"
tap_is "$(awk '/ src1 MTT TIME_SYNC REPLY / { n++; for (i = 1; i < NF; i++) {
		if ($i == "t_rx") rx = $(i + 1); if ($i == "t_tx") tx = $(i + 1) }
		if (rx + 0 <= tx + 0) ok++ } END { print n + 0 ":" ok + 0 }' "$TMP/rv.txt")" \
	"16:16" "RISC-V: the 16 TIME_SYNC replies on srcID 1, t_rx <= t_tx"
REPLIES='src1 MTT START REPLY - comp:0x00000000 - seq 0 cpu 80'
tap_is "$(grep '^src1 ' "$TMP/rv.norm")" "$(riscv_src1 0xffffffff 0xffffffff; ping_lines 'src1 ' 80 $PINGS)" \
	"RISC-V: srcID 1: the START reply, every value, level and component, the pings"
tap_is "$(grep '^src2 ' "$TMP/rv.norm")" "$(riscv_src2 5)" "RISC-V: srcID 2: 5 ticks"
tap_done
