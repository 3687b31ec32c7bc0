#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# syst-ab.sh - two builds of mttdecode timed against each other on one
# input, the way performance.rst's SyS-T over STP rows are measured:
# each round RUNS runs of A and of B interleaved (A B A B ..., B first in
# every other round), each run's CPU time (task-clock) from perf stat;
# a round's figure for each side is the mean of its runs (what
# "perf stat -r RUNS" prints) and its fastest run.  Prints each side's
# MB of input a second of CPU time, median (range) over the rounds, and
# B over A taken round by round.  Figures only, never a verdict.
#
#   syst-ab.sh A B INPUT [ROUNDS [RUNS]] [-- MTTDECODE-ARGS...]
#
# The arguments default to the "SyS-T over STP to text" row's: -j1
# --syst, to /dev/null (add --collateral FILE after --, as bench does;
# bench --write-syst FILE 64 writes the stream).  Run it under nice on a
# shared machine; the load average is printed before and after.
set -e
[ $# -ge 3 ] || { echo "usage: $0 A B INPUT [ROUNDS [RUNS]] [-- ARGS...]" >&2; exit 2; }
A=$1 B=$2 IN=$3
shift 3
R=6 N=5
[ $# -gt 0 ] && [ "$1" != -- ] && { R=$1; shift; }
[ $# -gt 0 ] && [ "$1" != -- ] && { N=$1; shift; }
[ "${1-}" = -- ] && shift
if [ $# -eq 0 ]; then set -- -j1 --syst; fi
command -v perf >/dev/null || { echo "$0: needs perf" >&2; exit 2; }
SZ=$(stat -c %s "$IN")
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

one() {
	perf stat -x, -e task-clock "$1" "${@:2}" "$IN" 2>&1 >/dev/null |
		awk -F, '$3 == "task-clock" { print $1 }'
}

uptime
for r in $(seq 1 "$R"); do
	la= lb=
	for i in $(seq 1 "$N"); do
		if [ $((r % 2)) = 1 ]; then
			la="$la $(one "$A" "$@")"; lb="$lb $(one "$B" "$@")"
		else
			lb="$lb $(one "$B" "$@")"; la="$la $(one "$A" "$@")"
		fi
	done
	echo "A$la B$lb" >>"$LOG"
done
uptime
awk -v sz="$SZ" '
function med(v, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function show(name, a, b, n,   i, r, x, y, lo, hi, rlo, rhi) {
	for (i = 1; i <= n; i++) {
		x[i] = a[i]; y[i] = b[i]; r[i] = b[i] / a[i]
	}
	printf "%-8s A %5.0f MB/s", name, med(x, n)
	printf " (%.0f to %.0f)", x[1], x[n]
	printf "  B %5.0f (%.0f to %.0f)", med(y, n), y[1], y[n]
	printf "  B/A x%.3f (x%.3f to x%.3f)\n", med(r, n), r[1], r[n]
}
{
	n++; sa = 0; sb = 0; ka = 0; kb = 0; fa = 1e18; fb = 1e18; side = ""
	for (i = 1; i <= NF; i++) {
		if ($i == "A" || $i == "B") { side = $i; continue }
		if (side == "A") { sa += $i; ka++; if ($i < fa) fa = $i }
		else { sb += $i; kb++; if ($i < fb) fb = $i }
	}
	ma[n] = sz / 1e3 / (sa / ka); mb[n] = sz / 1e3 / (sb / kb)
	fsa[n] = sz / 1e3 / fa; fsb[n] = sz / 1e3 / fb
}
END {
	show("mean", ma, mb, n)
	show("fastest", fsa, fsb, n)
}' "$LOG"
