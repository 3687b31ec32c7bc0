#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Demo trace session, run in the VM by tests/vm/demo.sh (make demo): set
# the stack up from a configuration file with mttcontrol, record a session
# while two processes trace, stop it, decode the session directory with
# mttdecode and its stream with OpenCSD's trc_pkt_lister.  Besides the two
# processes, a console line, a trace_marker line (ftrace) and the MTT
# sample component (3 timer ticks of typed values) go into the session;
# the decoded output is checked for each.  The session directory (as a
# gzip'd tar) and the decoded trace go to the host with export_file:
# tests/vm/demo-export.sh decodes them there too.  Human output; non-zero
# exit on failure.
. /stm/tests/lib.sh

step() { printf '\n==> %s\n' "$*"; }
die() { echo "demo failed: $*"; exit 1; }
CONF=/stm/tests/demo.conf
S=/tmp/demo-session
T=/sys/kernel/tracing
MTT_STATS=/sys/kernel/mtt/components/mtt_sample/stats
[ -e $T/trace_marker ] || mount -t tracefs nodev $T || die "mount tracefs"

step "The configuration ($CONF, kernel $(uname -r))"
grep -v '^#' $CONF

step "mttcontrol --setup --dry-run: what it would do"
mttcontrol --setup --dry-run $CONF || die "dry run"

step "mttcontrol --setup: load the modules, create the policy"
mttcontrol --setup $CONF || die "setup"
mttcontrol --status

step "mttcontrol --start -o $S"
mttcontrol --start -c $CONF -o $S || die "start"

step "Tracing from two processes, the console, ftrace and an MTT component"
echo '  process 1: a shell writing to /dev/swstm.0 (no id: its name "sh" is'
echo '             not a policy node, so the "default" node is used)'
echo '  process 2: stmctl, identified as "user/app" by STP_POLICY_ID_SET'
echo '  console:   a line written to /dev/kmsg (source "console")'
echo '  ftrace:    a line written to trace_marker (source "ftrace")'
echo '  MTT:       mtt_sample count=3: 3 timer ticks, each tracing a counter,'
echo '             signal0, a string, a u16 vector and a print (source "mtt")'
# in_session TEXT: TEXT has reached the session's stream
in_session() {
	mttdecode --syst $S/stream-0000.stp 2>/dev/null | grep -q "$1"
}
# the console may print from a thread (PREEMPT_RT): each console line is
# waited for.  This one marks where the demo's records start.
echo "demo: tracing starts" > /dev/kmsg
wait_until 600 in_session "demo: tracing starts" ||
	die "the first console line did not reach the session (hang guard)"
(
	for i in 1 2 3 4; do
		echo "shell: sensor reading $i = $((i * 17)) mV" > /dev/swstm.0
	done
) &
shell=$!
stmctl /dev/swstm.0 set=user/app "write=app: started" "write=app: 3 jobs queued" \
	"write=app: job 1 done" "write=app: job 2 done" "write=app: all done" \
	> /tmp/stmctl.out &
app=$!
echo "demo: console line" > /dev/kmsg
echo "demo: ftrace marker" > $T/trace_marker
mod_load mtt_sample count=3 interval_ms=10 || die "insmod mtt_sample"
wait $shell $app
echo "  stmctl: $(cat /tmp/stmctl.out)"
# META, the init print, then 3 ticks of 5 traces: 17 frames
sample_done() { [ "$(head -n 1 $MTT_STATS)" = "sent 17" ]; }
wait_until 600 sample_done || die "mtt_sample: $(head -n 1 $MTT_STATS), not sent 17 (hang guard)"
echo "  mtt_sample: $(tr '\n' ' ' < $MTT_STATS)"
wait_until 600 in_session "demo: console line" ||
	die "the console line did not reach the session (hang guard)"

step "mttcontrol --stop"
mttcontrol --stop || die "stop"
echo "  the session directory:"
ls -l $S | sed 's/^/  /'

step "mttdecode $S (time, policy node, severity, GUID, type, text; MTT: level, component, value)"
mttdecode $S > /tmp/demo.txt || die "mttdecode"
n=$(sed -n '/demo: tracing starts/=' /tmp/demo.txt | head -n 1)
[ -n "$n" ] || die "the start line is not in the decoded session"
head -n $((n - 1)) /tmp/demo.txt | grep -v ' console '
echo "  ... $(head -n $((n - 1)) /tmp/demo.txt | grep -c ' console ') console records left out here (the kernel log,"
echo "  replayed when the console source was linked; all in demo.txt, on the host too)"
tail -n +$n /tmp/demo.txt

step "Checking the decoded session"
# check WHAT EXPECTED ACTUAL
check() {
	[ "$2" = "$3" ] || die "$1: expected \"$2\", got \"$3\""
	echo "  ok: $1"
}
check "the shell's 4 lines on default" 4 "$(grep ' default ' /tmp/demo.txt | grep -c 'shell: sensor reading')"
check "stmctl's 5 lines on user/app" 5 "$(grep ' user/app ' /tmp/demo.txt | grep -c 'app: ')"
check "the console lines on console" 2 "$(grep ' console ' /tmp/demo.txt | grep -c 'demo: \(tracing starts\|console line\)')"
check "the trace_marker line on ftrace" 1 "$(grep ' ftrace' /tmp/demo.txt | grep -c 'demo: ftrace marker')"
check "no other source's message has MTT's collateral client as origin" 0 \
	"$(awk '$3 != "MTT" && $4 == "mtt"' /tmp/demo.txt | wc -l)"
check "MTT: mtt_sample named by a META frame" 1 "$(grep -c ' MTT META .*"mtt_sample"' /tmp/demo.txt)"
check "MTT: mtt_sample signal0 = 10, 20, 30" "10 20 30" \
	"$(sed -n 's/.* MTT .* mtt_sample signal0 = \([0-9]*\) .*/\1/p' /tmp/demo.txt | tr '\n' ' ' | sed 's/ $//')"
check "MTT: mtt_sample vec, one u16 vector a tick" 3 "$(grep -c ' MTT .* mtt_sample vec = \[' /tmp/demo.txt)"
check "MTT: mtt_sample's prints" 4 "$(grep -c ' MTT .* mtt_sample .*"\(fake_alsa_init\|tick [1-3] of 3\)"' /tmp/demo.txt)"

step "Sending the session directory and the decoded trace to the host"
tar -czf /tmp/demo-session.tar.gz -C ${S%/*} ${S##*/} || die "tar $S"
echo "  $S: $(du -sk $S | cut -f1) KiB, $(wc -c </tmp/demo-session.tar.gz) bytes gzip'd"
export_file /tmp/demo-session.tar.gz demo-session.tar.gz || die "export_file $S"
export_file /tmp/demo.txt demo.txt || die "export_file /tmp/demo.txt"

step "The same stream through OpenCSD's trc_pkt_lister (an independent decoder)"
/stm/tests/lib/opencsd.sh $S/stream-0000.stp | head -n 12 || die "opencsd"
echo "  (master channel size value marked ts, one line per data packet)"

step "mttcontrol --teardown, unloading"
mttcontrol --teardown $CONF
stack_unload
echo "demo complete"
