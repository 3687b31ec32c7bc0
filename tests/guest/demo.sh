#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Demo trace session, run in the VM by tests/vm/demo.sh (make demo): set
# the stack up from a configuration file with mttcontrol, record a session
# while two processes trace, stop it, decode the session directory with
# mttdecode and its stream with OpenCSD's trc_pkt_lister.  Human output;
# non-zero exit on failure.
. /stm/tests/lib.sh

step() { printf '\n==> %s\n' "$*"; }
die() { echo "demo failed: $*"; exit 1; }
CONF=/stm/tests/demo.conf
S=/tmp/demo-session

step "The configuration ($CONF, kernel $(uname -r))"
grep -v '^#' $CONF

step "mttcontrol --setup --dry-run: what it would do"
mttcontrol --setup --dry-run $CONF || die "dry run"

step "mttcontrol --setup: load the modules, create the policy"
mttcontrol --setup $CONF || die "setup"
mttcontrol --status

step "mttcontrol --start -o $S"
mttcontrol --start -c $CONF -o $S || die "start"

step "Tracing from two processes at once"
echo '  process 1: a shell writing to /dev/swstm.0 (no id: its name "sh" is'
echo '             not a policy node, so the "default" node is used)'
echo '  process 2: stmctl, identified as "user/app" by STP_POLICY_ID_SET'
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
wait $shell $app
echo "  stmctl: $(cat /tmp/stmctl.out)"

step "mttcontrol --stop"
mttcontrol --stop || die "stop"
echo "  the session directory:"
ls -l $S | sed 's/^/  /'

step "mttdecode $S (time, policy node, severity, GUID, type, text)"
mttdecode $S || die "mttdecode"

step "The same stream through OpenCSD's trc_pkt_lister (an independent decoder)"
/stm/tests/lib/opencsd.sh $S/stream-0000.stp | head -n 12 || die "opencsd"
echo "  (master channel size value marked ts, one line per data packet)"

step "mttcontrol --teardown, unloading"
mttcontrol --teardown $CONF
stack_unload
echo "demo complete"
