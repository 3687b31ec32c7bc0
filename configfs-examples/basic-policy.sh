#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Create an example STP policy for an STM device (default swstm.0): a
# catch-all "default" node, a "user" tree for applications and nodes for
# the kernel sources. See configfs-examples/README for the layout.
set -e
dev=${1:-swstm.0}
root=${STP_POLICY_ROOT:-/sys/kernel/config/stp-policy}
pol=$root/$dev.example

if [ ! -d "$root" ]; then
	echo "basic-policy.sh: $root missing: load stm_core (and configfs) first" >&2
	exit 1
fi

node() { # node PATH MASTERS CHANNELS
	mkdir "$pol/$1"
	echo "$2" > "$pol/$1/masters"
	echo "$3" > "$pol/$1/channels"
	echo "  $1: masters $2, channels $3"
}

mkdir "$pol"
echo "$pol (device $(cat "$pol/device"), protocol $(cat "$pol/protocol"))"
node default "1 1" "0 63"
node user "2 3" "0 255"
node user/app "3 3" "0 15"
node console "4 4" "0 0"
node heartbeat.0 "4 4" "1 1"
node ftrace "5 5" "0 255"
