#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/vm-budget.t: after stm.fake_unclean=t-92-clean.sh, this runs on
# a fresh boot; it prints its limit (the init's exit status line).
. /stm/tests/lib.sh
tap_eq "runs on the run's second boot" 2 "$(stm_param boot)"
exit 0
