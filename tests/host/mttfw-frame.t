#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mttfw-frame.t - libmttfw's frames byte for byte (mttfw_frame(), written
# a word at a time, and the CRC word of mttfw_add_crc() with libwire's
# CRC-16) against an encoder written from Documentation/mtt.rst, every
# payload size 0..70, hint length and alignment
# (tests/host/src/mttfwframe.c, under ASan + UBSan).
. "$(dirname "$0")/lib.sh"

san_tools
if ! san_cc "$TMP/mttfwframe" -I"$TOOLS/lib/mttfw/include" -I"$TOOLS/lib/wire/include" \
    -I"$TOP/include/uapi" \
    "$TOP/tests/host/src/mttfwframe.c" "$SAN/libmttfw.a" >"$TMP/cc.log" 2>&1; then
	sed 's/^/# /' "$TMP/cc.log"
	bail "cannot build mttfwframe with $(ctest_cc) and ASan/UBSan"
fi
exec "$TMP/mttfwframe"
