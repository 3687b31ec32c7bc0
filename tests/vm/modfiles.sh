#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel module files a module directory holds, one path a line: the
# modules its last Kbuild run built, from its modules.order (the product
# build puts each .ko in its folder, drivers/stm/stm_core.ko, ...; the
# list is relative or absolute, naming .ko or, since 6.2, .o files), so
# that no .ko left over from an older build is taken; a directory without
# modules.order (the kernel's own modules unpacked by a lane) gives its
# *.ko.  Fails when a listed module has no .ko file.
#
#   modfiles.sh DIR...
set -euo pipefail
rc=0
for d in "$@"; do
	if [ ! -f "$d/modules.order" ]; then
		find "$d" -maxdepth 1 -name '*.ko' -type f | LC_ALL=C sort
		continue
	fi
	while read -r m; do
		[ -n "$m" ] || continue
		case "$m" in /*) ;; *) m=$d/$m ;; esac
		m=${m%.o}
		m=${m%.ko}.ko
		if [ -f "$m" ]; then
			echo "$m"
		else
			echo "modfiles.sh: $m (in $d/modules.order) not built" >&2
			rc=1
		fi
	done <"$d/modules.order"
done
exit $rc
