#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the debug lane's kernel (KASAN, UBSAN, lockdep, atomic-sleep and
# list debugging, kmemleak) from Debian's linux-source-6.1: tinyconfig +
# tests/lanes/debug.config.  The tree is cached outside the repo, keyed by
# the fragment's and the source's checksums, so a rebuild happens only
# when either changes.  Prints the build tree's path on stdout.
#
#   build-debug-kernel.sh            build (or reuse) and print the tree
# A second caller waits for a build under way (flock) and reuses it.
# Environment: STM_CACHE (default /var/cache/stm-ci), JOBS (default nproc)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
frag=$top/tests/lanes/debug.config
src=/usr/src/linux-source-6.1.tar.xz
cache=${STM_CACHE:-/var/cache/stm-ci}
jobs=${JOBS:-$(nproc)}

[ -r "$src" ] || { echo "build-debug-kernel: $src missing (apt-get install linux-source-6.1)" >&2; exit 1; }
key=$( (sha256sum <"$frag"; stat -c '%s %Y' "$src") | sha256sum | cut -c1-16)
tree=$cache/linux-debug-$key
mkdir -p "$cache"
# One build at a time: make check starts one in the background while it
# builds the rest, and the debug lane's own call waits here for it.
exec 9>"$cache/.lock"
flock 9
if [ -e "$tree/.stm-built" ]; then
	echo "$tree"
	exit 0
fi

mkdir -p "$cache"
rm -rf "$tree" "$tree.tmp"
mkdir -p "$tree.tmp"
echo "build-debug-kernel: extracting $src" >&2
tar -xJf "$src" -C "$tree.tmp" --strip-components=1
cd "$tree.tmp"
{
	make tinyconfig
	scripts/kconfig/merge_config.sh -m .config "$frag"
	make olddefconfig
} >/dev/null
# Every option of the fragment must have survived olddefconfig.
missing=0
while read -r line; do
	case $line in
	CONFIG_*=*) grep -qx "$line" .config || { echo "build-debug-kernel: not set: $line" >&2; missing=1; } ;;
	esac
done < "$frag"
[ "$missing" = 0 ] || exit 1

echo "build-debug-kernel: building with $jobs jobs (about 6 minutes on 2 cores)" >&2
make -j"$jobs" bzImage modules >build.log 2>&1 || { tail -n 40 build.log >&2; exit 1; }
touch .stm-built
cd /
mv "$tree.tmp" "$tree"
# Trees of older fragments or sources are several GB each: drop them.
find "$cache" -mindepth 1 -maxdepth 1 -name 'linux-debug-*' ! -name "${tree##*/}" \
	-exec rm -rf {} +
echo "$tree"
