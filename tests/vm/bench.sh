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
#
# After the write-path figures, in the same boot, tests/guest/bench_alt.sh
# compares libmtt (write and mmap) with ftrace's trace_marker and
# LTTng-UST: the LTTng-UST peer (tests/build/bench/alt_bench_lttng, made
# by `make -C tests bench-lttng`), lttng, lttng-sessiond, lttng-consumerd
# and babeltrace2 with its plugins are carried into the initramfs with
# their libraries (Debian's liblttng-ust-dev, lttng-tools, babeltrace2;
# without them the guest says so and compares the other three).
# STM_BENCH_ALT=0 leaves it out, STM_BENCH_ALT=only boots for it alone;
# STM_BENCH_ALT_N (events a run, 4000) and STM_BENCH_ALT_ROUNDS (5).
#
# The write path runs in STM_BENCH_ROUNDS rounds (9), ours and upstream's
# class taking turns; each ratio is printed as the median and range of the
# rounds' ratios. STM_BENCH_COST=1 boots instead for a cost measurement
# (5 rounds of one run each: the figures repeat to a few parts in 10^4):
# one vCPU on one host thread with QEMU's -icount shift=0,sleep=off, so
# the guest's clock advances 1 ns per instruction executed and a figure
# no longer depends on what else the host runs (it counts instructions,
# which TCG does not weigh as a CPU does: Documentation/performance.rst).
# QEMU 7.2 does not bring up a second vCPU under -icount here, hence one.
# It skips the LTTng-UST comparison (STM_BENCH_ALT=0).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
src=/usr/src/linux-source-6.1.tar.xz
tmps=()
trap 'rm -rf "${tmps[@]}"' EXIT

alt=${STM_BENCH_ALT:-1}
[ "${STM_BENCH_PERF:-0}" != 1 ] || alt=0
if [ "${STM_BENCH_COST:-0}" = 1 ]; then
	alt=0
	STM_VM_APPEND="${STM_VM_APPEND:-} stm.bench_rounds=${STM_BENCH_ROUNDS:-5} stm.bench_cost=1"
	STM_VM_SMP=1 STM_VM_ACCEL=tcg,thread=single
	STM_VM_QEMU_EXTRA="${STM_VM_QEMU_EXTRA:-} -icount shift=0,sleep=off"
	: "${STM_VM_OUT:=$top/tests/vm/out/bench_cost}"
	export STM_VM_SMP STM_VM_ACCEL STM_VM_QEMU_EXTRA STM_VM_OUT
else
	STM_VM_APPEND="${STM_VM_APPEND:-} stm.bench_rounds=${STM_BENCH_ROUNDS:-9}"
	# multi-threaded TCG (not tests/vm/env.sh's x86 default): the
	# writers of the one-per-CPU rows run at the same instant; no
	# bench hooks a function (Documentation/kernels.rst)
	export STM_VM_ACCEL=${STM_VM_ACCEL:-tcg}
fi
export STM_VM_APPEND
if [ "$alt" != 0 ]; then
	STM_VM_APPEND="${STM_VM_APPEND:-} stm.alt_n=${STM_BENCH_ALT_N:-4000} stm.alt_rounds=${STM_BENCH_ALT_ROUNDS:-5}"
	[ "$alt" = only ] || STM_VM_APPEND="$STM_VM_APPEND stm.bench_alt=1"
	consumerd=/usr/lib/$(gcc -print-multiarch)/lttng/libexec/lttng-consumerd
	plugins=/usr/lib/$(gcc -print-multiarch)/babeltrace2/plugins
	lt_missing=
	for f in lttng lttng-sessiond babeltrace2; do
		command -v $f >/dev/null || lt_missing="$lt_missing $f"
	done
	[ -x "$consumerd" ] || lt_missing="$lt_missing lttng-consumerd"
	compgen -G "$plugins/*.so" >/dev/null || lt_missing="$lt_missing babeltrace2-plugins"
	xsd=/usr/share/xml/lttng/session.xsd
	[ -r "$xsd" ] || lt_missing="$lt_missing $xsd"
	if [ -n "$lt_missing" ]; then
		echo "bench: no LTTng-UST peer, missing:$lt_missing (make deps installs them)" >&2
	elif ! make -s -C "$top/tests" bench-lttng >/tmp/stm-bench-lttng.$$.log 2>&1; then
		echo "bench: no LTTng-UST peer: make -C tests bench-lttng failed:" >&2
		tail -n 20 /tmp/stm-bench-lttng.$$.log >&2
	else
		# babeltrace2's plugins and the session schema lttng-sessiond
		# reads at start (else it exits: "XSD parsing failed") are not
		# executables: copies marked so, for STM_VM_EXTRA_BINS
		bt=$(mktemp -d /tmp/stm-bench-bt2.XXXXXX)
		tmps+=("$bt")
		cp "$plugins"/*.so "$xsd" "$bt/" && chmod 755 "$bt"/*
		STM_VM_EXTRA_BINS="${STM_VM_EXTRA_BINS:-} $top/tests/build/bench/alt_bench_lttng"
		STM_VM_EXTRA_BINS="$STM_VM_EXTRA_BINS $(command -v lttng) $(command -v lttng-sessiond)"
		STM_VM_EXTRA_BINS="$STM_VM_EXTRA_BINS $consumerd $(command -v babeltrace2) $(echo "$bt"/*)"
		export STM_VM_EXTRA_BINS
	fi
	rm -f /tmp/stm-bench-lttng.$$.log
	export STM_VM_APPEND
fi
# hang guards only: the write path's rounds and the comparison in one script
: "${STM_VM_SCRIPT_TIMEOUT:=3000}" "${STM_VM_TIMEOUT:=3600}"
export STM_VM_SCRIPT_TIMEOUT STM_VM_TIMEOUT

if [ "${STM_BENCH_UPSTREAM:-1}" != 0 ] && [ "$alt" != only ] && [ -r "$src" ]; then
	up=$(mktemp -d /tmp/stm-bench-upstream.XXXXXX)
	tmps+=("$up")
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
if [ "$alt" = only ]; then
	"$(dirname "$0")/run-plain.sh" bench_alt
	exit
fi
"$(dirname "$0")/run-plain.sh" bench
