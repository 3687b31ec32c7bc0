#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# crc-static.t - wire_crc32c() is a GNU indirect function
# (tools/lib/wire/crc32c_hw.c): tests/host/src/crctest.c built without
# sanitizers and linked statically (glibc's static start-up binds it),
# run natively (x86-64 here: SSE4.2 crc32 must be the one bound) and
# under qemu-x86_64 with a CPU that has no SSE4.2 (qemu64: the table
# must be).  One check per run: exit 0, no "not ok"; the runs' "# "
# lines say which path ran.  The shared library's binding: install.t
# (the mttd_crc32c(3) EXAMPLE against the installed libmttdecode.so).
. "$(dirname "$0")/lib.sh"
if [ "$(uname -m)" != x86_64 ]; then
	echo "1..0 # SKIP not an x86-64 host (arm64: tests/host/arm64.t)"
	exit 0
fi
tools_make
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O2 -D_DEFAULT_SOURCE -static \
	-I"$TOOLS/lib/mttdecode/include" -I"$TOOLS/lib/wire/include" \
	-I"$TOP/tests/host/src" -o "$TMP/crctest" \
	"$TOP/tests/host/src/crctest.c" "$TOP/tests/host/src/testutil.c" \
	"$TOOLS/build/libmttdecode.a" >"$TMP/cc.log" 2>&1
tap_ok $? "crctest links statically (no sanitizers)"
sed 's/^/# /' "$TMP/cc.log" | head -n 10

# run EXPECT NAME [RUNNER...]: the static crctest with CRCTEST_EXPECT
run() {
	want=$1
	name=$2
	shift 2
	CRCTEST_EXPECT=$want "$@" "$TMP/crctest" >"$TMP/out" 2>&1
	st=$?
	grep '^# ' "$TMP/out"
	[ $st -eq 0 ] && grep -q '^ok' "$TMP/out" && ! grep -q '^not ok' "$TMP/out"
	tap_ok $? "static crctest, $name: $(grep -c '^ok' "$TMP/out") checks pass, wire_crc32c() is the $want path"
	grep '^not ok' "$TMP/out" | sed 's/^/# /'
}
run hw "natively"
if command -v qemu-x86_64 >/dev/null; then
	run table "under qemu-x86_64 -cpu qemu64 (no SSE4.2)" qemu-x86_64 -cpu qemu64
else
	tap_ok 0 "static crctest without SSE4.2 # SKIP no qemu-x86_64 (qemu-user)"
fi
tap_done
