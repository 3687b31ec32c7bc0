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
# Every message is 8 bytes: one STP packet (two on upstream's class).
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
# P packets per 8-byte message: 1 with our p_basic (one marked D64TS),
# 2 with upstream's (D64TS and a FLAG, Documentation/abi.rst); every
# count below follows from P and the sink's slots.
P=$(sw_npackets 8)
if stm_class_upstream; then
	tap_diag "upstream 6.12's p_basic: $P packets per 8-byte message (ours: 1, no FLAG)"
fi
# M: messages that fill 128 slots
M=$((128 / P))
# sat N: a loss marker's count (it saturates at 255)
sat() { echo $(($1 > 255 ? 255 : $1)); }

W=$SW_WORK
OVW=/sys/class/misc/swstm.0-sink/overwrite

# --- overwrite mode: losses before an overwritten packet -------------------
# 4 KiB: 128 packet slots
stack_load sink_size=4096
sw_policy swstm.0.lost
sw_node swstm.0.lost a "1 1" "1 1"
tap_eq "sink of 128 slots" 4096 "$(sw_attr 0 size)"

# drop mode: messages 0..M-1 stored, the rest of the 140P packets dropped
# (ours: 12, upstream: 152; recorded at the head)
D1=$((140 * P - 128))
tap_check "write 140 messages, drop mode, no reader" swstm_write -i a -s 8 -n 140
tap_eq "drop mode: $D1 dropped" "packets=128 drops=$D1 queued=128" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops) queued=$(sw_attr 0 queued)"
# overwrite mode: 140..189 discard 0..49; 140 carries the D1 drops
echo 1 >$OVW
tap_check "write 50 messages, overwrite mode" swstm_write -i a -s 8 -n 50 -f 140
tap_eq "$((50 * P)) more lost" "packets=$((128 + 50 * P)) drops=$((D1 + 50 * P)) queued=128" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops) queued=$(sw_attr 0 queued)"
sw_drain $W/a.stp >/dev/null
tap_check "mttdecode the capture" sw_decode $W/a.stp $W/a.json
tap_eq "each loss marked where it happened" \
	"OK msgs=$M incomplete=0 other=0 A=$M timeline=L$((50 * P)),A50-$((M - 1)),L$D1,A140-189" \
	"$(sw_summary $W/a.json -l -k -t A -s 8 -n 190)"
tap_eq "markers count every lost packet" "markers=2 lost=$((D1 + 50 * P))" \
	"$(swstm_check losses $W/a.json)"
tap_eq "sink empty" 0 "$(sw_attr 0 queued)"

# the packet that carries the D1 drops is itself overwritten: its count
# goes to the marker of the gap (the old code lost it: L200 on ours)
p1=$(sw_attr 0 packets)
d1=$(sw_attr 0 drops)
echo 0 >$OVW
tap_check "write 140 messages, drop mode" swstm_write -i a -s 8 -n 140 -f 1000
echo 1 >$OVW
tap_check "write 200 messages, overwrite mode" swstm_write -i a -s 8 -n 200 -f 2000
tap_eq "$D1 + $((200 * P)) more lost" "packets=$((p1 + 128 + 200 * P)) drops=$((d1 + D1 + 200 * P))" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops)"
sw_drain $W/b.stp >/dev/null
tap_check "mttdecode the capture" sw_decode $W/b.stp $W/b.json
# lost before 2200-M, in packets: 1000..1000+M-1 (128), the D1 dropped,
# 2000..2199-M (200P - 128); ours: 128 + 12 + 72
# (upstream: 552, the marker saturates at 255)
L2=$((128 + D1 + 200 * P - 128))
tap_eq "one marker counting the $L2 lost, then the newest $M messages" \
	"OK msgs=$M incomplete=0 other=0 A=$M timeline=L$(sat $L2),A$((2200 - M))-2199" \
	"$(sw_summary $W/b.json -l -k -t A -s 8 -f 1000 -n 1200)"
tap_eq "marker count exact" "markers=1 lost=$(sat $L2)" "$(swstm_check losses $W/b.json)"
echo 0 >$OVW

# --- contended writers, sink larger than everything written --------------
# 16 MiB: 524288 slots; 2 x 30000 messages, 2 x 30000P packets
N=30000
sw_reload sink_size=16777216
sw_policy swstm.0.lost
sw_node swstm.0.lost w "2 2" "10 19"
sw_two_writers w $N 8
tap_eq "both writers done" "OK OK" "$(head -qn 1 $W/a.out $W/b.out | tr '\n' ' ' | sed 's/ $//')"
tap_eq "the sink never filled: nothing dropped" \
	"packets=$((2 * N * P)) drops=0 queued=$((2 * N * P))" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops) queued=$(sw_attr 0 queued)"
sw_drain $W/c.stp >/dev/null
tap_check "mttdecode the capture" sw_decode $W/c.stp $W/c.json
tap_eq "no loss marked" "markers=0 lost=0" "$(swstm_check losses $W/c.json)"
tap_check "writer A: all $N messages in order" \
	swstm_check msgs -m 2 -c "$ca" -t A -s 8 -n $N $W/c.json
tap_check "writer B: all $N messages in order" \
	swstm_check msgs -m 2 -c "$cb" -t B -s 8 -n $N $W/c.json

# --- contended writers filling a small sink, no reader --------------------
# 2048 slots, 2 x 1100 messages (2200P packets): the first 2048 packets
# are stored, whoever wrote them; once full, the sink stays full, so the
# other 2200P - 2048 (ours: 152) are lost after them, in one marker at
# the end.  Each writer's stored packets are the first of its own; on
# upstream's class a writer's last stored packet may be a message's DATA
# without its FLAG: that message is incomplete.
N=1100
D4=$((2 * N * P - 2048))
sw_reload sink_size=65536
sw_policy swstm.0.lost
sw_node swstm.0.lost w "2 2" "10 19"
sw_two_writers w $N 8
tap_eq "both writers done" "OK OK" "$(head -qn 1 $W/a.out $W/b.out | tr '\n' ' ' | sed 's/ $//')"
tap_eq "sent = stored + dropped" "packets=2048 drops=$D4" \
	"packets=$(sw_attr 0 packets) drops=$(sw_attr 0 drops)"
sw_drain $W/d.stp >/dev/null
tap_check "mttdecode the capture" sw_decode $W/d.stp $W/d.json
tap_eq "one marker, counting all $D4 lost" "markers=1 lost=$(sat $D4)" \
	"$(swstm_check losses $W/d.json)"
sa=$(sw_summary $W/d.json -l -m 2 -c "$ca" -t A -s 8 -n $N)
sb=$(sw_summary $W/d.json -l -m 2 -c "$cb" -t B -s 8 -n $N)
ka=$(echo "$sa" | sed -n 's/.* A=\([0-9]*\) .*/\1/p')
kb=$(echo "$sb" | sed -n 's/.* B=\([0-9]*\) .*/\1/p')
ia=$(echo "$sa" | sed -n 's/.* incomplete=\([0-9]*\) .*/\1/p')
ib=$(echo "$sb" | sed -n 's/.* incomplete=\([0-9]*\) .*/\1/p')
tap_diag "stored: $ka of writer A ($ia incomplete), $kb of writer B ($ib incomplete)"
tap_check "at most one incomplete message per writer, none with ours ($ia, $ib < $P)" \
	test "${ia:-9}" -lt "$P" -a "${ib:-9}" -lt "$P"
tap_eq "received: 2048 packets in all ($P per message, $((P - 1)) of an incomplete one)" \
	2048 $((P * (${ka:-0} + ${kb:-0}) + (P - 1) * (${ia:-0} + ${ib:-0})))
# each writer's stored messages are its first ones, with no gap, then the
# marker (the other writer's messages count as "other"; a writer that
# started after the sink had filled has none)
# first TAG K: the timeline of messages 0..K-1 of TAG as swstm_check
# writes it ("A0-4," a run, "A0," one message), none if K is 0
first() {
	case $2 in
	0) ;;
	1) echo "${1}0," ;;
	*) echo "${1}0-$(($2 - 1))," ;;
	esac
}
tap_eq "writer A: its first $ka messages, then the loss" \
	"OK msgs=$((ka + ia)) incomplete=$ia other=$((kb + ib)) A=$ka timeline=$(first A "$ka")L$(sat $D4)" "$sa"
tap_eq "writer B: its first $kb messages, then the loss" \
	"OK msgs=$((kb + ib)) incomplete=$ib other=$((ka + ia)) B=$kb timeline=$(first B "$kb")L$(sat $D4)" "$sb"
if [ "$P" -eq 1 ]; then
	tap_check "writer A: its first $ka messages, complete" \
		swstm_check msgs -m 2 -c "$ca" -t A -s 8 -n "$ka" $W/d.json
	tap_check "writer B: its first $kb messages, complete" \
		swstm_check msgs -m 2 -c "$cb" -t B -s 8 -n "$kb" $W/d.json
fi

sw_finish
exit 0
