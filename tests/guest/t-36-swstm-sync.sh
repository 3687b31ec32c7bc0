#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Periodic synchronisation: ASYNC + VERSION + FREQ every sync_interval
# bytes at a packet boundary, master and channel sent again after each,
# only at open with sync_interval=0, and a decoder that joins mid-stream
# picks up at the next sync.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
for iv in 256 1000; do
	stack_load sync_interval=$iv nr_channels=512
	sw_policy swstm.0.sy
	sw_node swstm.0.sy a "9 9" "300 300"
	tap_check "sync_interval=$iv: write" swstm_write -i a -s 8-120 -n 300
	sw_drain $W/s$iv.stp >/dev/null
	out=$(swstm_check sync -i $iv $W/s$iv.stp)
	tap_match "sync_interval=$iv: a sync every $iv bytes" '^OK' "$out"
	tap_diag "$(echo $out) bytes=$(wc -c <$W/s$iv.stp)"
	sw_decode $W/s$iv.stp $W/s$iv.json
	tap_check "sync_interval=$iv: messages intact across syncs" \
		swstm_check msgs -m 9 -c 300 -s 8-120 -n 300 $W/s$iv.json
	sw_policy_rm
	stack_unload
done
export_file $W/s256.stp swstm-ocsd-sync256.stp

# join mid-stream: drop the first 1000 bytes
dd if=$W/s256.stp of=$W/cut.stp bs=1000 skip=1 2>/dev/null
sw_decode $W/cut.stp $W/cut.json
tap_check "a decoder joining mid-stream resynchronises" \
	swstm_check msgs -l -k -e 250 -m 9 -c 300 -s 8-120 -n 300 $W/cut.json

stack_load sync_interval=0 nr_channels=512
sw_policy swstm.0.sy
sw_node swstm.0.sy a "9 9" "300 300"
swstm_write -i a -s 8-120 -n 300 >/dev/null
sw_drain $W/s0.stp >/dev/null
tap_eq "sync_interval=0: one sync, at the start" "OK syncs=1" \
	"$(swstm_check sync $W/s0.stp | tr '\n' ' ' | sed 's/ $//')"

sw_finish
exit 0
