#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regression test for loss-marker placement in swstm (found by the context
# test): writers in every context overrun a small sink with a slow reader,
# in drop and overwrite mode; every hole in every (context, CPU) sequence
# must sit exactly at a GERR marker, and no message may be spliced.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
W=$SW_WORK
PAR=/sys/module/stm_ctx_test/parameters
stack_load sink_size=65536 && mod_load stm_ctx_test p_burst=16 p_sleep_us=100 h_period_us=50
sw_policy swstm.0.ctx
sw_node swstm.0.ctx ctx_test "1 1" "0 63"
fsop write /sys/class/stm_source/ctx_test/stm_source_link swstm.0
n=0
for mode in 1 0 1 0; do
n=$((n + 1))
echo $mode > /sys/class/misc/swstm.0-sink/overwrite
drops0=$(cat /sys/class/misc/swstm.0-sink/drops)
rm -f $W/l.stp
# The writers fill the 64 KiB sink before the reader starts, so packets
# are lost for sure; then the reader drains while they keep writing.
echo 1 > $PAR/run
sleep 1
swstm_read drain -o $W/l.stp -i 3000 -b 256 >/dev/null &
rpid=$!
sleep 2
echo 0 > $PAR/run
wait $rpid
drops=$(($(cat /sys/class/misc/swstm.0-sink/drops) - drops0))
if [ "$drops" -gt 0 ]; then
	tap_ok "run $n overwrite=$mode lost packets ($drops): the test bites"
else
	tap_fail "run $n overwrite=$mode lost packets ($drops): the test bites"
fi
mttdecode --format json $W/l.stp > $W/l.json
if ctx_check -m 1-1 -W 32 -C 4 $W/l.json > $W/c.out; then
	tap_ok "run $n overwrite=$mode clean"
else
	tap_fail "run $n overwrite=$mode"
	head -n 8 $W/c.out | sed 's/^/# /'
	export_file $W/l.stp lossy-$n-$mode.stp
fi
done
rmmod stm_ctx_test
sw_finish
stack_unload
