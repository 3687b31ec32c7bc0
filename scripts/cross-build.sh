#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Cross-build our kernel modules for Debian's Arm kernels from an x86_64
# host (Documentation/kernels.rst, "Arm boards"): the headers come from
# scripts/cross-kdir.sh (fetched into the cache, nothing installed), the
# compiler from gcc-aarch64-linux-gnu or gcc-arm-linux-gnueabihf
# (scripts/install-deps.sh).  The sources are built in a copy, OUT
# (default build/ARCH), as scripts/build-lane-modules.sh does, so the
# host's own objects stay; OUT holds the product modules
# (OUT/drivers/*/*.ko, OUT/modules.order), OUT/tests/kmod the test-only
# ones.  Prints OUT's .ko files, one a line.
#
#   cross-build.sh arm64|armhf [OUT [MAKE ARGS...]]
#   cross-build.sh --tools arm64|armhf [B]
#
# --tools: the userspace instead, `make -C tools CC=<triplet>-gcc B=B`
# (default build/ARCH under tools/), against the target's libraries
# (scripts/cross-kdir.sh --libs; the C library from libc6-dev-arm64-cross
# or libc6-dev-armhf-cross); one tools build at a time (the host tests'
# lock).  Prints B.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tools=
if [ "${1:-}" = --tools ]; then
	tools=1
	shift
fi
arch=${1:-}
case $arch in
arm64) karch=arm64 ;;
armhf) karch=arm ;;
*)
	echo "usage: cross-build.sh arm64|armhf [OUT [MAKE ARGS...]]" >&2
	exit 2
	;;
esac
cross=$("$top/scripts/cross-kdir.sh" --cross "$arch")
if [ -n "$tools" ]; then
	b=${2:-build/$arch}
	if ! command -v "${cross}gcc" >/dev/null; then
		echo "cross-build: ${cross}gcc missing: apt-get install gcc-${cross%-}" >&2
		exit 1
	fi
	sys=$("$top/scripts/cross-kdir.sh" --libs "$arch")
	t=${cross%-}
	mkdir -p "$top/tools/build"
	flock "$top/tools/build/.make.lock" make -s -j"$(nproc)" -C "$top/tools" \
		CC="${cross}gcc" B="$b" \
		CPPFLAGS="-I$sys/usr/include -I$sys/usr/include/$t" \
		LDFLAGS="-L$sys/usr/lib/$t -L$sys/lib/$t -Wl,-rpath-link,$sys/usr/lib/$t:$sys/lib/$t" \
		all >&2
	echo "$b"
	exit 0
fi
out=${2:-$top/build/$arch}
shift $(($# < 2 ? $# : 2))
# Debian's headers name the compiler: $(CROSS_COMPILE)gcc-12
if ! command -v "${cross}gcc-12" >/dev/null; then
	echo "cross-build: ${cross}gcc-12 missing: apt-get install gcc-${cross%-}" >&2
	exit 1
fi
kdir=$("$top/scripts/cross-kdir.sh" "$arch")
"$top/scripts/stm-class-kind.sh" "$kdir" >&2
"$top/scripts/build-lane-modules.sh" "$kdir" "$out" ARCH="$karch" \
	CROSS_COMPILE="$cross" "$@" >/dev/null
find "$out" -name '*.ko' | sort
