# SPDX-License-Identifier: GPL-2.0
# Sourced by the host-side VM scripts (bash): resolves the lane settings.
# shellcheck shell=bash
# Every variable can be set by the caller; defaults in brackets.
#
#   KDIR                  kernel build tree the modules were built against
#                         [scripts/kdir.sh]; used only to find the release
#   STM_VM_KREL           kernel release [from STM_VM_KERNEL's header, else KDIR]
#   STM_VM_KERNEL         kernel image to boot [/boot/vmlinuz-$STM_VM_KREL]
#   STM_VM_KMODDIR        tree holding that kernel's configfs.ko
#                         [/lib/modules/$STM_VM_KREL]; a build tree works too
#   STM_VM_OURMODS        module build dirs (space-separated): the modules
#                         of their modules.order, else their *.ko
#                         (tests/vm/modfiles.sh) [repo top, tests/kmod]
#   STM_VM_LANE           lane name, output in tests/vm/out/<lane>/ [debian]
#   STM_VM_OUT            output dir [tests/vm/out/$STM_VM_LANE]
#   STM_VM_TIMEOUT        host-side limit for all of a lane's boots, s
#                         [2400: Debian's kernels took 800-830 s with the
#                         lanes side by side on a loaded 2-core machine]
#   STM_VM_SCRIPT_TIMEOUT guest-side limit per script, s [600]
#   STM_VM_MEM/STM_VM_SMP guest memory (MiB) and CPUs [1024, 2]
#   STM_VM_ACCEL          QEMU's -accel [x86_64: tcg,thread=single, every
#                         vCPU on one host thread: Debian's kernels patch
#                         their own text while another vCPU runs it, and
#                         under multi-threaded TCG (tcg) that now and then
#                         Oopses with "int3", even in a plain boot
#                         (Documentation/kernels.rst); arm64, armhf: tcg]
#   STM_VM_QEMU_EXTRA     more QEMU arguments, appended last []
#   STM_VM_APPEND         extra kernel command line (e.g. kmemleak=on)
#   STM_VM_EXTRA_GUEST    more dirs of guest scripts (space-separated) []
#   STM_VM_EXTRA_CHECKS   more dirs of host checks (space-separated) []
#   STM_VM_EXTRA_BINS     more executables for /stm/bin, with their shared
#                         libraries (space-separated paths) []
#   STM_VM_ARCH           the guest's architecture [x86_64]; arm64 boots
#                         qemu-system-aarch64 -M virt -cpu max (console on
#                         its PL011, ttyAMA0; test channel on a pci-serial,
#                         ttyS0) and takes the aarch64 programs below;
#                         armhf the same with qemu-system-arm -M virt
#                         -cpu cortex-a15 and the armhf programs
#   STM_VM_BUSYBOX        the guest's busybox [the host's; arm64, armhf:
#                         none]
#   STM_VM_TOOLS          folder of our tools for /stm/bin [tools/build;
#                         arm64: tools/build/arm64; armhf: tools/build/armhf]
#   STM_VM_GUEST_BIN      folder of the guest programs [tests/build/guest;
#                         arm64: tests/build/guest-arm64; armhf:
#                         tests/build/guest-armhf]
#   STM_VM_GUEST_MAKE     arguments for the make of tests/Makefile that
#                         builds them [none; arm64: static, with
#                         aarch64-linux-gnu-gcc, libmtt of tools/build/arm64;
#                         armhf: arm-linux-gnueabihf-gcc, tools/build/armhf]
#   STM_VM_LIBPATH        the target's shared libraries (colon-separated
#                         folders): when set, the initramfs takes what
#                         each program needs from there (its ELF's NEEDED)
#                         instead of asking the host's ldd [none; arm64,
#                         armhf: the cross C library's]
#   STM_TESTS             guest scripts to run, comma/space separated,
#                         ".sh" optional [all tests/guest/t-*.sh]

STM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
STM_VM=$STM_TOP/tests/vm

# krel_of_image IMAGE: the release string in a bzImage's setup header.
krel_of_image() {
	local off
	off=$(od -An -tu2 -j 526 -N 2 "$1" 2>/dev/null | tr -d ' ')
	[ -n "$off" ] || return 1
	dd if="$1" bs=1 skip=$((off + 512)) count=256 2>/dev/null | tr '\0' '\n' | head -n 1 | cut -d' ' -f1
}

# krel_of_tree KDIR: the release a kernel build tree was configured for.
krel_of_tree() {
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$1/include/generated/utsrelease.h" 2>/dev/null
}

# the guest architecture's defaults (tests/lanes/arm64.t, armhf.t set the rest)
: "${STM_VM_ARCH:=x86_64}"
case $STM_VM_ARCH in
x86_64)
	: "${STM_VM_BUSYBOX:=$(command -v busybox || true)}"
	: "${STM_VM_TOOLS:=$STM_TOP/tools/build}"
	: "${STM_VM_GUEST_BIN:=$STM_TOP/tests/build/guest}"
	: "${STM_VM_GUEST_MAKE:=}"
	: "${STM_VM_LIBPATH:=}"
	;;
arm64)
	: "${STM_VM_BUSYBOX:=}"
	: "${STM_VM_TOOLS:=$STM_TOP/tools/build/arm64}"
	: "${STM_VM_GUEST_BIN:=$STM_TOP/tests/build/guest-arm64}"
	: "${STM_VM_GUEST_MAKE:=OUT=build/guest-arm64 CC=aarch64-linux-gnu-gcc LDFLAGS=-static TOOLS_B=build/arm64}"
	: "${STM_VM_LIBPATH:=/usr/aarch64-linux-gnu/lib}"
	;;
armhf)
	: "${STM_VM_BUSYBOX:=}"
	: "${STM_VM_TOOLS:=$STM_TOP/tools/build/armhf}"
	: "${STM_VM_GUEST_BIN:=$STM_TOP/tests/build/guest-armhf}"
	: "${STM_VM_GUEST_MAKE:=OUT=build/guest-armhf CC=arm-linux-gnueabihf-gcc LDFLAGS=-static TOOLS_B=build/armhf}"
	: "${STM_VM_LIBPATH:=/usr/arm-linux-gnueabihf/lib}"
	;;
*)
	echo "env.sh: STM_VM_ARCH is x86_64, arm64 or armhf, not '$STM_VM_ARCH'" >&2
	return 2
	;;
esac

if [ -z "${STM_VM_KREL:-}" ]; then
	if [ -n "${STM_VM_KERNEL:-}" ]; then
		STM_VM_KREL=$(krel_of_image "$STM_VM_KERNEL")
	else
		: "${KDIR:=$("$STM_TOP/scripts/kdir.sh")}"
		STM_VM_KREL=$(krel_of_tree "$KDIR")
	fi
fi
: "${STM_VM_KERNEL:=/boot/vmlinuz-$STM_VM_KREL}"
: "${STM_VM_KMODDIR:=/lib/modules/$STM_VM_KREL}"
if [ -z "${STM_VM_OURMODS:-}" ]; then
	STM_VM_OURMODS=$STM_TOP
	[ -d "$STM_TOP/tests/kmod" ] && STM_VM_OURMODS="$STM_VM_OURMODS $STM_TOP/tests/kmod"
fi
: "${STM_VM_LANE:=debian}"
: "${STM_VM_OUT:=$STM_VM/out/$STM_VM_LANE}"
: "${STM_VM_TIMEOUT:=2400}"
: "${STM_VM_SCRIPT_TIMEOUT:=600}"
: "${STM_VM_MEM:=1024}"
: "${STM_VM_SMP:=2}"
: "${STM_VM_ACCEL:=$([ "$STM_VM_ARCH" = x86_64 ] && echo tcg,thread=single || echo tcg)}"
: "${STM_VM_QEMU_EXTRA:=}"
: "${STM_VM_APPEND:=}"
: "${STM_TESTS:=}"
: "${STM_VM_EXTRA_GUEST:=}"
: "${STM_VM_EXTRA_CHECKS:=}"
: "${STM_VM_EXTRA_BINS:=}"
export STM_TOP STM_VM STM_VM_KREL STM_VM_KERNEL STM_VM_KMODDIR STM_VM_OURMODS \
	STM_VM_LANE STM_VM_OUT STM_VM_TIMEOUT STM_VM_SCRIPT_TIMEOUT STM_VM_MEM \
	STM_VM_SMP STM_VM_ACCEL STM_VM_QEMU_EXTRA STM_VM_APPEND STM_TESTS STM_VM_EXTRA_GUEST STM_VM_EXTRA_CHECKS STM_VM_EXTRA_BINS \
	STM_VM_ARCH STM_VM_BUSYBOX STM_VM_TOOLS STM_VM_GUEST_BIN STM_VM_GUEST_MAKE STM_VM_LIBPATH
