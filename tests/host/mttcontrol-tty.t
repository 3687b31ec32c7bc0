#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mttcontrol-tty.t - a serial target's port found with libudev
# (tools/mttcontrol/udev.c) against this host's /sys/class/tty: by
# kernel name, property, sysfs attribute, sysfs path; none or several
# matching are errors naming the target.  Built and run under ASan +
# UBSan.
. "$(dirname "$0")/lib.sh"
run_ctest mctty "$TOOLS/mttcontrol/udev.c" "$TOOLS/mttcontrol/sysfs.c" -ludev
