#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build our kernel modules against another kernel tree (a test lane's)
# without touching the objects of the default build: the kernel-side
# sources are copied to OUT and built there.  Prints OUT on success.
#
#   build-lane-modules.sh KDIR OUT
set -euo pipefail
kdir=${1:?usage: build-lane-modules.sh KDIR OUT}
out=${2:?usage: build-lane-modules.sh KDIR OUT}
top=$(cd "$(dirname "$0")/.." && pwd)

rm -rf "$out"
mkdir -p "$out/tests"
cp -r "$top/Kbuild" "$top/include" "$top/drivers" "$out/"
cp -r "$top/tests/kmod" "$out/tests/"
if ! make -C "$kdir" M="$out" modules >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	exit 1
fi
echo "$out"
