#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The debug lane under prove: builds (or reuses) a 6.1 kernel from
# Debian's linux-source-6.1 with KASAN, UBSAN, lockdep, atomic-sleep and
# list debugging and kmemleak (tests/lanes/debug.config), builds our
# modules against it and runs the whole VM suite on it, kmemleak on.
# Any sanitizer, lockdep or leak report fails the run.
#   prove -v tests/lanes/debug.t     (or: make check-debug)
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lanes/lib.sh"
exec 3>&1
mkdir -p "$top/tests/build"
export STM_LANE_LOG=$top/tests/build/lane-debug.log

tree=$(lane_step "debug kernel built (scripts/build-debug-kernel.sh)" \
	"$top/scripts/build-debug-kernel.sh") || exit 1
mods=$(lane_step "modules built against the debug kernel" \
	"$top/scripts/build-lane-modules.sh" "$tree" "$top/tests/build/lane-debug") || exit 1

export STM_VM_KERNEL=$tree/arch/x86/boot/bzImage
export STM_VM_KMODDIR=$tree
export STM_VM_OURMODS=$mods
export STM_VM_LANE=debug
# KASAN and lockdep make every guest instruction several times dearer:
# each stress loop runs a quarter of its rounds (stress_n, the same races
# in the same code), and the lane's limit follows the kernel's speed.
# Most of the lane's time goes to the commands the scripts start (a fork
# and exec of a static program about 90 ms under load, a dynamic one
# 390 ms), not to the checks or to module loads (0.5 to 0.7 s a load and
# unload): scripts keep per-item work in the shell.  Figures, per-script
# seconds and the lane's expected time: Documentation/testing.rst,
# "Budgets".
export STM_VM_APPEND="kmemleak=on stm.stress=25 ${STM_VM_APPEND:-}"
export STM_VM_TIMEOUT=${STM_VM_TIMEOUT:-3600}
exec "$top/tests/vm/suite.sh"
