#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Say which kind of kernel KDIR is, as the Kbuild decides it
# (scripts/kbuild/stm-kernel.mk): one that provides the STM class
# (CONFIG_STM=m or y and stm_register_device in its Module.symvers) or
# one without it, and so which of our modules a build for it holds.
#   stm-class-kind.sh KDIR        prints one line; exit 0
#   stm-class-kind.sh -q KDIR     prints "kernel" or "ours"
q=
[ "$1" = -q ] && { q=1; shift; }
kdir=${1:?usage: stm-class-kind.sh [-q] KDIR}
rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h" 2>/dev/null)
if grep -qs '^CONFIG_STM=[ym]' "$kdir/.config" &&
	grep -qsw stm_register_device "$kdir/Module.symvers"; then
	kind=kernel
	msg="kernel ${rel:-$kdir} has the STM class (CONFIG_STM): building and installing only swstm and the other modules it lacks; load its stm_core, protocols and sources with modprobe (Documentation/kernels.rst)"
else
	kind=ours
	msg="kernel ${rel:-$kdir} has no STM class: building and installing our stm_core, protocols, sources, dummy_stm and swstm (Documentation/kernels.rst)"
fi
if [ -n "$q" ]; then echo "$kind"; else echo "stm: $msg"; fi
