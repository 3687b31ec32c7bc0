#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scan a kernel console log for warnings, BUGs, oopses, lockdep, KASAN,
# UBSAN, kmemleak, list corruption, ... (tests/vm/log-patterns.txt, minus
# tests/vm/log-ignore.txt) and print one TAP line, "kernel log clean",
# with every offending line and the 20 lines after it as diagnostics.
#
#   logscan.sh CONSOLE_LOG
set -euo pipefail

log=$1
here=$(cd "$(dirname "$0")" && pwd)
pat=$(mktemp) ign=$(mktemp)
trap 'rm -f "$pat" "$ign"' EXIT
grep -v -e '^#' -e '^[[:space:]]*$' "$here/log-patterns.txt" >"$pat"
grep -v -e '^#' -e '^[[:space:]]*$' "$here/log-ignore.txt" >"$ign" || true

if [ ! -s "$log" ]; then
	echo "not ok - kernel log clean: $log is empty (the VM never booted?)"
	exit 0
fi

# Line numbers of the offending lines.
if [ -s "$ign" ]; then
	hits=$(tr -d '\r' <"$log" | grep -n -E -f "$pat" | grep -v -E -f "$ign" | cut -d: -f1 || true)
else
	hits=$(tr -d '\r' <"$log" | grep -n -E -f "$pat" | cut -d: -f1 || true)
fi
if [ -z "$hits" ]; then
	echo "ok - kernel log clean"
	exit 0
fi

echo "not ok - kernel log clean ($(echo "$hits" | wc -l) offending lines in $log)"
# Each hit with 2 lines before and 20 after, overlapping ranges merged,
# at most 400 lines in all.
tr -d '\r' <"$log" | awk -v hits="$(echo $hits)" '
	BEGIN { n = split(hits, h, " "); for (i = 1; i <= n; i++) for (j = h[i] - 2; j <= h[i] + 20; j++) show[j] = 1 }
	NR in show {
		if (shown && NR != last + 1) print "# ----"
		if (++shown > 400) exit
		print "# " (NR in hitl ? ">> " : "   ") $0
		last = NR
	}
	BEGIN { for (i = 1; i <= n; i++) hitl[h[i]] = 1 }'
