#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Pinning a component through policy node mtt/<name>: each component is
# also an stm_source "mtt/<name>" (sysfs: mtt!<name>).  Linked, its
# frames arrive on the master/channel of node mtt/<name> (without that
# node the class looks in mtt, whose channels the source mtt holds:
# ENOSPC); unlinked, on its channel of the mtt range again.  Then an
# hrtimer traces 2000 values while the source is unlinked and relinked
# 20 times: every frame is well formed, arrives at most once, and what
# arrives plus what was dropped is what was traced.  Unloading the
# component removes its source; mtt unloads clean.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/mtt_lib.sh

W=$SW_WORK
C=$MTT_COMPS/mtt_test
P=/sys/class/stm_source/mtt!mtt_test
tap_check "stack, mtt, policy node mtt, source linked" mtt_setup "" sink_size=8388608
tap_check "load mtt_test" mod_load mtt_test
ID=$(mtt_id mtt_test)
CH=$(cat $C/channel)
tap_check "its source mtt/mtt_test is mtt!mtt_test in sysfs" test -d "$P"
tap_eq "not linked" "<none>" "$(cat $P/stm_source_link)"
tap_eq "frames go through mtt" mtt "$(cat $C/source)"
tap_errno "no node mtt/mtt_test: node mtt, full" ENOSPC fsop writeln $P/stm_source_link swstm.0
tap_check "node mtt/mtt_test: master 3, channel 7" sw_node "$MTT_POL" mtt/mtt_test "3 3" "7 7"
tap_errno "link mtt!mtt_test" OK fsop writeln $P/stm_source_link swstm.0
tap_eq "linked" swstm.0 "$(cat $P/stm_source_link)"
tap_eq "frames go through mtt/mtt_test" mtt/mtt_test "$(cat $C/source)"
tap_errno "trace 20 pinned" OK mtt_run "trace 20"
tap_errno "unlink (no such device)" EINVAL fsop writeln $P/stm_source_link none
tap_eq "frames go through mtt again" mtt "$(cat $C/source)"
tap_errno "trace 10 unpinned" OK mtt_run "trace 10"
tap_errno "relink" OK fsop writeln $P/stm_source_link swstm.0
tap_errno "trace 5 pinned" OK mtt_run "trace 5"

mtt_frames $W/a.stp $W/a.txt
tap_eq "no malformed frame" 0 "$(grep -c error= $W/a.txt)"
tap_eq "pinned: 25 traces on master 3, channel 7" 25 \
	"$(grep -c "^m=3 c=7 .* comp=$ID .* hint=seq " $W/a.txt)"
tap_eq "unpinned: 10 traces on master 2, channel $CH" 10 \
	"$(grep -c "^m=2 c=$CH .* comp=$ID .* hint=seq " $W/a.txt)"
tap_eq "each link: a META frame on the pinned channel" 2 \
	"$(grep -c "^m=3 c=7 cmd=0x4000 .* comp=$ID " $W/a.txt)"
tap_eq "frames = sent" "sent $(grep -c " comp=$ID " $W/a.txt)" "$(head -n 1 $C/stats)"
tap_eq "nothing dropped" "dropped 0" "$(tail -n 1 $C/stats)"

# unlink and relink while an hrtimer traces
s0=$(sed -n 's/^sent //p' $C/stats)
d0=$(sed -n 's/^dropped //p' $C/stats)
mtt_run "timer 2000" >$W/timer.out &
TP=$!
i=0
while [ $i -lt 20 ]; do
	fsop writeln $P/stm_source_link none >/dev/null
	fsop writeln $P/stm_source_link swstm.0 >/dev/null
	i=$((i + 1))
done
wait_until 120 sw_gone $TP || dump_stuck "mtt_test timer run"
wait $TP
tap_eq "timer run" OK "$(cat $W/timer.out)"
tap_eq "2000 traces from the hrtimer" timer=2000 "$(cat /sys/module/mtt_test/parameters/result)"
tap_eq "linked at the end" swstm.0 "$(cat $P/stm_source_link)"
s1=$(sed -n 's/^sent //p' $C/stats)
d1=$(sed -n 's/^dropped //p' $C/stats)
mtt_frames $W/b.stp $W/b.txt
tap_eq "no malformed frame" 0 "$(grep -c error= $W/b.txt)"
tap_eq "frames = sent" "$((s1 - s0))" "$(grep -c " comp=$ID " $W/b.txt)"
n=$(grep -c " comp=$ID .* hint=tmr " $W/b.txt)
tap_eq "arrived + dropped = 2000" 2000 "$((n + d1 - d0))"
tap_eq "no value twice" "" "$(grep " comp=$ID .* hint=tmr " $W/b.txt | sed 's/.*data=//' | sort | uniq -d)"
tap_diag "pinned $(grep -c "^m=3 c=7 .* hint=tmr " $W/b.txt), mtt range $(grep -c "^m=2 .* hint=tmr " $W/b.txt), dropped $((d1 - d0))"
tap_eq "every frame on mtt/mtt_test's channel or mtt's range" 0 \
	"$(grep " comp=$ID " $W/b.txt | grep -v -c -e '^m=3 c=7 ' -e '^m=2 c=[0-9] ' -e '^m=2 c=[1-5][0-9] ' -e '^m=2 c=6[0-3] ')"

tap_check "unload mtt_test (its source linked)" mod_unload mtt_test
tap_check "its source is gone" test ! -e "$P"
tap_check "unload mtt" mod_unload mtt
tap_check "mtt's source is gone" test ! -e $MTT_SRC
tap_dmesg_clean "kernel log clean"
sw_finish
exit 0
