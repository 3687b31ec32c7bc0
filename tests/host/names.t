#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# names.t - source names and ftrace: policy snapshots, kallsyms, tracefs
# format files, ftrace record rendering (handmade data in data/);
# ASan + UBSan.
. "$(dirname "$0")/lib.sh"
run_ctest namestest "-DTESTDATA=\"$TOP/tests/host/data\""
