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
stack_load sink_size=65536 && mod_load stm_ctx_test p_burst=16 p_sleep_us=100 h_period_us=200
sw_policy swstm.0.ctx
sw_node swstm.0.ctx ctx_test "1 1" "0 63"
fsop write /sys/class/stm_source/ctx_test/stm_source_link swstm.0
SINK=/sys/class/misc/swstm.0-sink
lost_some() { [ "$(cat $SINK/drops)" -gt "$drops0" ]; }
read_some() { [ "$(cat $SINK/bytes_read)" -ge $((read0 + 131072)) ]; }
n=0
for mode in 1 0 1 0; do
n=$((n + 1))
echo $mode > $SINK/overwrite
drops0=$(cat $SINK/drops)
rm -f $W/l.stp $W/rstop
# The writers fill the 64 KiB sink before the reader starts, so packets
# are lost for sure; then the reader drains two sinks' worth while they
# keep writing.  Waits are for those events; their 240 s only guard a
# hang (and keep a hung run inside the VM's own time limit, so the
# runs after it still report).
if ! echo 1 > $PAR/run; then
	tap_fail "run $n overwrite=$mode: echo 1 > run"
	continue
fi
if ! wait_until 240 lost_some; then
	dump_stuck "run $n: no packet lost (drops $(cat $SINK/drops), $(cat $PAR/ftrace_hits 2>/dev/null) F hits)"
fi
read0=$(cat $SINK/bytes_read)
swstm_read drain -o $W/l.stp -b 256 -g $W/rstop >/dev/null &
rpid=$!
if ! wait_until 240 read_some; then
	dump_stuck "run $n: reader got $(($(cat $SINK/bytes_read) - read0)) of 131072 bytes"
fi
echo 0 > $PAR/run
touch $W/rstop
wait $rpid
drops=$(($(cat $SINK/drops) - drops0))
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
