#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build our kernel modules against another kernel tree (a test lane's)
# without touching the objects of the default build: the kernel-side
# sources are copied to OUT and built there: the product modules in OUT,
# then the test-only ones (tests/kmod/Kbuild) in OUT/tests/kmod against
# OUT/Module.symvers.  Prints both directories on success, space-separated
# (a value for STM_VM_OURMODS).  ARGS go to both makes (W=1 C=2: the
# static checks build in a copy too, so that the lanes booting the
# default build's modules can run beside them); OUT/build.log has the
# whole output.
#
#   build-lane-modules.sh KDIR OUT [ARGS...]
set -euo pipefail
kdir=${1:?usage: build-lane-modules.sh KDIR OUT [ARGS...]}
out=${2:?usage: build-lane-modules.sh KDIR OUT [ARGS...]}
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)

rm -rf "$out"
mkdir -p "$out/tests/kmod"
cp -r "$top/Kbuild" "$top/include" "$top/drivers" "$out/"
mkdir -p "$out/scripts"
cp -r "$top/scripts/kbuild" "$out/scripts/"
# the test modules' sources only (not objects of a default `make tests`)
find "$top/tests/kmod" -maxdepth 1 -type f \( -name Kbuild -o -name '*.[ch]' \) \
	! -name '*.mod.c' -exec cp {} "$out/tests/kmod/" \;
if ! { make -C "$kdir" M="$out" "$@" modules &&
	make -C "$kdir" M="$out/tests/kmod" "$@" modules; } >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	exit 1
fi
echo "$out $out/tests/kmod"
