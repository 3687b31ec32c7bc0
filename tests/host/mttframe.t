#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mttframe.t - native MTT frame decoder golden tests (frames written out by
# hand from mtt.md, every type, levels, CRC, names, damaged streams and
# any chunking); built and run under ASan + UBSan.
. "$(dirname "$0")/lib.sh"
run_ctest mttframe
