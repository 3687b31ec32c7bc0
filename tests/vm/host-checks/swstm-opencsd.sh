#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host check: OpenCSD's decode of the swstm captures the guest exported
# (tests/guest/t-3*-swstm-*.sh) against mttdecode's.
#
#   swstm-opencsd.sh OUTDIR
#
# exports/swstm-ocsd-*.stp: every data packet must agree (master,
# channel, size, value, marker, timestamp; see tests/lib/opencsd.sh), and
# the loss markers (GERR) must sit after the same number of data packets.
# exports/swstm-m16-*.stp use M16, which OpenCSD 1.3.3 rejects as
# reserved and stops at: the packets before that must agree, and
# mttdecode must read the whole capture without a decode error.
set -uo pipefail

out=${1:?usage: swstm-opencsd.sh OUTDIR}
top=$(cd "$(dirname "$0")/../../.." && pwd)
ocsd=$top/tests/lib/opencsd.sh
: "${MTTDECODE:=$top/tools/build/mttdecode}"
export MTTDECODE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

shopt -s nullglob
files=("$out"/exports/swstm-ocsd-*.stp "$out"/exports/swstm-m16-*.stp)
if [ ${#files[@]} -eq 0 ]; then
	echo "ok - swstm captures checked with OpenCSD # SKIP no capture"
	exit 0
fi
if [ ! -x "$MTTDECODE" ]; then
	echo "not ok - mttdecode present ($MTTDECODE)"
	exit 0
fi

# gerr_opencsd FILE: "GERR after N" for each GERR, N = data packets before
gerr_opencsd() {
	sh "$ocsd" --raw "$1" 2>/dev/null | awk '
		/^Idx:/ && /\];\t/ {
			op = $0; sub(/^[^\t]*\t/, "", op); sub(/:.*/, "", op)
			if (op ~ /^D(4|8|16|32|64)/) n++
			else if (op == "GERR") print "GERR after " n + 0
		}'
}

# gerr_mttdecode FILE: the same from mttdecode's packets
gerr_mttdecode() {
	"$MTTDECODE" --format json --packets --no-messages "$1" | awk '
		/"kind":"packet"/ && /"op":"D(4|8|16|32|64)/ { n++ }
		/"kind":"packet"/ && /"op":"GERR"/ { print "GERR after " n + 0 }'
}

for f in "${files[@]}"; do
	name=$(basename "$f")
	if ! sh "$ocsd" "$f" >"$tmp/ocsd" 2>"$tmp/ocsd.err"; then
		echo "not ok - $name: OpenCSD decodes it"
		sed 's/^/# /' "$tmp/ocsd.err"
		continue
	fi
	if ! sh "$ocsd" --mttdecode "$f" >"$tmp/mtt" 2>"$tmp/mtt.err"; then
		echo "not ok - $name: mttdecode decodes it"
		sed 's/^/# /' "$tmp/mtt.err"
		continue
	fi
	n=$(wc -l <"$tmp/ocsd")
	if [ "$n" -eq 0 ]; then
		echo "not ok - $name: OpenCSD finds data packets"
		continue
	fi
	case $name in
	swstm-m16-*)
		head -n "$n" "$tmp/mtt" >"$tmp/mtt.head"
		if diff "$tmp/ocsd" "$tmp/mtt.head" >"$tmp/diff"; then
			echo "ok - $name: OpenCSD and mttdecode agree on the $n data packets before the first M16"
		else
			echo "not ok - $name: OpenCSD and mttdecode agree before the first M16"
			head -n 20 "$tmp/diff" | sed 's/^/# /'
		fi
		if "$MTTDECODE" --format json --packets "$f" | grep -q '"kind":"\(error\|loss\)"'; then
			echo "not ok - $name: mttdecode reads all $(wc -l <"$tmp/mtt") data packets without error"
		else
			echo "ok - $name: mttdecode reads all $(wc -l <"$tmp/mtt") data packets without error"
		fi
		;;
	*)
		if diff "$tmp/ocsd" "$tmp/mtt" >"$tmp/diff"; then
			echo "ok - $name: OpenCSD and mttdecode agree on all $n data packets"
		else
			echo "not ok - $name: OpenCSD and mttdecode agree on every data packet"
			echo "# OpenCSD $n packets, mttdecode $(wc -l <"$tmp/mtt")"
			head -n 20 "$tmp/diff" | sed 's/^/# /'
		fi
		gerr_opencsd "$f" >"$tmp/g.ocsd"
		gerr_mttdecode "$f" >"$tmp/g.mtt"
		if diff "$tmp/g.ocsd" "$tmp/g.mtt" >"$tmp/diff"; then
			echo "ok - $name: loss markers at the same places ($(wc -l <"$tmp/g.ocsd"))"
		else
			echo "not ok - $name: loss markers at the same places"
			head -n 20 "$tmp/diff" | sed 's/^/# /'
		fi
		;;
	esac
done
exit 0
