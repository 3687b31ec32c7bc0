#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# systclient.t - each SyS-T message gets the collateral client of its GUID
# (or of its master and channel) with 100 sources interleaved in several
# orders: the decoder's per-GUID client cache never hands one source's
# client to another (tests/host/src/systclient.c, under ASan + UBSan).
. "$(dirname "$0")/lib.sh"
run_ctest systclient "$TOP/tests/host/enc/systenc.c"
