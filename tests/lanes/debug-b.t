#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The debug lane's second guest: the scripts tests/lanes/debug.t lists in
# DEBUG_B, on the same debug kernel (lane "debug-b").
#   prove -v tests/lanes/debug-b.t
STM_DEBUG_PART=b exec "$(dirname "$0")/debug.t"
