#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write-path profiles (STM_BENCH_PERF=1 make bench, in the VM): runs
# bench_write under "perf record -e cpu-clock -a -g" (a software clock:
# the TCG guest has no PMU) for one writer of 256 and 4096-byte messages
# through our class + p_basic + swstm (capturing into a sink large
# enough for the whole run, no reader), then through upstream 6.1's
# class + p_basic + dummy_stm (up_*.ko, built by tests/vm/bench.sh from
# linux-source-6.1), and sends the reports to the host (tests/vm/
# bench.sh copies them to tests/build/bench-perf/):
#
#   NAME.txt       perf report --no-children --sort sym of bench_write
#                  on CPU 0 (the writer is pinned there): shares of its
#                  samples
#   NAME-all.txt   every CPU, by CPU, command and symbol
#   NAME-cg.txt    CPU 0's call graphs (caller order, >= 2%)
#   NAME-ips.txt   CPU 0's samples by address (for objdump of the .ko)
#   NAME.bench     bench_write's own line (slowed down by the sampling)
#   kallsyms-ours.txt, kallsyms-up.txt
#                  the loaded modules' symbols from /proc/kallsyms
#   NAME.err       perf's own messages
#   kallsyms-text.txt, cpu.txt
#                  the kernel's symbols around __static_call_text_end
#                  (perf's name for the retpoline __x86_indirect_thunk_rax
#                  at the same address), the CPU and its mitigations
#
# NAME: ours-SIZE and up-SIZE through p_basic, ours-syst-SIZE and
# up-syst-SIZE through p_sys-t (a policy node's defaults: GUID, no
# length, no CRC, no timestamp), for SIZE 256 and 4096; ours-4096-pcpu
# and up-4096-pcpu: p_basic, one writer pinned to each CPU. Reports are
# made in the guest while the modules are loaded, so perf resolves their
# symbols from /proc/kallsyms. Prints figures only; asserts nothing.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

SINK=/dev/swstm.0-sink
OUT=/tmp/bench-perf
mkdir -p $OUT

# messages per run: about a second of writing on TCG at each size
perf_n() {
	case $1 in
	256) echo 400000 ;;
	*) echo 40000 ;;
	esac
}

# perf_run NAME DEV SIZE [WRITERS]: profile WRITERS (default 1) writers
# of SIZE-byte messages to DEV, the first pinned to CPU 0, write the
# reports, send them to the host.
perf_run() {
	local name=$1 dev=$2 size=$3 writers=${4:-1} f
	perf record -q -e cpu-clock -a -g -N -o $OUT/$name.data -- \
		bench_write -d "$dev" -s "$size" -n "$(perf_n "$size")" -r 1 -P "$writers" -l "$name" \
		>$OUT/$name.bench 2>$OUT/$name.err
	cat $OUT/$name.bench
	if [ ! -s $OUT/$name.data ]; then
		echo "# $name: perf record failed:"
		sed 's/^/#   /' $OUT/$name.err
		return 1
	fi
	perf report -i $OUT/$name.data --stdio -n --no-children --sort sym -g none \
		--cpu 0 --comm bench_write --percentage relative --percent-limit 0.3 \
		>$OUT/$name.txt 2>>$OUT/$name.err
	perf report -i $OUT/$name.data --stdio -n --no-children --sort cpu,comm,sym -g none \
		--percent-limit 0.5 >$OUT/$name-all.txt 2>>$OUT/$name.err
	perf report -i $OUT/$name.data --stdio --no-children --sort sym --cpu 0 \
		--percentage relative -g caller,2,callee,function,percent --percent-limit 2 \
		2>>$OUT/$name.err | head -n 600 >$OUT/$name-cg.txt
	perf script -i $OUT/$name.data -C 0 -G -F ip,sym 2>>$OUT/$name.err |
		awk '{ n[$1 " " $2]++ } END { for (k in n) print n[k], k }' |
		sort -rn | head -n 300 >$OUT/$name-ips.txt
	echo "# $name: top symbols on the writer's CPU:"
	grep -v '^#' $OUT/$name.txt | grep -v '^$' | head -n 12 | sed 's/^/#   /'
	for f in $name.txt $name-all.txt $name-cg.txt $name-ips.txt $name.bench $name.err; do
		export_file $OUT/$f $f
	done
	rm -f $OUT/$name.data
}

# kallsyms_mods NAME: the loaded modules' symbols, sent to the host
kallsyms_mods() {
	grep '\[' /proc/kallsyms >$OUT/$1 || true
	export_file $OUT/$1 $1
}

if ! command -v perf >/dev/null; then
	echo "# bench_perf: no perf in the initramfs (STM_BENCH_PERF=1 make bench carries it)"
	exit 1
fi
echo 0 >/proc/sys/kernel/kptr_restrict
echo -1 >/proc/sys/kernel/perf_event_paranoid
echo "# write-path profiles: $(grep -c ^processor /proc/cpuinfo) CPUs, $(uname -r), $(perf --version)"

sort /proc/kallsyms | grep -v '\[' | grep -B 20 -A 100 ' __static_call_text_end$' \
	>$OUT/kallsyms-text.txt
export_file $OUT/kallsyms-text.txt kallsyms-text.txt
{
	grep -m 4 -E '^(vendor_id|cpu family|model|model name)' /proc/cpuinfo
	grep . /sys/devices/system/cpu/vulnerabilities/* 2>/dev/null
	cat /proc/cmdline
} >$OUT/cpu.txt
export_file $OUT/cpu.txt cpu.txt

# perf_all WHO DEV: every run of the header's list on DEV, with its
# policy (node "bench" of DEV:p_basic.bench or DEV:p_sys-t.bench, one at
# a time, as tests/guest/bench.sh does); WHO is ours or up
perf_all() {
	local who=$1 dev=$2 run proto size writers name
	for run in p_basic:256:1 p_basic:4096:1 p_basic:4096:$NCPU \
		p_sys-t:256:1 p_sys-t:4096:1; do
		proto=${run%%:*}
		size=${run#*:}
		writers=${size#*:}
		size=${size%:*}
		name=$who-$size
		[ "$proto" = p_basic ] || name=$who-syst-$size
		[ "$writers" = 1 ] || name=$name-pcpu
		[ -d $CFG/$dev:$proto.bench ] || {
			sw_policy_rm
			mkdir $CFG/$dev:$proto.bench && mkdir $CFG/$dev:$proto.bench/bench
		} || return 1
		perf_run "$name" /dev/$dev "$size" "$writers" || rc=1
		[ "$who" = ours ] || continue
		echo "# swstm drops so far: $(sw_attr 0 drops)"
		echo "# sink drained: $(swstm_read drain -N -d $SINK | sed -n 's/^bytes=//p') bytes"
	done
	sw_policy_rm
}

NCPU=$(grep -c ^processor /proc/cpuinfo)
rc=0
# ours: the class, p_basic or p_sys-t, swstm capturing into a 256 MiB
# sink (holds a run; drained after each)
stack_load sink_size=268435456 && mod_load stm_p_sys-t || exit 1
kallsyms_mods kallsyms-ours.txt
perf_all ours swstm.0 || exit 1
sw_finish

# upstream 6.1's class, p_basic, p_sys-t and dummy_stm
if [ -f "$STM_MODDIR/up_stm_core.ko" ]; then
	configfs_load
	mod_load up_stm_core && mod_load up_stm_p_basic && mod_load up_stm_p_sys_t &&
		mod_load up_dummy_stm || exit 1
	kallsyms_mods kallsyms-up.txt
	perf_all up dummy_stm.0 || exit 1
	stack_unload
else
	echo "# no upstream modules in the initramfs: ours only"
fi
exit $rc
