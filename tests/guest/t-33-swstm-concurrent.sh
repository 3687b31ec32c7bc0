#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Concurrent writers pinned on both CPUs, with a reader draining at the
# same time: on different channels (one process each) and on the same
# channel (two threads sharing one file descriptor, one-packet messages).
# No message is corrupted, each writer's order is kept, and with a full
# sink (drop or overwrite) losses are marked and what arrives is intact.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
# a stress loop: the lane sizes it (stress_n); every count below follows N
N=$(stress_n 3000)
stack_load sink_size=16777216
sw_policy swstm.0.cc
sw_node swstm.0.cc w "2 2" "10 19"
ncpu=$(grep -c ^processor /proc/cpuinfo)
[ "$ncpu" -ge 2 ] || tap_diag "only $ncpu CPU: the writers share it"
c1=$((ncpu > 1 ? 1 : 0))

# --- two processes, two channels, reader running ------------------------------
sw_reader $W/diff.stp
sw_two_writers w "$N" 8-200
sw_reader_stop
tap_eq "writer A (CPU 0) done" OK "$(head -n 1 $W/a.out)"
tap_eq "writer B (CPU $c1) done" OK "$(head -n 1 $W/b.out)"
tap_check "writers got different channels ($ca, $cb)" test "$ca" != "$cb"
tap_check "mttdecode the capture" sw_decode $W/diff.stp $W/diff.json
tap_check "writer A: all $N messages intact and in order" \
	swstm_check msgs -m 2 -c "$ca" -t A -s 8-200 -n "$N" $W/diff.json
tap_check "writer B: all $N messages intact and in order" \
	swstm_check msgs -m 2 -c "$cb" -t B -s 8-200 -n "$N" $W/diff.json
tap_eq "no loss" "markers=0 lost=0" "$(swstm_check losses $W/diff.json)"
tap_eq "no drops counted" 0 "$(sw_attr 0 drops)"
# sizes cycle 8..200 (193 sizes): N messages of each writer
# shellcheck disable=SC2046 # seq's numbers: one argument each
sw_npackets_sum $(seq 8 200)
pk=$SW_NPK
full=$((N / 193))
# shellcheck disable=SC2046
sw_npackets_sum $(seq 8 $((8 + N % 193 - 1)))
rest=$SW_NPK
tap_eq "packets counter" $((2 * (full * pk + rest))) "$(sw_attr 0 packets)"
tap_eq "bytes_read counter" "$(wc -c <$W/diff.stp | tr -d ' ')" "$(sw_attr 0 bytes_read)"

# a shorter run of the same, for the host's OpenCSD check
sw_reader $W/small.stp
sw_two_writers w 300 8-200
sw_reader_stop
export_file $W/small.stp swstm-ocsd-concurrent.stp

# --- two threads, one channel --------------------------------------------------
sw_reader $W/same.stp
tap_check "two threads on one fd (CPUs 0 and $c1), 8-byte messages" \
	swstm_write -i w -t C -s 8 -n "$N" -P 2
sw_reader_stop
tap_check "mttdecode the capture" sw_decode $W/same.stp $W/same.json
if stm_class_upstream; then
	tap_skip "both threads' messages intact, each thread's order kept" \
		"upstream's p_basic sends a message's DATA and its FLAG as two packets: two threads on one channel interleave them (Documentation/abi.rst)"
else
	tap_check "both threads' messages intact, each thread's order kept" \
		swstm_check msgs -m 2 -t CD -s 8 -n "$N" $W/same.json
fi

# --- full sink, drop mode, both CPUs --------------------------------------------
sw_reload sink_size=65536
sw_policy swstm.0.cc
sw_node swstm.0.cc w "2 2" "10 19"
sw_reader $W/drop.stp -b 256
sw_two_writers w "$N" 8-200
sw_reader_stop
tap_eq "writers never blocked nor failed" "OK OK" "$(head -qn 1 $W/a.out $W/b.out | tr '\n' ' ' | sed 's/ $//')"
tap_check "writers got different channels ($ca, $cb)" test "$ca" != "$cb"
tap_check "mttdecode the capture" sw_decode $W/drop.stp $W/drop.json
tap_check "drop mode: writer A's messages intact, in order, newest last" \
	swstm_check msgs -l -m 2 -c "$ca" -t A -s 8-200 -n "$N" $W/drop.json
tap_check "drop mode: writer B's messages intact, in order" \
	swstm_check msgs -l -m 2 -c "$cb" -t B -s 8-200 -n "$N" $W/drop.json
d=$(sw_attr 0 drops)
lost=$(swstm_check losses $W/drop.json | sed 's/.*lost=//')
if [ "$d" -gt 0 ]; then
	tap_check "drops ($d) are marked in the stream (lost=$lost)" test "$lost" -gt 0 -a "$lost" -le "$d"
else
	tap_skip "drops are marked in the stream" "the reader kept up"
fi

# --- full sink, overwrite mode, both CPUs ----------------------------------------
echo 1 >/sys/class/misc/swstm.0-sink/overwrite
sw_reader $W/ovw.stp -b 256
sw_two_writers w "$N" 8-200
sw_reader_stop
tap_check "writers got different channels ($ca, $cb)" test "$ca" != "$cb"
tap_check "mttdecode the capture" sw_decode $W/ovw.stp $W/ovw.json
tap_check "overwrite mode: writer A's messages intact, in order" \
	swstm_check msgs -l -m 2 -c "$ca" -t A -s 8-200 -n "$N" $W/ovw.json
tap_check "overwrite mode: writer B's messages intact, in order" \
	swstm_check msgs -l -m 2 -c "$cb" -t B -s 8-200 -n "$N" $W/ovw.json
# the writer that finished first may have lost its last messages to the
# other one; the very last message written is always kept
last_kept() {
	swstm_check msgs -l -k -m 2 -c "$ca" -t A -s 8-200 -n "$N" $W/ovw.json ||
		swstm_check msgs -l -k -m 2 -c "$cb" -t B -s 8-200 -n "$N" $W/ovw.json
}
tap_check "overwrite mode: the newest message is kept" last_kept

sw_finish
exit 0
