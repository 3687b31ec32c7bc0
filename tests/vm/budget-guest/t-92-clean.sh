#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/vm-budget.t: what the script before left (t-91, killed) is gone.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
tap_eq "no policy left" "" "$(policies_left)"
tap_eq "no module left" "" "$(mods_extra)"
stack_load || tap_fail "load the stack"
sw_policy swstm.0.budget
tap_check "the same policy can be made again" test -d "$CFG/swstm.0.budget"
sw_policy_rm
tap_check "and the stack unloads" stack_unload
exit 0
