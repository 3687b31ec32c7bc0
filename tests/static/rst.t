#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rst.t - every Documentation/*.rst is valid reStructuredText: docutils
# (Debian: python3-docutils, in install-deps.sh's all set) renders it
# without a warning (a table whose text runs into a column's margin, an
# inline literal never closed, a bad indent all are warnings or errors
# there, and lose text on the page).
cd "$(dirname "$0")/../.." || exit 1
n=0
fail=0
rst=$(command -v rst2html || command -v rst2html.py)
if [ -z "$rst" ]; then
	echo "not ok 1 - rst2html found (install python3-docutils)"
	echo "1..1"
	exit 1
fi
for f in Documentation/*.rst; do
	n=$((n + 1))
	if out=$("$rst" --halt=warning --report=warning "$f" /dev/null 2>&1); then
		echo "ok $n - $f renders without a warning"
	else
		echo "not ok $n - $f renders without a warning"
		printf '%s\n' "$out" | sed 's/^/# /'
		fail=$((fail + 1))
	fi
done
echo "1..$n"
[ "$fail" -eq 0 ]
