# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What tests/vm-budget.t and tests/vm-boot-retry.t share (sourced): TAP
# checks on the short runs of tests/vm/suite.sh they make.
#
#   ok STATUS DESC  prints "ok N - DESC" when STATUS is 0, else "not ok"
#   show_run N      after a failed check since the last show_run, the
#                   run's last N lines (the file $log) on stderr, where
#                   CI sees them (it shows the end of the output, and
#                   prove passes stderr through); then removes $log
n=0 failed=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}

# shellcheck disable=SC2154 # $log: set by the caller's suite()
show_run() {
	[ "$failed" = 0 ] || { echo "${0##*/}, run $STM_VM_LANE:"; tail -n "$1" "$log"; } | sed 's/^/# /' >&2
	failed=0
	rm -f "$log"
}
