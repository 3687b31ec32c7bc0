#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fused.t - the STP decoder's fused path (fn = mttd_msg_stp_fn) gives the
# messages, stream events and counters of the event path; ASan + UBSan.
. "$(dirname "$0")/lib.sh"
run_ctest fused "$TOP/tests/host/enc/stpenc.c"
