#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The ordering stress of Documentation/ordering.rst ("What the lanes
# prove"): the test meant to catch a missing barrier on weakly ordered
# hardware, run in every lane.  At once:
#  - four writer threads pinned to each CPU, each on a file descriptor
#    and channel of its own, STRESS messages each (2000, scaled by the
#    lane's stm.stress), sizes 1..200 bytes in turn, every byte derived
#    from the writer's tag, the sequence number and the position
#    (swstm_msg.h): the ring's claim, commit and consume, staging;
#  - stm_ctx_test writing from a kthread, timers (softirq), hrtimers
#    (hard IRQ), an ftrace hook and NMIs where there are any, on every
#    CPU, numbered per (context, CPU);
#  - one reader waiting in a blocking read() (not poll()), 4 KiB at a
#    time: the sink's waiting flag against every writer's kick.
# Then every record is checked: each message byte for byte, each
# writer's sequence numbers consecutive from 0, and exact accounting
# with a 16 MiB sink in drop mode (no overwrite), where no loss is
# expected: drops 0, no loss record, received == written for every
# writer and every context.  The last wake-up is checked too: once the
# writers are done, one more message must wake the blocked reader.
# A 16 MiB ring never wraps here, so a second run reuses every slot many
# times: the same writers (no contexts) through a 64 KiB ring, each
# keeping its unread messages within its share of the slots
# (swstm_write -F), so again nothing may drop and every count is exact.
# Fixed amounts of work, exact counts, no time window.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
SRC=/sys/class/stm_source/ctx_test
POL=swstm.0.ord
NCPU=$(grep -c ^processor /proc/cpuinfo)
PER=4
NT=$((NCPU * PER))
[ "$NT" -le 16 ] || NT=16
TAGS=$(echo ABCDEFGHIJKLMNOP | cut -c1-$NT)
N=$(stress_n 2000)
SIZES=1-200

[ "$NCPU" -ge 2 ] || tap_diag "only $NCPU CPU: the writers share it"

# start_reader FILE: the reader, blocked in read() 4 KiB at a time,
# appending the sink to FILE until wake_reader
start_reader() {
	rm -f $W/rstop "$1"
	swstm_read drain -B -b 4096 -o "$1" -g $W/rstop >$W/read.out 2>&1 &
	rpid=$!
}

# wake_reader FILE: the reader is blocked in read() or about to be: one
# more message, after the stop file, must wake it (a lost wake-up leaves
# it asleep); it then takes what is left and ends.  (If it saw the stop
# file first, it has ended already: the wake-up message is read into
# FILE here.)
wake_reader() {
	touch $W/rstop
	tap_check "one more message to wake the reader" swstm_write -i z -t Z -s 8 -n 1
	if wait_until 120 sw_gone $rpid; then
		tap_eq "the reader woke and drained the sink" OK "$(head -n 1 $W/read.out)"
	else
		dump_stuck "the reader blocked in read()"
		kill $rpid 2>/dev/null
		tap_fail "the reader woke and drained the sink"
		tap_diag "swstm_read still blocked in read() 120 s after the last message"
	fi
	swstm_read drain -N -o "$1" >/dev/null
}

# writers [swstm_write options]: the writer threads, $N messages each
writers() {
	swstm_write -i w -t A -s $SIZES -n "$N" -P $NT -O "$@" >$W/w.out 2>&1
	tap_eq "$NT writer threads ($PER per CPU, own channels): $N messages each, sizes $SIZES $*" \
		OK "$(head -n 1 $W/w.out)"
	tap_eq "each writer on a channel of its own" $NT \
		"$(sed -n 's/^[A-P] master=2 channel=//p' $W/w.out | sort -u | wc -l)"
}

# check_writers RAW: decode RAW (to RAW.json); no drop, no loss, every
# writer's every message there, intact and in order
check_writers() {
	tap_eq "no packet dropped, none left" "drops=0 queued=0" \
		"drops=$(sw_attr 0 drops) queued=$(sw_attr 0 queued)"
	tap_check "mttdecode the capture" sw_decode "$1" "$1.json"
	tap_eq "no loss record in the stream" "markers=0 lost=0" \
		"$(swstm_check losses "$1.json")"
	sw_summary "$1.json" -o -m 2 -t $TAGS -s $SIZES -n "$N" >$W/w.sum
	tap_match "writers: every message intact, each writer's $N in order, none missing" \
		"^OK msgs=$((NT * N)) incomplete=0 " "$(cat $W/w.sum)"
	tap_diag "$(cut -c1-300 $W/w.sum)"
}

# sw_policy_set: the policy's nodes: ctx_test, the writers, the wake-up
sw_policy_set() {
	sw_policy $POL
	sw_node $POL ctx_test "1 1" "0 63"
	sw_node $POL w "2 2" "0 63"
	sw_node $POL z "5 5" "0 3"
}

# --- writers, contexts and a blocked reader: a 16 MiB sink -----------------
# rates as in t-50-contexts: the capture stays a few MB
if ! stack_load sink_size=16777216 ||
	! mod_load stm_ctx_test p_burst=4 p_sleep_us=1000 h_period_us=200; then
	tap_fail "load swstm (16 MiB sink, drop mode) and stm_ctx_test"
	stack_unload
	exit 1
fi
tap_ok "load swstm (16 MiB sink, drop mode) and stm_ctx_test"
tap_eq "drop mode (no overwrite)" 0 "$(sw_attr 0 overwrite)"
sw_policy_set
tap_errno "link ctx_test to swstm.0" OK fsop write $SRC/stm_source_link swstm.0

start_reader $W/ord.stp
tap_errno "stm_ctx_test: run=1" OK fsop write $CTX_PAR/run 1
writers
ctx_wait_all_wrote "every context of stm_ctx_test wrote (waited for, at most 600 s)"
tap_errno "stm_ctx_test: run=0" OK fsop write $CTX_PAR/run 0
tap_eq "stm_ctx_test: no short write, no error" 0 "$(cat $CTX_PAR/unexpected)"
wake_reader $W/ord.stp
check_writers $W/ord.stp

sent=
opts="-m 1-1 -x 2 -x 5 -W 32 -C 4 -0 -z -n P=1 -n S=1 -n H=1"
[ "$(cat $CTX_PAR/ftrace_status)" != 1 ] || opts="$opts -n F=1"
if [ "$(cat $CTX_PAR/nmi_active)" = Y ]; then
	opts="$opts -n N=1"
else
	tap_diag "no NMI writer here: nmi_source=$(cat $CTX_PAR/nmi_source) (t-50 says why)"
fi
for L in P S H F N; do
	sent="$sent $L=$(ctx_count $L ok)"
done
tap_diag "stm_ctx_test sent:$sent"
# shellcheck disable=SC2086
ctx_check $opts $W/ord.stp.json >$W/ctx.out 2>&1
tap_eq "contexts: every message intact, numbered without holes" OK \
	"$(grep -x -e OK -e FAIL $W/ctx.out)" || tap_diag "$(head -n 20 $W/ctx.out)"
bad=
for L in P S H F N; do
	got=$(sed -n "s/^$L: msgs=\([0-9]*\).*/\1/p" $W/ctx.out)
	[ "${got:-0}" = "$(ctx_count $L ok)" ] ||
		bad="$bad $L:sent=$(ctx_count $L ok),arrived=${got:-0}"
done
tap_eq "contexts: received == sent for each" "" "$bad"

# the checks catch what a missing barrier would do: a message with a
# wrong byte, and a message gone
k=$((NT * N / 2))
awk -v k=$k '/^\{"kind":"msg","master":2,/ && ++n == k && match($0, /"data":"./) {
	c = substr($0, RSTART + 8, 1)
	$0 = substr($0, 1, RSTART + 7) (c == "0" ? "1" : "0") substr($0, RSTART + 9)
} { print }' $W/ord.stp.json >$W/bad.json
tap_match "the check fails on one wrong byte" "^FAIL" \
	"$(swstm_check msgs -o -m 2 -t $TAGS -s $SIZES -n "$N" $W/bad.json | head -n 1)"
awk -v k=$k '!(/^\{"kind":"msg","master":2,/ && ++n == k)' $W/ord.stp.json >$W/bad.json
tap_match "the check fails on one missing message" "^FAIL" \
	"$(swstm_check msgs -o -m 2 -t $TAGS -s $SIZES -n "$N" $W/bad.json | head -n 1)"
rm -f $W/ord.stp.json $W/bad.json
tap_check "rmmod stm_ctx_test" rmmod stm_ctx_test

# --- slot reuse: a 64 KiB ring, wrapped many times, never full ---------------
# 2048 slots; each writer keeps its unread slots within its share, 16
# left for the wake-up message: nothing can drop.  Upstream's class
# stores each packet and the FLAG as a record of its own (packets + 1
# slots a message, swstm.rst)
sw_reload sink_size=65536
share=$(((65536 / 32 - 16) / NT))
extra=0
! stm_class_upstream || extra=1
sw_policy_set
start_reader $W/wrap.stp
writers -F $share -E $extra
wake_reader $W/wrap.stp
# every payload byte of the writers (sizes 1..200 in turn) and the
# wake-up's 8: the ring wrapped that many bytes
cyc=$((N / 200))
r=$((N % 200))
bytes=$((NT * (cyc * 20100 + r * (r + 1) / 2) + 8))
tap_eq "every payload byte stored ($((bytes / 65536)) times the ring's size)" \
	$bytes "$(sw_attr 0 bytes_written)"
check_writers $W/wrap.stp
rm -f $W/wrap.stp.json

sw_finish
exit 0
