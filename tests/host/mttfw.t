#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mttfw.t - libmttfw, MTT for firmware (tools/lib/mttfw), built for the
# host under ASan + UBSan with a memory sink (tests/host/src/mttfwtest.c):
# frames decode with libmttdecode to exactly what was traced, filtered-out
# calls write nothing, commands and replies, frames with and without
# the CRC word (the crc16 option), the RISC-V encapsulation
# writer against the specification's vectors and libmttdecode's decoder.
. "$(dirname "$0")/lib.sh"

san_tools
if ! san_cc "$TMP/mttfwtest" -I"$TOOLS/lib/mttfw/include" -I"$TOOLS/lib/wire/include" \
    -I"$TOP/include/uapi" \
    "$TOP/tests/host/src/mttfwtest.c" "$SAN/libmttfw.a" "$SAN/libmttdecode.a" \
    -lexpat >"$TMP/cc.log" 2>&1; then
	sed 's/^/# /' "$TMP/cc.log"
	bail "cannot build mttfwtest with $(ctest_cc) and ASan/UBSan"
fi
exec "$TMP/mttfwtest"
