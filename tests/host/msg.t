#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# msg.t - message reassembly, byte order, limits and loss reporting;
# built and run under ASan + UBSan.
. "$(dirname "$0")/lib.sh"
run_ctest msgtest
