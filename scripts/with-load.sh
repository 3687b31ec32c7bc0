#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run a command; with STM_CHECK_LOAD=1, keep every host core busy while
# it runs: one spinning process per core (STM_CHECK_LOAD_JOBS to change
# the count), at the same priority as the tests, stopped when the
# command ends.  This is how the suite is run "under load": a test that
# counts what happens in a time window, or wants a delay to be short,
# fails here.
#   STM_CHECK_LOAD=1 scripts/with-load.sh make check-run
set -uo pipefail

if [ "${STM_CHECK_LOAD:-0}" != 1 ]; then
	exec "$@"
fi

jobs=${STM_CHECK_LOAD_JOBS:-$(nproc)}
pids=()
stop() {
	[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	pids=()
}
trap stop EXIT
trap 'stop; exit 130' INT TERM
for _ in $(seq 1 "$jobs"); do
	bash -c 'while :; do :; done' &
	pids+=($!)
done
echo "with-load: $jobs spinning processes (pids ${pids[*]}) while: $*" >&2
"$@"
rc=$?
stop
exit $rc
