#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# crc.t - one implementation of each CRC the wire formats carry
# (tools/lib/wire/crc.c): the published check values, a bit-at-a-time
# reference written from the parameters, pieces; CRC-32C by each of its
# implementations (the table; the CPU's instruction: SSE4.2 crc32 on
# x86-64, ARMv8 CRC32C on arm64 under tests/host/arm64.t), on random
# lengths at every alignment, from random start values, and so against
# each other; CRC-16 a byte and four bytes at a time
# (tests/host/src/crctest.c, under ASan + UBSan).  On x86-64 the SSE4.2
# path must be the one wire_crc32c() runs (CRCTEST_EXPECT=hw): every
# x86-64 CPU this is tested on has it.  crc-static.t: the same program
# linked statically, and on a CPU without SSE4.2.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] && export CRCTEST_EXPECT=hw
run_ctest crctest
