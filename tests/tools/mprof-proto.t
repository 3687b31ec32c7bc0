#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof-proto.t - MiniProfiler host library (tools/mprof): CRC16, the
# commands, the seed's example packet dumps byte for byte, parser
# resynchronisation under every chunking, version checks, call tree and
# statistics (tests/tools/src/mprofproto.c, under ASan + UBSan).
. "$(dirname "$0")/lib.sh"
run_ctest mprofproto -I"$TOOLS/mprof" -I"$TOOLS/mprofdev" \
	"$TOOLS"/mprof/*.c "$TOOLS/mprofdev/mprof_wire.c" -lelf
