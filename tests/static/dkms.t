#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dkms.conf for every installed kernel, as TAP, without touching the
# host's dkms state: `dkms add`, `build` and `install --no-depmod` run in
# a private tree (--sourcetree, --dkmstree, --installtree and a signing
# key of their own under a temporary directory), for each kernel with a
# build tree in /lib/modules.  Each kernel must get exactly the modules
# its kind needs (scripts/stm-class-kind.sh: the kernel's STM class or
# ours) and none with the name of one of its own modules; then `dkms
# remove --all` leaves the private tree empty, and the host's `dkms
# status` and /var/lib/dkms are as before.  `dkms install` needs root:
# as another user only add and build run (the install steps SKIP).
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
pkg=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' dkms.conf)
# dkms_list VAR: the module names of dkms.conf's list VAR (FOLDER/NAME each).
dkms_list() {
	local m
	for m in $(kernel_source_dir=/nonexistent bash -c ". ./dkms.conf && echo \$$1"); do
		echo "${m##*/}"
	done
}
extra=$(dkms_list stm_extra_modules)
class=$(dkms_list stm_class_modules)
mapfile -t kernels < <(for b in /lib/modules/*/build; do
	[ -r "$b/.config" ] && basename "$(dirname "$b")"
done | sort -V)

if ! command -v dkms >/dev/null; then
	echo "1..1"
	echo "not ok 1 - dkms installed (make deps)"
	exit 1
fi
if [ ${#kernels[@]} -eq 0 ]; then
	echo "1..1"
	echo "not ok 1 - a kernel build tree in /lib/modules/*/build (make deps)"
	exit 1
fi
echo "1..$((4 + 3 * ${#kernels[@]}))"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { sed 's/^/# /' "$@" | tail -n 30; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/$pkg-$ver" "$tmp/tree" "$tmp/inst"
# the signing key dkms makes when it has none: here, not /var/lib/dkms
export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub
D=(dkms --dkmstree "$tmp/tree" --sourcetree "$tmp/src" --installtree "$tmp/inst")
root=
[ "$(id -u)" -eq 0 ] && root=1
host_before=$(dkms status 2>/dev/null; ls -lR /var/lib/dkms 2>/dev/null)

# the sources as a user has them: the files git tracks, as in the worktree
if git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$tmp/src/$pkg-$ver"; then
	ok "sources copied to a private --sourcetree"
else
	nok "sources copied to a private --sourcetree"
fi
if "${D[@]}" add "$pkg/$ver" >"$tmp/add.log" 2>&1; then
	ok "dkms add $pkg/$ver"
else
	nok "dkms add $pkg/$ver"
	diag "$tmp/add.log"
fi

for k in "${kernels[@]}"; do
	kind=$(scripts/stm-class-kind.sh -q "/lib/modules/$k/build")
	want=$extra
	[ "$kind" = kernel ] || want="$class $want"
	want=$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')
	want=${want% }
	if nice "${D[@]}" build "$pkg/$ver" -k "$k" >"$tmp/build-$k.log" 2>&1; then
		ok "$k: dkms build"
	else
		nok "$k: dkms build"
		diag "$tmp/build-$k.log"
	fi
	if [ -z "$root" ]; then
		skip "$k: dkms install" "dkms install needs root"
		skip "$k: the modules of its kind (class: $kind)" "dkms install needs root"
		continue
	fi
	mkdir -p "$tmp/inst/$k"
	if "${D[@]}" install --no-depmod "$pkg/$ver" -k "$k" >"$tmp/inst-$k.log" 2>&1; then
		ok "$k: dkms install (into the private --installtree)"
	else
		nok "$k: dkms install (into the private --installtree)"
		diag "$tmp/inst-$k.log"
	fi
	got=$(find "$tmp/inst/$k" -name '*.ko*' -printf '%f\n' | sed 's/\.ko.*//' | sort | tr '\n' ' ')
	got=${got% }
	dup=""
	for m in $got; do
		find "/lib/modules/$k/kernel" -name "$m.ko*" | grep -q . && dup="$dup $m"
	done
	if [ "$got" = "$want" ] && [ -z "$dup" ]; then
		ok "$k: the modules of its kind (class: $kind): $got"
	else
		nok "$k: the modules of its kind (class: $kind)"
		echo "# want: $want"
		echo "#  got: $got"
		[ -z "$dup" ] || echo "# the kernel has its own:$dup"
	fi
done

"${D[@]}" remove --all "$pkg/$ver" >"$tmp/remove.log" 2>&1
left=$(find "$tmp/tree" "$tmp/inst" -name '*.ko*' | head -n 5)
st=$("${D[@]}" status 2>/dev/null)
if [ -z "$left" ] && [ -z "$st" ]; then
	ok "dkms remove --all: nothing left in the private trees"
else
	nok "dkms remove --all: nothing left in the private trees"
	echo "# status: $st"
	echo "# left: $left"
	diag "$tmp/remove.log"
fi
if [ "$host_before" = "$(dkms status 2>/dev/null; ls -lR /var/lib/dkms 2>/dev/null)" ]; then
	ok "the host's dkms status and /var/lib/dkms unchanged"
else
	nok "the host's dkms status and /var/lib/dkms unchanged"
fi
