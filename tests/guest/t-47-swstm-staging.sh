#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# swstm's staging buffers and the reader, with fixed amounts of work and
# exact counts (no timing):
#  - flush requests from many readers at once: writers on both CPUs
#    leave their last message staged (stm_p_unended never ends one) while
#    eight threads share the sink in O_NONBLOCK read() and poll() loops,
#    each asking stale CPUs to store their packets: every packet arrives,
#    and the kernel log (lockdep in the debug lane) stays clean.  Two
#    requests for one CPU at once used to queue its IPI twice (a loop in
#    the CPU's call queue: a hard lockup).
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
A=/sys/class/misc/swstm.0-sink
NCPU=$(grep -c ^processor /proc/cpuinfo)
C1=$((NCPU > 1 ? 1 : 0))

# cal: function call interrupts (IPIs) taken so far, all CPUs
cal() {
	awk '$1 == "CAL:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i } END { print n + 0 }' /proc/interrupts
}

# counters: "packets=P drops=D queued=Q"
counters() {
	echo "packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops) queued=$(sw_attr 0 queued)"
}

if stm_class_upstream; then
	tap_skip "staging tests" "stm_p_unended needs our class's protocol API"
	exit 0
fi

# --- flush requests from many readers at once ------------------------------
# 16 MiB: no drop whatever the readers do.  A 64-byte message is one
# record of 8 packets; the next message's timestamped first packet stores
# the previous one, so each writer's last message stays staged until a
# reader's request (or the reader's timer) has its CPU store it.
N=10000
stack_load sink_size=16777216
tap_check "load stm_p_unended" mod_load stm_p_unended
sw_policy swstm.0:p_unended.st
sw_node swstm.0:p_unended.st w "3 3" "20 29"
rm -f $W/go $W/ra $W/rb $W/rr $W/stop
cal0=$(cal)
swstm_read storm -t 8 -r $W/rr -g $W/stop >$W/storm.out &
spid=$!
sw_wait_file $W/rr
swstm_write -i w -t A -s 64 -n $N -c 0 -r $W/ra -g $W/go >$W/a.out &
apid=$!
swstm_write -i w -t B -s 64 -n $N -c $C1 -r $W/rb -g $W/go >$W/b.out &
bpid=$!
sw_wait_file $W/ra && sw_wait_file $W/rb
touch $W/go
wait $apid $bpid
tap_eq "both writers done" "OK OK" "$(head -qn 1 $W/a.out $W/b.out | tr '\n' ' ' | sed 's/ $//')"
# the readers keep asking until every staged packet is stored
stored() { [ "$(sw_attr 0 packets)" -eq $((2 * N * 8)) ]; }
wait_until 120 stored
touch $W/stop
wait $spid
tap_eq "eight readers sharing the sink, O_NONBLOCK read() and poll()" OK \
	"$(head -n 1 $W/storm.out)"
tap_diag "storm readers: $(sed -n 's/^bytes=//p' $W/storm.out) bytes, $(($(cal) - cal0)) function call IPIs"
sw_drain $W/st.stp >/dev/null
tap_eq "every packet stored, none dropped, all read" \
	"packets=$((2 * N * 8)) drops=0 queued=0" "$(counters)"
tap_eq "every payload byte stored" $((2 * N * 64)) "$(sw_attr 0 bytes_written)"

sw_finish
exit 0
