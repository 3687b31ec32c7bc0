#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel build tree to build modules against: the running
# kernel's if it has one, else the one of Debian's default kernel (what
# the linux-headers-amd64 meta-package depends on; 6.1 on Debian 12, even
# with 6.12 headers installed beside it), else the newest installed
# linux-headers-*-amd64 (the non-RT flavour).
set -e
run="/lib/modules/$(uname -r)/build"
if [ -d "$run" ]; then
	echo "$run"
	exit 0
fi
def=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	sed -n 's/^\(linux-headers-[^ ,]*-amd64\).*/\1/p')
if [ -n "$def" ] && [ -d "/usr/src/$def" ]; then
	echo "/usr/src/$def"
	exit 0
fi
best=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | grep -v -- '-rt-amd64' | sort -V | tail -n 1)
if [ -z "$best" ]; then
	echo "kdir.sh: no kernel build tree; install linux-headers-amd64 or set KDIR" >&2
	exit 1
fi
echo "$best"
