#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's kernel headers for an Arm target and print the build
# tree to cross-build our modules against (KDIR), without installing
# anything on the host and without adding a foreign architecture to its
# dpkg: a private apt state (lists, cache, an empty dpkg status) under
# the cache, for the target architecture alone, reads the host's own
# sources; `apt-get download` fetches the flavour's headers package and
# its arch-independent -common package, and `dpkg-deb -x` unpacks both
# into the cache.  The flavour's Makefile includes the -common package's
# by its absolute /usr/src path: in the cache it includes the cached
# copy instead.  Its scripts link points at linux-kbuild-<ver>: that is
# the host's (/usr/lib/linux-kbuild-<ver>, amd64 programs run at build
# time), which must be installed (linux-headers-amd64 pulls it in).
#
#   cross-kdir.sh arm64     Debian's arm64 6.1 (linux-headers-arm64)
#   cross-kdir.sh armhf     Debian's armmp 6.1 (linux-headers-armmp)
#   cross-kdir.sh --cross ARCH   print the CROSS_COMPILE prefix only
#   cross-kdir.sh --image ARCH   the kernel to boot instead (tests/lanes/
#                           arm64.t): the image package of the headers'
#                           ABI (linux-image-<abi>) and busybox-static,
#                           both of ARCH, unpacked the same way into
#                           $STM_CACHE/cross-ARCH-image-<abi> (boot/, bin/
#                           busybox, lib/modules/<abi> with fs/configfs
#                           only); prints that directory
#   cross-kdir.sh --libs ARCH    the tools' libraries instead: the ARCH
#                           -dev packages of install-deps.sh's tools set
#                           (expat, libelf with zlib, libconfig, libudev)
#                           and their shared libraries, unpacked the same
#                           way into $STM_CACHE/cross-ARCH-libs-KEY; prints
#                           that directory (usr/include, usr/lib/TRIPLET)
#
# The ABI is the one of the newest headers the host's sources offer,
# the same as linux-headers-amd64's.  Cached in
# $STM_CACHE/cross-<arch>-<abi> (default /var/cache/stm-ci), reused until
# the ABI changes; the apt lists are refreshed when older than a day
# (STM_CROSS_REFRESH=1: now).  A second caller waits (flock).
set -euo pipefail

cache=${STM_CACHE:-/var/cache/stm-ci}

cross_of() {
	case $1 in
	arm64) echo aarch64-linux-gnu- ;;
	armhf) echo arm-linux-gnueabihf- ;;
	*) return 1 ;;
	esac
}

usage() {
	echo "usage: cross-kdir.sh [--cross|--libs|--image] arm64|armhf" >&2
	exit 2
}

if [ "${1:-}" = --cross ]; then
	cross_of "${2:-}" || usage
	exit 0
fi
libs='' image=''
case "${1:-}" in
--libs) libs=1 && shift ;;
--image) image=1 && shift ;;
esac
arch=${1:-}
case $arch in
arm64) meta=linux-headers-arm64 ;;
armhf) meta=linux-headers-armmp ;;
*) usage ;;
esac

mkdir -p "$cache"
exec 9>"$cache/.cross-lock"
flock 9

# the private apt: the host's sources, this architecture only
apt=$cache/apt-$arch
mkdir -p "$apt/lists/partial" "$apt/archives/partial"
[ -e "$apt/status" ] || : >"$apt/status"
APT=(apt-get -q
	-o "APT::Architecture=$arch" -o "APT::Architectures=$arch"
	-o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status"
	-o "Dir::Cache=$apt" -o "Dir::Cache::archives=$apt/archives"
	-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=")
# A partial update (some lists failed) is tried again after an hour, not
# at every call: a lane calls this three or four times, and each failing
# update took 90 s (three tries of a slow mirror).
if [ -n "${STM_CROSS_REFRESH:-}" ] ||
	{ [ -z "$(find "$apt" -maxdepth 1 -name updated -mmin -1440)" ] &&
		[ -z "$(find "$apt" -maxdepth 1 -name updated-partial -mmin -60)" ]; }; then
	echo "cross-kdir: apt-get update for $arch (private lists in $apt)" >&2
	# A mirror in the middle of a sync fails a list now and then: retry,
	# then go on with the lists that did arrive (bookworm-security's
	# armhf list failed so for hours: the headers were then those of
	# the last point release, an older ABI), saying so.
	for try in 1 2 3; do
		"${APT[@]}" update >"$apt/update.log" 2>&1 && touch "$apt/updated" && break
		if [ "$try" = 3 ]; then
			grep -E '^(E|W):' "$apt/update.log" | head -n 3 >&2
			find "$apt/lists" -maxdepth 1 -name '*_Packages*' | grep -q . ||
				exit 1
			echo "cross-kdir: some $arch lists failed; going on with the others" >&2
			touch "$apt/updated-partial"
		fi
		sleep 2
	done
fi

# unpack TREE PKG...: download the packages, unpack them into TREE (made
# anew through TREE.tmp)
unpack() {
	local t=$1 d
	shift
	rm -rf "$t" "$t.tmp"
	mkdir -p "$t.tmp/deb"
	echo "cross-kdir: fetching $*" >&2
	(cd "$t.tmp/deb" && "${APT[@]}" download "$@") >"$t.tmp/download.log" 2>&1 ||
		{ tail -n 20 "$t.tmp/download.log" >&2; exit 1; }
	for d in "$t.tmp"/deb/*.deb; do
		dpkg-deb -x "$d" "$t.tmp"
	done
	rm -rf "$t.tmp/deb"
	# absolute links (libz.so -> /lib/...): into the tree instead
	find "$t.tmp" -type l -lname '/*' | while read -r d; do
		ln -sfn "$t$(readlink "$d")" "$d"
	done
}

# publish TREE GLOB [FIND TESTS...]: TREE.tmp, unpacked, becomes TREE;
# the other trees named GLOB (older versions) are removed
publish() {
	local t=$1 glob=$2
	shift 2
	touch "$t.tmp/.stm-done"
	mv "$t.tmp" "$t"
	find "$cache" -mindepth 1 -maxdepth 1 -name "$glob" ! -name "${t##*/}" "$@" \
		-exec rm -rf {} +
}

if [ -n "$libs" ]; then
	pkgs=(libexpat1-dev libexpat1 libelf-dev libelf1 zlib1g-dev zlib1g
		libconfig-dev libconfig9 libudev-dev libudev1)
	# keyed by the packages' versions: new ones, a new tree
	key=$("${APT[@]}" download --print-uris "${pkgs[@]}" 2>/dev/null |
		awk '{print $2}' | sort | sha256sum | cut -c1-16)
	tree=$cache/cross-$arch-libs-$key
	if [ ! -e "$tree/.stm-done" ]; then
		unpack "$tree" "${pkgs[@]}"
		publish "$tree" "cross-$arch-libs-*"
	fi
	echo "$tree"
	exit 0
fi

# dep_of PKG REGEX: the first dependency of PKG matching REGEX
dep_of() {
	apt-cache -o "APT::Architecture=$arch" -o "APT::Architectures=$arch" \
		-o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status" \
		-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" \
		depends "$1" 2>/dev/null |
		sed -n 's/^ *Depends: \([^ :]*\).*/\1/p' | grep -E -m1 "$2"
}
flavour=$(dep_of "$meta" '^linux-headers-') ||
	{ echo "cross-kdir: $meta ($arch) not in the apt lists" >&2; exit 1; }
common=$(dep_of "$flavour" '^linux-headers-.*-common$') ||
	{ echo "cross-kdir: no -common package for $flavour" >&2; exit 1; }
kbuild=$(dep_of "$flavour" '^linux-kbuild-') ||
	{ echo "cross-kdir: no linux-kbuild package for $flavour" >&2; exit 1; }
abi=${flavour#linux-headers-}
if [ -n "$image" ]; then
	tree=$cache/cross-$arch-image-$abi
	if [ ! -e "$tree/.stm-done" ]; then
		unpack "$tree" "linux-image-$abi" busybox-static
		# what a lane boots: the image, busybox, configfs.ko
		find "$tree.tmp/lib/modules/$abi/kernel" -mindepth 1 -maxdepth 1 \
			! -name fs -exec rm -rf {} +
		find "$tree.tmp/lib/modules/$abi/kernel/fs" -mindepth 1 -maxdepth 1 \
			! -name configfs -exec rm -rf {} +
		rm -rf "$tree.tmp/usr"
		publish "$tree" "cross-$arch-image-*"
	fi
	echo "$tree"
	exit 0
fi
tree=$cache/cross-$arch-$abi
kdir=$tree/usr/src/$flavour
if [ -e "$tree/.stm-done" ]; then
	echo "$kdir"
	exit 0
fi
if [ ! -d "/usr/lib/$kbuild/scripts" ]; then
	echo "cross-kdir: /usr/lib/$kbuild missing: apt-get install $kbuild" >&2
	exit 1
fi

unpack "$tree" "$flavour" "$common"
# the cached -common, not the host's /usr/src one
sed -i "s|^include /usr/src/$common/|include $tree/usr/src/$common/|" \
	"$tree.tmp/usr/src/$flavour/Makefile"
# the scripts and tools links resolve to the host's kbuild programs
mkdir -p "$tree.tmp/usr/lib"
ln -s "/usr/lib/$kbuild" "$tree.tmp/usr/lib/$kbuild"
# trees of older ABIs of this architecture: drop them
publish "$tree" "cross-$arch-*" ! -name "cross-$arch-libs-*" ! -name "cross-$arch-image-*"
echo "$kdir"
