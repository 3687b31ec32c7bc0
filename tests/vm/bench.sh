#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench (VM part): boot the VM and run tests/guest/bench.sh, which
# prints the write-path figures. Settings: tests/vm/env.sh.
#
# As a baseline it also builds upstream Linux's own STM class, p_basic and
# dummy_stm from Debian's linux-source-6.1 into a temporary directory
# (renamed up_*.ko so they cannot be mistaken for ours; never committed,
# never installed) and ships them in the initramfs; the guest runs them
# after ours, one class at a time. STM_BENCH_UPSTREAM=0 skips that.
#
# STM_BENCH_PERF=1: profiles instead of figures. Carries the host's perf
# (Debian's linux-perf, matching the guest's 6.1) into the initramfs and
# runs tests/guest/bench_perf.sh (perf record -e cpu-clock -a -g around
# one writer of 256 and 4096-byte messages, ours and upstream's); the
# reports end up in tests/build/bench-perf/ (Documentation/performance.rst).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
src=/usr/src/linux-source-6.1.tar.xz

if [ "${STM_BENCH_UPSTREAM:-1}" != 0 ] && [ -r "$src" ]; then
	up=$(mktemp -d /tmp/stm-bench-upstream.XXXXXX)
	trap 'rm -rf "$up"' EXIT
	kdir=${KDIR:-$("$top/scripts/kdir.sh")}
	files=(core.c policy.c p_basic.c p_sys-t.c dummy_stm.c stm.h)
	if tar -xJf "$src" -C "$up" --strip-components=4 \
		"${files[@]/#/linux-source-6.1/drivers/hwtracing/stm/}" &&
		printf '%s\n' 'obj-m := up_stm_core.o up_stm_p_basic.o up_stm_p_sys_t.o up_dummy_stm.o' \
			'up_stm_core-y := core.o policy.o' 'up_stm_p_basic-y := p_basic.o' 'up_stm_p_sys_t-y := p_sys-t.o' \
			'up_dummy_stm-y := dummy_stm.o' >"$up/Kbuild" &&
		make -s -C "$kdir" M="$up" modules >"$up/build.log" 2>&1; then
		export STM_VM_OURMODS="$top $top/tests/kmod $up"
		echo "bench: upstream baseline built in $up"
	else
		echo "bench: could not build upstream's class as a baseline (see above); ours only" >&2
		tail -n 20 "$up/build.log" >&2 2>/dev/null
	fi
fi
if [ "${STM_BENCH_PERF:-0}" = 1 ]; then
	# profiles instead of figures: tests/guest/bench_perf.sh under perf
	# (Debian's linux-perf, carried into the initramfs with its libraries)
	perf=$(command -v perf) || { echo "bench: STM_BENCH_PERF=1 needs perf (apt-get install linux-perf)" >&2; exit 1; }
	export STM_VM_EXTRA_BINS="${STM_VM_EXTRA_BINS:-} $perf"
	: "${STM_VM_OUT:=$top/tests/vm/out/bench_perf}"
	export STM_VM_OUT
	"$(dirname "$0")/run-plain.sh" bench_perf
	rc=$?
	dest=$top/tests/build/bench-perf
	rm -rf "$dest"
	mkdir -p "$dest"
	cp "$STM_VM_OUT"/exports/* "$dest/" 2>/dev/null
	echo "bench: profiles in $dest"
	exit "$rc"
fi
"$(dirname "$0")/run-plain.sh" bench
