#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# floatfmt.t - doubles in SyS-T PRINTF messages (as in catalog messages)
# rendered by libmttdecode exactly as the C library's printf() renders
# them, which is how the MIPI reference printer renders them: rounding
# edge cases, random values and bit patterns, %f at every precision, with
# widths and flags, %F, %e, %g (tests/host/src/floatfmt.c, under ASan +
# UBSan; messages from tests/host/enc/systenc.c).
. "$(dirname "$0")/lib.sh"
run_ctest floatfmt "$TOP/tests/host/enc/systenc.c" -lm
