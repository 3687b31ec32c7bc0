#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Exact loss counts, with a fixed amount of work and no timing:
#  - overwrite mode: a discarded packet's own loss count is carried over,
#    so the marker counts every packet overwritten, those lost before
#    the overwritten ones included;
#  - contended writers on both CPUs: nothing is dropped while the sink
#    has room (sink larger than all the data; a sink that fills up once
#    loses everything after that point, in one marker), and packets sent
#    = packets received + packets reported lost.
# Every message is 8 bytes: one STP packet.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
if stm_class_upstream; then
	tap_skip "swstm loss counts" \
		"expectations are computed for our p_basic; upstream's adds a FLAG per message (Documentation/abi.rst): not yet recomputed for it"
	exit 0
fi

W=$SW_WORK
OVW=/sys/class/misc/swstm.0-sink/overwrite

# --- overwrite mode: losses before an overwritten packet -------------------
# 4 KiB: 128 packet slots
stack_load sink_size=4096
sw_policy swstm.0.lost
sw_node swstm.0.lost a "1 1" "1 1"
tap_eq "sink of 128 slots" 4096 "$(sw_attr 0 size)"

# drop mode: 0..127 stored, 128..139 dropped (12, recorded at the head)
tap_check "write 140 messages, drop mode, no reader" swstm_write -i a -s 8 -n 140
tap_eq "drop mode: 12 dropped" "packets=128 drops=12 queued=128" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops) queued=$(sw_attr 0 queued)"
# overwrite mode: 140..189 discard 0..49; 140 carries the 12 drops
echo 1 >$OVW
tap_check "write 50 messages, overwrite mode" swstm_write -i a -s 8 -n 50 -f 140
tap_eq "50 more lost" "packets=178 drops=62 queued=128" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops) queued=$(sw_attr 0 queued)"
sw_drain $W/a.stp >/dev/null
tap_check "mttdecode the capture" sw_decode $W/a.stp $W/a.json
tap_eq "each loss marked where it happened" \
	"OK msgs=128 incomplete=0 other=0 A=128 timeline=L50,A50-127,L12,A140-189" \
	"$(sw_summary $W/a.json -l -k -t A -s 8 -n 190)"
tap_eq "markers count every lost packet" "markers=2 lost=62" \
	"$(swstm_check losses $W/a.json)"
tap_eq "sink empty" 0 "$(sw_attr 0 queued)"

# the packet that carries the 12 drops is itself overwritten: its count
# goes to the marker of the gap (the old code lost it: L200)
echo 0 >$OVW
tap_check "write 140 messages, drop mode" swstm_write -i a -s 8 -n 140 -f 1000
echo 1 >$OVW
tap_check "write 200 messages, overwrite mode" swstm_write -i a -s 8 -n 200 -f 2000
tap_eq "12 + 200 more lost" "packets=$((178 + 128 + 200)) drops=$((62 + 212))" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops)"
sw_drain $W/b.stp >/dev/null
tap_check "mttdecode the capture" sw_decode $W/b.stp $W/b.json
# lost before 2072: 1000..1127 (128), 1128..1139 (12), 2000..2071 (72)
tap_eq "one marker counting the 212 lost, then the newest 128" \
	"OK msgs=128 incomplete=0 other=0 A=128 timeline=L212,A2072-2199" \
	"$(sw_summary $W/b.json -l -k -t A -s 8 -f 1000 -n 1200)"
tap_eq "marker count exact" "markers=1 lost=212" "$(swstm_check losses $W/b.json)"
echo 0 >$OVW

# --- contended writers, sink larger than everything written --------------
# 16 MiB: 524288 slots; 2 x 30000 packets
N=30000
sw_reload sink_size=16777216
sw_policy swstm.0.lost
sw_node swstm.0.lost w "2 2" "10 19"
sw_two_writers w $N 8
tap_eq "both writers done" "OK OK" "$(head -qn 1 $W/a.out $W/b.out | tr '\n' ' ' | sed 's/ $//')"
tap_eq "the sink never filled: nothing dropped" \
	"packets=$((2 * N)) drops=0 queued=$((2 * N))" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops) queued=$(sw_attr 0 queued)"
sw_drain $W/c.stp >/dev/null
tap_check "mttdecode the capture" sw_decode $W/c.stp $W/c.json
tap_eq "no loss marked" "markers=0 lost=0" "$(swstm_check losses $W/c.json)"
tap_check "writer A: all $N messages in order" \
	swstm_check msgs -m 2 -c "$ca" -t A -s 8 -n $N $W/c.json
tap_check "writer B: all $N messages in order" \
	swstm_check msgs -m 2 -c "$cb" -t B -s 8 -n $N $W/c.json

# --- contended writers filling a small sink, no reader --------------------
# 2048 slots, 2 x 1100 packets: the first 2048 are stored, whoever wrote
# them; once full, the sink stays full, so the other 152 are lost after
# them, in one marker at the end
N=1100
sw_reload sink_size=65536
sw_policy swstm.0.lost
sw_node swstm.0.lost w "2 2" "10 19"
sw_two_writers w $N 8
tap_eq "both writers done" "OK OK" "$(head -qn 1 $W/a.out $W/b.out | tr '\n' ' ' | sed 's/ $//')"
tap_eq "sent = stored + dropped" "packets=2048 drops=152" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops)"
sw_drain $W/d.stp >/dev/null
tap_check "mttdecode the capture" sw_decode $W/d.stp $W/d.json
tap_eq "one marker, counting all 152 lost" "markers=1 lost=152" \
	"$(swstm_check losses $W/d.json)"
sa=$(sw_summary $W/d.json -l -m 2 -c "$ca" -t A -s 8 -n $N)
sb=$(sw_summary $W/d.json -l -m 2 -c "$cb" -t B -s 8 -n $N)
ka=$(echo "$sa" | sed -n 's/.* A=\([0-9]*\) .*/\1/p')
kb=$(echo "$sb" | sed -n 's/.* B=\([0-9]*\) .*/\1/p')
tap_diag "stored: $ka of writer A, $kb of writer B"
tap_eq "received: 2048 messages in all" 2048 $((ka + kb))
# each writer's stored messages are its first ones, with no gap
tap_check "writer A: its first $ka messages, complete" \
	swstm_check msgs -m 2 -c "$ca" -t A -s 8 -n "$ka" $W/d.json
tap_check "writer B: its first $kb messages, complete" \
	swstm_check msgs -m 2 -c "$cb" -t B -s 8 -n "$kb" $W/d.json
tap_match "the loss is marked after the last message" ",L152\$" "$sa"

sw_finish
exit 0
