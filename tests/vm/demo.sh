#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: boot the VM and run tests/guest/demo.sh (a trace session),
# its output shown on the terminal. Settings: tests/vm/env.sh.
exec "$(dirname "$0")/run-plain.sh" demo
