#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mttcontrol-serial.t - serial targets in a session, over pty pairs
# (tests/host/src/ptywriter.py): five targets send streams written from
# the specifications (tests/host/src/sergen.c: MTT frames with one
# damaged run, RISC-V encapsulation through tests/host/enc/rvenc.c,
# SyS-T through tests/host/enc/systenc.c, MiniProfiler responses with a
# damaged CRC, MTT frames inside RISC-V encapsulation on srcID 1 with a
# damaged run and other packets on srcID 2: srcid_proto, and mtt_start's
# START command frame);
# mttcontrol --start records them (serial targets only: no STM device),
# --status lists each with its bytes, one port vanishes (a hangup) and
# is reported while the others go on, --stop summarises each with exact
# bytes, records, errors and losses; every capture is byte-identical to
# what was sent, its read times and metadata are as documented.  Then
# the clock exchanges with scripted devices that answer TIME_SYNC, or
# NACK it (tests/host/src/syncdev.py): the requests recorded, the
# replies in the captures, --stop's "clock:".  Then the configuration
# errors of the "targets" list and a port that cannot be opened.  mttcontrol runs under ASan + UBSan.  No timing is
# asserted: the waits are for exact byte counts, with hang guards.
. "$(dirname "$0")/lib.sh"
asan_mttcontrol

# --- the streams: 40 MTT frames (24 bytes) and 5 bad bytes; 30 RISC-V
# packets (10 bytes) after a 37-byte synchronisation; 10 MTT frames; 12
# SyS-T messages (10 bytes); 4 MiniProfiler responses (132 bytes); in
# RISC-V encapsulation after its sync, 20 MTT frames (two 18-byte
# packets each), an 11-byte packet of damage, 5 10-byte packets on srcID
# 2 and a second sync
stream_gen sergen "$TMP/a.bin" mtt 40 5
stream_gen sergen "$TMP/b.bin" rv 30
stream_gen sergen "$TMP/c.bin" mtt 10 0
stream_gen sergen "$TMP/d.bin" syst 12
stream_gen sergen "$TMP/e.bin" mprof
stream_gen sergen "$TMP/f.bin" rvmtt 20
sizes=
for t in a b c d e f; do
	sizes="$sizes $(wc -c <"$TMP/$t.bin" | tr -d ' ')"
done
tap_is "$sizes" " 965 337 240 120 132 855" "the streams sent: 965, 337, 240, 120, 132 and 855 bytes"

pids=
for t in a b c d e f; do
	close=-
	[ $t = c ] && close=$TMP/close.c
	python3 "$TOP/tests/host/src/ptywriter.py" "$TMP/$t.pty" "$TMP/$t.bin" \
		"$TMP/go" "$close" "$TMP/$t.recv" &
	pids="$pids $!"
	wait_pty "$TMP/$t.pty" $!
done
trap 'kill $pids 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM
PA=$(cat "$TMP/a.pty")
PB=$(cat "$TMP/b.pty")
PC=$(cat "$TMP/c.pty")
PD=$(cat "$TMP/d.pty")
PE=$(cat "$TMP/e.pty")
PF=$(cat "$TMP/f.pty")

cat >"$TMP/s.conf" <<X
targets = (
	{ name = "mcu"; port = "$PA"; protocol = "mtt"; },
	{ name = "rv"; port = "$PB"; baud = 921600; protocol = "riscv-encap";
	  srcid_bits = 8; ts_bytes = 4; unframed = true; paced = true; },
	{ name = "gone"; port = "$PC"; baud = 9600; protocol = "mtt"; },
	{ name = "log"; port = "$PD"; protocol = "syst"; },
	{ name = "prof"; port = "$PE"; protocol = "mprof"; },
	{ name = "rvm"; port = "$PF"; protocol = "riscv-encap"; srcid_bits = 8;
	  ts_bytes = 4; unframed = true; srcid_proto = [ "*:mtt", "2:raw" ];
	  mtt_start = true; }
);
X
"$C" --check "$TMP/s.conf" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "0:$TMP/s.conf: ok" "a file of serial targets only is valid"

S=$TMP/session
"$C" --start -c "$TMP/s.conf" -o "$S" >"$TMP/out" 2>&1
rc=$?
tap_is "$rc:$(sed 's/collector pid [0-9]*/collector pid N/' "$TMP/out")" "0:session started: $S (serial targets only, collector pid N)
target mcu: mtt, $PA at 115200 baud
target rv: riscv-encap, $PB at 921600 baud
target gone: mtt, $PC at 9600 baud
target log: syst, $PD at 115200 baud
target prof: mprof, $PE at 115200 baud
target rvm: riscv-encap, $PF at 115200 baud" "--start: the session and each target's port"
[ $rc = 0 ] || bail "--start failed"
touch "$TMP/go"

# status_until REGEX: --status until a line matches (exact counts; the
# 60 s only guard against a hang)
status_until() {
	i=0
	while [ $i -lt 600 ]; do
		"$C" --status >"$TMP/status" 2>&1
		grep -qE "$1" "$TMP/status" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	sed 's/^/# /' "$TMP/status"
	return 1
}
status_until "target gone: mtt on $PC at 9600 baud: 240 bytes\$" &&
	status_until "target mcu: mtt on $PA at 115200 baud: 965 bytes\$" &&
	status_until "target rv: riscv-encap on $PB at 921600 baud: 337 bytes\$" &&
	status_until "target log: syst on $PD at 115200 baud: 120 bytes\$" &&
	status_until "target prof: mprof on $PE at 115200 baud: 132 bytes\$" &&
	status_until "target rvm: riscv-encap on $PF at 115200 baud: 855 bytes\$"
tap_ok $? "--status: each target, its port, protocol, baud and every byte sent"
"$C" --status --json >"$TMP/status.json"
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
	my @t = @{$j->{session}{targets}};
	print join(" ", map { "$_->{name}:$_->{protocol}:$_->{bytes}" } @t)' \
	<"$TMP/status.json" >"$TMP/out" 2>&1
tap_is "$(cat "$TMP/out")" "mcu:mtt:965 rv:riscv-encap:337 gone:mtt:240 log:syst:120 prof:mprof:132 rvm:riscv-encap:855" \
	"--status --json: session.targets"

touch "$TMP/close.c"
status_until "target gone: .*: 240 bytes \\(port vanished: "
tap_ok $? "a port that vanishes (hangup): --status says so"
# the others still record after it: a second look finds them running
"$C" --status >"$TMP/status" 2>&1
tap_is "$(grep -c 'port vanished' "$TMP/status")" 1 "... the other targets go on"
# the collector's fds: the five ports left, and per target its capture
# and read times; nothing else of the session's
cpid=$(head -n 1 "$MTTCONTROL_RUNDIR/session")
fds=$(ls -l "/proc/$cpid/fd" 2>/dev/null | sed -n 's/.* -> //p')
tap_is "$(printf '%s\n' "$fds" | grep -c '^/dev/pts/'):$(printf '%s\n' "$fds" | grep -c "^$S/targets/[a-z]*/capture"):$(printf '%s\n' "$fds" | grep -c "^$S/targets/[a-z]*/reads\$")" \
	"5:6:6" "the collector holds the 5 ports left, 6 captures, 6 read-time files"

"$C" --stop >"$TMP/out" 2>&1
rc=$?
sed 's/(Input\/output error)/(hung up)/' "$TMP/out" >"$TMP/stop"
tap_is "$rc:$(cat "$TMP/stop")" "0:session stopped: $S
target mcu (mtt on $PA): captured 965 bytes: 40 records, 1 error (5 bytes skipped), 0 losses; clock: one-way (no TIME_SYNC reply)
target rv (riscv-encap on $PB): captured 337 bytes: 30 records, 0 errors (0 bytes skipped), 0 losses
target gone (mtt on $PC): captured 240 bytes: 10 records, 0 errors (0 bytes skipped), 0 losses; clock: one-way (no TIME_SYNC reply)
target gone: its port $PC vanished during the session (hung up): what came before is kept
target log (syst on $PD): captured 120 bytes: 12 records, 0 errors (0 bytes skipped), 0 losses
target prof (mprof on $PE): captured 132 bytes: 3 records, 2 errors (37 bytes skipped), 3 losses, 2 profile records; clock: one-way (no TIME_SYNC reply)
target rvm (riscv-encap on $PF): captured 855 bytes: 25 records, 1 error (5 bytes skipped), 0 losses; clock: one-way (no TIME_SYNC reply)" \
	"--stop: each target's bytes, records, errors and losses, the vanished port"

# the CRC error, then the bytes from two after its header to the next
# response skipped (miniprofiler.rst): 2 errors, 37 bytes; the last
# STATUS's overflow count is the losses; rvm's records: srcID 1's 20
# MTT frames (not its 41 packets) and srcID 2's 5 packets, its error the
# damaged run in srcID 1's frames (a second sync is no loss)
for t in mcu:a rv:b gone:c log:d prof:e rvm:f; do
	f=capture.bin
	[ "${t%%:*}" = prof ] && f=capture.mprof
	cmp -s "$S/targets/${t%%:*}/$f" "$TMP/${t#*:}.bin"
	tap_ok $? "target ${t%%:*}: the capture is byte-identical to what was sent"
done

# reads: "MTTREAD1", t0, then (offset, t_ns) ULEB128 differences
for t in mcu:965 rv:337 gone:240 log:120 prof:132 rvm:855; do
	python3 - "$S/targets/${t%%:*}/reads" "${t#*:}" >"$TMP/out" 2>&1 <<'X'
import sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"MTTREAD1", "magic"
i, off, t, n, last = 16, 0, int.from_bytes(b[8:16], "little"), 0, 0


def uleb():
    global i
    v, s = 0, 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << s
        s += 7
        if not c & 0x80:
            return v


while i < len(b):
    d = uleb()
    assert d > 0, "offsets grow"
    off += d
    t += uleb()
    n += 1
print(off == int(sys.argv[2]) and n >= 1 and t > 0)
X
	tap_is "$(cat "$TMP/out")" True "target ${t%%:*}: reads: pairs up to every byte, offsets growing"
done
tap_is "$(grep -v '^#' "$S/targets/rv/target")" "target 1
name rv
protocol riscv-encap
port $PB
baud 921600
paced 1
srcid_bits 8
ts_bytes 4
unframed 1
capture capture.bin
reads reads
decode mttdecode --input=riscv-encap --srcid-bits=8 --ts-bytes=4 --unframed capture.bin" \
	"targets/rv/target: protocol, port, widths, baud, paced, files, the decode command"
tap_is "$(grep -e '^srcid_proto' -e '^decode' "$S/targets/rvm/target")" \
"srcid_proto *:mtt 2:raw
decode mttdecode --input=riscv-encap --srcid-bits=8 --ts-bytes=4 --unframed --srcid-proto=*:mtt --srcid-proto=2:raw capture.bin" \
	"targets/rvm/target: srcid_proto, in order, and in the decode command"
(cd "$S/targets/rvm" && eval "\"\$SAN/\"$(sed -n 's/^decode //p' target)") >"$TMP/out" 2>&1
tap_is "$?:$(grep -c '^ *[0-9-]* src1 MTT - comp:0x00000007 10[0-1][0-9] cpu 3$' "$TMP/out"):$(grep -c ' srcid=2 ' "$TMP/out")" \
	"0:20:5" "its decode command: srcID 1's 20 MTT frames, srcID 2's 5 packets"
tap_is "$(grep -c '^target ' "$S/mttsession"):$(grep '^device ' "$S/mttsession")" \
	"6:device none" "mttsession names the targets, and no device"
(cd "$S/targets/mcu" && "$SAN/mttdecode" --input=mtt capture.bin) >"$TMP/out" 2>&1
tap_is "$?:$(grep -c 'MTT - comp:0x00000007 10[0-3][0-9] cpu 3$' "$TMP/out"):$(grep '^!!' "$TMP/out")" \
	"0:40:!! loss: MTT framing lost at offset 480, 5 bytes skipped" \
	"mttdecode --input=mtt decodes the MTT target's capture: 40 frames, the damage"

# what the MiniProfiler device was sent: GET_METADATA and START at the
# start, the clock exchanges' start burst of 8 TIME_SYNC (none
# answered: no more), STOP and GET_STATUS at the end (miniprofiler.rst:
# 55, the command, 9 zero bytes, the sum; TIME_SYNC: 55 07 04, seq LE,
# 5 zero bytes, the sum); the mtt target the same 8 as MTT command
# frames (mtt.rst: target 0xff, TIME_SYNC, any component, seq), and so
# the riscv-encap target with mtt srcIDs after its START; the other
# targets nothing
cmd() { bytes "55 $1 00 00 00 00 00 00 00 00 00 $2"; }
sync() { bytes "55 07 04 0$1 00 00 00 00 00 00 00 $(printf %02x $((0x60 + $1)))"; }
msync() { bytes "ff 10 e0 ee 00 00 00 07 ff ff ff ff 0$1 00 00 00 00 00 00 00"; }
# sent_is RECV WANT NAME: what a target's other end received, once it
# has WANT's size (the 60 s only a hang guard), is WANT
sent_is() {
	n=$(wc -c <"$2" | tr -d ' ')
	i=0
	while [ "$(wc -c <"$1" 2>/dev/null | tr -d ' ')" != "$n" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	cmp -s "$1" "$2"
	tap_ok $? "$3"
}
{ cmd 05 5a; cmd 01 56; for i in 0 1 2 3 4 5 6 7; do sync $i; done
  cmd 02 57; cmd 03 58; } >"$TMP/cmds"
sent_is "$TMP/e.recv" "$TMP/cmds" \
	"the MiniProfiler target was sent GET_METADATA, START, 8 TIME_SYNC, then STOP, GET_STATUS"
for i in 0 1 2 3 4 5 6 7; do msync $i; done >"$TMP/msyncs"
sent_is "$TMP/a.recv" "$TMP/msyncs" "the mtt target was sent 8 MTT TIME_SYNC command frames"
# mtt_start: one START command frame to any target (Documentation/
# mtt.rst, "Commands and replies": word 0 sync, version 1.0, target
# 0xff; word 1 START; component, sequence and type_info 0)
bytes "ff 10 e0 ee 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00" >"$TMP/start"
cat "$TMP/start" "$TMP/msyncs" >"$TMP/fsent"
sent_is "$TMP/f.recv" "$TMP/fsent" \
	"the riscv-encap target with mtt_start and mtt srcIDs was sent one MTT START command frame, then 8 MTT TIME_SYNC"
tap_is "$(cat "$TMP/b.recv" "$TMP/d.recv" 2>/dev/null | wc -c | tr -d ' ')" 0 \
	"... and the other targets nothing"

# the MiniProfiler target's directory is an mttprofile session
"$SAN/mttdecode" "$S/targets/prof" >"$TMP/out" 2>"$TMP/err"
tap_is "$?:$(grep '^# 2 calls' "$TMP/out"):$(grep -c '^!!' "$TMP/out")" \
	"0:# 2 calls of 2 functions over 2500 us:2" \
	"mttdecode targets/NAME of a MiniProfiler target: its profile report"

# the whole session merged (mttdecode.rst, "Merged sessions"): every
# target's records (the frames without a time of their own at their read
# times); fits from read times only: one-sided where records have times,
# empty where none has
"$SAN/mttdecode" --format=csv --stats "$S" >"$TMP/out" 2>"$TMP/err"
tap_is "$?:$(tail -n +2 "$TMP/out" | cut -d, -f2,6 | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
	"0: 10 gone,value; 12 log,msg; 1 mcu,loss; 40 mcu,value; 2 prof,loss; 2 prof,slice; 30 rv,msg; 1 rvm,loss; 5 rvm,msg; 20 rvm,value;" \
	"mttdecode SESSION merges every target's records"
tap_is "$(sed -n 's/^merge: \([a-z]*\): fit \([a-z-]*\) .*/\1 \2/p' "$TMP/err" | tr '\n' ';')" \
	"mcu empty;rv one-sided;gone empty;log empty;prof one-sided;rvm one-sided;" \
	"... and its summary: each target's fit"

# --- clock exchanges ----------------------------------------------------------
# devices that answer (tests/host/src/syncdev.py, from the protocol
# texts): a MiniProfiler and an MTT target that answer TIME_SYNC, a
# MiniProfiler that predates it (NACK); no periodic exchanges
# (sync_interval_ms = 0): the start burst of 8 and the final one of 8
# for those that answer, one request for the one that NACKs; and a
# riscv-encap device that takes MTT commands and answers in RISC-V trace
# encapsulation (its srcID 1, the reply cut into packets with a srcID 2
# packet among them; syncdev.py, from the spec).  Each waits up to 60 s
# for a reply (sync_wait_ms; 200 ms by default): these devices always
# answer, and on a loaded machine a reply came after 200 ms, so a
# request went unanswered in time and its reply missed the capture
kill $pids 2>/dev/null
pids=
for t in p2:mprof pn:mprof-nack m2:mtt r2:rv; do
	python3 "$TOP/tests/host/src/syncdev.py" "${t#*:}" "$TMP/${t%%:*}.pty" \
		"$TMP/${t%%:*}.recv" &
	pids="$pids $!"
	wait_pty "$TMP/${t%%:*}.pty" $!
done
cat >"$TMP/x.conf" <<X
targets = (
	{ name = "p2"; port = "$(cat "$TMP/p2.pty")"; protocol = "mprof";
	  sync_interval_ms = 0; sync_wait_ms = 60000; },
	{ name = "pn"; port = "$(cat "$TMP/pn.pty")"; protocol = "mprof";
	  sync_interval_ms = 0; sync_wait_ms = 60000; },
	{ name = "m2"; port = "$(cat "$TMP/m2.pty")"; protocol = "mtt";
	  sync_interval_ms = 0; sync_wait_ms = 60000; },
	{ name = "r2"; port = "$(cat "$TMP/r2.pty")"; protocol = "riscv-encap";
	  srcid_bits = 8; ts_bytes = 4; unframed = true;
	  srcid_proto = [ "*:raw", "1:mtt" ]; sync_interval_ms = 0;
	  sync_wait_ms = 60000; }
);
X
X=$TMP/xsession
"$C" --start -c "$TMP/x.conf" -o "$X" >"$TMP/out" 2>&1
tap_is "$?" 0 "--start with four devices that answer commands"
# requests_n FILE: its records (after the 8-byte magic)
requests_n() { echo $((($(wc -c <"$1" | tr -d ' ') - 8) / 12)); }
i=0
while { [ "$(requests_n "$X/targets/p2/requests")" != 8 ] ||
	[ "$(requests_n "$X/targets/m2/requests")" != 8 ] ||
	[ "$(requests_n "$X/targets/r2/requests")" != 8 ]; } && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
"$C" --stop >"$TMP/out" 2>&1
tap_is "$?:$(grep -o '; clock: .*' "$TMP/out" | tr '\n' '|')" \
	"0:; clock: two-way|; clock: one-way (device NACKed TIME_SYNC)|; clock: two-way|; clock: two-way|" \
	"--stop: two-way for the devices that answer (the riscv-encap one too), one-way for the one that NACKs"
# requests: "MTTSYNC1", then { seq u32 LE, t1 u64 LE }: seqs from 0 in
# order, t1 not decreasing
for t in p2:16 pn:1 m2:16 r2:16; do
	python3 - "$X/targets/${t%%:*}/requests" >"$TMP/out" 2>&1 <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"MTTSYNC1", "magic"
r = [struct.unpack_from("<IQ", b, 8 + 12 * i) for i in range((len(b) - 8) // 12)]
assert (len(b) - 8) % 12 == 0, "whole records"
assert [s for s, _ in r] == list(range(len(r))), "seqs"
assert all(r[i][1] <= r[i + 1][1] for i in range(len(r) - 1)), "t1"
print(len(r))
PY
	tap_is "$(cat "$TMP/out")" "${t#*:}" "target ${t%%:*}: requests holds ${t#*:} records, seq 0 up, t1 in order"
done
"$SAN/mttdecode" "$X/targets/p2/capture.mprof" >"$TMP/out" 2>&1
tap_is "$(grep -c '^@[0-9]* TIME_SYNC seq=' "$TMP/out")" 16 \
	"p2's capture holds the 16 TIME_SYNC responses"
"$SAN/mttdecode" --input=mtt "$X/targets/m2/capture.bin" >"$TMP/out" 2>&1
tap_is "$(grep -c ' MTT TIME_SYNC REPLY .* t_rx [0-9]* t_tx [0-9]* end [0-9]* ' "$TMP/out")" 16 \
	"m2's capture holds the 16 TIME_SYNC replies"
(cd "$X/targets/r2" && eval "\"\$SAN/\"$(sed -n 's/^decode //p' target)") >"$TMP/out" 2>&1
tap_is "$(grep -c ' MTT TIME_SYNC REPLY .* t_rx [0-9]* t_tx [0-9]* end [0-9]* ' "$TMP/out"):$(grep -c ' srcid=2 ' "$TMP/out")" "16:16" \
	"r2's capture (its decode command) holds the 16 TIME_SYNC replies on srcID 1, 16 packets on srcID 2"
for i in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do msync $i; done >"$TMP/rsyncs"
sent_is "$TMP/r2.recv" "$TMP/rsyncs" \
	"the riscv-encap device was sent the 16 TIME_SYNC as MTT command frames"
{ cmd 05 5a; cmd 01 56; sync 0; cmd 02 57; cmd 03 58; } >"$TMP/cmds"
sent_is "$TMP/pn.recv" "$TMP/cmds" \
	"the device that NACKs was sent one TIME_SYNC only: GET_METADATA, START, TIME_SYNC 0, STOP, GET_STATUS"
kill $pids 2>/dev/null

# --- configuration errors ---------------------------------------------------
bad t-key 3 'unknown key "speed" in a target' <<'X'
targets = (
	{ name = "a"; port = "/dev/null"; protocol = "mtt";
	  speed = 9600; } );
X
bad t-baud 2 'baud: 12345 is not a standard rate' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "mtt";
	baud = 12345; } );
X
bad t-proto 2 'protocol: "uart" is not one of mprof, mtt, syst, riscv-encap, raw' <<'X'
targets = ( { name = "a"; port = "/dev/null";
	protocol = "uart"; } );
X
bad t-noproto 1 'target "a": "protocol" missing' <<'X'
targets = ( { name = "a"; port = "/dev/null"; } );
X
bad t-width 3 'srcid_bits: for protocol riscv-encap only' <<'X'
targets = ( { name = "a"; port = "/dev/null";
	protocol = "mtt";
	srcid_bits = 8; } );
X
bad t-ts 2 'ts_bytes: 9 outside 0..8' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "riscv-encap";
	ts_bytes = 9; } );
X
bad t-both 2 'target "a": port and match: give one' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "mtt";
	match = { sysname = "ttyUSB0"; }; } );
X
bad t-neither 1 'target "a": "port" or "match" missing' <<'X'
targets = ( { name = "a"; protocol = "mtt"; } );
X
bad t-match 2 'unknown key "vendor" in a target.s match' <<'X'
targets = ( { name = "a"; protocol = "mtt";
	match = { vendor = "0403"; }; } );
X
bad t-twice 3 'target "a" defined twice \(first at line 2\)' <<'X'
targets = (
	{ name = "a"; port = "/dev/null"; protocol = "mtt"; },
	{ name = "a"; port = "/dev/null"; protocol = "mtt"; } );
X
bad t-name 1 'target name "a/b": character ./. not allowed' <<'X'
targets = ( { name = "a/b"; port = "/dev/null"; protocol = "mtt"; } );
X
bad t-elf 2 'elf: /nowhere/fw.elf: No such file or directory' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "mprof";
	elf = "/nowhere/fw.elf"; } );
X
bad t-sp 3 'srcid_proto: "9:mtt" is not IDS:PROTO \(IDS: N, FIRST-LAST or \* of the 3-bit srcIDs' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "riscv-encap";
	srcid_bits = 3;
	srcid_proto = [ "1-2:mtt", "9:mtt" ]; } );
X
bad t-sp2 2 'srcid_proto: "\*:syst" is not IDS:PROTO' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "riscv-encap";
	srcid_proto = "*:syst"; } );
X
bad t-spm 2 'srcid_proto: for protocol riscv-encap only' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "mtt";
	srcid_proto = "*:mtt"; } );
X
bad t-start 2 'mtt_start: for protocols mtt and riscv-encap only' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "syst";
	mtt_start = true; } );
X
bad t-paced 2 'paced: must be true or false' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "mtt";
	paced = 1; } );
X
bad t-sync 2 'sync_interval_ms: for protocols mprof, mtt and riscv-encap \(with an mtt srcID\) only' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "syst";
	sync_interval_ms = 0; } );
X
bad t-rvsync 3 'sync_interval_ms: a riscv-encap target needs an mtt srcID \(srcid_proto "IDS:mtt"\) for clock exchanges' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "riscv-encap";
	srcid_proto = [ "*:mtt", "0-65535:stp" ];
	sync_interval_ms = 0; } );
X
bad t-wait 2 'sync_wait_ms: for protocols mprof, mtt and riscv-encap \(with an mtt srcID\) only' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "raw";
	sync_wait_ms = 500; } );
X
bad t-wait0 2 'sync_wait_ms: 0 outside 1..3600000' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "mtt";
	sync_wait_ms = 0; } );
X
bad t-rvwait 3 'sync_wait_ms: a riscv-encap target needs an mtt srcID \(srcid_proto "IDS:mtt"\) for clock exchanges' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "riscv-encap";
	srcid_proto = [ "*:raw" ];
	sync_wait_ms = 500; } );
X
bad t-nodev 2 'policy: needs a "device"' <<'X'
targets = ( { name = "a"; port = "/dev/null"; protocol = "mtt"; } );
policy = { name = "p"; };
X
"$C" --setup "$TMP/s.conf" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttcontrol: $TMP/s.conf: no \"device\": nothing to set up (its serial targets are recorded by --start)" \
	"--setup of a file of serial targets only: exit 1, said"

# --- ports that cannot be had ------------------------------------------------
cat >"$TMP/np.conf" <<'X'
targets = ( { name = "a"; port = "/nowhere/ttyUSB9"; protocol = "mtt"; } );
X
"$C" --start -c "$TMP/np.conf" -o "$TMP/np" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttcontrol: target \"a\": /nowhere/ttyUSB9: No such file or directory" \
	"--start with a port that is not there: exit 1, named"
cat >"$TMP/nm.conf" <<'X'
targets = ( { name = "a"; protocol = "mtt";
	match = { sysname = "mttcontrol-test-none"; }; } );
X
"$C" --start -c "$TMP/nm.conf" -o "$TMP/nm" >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttcontrol: $TMP/nm.conf:1: target \"a\": no tty device matches" \
	"--start with a match no tty has: exit 1, the target named"
"$C" --stop >"$TMP/out" 2>&1
tap_is "$?:$(cat "$TMP/out")" "1:mttcontrol: no session is running" \
	"... and no session was left running"
tap_done
