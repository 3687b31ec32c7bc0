#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the kernel's checkpatch.pl (taken from Debian's linux-source-6.1
# tarball into a cache outside the repo) in --strict mode on every kernel
# C source and header of the suite: drivers/, include/, tests/kmod/.
# Exits non-zero on any error, warning or check.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/stm-checkpatch
want=(checkpatch.pl spelling.txt const_structs.checkpatch)

[ -r "$tarball" ] || { echo "checkpatch.sh: $tarball missing (apt-get install linux-source-6.1)" >&2; exit 1; }
case "$cache/" in "$top"/*) echo "checkpatch.sh: cache $cache is inside the repo" >&2; exit 1 ;; esac

# Re-extract when the tarball changes (size + mtime stamp).
stamp=$(stat -c '%s %Y' "$tarball")
if [ "$(cat "$cache/stamp" 2>/dev/null)" != "$stamp" ] || [ ! -x "$cache/scripts/checkpatch.pl" ]; then
	rm -rf "$cache"
	mkdir -p "$cache/scripts"
	members=()
	for f in "${want[@]}"; do members+=("*/scripts/$f"); done
	tar -xJf "$tarball" -C "$cache/scripts" --strip-components=2 \
		--wildcards --no-wildcards-match-slash "${members[@]}"
	chmod +x "$cache/scripts/checkpatch.pl"
	echo "$stamp" >"$cache/stamp"
fi

cd "$top"
# (not the *.mod.c that modpost writes next to the test modules)
mapfile -t files < <(find drivers include tests/kmod -type f \( -name '*.c' -o -name '*.h' \) \
	! -name '*.mod.c' 2>/dev/null | sort)
if [ ${#files[@]} -eq 0 ]; then
	echo "checkpatch.sh: no kernel sources found" >&2
	exit 1
fi

# The MTT API's names are typedefs (mtt_return_t, mtt_comp_handle_t, ...):
# code written for ST's <linux/mtt.h> must build unchanged.
typedef_api=" include/linux/mtt.h include/uapi/linux/mtt_defs.h "

bad=0
for f in "${files[@]}"; do
	extra=()
	case "$typedef_api" in *" $f "*) extra=(--ignore NEW_TYPEDEFS) ;; esac
	if ! out=$(perl "$cache/scripts/checkpatch.pl" --strict --no-tree --show-types --color=never "${extra[@]}" -f "$f" 2>&1); then
		bad=$((bad + 1))
		printf '%s\n' "$out"
	elif ! grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$out"; then
		bad=$((bad + 1))
		printf '%s\n' "$out"
	fi
done
echo "checkpatch: ${#files[@]} files, $bad with problems"
[ "$bad" -eq 0 ]
