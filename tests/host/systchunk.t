#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# systchunk.t - "SYS-T RAW DATA:" lines give the same messages and events
# whole (the one-pass path for common lines), a byte at a time and in
# random pieces, plain and altered lines, with and without a length
# limit (tests/host/src/systchunk.c, under ASan + UBSan).
. "$(dirname "$0")/lib.sh"
run_ctest systchunk "$TOP/tests/host/enc/systenc.c"
