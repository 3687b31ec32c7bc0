#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the test VM's initramfs (gzip'ed newc cpio).
#
#   mkinitramfs.sh -o OUT.cpio.gz -k KMODDIR [-m MODDIR]...
#
#   -k KMODDIR  the guest kernel's modules (an installed /lib/modules/<rel>
#               or a build tree): configfs.ko is taken from there
#   -m MODDIR   a module build dir whose modules (our modules, in any of its
#               folders: tests/vm/modfiles.sh) go to /stm/modules/ (repeatable)
#   -g DIR      more guest scripts for /stm/tests/ (repeatable)
#
# Layout: busybox + applet links, /init (tests/guest/init), /stm/modules,
# /stm/kmod/configfs.ko, /stm/bin (tools/build/*, tests/build/guest/*,
# trc_pkt_lister, $STM_VM_EXTRA_BINS, with every shared library they
# need), /stm/tests
# (tests/guest/* but C sources), /stm/tests/lib (tests/lib/*.sh),
# /stm/configfs-examples, /stm/vm (kernel log patterns).
#
# Another architecture (tests/vm/env.sh): STM_VM_ARCH=arm64 (armhf) takes
# busybox from STM_VM_BUSYBOX (its applet list read under qemu-aarch64,
# qemu-arm), the tools from STM_VM_TOOLS, the guest programs from
# STM_VM_GUEST_BIN, no trc_pkt_lister (OpenCSD's is the host's), and the
# shared libraries from STM_VM_LIBPATH (each ELF's NEEDED, into
# /lib/aarch64-linux-gnu or /lib/arm-linux-gnueabihf, its loader at its
# PT_INTERP path).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
arch=${STM_VM_ARCH:-x86_64}
case $arch in
x86_64) triplet=x86_64-linux-gnu qemu_user= ;;
arm64) triplet=aarch64-linux-gnu qemu_user=qemu-aarch64 ;;
armhf) triplet=arm-linux-gnueabihf qemu_user=qemu-arm ;;
*) echo "mkinitramfs: STM_VM_ARCH is x86_64, arm64 or armhf, not '$arch'" >&2; exit 2 ;;
esac
tools=${STM_VM_TOOLS:-$top/tools/build}
guestbin=${STM_VM_GUEST_BIN:-$top/tests/build/guest}
libpath=${STM_VM_LIBPATH:-}
out='' kmoddir=''
moddirs=() guestdirs=("$top/tests/guest")
while getopts o:k:m:g: opt; do
	case $opt in
	o) out=$OPTARG ;;
	k) kmoddir=$OPTARG ;;
	m) moddirs+=("$OPTARG") ;;
	g) guestdirs+=("$OPTARG") ;;
	*) exit 2 ;;
	esac
done
[ -n "$out" ] && [ -n "$kmoddir" ] || { echo "usage: $0 -o OUT -k KMODDIR [-m MODDIR]..." >&2; exit 2; }

die() { echo "mkinitramfs: $*" >&2; exit 1; }

stage=$(mktemp -d /tmp/stm-initramfs.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,root,etc} \
	"$stage"/stm/{modules,kmod,bin,tests/lib,configfs-examples,vm,run}

# copy_libs ELF: put every shared library ELF needs (and the loader) at
# the same path inside the initramfs.
copy_libs() {
	local lib
	if [ -n "$libpath" ]; then
		copy_libs_from "$1"
		return
	fi
	if ldd "$1" 2>&1 | grep -q 'not found'; then
		die "$1: missing shared libraries: $(ldd "$1" | grep 'not found' | tr -s ' \t\n' ' ')"
	fi
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# copy_libs_from ELF: the same for another architecture: every NEEDED
# library (recursively) found in $libpath goes to /lib/<triplet>/, the
# loader to its PT_INTERP path; the target's loader searches both.
copy_libs_from() {
	local interp lib d found
	interp=$(readelf -l "$1" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
	if [ -n "$interp" ] && [ ! -e "$stage$interp" ]; then
		mkdir -p "$stage$(dirname "$interp")"
		found=
		for d in ${libpath//:/ }; do
			[ -e "$d/${interp##*/}" ] && found=$d/${interp##*/} && break
		done
		[ -n "$found" ] || die "$1: loader $interp not in $libpath"
		cp -L "$found" "$stage$interp"
	fi
	for lib in $(readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		[ -e "$stage/lib/$triplet/$lib" ] && continue
		case $lib in ld-linux-*) continue ;; esac
		found=
		for d in ${libpath//:/ }; do
			[ -e "$d/$lib" ] && found=$d/$lib && break
		done
		[ -n "$found" ] || die "$1: library $lib not in $libpath"
		mkdir -p "$stage/lib/$triplet"
		cp -L "$found" "$stage/lib/$triplet/$lib"
		copy_libs_from "$found"
	done
}

# busybox and its applet links
bb=${STM_VM_BUSYBOX:-}
if [ "$arch" = x86_64 ]; then
	[ -n "$bb" ] || bb=$(command -v busybox) || die "busybox not found (apt-get install busybox-static)"
	bbrun=("$bb")
else
	[ -n "$bb" ] && [ -x "$bb" ] || die "no $arch busybox (STM_VM_BUSYBOX='$bb')"
	bbrun=("$qemu_user" "$bb")
fi
cp -L "$bb" "$stage/bin/busybox"
copy_libs "$bb"
for a in $("${bbrun[@]}" --list-full); do
	[ -e "$stage/$a" ] || [ -L "$stage/$a" ] && continue
	mkdir -p "$stage/$(dirname "$a")"
	ln -s /bin/busybox "$stage/$a"
done

# our modules, from each dir's modules.order (tests/vm/modfiles.sh):
# all of them side by side in /stm/modules, whatever folder built them
for d in "${moddirs[@]}"; do
	[ -d "$d" ] || die "module dir $d does not exist"
	# a command substitution, not "mapfile < <(...) && wait $!": bash
	# 5.2's wait for a process substitution now and then fails although
	# it exited 0 (seen as the k612 lane's "initramfs built" failing in
	# CI; here 10 to 16 of 24000 calls with four loops side by side)
	list=$("$top/tests/vm/modfiles.sh" "$d") || die "module dir $d: modules missing"
	kos=()
	[ -z "$list" ] || mapfile -t kos <<<"$list"
	for ko in "${kos[@]}"; do
		[ ! -e "$stage/stm/modules/${ko##*/}" ] || die "two modules named ${ko##*/} ($ko)"
		cp "$ko" "$stage/stm/modules/"
	done
done

# the kernel's configfs.ko, uncompressed
cfs=$(find "$kmoddir/" -name 'configfs.ko*' -type f 2>/dev/null | head -n 1)
[ -n "$cfs" ] || die "no configfs.ko under $kmoddir"
case "$cfs" in
*.ko) cp "$cfs" "$stage/stm/kmod/configfs.ko" ;;
*.ko.xz) xz -dc "$cfs" >"$stage/stm/kmod/configfs.ko" ;;
*.ko.gz) gzip -dc "$cfs" >"$stage/stm/kmod/configfs.ko" ;;
*.ko.zst) zstd -qdc "$cfs" >"$stage/stm/kmod/configfs.ko" ;;
*) die "cannot use $cfs" ;;
esac

# executables: our tools, guest test programs, OpenCSD's packet lister
bins=()
opencsd=/usr/bin/trc_pkt_lister
[ "$arch" = x86_64 ] || opencsd=
for f in "$tools"/* "$guestbin"/* $opencsd; do
	[ -f "$f" ] && [ -x "$f" ] && bins+=("$f")
done
for f in "${bins[@]}"; do
	cp -L "$f" "$stage/stm/bin/"
	if head -c 4 "$f" | grep -q 'ELF'; then
		copy_libs "$f"
	fi
done
# more executables a run asks for (STM_VM_EXTRA_BINS, space-separated
# paths; the bench's profiles carry perf), with their libraries
for f in ${STM_VM_EXTRA_BINS:-}; do
	[ -f "$f" ] && [ -x "$f" ] || die "STM_VM_EXTRA_BINS: $f is not an executable"
	cp -L "$f" "$stage/stm/bin/"
	copy_libs "$f"
done

# scripts, data, init
for d in "${guestdirs[@]}"; do
	find "$d" -maxdepth 1 -type f ! -name '*.c' ! -name '*.h' -exec cp {} "$stage/stm/tests/" \;
done
chmod 755 "$stage"/stm/tests/*.sh 2>/dev/null || true
if compgen -G "$top/tests/lib/*.sh" >/dev/null; then
	cp "$top"/tests/lib/*.sh "$stage/stm/tests/lib/"
fi
if [ -d "$top/configfs-examples" ]; then
	cp -r "$top/configfs-examples/." "$stage/stm/configfs-examples/"
fi
for f in log-patterns.txt log-ignore.txt; do
	grep -v -e '^#' -e '^[[:space:]]*$' "$top/tests/vm/$f" >"$stage/stm/vm/$f" || true
done
install -m 755 "$top/tests/guest/init" "$stage/init"
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"
echo "root:x:0:" >"$stage/etc/group"

mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
(cd "$stage" && find stm init -type f | LC_ALL=C sort) >"$out.list"
