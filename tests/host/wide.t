#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wide.t - libwire's wire/wide.h, the products wider than 64 bits of the
# decoder (tick to ns, SyS-T clock correlation) and libmttclock (the hull's
# cross products, exact slopes): its 32-bit pieces, which 32-bit Arm
# builds (no __int128 there), against __int128 on this host
# (tests/host/src/widetest.c, under ASan + UBSan).
. "$(dirname "$0")/lib.sh"
run_ctest widetest
