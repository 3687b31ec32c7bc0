#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks of the kernel code, as TAP: checkpatch --strict (from
# Debian's linux-source-6.1) and a W=1 build with sparse (C=2) must both
# be silent.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
KDIR=${KDIR:-$(scripts/kdir.sh)}
echo "1..2"

if out=$(scripts/checkpatch.sh 2>&1); then
	echo "ok 1 - checkpatch --strict clean"
else
	echo "not ok 1 - checkpatch --strict clean"
	printf '%s\n' "$out" | sed 's/^/# /'
fi

# the product modules, then the test-only ones (tests/kmod/Kbuild)
# in a copy (tests/build/static-w1), not in the tree that tests/vm.t
# boots the modules of, so the two can run side by side (make check)
w1=$top/tests/build/static-w1
scripts/build-lane-modules.sh "$KDIR" "$w1" -s W=1 C=2 >/dev/null 2>&1
rc=$?
out=$(cat "$w1/build.log" 2>/dev/null)
bad=$(printf '%s\n' "$out" | grep -E 'warning|error|: note:' || true)
if [ $rc -eq 0 ] && [ -z "$bad" ]; then
	echo "ok 2 - W=1 build and sparse clean"
else
	echo "not ok 2 - W=1 build and sparse clean (make exit $rc)"
	printf '%s\n' "$out" | sed 's/^/# /' | head -60
fi
