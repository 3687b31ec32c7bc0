#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# frame.t - golden tests of the framing layers of libmttdecode (Intel TH
# MSC blocks, CoreSight formatter frames) on hand-written captures, built
# with ASan and UBSan (src/frametest.c).
. "$(dirname "$0")/lib.sh"
run_ctest frametest
