# SPDX-License-Identifier: GPL-2.0
# tests/firmware/lib.sh - sourced by the firmware lane's tests (after
# tests/host/lib.sh): the STM32F405 board's tools and run, and what the
# test firmwares' fixed MTT work decodes to (mttdecode's text,
# timestamps removed).
#
# need CMD PACKAGE: bail out naming the Debian package when CMD is missing
# stm32_setup DIR: check the Arm tools, build mttdecode, mttprofile
#   (ASan, $TMP/mttprofile) and the STM32F405 firmware into DIR (FW: its
#   sources); one TAP line
# stm32_qemu ELF MTTCAP [ARGS...]: run ELF under qemu-system-arm
#   (netduinoplus2; a hang guard of 300 s only), USART1 on a pty (its path
#   in $pty), USART2 into the file MTTCAP (or, MTTCAP empty, as ARGS say:
#   -serial chardev:...); QEMU's pid in $qpid, its output in $QLOG
#   ($TMP/qemu.log unless set: two boards at once need two)
# pty_of LOG LABEL: the pty QEMU names in LOG for LABEL (waits for it)
# wait_until CMD...: run CMD every 0.1 s until it succeeds, 600 s at most
#   (a hang guard only); CMD's last status
# mtt_rounds PREFIX CPU APP_MASK SENSOR_MASK [FIRST LAST]: rounds FIRST
#   to LAST (0 to 2) of 3 of one trace of "app" (count = round * 100 +
#   level index) and of "sensor" (temp, its negative) at each level of
#   MTT_LEVELS that the component's filter mask lets through, and app's
#   INFO mtt_print; each line PREFIX "MTT ...", target id CPU (decimal)
# riscv_src1 APP_MASK SENSOR_MASK: srcID 1's lines of the RISC-V test
#   firmware (tests/firmware/riscv32, target id 0x50) with those filters,
#   $REPLIES (if set) after its META frames
# ping_lines PREFIX CPU N: mttdecode's lines (mtt_norm'd) of N pings
#   answered by a test firmware (tests/firmware/ping.h): the META frame
#   of component 4 "ping", then "received" and "pong" = k for each k
# riscv_src2 TICKS: srcID 2's lines (the timer interrupt's ticks)
# mtt_norm FILE: mttdecode's text lines without their timestamp column,
#   and without TIME_SYNC replies (a session's clock exchanges: their
#   place in the stream depends on timing; session.t counts them)
# mtt_command TARGET CMD COMP SEQ [ARG]: one command frame (Documentation/
#   mtt.rst, "Commands and replies"), written here from the layout: word
#   0 sync, version 1.0, target; word 1 the command; component;
#   sequence; type_info UINT32 and the argument, or 0
# filter_commands TARGET: the firmware lane's run-time commands to the
#   core TARGET (and one to TARGET + 1, unanswered), ending with START:
#   sensor ERROR|INFO, core filter all but USER0, tick nothing
# filter_replies PREFIX CPU: mttdecode's lines of their replies
# mtt_check NAME CAPTURE WANT: an MTT capture decodes (mttdecode
#   --input=mtt) to exactly the lines WANT (mtt_norm'd), no frame damaged
#   or lost, every frame with a good CRC; four TAP lines

MTT_LEVELS="ERROR:0x80000000 WARNING:0x40000000 INFO:0x20000000 DEBUG:0x10000000
API_ENTRY:0x00010000 API_RETURN:0x00020000 USER0:0x00000001"

mtt_rounds() {
	for i in $(seq "${5:-0}" "${6:-2}"); do
		l=0
		for lv in $MTT_LEVELS; do
			name=${lv%%:*}
			mask=${lv#*:}
			v=$((i * 100 + l))
			[ $(($3 & mask)) -eq 0 ] ||
				echo "$1MTT $name app count = $v cpu $2"
			[ $(($4 & mask)) -eq 0 ] ||
				echo "$1MTT $name sensor temp = $((-v)) cpu $2"
			l=$((l + 1))
		done
		[ $(($3 & 0x20000000)) -eq 0 ] ||
			echo "$1MTT INFO app \"round $((i + 1)) of 3\" cpu $2"
	done
}

riscv_src1() {
	echo 'src1 MTT META 0x00000001 "app"'
	echo 'src1 MTT META 0x00000002 "sensor"'
	echo 'src1 MTT META 0x00000003 "tick"'
	[ -z "${REPLIES:-}" ] || printf '%s\n' "$REPLIES"
	mtt_rounds 'src1 ' 80 "$1" "$2"
	echo 'src1 MTT STOP - comp:0x00000000 - seq 0 cpu 80'
}

ping_lines() {
	echo "$1MTT META 0x00000004 \"ping\""
	for k in $(seq "$3"); do
		echo "$1MTT INFO ping received = $k cpu $2"
		echo "$1MTT INFO ping pong = $k cpu $2"
	done
}

riscv_src2() {
	i=1
	while [ $i -le "$1" ]; do
		echo "src2 MTT DEBUG tick tick = $i cpu 80"
		i=$((i + 1))
	done
}

mtt_norm() {
	grep -v -e '^-- sync' -e ' MTT TIME_SYNC REPLY ' "$1" | sed 's/^ *[0-9-]* //'
}

# le32 V: V as 4 bytes, little-endian
le32() {
	for sh in 0 8 16 24; do
		printf "\\$(printf %o $((($1 >> sh) & 255)))"
	done
}

mtt_command() {
	le32 $((0xeee01000 | $1))
	le32 "$2"
	le32 "$3"
	le32 "$4"
	if [ $# -ge 5 ]; then
		le32 $((0x05000004))
		le32 "$5"
	else
		le32 0
	fi
}

filter_commands() {
	mtt_command "$1" 0x03000000 2 1 0xa0000000	# sensor: ERROR|INFO
	mtt_command 0xff 0x04000000 0xffffffff 2 0xfffffffe	# core: not USER0
	mtt_command "$1" 0x03000000 3 3 0		# tick: nothing
	mtt_command "$1" 0x05000000 1 4		# get app's
	mtt_command "$1" 0x03000000 99 5 1		# no such component
	mtt_command $(($1 + 1)) 0x04000000 0 6 0	# another core's: not answered
	mtt_command "$1" 0x01000000 0 7		# START
}

filter_replies() {
	echo "$1MTT SET_COMP_FILTER REPLY - sensor 0xffffffff seq 1 cpu $2"
	echo "$1MTT SET_CORE_FILTER REPLY - comp:0xffffffff 0xffffffff seq 2 cpu $2"
	echo "$1MTT SET_COMP_FILTER REPLY - tick 0xffffffff seq 3 cpu $2"
	echo "$1MTT GET_COMP_FILTER REPLY - app 0xffffffff seq 4 cpu $2"
	echo "$1MTT SET_COMP_FILTER NACK - comp:0x00000063 0x00000102 seq 5 cpu $2"
	echo "$1MTT START REPLY - comp:0x00000000 - seq 7 cpu $2"
}

mtt_check() {
	"$MTTDECODE" --input=mtt "$2" >"$TMP/mtt.txt" 2>"$TMP/mtt.err"
	tap_is "$?:$(cat "$TMP/mtt.err")" "0:" "$1: mttdecode --input=mtt decodes USART2's capture"
	tap_is "$(mtt_norm "$TMP/mtt.txt")" "$3" \
		"$1: USART2: every MTT value, level and component, target 0x60, in order"
	tap_is "$(grep -c -e CRC_ERROR -e '^!!' "$TMP/mtt.txt")" 0 \
		"$1: USART2: no CRC error, nothing skipped"
	"$MTTDECODE" --input=mtt --format=json "$2" >"$TMP/mtt.json"
	tap_is "$(grep -c '"crc":"ok"' "$TMP/mtt.json")" "$(grep -c . "$TMP/mtt.json")" \
		"$1: USART2: every frame carries a good CRC"
}

# stm32_mtt TICKS: the whole USART2 capture of the STM32F405 firmware
# (tests/firmware/stm32f4/mtt.c, target id 0x60) after TICKS ticks of work
stm32_mtt() {
	echo '- MTT META 0x00000001 "app"'
	echo '- MTT META 0x00000002 "sensor"'
	echo '- MTT META 0x00000003 "tick"'
	mtt_rounds '- ' 96 0xffffffff 0xffffffff
	i=1
	while [ $i -le "$1" ]; do
		echo "- MTT DEBUG tick tick = $i cpu 96"
		i=$((i + 1))
	done
	echo '- MTT STOP - comp:0x00000000 - seq 0 cpu 96'
}

need() {
	command -v "$1" >/dev/null 2>&1 ||
		bail "$1 not found: install the Debian package $2 (make deps)"
}

FW=$TOP/tests/firmware/stm32f4

stm32_setup() {
	need arm-none-eabi-gcc gcc-arm-none-eabi
	need arm-none-eabi-objcopy gcc-arm-none-eabi
	need qemu-system-arm qemu-system-arm
	libc=$(arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=soft -print-file-name=libc.a)
	[ -f "$libc" ] || bail "no C library for arm-none-eabi (memcpy, memset): install the Debian package libnewlib-arm-none-eabi (make deps)"
	need_mttdecode
	asan_mttprofile
	make -s -C "$FW" O="$1" >"$TMP/fw.log" 2>&1 ||
		{ sed 's/^/# /' "$TMP/fw.log"; bail "cannot build the firmware"; }
	tap_ok 0 "firmware and mttprofile (ASan) built"
}

stm32_qemu() {
	elf=$1
	cap=$2
	shift 2
	[ -z "$cap" ] || { rm -f "$cap"; set -- -serial file:"$cap" "$@"; }
	qlog=${QLOG:-$TMP/qemu.log}
	: >"$qlog"	# read below before QEMU may have written it
	timeout -k 5 900 qemu-system-arm -M netduinoplus2 -nographic -monitor none \
		-kernel "$elf" -serial pty "$@" </dev/null >"$qlog" 2>&1 &
	qpid=$!
	i=0
	pty=
	while [ -z "$pty" ] && [ $i -lt 2000 ] && kill -0 $qpid 2>/dev/null; do
		sleep 0.01
		i=$((i + 1))
		pty=$(sed -n 's|^char device redirected to \(/dev/[^ ]*\) (label serial0).*|\1|p' "$qlog")
	done
	[ -n "$pty" ] || { sed 's/^/# /' "$qlog"; kill $qpid 2>/dev/null; bail "QEMU gave no pty for USART1"; }
}

pty_of() {
	i=0
	p=
	while [ -z "$p" ] && [ $i -lt 2000 ]; do
		p=$(sed -n "s|^char device redirected to \\(/dev/[^ ]*\\) (label $2).*|\\1|p" "$1")
		[ -n "$p" ] || sleep 0.01
		i=$((i + 1))
	done
	[ -n "$p" ] || { sed 's/^/# /' "$1"; bail "QEMU gave no pty for $2"; }
	echo "$p"
}

wait_until() {
	i=0
	until "$@"; do
		[ $i -lt 6000 ] || break
		sleep 0.1
		i=$((i + 1))
	done
	"$@"
}
