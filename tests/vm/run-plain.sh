#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the VM to run one guest script for a person, not for prove:
# tests/guest/NAME.sh runs in plain mode and its output is shown on the
# terminal as it comes. Used by demo.sh and bench.sh.
#
#   run-plain.sh NAME
#
# Settings: tests/vm/env.sh (the lane defaults to NAME; STM_VM_EXTRA_GUEST's
# files go to /stm/tests too; boot.sh reads STM_VM_SERIAL_EXTRA). Exit status: the
# script's, or 1 if the VM did not finish or the kernel log is not clean.
set -uo pipefail

name=$1
: "${STM_VM_LANE:=$name}"
export STM_VM_LANE
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
out=$STM_VM_OUT
script=$name.sh

[ -f "$STM_TOP/tests/guest/$script" ] || { echo "$name: tests/guest/$script missing" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"

# shellcheck disable=SC2086 # STM_VM_GUEST_MAKE: make's arguments
if ! make -s -C "$STM_TOP/tests" $STM_VM_GUEST_MAKE >"$out/make-tests.log" 2>&1; then
	cat "$out/make-tests.log" >&2
	echo "$name: building the guest programs failed" >&2
	exit 1
fi
mods_args=()
for d in $STM_VM_OURMODS; do [ -d "$d" ] && mods_args+=(-m "$d"); done
for d in $STM_VM_EXTRA_GUEST; do mods_args+=(-g "$d"); done
if ! "$STM_VM/mkinitramfs.sh" -o "$out/initramfs.cpio.gz" -k "$STM_VM_KMODDIR" "${mods_args[@]}"; then
	echo "$name: building the initramfs failed" >&2
	exit 1
fi

echo "== $name: booting $STM_VM_KERNEL under QEMU (TCG), this takes a few seconds"
append="stm.kver=$STM_VM_KREL stm.mode=plain stm.tests=$script"
append="$append stm.script_timeout=$STM_VM_SCRIPT_TIMEOUT $STM_VM_APPEND"
"$STM_VM/boot.sh" -f -k "$STM_VM_KERNEL" -i "$out/initramfs.cpio.gz" -o "$out" \
	-t "$STM_VM_TIMEOUT" -a "$append" |
	awk '{ sub(/\r+$/, "") }
		/^@@stm export / { skip = 1; next }
		/^@@/ { skip = 0; next }
		!skip { print; fflush() }'
vmrc=${PIPESTATUS[0]}

rc=$(tr -d '\r' <"$out/ttyS1.log" | sed -n "s/^@@stm end $script \([0-9]*\)$/\1/p")
"$STM_VM/exports.sh" "$out" | sed -n 's/^# //p' | sed 's/^/== exported: /'
scan=$("$STM_VM/logscan.sh" "$out/console.log")
echo "== kernel console log: $out/console.log"
if [ -z "$rc" ]; then
	echo "== $name: did not finish (QEMU exit $vmrc$([ "$vmrc" = 124 ] && echo ", killed after ${STM_VM_TIMEOUT}s"))" >&2
	rc=1
else
	echo "== $name: exit status $rc"
fi
case "$scan" in
ok*) ;;
*) printf '%s\n' "$scan" >&2; echo "== $name: the kernel log is not clean" >&2; [ "$rc" -ne 0 ] || rc=1 ;;
esac
exit "$rc"
