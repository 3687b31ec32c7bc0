#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel API probes of scripts/kbuild/stm-kernel.mk and their canaries
# in include/stm_compat.h, as TAP: a tiny module including stm_compat.h
# builds with the probes' own answers for KDIR (default: scripts/kdir.sh),
# and fails to build, with an error in stm_compat.h, when any one probe's
# answer is flipped.
top=$(cd "$(dirname "$0")/../.." && pwd)
KDIR=${KDIR:-$("$top/scripts/kdir.sh")}
probes="STM_HAVE_CLASS_OWNER STM_HAVE_CLASS_CONST STM_HAVE_CLASS_CREATE_NAME
	STM_HAVE_VM_FLAGS_SET STM_HAVE_HRTIMER_SETUP"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..$((1 + $(echo $probes | wc -w)))"

cat >"$tmp/Kbuild" <<EOK
STM_TOP := $top
include \$(STM_TOP)/scripts/kbuild/stm-kernel.mk
# STM_FLIP=NAME: the opposite of what the probe for NAME says
ifneq (\$(STM_FLIP),)
ifneq (\$(filter -D\$(STM_FLIP),\$(ccflags-y)),)
ccflags-y := \$(filter-out -D\$(STM_FLIP),\$(ccflags-y))
else
ccflags-y += -D\$(STM_FLIP)
endif
endif
obj-m += canary.o
EOK
cat >"$tmp/canary.c" <<'EOC'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <stm_compat.h>
MODULE_LICENSE("GPL");
EOC

build() {
	rm -f "$tmp"/*.o "$tmp"/*.ko
	make -C "$KDIR" M="$tmp" STM_FLIP="$1" modules >"$tmp/log" 2>&1
}

if build ""; then
	echo "ok 1 - stm_compat.h builds with the probes' answers for $KDIR"
else
	echo "not ok 1 - stm_compat.h builds with the probes' answers for $KDIR"
	tail -n 20 "$tmp/log" | sed 's/^/# /'
fi
n=1
for p in $probes; do
	n=$((n + 1))
	if build "$p"; then
		echo "not ok $n - $p flipped: the canary breaks the build"
	elif grep -q "stm_compat\.h:[0-9]*:[0-9]*: error" "$tmp/log"; then
		echo "ok $n - $p flipped: the canary breaks the build"
	else
		echo "not ok $n - $p flipped: the build broke, but not on a canary"
		tail -n 20 "$tmp/log" | sed 's/^/# /'
	fi
done
