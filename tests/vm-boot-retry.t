#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The VM suite's second boot (tests/vm/suite.sh, tests/guest/init): when
# the kernel reports a problem while booting, before any test ran, the
# guest asks for another boot and the host boots once more; a report on
# that second boot fails the run like any other.  Uses a report the
# init makes up (stm.fake_boot_report=once|always) and t-00-smoke only,
# on the default lane's kernel: four short boots.
top=$(cd "$(dirname "$0")/.." && pwd)
echo "1..9"
. "$top/tests/vm/short-run-lib.sh"

# suite MODE: run the suite with a made-up report; its output in $log
suite() {
	export STM_TESTS=t-00-smoke STM_VM_LANE=boot-retry-$1
	export STM_VM_OUT=$top/tests/vm/out/boot-retry-$1
	export STM_VM_APPEND="stm.fake_boot_report=$1"
	out=$STM_VM_OUT
	log=$(mktemp)
	"$top/tests/vm/suite.sh" >"$log" 2>&1
	rc=$?
}

# once: the first boot reports, the second is clean and runs the tests
suite once
ok $((rc != 0)) "report on the first boot only: the suite passes"
grep -q '^# (none of our modules was loaded): booting once more' "$log"
ok $? "it says it boots once more"
grep -q 'WARNING: stm.fake_boot_report=once' "$out/console-boot1.log"
ok $? "the first boot's console log is kept, with the report"
grep -q 'WARNING: stm.fake_boot_report' "$out/console.log"
ok $((!$?)) "the second boot's console log has none"
grep -q '^ok [0-9]* - t-00-smoke.sh: exit status 0' "$out/tap.log"
ok $? "the tests ran on the second boot"
show_run 40

# always: the second boot reports too, and the run fails on it
suite always
ok $((rc == 0)) "report on both boots: the suite fails"
[ "$(grep -c '^# VM ran' "$log")" = 2 ]
ok $? "two boots, not more"
grep -q '^not ok [0-9]* - kernel log clean' "$out/tap.log"
ok $? "the second boot's kernel log check fails"
grep -q '^ok [0-9]* - t-00-smoke.sh: exit status 0' "$out/tap.log"
ok $? "the tests still ran on the second boot"
show_run 40
