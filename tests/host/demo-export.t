#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# demo-export.t - how make demo brings its session out of the VM, on a
# canned export (no VM boot): a session directory as mttcontrol writes it
# and its decode are sent with the guest's own export_file
# (tests/guest/lib.sh) into a made-up test channel log; tests/vm/exports.sh
# unpacks them and tests/vm/demo-export.sh decodes the session again on
# the host: the same text as the guest's, a Chrome trace JSON, the HTML
# viewer page, and the absolute path of each said at the end.  A missing export, a decode
# that differs from the guest's and an archive holding anything but
# demo-session/ fail, saying why.  tests/guest/demo.sh and tests/vm/demo.sh
# are checked to send and decode under the names used here.
. "$(dirname "$0")/lib.sh"
need_mttdecode
VM=$TOP/tests/vm

# --- the guest's side ------------------------------------------------------
G=$TMP/guest
S=$G/demo-session
mkdir -p "$S" "$TMP/out"
printf 'mttsession 1\ndevice swstm.0\nformat stp\n' >"$S/mttsession"
# ASYNC, VERSION 3, M8 07, C8 03, D32TS "hell" ts 5, D8M "o", twice
P8="ff ff ff ff ff ff ff ff ff ff 0f 0f 30"
H="$P8 01 37 30 6f c6 c6 56 86 51 8f f6"
bytes "$H $H" >"$S/stream-0000.stp"
printf '# policy\nuser/app 7 7 3 3\n' >"$S/policy.txt"
"$MTTDECODE" "$S" >"$G/demo.txt" 2>"$TMP/err"
tap_is "$?:$(grep -c '"hello"' "$G/demo.txt")" "0:2" \
	"the canned session decodes in the guest's way: 2 messages"
tar -czf "$G/demo-session.tar.gz" -C "$G" demo-session
(
	unset STM_CHANNEL
	STM_TEST=demo.sh
	. "$TOP/tests/guest/lib.sh"
	echo "==> mttcontrol --stop"
	export_file "$G/demo-session.tar.gz" demo-session.tar.gz
	echo "==> between the two"
	export_file "$G/demo.txt" demo.txt
	echo "demo complete"
) >"$TMP/out/ttyS1.log"

# --- the host's side ---------------------------------------------------------
"$VM/exports.sh" "$TMP/out" >"$TMP/exports.tap"
tap_is "$(grep -c '^ok - export demo[a-z.-]* from demo.sh' "$TMP/exports.tap"):$(grep -c '^not ok' "$TMP/exports.tap")" \
	"2:0" "exports.sh unpacks both exports, size and sha256 checked"
# a relative OUTDIR: the paths said are absolute all the same
(cd "$TMP" && "$VM/demo-export.sh" out) >"$TMP/said" 2>&1
tap_is "$?" 0 "demo-export.sh: exit 0"
O=$TMP/out
tap_ok "$(cmp -s "$O/demo-session/stream-0000.stp" "$S/stream-0000.stp"; echo $?)" \
	"the session directory is unpacked in OUTDIR/demo-session"
tap_ok "$(cmp -s "$O/demo.txt" "$G/demo.txt"; echo $?)" \
	"the host's decode of it (OUTDIR/demo.txt) is the guest's"
perl -MJSON::PP -e '
	local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!";
	my $d = JSON::PP::decode_json(<$f>);
	my $n = grep { ($_->{ph} // "") eq "i" && ($_->{name} // "") =~ /hello/ }
		@{$d->{traceEvents}};
	exit($n == 2 ? 0 : 1);' "$O/demo-trace.json"
tap_ok $? "OUTDIR/demo-trace.json is Trace Event JSON with both messages"
grep -q '^{"version":1,.*"records":2,"held":2,' "$O/demo.html"
tap_ok $? "OUTDIR/demo.html is the viewer page holding both messages"
for w in "session directory: $O/demo-session" "decoded trace:     $O/demo.txt" \
	"Chrome trace JSON: $O/demo-trace.json" "https://ui.perfetto.dev" \
	"timeline page:     $O/demo.html"; do
	grep -qF -- "$w" "$TMP/said"
	tap_ok $? "it says \"$w\""
done
sed 's/^/# /' "$TMP/said"

# --- what goes wrong is said -------------------------------------------------
# fails HOW PATTERN: demo-export.sh exits 1 and says PATTERN
fails() {
	"$VM/demo-export.sh" "$O" >"$TMP/said" 2>&1
	r=$?
	grep -q -- "$2" "$TMP/said"
	said=$?
	tap_is "$r:$said" "1:0" "$1: exit 1, said"
	[ "$r:$said" = "1:0" ] || sed 's/^/# /' "$TMP/said"
}
cp "$O/exports/demo.txt" "$TMP/demo.txt.good"
sed 's/hello/hullo/' "$TMP/demo.txt.good" >"$O/exports/demo.txt"
fails "the guest's decode differs from the host's" "differs from the guest's"
cp "$TMP/demo.txt.good" "$O/exports/demo.txt"
mkdir -p "$TMP/other/etc"
echo x >"$TMP/other/etc/passwd"
tar -czf "$O/exports/demo-session.tar.gz" -C "$TMP/other" etc
fails "an archive holding more than demo-session/" "holds more than demo-session/"
rm "$O/exports/demo-session.tar.gz"
fails "no session sent" "the guest sent no session"
tap_ok "$([ ! -e "$O/etc" ]; echo $?)" "... nothing unpacked from the refused archive"

# --- the demo's scripts use these names ---------------------------------------
grep -q '^export_file /tmp/demo-session.tar.gz demo-session.tar.gz ' "$TOP/tests/guest/demo.sh" &&
	grep -q '^export_file /tmp/demo.txt demo.txt ' "$TOP/tests/guest/demo.sh" &&
	grep -q '^S=/tmp/demo-session$' "$TOP/tests/guest/demo.sh"
tap_ok $? "tests/guest/demo.sh exports its session and decode under these names"
grep -q '"$STM_VM/demo-export.sh" "$STM_VM_OUT"' "$VM/demo.sh"
tap_ok $? "tests/vm/demo.sh runs demo-export.sh on the demo's output"
tap_done
