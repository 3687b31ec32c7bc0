#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof-proto.t - MiniProfiler host library (tools/mprof): CRC16, the
# commands, the seed's example packet dumps byte for byte, parser
# resynchronisation under every chunking, version checks, call tree and
# statistics (tests/tools/src/mprofproto.c, under ASan + UBSan).
. "$(dirname "$0")/lib.sh"
# not run_ctest: libmttdecode's sources are not needed here
cc=$(ctest_cc)
$cc -std=c11 -Wall -Wextra -Werror -g -O1 \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -D_DEFAULT_SOURCE -I"$TOOLS/mprof" \
	-I"$TOOLS/mprofdev" -I"$TOP/tests/tools/src" -o "$TMP/mprofproto" \
	"$TOP/tests/tools/src/mprofproto.c" "$TOOLS"/mprof/*.c \
	"$TOOLS/mprofdev/mprof_wire.c" -lelf >"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build mprofproto with $cc and ASan/UBSan"; }
"$TMP/mprofproto"
