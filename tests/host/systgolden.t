#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# systgolden.t - SyS-T decoder golden tests: hand-derived messages of
# every type and subtype, every status, CRC check values, collateral
# client selection (GUID, pseudo-GUID, masks, two files), the plain
# stream framer and the reference printer text input; ASan + UBSan.
. "$(dirname "$0")/lib.sh"
run_ctest systgolden "-DTESTDATA=\"$TOP/tests/host/data\""
