#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mttcontrol: every kind of bad configuration (syntax error, unknown key,
# missing device, no permission, range outside the device, a value the
# kernel refuses) exits 1 naming what failed and leaves configfs, the
# source links and the loaded modules exactly as before; --setup loads
# the stack and is a no-op the second time; --stop without a session;
# two --start at once; --view following a session; --start --live; a full session (a
# shell, a program with its own policy id, console, ftrace and
# heartbeat) decoded by "mttdecode DIR" and compared with what was sent; a collector killed with SIGKILL
# leaves a decodable partial session (rotated files); a RISC-V session
# (mttsession records the sink's format) decoded by "mttdecode DIR"; --status --json is
# exported for the host to parse (host-checks/mttcontrol-json.sh).
. /stm/tests/lib.sh

W=$PWD
CFG=/sys/kernel/config/stp-policy
T=/sys/kernel/tracing
MOD=/stm/modules

# snapshot FILE: policies (every directory and attribute), source links,
# sink modes and loaded modules
snapshot() {
	{
		find $CFG 2>/dev/null | sort
		for f in $(find $CFG -type f 2>/dev/null | sort); do
			echo "$f=$(cat "$f" 2>/dev/null)"
		done
		for s in /sys/class/stm_source/* /sys/class/misc/swstm.*; do
			[ -e "$s/stm_source_link" ] && echo "$s=$(cat "$s/stm_source_link")"
			[ -e "$s/overwrite" ] && echo "$s=$(cat "$s/overwrite")"
		done
		awk '{ print $1 }' /proc/modules | sort
	} >"$1"
}

# conf FILE [EXTRA]: the session configuration, with EXTRA appended
conf() {
	cat >"$1" <<X
device = "swstm.0";
timeout = 600;
modules = ( "$MOD/stm_core.ko", "$MOD/stm_p_sys-t.ko",
	    "$MOD/swstm.ko sink_size=1048576", "$MOD/stm_console.ko",
	    "$MOD/stm_heartbeat.ko nr_devs=1 interval_ms=50",
	    "$MOD/stm_ftrace.ko" );
policy = {
	name = "mc";
	protocol = "p_sys-t";
	nodes = (
		{ path = "default"; masters = 1; channels = [0, 63]; },
		{ path = "user"; masters = [2, 3]; channels = [0, 255]; },
		{ path = "user/app"; masters = 3; channels = [0, 15];
		  attrs = { do_len = true; }; },
		{ path = "console"; masters = 4; channels = 0; },
		{ path = "heartbeat.0"; masters = 4; channels = 1; },
		{ path = "ftrace"; masters = 5; channels = [0, 255]; }
	);
};
sources = [ "console", "heartbeat.0", "ftrace" ];
sink = { overwrite = false; size = 1048576; };
$2
X
}

# bad DESC FILE MSG [RUN...]: mttcontrol --setup FILE exits 1 with MSG
# (an ERE) and leaves everything as before
bad() {
	local d=$1 f=$2 msg=$3 out rc
	shift 3
	snapshot $W/before
	out=$("$@" mttcontrol --setup "$f" 2>&1)
	rc=$?
	snapshot $W/after
	tap_match "$d: exit 1 and the message" "^1 mttcontrol: $msg" "$rc $out"
	if cmp -s $W/before $W/after; then
		tap_ok "$d: configfs, links and modules as before"
	else
		tap_fail "$d: configfs, links and modules as before"
		tap_diag "$(diff $W/before $W/after | head -n 20)"
	fi
}

mounted=
if [ ! -e $T/trace_marker ]; then
	mount -t tracefs nodev $T && mounted=1
fi

# --- bad files --------------------------------------------------------------
conf $W/good.conf
printf 'device = "swstm.0";\npolicy = {\n\tname = = "x";\n};\n' >$W/syntax.conf
bad "syntax error" $W/syntax.conf "$W/syntax.conf:3: syntax error"
printf 'device = "swstm.0";\nsink = { overwrite = false; colour = 1; };\n' >$W/key.conf
bad "unknown key" $W/key.conf "$W/key.conf:2: unknown key \"colour\" in sink"
printf 'device = "nosuch.0";\npolicy = { name = "x"; };\n' >$W/nodev.conf
bad "missing device" $W/nodev.conf "$W/nodev.conf:1: device \"nosuch.0\": no such STM device"
bad "not root" $W/good.conf "permission denied" as_nobody
conf $W/range.conf
sed -i 's/path = "user"; masters = \[2, 3\]/path = "user"; masters = [2, 300]/' $W/range.conf
bad "masters outside the device (modules loaded, then unloaded)" $W/range.conf \
	"$W/range.conf:[0-9]+: policy node \"user\": masters 2 300 outside 0..15 of swstm.0"
conf $W/refused.conf
sed -i 's/do_len = true;/do_len = true; uuid = "not-a-uuid";/' $W/refused.conf
bad "a value the kernel refuses (all undone)" $W/refused.conf \
	"$W/refused.conf:[0-9]+: policy node \"user/app\": uuid: writing \"not-a-uuid\""

# --- setup, twice -------------------------------------------------------------
out=$(mttcontrol --setup $W/good.conf 2>&1)
tap_match "setup: loads the stack, applies" "^0 $W/good.conf: applied \([0-9]+ changes\)" "$? $out"
out=$(mttcontrol --setup $W/good.conf 2>&1)
rc=$?
snapshot $W/s1
tap_eq "setup again: nothing to do" "0 $W/good.conf: nothing to do: the system is as described" "$rc $out"
mttcontrol --setup $W/good.conf >/dev/null 2>&1
snapshot $W/s2
tap_check "setup again: nothing changed" cmp -s $W/s1 $W/s2
tap_eq "links" "swstm.0 swstm.0 swstm.0" "$(cat /sys/class/stm_source/console/stm_source_link \
	/sys/class/stm_source/heartbeat.0/stm_source_link /sys/class/stm_source/ftrace/stm_source_link | tr '\n' ' ' | sed 's/ $//')"
tap_eq "dry run now: nothing to print" "" "$(mttcontrol --setup --dry-run $W/good.conf 2>&1)"
mttcontrol --status --json >$W/status.json 2>&1
tap_check "--status --json" test -s $W/status.json
export_file $W/status.json mttcontrol-status.json
tap_match "--status shows the policy's nodes" "user/app: masters 3 3, channels 0 15 .*do_len=1" \
	"$(mttcontrol --status 2>&1)"
# drops: our class's per-source counter; upstream's class has none ("-")
DROPS='[0-9]+'
stm_class_upstream && DROPS=-
tap_match "--status shows each source's link and drops" "console: linked to swstm.0, drops $DROPS" \
	"$(mttcontrol --status 2>&1)"

# --- sessions ------------------------------------------------------------------
out=$(mttcontrol --stop 2>&1)
tap_eq "--stop without a session" "1 mttcontrol: no session is running" "$? $out"
# two --start at once: the one that wins is the session traced below
mttcontrol --start -c $W/good.conf -o $W/a >$W/a.out 2>&1 &
p1=$!
mttcontrol --start -c $W/good.conf -o $W/b >$W/b.out 2>&1 &
p2=$!
wait $p1
r1=$?
wait $p2
r2=$?
tap_eq "two --start at once: one starts, one exits 1" "0 1" "$(echo $r1 $r2 | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')"
tap_match "the other says a session runs" "a session is already running" "$(cat $W/a.out $W/b.out)"
S=$W/a
[ "$r1" = 0 ] || S=$W/b
# --view follows the session until it ends
# (its exit status goes to a file: no reliance on the shell's job table)
rm -f $W/view.rc
(mttcontrol --view >$W/view.txt 2>&1; echo $? >$W/view.rc) &
i=1
while [ $i -le 5 ]; do
	echo "mc-shell-$i" >/dev/swstm.0
	i=$((i + 1))
done
tap_match "a program with policy id user/app" "^OK:3:" \
	"$(stmctl /dev/swstm.0 set=user/app write=mc-app-1 write=mc-app-2 write=mc-app-3)"
for i in 1 2 3; do echo "mc-console-$i" >/dev/kmsg; done
for i in 1 2 3; do echo "mc-ftrace-$i" >$T/trace_marker; done
# the console may print from a thread (PREEMPT_RT): wait for its last line
arrived() {
	mttdecode --syst $S/stream-0000.stp >$W/peek.txt 2>/dev/null
	grep -q 'mc-console-3' $W/peek.txt && grep -q 'heartbeat' $W/peek.txt
}
tap_check "the last console line and a heartbeat reached the session (hang guard 600 s)" \
	wait_until 600 arrived
# a source that loses exactly 3 messages during the session (a channel
# beyond its one): the summary counts them (ours; upstream's class has no
# counter, and nothing is listed)
mod_load stm_test_source nr_chans=1
fsop writeln /sys/class/stm_source/test_source/stm_source_link swstm.0 >/dev/null
echo 1 >/sys/module/stm_test_source/parameters/chan
for i in 1 2 3; do echo "mc-lost-$i" >/sys/module/stm_test_source/parameters/msg; done
fsop write /sys/class/stm_source/test_source/stm_source_link none >/dev/null
out=$(mttcontrol --stop 2>&1)
tap_match "--stop prints what was captured" "^0 session stopped: $S.captured [0-9]+ bytes in 1 file: [0-9]+ messages" \
	"$? $(echo "$out" | tr '\n' '.')"
tap_diag "$out"
mod_unload stm_test_source
if stm_class_upstream; then
	tap_eq "summary: no per-source drops (upstream's class counts none)" 0 \
		"$(grep -c '^source_drops ' $S/summary)"
else
	tap_eq "summary: test_source dropped 3 during the session" "source_drops test_source 3" \
		"$(grep '^source_drops test_source ' $S/summary)"
	tap_check "summary: a line for every source with a counter" \
		grep -q "^source_drops console [0-9]*\$" $S/summary
	tap_match "--stop lists the drops per source" "messages dropped by sources:.* test_source 3" "$out"
fi
wait_until 120 test -s $W/view.rc
tap_eq "--view ended with the session, exit 0" 0 "$(cat $W/view.rc 2>/dev/null)"
[ "$(cat $W/view.rc 2>/dev/null)" = 0 ] || tap_diag "$(tail -n 5 $W/view.txt)"
tap_eq "--view printed the shell's lines" "mc-shell-1 mc-shell-2 mc-shell-3 mc-shell-4 mc-shell-5" \
	"$(grep ' default ' $W/view.txt | grep -o 'mc-shell-[0-9]' | tr '\n' ' ' | sed 's/ $//')"
for f in mttsession stream-0000.stp policy.txt kallsyms events mttcontrol.conf summary; do
	tap_check "session directory holds $f" test -e $S/$f
done
tap_check "events/ holds the ftrace print format" test -s $S/events/ftrace/print/format
mttdecode $S >$W/s.txt 2>$W/s.err
tap_eq "mttdecode DIR: exit 0" 0 $?
tap_eq "the shell's lines, in order, on the default node" "mc-shell-1 mc-shell-2 mc-shell-3 mc-shell-4 mc-shell-5" \
	"$(grep ' default ' $W/s.txt | grep -o 'mc-shell-[0-9]' | tr '\n' ' ' | sed 's/ $//')"
tap_eq "the program's lines, in order, on user/app" "mc-app-1 mc-app-2 mc-app-3" \
	"$(grep ' user/app ' $W/s.txt | grep -o 'mc-app-[0-9]' | tr '\n' ' ' | sed 's/ $//')"
tap_eq "the console lines, in order, on console" "mc-console-1 mc-console-2 mc-console-3" \
	"$(grep ' console ' $W/s.txt | grep -o 'mc-console-[0-9]' | tr '\n' ' ' | sed 's/ $//')"
tap_eq "the trace_marker lines, in order, on ftrace" "mc-ftrace-1 mc-ftrace-2 mc-ftrace-3" \
	"$(grep ' ftrace' $W/s.txt | grep -o 'mc-ftrace-[0-9]' | tr '\n' ' ' | sed 's/ $//')"
tap_check "heartbeats on heartbeat.0" grep -q ' heartbeat.0 .*heartbeat' $W/s.txt
tap_eq "no other copies of the lines sent" 14 "$(grep -c 'mc-\(shell\|app\|console\|ftrace\)-' $W/s.txt)"

# --- a collector killed with SIGKILL ------------------------------------------
K=$W/killed
tap_check "--start -r 4096 -o $K" mttcontrol --start -c $W/good.conf -r 4096 -o $K
i=1
while [ $i -le 150 ]; do
	echo "mc-kill-$i-................................" >/dev/swstm.0
	i=$((i + 1))
done
last_arrived() {
	cat $K/stream-*.stp | mttdecode --syst - 2>/dev/null | grep -q 'mc-kill-150-'
}
tap_check "all 150 lines reached the session (hang guard 600 s)" wait_until 600 last_arrived
pid=$(head -n 1 /run/mttcontrol/session)
kill -9 "$pid"
no_session() {
	mttcontrol --status | grep -q '^Session: none'
}
tap_check "the lock died with the collector" wait_until 600 no_session
out=$(mttcontrol --stop 2>&1)
tap_match "--stop after SIGKILL: exit 1, partial session reported" "^1 .*session $K: partial.*captured [0-9]+ bytes in [0-9]+ files: [0-9]+ messages \([0-9]+ incomplete\), [0-9]+ losses" \
	"$? $(echo "$out" | tr '\n' ' ')"
n=$(ls $K | grep -c '^stream-.*\.stp$')
tap_check "rotated into several files ($n)" test "$n" -ge 2
mttdecode $K >$W/k.txt 2>&1
tap_eq "the partial session decodes: all 150 lines, in order" "$(seq 1 150 | tr '\n' ' ')" \
	"$(grep -o 'mc-kill-[0-9]*' $W/k.txt | sed 's/mc-kill-//' | tr '\n' ' ')"

# --- --start --live: a session viewed as it runs, stopped by a signal --------
mttcontrol --start --live -c $W/good.conf -o $W/live >$W/live.txt 2>&1 &
lp=$!
for i in 1 2 3; do echo "mc-live-$i" >/dev/swstm.0; done
live_seen() {
	grep -q 'mc-live-3' $W/live.txt
}
tap_check "--start --live prints the lines as they arrive (hang guard 600 s)" wait_until 600 live_seen
kill -TERM $lp
wait $lp
tap_eq "SIGTERM ends --live with exit 0" 0 $?
tap_match "... and stops the session" "session stopped: $W/live" "$(cat $W/live.txt)"
tap_eq "the lines, in order" "mc-live-1 mc-live-2 mc-live-3" \
	"$(grep -o 'mc-live-[0-9]' $W/live.txt | tr '\n' ' ' | sed 's/ $//')"
tap_check "no session left" no_session

# --- a RISC-V session: mttsession records the sink's format, "mttdecode DIR" uses it
A=/sys/class/misc/swstm.0-sink
echo riscv >$A/format && echo 8 >$A/srcid_bits && echo 2 >$A/ts_bytes
tap_check "--start with the sink in format riscv" mttcontrol --start -c $W/good.conf -o $W/rv
for i in 1 2 3; do echo "mc-rv-$i" >/dev/swstm.0; done
rv_arrived() {
	mttdecode --input=riscv-encap --srcid-bits=8 --ts-bytes=2 --syst $W/rv/stream-0000.stp 2>/dev/null |
		grep -q 'mc-rv-3'
}
tap_check "the lines reached the riscv session (hang guard 600 s)" wait_until 600 rv_arrived
out=$(mttcontrol --stop 2>&1)
tap_match "--stop counts the riscv stream's messages" "^0 session stopped: .*captured [0-9]+ bytes in 1 file: [1-9][0-9]* messages" \
	"$? $(echo "$out" | tr '\n' ' ')"
echo stp >$A/format && echo 16 >$A/srcid_bits && echo 8 >$A/ts_bytes
tap_eq "mttsession: format riscv, srcid_bits 8, ts_bytes 2" "format riscv srcid_bits 8 ts_bytes 2" \
	"$(grep -E '^(format|srcid_bits|ts_bytes) ' $W/rv/mttsession | tr '\n' ' ' | sed 's/ $//')"
tap_eq "mttdecode DIR decodes it: the lines, in order" "mc-rv-1 mc-rv-2 mc-rv-3" \
	"$(mttdecode $W/rv 2>&1 | grep -o 'mc-rv-[0-9]' | tr '\n' ' ' | sed 's/ $//')"

# --- teardown -----------------------------------------------------------------------
tap_check "teardown" mttcontrol --teardown $W/good.conf
tap_eq "no policy left" "" "$(ls $CFG)"
tap_eq "sources unlinked" "<none>" "$(cat /sys/class/stm_source/console/stm_source_link)"
[ -n "$mounted" ] && umount $T
stack_unload
tap_dmesg_clean "no kernel warnings"
exit 0
