#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# golden.t - STPv2 decoder golden tests: hand-derived bytes for every
# opcode, nibble order, every timestamp length and format, resync, cut
# streams, and any chunking; built and run under ASan + UBSan.
. "$(dirname "$0")/lib.sh"
run_ctest golden
