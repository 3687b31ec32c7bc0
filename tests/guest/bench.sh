#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write-path benchmark (make bench, in the VM): messages/s and ns per
# message through write(2) -> STM class -> p_basic -> swstm, for 16, 64
# and 256-byte messages, from 1 and 2 writer threads pinned to their own
# CPUs, without and with a reader draining the sink at the same time.
# dummy_stm (the class and p_basic, packets discarded) is the baseline
# for the class's own share.  "drain" is the STPv2 encoder's speed
# reading back what was written.  Under QEMU/TCG the absolute numbers
# are the emulator's; compare rows with each other.
#
# If the initramfs also holds upstream's own STM class built from
# linux-source-6.1 (modules renamed up_stm_core, up_stm_p_basic,
# up_dummy_stm; the host builds them into a temporary directory at bench
# time, they are never committed), the same runs on upstream's dummy_stm
# are printed as "up-dummy", a baseline for the class itself.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

SINK=/dev/swstm.0-sink
ncpu=$(grep -c ^processor /proc/cpuinfo)
# a 256 MiB sink holds 8M packets: enough for every run without a drop
stack_load sink_size=268435456
mod_load dummy_stm
sw_policy swstm.0.bench
mkdir $CFG/swstm.0.bench/bench
sw_policy dummy_stm.0.bench
mkdir $CFG/dummy_stm.0.bench/bench

echo "# write-path benchmark: $ncpu CPUs, $(uname -r), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
for size in 16 64 256; do
	case $size in
	16) n=100000 ;;
	64) n=50000 ;;
	*) n=20000 ;;
	esac
	bench_write -d /dev/dummy_stm.0 -s $size -n $n -l dummy_stm
	bench_write -d /dev/swstm.0 -s $size -n $n -D $SINK -l swstm
	bench_write -d /dev/swstm.0 -s $size -n $n -R $SINK -l swstm+rd
	if [ "$ncpu" -ge 2 ]; then
		bench_write -d /dev/dummy_stm.0 -s $size -n $n -P 2 -l dummy_stm
		bench_write -d /dev/swstm.0 -s $size -n $n -P 2 -D $SINK -l swstm
		bench_write -d /dev/swstm.0 -s $size -n $n -P 2 -R $SINK -l swstm+rd
	fi
done
echo "# swstm drops during the runs: $(sw_attr 0 drops)"
# MTT: ns per mtt_trace() into dummy_stm (p_basic), enabled and filtered out
if mod_load mtt && mod_load mtt_test && mkdir $CFG/dummy_stm.0.bench/mtt &&
	echo dummy_stm.0 >/sys/class/stm_source/mtt/stm_source_link &&
	echo "bench 100000" >/sys/module/mtt_test/parameters/run; then
	echo "# mtt_trace: $(cat /sys/module/mtt_test/parameters/result)"
fi
rmmod mtt_test mtt 2>/dev/null
sw_policy_rm
stack_unload

if [ -f "$STM_MODDIR/up_stm_core.ko" ]; then
	echo "# upstream STM class (linux-source-6.1) and its dummy_stm:"
	configfs_load
	mod_load up_stm_core && mod_load up_stm_p_basic && mod_load up_dummy_stm &&
		sw_policy dummy_stm.0.bench && mkdir $CFG/dummy_stm.0.bench/bench
	for size in 16 64 256; do
		bench_write -d /dev/dummy_stm.0 -s $size -n 50000 -l up-dummy
		[ "$ncpu" -lt 2 ] ||
			bench_write -d /dev/dummy_stm.0 -s $size -n 50000 -P 2 -l up-dummy
	done
fi

sw_finish
exit 0
