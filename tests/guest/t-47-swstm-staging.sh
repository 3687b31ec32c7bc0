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
#    the CPU's call queue: a hard lockup);
#  - overwrite mode, a reader racing two writers of different message
#    sizes on a small sink: every message arrives whole or not at all,
#    and sent = received + drops exactly.  A reader whose claim lost to
#    an overwriter used to keep that record's header and could emit it
#    from its middle, or emit one already counted as lost;
#  - a CPU that goes offline: what it had staged is stored at once.
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

# two_writers ID SIZE_A N_A SIZE_B N_B: sw_two_writers with a message
# size and count each; both must succeed
two_writers() {
	sw_two_writers "$1" "$3" "$2" "$5" "$4"
	tap_eq "both writers done" "OK OK" "$(head -qn 1 $W/a.out $W/b.out | tr '\n' ' ' | sed 's/ $//')"
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
rm -f $W/rr $W/stop
cal0=$(cal)
swstm_read storm -t 8 -r $W/rr -g $W/stop >$W/storm.out &
spid=$!
sw_wait_file $W/rr
two_writers w 64 $N 64 $N
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

# --- overwrite mode: reader against writers ----------------------------------
# 4 KiB (128 slots): a 56-byte message is one record of 3 slots, a
# 600-byte one a record of 22; each message is stored whole or lost
# whole.  The reader drains while both writers overwrite.
NA=3000
NB=300
PA=$(sw_npackets 56)
PB=$(sw_npackets 600)
sw_reload sink_size=4096
sw_policy swstm.0.ovw
sw_node swstm.0.ovw o "2 2" "10 19"
echo 1 >$A/overwrite
rm -f $W/stop $W/o.stp
swstm_read drain -o $W/o.stp -g $W/stop >$W/rd.out &
rpid=$!
two_writers o 56 $NA 600 $NB
touch $W/stop
wait $rpid
echo 0 >$A/overwrite
tap_eq "reader done" OK "$(head -n 1 $W/rd.out)"
tap_eq "sink empty" 0 "$(sw_attr 0 queued)"
tap_check "mttdecode the capture" sw_decode $W/o.stp $W/o.json
sa=$(sw_summary $W/o.json -l -m 2 -c "$ca" -t A -s 56 -n $NA)
sb=$(sw_summary $W/o.json -l -m 2 -c "$cb" -t B -s 600 -n $NB)
ka=$(echo "$sa" | sed -n 's/.* A=\([0-9]*\) .*/\1/p')
kb=$(echo "$sb" | sed -n 's/.* B=\([0-9]*\) .*/\1/p')
tap_diag "received $ka of $NA A, $kb of $NB B; drops=$(sw_attr 0 drops)"
# every message is one of its writer's, whole and in order (the other
# writer's count as "other")
tap_match "writer A: whole messages only, in order" \
	"^OK msgs=$ka incomplete=0 other=$kb A=$ka " "$sa"
tap_match "writer B: whole messages only, in order" \
	"^OK msgs=$kb incomplete=0 other=$ka B=$kb " "$sb"
tap_eq "sent = received + drops, in packets" $((NA * PA + NB * PB)) \
	$((${ka:-0} * PA + ${kb:-0} * PB + $(sw_attr 0 drops)))

# --- a CPU that goes offline --------------------------------------------------
ONL=/sys/devices/system/cpu/cpu1/online
if [ "$NCPU" -gt 1 ] && [ -w $ONL ]; then
	mod_loaded stm_p_unended || mod_load stm_p_unended
	# one policy per device
	sw_policy_rm
	sw_policy swstm.0:p_unended.hp
	sw_node swstm.0:p_unended.hp w "3 3" "20 29"
	p0=$(sw_attr 0 packets)
	d0=$(sw_attr 0 drops)
	tap_check "one message staged on CPU 1" \
		swstm_write -i w -t C -s 64 -n 1 -c 1
	tap_eq "staged, not stored yet" "$p0" "$(sw_attr 0 packets)"
	tap_errno "CPU 1 offline" OK fsop write $ONL 0
	tap_eq "its staged packets stored when it went" $((p0 + 8)) "$(sw_attr 0 packets)"
	tap_errno "CPU 1 online again" OK fsop write $ONL 1
	tap_eq "CPU 1 online" 1 "$(cat $ONL)"
	sw_drain $W/hp.stp >/dev/null
	tap_eq "all read, none dropped" "packets=$((p0 + 8)) drops=$d0 queued=0" "$(counters)"
else
	tap_skip "a CPU that goes offline" "no CPU 1 that can go offline"
fi

sw_finish
exit 0
