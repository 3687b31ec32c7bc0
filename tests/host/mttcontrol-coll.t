#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mttcontrol-coll.t - mttcontrol copies MTT's collateral.xml as one
# snapshot: read again while the generation markers at its start and its
# end differ, at most 8 times, then a clear error; built and run under
# ASan + UBSan.
. "$(dirname "$0")/lib.sh"
run_ctest mccoll "$TOOLS/mttcontrol/collateral.c" "$TOOLS/mttcontrol/sysfs.c"
