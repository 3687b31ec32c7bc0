#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A reader preempted in the middle of taking packets never makes a writer
# drop while the sink has room.  The reader runs at nice 19 and a
# SCHED_FIFO writer on the same CPU; the writer keeps the sink as full as
# the sink's "queued" attribute says it may be (flow control, so it never
# writes more than there is room for) and sleeps when it is full; each
# time it wakes up it preempts the reader wherever it is (anywhere in the
# kernel under PREEMPT and PREEMPT_RT).  Whatever the interleaving, no
# packet may be dropped and every message must arrive: exact counts, no
# timing.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
N=20000
# 4 KiB: 128 packet slots; 8-byte messages are one packet each
stack_load sink_size=4096
sw_policy swstm.0.pre
sw_node swstm.0.pre a "1 1" "1 1"

sw_reader $W/pre.stp -b 64
tap_check "reader pinned to CPU 0" taskset -p 1 "$SW_RPID"
tap_check "reader at nice 19" renice -n 19 -p "$SW_RPID"
# upstream's p_basic (6.12) sends a FLAG after each: two slots a message
slots=128
! stm_class_upstream || slots=64
tap_check "SCHED_FIFO writer on CPU 0 keeps the sink full: $N messages" \
	swstm_write -i a -s 8 -n $N -c 0 -R 10 -F $slots
sw_reader_stop
tap_eq "nothing dropped" "packets=$((N * $(sw_npackets 8))) drops=0" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops)"
tap_check "mttdecode the capture" sw_decode $W/pre.stp $W/pre.json
tap_eq "no loss marked" "markers=0 lost=0" "$(swstm_check losses $W/pre.json)"
tap_check "all $N messages, in order" \
	swstm_check msgs -t A -s 8 -n $N $W/pre.json
tap_eq "sink empty" 0 "$(sw_attr 0 queued)"

sw_finish
exit 0
