#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Components from several modules at once: mtt_sample (a timer: values,
# a named signal, a string, a vector, a print), mtt_peer (four
# components) and mtt_test, tracing together.  Every component is named
# by a META frame, has its own id, and every value arrives exactly once.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/mtt_lib.sh

W=$SW_WORK
tap_check "stack, mtt, policy, source linked" mtt_setup "" sink_size=4194304
tap_check "load mtt_test" mod_load mtt_test
tap_check "load mtt_sample: 3 ticks of 10 ms" mod_load mtt_sample interval_ms=10 count=3
tap_check "load mtt_peer: 4 components, 10 values each" mod_load mtt_peer comps=4 n=10
mtt_run "trace 20" >/dev/null
# META, the init print, 3 ticks of 5 traces
sample_done() {
	[ "$(head -n 1 $MTT_COMPS/mtt_sample/stats)" = "sent 17" ]
}
tap_check "the sample traced 3 ticks (waited for, at most 600 s)" wait_until 600 sample_done
tap_eq "six components in sysfs" "mtt_sample mtt_test peer0 peer1 peer2 peer3" \
	"$(ls $MTT_COMPS | sort | tr '\n' ' ' | sed 's/ $//')"
tap_eq "six distinct ids" 6 "$(cat $MTT_COMPS/*/id | sort -u | grep -c .)"
mtt_frames $W/a.stp $W/a.txt
tap_eq "no malformed frame" 0 "$(grep -c error= $W/a.txt)"
for c in mtt_sample mtt_test peer0 peer1 peer2 peer3; do
	id=$(mtt_id $c)
	tap_eq "$c: one META frame with its name" 1 \
		"$(grep -c "cmd=0x4000 .* comp=$id .* data=$(mtt_hex $c)\$" $W/a.txt)"
done
for c in peer0 peer1 peer2 peer3; do
	tap_eq "$c: values 1..10 in order" "1 2 3 4 5 6 7 8 9 10" \
		"$(grep " comp=$(mtt_id $c) .*hint=peer " $W/a.txt |
			sed 's/.*data=\(..\).*/\1/' | while read -r h; do echo $((0x$h)); done |
			tr '\n' ' ' | sed 's/ $//')"
done
S=$(mtt_id mtt_sample)
tap_eq "mtt_test: 20 values" 20 "$(grep -c " comp=$(mtt_id mtt_test) .*hint=seq " $W/a.txt)"
tap_eq "sample: the counter 1..3 (hint NULL)" "01000000 02000000 03000000" \
	"$(grep " comp=$S .*hint=NULL " $W/a.txt | sed 's/.*data=//' | tr '\n' ' ' | sed 's/ $//')"
tap_eq "sample: signal0 = 10, 20, 30" "0a000000 14000000 1e000000" \
	"$(grep " comp=$S .*hint=signal0 " $W/a.txt | sed 's/.*data=//' | tr '\n' ' ' | sed 's/ $//')"
tap_eq "sample: the string" 3 \
	"$(grep -c " comp=$S .*type=0x0102000a .*level=0x10000000 hint=name size=10 data=$(mtt_hex mtt_sample)\$" $W/a.txt)"
tap_eq "sample: the u16 vector" "0100020003000400 0200030004000500 0300040005000600" \
	"$(grep " comp=$S .*type=0x03010008 .*hint=vec " $W/a.txt | sed 's/.*data=//' | tr '\n' ' ' | sed 's/ $//')"
tap_eq "sample: the prints" "$(mtt_hex fake_alsa_init) $(mtt_hex 'tick 1 of 3') $(mtt_hex 'tick 2 of 3') $(mtt_hex 'tick 3 of 3')" \
	"$(grep " comp=$S .*type=0x0102" $W/a.txt | grep -v 'hint=name' | grep -v 'cmd=0x4000' |
		sed 's/.*data=//' | tr '\n' ' ' | sed 's/ $//')"
tap_eq "sample's timer: context id 0 is not used (softirq runs in a task)" 0 \
	"$(grep " comp=$S .*cmd=0x0000" $W/a.txt | grep -c -v ' ctx=[0-9]')"
tap_check "unload them" sh -c 'rmmod mtt_peer && rmmod mtt_sample && rmmod mtt_test'
tap_eq "no component left" "" "$(ls $MTT_COMPS)"
sw_finish
exit 0
