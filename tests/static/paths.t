#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The documentation (README, *.rst, *.md, man pages, configfs-examples)
# names no path of a development machine (/work/..., /home/..., /Users/,
# /root/..., /mnt/...): a reader has none of them.  Paths on the target
# (/sys, /dev, /proc, /tmp, /usr, /lib, /etc, /var) are fine.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
re='(^|[^A-Za-z0-9_.~-])/(work|home|Users|root|mnt)/'
echo "1..2"
printf '%s\n' "see /work/shared/x.md" "  cd /home/me/stm" "/sys/kernel/config/stp-policy" \
	"tools/build/mttdecode /tmp/s" "s|/root/|" >"${TMPDIR:-/tmp}/paths.$$"
hits=$(grep -cE "$re" "${TMPDIR:-/tmp}/paths.$$")
rm -f "${TMPDIR:-/tmp}/paths.$$"
if [ "$hits" = 3 ]; then echo "ok 1 - self-test: the pattern finds /work/, /home/, /root/ and not /sys or /tmp"; else echo "not ok 1 - self-test: $hits hits of 3"; fi
if git rev-parse --git-dir >/dev/null 2>&1; then
	mapfile -t docs < <(git ls-files -- README '*.rst' '*.md' '*.[1-8]' 'configfs-examples/*')
else
	mapfile -t docs < <(find . -path ./tests/vm/out -prune -o -type f \( -name README -o \
		-name '*.rst' -o -name '*.md' -o -name '*.[1-8]' \) -print | sed 's|^\./||')
fi
bad=$(grep -nE "$re" "${docs[@]}")
if [ -z "$bad" ]; then
	echo "ok 2 - no development machine's path in ${#docs[@]} documents"
else
	echo "not ok 2 - a development machine's path in the documentation"
	echo "$bad" | sed 's/^/# /'
fi
[ -z "$bad" ] && [ "$hits" = 3 ]
