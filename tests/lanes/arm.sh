# SPDX-License-Identifier: GPL-2.0
# Sourced by the Arm lanes (tests/lanes/arm64.t, armhf.t) after they set:
#   arch      Debian architecture: arm64 or armhf
#   t         the GNU triplet (aarch64-linux-gnu, arm-linux-gnueabihf)
#   qsys      QEMU system emulator, and the package that has it
#   quser     QEMU user-mode emulator
#   subset    the guest scripts make check runs (comma-separated)
#   suite     full or subset (STM_ARM64_SUITE, STM_ARMHF_SUITE)
#   suitevar  that variable's name, for the error message
# Fetches Debian's kernel image and libraries of arch (scripts/cross-kdir.sh),
# cross-builds our modules and the tools (scripts/cross-build.sh) and runs
# tests/vm/suite.sh on them.  Without the emulators, the cross compiler or
# the C library, or when Debian's packages cannot be fetched, the lane SKIPs
# naming what is missing, unless STM_CHECK_ARM=1: then it fails.  bash.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lanes/lib.sh"
exec 3>&1
mkdir -p "$top/tests/build"
export STM_LANE_LOG=$top/tests/build/lane-$arch.log

# unavailable WHY: SKIP the lane, or fail it under STM_CHECK_ARM=1
unavailable() {
	echo "1..1"
	if [ "${STM_CHECK_ARM:-}" = 1 ]; then
		echo "not ok 1 - $arch lane ($1; STM_CHECK_ARM=1)"
		exit 1
	fi
	echo "ok 1 - $arch lane # SKIP $1"
	exit 0
}

why=""
command -v "${qsys% *}" >/dev/null || why="no $qsys"
command -v "$quser" >/dev/null || why="${why:+$why, }no $quser (qemu-user)"
command -v $t-gcc-12 >/dev/null || why="${why:+$why, }no $t-gcc-12 (gcc-$t)"
[ -e /usr/$t/lib/libc.a ] || why="${why:+$why, }no $arch C library (libc6-dev-$arch-cross)"
[ -z "$why" ] || unavailable "$why"

img=$("$top/scripts/cross-kdir.sh" --image $arch 2>"$STM_LANE_LOG") ||
	unavailable "Debian's $arch kernel image not fetched: $(tail -n 1 "$STM_LANE_LOG")"
sys=$("$top/scripts/cross-kdir.sh" --libs $arch 2>"$STM_LANE_LOG") ||
	unavailable "Debian's $arch libraries not fetched: $(tail -n 1 "$STM_LANE_LOG")"
rel=$(basename "$(ls -d "$img"/lib/modules/*)")
out=$top/tests/build/lane-$arch
lane_step "our modules cross-built for $rel (scripts/cross-build.sh $arch)" \
	"$top/scripts/cross-build.sh" $arch "$out" >/dev/null || exit 1
b=$(lane_step "the tools cross-built for $arch (scripts/cross-build.sh --tools $arch)" \
	"$top/scripts/cross-build.sh" --tools $arch) || exit 1

export STM_VM_ARCH=$arch
export STM_VM_KERNEL=$img/boot/vmlinuz-$rel
export STM_VM_KREL=$rel
export STM_VM_KMODDIR=$img/lib/modules/$rel
export STM_VM_OURMODS="$out $out/tests/kmod"
export STM_VM_BUSYBOX=$img/bin/busybox
export STM_VM_TOOLS=$top/tools/$b
export STM_VM_LIBPATH=/usr/$t/lib:$sys/usr/lib/$t:$sys/lib/$t
export STM_VM_LANE=$arch
case $suite in
full) ;;
subset)
	export STM_TESTS=${STM_TESTS:-$subset}
	export STM_VM_APPEND="stm.stress=25 ${STM_VM_APPEND:-}"
	;;
*) echo "1..1"; echo "not ok 1 - $suitevar is full or subset, not '$suite'"; exit 1 ;;
esac
exec "$top/tests/vm/suite.sh"
