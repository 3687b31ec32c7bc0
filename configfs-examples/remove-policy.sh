#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Remove an STP policy directory and every node under it, deepest first
# (configfs refuses to remove a non-empty directory).
set -e
pol=${1:?usage: remove-policy.sh /sys/kernel/config/stp-policy/<dev>.<name>}
find "$pol" -mindepth 1 -type d | awk '{ print length($0) " " $0 }' |
	sort -rn | cut -d' ' -f2- | while read -r d; do rmdir "$d"; done
rmdir "$pol"
