#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write-path benchmark (make bench, in the VM): messages/s and ns per
# message through write(2) -> STM class -> p_basic or p_sys-t -> swstm,
# for 16, 64, 256, 1024 and 4096-byte messages (4096: the class sends
# 4095), from 1 writer and from one writer per CPU, each pinned to its
# own CPU, without and with a reader draining the sink at the same time.
# dummy_stm (the class and p_basic, packets discarded) is the baseline
# for the class's own share.  "drain" is the STPv2 encoder's speed
# reading back what was written.  Under QEMU/TCG the absolute numbers
# are the emulator's; compare rows with each other.
#
# If the initramfs also holds upstream's own STM class built from
# linux-source-6.1 (modules renamed up_stm_core, up_stm_p_basic,
# up_stm_p_sys_t, up_dummy_stm; the host builds them into a temporary
# directory at bench time, they are never committed), the same runs on
# upstream's dummy_stm are printed as "up-dummy", and each of ours as a
# ratio to it ("ratio" lines).
#
# Then, with stm.bench_alt=1 on the kernel command line (tests/vm/
# bench.sh), tests/guest/bench_alt.sh: libmtt against trace_marker and
# LTTng-UST.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

SINK=/dev/swstm.0-sink
ncpu=$(grep -c ^processor /proc/cpuinfo)
SIZES="16 64 256 1024 4096"
# one writer, and one writer per CPU
CPUS=1
[ "$ncpu" -lt 2 ] || CPUS="1 $ncpu"
PROTOS="p_basic p_sys-t"
RES=/tmp/bench-res
mkdir -p $RES

# messages a writer sends in one run of SIZE bytes
bench_n() {
	case $1 in
	16) echo 50000 ;;
	64) echo 40000 ;;
	256) echo 20000 ;;
	1024) echo 8000 ;;
	*) echo 2500 ;;
	esac
}

# bench_one KEY ARGS...: run bench_write ARGS, show its line, keep it as KEY
bench_one() {
	local key=$1
	shift
	bench_write "$@" | tee $RES/$key
}

# bench_policy :PROTO.bench: remove that policy of swstm.0 and dummy_stm.0
bench_policy() {
	local pol=$1 dev
	for dev in swstm.0 dummy_stm.0; do
		[ -d $CFG/$dev$pol ] || continue
		rmdir $CFG/$dev$pol/bench 2>/dev/null
		rmdir $CFG/$dev$pol
	done
}

# a 256 MiB sink holds every run without a drop
stack_load sink_size=268435456
mod_load stm_p_sys-t
mod_load dummy_stm

echo "# write-path benchmark: $ncpu CPUs, $(uname -r), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
echo "# dummy_stm: our class discarding; swstm: ours capturing (drained after"
echo "# each run); swstm+rd: ours capturing with a reader draining the sink"
echo "# during the run; up-dummy: upstream 6.1's class and dummy_stm"
for proto in $PROTOS; do
	pol=:$proto.bench
	for dev in swstm.0 dummy_stm.0; do
		mkdir $CFG/$dev$pol && mkdir $CFG/$dev$pol/bench
	done
	echo "# $proto"
	for size in $SIZES; do
		n=$(bench_n $size)
		for p in $CPUS; do
			bench_one dummy-$proto-$size-$p -d /dev/dummy_stm.0 -s $size -n $n -P $p -l dummy_stm
			bench_one swstm-$proto-$size-$p -d /dev/swstm.0 -s $size -n $n -P $p -D $SINK -l swstm
			bench_one swrd-$proto-$size-$p -d /dev/swstm.0 -s $size -n $n -P $p -R $SINK -l swstm+rd
		done
	done
	bench_policy $pol
done
echo "# swstm drops during the runs: $(sw_attr 0 drops)"
sw_policy dummy_stm.0.bench
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
	mod_load up_stm_core && mod_load up_stm_p_basic && mod_load up_stm_p_sys_t &&
		mod_load up_dummy_stm
	for proto in $PROTOS; do
		pol=:$proto.bench
		mkdir $CFG/dummy_stm.0$pol && mkdir $CFG/dummy_stm.0$pol/bench
		echo "# $proto"
		for size in $SIZES; do
			n=$(bench_n $size)
			for p in $CPUS; do
				bench_one up-$proto-$size-$p -d /dev/dummy_stm.0 -s $size -n $n -P $p -l up-dummy
				done
		done
		bench_policy $pol
	done
	# ratios: msg/s of ours over upstream's (>= 1.00: ours is as fast)
	echo "# ratio to upstream (msg/s ours / msg/s up-dummy):"
	echo "# protocol  size  CPUs  swstm  swstm+rd  dummy_stm"
	for proto in $PROTOS; do
		for size in $SIZES; do
			for p in $CPUS; do
				[ -s $RES/up-$proto-$size-$p ] || continue
				awk -v proto=$proto -v size=$size -v p=$p '
					function rate(f,  l, a, i) {
						if ((getline l < f) <= 0) return 0
						n = split(l, a, " ")
						for (i = 2; i <= n; i++)
							if (a[i] == "msg/s") return a[i - 1]
						return 0
					}
					BEGIN {
						up = rate(ARGV[1]); s = rate(ARGV[2])
						r = rate(ARGV[3]); d = rate(ARGV[4])
						if (up <= 0) exit
						printf "ratio %-8s %5d B %d CPU%s  x%.2f  x%.2f  x%.2f\n",
							proto, size, p, (p > 1 ? "s" : " "),
							s / up, r / up, d / up
					}' $RES/up-$proto-$size-$p $RES/swstm-$proto-$size-$p \
					$RES/swrd-$proto-$size-$p $RES/dummy-$proto-$size-$p
				done
		done
	done
fi

sw_finish
# what a user would trace with instead (tests/vm/bench.sh sets it)
[ "$(stm_param bench_alt 0)" != 1 ] || sh /stm/tests/bench_alt.sh
exit 0
