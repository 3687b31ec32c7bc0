#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: boot the VM and run tests/guest/demo.sh (a trace session),
# its output shown on the terminal; then bring the session and its
# decoded trace out to the host and decode them there too
# (demo-export.sh: tests/vm/out/demo/, with the Chrome trace JSON to open
# in Perfetto), saying where they are.  Settings: tests/vm/env.sh.
set -uo pipefail
export STM_VM_LANE=${STM_VM_LANE:-demo}
# multi-threaded TCG (not tests/vm/env.sh's x86 default): the demo's two
# writers run at the same instant, and it hooks no function
# (Documentation/kernels.rst)
export STM_VM_ACCEL=${STM_VM_ACCEL:-tcg}
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"

"$STM_VM/run-plain.sh" demo
rc=$?
# after a failure, what the guest did send is still worth a look
if [ "$rc" -eq 0 ] || [ -f "$STM_VM_OUT/exports/demo-session.tar.gz" ]; then
	"$STM_VM/demo-export.sh" "$STM_VM_OUT" || rc=1
fi
exit "$rc"
