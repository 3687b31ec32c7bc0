#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A full sink in both modes.  Drop mode: new packets are refused and
# counted, a GERR with the lost count sits exactly where they were lost,
# data before and after is intact, the count saturates at 255.
# Overwrite mode: the oldest packets go, the newest are kept, the stream
# starts with a GERR for what was overwritten and still decodes.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
if stm_class_upstream; then
	tap_skip "swstm full-sink counts" \
		"expectations are computed for our p_basic (7 packets per 56-byte message); upstream's adds a FLAG (Documentation/abi.rst): not yet recomputed for it"
	exit 0
fi

W=$SW_WORK
# 4 KiB: 128 packet slots; 56-byte messages are 7 packets each
stack_load sink_size=4096
sw_policy swstm.0.full
sw_node swstm.0.full a "1 1" "1 1"
tap_eq "sink size 4096" 4096 "$(sw_attr 0 size)"

# --- drop mode -------------------------------------------------------------
# 20 messages = 140 packets: 18 messages and 2 packets of the 19th fit
tap_check "write 20 messages without a reader" swstm_write -i a -s 56 -n 20
tap_eq "packets stored" 128 "$(sw_attr 0 packets)"
tap_eq "packets dropped" 12 "$(sw_attr 0 drops)"
tap_eq "bytes stored" $((128 * 8)) "$(sw_attr 0 bytes_written)"
# a reader drains them (one read takes it all), then 5 more messages
# arrive while it reads
sw_reader $W/drop.stp
sw_wait_attr 0 bytes_read
tap_check "write 5 more while a reader drains" swstm_write -i a -s 56 -n 5 -f 20
sw_reader_stop
tap_check "mttdecode the capture" sw_decode $W/drop.stp $W/drop.json
tap_eq "drop mode: loss marked where it happened, data around it intact" \
	"OK msgs=24 incomplete=1 other=0 A=23 timeline=A0-17,L12,A20-24" \
	"$(sw_summary $W/drop.json -l -t A -s 56 -n 25)"
tap_eq "one loss marker counting 12" "markers=1 lost=12" "$(swstm_check losses $W/drop.json)"
tap_eq "packets counted" $((128 + 35)) "$(sw_attr 0 packets)"
tap_eq "drops unchanged" 12 "$(sw_attr 0 drops)"
tap_eq "bytes_read is what the reader got" "$(wc -c <$W/drop.stp | tr -d ' ')" "$(sw_attr 0 bytes_read)"
export_file $W/drop.stp swstm-ocsd-drop.stp

# saturation: 100 messages = 700 packets, 572 dropped
tap_check "write 100 messages without a reader" swstm_write -i a -s 56 -n 100 -f 100
sw_drain $W/sat.stp >/dev/null
sw_decode $W/sat.stp $W/sat.json
tap_eq "drops counted beyond 255" $((12 + 572)) "$(sw_attr 0 drops)"
tap_eq "the marker saturates at 255" "markers=1 lost=255" "$(swstm_check losses $W/sat.json)"
tap_eq "the first 18 messages are intact" \
	"OK msgs=19 incomplete=1 other=0 A=18 timeline=A100-117,L255" \
	"$(sw_summary $W/sat.json -l -t A -s 56 -f 100 -n 100)"

# --- overwrite mode --------------------------------------------------------
echo 1 >/sys/class/misc/swstm.0-sink/overwrite
d0=$(sw_attr 0 drops)
p0=$(sw_attr 0 packets)
# 40 messages = 280 packets: the newest 128 stay, i.e. the last 2 packets
# of message 21 and messages 22..39
tap_check "write 40 messages in overwrite mode" swstm_write -i a -s 56 -n 40 -f 200
tap_eq "overwritten packets counted as drops" 152 $(($(sw_attr 0 drops) - d0))
tap_eq "every packet was stored" 280 $(($(sw_attr 0 packets) - p0))
sw_drain $W/ovw.stp >/dev/null
tap_check "mttdecode the capture" sw_decode $W/ovw.stp $W/ovw.json
tap_eq "overwrite mode: newest kept, loss marked first" \
	"OK msgs=19 incomplete=1 other=0 A=18 timeline=L152,A222-239" \
	"$(sw_summary $W/ovw.json -l -k -t A -s 56 -f 200 -n 40)"
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
