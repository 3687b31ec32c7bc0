#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mttcontrol.t - mttcontrol on the host (no STM device needed): the
# command line and exit codes, the configuration parser (every kind of
# bad file gives exit 1 and "file:line: what"), --dry-run touching
# nothing, --stop/--view without a session, --status --json, and the
# session directory format: "mttdecode DIR" decodes a session exactly as
# its stream files with the session's policy, a RISC-V one (format riscv)
# with its widths.  mttcontrol and mttdecode
# are built with ASan and UBSan here.
. "$(dirname "$0")/lib.sh"
need_mttdecode
asan_mttdecode
asan_mttcontrol

# --- command line -------------------------------------------------------
"$C" --help >"$TMP/help" 2>&1
tap_ok $? "--help exits 0"
for w in --status --setup --teardown --dry-run --start --stop --view --live \
	--json --rotate-size --output "Exit status"; do
	grep -q -- "$w" "$TMP/help" || echo "$w" >>"$TMP/help.missing"
done
tap_is "$(cat "$TMP/help.missing" 2>/dev/null)" "" "--help describes every command and option"
tap_is "$("$C" --version)" "mttcontrol 0.1.0" "--version"
usage() { # usage DESC ARGS...: exit 2 and a hint to --help
	d=$1
	shift
	"$C" "$@" >"$TMP/out" 2>&1
	rc=$?
	tap_is "$rc:$(grep -c "Try 'mttcontrol --help'" "$TMP/out")" "2:1" "usage error, exit 2: $d"
}
usage "no command"
usage "two commands" --status --stop
usage "unknown option" --bogus
usage "--rotate-size below 4096" --start -r 100
usage "--live without --start" --status --live
usage "--dry-run with --status" --status -n
usage "an argument --stop does not take" --stop foo

# --- configuration files --------------------------------------------------
G=$TOP/configfs-examples/mttcontrol.conf
tap_is "$("$C" --check "$G" 2>&1; echo "rc=$?")" "$G: ok
rc=0" "the example configuration is valid"

bad syntax 3 'syntax error' <<'X'
device = "swstm.0";
policy = {
	name = = "a";
	nodes = ();
};
X
bad unknown-top 2 'unknown key "colour"' <<'X'
device = "swstm.0";
colour = "blue";
X
bad unknown-node 4 'unknown key "master" in a policy node' <<'X'
device = "swstm.0";
policy = { name = "p";
	nodes = (
		{ path = "a"; master = [1, 1]; } );
};
X
bad no-device 1 '"device" missing' <<'X'
policy = { name = "p"; };
X
bad range-order 3 'masters: first 5 above last 4' <<'X'
device = "swstm.0";
policy = { name = "p"; nodes = (
	{ path = "a"; masters = [5, 4]; } ); };
X
bad range-big 3 'channels: 70000 outside 0..65535' <<'X'
device = "swstm.0";
policy = { name = "p"; nodes = (
	{ path = "a"; channels = [0, 70000]; } ); };
X
bad range-type 3 'masters: must be \[first, last\]' <<'X'
device = "swstm.0";
policy = { name = "p"; nodes = (
	{ path = "a"; masters = "1 2"; } ); };
X
bad parent 3 'node "a/b": its parent "a" must be listed before it' <<'X'
device = "swstm.0";
policy = { name = "p"; nodes = (
	{ path = "a/b"; }, { path = "a"; } ); };
X
bad twice 4 'node "a" defined twice \(first at line 3\)' <<'X'
device = "swstm.0";
policy = { name = "p"; nodes = (
	{ path = "a"; },
	{ path = "a"; } ); };
X
bad dotdot 3 'node "a/\.\.": "\." and "\.\." are not node names' <<'X'
device = "swstm.0";
policy = { name = "p"; nodes = ( { path = "a"; },
	{ path = "a/.."; } ); };
X
bad basic-attr 3 'node "a": protocol p_basic has no attribute "do_len"' <<'X'
device = "swstm.0";
policy = { name = "p"; nodes = ( { path = "a";
	attrs = { do_len = true; }; } ); };
X
bad syst-attr 3 'node "a": protocol p_sys-t has no attribute "colour"' <<'X'
device = "swstm.0";
policy = { name = "p"; protocol = "p_sys-t"; nodes = ( { path = "a";
	attrs = { colour = 1; }; } ); };
X
bad sources 2 'sources need a policy' <<'X'
device = "swstm.0";
sources = [ "console" ];
X
bad timeout 2 'timeout: 0 outside 1..3600' <<'X'
device = "swstm.0";
timeout = 0;
X
bad rotate 2 'rotate_size: 0 \(no rotation\) or at least 4096' <<'X'
device = "swstm.0";
session = { rotate_size = 100; };
X
bad mtt-filter 2 'mtt filter: 4294967296 outside 0..4294967295' <<'X'
device = "swstm.0";
mtt = { filter = 0x100000000L; };
X
bad module-path 2 'modules: "/x/swstm": a path must name a .ko file' <<'X'
device = "swstm.0";
modules = ( "/x/swstm" );
X
bad sink-type 2 'overwrite: must be true or false' <<'X'
device = "swstm.0";
sink = { overwrite = 1; };
X
"$C" --check "$TMP/none.conf" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttcontrol: $TMP/none.conf: No such file or directory" \
	"a missing file: exit 1, named"

# --- setup without the system it describes --------------------------------
cat >"$TMP/nodev.conf" <<'X'
device = "mttcontrol-test-nodev.0";
policy = { name = "p"; };
X
"$C" --setup --dry-run "$TMP/nodev.conf" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttcontrol: $TMP/nodev.conf:1: device \"mttcontrol-test-nodev.0\": no such STM device (load its driver, or list it in modules)" \
	"a device that does not exist: exit 1, named with file:line"
cat >"$TMP/mtt.conf" <<'X'
device = "mttcontrol-test-nodev.0";
modules = ( "swstm" );

mtt = { components = ( { name = "c"; filter = 0; } ); };
X
"$C" --setup --dry-run "$TMP/mtt.conf" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttcontrol: $TMP/mtt.conf:4: mtt: $TMP/no-mtt does not exist: MTT components need the mtt module (load it, or list it in modules)" \
	"an mtt section without MTT: exit 1, named with file:line"
cat >"$TMP/dry.conf" <<'X'
device = "mttcontrol-test-nodev.0";
modules = ( "mttcontrol-test-nomod p=1", "/nowhere/x.ko" );
policy = { name = "p"; protocol = "p_sys-t"; nodes = (
	{ path = "a"; masters = 3; channels = [0, 7];
	  attrs = { do_len = true; uuid = "8f0d8b4a-0000-4000-8000-000000000001"; }; } ); };
X
"$C" --setup --dry-run "$TMP/dry.conf" >"$TMP/out" 2>&1
rc=$?
P=$TMP/stp-policy/mttcontrol-test-nodev.0:p_sys-t.p
tap_is "$rc:$(cat "$TMP/out")" "0:modprobe mttcontrol-test-nomod p=1
insmod /nowhere/x.ko
# wait up to 10 s for device mttcontrol-test-nodev.0
mkdir $P
mkdir $P/a
echo '3 3' > $P/a/masters
echo '0 7' > $P/a/channels
echo '1' > $P/a/do_len
echo '8f0d8b4a-0000-4000-8000-000000000001' > $P/a/uuid" "--setup --dry-run prints the operations"
tap_is "$(find "$TMP/stp-policy" | wc -l | tr -d ' ')" 1 "--dry-run touched nothing"

# pinning an MTT component: node mtt/<comp>, source mtt/<comp> (mtt!<comp>)
cat >"$TMP/pin.conf" <<'X'
device = "mttcontrol-test-nodev.0";
modules = ( "mttcontrol-test-nomod" );
policy = { name = "p"; nodes = (
	{ path = "mtt"; masters = 2; channels = [0, 63]; },
	{ path = "mtt/c"; masters = 3; channels = 7; } ); };
sources = [ "mtt", "mtt/c" ];
X
"$C" --setup --dry-run "$TMP/pin.conf" >"$TMP/out" 2>&1
tap_is "$?:$(grep -c 'stm_source/mtt!c/stm_source_link' "$TMP/out"):$(grep -c '^mkdir .*/mtt/c$' "$TMP/out")" "0:1:1" \
	"a component's own source mtt/c: node mtt/c made, mtt!c linked"

# MTT filters against a stand-in /sys/kernel/mtt: only what differs
mkdir -p "$TMP/mtt/components/a" "$TMP/mtt/components/b"
echo 0xffffffff >"$TMP/mtt/filter"
echo 0x20000000 >"$TMP/mtt/components/a/filter"
echo ffffffff >"$TMP/mtt/components/b/filter"
cat >"$TMP/mttf.conf" <<'X'
device = "mttcontrol-test-nodev.0";
modules = ( "mttcontrol-test-nomod" );
mtt = { filter = 0xffffffff;
	components = ( { name = "a"; filter = 0x20000000; },
		       { name = "b"; filter = 0xf0000000; } ); };
X
MTTCONTROL_MTT_ROOT=$TMP/mtt "$C" --setup --dry-run "$TMP/mttf.conf" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "0:modprobe mttcontrol-test-nomod
# wait up to 10 s for device mttcontrol-test-nodev.0
echo '0xf0000000' > $TMP/mtt/components/b/filter" \
	"MTT filters: --dry-run writes only the component filter that differs"

# --- sessions without a device --------------------------------------------
"$C" --stop >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttcontrol: no session is running" "--stop without a session: exit 1"
"$C" --view >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttcontrol: no session is running (decode a finished one with: mttdecode DIR)" \
	"--view without a session: exit 1"
"$C" --status --json >"$TMP/status.json" 2>"$TMP/err"
tap_ok $? "--status --json exits 0"
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
	exit !(ref $j->{devices} eq "ARRAY" && ref $j->{policies} eq "ARRAY" &&
	       ref $j->{sources} eq "ARRAY" && exists $j->{session})' \
	<"$TMP/status.json" 2>"$TMP/err"
tap_ok $? "--status --json is one JSON object with devices, policies, sources, session"

# --- the session directory --------------------------------------------------
P8="ff ff ff ff ff ff ff ff ff ff 0f 0f 30"
S=$TMP/session
mkdir "$S"
printf 'mttsession 1\ndevice swstm.0\n' >"$S/mttsession"
# the stream: M8 07, C8 03, D32TS "hell" ts 5, D8M "o", twice; rotated
# files are that stream cut anywhere (here inside packets)
H="$P8 01 37 30 6f c6 c6 56 86 51 8f f6"
bytes "$H $H" >"$TMP/whole.stp"
head -c 17 "$TMP/whole.stp" >"$S/stream-0000.stp"
tail -c +18 "$TMP/whole.stp" | head -c 12 >"$S/stream-0001.stp"
tail -c +30 "$TMP/whole.stp" >"$S/stream-0002.stp"
printf '# policy\nuser 7 7 3 3\napp 7 7 4 4\n' >"$S/policy.txt"
"$M" "$S" >"$TMP/dir.txt" 2>&1
rc=$?
"$MTTDECODE" --policy "$S/policy.txt" "$TMP/whole.stp" >"$TMP/files.txt" 2>&1
tap_is "$rc:$(cat "$TMP/dir.txt")" "0:$(cat "$TMP/files.txt")" \
	"mttdecode DIR: its stream files in order, as one stream, with its policy"
tap_is "$(grep -c '"hello"' "$TMP/dir.txt")" 2 "... both messages"
echo "user 7 x" >"$S/policy.txt"
"$M" "$S" >"$TMP/out" 2>&1
r=$?
grep -q "policy.txt" "$TMP/out"
tap_is "$r:$?" "1:0" "... with the session's policy.txt (a bad one is refused, named)"
printf '# policy\nuser 7 7 3 3\n' >"$S/policy.txt"
tap_is "$("$M" --format json "$S" | grep -c '"kind":"msg"')" 2 "mttdecode --format json DIR: both messages"
# a RISC-V session (swstm format riscv): mttsession says the format and
# widths, "mttdecode DIR" decodes it as riscv-encap with them.  srcID 8
# bits, no timestamp: sync = 32 x 00, 80; DATA marked+ts, master 0
# channel 5, "hi!\n" (as in riscv-cli.t); cut inside the second message
R=$TMP/rvsession
mkdir "$R"
printf 'mttsession 1\ndevice swstm.0\nformat riscv\nsrcid_bits 8\nts_bytes 0\n' \
	>"$R/mttsession"
RV="$(i=0; while [ $i -lt 32 ]; do printf '00 '; i=$((i + 1)); done)80 05 05 18 68 69 21 0a"
bytes "$RV 05 05 18 68 69 21 0a" >"$TMP/rv.bin"
head -c 36 "$TMP/rv.bin" >"$R/stream-0000.stp"
tail -c +37 "$TMP/rv.bin" >"$R/stream-0001.stp"
"$M" "$R" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "0:-- sync at offset 0
              0 m0 c5     4  \"hi!\\n\"
              0 m0 c5     4  \"hi!\\n\"" \
	"mttdecode DIR of a format riscv session: riscv-encap with its srcid_bits and ts_bytes"
"$M" --input=stp "$R" >/dev/null 2>&1
tap_is "$?" 3 "... unless the input is named (--input=stp: nothing synchronised, exit 3)"
"$M" "$R" "$S" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttdecode: $S: its stream is STPv2, another session's riscv-encap 8 0: decode them one at a time, or name the input (--input)" \
	"sessions of different formats at once: refused, said"
echo "format ascii" >>"$R/mttsession"
"$M" "$R" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttdecode: $R/mttsession: bad line \"format ascii\" (format stp|riscv, srcid_bits 0..16, ts_bytes 0..8)" \
	"an unknown format in mttsession: exit 1, said"
mkdir "$TMP/plain"
"$M" "$TMP/plain" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttdecode: $TMP/plain: a directory, and not a mttcontrol session (no mttsession file)" \
	"a directory that is no session: exit 1, said"
tap_done
