#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stm_source wiring: stm_source_link read/write, policy by source name
# then "default", errors, relinking, link/unlink loops, writes from
# process and hard-IRQ context, and unload ordering.
. /stm/tests/lib.sh

CFG=/sys/kernel/config/stp-policy
SRC=/sys/class/stm_source/test_source
PARAMS=/sys/module/stm_test_source/parameters

mod_load stm_core
mod_load stm_p_basic
mod_load dummy_stm nr_dummies=2 master_min=0 master_max=7 nr_channels=16
mod_load stm_test_source nr_chans=4

tap_check "source registered" test -d $SRC
tap_eq "unlinked source reads <none>" "<none>" "$(cat $SRC/stm_source_link)"
echo hello > $PARAMS/msg
tap_eq "write while unlinked" "-19" "$(cat $PARAMS/last_ret)"

tap_errno "link without any policy" EINVAL fsop write $SRC/stm_source_link dummy_stm.0
tap_errno "link to an unknown device" EINVAL fsop write $SRC/stm_source_link nosuch
fsop mkdir $CFG/dummy_stm.0.p >/dev/null
tap_errno "link without a source or default node" EINVAL fsop write $SRC/stm_source_link dummy_stm.0
fsop mkdir $CFG/dummy_stm.0.p/default >/dev/null
tap_errno "link through the default node" OK fsop writeln $SRC/stm_source_link dummy_stm.0
tap_eq "linked source reads the device" "dummy_stm.0" "$(cat $SRC/stm_source_link)"
tap_eq "source link callback ran" "1" "$(cat $PARAMS/links)"
echo hello > $PARAMS/msg
tap_eq "write while linked" "5" "$(cat $PARAMS/last_ret)"
echo 3 > $PARAMS/chan
echo hello > $PARAMS/msg
tap_eq "write on the last channel" "5" "$(cat $PARAMS/last_ret)"
echo 4 > $PARAMS/chan
echo hello > $PARAMS/msg
tap_eq "write beyond nr_chans" "-22" "$(cat $PARAMS/last_ret)"
echo 0 > $PARAMS/chan

# The source's own node wins over default; width is nr_chans.
fsop mkdir $CFG/dummy_stm.0.p/test_source >/dev/null
fsop write $CFG/dummy_stm.0.p/test_source/masters "5 5" >/dev/null
fsop write $CFG/dummy_stm.0.p/test_source/channels "4 7" >/dev/null
tap_errno "relink through the source's node" OK fsop write $SRC/stm_source_link dummy_stm.0
fsop write $CFG/dummy_stm.0.p/test_source/channels "4 6" >/dev/null
tap_errno "relink with too few channels" ENOSPC fsop write $SRC/stm_source_link dummy_stm.0
tap_eq "failed link leaves it unlinked" "<none>" "$(cat $SRC/stm_source_link)"
fsop write $CFG/dummy_stm.0.p/test_source/channels "0 15" >/dev/null

# Relink to another device while linked.
fsop mkdir $CFG/dummy_stm.1.q >/dev/null
fsop mkdir $CFG/dummy_stm.1.q/test_source >/dev/null
fsop write $SRC/stm_source_link dummy_stm.0 >/dev/null
tap_errno "relink to another device" OK fsop write $SRC/stm_source_link dummy_stm.1
tap_eq "relinked" "dummy_stm.1" "$(cat $SRC/stm_source_link)"
tap_errno "unlink by writing an unknown name" EINVAL fsop write $SRC/stm_source_link none
tap_eq "unlinked" "<none>" "$(cat $SRC/stm_source_link)"

# Device link failure: fail_mode makes link() fail on odd channels.
echo 1 > /sys/module/dummy_stm/parameters/fail_mode
fsop write $CFG/dummy_stm.0.p/test_source/channels "1 1" >/dev/null
rmmod stm_test_source
mod_load stm_test_source nr_chans=1
tap_errno "device link() failure is returned" EINVAL fsop write $SRC/stm_source_link dummy_stm.0
echo 0 > /sys/module/dummy_stm/parameters/fail_mode
tap_errno "same channel links after the failure" OK fsop write $SRC/stm_source_link dummy_stm.0
fsop write $CFG/dummy_stm.0.p/test_source/channels "0 15" >/dev/null

# In use: the linked device's module is pinned, the source's is not.
tap_errno "unload of a linked device's driver" EAGAIN modop rm dummy_stm
tap_check "unload of a linked source" rmmod stm_test_source

# Link/unlink loop with an hrtimer writing from hard-IRQ context.
mod_load stm_test_source nr_chans=2 period_us=200
i=0
fails=0
rounds=$(stress_n 200)
while [ $i -lt "$rounds" ]; do
	[ "$(fsop write $SRC/stm_source_link dummy_stm.$((i % 2)))" = OK ] || fails=$((fails + 1))
	if [ $((i % 3)) -eq 0 ]; then
		fsop write $SRC/stm_source_link none >/dev/null
	fi
	i=$((i + 1))
done
tap_eq "$rounds link/relink/unlink rounds" "0" "$fails"
t0=$(cat $PARAMS/ticks)
fsop write $SRC/stm_source_link dummy_stm.0 >/dev/null
ticked() { test "$(cat $PARAMS/ticks)" -gt "$t0"; }
tap_check "hrtimer writes go through once relinked (waited for, at most 600 s)" wait_until 600 ticked
tap_check "unload while the timer writes" rmmod stm_test_source

for d in $CFG/dummy_stm.0.p/test_source $CFG/dummy_stm.0.p/default $CFG/dummy_stm.0.p \
	 $CFG/dummy_stm.1.q/test_source $CFG/dummy_stm.1.q; do
	rmdir $d
done
stack_unload
