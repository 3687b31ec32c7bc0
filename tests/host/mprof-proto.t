#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof-proto.t - MiniProfiler host library (tools/lib/mprof): CRC16, the
# commands, the seed's example packet dumps byte for byte, parser
# resynchronisation under every chunking, version checks, call tree and
# statistics (tests/host/src/mprofproto.c, under ASan + UBSan).
. "$(dirname "$0")/lib.sh"
# not run_ctest: libmprof, not libmttdecode
san_tools
san_cc "$TMP/mprofproto" "$TOP/tests/host/src/mprofproto.c" \
	"$SAN/libmprof.a" -lelf >"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build mprofproto with $(ctest_cc) and ASan/UBSan"; }
"$TMP/mprofproto"
