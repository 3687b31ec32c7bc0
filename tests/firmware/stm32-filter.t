#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stm32-filter.t - the firmware lane: filters set at run time on the
# STM32F405 board (Documentation/firmware-mtt.rst, "The STM32F405
# board").  The firmware of tests/firmware/stm32f4 built with
# -DFW_MTT_WAIT stops after its first round of MTT traces until a START
# command comes on USART2: the point where the host's commands take
# effect is fixed by the work, not by time.  QEMU gives USART2 a pipe
# pair; once USART2 has written its first byte (QEMU drops what comes
# before the firmware enables the receiver), the test writes command
# frames (from Documentation/mtt.rst's layout: set a component's filter,
# the core filter to any target, another's, read one, a NACK for no such
# component, another target's command unanswered, START), captures USART2 and profiles USART1 (the
# ticks of work, each with a trace of "tick", run while profiling).
# Checked: every reply, in order, after the first round; exactly the
# traces the filters let through after it (rounds 2 and 3 filtered, no
# tick trace), every frame's CRC.  QEMU runs with a guard timeout only.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/lib.sh"

need mkfifo coreutils
need timeout coreutils
stm32_setup "$TMP/fw0"
make -s -C "$FW" O="$TMP/fw" EXTRA_CFLAGS=-DFW_MTT_WAIT >"$TMP/fw.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/fw.log"; bail "cannot build the FW_MTT_WAIT firmware"; }
ELF=$TMP/fw/fw.elf

# p.in: host to USART2; p.out: USART2 to host
mkfifo "$TMP/p.in" "$TMP/p.out" || bail "mkfifo failed"
filter_commands 0x60 >"$TMP/cmds.bin"
stm32_qemu "$ELF" "" -chardev pipe,id=u2,path="$TMP/p" -serial chardev:u2
timeout 900 cat "$TMP/p.out" >"$TMP/mtt.bin" &
cpid=$!
# QEMU drops what USART2 is given before the firmware enables its
# receiver: the commands go once USART2 has written its first byte (the
# firmware enables both directions at once); 60 s is a hang guard
i=0
while [ ! -s "$TMP/mtt.bin" ] && [ $i -lt 6000 ]; do
	sleep 0.01
	i=$((i + 1))
done
[ -s "$TMP/mtt.bin" ] || { kill $qpid 2>/dev/null; bail "nothing on USART2 in 60 s"; }
timeout 600 sh -c 'cat "$1" >"$2"' sh "$TMP/cmds.bin" "$TMP/p.in"
tap_is "$?" 0 "the host's commands written to USART2"
# the last tick's trace and the STOP frame come before its records
timeout -k 10 600 "$TMP/mttprofile" --records=300 --timeout=120 \
	-o "$TMP/sess" --elf="$ELF" "$pty" >"$TMP/out" 2>"$TMP/err"
tap_is "$?" 0 "mttprofile profiled the 25 ticks of work on USART1"
sed 's/^/# /' "$TMP/err"
kill $qpid 2>/dev/null
wait $qpid
wait $cpid

want=$(
	echo '- MTT META 0x00000001 "app"'
	echo '- MTT META 0x00000002 "sensor"'
	echo '- MTT META 0x00000003 "tick"'
	mtt_rounds '- ' 96 0xffffffff 0xffffffff 0 0
	filter_replies '- ' 96
	mtt_rounds '- ' 96 0xfffffffe 0xa0000000 1 2
	echo '- MTT STOP - comp:0x00000000 - seq 0 cpu 96'
)
# round 1 unfiltered, every reply, then exactly what the filters let
# through (no tick trace)
mtt_check filters "$TMP/mtt.bin" "$want"
tap_done
