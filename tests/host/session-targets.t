#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# session-targets.t - libmttsession's readers of an mttcontrol session's
# serial targets (names, metadata, read times), against files written
# from Documentation/sessions.rst (and the clock exchange requests);
# built and run under ASan + UBSan.
. "$(dirname "$0")/lib.sh"
san_tools
mkdir "$TMP/s"
san_cc "$TMP/sesstargets" "$TOP/tests/host/src/sesstargets.c" \
	"$SAN/libmttsession.a" >"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build sesstargets"; }
"$TMP/sesstargets" "$TMP/s"
