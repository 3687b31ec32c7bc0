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
# upstream's dummy_stm are printed as "up-dummy".  The classes take
# turns: stm.bench_rounds rounds (9), each loads one class, runs every
# row once and unloads it, ours first in odd rounds, upstream's first in
# even ones.  At the end each row's median msg/s ("rate" lines) and each
# of ours as a ratio to upstream's of the same round, the median and
# range over the rounds ("ratio" lines).  stm.bench_cost=1 says that the
# VM's clock counts instructions (tests/vm/bench.sh, STM_BENCH_COST=1).
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
# rounds: ours and upstream's take turns, each row once a round
ROUNDS=$(stm_param bench_rounds 9)
# cost: the VM counts instructions for time (tests/vm/bench.sh,
# STM_BENCH_COST=1: QEMU -icount), so a figure is a cost, not a speed
COST=$(stm_param bench_cost 0)
RUNS=2
[ "$COST" != 1 ] || RUNS=1
UP=0
[ ! -f "$STM_MODDIR/up_stm_core.ko" ] || UP=1

# messages a writer sends in one run of SIZE bytes: a round's share
# (about 0.2 s of writing) split over its runs
bench_n() {
	local n
	case $1 in
	16) n=100000 ;;
	64) n=80000 ;;
	256) n=40000 ;;
	1024) n=16000 ;;
	*) n=5000 ;;
	esac
	echo $((n / RUNS))
}

# bench_one KEY ARGS...: run bench_write ARGS, the faster of 2 runs (a
# stall of the host can only slow a run down; one run of twice the
# messages when the clock counts instructions), show its line, add its
# msg/s to $RES/KEY (a line a round)
bench_one() {
	local key=$1 line
	shift
	line=$(bench_write -r $RUNS "$@") || return 1
	echo "$line"
	echo "$line" | awk '{ for (i = 2; i <= NF; i++) if ($i == "msg/s") print $(i - 1) }' >>$RES/$key
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

# ours_round R: our class, p_basic or p_sys-t, into dummy_stm (discards),
# swstm (captures; drained after the run) and swstm with a reader
# draining it during the run; the first round also times mtt_trace()
ours_round() {
	local proto pol dev size n p
	# a 256 MiB sink holds every run without a drop
	stack_load sink_size=268435456 && mod_load stm_p_sys-t && mod_load dummy_stm ||
		return 1
	echo "# round $1: ours"
	for proto in $PROTOS; do
		pol=:$proto.bench
		for dev in swstm.0 dummy_stm.0; do
			mkdir $CFG/$dev$pol && mkdir $CFG/$dev$pol/bench
		done
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
	echo "# round $1: swstm drops during the runs: $(sw_attr 0 drops)"
	# MTT: ns per mtt_trace() into dummy_stm (p_basic), enabled and filtered out
	if [ "$1" = 1 ] && sw_policy dummy_stm.0.bench && mod_load mtt && mod_load mtt_test &&
		mkdir $CFG/dummy_stm.0.bench/mtt &&
		echo dummy_stm.0 >/sys/class/stm_source/mtt/stm_source_link &&
		echo "bench 100000" >/sys/module/mtt_test/parameters/run; then
		echo "# mtt_trace: $(cat /sys/module/mtt_test/parameters/result)"
	fi
	rmmod mtt_test mtt 2>/dev/null
	sw_policy_rm
	stack_unload
}

# up_round R: upstream 6.1's class, p_basic or p_sys-t, into its dummy_stm
up_round() {
	local proto pol size n p
	configfs_load && mod_load up_stm_core && mod_load up_stm_p_basic &&
		mod_load up_stm_p_sys_t && mod_load up_dummy_stm || return 1
	echo "# round $1: upstream"
	for proto in $PROTOS; do
		pol=:$proto.bench
		mkdir $CFG/dummy_stm.0$pol && mkdir $CFG/dummy_stm.0$pol/bench
		for size in $SIZES; do
			n=$(bench_n $size)
			for p in $CPUS; do
				bench_one up-$proto-$size-$p -d /dev/dummy_stm.0 -s $size -n $n -P $p -l up-dummy
			done
		done
		bench_policy $pol
	done
	stack_unload
}

echo "# write-path benchmark: $ncpu CPUs, $(uname -r), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
echo "# dummy_stm: our class discarding; swstm: ours capturing (drained after"
echo "# each run); swstm+rd: ours capturing with a reader draining the sink"
echo "# during the run; up-dummy: upstream 6.1's class and dummy_stm"
echo "# $ROUNDS rounds, ours and upstream's taking turns (odd rounds ours first)"
[ "$COST" != 1 ] || echo "# cost measurement: the guest's clock counts instructions (QEMU -icount)"
r=1
while [ $r -le "$ROUNDS" ]; do
	if [ "$UP" = 1 ] && [ $((r % 2)) = 0 ]; then
		up_round $r
		ours_round $r
	else
		ours_round $r
		[ "$UP" = 0 ] || up_round $r
	fi
	r=$((r + 1))
done

# each row: msg/s (median of the rounds); with upstream's, the ratio of
# ours over upstream's round by round, its median and range (>= 1.00:
# ours is as fast)
echo "# median msg/s over $ROUNDS rounds; ratio: ours / up-dummy of the same round,"
echo "# median (lowest to highest)"
echo "# protocol  size  CPUs  swstm  swstm+rd  dummy_stm  up-dummy |  swstm/up  swstm+rd/up  dummy_stm/up"
for proto in $PROTOS; do
	for size in $SIZES; do
		for p in $CPUS; do
			k=$proto-$size-$p
			awk -v proto=$proto -v size=$size -v p=$p -v up=$UP '
				function med(a, n,  b, i, j, t) {
					for (i = 1; i <= n; i++) b[i] = a[i]
					for (i = 2; i <= n; i++)
						for (j = i; j > 1 && b[j - 1] > b[j]; j--) {
							t = b[j]; b[j] = b[j - 1]; b[j - 1] = t
						}
					lo = b[1]; hi = b[n]
					return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
				}
				function load(f, a,  n, l) {
					n = 0
					while ((getline l < f) > 0) a[++n] = l + 0
					return n
				}
				function ratio(a, na, u, nu,  q, i, n, m) {
					n = na < nu ? na : nu
					if (!n) return "      -                "
					for (i = 1; i <= n; i++) q[i] = u[i] > 0 ? a[i] / u[i] : 0
					m = med(q, n)
					return sprintf("x%.2f (x%.2f to x%.2f)", m, lo, hi)
				}
				BEGIN {
					ns = load(ARGV[1], s); nr = load(ARGV[2], rd)
					nd = load(ARGV[3], d); nu = up ? load(ARGV[4], u) : 0
					printf "rate  %-8s %5d B %d CPU%s  %9.0f  %9.0f  %9.0f  %9s\n",
						proto, size, p, (p > 1 ? "s" : " "),
						ns ? med(s, ns) : 0, nr ? med(rd, nr) : 0,
						nd ? med(d, nd) : 0, nu ? sprintf("%.0f", med(u, nu)) : "-"
					if (nu)
						printf "ratio %-8s %5d B %d CPU%s  %s  %s  %s\n",
							proto, size, p, (p > 1 ? "s" : " "),
							ratio(s, ns, u, nu), ratio(rd, nr, u, nu),
							ratio(d, nd, u, nu)
				}' $RES/swstm-$k $RES/swrd-$k $RES/dummy-$k $RES/up-$k
		done
	done
done

sw_finish
# what a user would trace with instead (tests/vm/bench.sh sets it)
[ "$(stm_param bench_alt 0)" != 1 ] || sh /stm/tests/bench_alt.sh
exit 0
