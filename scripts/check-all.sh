#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-all: build everything the tests need, then run every test
# file under prove.
#
# The kernel lanes spend most of their time waiting on their guests
# (sleeps, timers, the serial test channel): they run side by side
# (prove -j, STM_CHECK_JOBS, default 7), the debug lane's two guests
# first (tests/lanes/debug.t and debug-b.t), and its
# kernel builds in the background from the start, while the modules,
# tools and fuzzers build (the lane waits for it: build-debug-kernel.sh
# takes a lock).  Files that share a build or a machine-wide state run
# one after the other: tests/static/*.t (dkms, module builds),
# vm-budget.t and vm-boot-retry.t (short boots of the default build's
# modules), tests/host/*.t (tools/ builds), tests/firmware/*.t (the
# firmware lane: one QEMU board at a time, beside the other lanes; about
# 10 s for the STM32F4 MiniProfiler, as much for the RISC-V MTT
# board).  prove --timer prints each file's wall time; each
# lane's TAP has its scripts' times against their limits
# (Documentation/testing.rst, "Budgets").
#
#   check-all.sh           build and run
#   check-all.sh --list    the test files and directories it runs
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
files=(tests/lanes/debug.t tests/lanes/debug-b.t tests/vm.t tests/lanes/k612rt.t tests/lanes/rt.t tests/lanes/k612.t
	tests/lanes/arm64.t tests/lanes/armhf.t
	tests/firmware tests/static tests/host tests/vm-budget.t tests/vm-boot-retry.t)
rules=(--rules='seq=tests/static/*.t' --rules='seq={tests/vm-budget.t,tests/vm-boot-retry.t}'
	--rules='seq=tests/host/*.t' --rules='seq=tests/firmware/*.t' --rules='par=**')

if [ "${1:-}" = --list ]; then
	echo "${files[@]}"
	exit 0
fi

cd "$top" || exit 1
mkdir -p tests/build
# its own process group, so that a failed build below stops all of it
setsid "$top/scripts/build-debug-kernel.sh" >/dev/null 2>tests/build/debug-kernel.log &
kbuild=$!
jobs=$(nproc)
if ! make -j"$jobs" tests || ! make -j"$jobs" -C tools fuzz; then
	kill -- -"$kbuild" 2>/dev/null
	wait "$kbuild"
	exit 1
fi
prove --timer -j"${STM_CHECK_JOBS:-7}" "${rules[@]}" -r "${files[@]}"
rc=$?
# CI shows the end of the output: after prove's summary, each failing
# kernel lane's first failure with the two lines after it (the boots
# of vm-budget.t and vm-boot-retry.t fail on purpose: not shown)
if [ "$rc" -ne 0 ]; then
	for t in tests/vm/out/*/tap.log; do
		case "$t" in */budget-* | */boot-retry-*) continue ;; esac
		grep -m 1 -A 2 '^not ok' "$t" | cut -c 1-160 | sed "s|^|${t%/tap.log}: |"
	done | head -n 24
fi
wait "$kbuild"
exit $rc
