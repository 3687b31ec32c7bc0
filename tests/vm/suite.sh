#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the VM suite for one lane and print numbered TAP: build the guest
# programs and the initramfs, boot the kernel once, run the guest scripts
# (tests/guest/t-*.sh or $STM_TESTS), then decode exported files, scan the
# kernel log and run the host checks (tests/vm/host-checks/*.sh OUTDIR).
# Settings come from the environment: see tests/vm/env.sh.
# Exit status: 0 iff every test passed.
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
out=$STM_VM_OUT

# The guest scripts to run, by the host's reckoning.
guestdirs="$STM_TOP/tests/guest $STM_VM_EXTRA_GUEST"
names=() unknown=()
if [ -n "$STM_TESTS" ]; then
	for t in $(echo "$STM_TESTS" | tr ',' ' '); do
		case "$t" in *.sh) ;; *) t=$t.sh ;; esac
		found=
		for d in $guestdirs; do [ -f "$d/$t" ] && found=1; done
		if [ -n "$found" ]; then names+=("$t"); else unknown+=("$t"); fi
	done
else
	mapfile -t names < <(for d in $guestdirs; do
		for f in "$d"/t-*.sh; do [ -f "$f" ] && echo "${f##*/}"; done
	done | LC_ALL=C sort -u)
fi

rm -rf "$out"
mkdir -p "$out"

append="stm.kver=$STM_VM_KREL stm.script_timeout=$STM_VM_SCRIPT_TIMEOUT"
if [ -n "$STM_TESTS" ]; then
	append="$append stm.tests=$(echo "${names[@]:-none}" | tr ' ' ',')"
fi
append="$append $STM_VM_APPEND"

# Host-side preparation, as TAP lines of their own.
prepare() {
	local t d ko vm mods=0 bad=""
	echo "# lane $STM_VM_LANE: $STM_VM_KERNEL ($STM_VM_KREL)"
	echo "# kernel modules: $STM_VM_KMODDIR; ours: $STM_VM_OURMODS"
	echo "# output: $out"
	if [ -z "$STM_VM_KREL" ] || [ ! -r "$STM_VM_KERNEL" ]; then
		echo "not ok - kernel image '$STM_VM_KERNEL' (release '$STM_VM_KREL') readable"
		return 1
	fi
	for t in "${unknown[@]}"; do
		echo "not ok - $t: no such guest script tests/guest/$t"
	done
	# shellcheck disable=SC2086 # STM_VM_GUEST_MAKE: make's arguments
	if make -k -s -C "$STM_TOP/tests" $STM_VM_GUEST_MAKE >"$out/make-tests.log" 2>&1; then
		echo "ok - guest programs built (tests/Makefile)"
	else
		echo "not ok - guest programs built (tests/Makefile)"
		sed 's/^/# /' "$out/make-tests.log" | tail -n 40
	fi
	for d in $STM_VM_OURMODS; do
		for ko in $("$STM_VM/modfiles.sh" "$d" 2>>"$out/modfiles.log"); do
			mods=$((mods + 1))
			vm=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
			[ "$vm" = "$STM_VM_KREL" ] || bad="$bad $(basename "$ko")($vm)"
		done
	done
	if [ "$mods" -eq 0 ]; then
		echo "not ok - our modules: none built in $STM_VM_OURMODS"
	elif [ -n "$bad" ]; then
		echo "not ok - our $mods modules built for $STM_VM_KREL: not$bad"
	else
		echo "ok - our $mods modules built for $STM_VM_KREL"
	fi
	local mods_args=()
	for d in $STM_VM_OURMODS; do [ -d "$d" ] && mods_args+=(-m "$d"); done
	for d in $STM_VM_EXTRA_GUEST; do mods_args+=(-g "$d"); done
	if "$STM_VM/mkinitramfs.sh" -o "$out/initramfs.cpio.gz" -k "$STM_VM_KMODDIR" \
		"${mods_args[@]}" >"$out/mkinitramfs.log" 2>&1; then
		echo "ok - initramfs built ($(stat -c %s "$out/initramfs.cpio.gz") bytes)"
		return 0
	fi
	echo "not ok - initramfs built"
	sed 's/^/# /' "$out/mkinitramfs.log"
	return 1
}

# Everything after the boot: exports, kernel log (also of the boots the
# guest asked to restart from, tests/guest/init), host checks.
after_boot() {
	local h rc f
	"$STM_VM/exports.sh" "$out" 2>&1
	for f in $(cat "$out/restarted-logs" 2>/dev/null); do
		echo "@@host start ${f%.log}"
		"$STM_VM/logscan.sh" "$out/$f" 2>&1
		echo "@@host end"
	done
	"$STM_VM/logscan.sh" "$out/console.log" 2>&1
	for h in "$STM_VM"/host-checks/*.sh $(for d in $STM_VM_EXTRA_CHECKS; do echo "$d"/*.sh; done); do
		[ -x "$h" ] || continue
		echo "@@host start host-check:$(basename "$h" .sh)"
		rc=0
		"$h" "$out" </dev/null 2>&1 || rc=$?
		echo
		if [ "$rc" -eq 0 ]; then echo "ok - exit status 0"; else echo "not ok - exited $rc"; fi
		echo "@@host end"
	done
	echo "# console log (ttyS0): $out/console.log"
	echo "# test channel (ttyS1): $out/ttyS1.log"
	echo "# TAP: $out/tap.log"
}

# rest_from NAME: the guest scripts from NAME on (comma-separated).
rest_from() {
	local t on=
	for t in "${names[@]}"; do
		[ "$t" = "$1" ] && on=1
		[ -z "$on" ] || printf '%s,' "$t"
	done | sed 's/,$//'
}

# The lane's limit (STM_VM_TIMEOUT) holds for all its boots together:
# each boot gets what is left of it, and the guest's init cuts every
# script's limit to what is left of its boot (stm.vm_limit), so a slow
# script fails on its own and the scripts after it still run and report.
run() {
	local rc=255 boot=1 f left restart args=$append t0
	t0=$(date +%s)
	: >"$out/restarted-logs"
	if prepare; then
		while :; do
			start=$(date +%s)
			left=$((STM_VM_TIMEOUT - (start - t0)))
			"$STM_VM/boot.sh" -f -k "$STM_VM_KERNEL" -i "$out/initramfs.cpio.gz" -o "$out" \
				-t "$left" -a "$args stm.boot=$boot stm.vm_limit=$left" 2>&1
			rc=$?
			echo "# VM ran $(($(date +%s) - start))s of its ${left}s limit, QEMU exit $rc"
			[ -s "$out/qemu.log" ] && sed 's/^/# qemu: /' "$out/qemu.log"
			restart=$(sed -n 's/^@@stm restart \([^ ]*\).*/\1/p' "$out/ttyS1.log" | tail -n 1)
			if [ "$boot" = 1 ] && grep -q '^@@stm reboot' "$out/ttyS1.log"; then
				# the guest's init asks for another boot when the
				# kernel reported a problem before any test ran
				# (tests/guest/init); once: the second boot's log is
				# scanned as usual
				for f in console ttyS1 qemu; do mv "$out/$f.log" "$out/$f-boot1.log"; done
				echo "# the kernel reported a problem while booting, before any test ran"
				echo "# (none of our modules was loaded): booting once more; the first"
				echo "# boot's console log is $out/console-boot1.log:"
				"$STM_VM/logscan.sh" "$out/console-boot1.log" | sed -n 's/^# >> /#   /p' | head -n 5
			elif [ -n "$restart" ] && [ "$boot" -lt 5 ] && [ "$left" -gt 60 ]; then
				# a script left what the init could not clean up: a
				# fresh kernel for the scripts after it; this boot's
				# log is scanned too (after_boot)
				for f in console ttyS1 qemu; do mv "$out/$f.log" "$out/$f-boot$boot.log"; done
				echo "console-boot$boot.log" >>"$out/restarted-logs"
				echo "# the guest could not clean up after a script: booting again from $restart"
				args="stm.kver=$STM_VM_KREL stm.script_timeout=$STM_VM_SCRIPT_TIMEOUT"
				args="$args stm.tests=$(rest_from "$restart") $STM_VM_APPEND"
			else
				break
			fi
			boot=$((boot + 1))
		done
	fi
	echo "# lane $STM_VM_LANE: the VM part took $(($(date +%s) - t0))s of its ${STM_VM_TIMEOUT}s limit"
	echo "@@host vm-exit $rc"
	after_boot
}

verbose=0
if [ -n "${TEST_VERBOSE:-}" ] || [ -t 1 ]; then verbose=1; fi
run | awk -v expect="${names[*]:-}" -v timeout="$STM_VM_TIMEOUT" -v verbose="$verbose" \
	-f "$STM_VM/tap.awk" |
	tee "$out/tap.log"
! grep -q '^not ok' "$out/tap.log"
