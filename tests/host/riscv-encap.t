#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# riscv-encap.t - the RISC-V trace encapsulation decoder: public vectors,
# round trips for srcID 0..16 bits x timestamps 0..8 bytes, cut points,
# corrupted bytes, bad packets, messages; built and run under ASan + UBSan.
. "$(dirname "$0")/lib.sh"
run_ctest rvtest "$TOP/tests/host/enc/rvenc.c"
