#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the test VM once under QEMU/TCG and wait for it to power off.
#
#   boot.sh -k KERNEL -i INITRD -o OUTDIR [-a APPEND] [-t SECS] [-f]
#           [-s SOCKET]...
#
# ttyS0 (kernel console) -> OUTDIR/console.log, ttyS1 (test channel) ->
# OUTDIR/ttyS1.log, QEMU's own messages -> OUTDIR/qemu.log. -f copies
# ttyS1 to stdout while the VM runs. Each -s (at most four) adds the next
# serial port, connected to the unix socket SOCKET as its server
# (wait=off: the guest boots while nothing is connected; the other side,
# e.g. a firmware QEMU, connects as a client with reconnect); so does
# each word of STM_VM_SERIAL_EXTRA, before the -s ones. The first two
# are the ISA ports ttyS2 and ttyS3, the next two one pci-serial-2x card
# (8250_pci: ttyS4, ttyS5 with 8250.nr_uarts=6 or more, which boot.sh
# then adds to the command line). After SECS
# (default 1200) QEMU is killed. Exit status: QEMU's, or 124 when it was
# killed on timeout.
#
# STM_VM_ARCH=arm64 (tests/vm/env.sh): qemu-system-aarch64 -M virt -cpu
# max,pauth-impdef=on instead, its PL011 (ttyAMA0) the kernel console -> console.log, a
# pci-serial (8250_pci: ttyS0, stm.channel=ttyS0 for the guest's init)
# the test channel -> ttyS1.log; no -s ports.  STM_VM_ARCH=armhf: the
# same devices on qemu-system-arm -M virt,highmem=off -cpu cortex-a15
# (Debian's armmp kernel has no LPAE: nothing above 4 GiB).
#
# STM_VM_QEMU_EXTRA: more QEMU arguments, split on blanks, appended last
# (make bench's cost measurement passes "-icount shift=0,sleep=off").
set -euo pipefail

kernel='' initrd='' outdir='' append='' secs=1200 follow=0
# shellcheck disable=SC2206 # words: socket paths without blanks
socks=(${STM_VM_SERIAL_EXTRA:-})
while getopts k:i:o:a:t:fs: opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	o) outdir=$OPTARG ;;
	a) append=$OPTARG ;;
	t) secs=$OPTARG ;;
	f) follow=1 ;;
	s) socks+=("$OPTARG") ;;
	*) exit 2 ;;
	esac
done
[ -n "$kernel" ] && [ -n "$initrd" ] && [ -n "$outdir" ] || {
	echo "usage: $0 -k KERNEL -i INITRD -o OUTDIR [-a APPEND] [-t SECS] [-f] [-s SOCKET]..." >&2
	exit 2
}
# the ISA serial ports x86's 8250 driver finds: ttyS0..ttyS3
[ "${#socks[@]}" -le 4 ] || { echo "boot.sh: at most four -s ports (ttyS2..ttyS5)" >&2; exit 2; }
[ -r "$kernel" ] || { echo "boot.sh: cannot read kernel $kernel" >&2; exit 2; }

mkdir -p "$outdir"
: >"$outdir/console.log"
: >"$outdir/ttyS1.log"

common=(-accel "${STM_VM_ACCEL:-tcg}" -smp "${STM_VM_SMP:-2}" -m "${STM_VM_MEM:-1024}"
	-nographic -no-reboot -monitor none -nic none -kernel "$kernel" -initrd "$initrd")
case ${STM_VM_ARCH:-x86_64} in
x86_64)
	cmdline="console=ttyS0 panic=-1 no_timer_check rdinit=/init $append"
	[ "${#socks[@]}" -le 2 ] || cmdline="$cmdline 8250.nr_uarts=6"
	qemu=(qemu-system-x86_64 "${common[@]}" -cpu max -append "$cmdline"
		-serial "file:$outdir/console.log" -serial "file:$outdir/ttyS1.log")
	;;
arm64)
	[ "${#socks[@]}" = 0 ] || { echo "boot.sh: no -s ports on arm64" >&2; exit 2; }
	cmdline="console=ttyAMA0 panic=-1 rdinit=/init stm.channel=ttyS0 $append"
	# pauth-impdef: QEMU's own pointer authentication algorithm instead
	# of the architected QARMA, which is slow under TCG (Debian's kernel
	# signs the return address in every function)
	# shellcheck disable=SC2054 # commas inside QEMU's option values
	qemu=(qemu-system-aarch64 -M virt "${common[@]}" -cpu max,pauth-impdef=on -append "$cmdline"
		-serial "file:$outdir/console.log"
		-chardev "file,id=chan,path=$outdir/ttyS1.log" -device pci-serial,chardev=chan)
	;;
armhf)
	[ "${#socks[@]}" = 0 ] || { echo "boot.sh: no -s ports on armhf" >&2; exit 2; }
	cmdline="console=ttyAMA0 panic=-1 rdinit=/init stm.channel=ttyS0 $append"
	qemu=(qemu-system-arm -M virt,highmem=off "${common[@]}" -cpu cortex-a15 -append "$cmdline"
		-serial "file:$outdir/console.log"
		-chardev "file,id=chan,path=$outdir/ttyS1.log" -device pci-serial,chardev=chan)
	;;
*) echo "boot.sh: STM_VM_ARCH is x86_64, arm64 or armhf" >&2; exit 2 ;;
esac
i=2
pci=()
for s in "${socks[@]}"; do
	qemu+=(-chardev "socket,id=ext$i,path=$s,server=on,wait=off")
	if [ $i -le 3 ]; then
		qemu+=(-serial "chardev:ext$i")
	else
		pci+=("chardev$((i - 3))=ext$i")
	fi
	i=$((i + 1))
done
[ "${#pci[@]}" = 0 ] || qemu+=(-device "pci-serial-2x,$(IFS=,; echo "${pci[*]}")")
# shellcheck disable=SC2206 # words: QEMU options without blanks
qemu+=(${STM_VM_QEMU_EXTRA:-})
echo "${qemu[*]}" >"$outdir/qemu.cmd"

timeout -k 10 "$secs" "${qemu[@]}" </dev/null >"$outdir/qemu.log" 2>&1 &
qpid=$!
if [ "$follow" = 1 ]; then
	tail -n +1 -s 0.3 -f --pid="$qpid" "$outdir/ttyS1.log" || true
fi
rc=0
wait "$qpid" || rc=$?
exit "$rc"
