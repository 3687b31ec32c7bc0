#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Decode the files guest scripts sent with export_file (base64 between
# "@@stm export NAME SIZE SHA256 SCRIPT" and "@@stm export-end NAME" on
# ttyS1) into OUTDIR/exports/NAME, and print one TAP line per file
# (size and sha256 checked).
#
#   exports.sh OUTDIR        (reads OUTDIR/ttyS1.log)
set -euo pipefail

outdir=$1
log=$outdir/ttyS1.log
exp=$outdir/exports
rm -rf "$exp"
mkdir -p "$exp"
[ -f "$log" ] || exit 0

# the boots the guest asked to restart from (tests/vm/suite.sh) export too
logs=
if [ -f "$outdir/restarted-logs" ]; then
	for f in $(sed -n 's/^console-\(boot[0-9]*\)\.log$/ttyS1-\1.log/p' "$outdir/restarted-logs"); do
		[ ! -f "$outdir/$f" ] || logs="$logs $outdir/$f"
	done
fi

# Split the bodies out: NAME.b64 plus NAME.meta ("SIZE SHA SCRIPT" and,
# once complete, a line "end").
# shellcheck disable=SC2086
cat $logs "$log" | tr -d '\r' | awk -v dir="$exp" '
	/^@@stm export / {
		name = $3
		if (name !~ /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/) { name = ""; bad = bad " " $3; next }
		body = dir "/" name ".b64"; meta = dir "/" name ".meta"
		printf "" > body
		print $4, $5, $6 > meta
		next
	}
	/^@@stm export-end / { if (name != "") { print "end" > meta; close(meta); close(body) } name = ""; next }
	/^@@/ { name = ""; next }
	name != "" && NF { print > body }
	END { if (bad != "") print "bad names:" bad > (dir "/.bad-names") }'

if [ -f "$exp/.bad-names" ]; then
	echo "not ok - export: $(cat "$exp/.bad-names")"
	rm -f "$exp/.bad-names"
fi
for meta in "$exp"/*.meta; do
	[ -e "$meta" ] || continue
	name=$(basename "$meta" .meta)
	read -r size sum script <"$meta"
	desc="export $name from $script"
	if ! grep -qx end "$meta"; then
		echo "not ok - $desc: truncated (no end marker)"
	elif ! base64 -d <"$exp/$name.b64" >"$exp/$name" 2>/dev/null; then
		echo "not ok - $desc: bad base64"
	elif [ "$(stat -c %s "$exp/$name")" != "$size" ]; then
		echo "not ok - $desc: $(stat -c %s "$exp/$name") bytes, expected $size"
	elif [ "$(sha256sum <"$exp/$name" | cut -d' ' -f1)" != "$sum" ]; then
		echo "not ok - $desc: sha256 mismatch"
	else
		echo "ok - $desc ($size bytes)"
		echo "# $exp/$name"
	fi
	rm -f "$meta" "$exp/$name.b64"
done
