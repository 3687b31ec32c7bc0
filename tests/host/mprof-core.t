#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof-core.t - libmprofdev's freestanding core (tools/lib/mprofdev/
# core.c, ring.c: what the Linux port and the firmware share) driven
# directly by tests/host/src/mprofcore.c under ASan + UBSan: the command
# parser's resync, every response, the hooks' records and depths with
# an interrupt inside a hook, batches, kicks, overflows, STOP, RESET.
. "$(dirname "$0")/lib.sh"
L=$TOOLS/lib
san_cc "$TMP/mprofcore" -I"$L/mprofdev" "$TOP/tests/host/src/mprofcore.c" \
	"$L/mprofdev/core.c" "$L/mprofdev/ring.c" "$L/wire/crc.c" \
	"$L/wire/mprof_wire.c" >"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build mprofcore with $(ctest_cc) and ASan/UBSan"; }
"$TMP/mprofcore"
