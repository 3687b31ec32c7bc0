#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Writes from hard-IRQ context: stm_test_source's hrtimer writes "tick N"
# through swstm while process-context writers run on both CPUs and a
# reader drains, so timer interrupts land in the middle of other
# writers' packets.  Every tick arrives, in order, and nothing else is
# corrupted.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
SRC=/sys/class/stm_source/test_source
stack_load sink_size=16777216
mod_load stm_test_source period_us=200
sw_policy swstm.0.irq
sw_node swstm.0.irq test_source "3 3" "7 7"
sw_node swstm.0.irq w "3 3" "8 15"
ncpu=$(grep -c ^processor /proc/cpuinfo)

sw_reader $W/irq.stp
rm -f $W/go $W/ra $W/rb
swstm_write -i w -t A -s 8-64 -n 5000 -c 0 -r $W/ra -g $W/go >$W/a.out &
apid=$!
swstm_write -i w -t B -s 8-64 -n 5000 -c $((ncpu > 1 ? 1 : 0)) -r $W/rb -g $W/go >$W/b.out &
bpid=$!
sw_wait_file $W/ra && sw_wait_file $W/rb
tap_errno "link test_source to swstm.0 (hrtimer every 200 us)" OK \
	fsop write $SRC/stm_source_link swstm.0
touch $W/go
wait $apid $bpid
ticked() { test "$(cat /sys/module/stm_test_source/parameters/ticks)" -gt 0; }
tap_check "the timer ticks (waited for, at most 600 s)" wait_until 600 ticked
tap_errno "unlink" EINVAL fsop write $SRC/stm_source_link none
sw_reader_stop
ticks=$(cat /sys/module/stm_test_source/parameters/ticks)
tap_check "the timer wrote ($ticks ticks)" test "$ticks" -gt 0
tap_eq "process-context writers done" "OK OK" "$(head -qn 1 $W/a.out $W/b.out | tr '\n' ' ' | sed 's/ $//')"

sw_decode $W/irq.stp $W/irq.json
swstm_check text -m 3 -c 7 $W/irq.json >$W/ticks.txt
tap_eq "every tick arrived" "$ticks" "$(grep -c . $W/ticks.txt)"
first=$(head -n 1 $W/ticks.txt | sed 's/^tick //')
seq "$first" $((first + ticks - 1)) | sed 's/^/tick /' >$W/ticks.want
tap_check "ticks consecutive and in order" cmp -s $W/ticks.want $W/ticks.txt
ca=$(sed -n 's/^master=3 channel=//p' $W/a.out)
cb=$(sed -n 's/^master=3 channel=//p' $W/b.out)
tap_check "writer A intact and in order" \
	swstm_check msgs -m 3 -c "$ca" -t A -s 8-64 -n 5000 $W/irq.json
tap_check "writer B intact and in order" \
	swstm_check msgs -m 3 -c "$cb" -t B -s 8-64 -n 5000 $W/irq.json
tap_eq "no drops" 0 "$(sw_attr 0 drops)"

sw_finish
exit 0
