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
out=$(make -s -C "$KDIR" M="$top" W=1 C=2 modules 2>&1 &&
	make -s -C "$KDIR" M="$top/tests/kmod" W=1 C=2 modules 2>&1)
rc=$?
bad=$(printf '%s\n' "$out" | grep -E 'warning|error|: note:' || true)
if [ $rc -eq 0 ] && [ -z "$bad" ]; then
	echo "ok 2 - W=1 build and sparse clean"
else
	echo "not ok 2 - W=1 build and sparse clean (make exit $rc)"
	printf '%s\n' "$out" | sed 's/^/# /' | head -60
fi
