#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check runs its test files by name (the Makefile's CHECK_FILES, in
# the order that lets the lanes run side by side): every *.t under tests/
# must be one of them or inside a directory that is.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
echo "1..1"
files=$(make -s --no-print-directory check-files)
missing=
while read -r t; do
	covered=
	for f in $files; do
		case "$t" in "$f" | "$f"/*) covered=1 ;; esac
	done
	[ -n "$covered" ] || missing="$missing $t"
done < <(find tests -name '*.t' -type f | sort)
if [ -z "$missing" ]; then
	echo "ok 1 - every tests/**/*.t is in make check's CHECK_FILES"
else
	echo "not ok 1 - every tests/**/*.t is in make check's CHECK_FILES (missing:$missing)"
fi
