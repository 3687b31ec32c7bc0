#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# crc.t - one implementation of each CRC the wire formats carry
# (tools/lib/wire/crc.c): the published check values, a bit-at-a-time
# reference written from the parameters, pieces; CRC-32C by each of its
# implementations (the table; SSE4.2 on x86-64 CPUs that have it), at
# every alignment and against each other; CRC-16 a byte and four bytes
# at a time (tests/host/src/crctest.c,
# under ASan + UBSan).
. "$(dirname "$0")/lib.sh"
run_ctest crctest
