#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# MTT traces from task, hard-IRQ and NMI context at once on one
# component: mtt_test's "ctx 200" traces a task counter 1..3000 while an
# hrtimer on the same CPU traces 200 values in hard IRQ context, each
# tick first sending an NMI to its own CPU that traces too (x86).  Nested
# traces must never corrupt each other: every frame is well formed and
# every value of every context arrives exactly once (a frame whose
# channel is busy goes out on an overflow channel; none is dropped).
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/mtt_lib.sh

W=$SW_WORK
mtt_setup "" sink_size=16777216 && tap_ok "stack, mtt, policy, source linked" ||
	tap_fail "stack, mtt, policy, source linked"
tap_check "load mtt_test" mod_load mtt_test
C=$MTT_COMPS/mtt_test
ID=$(mtt_id mtt_test)
tap_errno "ctx 200" OK mtt_run "ctx 200"
R=$(cat /sys/module/mtt_test/parameters/result)
tap_diag "result: $R"
T=$(echo "$R" | sed -n 's/^task=\([0-9]*\) .*/\1/p')
N=$(echo "$R" | sed -n 's/.* nmi=\([0-9]*\)$/\1/p')
tap_match "3000 task and 200 IRQ traces" '^task=3000 irq=200 ' "$R"
case "$(uname -m)" in
x86_64) tap_check "NMIs traced ($N)" test "${N:-0}" -ge 1 ;;
*) tap_skip "NMIs traced" "NMI IPIs only on x86" ;;
esac
mtt_frames $W/a.stp $W/a.txt
tap_eq "no malformed frame" 0 "$(grep -c error= $W/a.txt)"
tap_eq "nothing dropped" "dropped 0" "$(tail -n 1 $C/stats)"
tap_eq "frames = sent" "sent $(grep -c " comp=$ID " $W/a.txt)" "$(head -n 1 $C/stats)"
# vals HINT: the values of HINT's frames, sorted, one line
vals() {
	grep " comp=$ID .*hint=$1 " $W/a.txt | sed 's/.*data=//' | awk '
		function hx(s) { return index("0123456789abcdef", s) - 1 }
		{ v = 0
		  for (i = 7; i >= 1; i -= 2)
			v = v * 256 + hx(substr($0, i, 1)) * 16 + hx(substr($0, i + 1, 1))
		  print v }' | sort -n | tr '\n' ' ' | sed 's/ $//'
}
tap_eq "task values 1..$T, each once" "$(seq 1 "$T" | tr '\n' ' ' | sed 's/ $//')" "$(vals task)"
tap_eq "IRQ values 1..200, each once" "$(seq 1 200 | tr '\n' ' ' | sed 's/ $//')" "$(vals irq)"
tap_eq "NMI values 1..$N, each once" "$(seq 1 "${N:-0}" | tr '\n' ' ' | sed 's/ $//')" "$(vals nmi)"
tap_eq "IRQ and NMI frames: context id 0" 0 \
	"$(grep -e 'hint=irq ' -e 'hint=nmi ' $W/a.txt | grep -c -v ' ctx=0 ')"
tap_diag "frames on overflow channels (56..63): $(grep -c '^m=2 c=5[6-9] \|^m=2 c=6[0-3] ' $W/a.txt)"
tap_check "unload mtt_test" mod_unload mtt_test
sw_finish
exit 0
