#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The VM suite under prove: boots the kernel the modules were built
# against (Debian's by default) once under QEMU/TCG, runs every guest
# script tests/guest/t-*.sh, scans the kernel log, runs the host checks,
# and prints numbered TAP. Logs: tests/vm/out/<lane>/.
#
# Environment (see tests/vm/env.sh for all):
#   STM_TESTS=t-00-smoke,t-10-class-abi   run only these guest scripts
#   STM_VM_KERNEL=/path/bzImage           boot another kernel ...
#   STM_VM_KMODDIR=/path/tree             ... taking configfs.ko from here
#   STM_VM_OURMODS="/dir1 /dir2"          our modules built here (default: repo top, tests/kmod)
#   STM_VM_LANE=debug                     name of the run (output dir)
#   STM_VM_APPEND="kmemleak=on"           extra kernel command line
#   STM_VM_TIMEOUT=2400                   seconds before QEMU is killed
#   STM_VM_SCRIPT_TIMEOUT=600             seconds per guest script
# e.g.  STM_TESTS=t-00-smoke STM_VM_OURMODS=/tmp/mods prove -v tests/vm.t
exec "$(dirname "$0")/vm/suite.sh"
