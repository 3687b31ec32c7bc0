#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The armhf lane under prove: Debian's armmp 6.1 kernel (linux-image-<abi>
# of the armhf headers' ABI, fetched and unpacked into the cache, never
# installed: scripts/cross-kdir.sh --image armhf) boots under
# qemu-system-arm -M virt -cpu cortex-a15 (TCG, 2 vCPUs; an ARMv7 core as
# the STM32MP1's Cortex-A7) with our modules and the test modules
# cross-built against its headers (scripts/cross-build.sh armhf), Debian's
# armhf busybox-static, the tools cross-built for armhf with their armhf
# shared libraries (scripts/cross-build.sh --tools armhf: the guest
# scripts decode with mttdecode), and the guest programs built static
# with arm-linux-gnueabihf-gcc (tests/vm/env.sh, STM_VM_ARCH=armhf).  The
# same suite.sh as the other lanes, the same kernel log scan.
#   prove -v tests/lanes/armhf.t     (make check: the subset below)
#   STM_ARMHF_SUITE=full prove -v tests/lanes/armhf.t   (make check-armhf)
# The subset: the class and its policy, source links, p_basic, p_sys-t,
# swstm in STP and RISC-V formats, swstm's concurrent writers, the
# contexts (ARMv7 has no NMI: the NMI writer reports "not proven"), the
# MTT API, at stm.stress=25 (Documentation/testing.rst, "The armhf
# lane").  Without qemu-system-arm, qemu-arm, the cross compiler or the
# armhf C library, or when Debian's armhf packages cannot be fetched, the
# lane SKIPs naming what is missing, unless STM_CHECK_ARM=1: then it
# fails.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lanes/lib.sh"
exec 3>&1
mkdir -p "$top/tests/build"
export STM_LANE_LOG=$top/tests/build/lane-armhf.log
t=arm-linux-gnueabihf

# unavailable WHY: SKIP the lane, or fail it under STM_CHECK_ARM=1
unavailable() {
	echo "1..1"
	if [ "${STM_CHECK_ARM:-}" = 1 ]; then
		echo "not ok 1 - armhf lane ($1; STM_CHECK_ARM=1)"
		exit 1
	fi
	echo "ok 1 - armhf lane # SKIP $1"
	exit 0
}

why=""
command -v qemu-system-arm >/dev/null || why="no qemu-system-arm"
command -v qemu-arm >/dev/null || why="${why:+$why, }no qemu-arm (qemu-user)"
command -v $t-gcc-12 >/dev/null || why="${why:+$why, }no $t-gcc-12 (gcc-arm-linux-gnueabihf)"
[ -e /usr/$t/lib/libc.a ] || why="${why:+$why, }no armhf C library (libc6-dev-armhf-cross)"
[ -z "$why" ] || unavailable "$why"

img=$("$top/scripts/cross-kdir.sh" --image armhf 2>"$STM_LANE_LOG") ||
	unavailable "Debian's armhf kernel image not fetched: $(tail -n 1 "$STM_LANE_LOG")"
sys=$("$top/scripts/cross-kdir.sh" --libs armhf 2>"$STM_LANE_LOG") ||
	unavailable "Debian's armhf libraries not fetched: $(tail -n 1 "$STM_LANE_LOG")"
rel=$(basename "$(ls -d "$img"/lib/modules/*)")
out=$top/tests/build/lane-armhf
lane_step "our modules cross-built for $rel (scripts/cross-build.sh armhf)" \
	"$top/scripts/cross-build.sh" armhf "$out" >/dev/null || exit 1
b=$(lane_step "the tools cross-built for armhf (scripts/cross-build.sh --tools armhf)" \
	"$top/scripts/cross-build.sh" --tools armhf) || exit 1

export STM_VM_ARCH=armhf
export STM_VM_KERNEL=$img/boot/vmlinuz-$rel
export STM_VM_KREL=$rel
export STM_VM_KMODDIR=$img/lib/modules/$rel
export STM_VM_OURMODS="$out $out/tests/kmod"
export STM_VM_BUSYBOX=$img/bin/busybox
export STM_VM_TOOLS=$top/tools/$b
export STM_VM_LIBPATH=/usr/$t/lib:$sys/usr/lib/$t:$sys/lib/$t
export STM_VM_LANE=armhf
case ${STM_ARMHF_SUITE:-subset} in
full) ;;
subset)
	export STM_TESTS=${STM_TESTS:-t-00-smoke,t-10-class-abi,t-11-source-link,t-31-swstm-roundtrip,t-33-swstm-concurrent,t-40-syst-protocol,t-46-swstm-riscv,t-50-contexts,t-60-mtt-api}
	export STM_VM_APPEND="stm.stress=25 ${STM_VM_APPEND:-}"
	;;
*) echo "1..1"; echo "not ok 1 - STM_ARMHF_SUITE is full or subset, not '$STM_ARMHF_SUITE'"; exit 1 ;;
esac
exec "$top/tests/vm/suite.sh"
