#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# swstm module parameters (defaults, ranges, sink size rounding, several
# devices), the STM class and sink devices it creates, their sysfs
# attributes, and a clean unload.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

configfs_load
mod_load stm_core
mod_load stm_p_basic

# bad_param DESC PARAMS...: insmod fails with EINVAL and logs one error
# line (busybox insmod may try twice: finit_module, then init_module, so
# count distinct lines; the taint lines of the first unsigned out-of-tree
# module, swstm on a kernel with the class, are not errors)
bad_param() {
	local desc=$1 before out
	shift
	before=$(dmesg | grep 'swstm: ' | grep -vc taint)
	if out=$(insmod /stm/modules/swstm.ko "$@" 2>&1); then
		tap_fail "$desc refused"
		rmmod swstm
		return
	fi
	tap_match "$desc refused with EINVAL" 'Invalid argument' "$out"
	tap_eq "$desc: one error line in the log" 1 \
		"$(dmesg | grep 'swstm: ' | grep -v taint | tail -n +$((before + 1)) | sed 's/^\[[^]]*\] //' | sort -u | wc -l)"
}

bad_param "nr_devs=0" nr_devs=0
bad_param "nr_devs=17" nr_devs=17
bad_param "master_min > master_max" master_min=5 master_max=4
bad_param "master_max=65536" master_max=65536
bad_param "nr_channels=0" nr_channels=0
bad_param "nr_channels=65537" nr_channels=65537
bad_param "sink_size below 4 KiB" sink_size=4095
bad_param "sink_size above 256 MiB" sink_size=268435457
bad_param "sync_interval above 1 GiB" sync_interval=1073741825
tap_match "the error names the parameter" 'swstm: sink_size=4095' "$(dmesg | grep 'swstm: sink_size=4095')"

# --- defaults --------------------------------------------------------------
tap_check "load with defaults" mod_load swstm
P=/sys/module/swstm/parameters
tap_eq "default parameters" "1 0 15 256 1048576 4096" \
	"$(cat $P/nr_devs $P/master_min $P/master_max $P/nr_channels $P/sink_size $P/sync_interval | tr '\n' ' ' | sed 's/ $//')"
tap_check "STM device swstm.0" test -d /sys/class/stm/swstm.0
tap_eq "masters" "0 15" "$(cat /sys/class/stm/swstm.0/masters)"
tap_eq "channels" "256" "$(cat /sys/class/stm/swstm.0/channels)"
tap_check "class char device /dev/swstm.0" test -c /dev/swstm.0
tap_check "sink char device /dev/swstm.0-sink" test -c /dev/swstm.0-sink
tap_eq "STM device's parent is the sink" "swstm.0-sink" \
	"$(basename "$(readlink /sys/class/stm/swstm.0/device)")"
tap_eq "sink size" 1048576 "$(sw_attr 0 size)"
tap_eq "fresh counters: bytes_written bytes_read packets drops" "0 0 0 0" \
	"$(echo $(sw_attr 0 bytes_written) $(sw_attr 0 bytes_read) $(sw_attr 0 packets) $(sw_attr 0 drops))"
tap_eq "overwrite defaults to 0" 0 "$(sw_attr 0 overwrite)"
tap_errno "overwrite set to 1" OK fsop write /sys/class/misc/swstm.0-sink/overwrite 1
tap_eq "overwrite reads 1" 1 "$(sw_attr 0 overwrite)"
tap_errno "overwrite rejects garbage" EINVAL fsop write /sys/class/misc/swstm.0-sink/overwrite maybe
tap_errno "overwrite set to 0" OK fsop write /sys/class/misc/swstm.0-sink/overwrite 0
tap_errno "size is read-only" EACCES fsop write /sys/class/misc/swstm.0-sink/size 4096
tap_errno "drops is read-only" EACCES fsop write /sys/class/misc/swstm.0-sink/drops 0
tap_errno "sink is not seekable" ESPIPE swstm_read seek
tap_check "unload" mod_unload swstm
tap_fails "devices gone after unload" test -e /dev/swstm.0-sink -o -e /sys/class/stm/swstm.0

# --- several devices, explicit ranges ----------------------------------------
tap_check "load nr_devs=3 master_min=256 master_max=300 nr_channels=65536 sink_size=5000" \
	mod_load swstm nr_devs=3 master_min=256 master_max=300 nr_channels=65536 sink_size=5000
for n in 0 1 2; do
	tap_check "swstm.$n and its sink exist" test -c /dev/swstm.$n -a -c /dev/swstm.$n-sink
done
tap_fails "no fourth device" test -e /dev/swstm.3
tap_eq "masters 256 300" "256 300" "$(cat /sys/class/stm/swstm.2/masters)"
tap_eq "channels 65536" 65536 "$(cat /sys/class/stm/swstm.2/channels)"
tap_eq "sink_size 5000 rounds up to 8192" 8192 "$(sw_attr 1 size)"
tap_check "unload" mod_unload swstm

tap_check "load the smallest and largest settings" \
	mod_load swstm nr_devs=16 master_min=65535 master_max=65535 nr_channels=1 sink_size=4096 sync_interval=0
tap_check "sixteen devices" test -c /dev/swstm.15-sink
tap_eq "smallest sink" 4096 "$(sw_attr 15 size)"
tap_check "unload" mod_unload swstm

sw_finish
exit 0
