#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/vm-budget.t: a script killed at its limit in the middle of its
# work (modules loaded, a policy made, a source linked): the init must
# clean all of it up for the next script.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
stack_load || tap_fail "load the stack"
sw_policy swstm.0.budget
sw_node swstm.0.budget heartbeat.0 "1 1" "0 15"
mod_load stm_heartbeat || tap_fail "load stm_heartbeat"
tap_errno "link heartbeat.0" OK fsop write /sys/class/stm_source/heartbeat.0/stm_source_link swstm.0
tap_check "a policy exists" test -n "$(policies_left)"
tap_ok "now sleeping past the limit"
sleep 100000
