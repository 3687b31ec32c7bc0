#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/vm-budget.t: a hang guard longer than the script's limit is cut
# to end before it (wait_until and STM_DEADLINE), so the script still
# reports and exits by itself.
. /stm/tests/lib.sh
never() { return 1; }
tap_check "STM_DEADLINE is set" test -n "$STM_DEADLINE"
tap_fails "a 600 s guard on what never happens gives up" wait_until 600 never
tap_diag "it gave up $(($(date +%s) - STM_DEADLINE))s after STM_DEADLINE"
exit 0
