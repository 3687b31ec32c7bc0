#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A component's last mtt_close() against writes to its sysfs attributes:
# mtt_test opens and closes "mtt_race" a fixed number of times while two
# loops write its channel and its filter.  Between the close giving its
# channel back and its directory going (a grace period, its source's
# removal), a write to channel used to put that channel a second time
# (the channel count went below zero: a WARNING in the kernel log) and
# a write to filter made the closed component active again.  Each write
# must now succeed (component open), fail with ENODEV (closing) or
# ENOENT (directory gone), and the kernel log stay clean.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/mtt_lib.sh

W=$SW_WORK
D=$MTT_COMPS/mtt_race
N=200
tap_check "stack, mtt, policy node mtt, source linked" mtt_setup "" sink_size=4194304
tap_check "load mtt_test" mod_load mtt_test

# hammer ATTR V1 V2 OUT: write V1 and V2 in turn to ATTR of mtt_race until
# $W/stop exists; one line per write: fsop's answer (OK or the errno name)
hammer() {
	local v=$2
	while [ ! -e $W/stop ]; do
		fsop write "$D/$1" "$v" | head -n 1
		if [ "$v" = "$2" ]; then v=$3; else v=$2; fi
	done >"$4"
}

rm -f $W/stop
hammer channel 5 6 $W/chan.out &
hpid1=$!
hammer filter 0 ffffffff $W/filt.out &
hpid2=$!
tap_errno "$N opens and closes of mtt_race" OK mtt_run "cycle $N"
touch $W/stop
wait $hpid1 $hpid2
tap_eq "every cycle done" "cycles=$N" "$(cat /sys/module/mtt_test/parameters/result)"
tap_check "component gone" test ! -e $D
for a in chan filt; do
	tap_diag "$a writes: $(sort $W/$a.out | uniq -c | tr '\n' ' ')"
	tap_eq "$a writes: OK, ENODEV (closing) or ENOENT (gone) only" "" \
		"$(grep -v -x -e OK -e ENODEV -e ENOENT $W/$a.out | sort -u | tr '\n' ' ')"
done

# the channels still add up: the next component is open and traces
tap_errno "run api after the race" OK mtt_run api
tap_eq "every API call as expected" ok "$(cat /sys/module/mtt_test/parameters/result)"

tap_check "mtt_test unloads" mod_unload mtt_test
sw_drain $W/a.stp >/dev/null
sw_finish
exit 0
