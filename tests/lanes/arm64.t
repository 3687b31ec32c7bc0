#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The arm64 lane under prove: Debian's arm64 6.1 kernel (linux-image-<abi>
# of the headers' ABI, fetched and unpacked into the cache, never
# installed: scripts/cross-kdir.sh --image) boots under
# qemu-system-aarch64 -M virt -cpu max (TCG) with our modules and the test
# modules cross-built against its headers (scripts/cross-build.sh arm64),
# Debian's arm64 busybox-static, the tools cross-built for arm64 with
# their arm64 shared libraries, and the guest programs built static for
# aarch64 (tests/vm/env.sh, STM_VM_ARCH=arm64).  The same suite.sh as the
# other lanes, the same kernel log scan.
#   prove -v tests/lanes/arm64.t     (make check: the subset below)
#   STM_ARM64_SUITE=full prove -v tests/lanes/arm64.t   (make check-arm64)
# The subset: the class and its policy, p_basic, p_sys-t, swstm in STP and
# RISC-V formats, MTT, libmtt (threads and mmap), mttcontrol and the
# source reload stress, at a quarter of its rounds (Documentation/
# testing.rst, "The arm64 lane").  Without qemu-system-aarch64, qemu-aarch64,
# the cross compiler or the arm64 C library, or when Debian's arm64
# packages cannot be fetched, the lane SKIPs naming what is missing,
# unless STM_CHECK_ARM=1: then it fails.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lanes/lib.sh"
exec 3>&1
mkdir -p "$top/tests/build"
export STM_LANE_LOG=$top/tests/build/lane-arm64.log
t=aarch64-linux-gnu

# unavailable WHY: SKIP the lane, or fail it under STM_CHECK_ARM=1
unavailable() {
	echo "1..1"
	if [ "${STM_CHECK_ARM:-}" = 1 ]; then
		echo "not ok 1 - arm64 lane ($1; STM_CHECK_ARM=1)"
		exit 1
	fi
	echo "ok 1 - arm64 lane # SKIP $1"
	exit 0
}

why=""
command -v qemu-system-aarch64 >/dev/null || why="no qemu-system-aarch64 (qemu-system-arm)"
command -v qemu-aarch64 >/dev/null || why="${why:+$why, }no qemu-aarch64 (qemu-user)"
command -v $t-gcc-12 >/dev/null || why="${why:+$why, }no $t-gcc-12 (gcc-aarch64-linux-gnu)"
[ -e /usr/$t/lib/libc.a ] || why="${why:+$why, }no arm64 C library (libc6-dev-arm64-cross)"
[ -z "$why" ] || unavailable "$why"

img=$("$top/scripts/cross-kdir.sh" --image arm64 2>"$STM_LANE_LOG") ||
	unavailable "Debian's arm64 kernel image not fetched: $(tail -n 1 "$STM_LANE_LOG")"
sys=$("$top/scripts/cross-kdir.sh" --libs arm64 2>"$STM_LANE_LOG") ||
	unavailable "Debian's arm64 libraries not fetched: $(tail -n 1 "$STM_LANE_LOG")"
rel=$(basename "$(ls -d "$img"/lib/modules/*)")
out=$top/tests/build/lane-arm64
lane_step "our modules cross-built for $rel (scripts/cross-build.sh arm64)" \
	"$top/scripts/cross-build.sh" arm64 "$out" >/dev/null || exit 1
b=$(lane_step "the tools cross-built for arm64 (scripts/cross-build.sh --tools arm64)" \
	"$top/scripts/cross-build.sh" --tools arm64) || exit 1

export STM_VM_ARCH=arm64
export STM_VM_KERNEL=$img/boot/vmlinuz-$rel
export STM_VM_KREL=$rel
export STM_VM_KMODDIR=$img/lib/modules/$rel
export STM_VM_OURMODS="$out $out/tests/kmod"
export STM_VM_BUSYBOX=$img/bin/busybox
export STM_VM_TOOLS=$top/tools/$b
export STM_VM_LIBPATH=/usr/$t/lib:$sys/usr/lib/$t:$sys/lib/$t
export STM_VM_LANE=arm64
case ${STM_ARM64_SUITE:-subset} in
full) ;;
subset)
	export STM_TESTS=${STM_TESTS:-t-00-smoke,t-10-class-abi,t-11-source-link,t-12-source-reload,t-31-swstm-roundtrip,t-40-syst-protocol,t-46-swstm-riscv,t-60-mtt-api,t-64-libmtt,t-65-libmtt-mmap,t-70-mttcontrol}
	export STM_VM_APPEND="stm.stress=25 ${STM_VM_APPEND:-}"
	;;
*) echo "1..1"; echo "not ok 1 - STM_ARM64_SUITE is full or subset, not '$STM_ARM64_SUITE'"; exit 1 ;;
esac
exec "$top/tests/vm/suite.sh"
