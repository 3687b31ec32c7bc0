#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A full sink in both modes.  Drop mode: what does not fit is refused and
# counted, a GERR with the lost count sits exactly where it was lost,
# data before and after is intact, the count saturates at 255.
# Overwrite mode: the oldest data goes, the newest is kept, the stream
# starts with a GERR for what was overwritten and still decodes.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
# P packets per 56-byte message: 7 DATA with our p_basic, 8 with
# upstream's (a FLAG ends each message, Documentation/abi.rst).
P=$(sw_npackets 56)
# S slots per message, and whether a message is stored or lost whole.
# Our class: one record of 3 slots (16 bytes of header, 7 x 9 bytes of
# packets), whole.  Upstream's class writes with preemption enabled, so
# swstm stores each packet as a record of its own (one slot): a message
# may be cut (Documentation/swstm.rst, Write path).
if stm_class_upstream; then
	tap_diag "upstream 6.12's p_basic: $P packets per 56-byte message (ours: 7, no FLAG)"
	S=$P
	WHOLE=0
else
	S=3
	WHOLE=1
fi
# stored N: packets stored of N messages written into 128 free slots
stored() {
	if [ $WHOLE = 1 ]; then
		k=$((128 / S))
		[ "$1" -lt $k ] && k=$1
		echo $((k * P))
	else
		k=$(($1 * P))
		[ $k -gt 128 ] && k=128
		echo $k
	fi
}
# sat N: a loss marker's count (it saturates at 255)
sat() { echo $(($1 > 255 ? 255 : $1)); }
# FULL messages fit whole, and REM packets of the next (0 or 1
# incomplete message)
FULL=$(($(stored 1000) / P))
REM=$(($(stored 1000) % P))
INC=0
[ "$REM" -eq 0 ] || INC=1

W=$SW_WORK
# 4 KiB: 128 slots
stack_load sink_size=4096
sw_policy swstm.0.full
sw_node swstm.0.full a "1 1" "1 1"
tap_eq "sink size 4096" 4096 "$(sw_attr 0 size)"

# --- drop mode -------------------------------------------------------------
# 50 messages: FULL messages and REM packets of the next fit (ours: 42
# messages, 8 dropped whole, 56 packets; upstream: 16 messages)
D1=$((50 * P - $(stored 50)))
tap_check "write 50 messages without a reader" swstm_write -i a -s 56 -n 50
tap_eq "packets stored" "$(stored 50)" "$(sw_attr 0 packets)"
tap_eq "packets dropped" $D1 "$(sw_attr 0 drops)"
# payload bytes: FULL messages and REM 8-byte DATA packets (a FLAG has none)
tap_eq "bytes stored" $((FULL * 56 + REM * 8)) "$(sw_attr 0 bytes_written)"
# a reader drains them (one read takes it all), then 5 more messages
# arrive while it reads
sw_reader $W/drop.stp
sw_wait_attr 0 bytes_read
tap_check "write 5 more while a reader drains" swstm_write -i a -s 56 -n 5 -f 50
sw_reader_stop
tap_check "mttdecode the capture" sw_decode $W/drop.stp $W/drop.json
tap_eq "drop mode: loss marked where it happened, data around it intact" \
	"OK msgs=$((FULL + INC + 5)) incomplete=$INC other=0 A=$((FULL + 5)) timeline=A0-$((FULL - 1)),L$(sat $D1),A50-54" \
	"$(sw_summary $W/drop.json -l -t A -s 56 -n 55)"
tap_eq "one loss marker counting $D1" "markers=1 lost=$(sat $D1)" \
	"$(swstm_check losses $W/drop.json)"
tap_eq "packets counted" $(($(stored 50) + 5 * P)) "$(sw_attr 0 packets)"
tap_eq "drops unchanged" $D1 "$(sw_attr 0 drops)"
tap_eq "bytes_read is what the reader got" "$(wc -c <$W/drop.stp | tr -d ' ')" "$(sw_attr 0 bytes_read)"
export_file $W/drop.stp swstm-ocsd-drop.stp

# saturation: 100 messages, all but the first FULL (and REM) dropped
tap_check "write 100 messages without a reader" swstm_write -i a -s 56 -n 100 -f 100
sw_drain $W/sat.stp >/dev/null
sw_decode $W/sat.stp $W/sat.json
tap_eq "drops counted beyond 255" $((D1 + 100 * P - $(stored 100))) "$(sw_attr 0 drops)"
tap_eq "the marker saturates at 255" "markers=1 lost=255" "$(swstm_check losses $W/sat.json)"
tap_eq "the first $FULL messages are intact" \
	"OK msgs=$((FULL + INC)) incomplete=$INC other=0 A=$FULL timeline=A100-$((100 + FULL - 1)),L255" \
	"$(sw_summary $W/sat.json -l -t A -s 56 -f 100 -n 100)"

# --- overwrite mode --------------------------------------------------------
echo 1 >/sys/class/misc/swstm.0-sink/overwrite
d0=$(sw_attr 0 drops)
p0=$(sw_attr 0 packets)
# 60 messages: the newest stay.  Ours: the newest 42 (218..259), the 18
# before them go whole (126 packets); upstream: the newest 128 packets,
# messages 244..259
if [ $WHOLE = 1 ]; then
	KEEP=$((128 / S))
	OVW=$(((60 - KEEP) * P))
	INCO=0
else
	OVW=$((60 * P - 128))
	KEEP=$((60 - OVW / P))
	INCO=0
	[ $((OVW % P)) -eq 0 ] || { KEEP=$((KEEP - 1)); INCO=1; }
fi
tap_check "write 60 messages in overwrite mode" swstm_write -i a -s 56 -n 60 -f 200
tap_eq "overwritten packets counted as drops" $OVW $(($(sw_attr 0 drops) - d0))
tap_eq "every packet was stored" $((60 * P)) $(($(sw_attr 0 packets) - p0))
sw_drain $W/ovw.stp >/dev/null
tap_check "mttdecode the capture" sw_decode $W/ovw.stp $W/ovw.json
tap_eq "overwrite mode: newest kept, loss marked first" \
	"OK msgs=$((KEEP + INCO)) incomplete=$INCO other=0 A=$KEEP timeline=L$(sat $OVW),A$((260 - KEEP))-259" \
	"$(sw_summary $W/ovw.json -l -k -t A -s 56 -f 200 -n 60)"
export_file $W/ovw.stp swstm-ocsd-overwrite.stp
# after the overwrite, new data flows normally
tap_check "write 10 more" swstm_write -i a -s 56 -n 10 -f 300
sw_drain $W/after.stp >/dev/null
sw_decode $W/after.stp $W/after.json
tap_eq "data after an overwrite is intact" \
	"OK msgs=10 incomplete=0 other=0 A=10 timeline=A300-309" \
	"$(sw_summary $W/after.json -t A -s 56 -f 300 -n 10)"

# overwrite with a reader draining at the same time: the stream decodes
sw_reader $W/ovr.stp -b 512
tap_check "write 2000 messages while a slow reader drains" \
	swstm_write -i a -s 56 -n 2000 -f 1000
sw_reader_stop
tap_check "mttdecode the capture" sw_decode $W/ovr.stp $W/ovr.json
tap_check "messages in order, the newest kept" \
	swstm_check msgs -l -k -t A -s 56 -f 1000 -n 2000 $W/ovr.json
tap_errno "ring empty afterwards, nothing pending" EAGAIN swstm_read eagain

sw_finish
exit 0
