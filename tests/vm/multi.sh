#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The three-target session (issue 21 section 4; make demo, make
# demo-multi, tests/firmware/multi.t): the Linux VM (run-plain.sh, tests/guest/
# multi.sh) and the two firmware boards of tests/firmware, each board's
# UARTs wired to the guest's serial ports by unix sockets in a temp dir:
# the VM's QEMU is their server (boot.sh -s, wait=off), the firmware
# QEMUs connect as clients with reconnect.  ttyS2: the STM32F405's
# USART1 (MiniProfiler; the firmware built with -DFW_HOLD, so USART2
# waits for the MiniProfiler START), ttyS3: its USART2 (MTT), ttyS4: the
# RISC-V board's UART (boot word 7: hold, wait for START, stay).  The
# guest's exports (the session, --stop's summary) land in
# $STM_VM_OUT/exports, the session directory unpacked in
# $STM_VM_OUT/session and merged there by the host's mttdecode
# (MTTDECODE): multi.txt, multi-trace.json (Perfetto), multi.html (the
# viewer), multi-stats.txt (--stats: each target's fit and bound); the
# lines at the end say where, and each target's drift and bound.
#
#   multi.sh [PINGS]     (default 100 exchanges per MTT target)
#
# All three QEMUs are killed on every exit path.  Exit status:
# run-plain.sh's, else 1 if the host cannot unpack or merge the session.
set -uo pipefail

pings=${1:-100}
export STM_VM_LANE=${STM_VM_LANE:-multi}
# Budgets: the guest script took 422 s of a 2-core machine under load
# (100 pings; make check's lanes beside it): its limit 1500 s, each of
# its waits' hang guards below that (tests/guest/multi.sh), the VM's
# within the boot's (2400 s), and the boards' after the VM's
export STM_VM_SCRIPT_TIMEOUT=${STM_VM_SCRIPT_TIMEOUT:-1500}
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
tmp=$(mktemp -d /tmp/stm-multi.XXXXXX)
pids=()
# shellcheck disable=SC2317 # the traps' function
cleanup() {
	# the VM's run-plain.sh leads a process group of its own (setsid)
	[ -z "${vm:-}" ] || kill -- "-$vm" 2>/dev/null
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fw=$STM_TOP/tests/firmware
if ! { make -s -C "$fw/stm32f4" O="$tmp/stm32" EXTRA_CFLAGS=-DFW_HOLD &&
	make -s -C "$fw/riscv32" O="$tmp/rv"; } >"$tmp/fw.log" 2>&1; then
	cat "$tmp/fw.log" >&2
	echo "multi: cannot build the firmwares" >&2
	exit 1
fi
mkdir -p "$tmp/guest"
cp "$tmp/stm32/fw.elf" "$tmp/guest/stm32.elf"

s=$tmp/sock
mkdir -p "$s"
client() { echo "socket,id=$1,path=$s/$2,reconnect=1"; }
timeout -k 5 $((STM_VM_TIMEOUT + 60)) qemu-system-arm -M netduinoplus2 -nographic -monitor none \
	-kernel "$tmp/stm32/fw.elf" \
	-chardev "$(client u1 ttyS2)" -serial chardev:u1 \
	-chardev "$(client u2 ttyS3)" -serial chardev:u2 \
	</dev/null >"$tmp/stm32.log" 2>&1 &
pids+=($!)
timeout -k 5 $((STM_VM_TIMEOUT + 60)) qemu-system-riscv32 -M virt -bios none -nographic \
	-monitor none -kernel "$tmp/rv/fw.elf" \
	-chardev "$(client u0 ttyS4)" -serial chardev:u0 \
	-device loader,addr=0x87fff000,data=7,data-len=4 \
	</dev/null >"$tmp/rv.log" 2>&1 &
pids+=($!)

export STM_VM_SERIAL_EXTRA="$s/ttyS2 $s/ttyS3 $s/ttyS4"
export STM_VM_EXTRA_GUEST="$STM_VM_EXTRA_GUEST $tmp/guest"
export STM_VM_APPEND="$STM_VM_APPEND stm.pings=$pings"
setsid "$STM_VM/run-plain.sh" multi &
vm=$!
wait "$vm"
rc=$?
vm=
for f in stm32 rv; do cp "$tmp/$f.log" "$STM_VM_OUT/qemu-$f.log" 2>/dev/null; done
[ "$rc" = 0 ] || exit "$rc"

# the merged timeline, on the host (the profiled ELF's path in the
# session is the guest's: its functions are shown by address)
o=$STM_VM_OUT
rm -rf "$o/session"
mkdir -p "$o/session"
tar xzf "$o/exports/multi-session.tar.gz" -C "$o/session" --strip-components=1 || {
	echo "multi: cannot unpack $o/exports/multi-session.tar.gz" >&2
	exit 1
}
: "${MTTDECODE:=$STM_TOP/tools/build/mttdecode}"
for f in text:multi.txt chrome:multi-trace.json html:multi.html; do
	if ! "$MTTDECODE" --stats --format="${f%%:*}" "$o/session" >"$o/${f#*:}" 2>"$o/multi-stats.txt"; then
		sed 's/^/== /' "$o/multi-stats.txt" >&2
		echo "multi: mttdecode --format=${f%%:*} $o/session failed" >&2
		exit 1
	fi
done
cat <<EOF
== The three-target session, brought out of the VM and merged on this host:
==   session directory: $o/session   (mttdecode $o/session)
==   merged timeline:   $o/multi.txt ($(wc -l <"$o/multi.txt") lines)
==   Perfetto:          $o/multi-trace.json   (open in https://ui.perfetto.dev)
==   the viewer:        $o/multi.html   (one page, offline, in a browser)
==   each target's clock against the Linux guest's (the accuracy bound):
EOF
sed -n 's/^merge: \([a-z0-9_-]*\): fit \([^ ]*\) drift \([^ ]*\) ppm .* max \([^ ]*\) ns;.*/==     \1: fit \2, drift \3 ppm, within +-\4 ns/p' "$o/multi-stats.txt"
exit 0
