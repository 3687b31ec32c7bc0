# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the swstm guest scripts (t-3*-swstm-*.sh), busybox sh.
# Source after /stm/tests/lib.sh.

CFG=/sys/kernel/config/stp-policy
SW_WORK=/tmp/swstm.$$
mkdir -p "$SW_WORK"

# sw_attr N ATTR: a sysfs attribute of /dev/swstm.N-sink.
sw_attr() {
	cat "/sys/class/misc/swstm.$1-sink/$2"
}

# sw_policy DEV.POLICY: create the policy directory.
sw_policy() {
	mkdir "$CFG/$1"
}

# sw_node DEV.POLICY NODE "M0 M1" "C0 C1": a node with its ranges.
sw_node() {
	mkdir -p "$CFG/$1/$2" &&
		echo "$3" >"$CFG/$1/$2/masters" &&
		echo "$4" >"$CFG/$1/$2/channels"
}

# sw_policy_rm: remove every policy directory (deepest nodes first).
sw_policy_rm() {
	local d
	[ -d "$CFG" ] || return 0
	for d in $(find "$CFG" -mindepth 1 -type d | awk '{ print length($0), $0 }' |
		sort -rn | cut -d' ' -f2-); do
		rmdir "$d" 2>/dev/null
	done
}

# SW_FLAG: 1 on upstream's class, whose p_basic ends each message with a
# FLAG packet (Documentation/abi.rst), else 0; asked once here, as the
# packet counts below are summed over hundreds of sizes.
SW_FLAG=0
stm_class_upstream && SW_FLAG=1

# sw_npackets_sum SIZE...: SW_NPK = the packets p_basic sends for
# messages of these sizes (each > 0) together: DATA packets of 8, 4, 2, 1
# bytes, plus SW_FLAG each.  Shell arithmetic only, in the caller's shell
# (no subshell, no command): on the debug kernel every fork costs a
# third of a second or more, and t-33 sums about 300 sizes.
sw_npackets_sum() {
	local s
	SW_NPK=0
	for s in "$@"; do
		SW_NPK=$((SW_NPK + s / 8 + (s >> 2 & 1) + (s >> 1 & 1) + (s & 1) + SW_FLAG))
	done
}

# sw_npackets SIZE: prints the packets p_basic sends for a SIZE-byte
# message (SIZE > 0).
sw_npackets() {
	sw_npackets_sum "$1"
	echo "$SW_NPK"
}

# sw_drain FILE [swstm_read drain options]: read sink 0 (or -d SINK) into
# FILE until it is idle; prints the byte count.
sw_drain() {
	local f=$1
	shift
	rm -f "$f"
	swstm_read drain -o "$f" "$@" | sed -n 's/^bytes=//p'
}

# sw_decode RAW JSON: mttdecode RAW into JSON lines (messages, losses).
sw_decode() {
	mttdecode --format json "$1" >"$2"
}

# sw_wait_file FILE [SECS]: wait until FILE exists (default 20 s).
sw_wait_file() {
	wait_until "${2:-20}" test -e "$1"
}

# sw_running PID: the process is still alive.
sw_running() {
	kill -0 "$1" 2>/dev/null
}

# sw_gone PID: the process has ended (for wait_until).
sw_gone() {
	! kill -0 "$1" 2>/dev/null
}

# sw_reload [SWSTM_PARAMS...]: remove policies, unload the stack, load it
# again with these swstm parameters.
sw_reload() {
	sw_policy_rm
	stack_unload && stack_load "$@"
}

# sw_finish: remove policies and work files, unload the stack.
sw_finish() {
	sw_policy_rm
	rm -rf "$SW_WORK"
	stack_unload
}

# sw_summary JSON [swstm_check msgs options]: the check's summary lines
# (or its failure lines), on one line.
sw_summary() {
	local j=$1
	shift
	swstm_check msgs "$@" "$j" | tr '\n' ' ' | sed 's/ $//'
}

# opencsd.sh --mttdecode runs our mttdecode
: "${MTTDECODE:=$(command -v mttdecode)}"
export MTTDECODE

# sw_reader FILE [swstm_read drain options]: start a reader of sink 0
# (or -d SINK) in the background, appending to FILE (give a new one)
# until sw_reader_stop.
sw_reader() {
	local f=$1
	shift
	rm -f "$SW_WORK/rstop"
	swstm_read drain -o "$f" -g "$SW_WORK/rstop" "$@" >"$SW_WORK/reader.out" &
	SW_RPID=$!
}

# sw_reader_stop: let the reader take what is left, and wait for it.
sw_reader_stop() {
	touch "$SW_WORK/rstop"
	wait "$SW_RPID"
}

# sw_wait_attr N ATTR: wait (up to 20 s) until a sink attribute is not 0.
sw_wait_attr() {
	wait_until 20 sw_attr_set "$1" "$2"
}

# sw_attr_set N ATTR: a sink attribute is not 0.
sw_attr_set() {
	[ "$(sw_attr "$1" "$2")" != 0 ]
}

# sw_chan_of OUT: the channel swstm_write reported in its output file.
sw_chan_of() {
	sed -n 's/^master=[0-9]* channel=\([0-9]*\)$/\1/p' "$1"
}

# sw_two_writers ID COUNT SIZES [COUNT_B SIZES_B]: writers A (pinned to
# CPU 0) and B (CPU 1, or 0 on a single CPU) on their own channels of
# policy node ID, COUNT messages of SIZES each (B: COUNT_B of SIZES_B if
# given), started together once both have their channel.
# Waits for them, then sets ca and cb (their channels); their outputs are
# $SW_WORK/a.out and $SW_WORK/b.out.
sw_two_writers() {
	local w=$SW_WORK c1 apid bpid
	c1=$(($(grep -c ^processor /proc/cpuinfo) > 1 ? 1 : 0))
	rm -f $w/go $w/ra $w/rb
	swstm_write -i "$1" -t A -s "$3" -n "$2" -c 0 -r $w/ra -g $w/go >$w/a.out &
	apid=$!
	swstm_write -i "$1" -t B -s "${5:-$3}" -n "${4:-$2}" -c $c1 -r $w/rb -g $w/go >$w/b.out &
	bpid=$!
	sw_wait_file $w/ra && sw_wait_file $w/rb
	touch $w/go
	wait $apid $bpid
	ca=$(sw_chan_of $w/a.out)
	cb=$(sw_chan_of $w/b.out)
}

# ---- stm_ctx_test (t-48, t-50) -------------------------------------------

CTX_PAR=/sys/module/stm_ctx_test/parameters

# ctx_name L: the parameter prefix of stm_ctx_test's context letter L
ctx_name() {
	case $1 in
	P) echo proc ;;
	S) echo softirq ;;
	H) echo hardirq ;;
	F) echo ftrace ;;
	N) echo nmi ;;
	esac
}

# ctx_count L ok|failed: a counter of context letter L (fixed once stopped)
ctx_count() {
	cat "$CTX_PAR/$(ctx_name "$1")_$2"
}

# ctx_all_wrote: every context has written at least once (F and N where
# they run)
ctx_all_wrote() {
	local L
	for L in P S H; do
		[ "$(ctx_count $L ok)" -gt 0 ] || return 1
	done
	[ "$(cat $CTX_PAR/ftrace_status)" != 1 ] || [ "$(ctx_count F ok)" -gt 0 ] || return 1
	[ "$(cat $CTX_PAR/nmi_active)" != Y ] || [ "$(ctx_count N ok)" -gt 0 ]
}

# ctx_settled: what a wait for ctx_all_wrote stops on: every context wrote,
# or stm_ctx_test counted an unexpected event (a write off its context, a
# short write), after which waiting longer proves nothing; the caller then
# checks ctx_all_wrote and the unexpected count
ctx_settled() {
	ctx_all_wrote || [ "$(cat $CTX_PAR/unexpected)" != 0 ]
}

# ctx_wait_all_wrote WHAT: wait (at most 600 s) for every context to have
# written, then a TAP result WHAT on whether each did
ctx_wait_all_wrote() {
	wait_until 600 ctx_settled
	tap_check "$1" ctx_all_wrote
}
