#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host check: the host's mttdecode --syst on the SyS-T captures the guest
# exported (tests/guest/t-4*-syst-*.sh), with the policy snapshots taken
# next to them: every message decodes with status OK, console markers
# arrive in order and named "console", the chrome output is valid Trace
# Event JSON, CRCs check, heartbeat.1's CLOCK messages decode.
#
#   syst-decode.sh OUTDIR
set -uo pipefail

out=${1:?usage: syst-decode.sh OUTDIR}
top=$(cd "$(dirname "$0")/../../.." && pwd)
: "${MTTDECODE:=$top/tools/build/mttdecode}"
ex=$out/exports
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

shopt -s nullglob
files=("$ex"/syst-*.stp)
if [ ${#files[@]} -eq 0 ]; then
	echo "ok - SyS-T captures decoded on the host # SKIP no capture"
	exit 0
fi
if ! "$MTTDECODE" --help 2>&1 | grep -q -- '--syst'; then
	echo "ok - SyS-T captures decoded on the host # SKIP $MTTDECODE has no --syst"
	exit 0
fi

check() {
	local d=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		echo "ok - $d"
	else
		echo "not ok - $d"
		sed 's/^/# /' "$tmp/out" | head -n 20
	fi
}

# all_ok JSON: every syst record has status OK and a complete message
all_ok() {
	local n bad
	n=$(grep -c '"kind":"syst"' "$1")
	bad=$(grep '"kind":"syst"' "$1" | grep -v '"status":"OK"' | head -n 3)
	[ "$n" -gt 0 ] && [ -z "$bad" ] || { echo "records=$n"; echo "$bad"; return 1; }
}

for f in "${files[@]}"; do
	name=$(basename "$f" .stp)
	pol=()
	[ -f "$ex/$name.policy" ] && pol=(--policy "$ex/$name.policy")
	"$MTTDECODE" --syst "${pol[@]}" --format json "$f" >"$tmp/$name.json" 2>"$tmp/$name.err"
	check "$name: every SyS-T message decodes with status OK" all_ok "$tmp/$name.json"
	check "$name: no CRC errors" \
		bash -c "! grep '\"kind\":\"syst\"' '$tmp/$name.json' | grep -q '\"crc\":\"bad\"'"
done

c=$tmp/syst-console.json
if [ -f "$c" ]; then
	check "syst-console: 50 markers in order" bash -c \
		"cmp <(grep -o 'syst-console-marker-[0-9]*' '$c') <(seq 1 50 | sed 's/^/syst-console-marker-/')"
	check "syst-console: every message named after the node console" bash -c \
		"[ \"\$(grep -c '\"kind\":\"syst\"' '$c')\" = \"\$(grep -c '\"source\":\"console\"' '$c')\" ]"
	"$MTTDECODE" --syst --policy "$ex/syst-console.policy" --format chrome "$ex/syst-console.stp" \
		>"$tmp/trace.json" 2>/dev/null
	check "syst-console: --format chrome is Trace Event JSON with the markers" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
n = sum(1 for e in ev if "syst-console-marker-" in json.dumps(e))
sys.exit(0 if n >= 50 else "marker events: %d" % n)' "$tmp/trace.json"
fi

h=$tmp/syst-heartbeat.json
# upstream's stm_heartbeat (the 6.12 lane, stm.class=upstream) says more,
# so fewer beats fill the packets the guest waits for
hbtext='"text":"heartbeat"' hbmin=50
if grep -qs 'stm.class=upstream' "$out/qemu.cmd"; then
	hbtext='"text":"heartbeat stm source driver is here to serve you"' hbmin=10
fi
if [ -f "$h" ]; then
	check "syst-heartbeat: heartbeat.0 messages say heartbeat" bash -c \
		"[ \"\$(grep -c '\"source\":\"heartbeat.0\"' '$h')\" -gt $hbmin ] &&
		 ! grep '\"source\":\"heartbeat.0\"' '$h' | grep -vqF '$hbtext'"
	check "syst-heartbeat: heartbeat.1 sends CLOCK messages" bash -c \
		"grep '\"source\":\"heartbeat.1\"' '$h' | grep -q '\"type\":\"CLOCK:SYNC\"'"
fi
exit 0
