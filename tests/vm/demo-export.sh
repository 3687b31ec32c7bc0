#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo, on the host once the VM is done (tests/vm/demo.sh): the
# guest sent its session directory and its decoded trace with
# export_file (tests/guest/demo.sh; exports.sh wrote them to
# OUTDIR/exports/demo-session.tar.gz and OUTDIR/exports/demo.txt).  Here
# the session is unpacked and decoded again with the host's mttdecode:
#
#   OUTDIR/demo-session/     the session directory (mttdecode DIR)
#   OUTDIR/demo.txt          mttdecode OUTDIR/demo-session: must be the
#                            guest's decode, byte for byte
#   OUTDIR/demo-trace.json   mttdecode --format=chrome: open it in Perfetto
#   OUTDIR/demo.html         mttdecode --format=html: the project's viewer,
#                            one page to open in a browser (offline)
#
#   demo-export.sh OUTDIR    (MTTDECODE: the decoder [tools/build/mttdecode])
#
# Prints where each is (absolute paths).  Exit 1, saying why, if the
# guest sent nothing, the archive holds anything but demo-session/, the
# host cannot decode it or its decode differs from the guest's.
set -uo pipefail

out=$(cd "${1:?usage: demo-export.sh OUTDIR}" && pwd) || exit 1
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MTTDECODE:=$top/tools/build/mttdecode}"
ex=$out/exports
tgz=$ex/demo-session.tar.gz
s=$out/demo-session
fail() {
	echo "== demo export: $*" >&2
	exit 1
}

[ -f "$tgz" ] || fail "the guest sent no session ($tgz is missing)"
[ -f "$ex/demo.txt" ] || fail "the guest sent no decoded trace ($ex/demo.txt is missing)"
list=$(tar -tzf "$tgz" 2>&1) || fail "$tgz: not a gzip'd tar: $(echo "$list" | head -n 3)"
bad=$(echo "$list" | grep -Ev '^demo-session(/|$)'; echo "$list" | grep -E '(^|/)\.\.(/|$)')
[ -z "$bad" ] || fail "$tgz holds more than demo-session/: $(echo "$bad" | head -n 3 | tr '\n' ' ')"
rm -rf "$s"
err=$(tar -xzf "$tgz" -C "$out" --no-same-owner --no-same-permissions 2>&1) ||
	fail "$tgz: cannot unpack: $err"

"$MTTDECODE" "$s" >"$out/demo.txt" 2>"$out/demo.err" ||
	fail "mttdecode $s: exit $?: $(head -n 3 "$out/demo.err")"
if ! cmp -s "$out/demo.txt" "$ex/demo.txt"; then
	diff -u "$ex/demo.txt" "$out/demo.txt" | head -n 20 | sed 's/^/== /' >&2
	fail "the host's decode ($out/demo.txt) differs from the guest's ($ex/demo.txt)"
fi
"$MTTDECODE" --format=chrome "$s" >"$out/demo-trace.json" 2>"$out/demo.err" ||
	fail "mttdecode --format=chrome $s: exit $?: $(head -n 3 "$out/demo.err")"
"$MTTDECODE" --format=html "$s" >"$out/demo.html" 2>"$out/demo.err" ||
	fail "mttdecode --format=html $s: exit $?: $(head -n 3 "$out/demo.err")"
rm -f "$out/demo.err"

cat <<EOF
== The demo's session, brought out of the VM and decoded again on this host:
==   session directory: $s
==                      (mttdecode $s decodes it, here or anywhere)
==   decoded trace:     $out/demo.txt
==                      ($(wc -l <"$out/demo.txt") lines, the same as the guest's)
==   Chrome trace JSON: $out/demo-trace.json
==                      open it in Perfetto: https://ui.perfetto.dev, "Open trace file"
==   timeline page:     $out/demo.html
==                      open it in a browser (self-contained, works offline)
EOF
