#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Demo trace session, run in the VM by tests/vm/demo.sh (make demo): load
# the stack, set up a policy from configfs-examples/, trace from two
# processes, read the software STM sink and decode it with mttdecode and
# with OpenCSD's trc_pkt_lister.  Human output; non-zero exit on failure.
. /stm/tests/lib.sh

step() { printf '\n==> %s\n' "$*"; }
die() { echo "demo failed: $*"; exit 1; }

step "Loading configfs, stm_core, stm_p_basic and swstm (kernel $(uname -r))"
stack_load || die "module load"
ls -l /dev/swstm.0 /dev/swstm.0-sink
echo "/sys/class/stm/swstm.0: masters $(cat /sys/class/stm/swstm.0/masters)," \
     "channels $(cat /sys/class/stm/swstm.0/channels)"

step "Policy from configfs-examples/basic-policy.sh"
/stm/configfs-examples/basic-policy.sh swstm.0 || die "policy"

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

step "Reading the sink /dev/swstm.0-sink"
swstm_read drain -N -o /tmp/demo.stp > /dev/null || die "sink read"
SINK=/sys/class/misc/swstm.0-sink
echo "  $(wc -c < /tmp/demo.stp) bytes of STPv2; sink counters:" \
     "packets=$(cat $SINK/packets) bytes_written=$(cat $SINK/bytes_written)" \
     "bytes_read=$(cat $SINK/bytes_read) drops=$(cat $SINK/drops)"
echo "  first bytes:"
hexdump -C /tmp/demo.stp | head -n 4

step "Decoded by mttdecode (time ns, master, channel, length, text)"
mttdecode /tmp/demo.stp || die "mttdecode"

step "The same stream through OpenCSD's trc_pkt_lister (an independent decoder)"
/stm/tests/lib/opencsd.sh /tmp/demo.stp | head -n 12 || die "opencsd"
echo "  (master channel size value marked ts, one line per data packet)"

step "Cleaning up"
/stm/configfs-examples/remove-policy.sh /sys/kernel/config/stp-policy/swstm.0.example
stack_unload
echo "demo complete"
