#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# riscv-mtt.t - the MTT frames of RISC-V trace encapsulation srcIDs
# (mttd_rv_mtt_new(3)): two MTT srcIDs interleaved with frames cut across
# packets, a srcID that is not MTT, srcID widths 3..16, a frame cut at
# every byte, the calls' errors, memory short at each allocation in turn
# (the library's malloc, calloc and realloc wrapped); built and run under
# ASan + UBSan, LSan checking that nothing leaks.
. "$(dirname "$0")/lib.sh"
run_ctest rvmtt "$TOP/tests/host/enc/rvenc.c" -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
