#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The one list of the Debian 12 packages this project needs, in three
# sets, each holding the one before it:
#
#   tools   a host that only decodes: make -C tools (mttdecode,
#           mttcontrol, mttprofile and their libraries)
#   build   make && make install on a target: the tools and the modules
#   all     make deps: also the tests, the VM lanes, the firmware lane
#           (cross compilers, QEMU for the boards), make demo, make bench
#           (its LTTng-UST peer: liblttng-ust-dev, lttng-tools, babeltrace2),
#           make arm64 and make armhf (the Arm kernels' compilers; their
#           headers are fetched by scripts/cross-kdir.sh, not installed),
#           the arm64 and armhf lanes (qemu-system-arm's
#           qemu-system-aarch64 and qemu-system-arm, the cross C
#           libraries; their kernels and busybox fetched the same way)
#
#   install-deps.sh [tools|build|all]   install what is missing (default all)
#   install-deps.sh --list [SET]        print the set, one package a line
#
# Documents that list packages name one of these sets exactly
# (tests/static/deps.t).  Idempotent and quick when all is present:
# packages are checked with dpkg-query first; apt-get update and apt-get
# install run only when something is missing. Must run as root (or with
# nothing to do).
set -euo pipefail

tools_pkgs=(make gcc libc6-dev libexpat1-dev libelf-dev libconfig-dev libudev-dev)
build_pkgs=("${tools_pkgs[@]}" linux-headers-amd64 kmod)
all_pkgs=(
	"${build_pkgs[@]}"
	perl bc flex bison libssl-dev
	dwarves gzip xz-utils cpio coreutils findutils
	linux-image-amd64 linux-source-6.1
	linux-headers-rt-amd64 linux-image-rt-amd64
	linux-headers-6.12-amd64 linux-image-6.12-amd64
	linux-headers-6.12-rt-amd64 linux-image-6.12-rt-amd64 dkms
	qemu-system-x86 busybox-static libopencsd-bin
	sparse clang libclang-rt-14-dev llvm
	pkgconf groff-base man-db binutils
	chromium linux-perf python3-docutils
	gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
	gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc
	gdb-multiarch
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-arm-linux-gnueabihf
	libc6-dev-armhf-cross
	qemu-user
	liblttng-ust-dev lttng-tools babeltrace2
)

list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
set_name=${1:-all}
case "$set_name" in
tools) pkgs=("${tools_pkgs[@]}") ;;
build) pkgs=("${build_pkgs[@]}") ;;
all) pkgs=("${all_pkgs[@]}") ;;
*)
	echo "usage: install-deps.sh [--list] [tools|build|all]" >&2
	exit 2
	;;
esac
if [ -n "$list" ]; then
	printf '%s\n' "${pkgs[@]}"
	exit 0
fi

# The VM suite boots the kernel the modules are built against: make sure
# the image matching the newest installed headers is there too.
here=$(cd "$(dirname "$0")" && pwd)
uts=include/generated/utsrelease.h
if [ "$set_name" = all ] && kdir=$("$here/kdir.sh" 2>/dev/null) && [ -r "$kdir/$uts" ]; then
	rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/$uts")
	if [ -n "$rel" ] && [ ! -e "/boot/vmlinuz-$rel" ]; then
		pkgs+=("linux-image-$rel")
	fi
fi

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	if [ "$st" != "install ok installed" ]; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: all ${#pkgs[@]} packages of the $set_name set present"
	exit 0
fi

echo "install-deps: installing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: must run as root to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null

# linux-headers-amd64 may have pulled a newer ABI than the image: rerun
# once so the matching image is installed too.
if [ -z "${STM_DEPS_RERUN:-}" ]; then
	STM_DEPS_RERUN=1 exec "$0" "$@"
fi
