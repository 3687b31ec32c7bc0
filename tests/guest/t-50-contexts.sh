#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Writes from every context on every CPU at once: stm_ctx_test's source
# "ctx_test" writes "<ctx>:<cpu>:<seq>" messages from a kthread (P), a
# timer (S), a hard-IRQ hrtimer (H), an ftrace callback on ktime_get (F)
# and NMIs (N) on both CPUs, while a reader drains the sink, a loop
# relinks the source and rewrites (and recreates) its policy node, and
# an fd writer writes through /dev/swstm.0.  The stream must decode with
# every message intact and numbered without holes (ctx_check), every
# message sent must arrive (when the sink dropped nothing), and the
# module must stop and unload cleanly, also while running.
# The run is a fixed amount of work: stm.ctx_relinks=N (kernel command
# line, default 200 scaled by the lane's stm.stress) relinks, then until every context has written (a
# wait with a hang guard, never a time window).
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
PAR=/sys/module/stm_ctx_test/parameters
SRC=/sys/class/stm_source/ctx_test
POL=swstm.0.ctx
NODE=$CFG/$POL/ctx_test
RELINKS=$(stm_param ctx_relinks "$(stress_n 200)")
FDN=200

# node_set "M0 M1" "C0 C1": the ctx_test node's ranges; prints failures
# (shell builtins only: the loop below must not wait for forks)
node_set() {
	echo "$1" >$NODE/masters 2>/dev/null || echo "masters $1: failed"
	echo "$2" >$NODE/channels 2>/dev/null || echo "channels $2: failed"
}

# node_new "M0 M1" "C0 C1": remove the node and make it again
node_new() {
	rmdir $NODE || echo "rmdir $NODE: failed"
	mkdir $NODE || echo "mkdir $NODE: failed"
	node_set "$1" "$2"
}

# rates kept so that the capture stays a few MB (it grows with the run's
# length, so with the kernel's speed: 2.5 MB on 6.1, 9.5 MB on the debug
# kernel at full stress); it goes over the serial test channel, at about
# 150 kB/s under TCG, only when a stream check fails
CTX_PARAMS="p_burst=4 p_sleep_us=1000 h_period_us=200"
# shellcheck disable=SC2086
if ! stack_load sink_size=8388608 || ! mod_load stm_ctx_test $CTX_PARAMS; then
	tap_fail "load swstm (8 MiB sink) and stm_ctx_test"
	stack_unload
	exit 1
fi
tap_ok "load swstm (8 MiB sink) and stm_ctx_test"
sw_policy $POL
sw_node $POL ctx_test "1 1" "0 63"
sw_node $POL w "9 9" "0 15"
tap_errno "link ctx_test to swstm.0" OK fsop write $SRC/stm_source_link swstm.0

# --- the run ---------------------------------------------------------------
rm -f $W/stop $W/rstop
swstm_read drain -o $W/ctx.stp -g $W/rstop >$W/read.out 2>&1 &
rpid=$!
tap_errno "run=1 starts every context" OK fsop write $PAR/run 1
t0=$(date +%s)
tap_diag "nmi_source=$(cat $PAR/nmi_source) ftrace_status=$(cat $PAR/ftrace_status)"

# fd writer: FDN messages per open of /dev/swstm.0, numbered across opens
(
	k=0
	while [ ! -e $W/stop ]; do
		swstm_write -i w -t W -s 8-64 -n $FDN -f $((k * FDN)) >$W/fd.one 2>&1
		cat $W/fd.one >>$W/fd.out
		[ "$(head -n 1 $W/fd.one)" = OK ] || break
		k=$((k + 1))
	done
	echo $((k * FDN)) >$W/fd.count
) &
fpid=$!

# relink and rewrite the policy node while everything writes: the node
# changes (or is removed and made again) under the linked source, which
# keeps its channels until the relink picks new ones
i=0
: >$W/relink.err
while [ "$i" -lt "$RELINKS" ]; do
	case $((i % 4)) in
	0) node_set "2 3" "32 255" ;;
	1) node_set "1 1" "0 63" ;;
	2) node_new "3 3" "64 127" ;;
	3) node_new "1 2" "0 255" ;;
	esac >>$W/relink.err 2>&1
	echo none >$SRC/stm_source_link 2>/dev/null &&
		echo "unlink $i: 'none' accepted" >>$W/relink.err
	echo swstm.0 >$SRC/stm_source_link 2>/dev/null ||
		echo "link $i: failed" >>$W/relink.err
	i=$((i + 1))
	sleep 0.05
done
ctx_wait_all_wrote "every context wrote while linked (waited for, at most 600 s)"
touch $W/stop
if [ -s $W/relink.err ]; then
	tap_fail "$i relinks and policy rewrites, all succeeded"
	tap_diag "$(head -n 20 $W/relink.err)"
else
	tap_ok "$i relinks and policy rewrites, all succeeded"
fi

wait_until 120 sw_gone $fpid || kill $fpid 2>/dev/null
tap_errno "run=0 stops every context" OK fsop write $PAR/run 0
touch $W/rstop
t1=$(date +%s)
tap_eq "run reads 0" 0 "$(cat $PAR/run)"

# --- what was written --------------------------------------------------------
sent=
failed=
for L in P S H F N; do
	sent="$sent $L=$(ctx_count $L ok)"
	failed="$failed $L=$(ctx_count $L failed)"
done
tap_diag "sent:$sent; failed (unlinked):$failed"
tap_diag "links=$(cat $PAR/links) ftrace: hits=$(cat $PAR/ftrace_hits)" \
	"nested=$(cat $PAR/ftrace_nested) $(cat $PAR/ftrace_where);" \
	"nmi: source=$(cat $PAR/nmi_source) sent=$(cat $PAR/nmi_sent)"
tap_check "P (kthreads) wrote" test "$(ctx_count P ok)" -gt 0
tap_check "S (timers, softirq) wrote" test "$(ctx_count S ok)" -gt 0
tap_check "H (hrtimers, hard IRQ) wrote" test "$(ctx_count H ok)" -gt 0
if [ "$(cat $PAR/ftrace_status)" = 1 ]; then
	tap_check "F (ftrace callback on ktime_get) wrote" test "$(ctx_count F ok)" -gt 0
else
	tap_fail "F (ftrace callback on ktime_get) wrote"
	tap_diag "ftrace_status=$(cat $PAR/ftrace_status): the hook failed"
fi
nmi_active=$(cat $PAR/nmi_active)
if [ "$nmi_active" = Y ]; then
	tap_check "N (NMI, $(cat $PAR/nmi_source)) wrote" test "$(ctx_count N ok)" -gt 0
elif [ "$(cat $PAR/nmi_source)" = perf-irq ]; then
	tap_diag "N (NMI): not proven on this machine: perf's overflow" \
		"handler is a plain interrupt here (nmi_source=perf-irq; no NMI" \
		"on ARMv7, none on arm64 without pseudo-NMIs)"
else
	tap_diag "N (NMI): not proven on this machine: the NMI path was not" \
		"exercised (no perf cycles counter, no NMI IPIs)"
fi
tap_eq "no short write, no error but ENODEV, no timer off its CPU" 0 \
	"$(cat $PAR/unexpected)"

# --- what arrived --------------------------------------------------------------
if wait_until 600 sw_gone $rpid; then
	tap_eq "the reader drained the sink throughout" OK "$(head -n 1 $W/read.out)"
else
	kill $rpid 2>/dev/null
	tap_fail "the reader drained the sink throughout"
	tap_diag "swstm_read still running 600 s after it was told to stop"
fi
t2=$(date +%s)
drops=$(sw_attr 0 drops)
opts="-m 1-3 -x 9 -W 32 -C 4 -0 -n P=1 -n S=1 -n H=1 -n F=1"
[ "$nmi_active" = Y ] && opts="$opts -n N=1"
if [ "$drops" = 0 ]; then
	opts="$opts -z"
else
	tap_diag "the sink dropped $drops packets (marked in the stream)"
fi
mttdecode --format json $W/ctx.stp >$W/ctx.json
t3=$(date +%s)
stream_bad=
# shellcheck disable=SC2086
ctx_check $opts $W/ctx.json >$W/check.out 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	tap_ok "the stream decodes cleanly: every message intact, no holes"
else
	tap_fail "the stream decodes cleanly: every message intact, no holes"
	stream_bad=1
	tap_diag "ctx_check $opts: exit $rc"
	tap_diag "$(head -n 30 $W/check.out)"
fi
tap_diag "$(grep -v '^OK$' $W/check.out | grep -v '^FAIL' | head -n 8)"

# every message sent is in the stream once (all of them without drops)
bad=
for L in P S H F N; do
	got=$(sed -n "s/^$L: msgs=\([0-9]*\).*/\1/p" $W/check.out)
	sent=$(ctx_count $L ok)
	if [ "$drops" = 0 ]; then
		[ "$got" = "$sent" ] || bad="$bad $L:sent=$sent,arrived=$got"
	else
		[ "${got:-0}" -le "$sent" ] || bad="$bad $L:sent=$sent,arrived=$got"
	fi
done
if [ "$drops" = 0 ]; then
	tap_eq "every message sent arrived" "" "$bad" || stream_bad=1
else
	tap_eq "no more messages arrived than were sent" "" "$bad" || stream_bad=1
fi

fdn=$(cat $W/fd.count 2>/dev/null)
if [ "${fdn:-0}" -gt 0 ] && ! grep -qvE '^(OK|master=9 .*)$' $W/fd.out; then
	tap_ok "fd writer: $fdn messages written through /dev/swstm.0"
else
	tap_fail "fd writer: messages written through /dev/swstm.0"
	tap_diag "$(grep -vE '^(OK|master=9 .*)$' $W/fd.out | head -n 5)"
fi
lossy=
[ "$drops" = 0 ] || lossy=-l
tap_check "fd writer: its messages intact and in order" \
	swstm_check msgs $lossy -m 9 -t W -s 8-64 -n "${fdn:-0}" $W/ctx.json || stream_bad=1
rm -f $W/ctx.json
tap_diag "seconds: run $((t1 - t0)), drain $((t2 - t1)), decode $((t3 - t2))," \
	"checks $(($(date +%s) - t3)); capture $(wc -c <$W/ctx.stp) bytes"
# the capture goes to the host (tests/vm/out/<lane>/exports/) only when
# a stream check failed: over the serial line, megabytes take minutes
if [ -n "$stream_bad" ]; then
	t4=$(date +%s)
	export_file $W/ctx.stp contexts.stp
	tap_diag "export: $(($(date +%s) - t4)) s"
fi

# --- stop and unload -------------------------------------------------------------
h0=$(ctx_count H ok)
tap_errno "run=1 again" OK fsop write $PAR/run 1
hwrote() { [ "$(ctx_count H ok)" -gt "$h0" ]; }
tap_check "running again (waited for, at most 600 s)" wait_until 600 hwrote
tap_check "rmmod stm_ctx_test while it runs" rmmod stm_ctx_test
tap_check "stm_ctx_test is gone" test ! -d /sys/module/stm_ctx_test
# upstream's class (6.12): the bound policy holds one reference too
users=0
! stm_class_upstream || users=1
tap_eq "swstm.0 no longer in use by a source" $users \
	"$(awk '$1 == "swstm" { print $3 }' /proc/modules)"
sw_policy_rm
rm -rf "$SW_WORK"
tap_check "swstm, stm_p_basic, stm_core unload" stack_unload
exit 0
