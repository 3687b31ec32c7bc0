#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stm_ftrace through p_sys-t: the source takes one channel per CPU id
# (nr_cpu_ids, rounded up to a power of two); while linked, a trace export sends
# every function, event and trace_marker record raw, on the channel of the
# CPU that recorded it.  Decoded here with /proc/kallsyms and the tracefs
# format files: the function records name the function that ran.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/syst_lib.sh
# On upstream's class (the 6.12 lanes) this runs whole: those lanes
# boot QEMU with single-threaded TCG (tests/lanes/k612.t), under which
# the kernel's text patching (the tracer's static keys, text_poke_bp)
# no longer Oopses with "int3" at the patched site (kernels.rst).
W=$SW_WORK
SRC=/sys/class/stm_source/ftrace
T=/sys/kernel/tracing
F=version_proc_show
syst_load sink_size=16777216 || tap_fail "load the stack and stm_p_sys-t"
# Each link and unlink registers or unregisters an ftrace export, which
# switches trace_function()'s export branch by patching kernel text.
# Done while traced functions run, that patching Oopsed Debian's 6.12
# under QEMU TCG (int3 in trace_function, 2 runs of 4) and hung 6.1
# (Documentation/kernels.rst): the kernel's text_poke against a TCG vCPU,
# no STM code on the stacks.  A test-only export loaded first keeps the
# branches on, so the links patch nothing; on every kernel, since what
# this test checks is the source, not the kernel's branch patching.
tap_check "ftrace_export_pin: the export branches stay on (links patch no text)" \
	mod_load ftrace_export_pin
tap_check "load stm_ftrace" mod_load stm_ftrace

mounted=
if [ ! -e $T/trace ]; then
	mount -t tracefs nodev $T && mounted=1
fi
tap_check "tracefs at $T" test -e $T/current_tracer
tap_check "$F can be traced" grep -qx "$F" $T/available_filter_functions

# nr_chans: the highest possible CPU id + 1 (nr_cpu_ids) rounded up to a
# power of two (records go out on their CPU's channel; the possible mask
# may have holes)
ncpu=$(awk -F'[,-]' '{ print $NF + 1 }' /sys/devices/system/cpu/possible)
w=1
while [ $w -lt "$ncpu" ]; do w=$((w * 2)); done
online=$(grep -c ^processor /proc/cpuinfo)
# hogs_start/hogs_stop: one busy loop per online CPU, so none is idle.
hogs=
hogs_start() {
	local i=0
	while [ $i -lt "$online" ]; do
		(while :; do :; done) &
		hogs="$hogs $!"
		i=$((i + 1))
	done
	# a moment for the loops to reach every CPU (no check depends on it)
	sleep 1
}
hogs_stop() {
	kill $hogs 2>/dev/null
	wait $hogs 2>/dev/null
	hogs=
}
tap_diag "CPU ids $ncpu (nr_cpu_ids), channels $w, online $online"

tap_errno "p_sys-t policy" OK fsop mkdir $SP
syst_node ftrace "6 6" "0 $((w - 1))"
if [ $w -gt 1 ]; then
	fsop write $SP/ftrace/channels "0 $((w - 2))" >/dev/null
	tap_errno "nr_chans is $w: a node with $((w - 1)) channels is too small" ENOSPC \
		fsop write $SRC/stm_source_link swstm.0
	fsop write $SP/ftrace/channels "0 $((w - 1))" >/dev/null
fi
U=$(cat $SP/ftrace/uuid)

echo $F >$T/set_ftrace_filter
tap_errno "link ftrace to swstm.0" OK fsop write $SRC/stm_source_link swstm.0
echo function >$T/current_tracer
echo 1 >$T/events/sched/sched_process_fork/enable
# the function, 10 times on each online CPU (at most 2)
ncalls=0
for cpu in 0 1; do
	[ $cpu -lt "$online" ] || continue
	i=0
	while [ $i -lt 10 ]; do
		taskset $((1 << cpu)) cat /proc/version >/dev/null
		i=$((i + 1))
	done
	ncalls=$((ncalls + 10))
done
pids=
for i in 1 2 3; do
	pids="$pids $(sh -c 'echo $$')"
done
for i in 1 2 3 4 5; do
	echo "syst-ftrace-marker-$i" >$T/trace_marker
done
echo 0 >$T/events/sched/sched_process_fork/enable
echo nop >$T/current_tracer
tap_errno "unlink" EINVAL fsop write $SRC/stm_source_link none
echo >$T/set_ftrace_filter
# not exported once unlinked
echo "syst-ftrace-after-unlink" >$T/trace_marker

syst_capture $W/f.stp $W/f.json
syst_packets $W/f.stp $W/f-pk.json
syst_check msgs -m 6 -c 0-$((w - 1)) $W/f.json >$W/f-msgs.txt
n=$(grep -c . $W/f-msgs.txt)
tap_check "records captured ($n)" test "$n" -ge $((ncalls + 5))
# upstream's p_sys-t (6.12) sends ftrace records as SBD (ID64), ours as STRING
fhdr=0x01800042
! stm_class_upstream || fhdr=0x01800049
tap_eq "every record: $fhdr and the ftrace node's uuid" "$n" \
	"$(grep -c " hdr=$fhdr .* guid=$U " $W/f-msgs.txt)"
tap_check "STP framing: D32TS header ... FLAG" syst_check frames -m 6 $W/f-pk.json
syst_check ftrace -k /proc/kallsyms -e $T/events/ftrace/function/format \
	-e $T/events/ftrace/print/format -e $T/events/sched/sched_process_fork/format \
	-m 6 -c 0-$((w - 1)) $W/f.json >$W/f.txt
tap_eq "$ncalls function records name $F" "$ncalls" "$(grep -c " function ip=$F " $W/f.txt)"
tap_eq "and their callers resolve to symbols" "$ncalls" \
	"$(grep " function ip=$F " $W/f.txt | grep -c ' parent_ip=[A-Za-z_]')"
tap_eq "no function records of other functions" 0 "$(grep ' function ' $W/f.txt | grep -vc " ip=$F ")"
for cpu in 0 1; do
	[ $cpu -lt "$online" ] || continue
	tap_eq "CPU $cpu's calls on channel $cpu" 10 "$(grep -c "^cpu=$cpu .* function ip=$F " $W/f.txt)"
done
grep ' print ' $W/f.txt | sed -n 's/.* buf=//p' >$W/markers.got
seq 1 5 | sed 's/^/syst-ftrace-marker-/; s/$/\\x0a/' >$W/markers.want
tap_check "trace_marker records, in order" cmp -s $W/markers.want $W/markers.got
for p in $pids; do
	tap_check "sched_process_fork event for pid $p" grep -q " sched_process_fork .* child_pid=$p\$" $W/f.txt
done
tap_eq "no unknown records" 0 "$(grep -c ' event=' $W/f.txt)"

if syst_has_decoder; then
	syst_policy_dump $W/policy.txt
	mttdecode --syst --policy $W/policy.txt --kallsyms /proc/kallsyms --tracefs $T/events \
		--format json $W/f.stp >$W/syst.json 2>$W/syst.err
	tap_check "mttdecode --syst: function records name $F" test \
		"$(grep -c "$F" $W/syst.json)" -ge "$ncalls"
else
	tap_skip "mttdecode --syst" "decoder without --syst"
fi
export_file $W/f.stp syst-ftrace.stp

# --- CPUs writing on one output share its interval state -------------------------
# ts_interval and clocksync_interval of 1 h: over the whole output, every
# CPU included, exactly the first message is due, however the writes of
# the CPUs interleave and however slow the machine.  A fixed number of
# calls per CPU, run on all CPUs at once.
syst_set ftrace ts_interval 3600000
syst_set ftrace clocksync_interval 3600000
echo $F >$T/set_ftrace_filter
tap_errno "relink with ts_interval and clocksync_interval 1 h" OK \
	fsop write $SRC/stm_source_link swstm.0
echo function >$T/current_tracer
pids=
for cpu in 0 1; do
	[ $cpu -lt "$online" ] || continue
	taskset $((1 << cpu)) sh -c "i=0; while [ \$i -lt 25 ]; do cat /proc/version >/dev/null; i=\$((i + 1)); done" &
	pids="$pids $!"
done
for p in $pids; do wait $p; done
echo nop >$T/current_tracer
tap_errno "unlink" EINVAL fsop write $SRC/stm_source_link none
echo >$T/set_ftrace_filter
syst_capture $W/f2.stp $W/f2.json
syst_check msgs -m 6 -c 0-$((w - 1)) $W/f2.json >$W/f2.txt
syst_check ftrace -k /proc/kallsyms -e $T/events/ftrace/function/format \
	-m 6 -c 0-$((w - 1)) $W/f2.json >$W/f2-rec.txt
for cpu in 0 1; do
	[ $cpu -lt "$online" ] || continue
	tap_eq "CPU $cpu: its 25 calls, on channel $cpu" 25 "$(grep -c "^cpu=$cpu .* function ip=$F " $W/f2-rec.txt)"
done
nts=$(grep -c ' ts=[0-9]' $W/f2.txt)
nclk=$(grep -c ' type=8 ' $W/f2.txt)
if stm_class_upstream; then
	# upstream's p_sys-t reads and sets an output's last-sent jiffies
	# without atomicity: CPUs writing the first message at once may
	# each find it due (seen on 6.12: 2 of each).  Ours: exactly one.
	tap_diag "upstream: $nts timestamps, $nclk CLOCK messages (ours: 1 and 1)"
	tap_check "one output, all CPUs: 1 to $online timestamps (upstream: not atomic; ours: exactly 1)" \
		test "$nts" -ge 1 -a "$nts" -le "$online"
	tap_check "one output, all CPUs: 1 to $online CLOCK messages (upstream: not atomic; ours: exactly 1)" \
		test "$nclk" -ge 1 -a "$nclk" -le "$online"
else
	tap_eq "one output, all CPUs: exactly one timestamp" 1 "$nts"
	tap_eq "one output, all CPUs: exactly one CLOCK message" 1 "$nclk"
fi

# --- the function tracer where RCU may not be watching, while relinking ------------
# Every traceable *idle* function is traced (some run from the idle loop
# with RCU not watching, where stm_source_write() must refuse instead of
# racing an unlink's synchronize_rcu()), while the link is rewritten a
# fixed number of times.  The kernel log (KASAN in the debug lane) is the
# check, and every link write must succeed.
if grep -q idle $T/available_filter_functions; then
	# The tracer is switched on and off while one busy loop per CPU keeps
	# every CPU out of the idle functions being patched: a vCPU inside
	# them hung 6.1's text_poke_bp under TCG (int3 loop in amd_e400_idle,
	# Documentation/kernels.rst).  Between the switches the CPUs idle.
	echo '*idle*' >$T/set_ftrace_filter
	hogs_start
	echo function >$T/current_tracer
	hogs_stop
	fails=0
	i=0
	relinks=$(stress_n 60)
	while [ $i -lt "$relinks" ]; do
		[ "$(fsop write $SRC/stm_source_link swstm.0)" = OK ] || fails=$((fails + 1))
		[ $((i % 2)) -eq 0 ] || fsop write $SRC/stm_source_link none >/dev/null
		i=$((i + 1))
	done
	hogs_start
	echo nop >$T/current_tracer
	hogs_stop
	echo >$T/set_ftrace_filter
	fsop write $SRC/stm_source_link none >/dev/null
	tap_eq "$relinks relinks with idle functions traced" 0 "$fails"
	sw_drain $W/f3.stp >/dev/null
else
	tap_fail "traceable idle functions in available_filter_functions"
fi

tap_diag "records ftrace_export_pin was given: $(cat /sys/module/ftrace_export_pin/parameters/records)"
tap_check "ftrace_export_pin unloads" mod_unload ftrace_export_pin
[ -n "$mounted" ] && umount $T
sw_finish
exit 0
