#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The PREEMPT_RT lane under prove: Debian's linux-image-rt-amd64, our
# modules built against linux-headers-rt-amd64, the whole VM suite.
# Under PREEMPT_RT spinlocks sleep, so a lock taken in hard-IRQ or NMI
# context shows up here first.
#   prove -v tests/lanes/rt.t        (or: make check-rt)
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lanes/lib.sh"
exec 3>&1
mkdir -p "$top/tests/build"
export STM_LANE_LOG=$top/tests/build/lane-rt.log

find_rt() {
	local kdir rel
	# the newest RT kernel without an STM class of its own (6.1; the
	# 6.12 RT kernel, which has one, is tests/lanes/k612rt.t's)
	kdir=$(for k in $(ls -d /usr/src/linux-headers-*-rt-amd64 2>/dev/null | sort -V); do
		[ "$("$top/scripts/stm-class-kind.sh" -q "$k")" = ours ] && echo "$k"
	done | tail -n 1)
	[ -n "$kdir" ] || { echo "no linux-headers-*-rt-amd64 without CONFIG_STM (make deps)" >&2; return 1; }
	rel=${kdir#/usr/src/linux-headers-}
	[ -r "/boot/vmlinuz-$rel" ] || { echo "no /boot/vmlinuz-$rel (make deps)" >&2; return 1; }
	echo "$kdir $rel"
}
found=$(lane_step "PREEMPT_RT kernel and headers installed" find_rt) || exit 1
read -r kdir rel <<<"$found"
mods=$(lane_step "modules built against $kdir" \
	"$top/scripts/build-lane-modules.sh" "$kdir" "$top/tests/build/lane-rt") || exit 1

export STM_VM_KERNEL=/boot/vmlinuz-$rel
export STM_VM_KMODDIR=/lib/modules/$rel
export STM_VM_OURMODS=$mods
export STM_VM_LANE=rt
# The serial IRQ thread can run long during export_file under RT; without
# this the spurious-IRQ detector disables ttyS1 ("nobody cared").
# Stress loops at half their rounds (stress_n): the same races as on
# the debian lane, the RT kernel's locking is what this lane adds.
export STM_VM_APPEND="noirqdebug stm.stress=50 ${STM_VM_APPEND:-}"
exec "$top/tests/vm/suite.sh"
