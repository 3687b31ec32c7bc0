#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# property.t - randomised round trips through the test-only encoder,
# chunking invariance, resync after garbage, random input; ASan + UBSan.
. "$(dirname "$0")/lib.sh"
run_ctest property "$TOP/tests/host/enc/stpenc.c"
