#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install every Debian 12 package the build, the tests, the VM suite and
# the demo need. Idempotent and quick when all is present: packages are
# checked with dpkg-query first; apt-get update and apt-get install run
# only when something is missing. Must run as root (or with nothing to do).
set -euo pipefail

pkgs=(
	make gcc libc6-dev perl kmod bc flex bison libelf-dev libssl-dev
	dwarves gzip xz-utils cpio coreutils findutils
	linux-headers-amd64 linux-image-amd64 linux-source-6.1
	linux-headers-rt-amd64 linux-image-rt-amd64
	linux-headers-6.12-amd64 linux-image-6.12-amd64
	linux-headers-6.12-rt-amd64 linux-image-6.12-rt-amd64 dkms
	qemu-system-x86 busybox-static libopencsd-bin
	sparse clang libclang-rt-14-dev llvm libexpat1-dev
	pkgconf groff-base man-db binutils libconfig-dev libudev-dev
	chromium linux-perf
)

# The VM suite boots the kernel the modules are built against: make sure
# the image matching the newest installed headers is there too.
here=$(cd "$(dirname "$0")" && pwd)
uts=include/generated/utsrelease.h
if kdir=$("$here/kdir.sh" 2>/dev/null) && [ -r "$kdir/$uts" ]; then
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
	echo "install-deps: all ${#pkgs[@]} packages present"
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
