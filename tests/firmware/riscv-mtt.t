#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# riscv-mtt.t - MTT on a RISC-V core (Documentation/firmware-mtt.rst):
# the test firmware (tests/firmware/riscv32, libmttfw) built with
# gcc-riscv64-unknown-elf, run under qemu-system-riscv32 -M virt -bios
# none, its UART0 captured: MTT frames in RISC-V trace encapsulation
# (srcID 8 bits, timestamp 4 bytes, unframed).  The work is fixed (3
# rounds of one trace of "app" and of "sensor" at each of 7 levels and
# one mtt_print on srcID 1, 5 timer-interrupt ticks of "tick" on srcID
# 2), ended by a STOP frame and the machine's power-off.  Checked: the
# stream starts with a sync ending in null.alignment, its srcIDs are 1
# and 2, packet timestamps (mtime) never go back, and mttdecode gives
# every value, level and component exactly.  Then a run where the host
# sets filters at run time with command frames (lib.sh writes them from
# Documentation/mtt.rst) through a bidirectional QEMU pipe: every reply,
# and exactly the traces the filters let through.  The QEMU runs have a
# guard timeout only.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/lib.sh"

need riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
need qemu-system-riscv32 qemu-system-misc
need mkfifo coreutils
need timeout coreutils

FW=$TMP/fw
make -s -C "$TOP/tests/firmware/riscv32" O="$FW" >"$TMP/fw.log" 2>&1
st=$?
[ $st -eq 0 ] || sed 's/^/# /' "$TMP/fw.log"
tap_ok $st "the firmware builds (rv32imac, freestanding, libmttfw)"
[ $st -eq 0 ] || tap_done
need_mttdecode

QEMU="qemu-system-riscv32 -M virt -bios none -nographic -monitor none -kernel $FW/fw.elf"
DEC="$MTTDECODE --srcid-bits=8 --ts-bytes=4 --unframed"

# check NAME CAPTURE APP_MASK SENSOR_MASK TICKS: the decoded capture
check() {
	$DEC --srcid-proto='*:mtt' "$2" >"$TMP/$1.txt" 2>"$TMP/$1.err"
	tap_is "$?:$(cat "$TMP/$1.err")" "0:" "$1: mttdecode exits 0, nothing on stderr"
	mtt_norm "$TMP/$1.txt" >"$TMP/$1.norm"
	tap_is "$(grep -v '^src[12] ' "$TMP/$1.norm")" "" \
		"$1: nothing but frames of srcIDs 1 and 2 (no loss, no other packet)"
	tap_is "$(grep '^src1 ' "$TMP/$1.norm")" "$(riscv_src1 "$3" "$4")" \
		"$1: srcID 1: every value, level and component, in order"
	tap_is "$(grep '^src2 ' "$TMP/$1.norm")" "$(riscv_src2 "$5")" \
		"$1: srcID 2 (the timer interrupt): $5 ticks, in order"
	# the frames' TS64 (mtime in ns) never go back on a srcID
	for s in src1 src2; do
		awk -v s=" $s " 'index($0, s) && $1 != "-" {
			if ($1 + 0 < last) bad++; last = $1 + 0 }
			END { exit bad > 0 }' "$TMP/$1.txt"
		tap_ok $? "$1: $s: frame timestamps never go back"
	done
}

# run 1: no host input; every filter open
timeout 600 $QEMU -serial file:"$TMP/cap1.bin"
tap_is "$?" 0 "run 1: the firmware powers the machine off (guard timeout 600 s)"
od -An -tx1 -v -N37 "$TMP/cap1.bin" | tr -d ' \n' >"$TMP/head"
tap_is "$(cat "$TMP/head")" "$(printf '00%.0s' $(seq 36))80" \
	"the stream starts with a sync: N = 31 + 4 + 1 null.idle, then null.alignment"
$DEC --srcid-proto='*:raw' "$TMP/cap1.bin" >"$TMP/raw.txt"
tap_is "$(sed -n 's/.* srcid=\([0-9]*\) .*/\1/p' "$TMP/raw.txt" | sort -u | tr '\n' ' ')" \
	"1 2 " "packets of srcIDs 1 and 2 only"
awk '/ ts=/ { for (i = 1; i <= NF; i++) if ($i ~ /^ts=/) {
	t = substr($i, 4) + 0; if (t < last) bad++; last = t; n++ } }
	END { exit !(n > 0 && bad == 0) }' "$TMP/raw.txt"
tap_ok $? "packets carry mtime timestamps that never go back"
check run1 "$TMP/cap1.bin" 0xffffffff 0xffffffff 5

# run 2: boot-time setting "wait for the host" (a word QEMU's loader
# device writes), commands through a QEMU pipe chardev (p.in: host to
# target, p.out: target to host)
mkfifo "$TMP/p.in" "$TMP/p.out" || bail "mkfifo failed"
filter_commands 0x50 >"$TMP/cmds.bin"
timeout 600 $QEMU -chardev pipe,id=u,path="$TMP/p" -serial chardev:u \
	-device loader,addr=0x87fff000,data=1,data-len=4 &
qpid=$!
timeout 600 cat "$TMP/p.out" >"$TMP/cap2.bin" &
cpid=$!
timeout 600 sh -c 'cat "$1" >"$2"' sh "$TMP/cmds.bin" "$TMP/p.in"
tap_is "$?" 0 "run 2: the host's commands written"
wait $qpid
tap_is "$?" 0 "run 2: the firmware powers the machine off"
wait $cpid
REPLIES=$(filter_replies 'src1 ' 80)
check run2 "$TMP/cap2.bin" 0xfffffffe 0xa0000000 0
tap_done
