#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian 6.12 lane under prove: a kernel that ships the STM class.
# Debian's linux-image-6.12-amd64 boots in the VM and the whole guest
# suite runs on the kernel's own class, protocols, dummy_stm and sources
# (its stm_*.ko, uncompressed into the initramfs's /stm/modules) plus our
# swstm and the test modules, built against linux-headers-6.12-amd64 by
# the same Kbuild (which then builds only what the kernel lacks).  Guest
# tests that find upstream's ABI different from ours expect what the
# kernel says and print both (Documentation/abi.rst lists them).
#   prove -v tests/lanes/k612.t      (or: make check-k612)
# STM_K612_ROOT=DIR looks for usr/src, boot and lib/modules under DIR
# (packages unpacked with dpkg-deb -x) instead of /.
# STM_K612_FLAVOUR=rt runs the same lane on linux-image-6.12-rt-amd64
# (PREEMPT_RT; lane "k612rt", tests/lanes/k612rt.t).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lanes/lib.sh"
exec 3>&1
mkdir -p "$top/tests/build"
flavour=${STM_K612_FLAVOUR:-}
case "$flavour" in
'' | rt) ;;
*) echo "1..1"; echo "not ok 1 - STM_K612_FLAVOUR is '' or rt, not '$flavour'"; exit 1 ;;
esac
lane=k612$flavour
export STM_LANE_LOG=$top/tests/build/lane-$lane.log
root=${STM_K612_ROOT:-}

find_k612() {
	local kdir rel
	if [ "$flavour" = rt ]; then
		kdir=$(ls -d "$root"/usr/src/linux-headers-6.12.*-rt-amd64 2>/dev/null | sort -V | tail -n 1)
	else
		kdir=$(ls -d "$root"/usr/src/linux-headers-6.12.*-amd64 2>/dev/null |
			grep -v -- '-rt-amd64' | sort -V | tail -n 1)
	fi
	[ -n "$kdir" ] || { echo "no linux-headers-6.12.*-${flavour:+$flavour-}amd64 (make deps)" >&2; return 1; }
	rel=${kdir##*/linux-headers-}
	[ -r "$root/boot/vmlinuz-$rel" ] || { echo "no $root/boot/vmlinuz-$rel (make deps)" >&2; return 1; }
	grep -qs '^CONFIG_STM=m' "$kdir/.config" ||
		{ echo "$kdir: kernel has no modular STM class (CONFIG_STM=m)" >&2; return 1; }
	echo "$kdir $rel"
}

# kernel_stm_modules MODDIR OUT: the kernel's STM modules, uncompressed.
kernel_stm_modules() {
	local f n
	rm -rf "$2" && mkdir -p "$2" || return 1
	for f in "$1"/kernel/drivers/hwtracing/stm/*.ko*; do
		[ -f "$f" ] || { echo "no STM modules in $1" >&2; return 1; }
		n=${f##*/}
		case "$f" in
		*.ko) cp "$f" "$2/$n" ;;
		*.ko.xz) xz -dc "$f" >"$2/${n%.xz}" ;;
		*.ko.gz) gzip -dc "$f" >"$2/${n%.gz}" ;;
		*.ko.zst) zstd -qdc "$f" >"$2/${n%.zst}" ;;
		*) echo "cannot use $f" >&2; return 1 ;;
		esac || return 1
	done
	ls "$2"
}

found=$(lane_step "Debian 6.12${flavour:+ $flavour} kernel and headers installed" find_k612) || exit 1
read -r kdir rel <<<"$found"
mods=$(lane_step "our modules built against $kdir" \
	"$top/scripts/build-lane-modules.sh" "$kdir" "$top/tests/build/lane-$lane") || exit 1
kmods=$top/tests/build/lane-$lane-kernel
lane_step "the kernel's STM modules unpacked" \
	kernel_stm_modules "$root/lib/modules/$rel" "$kmods" >/dev/null || exit 1

export STM_VM_KERNEL=$root/boot/vmlinuz-$rel
export STM_VM_KMODDIR=$root/lib/modules/$rel
export STM_VM_OURMODS="$kmods $mods"
export STM_VM_LANE=$lane
export STM_VM_APPEND="stm.class=upstream ${STM_VM_APPEND:-}"
# as tests/lanes/rt.t: the serial IRQ thread can run long under RT
# and as there, stress loops at half their rounds (stress_n)
[ "$flavour" != rt ] || STM_VM_APPEND="noirqdebug stm.stress=50 $STM_VM_APPEND"
exec "$top/tests/vm/suite.sh"
