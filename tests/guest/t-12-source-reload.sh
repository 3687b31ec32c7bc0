#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Source lifetime against stm_source_link: every source module (console,
# heartbeat, ftrace, the test source) is reloaded over and over while
# other tasks relink and unlink the sources as fast as they can.  A link
# written while a source unregisters must fail (ENODEV, or ENOENT once
# the file is gone), never relink a dying source: that left its list
# entry, its console or its trace export behind in an unloaded module.
# Fixed work on both sides (a number of reloads, a number of link
# writes); the kernel log (KASAN, lockdep, list debugging, kmemleak in
# the debug lane) and the final unload of the STM device are the checks.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
if stm_class_upstream; then
	tap_skip "source reload against stm_source_link" \
		"upstream 6.12's class corrupts its link list when a link races a source's unregistration (kernel BUG in stm_source_link_store, Documentation/abi.rst); ours refuses the link"
	exit 0
fi

W=$SW_WORK
S=/sys/class/stm_source
ROUNDS=${STM_RELOAD_ROUNDS:-$(stress_n 25)}
WRITES=${STM_RELOAD_WRITES:-$(stress_n 300)}
MODS="stm_console stm_heartbeat stm_ftrace stm_test_source"

stack_load || tap_fail "load the stack"
# a new node spans the device's whole ranges
tap_check "p_basic policy with a default node" mkdir -p $CFG/swstm.0.rl/default

# linker NAME...: WRITES link/unlink writes spread over the named
# sources; every result is one of the errnos a dying or absent source may
# give, or OK.  Prints the tally and "bad=N" for anything else.
linker() {
	local i=0 n src out ok=0 gone=0 bad=0
	n=$#
	while [ $i -lt "$WRITES" ]; do
		eval "src=\${$((i % n + 1))}"
		if [ $((i % 4)) -eq 3 ]; then
			out=$(fsop write "$S/$src/stm_source_link" none)
			[ "$out" = EINVAL ] && out=OK
		else
			out=$(fsop write "$S/$src/stm_source_link" swstm.0)
		fi
		case "$out" in
		OK) ok=$((ok + 1)) ;;
		ENODEV | ENOENT) gone=$((gone + 1)) ;;
		*) bad=$((bad + 1)); echo "unexpected: $src: $out" ;;
		esac
		i=$((i + 1))
	done
	echo "ok=$ok gone=$gone bad=$bad"
}

linker console heartbeat.0 >$W/l1.out &
p1=$!
linker ftrace test_source heartbeat.1 >$W/l2.out &
p2=$!

# Reload every source module until both linkers are done, and at least
# ROUNDS times, so reloads overlap the writes whatever the speed.
r=0 loadfail=0
while [ $r -lt "$ROUNDS" ] || sw_running $p1 || sw_running $p2; do
	for m in $MODS; do
		case $m in
		stm_heartbeat) mod_load $m nr_devs=2 interval_ms=1 ;;
		stm_test_source) mod_load $m nr_chans=1 period_us=500 ;;
		*) mod_load $m ;;
		esac || loadfail=$((loadfail + 1))
	done
	for m in $MODS; do
		mod_unload $m || loadfail=$((loadfail + 1))
	done
	r=$((r + 1))
	# hang guard: the linkers do a fixed number of writes
	[ $r -lt 5000 ] || break
done
wait $p1
wait $p2
tap_eq "$r reloads of $MODS: every load and unload worked" 0 "$loadfail"
for f in l1 l2; do
	tap_match "linker $f: only OK, ENODEV or ENOENT ($(head -n 3 $W/$f.out | tr '\n' ' '))" \
		"bad=0\$" "$(tail -n 1 $W/$f.out)"
done

# A dying source is never left on the device: once the source modules
# are gone, the STM device unloads.
tap_check "no source module left" test -z "$(ls $S)"
tap_check "the STM device's driver unloads" mod_unload swstm

# And the sources still link normally afterwards.
sw_policy_rm
tap_check "swstm again" mod_load swstm
tap_check "p_basic policy again" mkdir -p $CFG/swstm.0.rl/default
mod_load stm_heartbeat nr_devs=1
tap_errno "heartbeat.0 links after the reloads" OK fsop write $S/heartbeat.0/stm_source_link swstm.0
tap_eq "and reads it back" swstm.0 "$(cat $S/heartbeat.0/stm_source_link)"
tap_check "unload the linked source" mod_unload stm_heartbeat
tap_check "then the device" mod_unload swstm

sw_finish
exit 0
