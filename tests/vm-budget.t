#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The VM suite's time budgets and clean state (tests/guest/init,
# tests/vm/suite.sh, tests/guest/lib.sh), with the guest scripts of
# tests/vm/budget-guest on the default lane's kernel, two short runs:
#  1. 45 s a script: a hang guard longer than that is cut and the script
#     still reports (t-90); a script killed at its limit with modules,
#     a policy and a link in place (t-91) fails, and the next one starts
#     clean (t-92); state the init cannot clean (made up with
#     stm.fake_unclean) gets a fresh boot for the rest (t-93).
#  2. a boot limit shorter than the script limit: the script's limit is
#     cut to what is left of the boot's.
top=$(cd "$(dirname "$0")/.." && pwd)
echo "1..12"
. "$top/tests/vm/short-run-lib.sh"

# suite NAME TESTS: run the suite on the budget scripts; output in $log
suite() {
	export STM_TESTS=$2 STM_VM_LANE=budget-$1
	export STM_VM_OUT=$top/tests/vm/out/budget-$1
	export STM_VM_EXTRA_GUEST=$top/tests/vm/budget-guest
	out=$STM_VM_OUT
	log=$(mktemp)
	"$top/tests/vm/suite.sh" >"$log" 2>&1
	rc=$?
}

# has ERE: the run's TAP has a line matching ERE
has() { grep -qE "$1" "$out/tap.log"; }

STM_VM_SCRIPT_TIMEOUT=45 STM_VM_TIMEOUT=900 STM_VM_APPEND="stm.fake_unclean=t-92-clean.sh" \
	suite limits t-90-wait-cut,t-91-killed,t-92-clean,t-93-fresh
ok $((rc == 0)) "a script timed out: the run fails"
has '^ok [0-9]+ - t-90-wait-cut.sh: a 600 s guard on what never happens gives up$'
ok $? "a guard past the script's limit gives up before it"
has '^ok [0-9]+ - t-90-wait-cut.sh: exit status 0 \([0-9]+s of its 45s limit\)$'
ok $? "that script reports and exits by itself, its time against its limit"
has '^not ok [0-9]+ - t-91-killed.sh: timed out after 45s'
ok $? "a script that sleeps past its limit is killed and fails"
has '^not ok [0-9]+ - t-91-killed.sh: left modules loaded: .*\(policies: swstm.0.budget\)$'
ok $? "what it left is named"
has '^ok [0-9]+ - t-92-clean.sh: no policy left$' && has '^ok [0-9]+ - t-92-clean.sh: no module left$' &&
	has '^ok [0-9]+ - t-92-clean.sh: exit status 0'
ok $? "the next script starts clean and passes"
grep -q '^# the guest could not clean up after a script: booting again from t-93-fresh.sh$' "$log"
ok $? "state left that cannot be cleaned: a fresh boot from the next script"
has '^ok [0-9]+ - t-93-fresh.sh: runs on the run.s second boot$' && has '^ok [0-9]+ - t-93-fresh.sh: exit status 0'
ok $? "which runs there"
[ "$(grep -c '^# VM ran' "$log")" = 2 ] && has '^ok [0-9]+ - console-boot1: kernel log clean$'
ok $? "two boots, both kernel logs scanned"
[ "$(grep -c '^ok [0-9]* - t-9[0-9].*exit status 0' "$out/tap.log")" = 3 ] && ! grep -q 'never ran\|did not finish' "$out/tap.log"
ok $? "every script reported"
show_run 60

# 300 s: building the initramfs, QEMU's start and the boot come out of
# the boot's limit before the script, and the init's clean-up after it;
# in a fresh-clone run under load (load average 17 to 20) 150 s left the
# script too little (prepare 48 s, the guest killed 1 s past its limit)
STM_VM_SCRIPT_TIMEOUT=600 STM_VM_TIMEOUT=300 STM_VM_APPEND= suite boot t-90-wait-cut
lim=$(sed -n 's/^ok [0-9]* - t-90-wait-cut.sh: exit status 0 ([0-9]*s of its \([0-9]*\)s limit)$/\1/p' "$out/tap.log")
ok $((rc != 0)) "a script limit cut to the boot's: the run passes"
[ -n "$lim" ] && [ "$lim" -lt 300 ]
ok $? "the script's limit ($lim s) is what is left of the boot's 300 s"
show_run 60
