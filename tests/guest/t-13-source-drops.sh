#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Per-source drop counters (/sys/class/stm_source/<name>/drops, our
# class's extension; Documentation/abi.rst): every write refused while the
# source is linked counts once, a write while unlinked (-ENODEV) does not.
# stm_test_source makes an exact number of writes fail, by a channel
# beyond its range and through stm_test_device refusing every packet;
# console, heartbeat and ftrace count theirs the same way.  Fixed numbers
# of writes, exact counts (the kernel sources: at least what was written).
. /stm/tests/lib.sh

CFG=/sys/kernel/config/stp-policy
DEV=stm_drops
SRC=/sys/class/stm_source
TS=$SRC/test_source
PARAMS=/sys/module/stm_test_source/parameters
FAIL=/sys/module/stm_test_device/parameters/fail_errno
T=/sys/kernel/tracing

configfs_load
mod_load stm_core
mod_load stm_p_basic
mod_load stm_test_device name=$DEV
mod_load stm_test_source nr_chans=1

if stm_class_upstream; then
	tap_skip "drop counters" "upstream's class has no stm_source drops attribute (ours only)"
	stack_unload
	exit 0
fi

# send N: write "msg" N times through test_source
send() {
	local i=0
	while [ $i -lt "$1" ]; do
		echo "drop-test-$i" >$PARAMS/msg
		i=$((i + 1))
	done
}

tap_eq "drops: mode 0444" "-r--r--r--" "$(ls -l $TS/drops | cut -c1-10)"
tap_eq "a new source has dropped nothing" 0 "$(cat $TS/drops)"
tap_errno "drops is read-only" EACCES fsop write $TS/drops 0
send 3
tap_eq "writes while unlinked fail with -ENODEV" -19 "$(cat $PARAMS/last_ret)"
tap_eq "... and are not counted (not linked is not a loss)" 0 "$(cat $TS/drops)"

fsop mkdir $CFG/$DEV.p >/dev/null
fsop mkdir $CFG/$DEV.p/default >/dev/null
tap_errno "link test_source to $DEV" OK fsop writeln $TS/stm_source_link $DEV
send 4
tap_eq "writes while linked go through (11 bytes)" 11 "$(cat $PARAMS/last_ret)"
tap_eq "... and count nothing" 0 "$(cat $TS/drops)"

echo 1 >$PARAMS/chan
send 5
tap_eq "a channel beyond nr_chans: -EINVAL" -22 "$(cat $PARAMS/last_ret)"
tap_eq "5 writes on a bad channel: drops 5" 5 "$(cat $TS/drops)"
echo 0 >$PARAMS/chan

echo 28 >$FAIL
send 7
tap_eq "the device refuses every packet: -ENOSPC" -28 "$(cat $PARAMS/last_ret)"
tap_eq "7 refused writes more: drops 12" 12 "$(cat $TS/drops)"
echo 0 >$FAIL
send 2
tap_eq "accepted again" 11 "$(cat $PARAMS/last_ret)"
tap_eq "drops unchanged by accepted writes" 12 "$(cat $TS/drops)"

tap_errno "unlink" EINVAL fsop write $TS/stm_source_link none
send 3
tap_eq "unlinked again: drops unchanged" 12 "$(cat $TS/drops)"
tap_errno "relink" OK fsop writeln $TS/stm_source_link $DEV
tap_eq "the counter lives as long as the source (kept across links)" 12 "$(cat $TS/drops)"
fsop write $TS/stm_source_link none >/dev/null
mod_unload stm_test_source
mod_load stm_test_source nr_chans=1
tap_eq "a source registered again starts from 0" 0 "$(cat $TS/drops)"
mod_unload stm_test_source

# at_least FILE N: FILE holds a number >= N
at_least() {
	test "$(cat "$1")" -ge "$2"
}

# --- console: each log record refused is one drop ----------------------------
mod_load stm_console
echo 28 >$FAIL
tap_errno "link console" OK fsop writeln $SRC/console/stm_source_link $DEV
for i in 1 2 3 4 5 6; do
	echo "stm-drops-console-$i" >/dev/kmsg
done
tap_check "console: 6 refused records counted (waited for, at most 600 s)" \
	wait_until 600 at_least $SRC/console/drops 6
fsop write $SRC/console/stm_source_link none >/dev/null
echo 0 >$FAIL
mod_unload stm_console

# --- heartbeat: refused beats count ------------------------------------------
mod_load stm_heartbeat nr_devs=1 interval_ms=1
echo 28 >$FAIL
tap_eq "heartbeat.0 has dropped nothing" 0 "$(cat $SRC/heartbeat.0/drops)"
tap_errno "link heartbeat.0" OK fsop writeln $SRC/heartbeat.0/stm_source_link $DEV
tap_check "heartbeat: refused beats counted (3 waited for, at most 600 s)" \
	wait_until 600 at_least $SRC/heartbeat.0/drops 3
fsop write $SRC/heartbeat.0/stm_source_link none >/dev/null
echo 0 >$FAIL
mod_unload stm_heartbeat

# --- ftrace: refused records count (markers; t-43 says why the pin) ----------
mounted=
if [ ! -e $T/trace_marker ]; then
	mount -t tracefs nodev $T && mounted=1
fi
if [ -w $T/trace_marker ]; then
	mod_load ftrace_export_pin
	mod_load stm_ftrace
	echo nop >$T/current_tracer
	echo 28 >$FAIL
	tap_errno "link ftrace" OK fsop writeln $SRC/ftrace/stm_source_link $DEV
	for i in 1 2 3 4; do
		echo "stm-drops-ftrace-$i" >$T/trace_marker
	done
	tap_check "ftrace: 4 refused trace_marker records counted" at_least $SRC/ftrace/drops 4
	fsop write $SRC/ftrace/stm_source_link none >/dev/null
	echo 0 >$FAIL
	mod_unload stm_ftrace
	mod_unload ftrace_export_pin
else
	tap_skip "ftrace drops" "no $T/trace_marker"
fi
[ -n "$mounted" ] && umount $T

rmdir $CFG/$DEV.p/default $CFG/$DEV.p
stack_unload
