#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The debug lane under prove: builds (or reuses) a 6.1 kernel from
# Debian's linux-source-6.1 with KASAN, UBSAN, lockdep, atomic-sleep and
# list debugging and kmemleak (tests/lanes/debug.config), builds our
# modules against it and runs the VM suite on it, kmemleak on.  Any
# sanitizer, lockdep or leak report fails the run.
#
# The suite is split over two guests, which make check runs side by side:
# this file boots the scripts not in DEBUG_B below (lane "debug"),
# tests/lanes/debug-b.t those in it (lane "debug-b").  Under KASAN and
# lockdep the lane is the run's longest chain, and once the other lanes
# end one guest alone leaves a host core idle.  A new script goes to
# part a unless listed.
#   prove -v tests/lanes/debug.t tests/lanes/debug-b.t  (make check-debug)
#   STM_TESTS=t-50-contexts prove -v tests/lanes/debug.t  (those scripts,
#                                                         either part)
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lanes/lib.sh"
exec 3>&1
mkdir -p "$top/tests/build"

# part b: about half of the lane's script time (in the fresh-clone run
# of 2026-11-27, one guest: these 804 s of 1530 s; per-script seconds:
# each script's "exited 0 after Ns" in tests/vm/out/debug*/console.log)
DEBUG_B="t-12-source-reload t-30-swstm-params t-38-swstm-lost t-40-syst-protocol
	t-41-syst-console t-42-syst-heartbeat t-43-syst-ftrace t-48-swstm-ordering
	t-50-contexts t-51-contexts-lossy t-62-mtt-many t-63-mtt-contexts
	t-70-mttcontrol"

part=${STM_DEBUG_PART:-a}
case $part in
a) lane=debug ;;
b) lane=debug-b ;;
*) echo "1..1"; echo "not ok 1 - STM_DEBUG_PART is a or b, not '$part'"; exit 1 ;;
esac
if [ -z "${STM_TESTS:-}" ]; then
	sel=
	for f in "$top"/tests/guest/t-*.sh; do
		t=$(basename "$f" .sh)
		case " $(echo $DEBUG_B) " in
		*" $t "*) [ "$part" = b ] && sel="$sel,$t" ;;
		*) [ "$part" = a ] && sel="$sel,$t" ;;
		esac
	done
	export STM_TESTS=${sel#,}
elif [ "$part" = b ]; then
	echo "1..0 # SKIP STM_TESTS names the scripts: tests/lanes/debug.t runs them"
	exit 0
fi
export STM_LANE_LOG=$top/tests/build/lane-$lane.log

tree=$(lane_step "debug kernel built (scripts/build-debug-kernel.sh)" \
	"$top/scripts/build-debug-kernel.sh") || exit 1
mods=$(lane_step "modules built against the debug kernel" \
	"$top/scripts/build-lane-modules.sh" "$tree" "$top/tests/build/lane-$lane") || exit 1

export STM_VM_KERNEL=$tree/arch/x86/boot/bzImage
export STM_VM_KMODDIR=$tree
export STM_VM_OURMODS=$mods
export STM_VM_LANE=$lane
# KASAN and lockdep make every guest instruction several times dearer:
# each stress loop runs a quarter of its rounds (stress_n, the same races
# in the same code), and the lane's limit follows the kernel's speed.
# Most of the lane's time goes to the commands the scripts start (a fork
# and exec of a static program about 90 ms under load, a dynamic one
# 390 ms), not to the checks or to module loads (0.5 to 0.7 s a load and
# unload): scripts keep per-item work in the shell.  Figures, per-script
# seconds and the lane's expected time: Documentation/testing.rst,
# "Budgets".  The limit: each guest took 1817 to 2042 s here (2-core
# machine, single-threaded TCG), and a CI machine ran all of make check
# 1.6 times slower than that.
export STM_VM_APPEND="kmemleak=on stm.stress=25 ${STM_VM_APPEND:-}"
export STM_VM_TIMEOUT=${STM_VM_TIMEOUT:-4200}
exec "$top/tests/vm/suite.sh"
