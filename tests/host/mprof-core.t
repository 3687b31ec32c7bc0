#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof-core.t - libmprofdev's freestanding core (tools/lib/mprofdev/
# core.c, ring.c: what the Linux port and the firmware share) driven
# directly by tests/host/src/mprofcore.c under ASan + UBSan: the command
# parser's resync, every response, the hooks' records and depths with
# an interrupt inside a hook, batches, kicks, overflows, STOP, RESET,
# TIME_SYNC; then the core built with -DMPROFDEV_NO_TIME_SYNC (a device
# that predates the exchange: NACK), its TAP numbered on from the first.
. "$(dirname "$0")/lib.sh"
L=$TOOLS/lib
for v in mprofcore:'' mprofcore-old:-DMPROFDEV_NO_TIME_SYNC; do
	san_cc "$TMP/${v%%:*}" ${v#*:} -I"$L/mprofdev" \
		"$TOP/tests/host/src/mprofcore.c" "$L/mprofdev/core.c" \
		"$L/mprofdev/ring.c" "$L/wire/crc.c" "$L/wire/mprof_wire.c" \
		>"$TMP/cc.log" 2>&1 ||
		{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build ${v%%:*} with $(ctest_cc) and ASan/UBSan"; }
done
"$TMP/mprofcore" | grep -v '^1\.\.' >"$TMP/out" || true
cat "$TMP/out"
n=$(grep -c '^\(not \)\{0,1\}ok ' "$TMP/out")
"$TMP/mprofcore-old" >"$TMP/old" || true
awk -v n="$n" '/^(not )?ok [0-9]+ /{ k = $1 == "not" ? 3 : 2; $k += n; print }
	/^#/' "$TMP/old"
echo "1..$((n + $(grep -c '^\(not \)\{0,1\}ok ' "$TMP/old")))"
