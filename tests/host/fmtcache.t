#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fmtcache.t - collateral formats compiled once per entry, when it is
# loaded: every conversion kind rendered from the compiled form, twice,
# the same as the format interpreted (PRINTF), and never a stale format
# after the entry changes or another collateral is loaded
# (tests/host/src/fmtcache.c, under ASan + UBSan).
. "$(dirname "$0")/lib.sh"
run_ctest fmtcache "$TOP/tests/host/enc/systenc.c"
