#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make install DESTDIR=DIR` (the top level: modules and tools) puts
# everything under DIR and touches nothing outside it, as TAP.  As root
# the install runs in a private mount namespace where /usr (/lib/modules
# with it), /etc, /var, /opt, /boot, /srv, /root and /home are overlays
# whose writes land in a scratch tmpfs: the host is never changed, even
# by a broken install, and any file those writes left is a failure.  As
# another user the install runs as it is, where a write outside DIR fails
# for want of permission; a listing of /lib/modules/<release>, /usr/local
# and /etc (names, sizes, mtimes) taken before and after must be equal.
# Then the staged tree must hold exactly the modules of modules.order
# (under lib/modules/<release>/extra/stm, depmod's modules.dep beside
# them) and the tools under DIR/usr/local.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
KDIR=${KDIR:-$(scripts/kdir.sh)}
export KDIR
rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$KDIR/include/generated/utsrelease.h")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/y
echo "1..5"

if ! make -s modules tools >"$tmp/build.log" 2>&1; then
	echo "not ok 1 - make modules tools"
	tail -n 30 "$tmp/build.log" | sed 's/^/# /'
	for i in 2 3 4 5; do echo "not ok $i - # not run"; done
	exit 1
fi
echo "ok 1 - make modules tools ($rel)"

# snapshot: what a non-root install could have changed
snapshot() {
	find "/lib/modules/$rel" /usr/local /etc -printf '%p %s %T@\n' 2>/dev/null | LC_ALL=C sort
}

# the overlaid directories: every one that exists and does not hold this
# tree (whose build products are no install's concern)
sandbox_dirs=()
for d in /usr /etc /var /opt /boot /srv /root /home; do
	[ -d "$d" ] && [ ! -L "$d" ] || continue
	case "$top/" in "$d"/*) continue ;; esac
	sandbox_dirs+=("$d")
done

# sandboxed CMD...: run CMD with the overlays; the files written under
# them are listed in $tmp/written (as paths on the host).
sandboxed() {
	unshare -m --propagation private bash -c '
		ov=$1/ov written=$1/written
		shift
		dirs=()
		while [ "$1" != -- ]; do dirs+=("$1"); shift; done
		shift
		mkdir -p "$ov" && mount -t tmpfs stm-install-t "$ov" || exit 125
		for d in "${dirs[@]}"; do
			n=$ov/${d//\//_}
			mkdir -p "$n/u" "$n/w"
			mount -t overlay overlay -o "lowerdir=$d,upperdir=$n/u,workdir=$n/w" "$d" || exit 125
		done
		"$@"
		rc=$?
		for d in "${dirs[@]}"; do
			n=$ov/${d//\//_}
			(cd "$n/u" && find . -mindepth 1 ! -type d -printf "$d/%P\n")
		done >"$written"
		exit $rc
	' sandbox "$tmp" "${sandbox_dirs[@]}" -- "$@"
}

if [ "$(id -u)" -eq 0 ]; then
	how="in a sandbox (overlays on ${sandbox_dirs[*]})"
	sandboxed make install DESTDIR="$dest" >"$tmp/install.log" 2>&1
	rc=$?
	[ $rc -ne 125 ] || echo "# the sandbox could not be set up (unshare, overlayfs)"
	outside=$(cat "$tmp/written" 2>/dev/null)
	[ -f "$tmp/written" ] || outside="(no list of writes: the sandbox failed)"
else
	how="as $(id -un), listing /lib/modules/$rel, /usr/local and /etc"
	before=$(snapshot)
	make install DESTDIR="$dest" >"$tmp/install.log" 2>&1
	rc=$?
	outside=$(diff <(echo "$before") <(snapshot) | grep '^[<>]')
fi
if [ $rc -eq 0 ]; then
	echo "ok 2 - make install DESTDIR=<tmp> $how"
else
	echo "not ok 2 - make install DESTDIR=<tmp> $how (exit $rc)"
	tail -n 30 "$tmp/install.log" | sed 's/^/# /'
fi
if [ -z "$outside" ]; then
	echo "ok 3 - nothing written outside DESTDIR"
else
	echo "not ok 3 - nothing written outside DESTDIR"
	printf '%s\n' "$outside" | head -n 30 | sed 's/^/# /'
fi

# 4: the staged modules are those of the build, depmod'ed there
mapfile -t want < <(sed 's|.*/||; s|\.k\{0,1\}o$||' modules.order | LC_ALL=C sort)
moddir=$dest/lib/modules/$rel
mapfile -t got < <(find "$moddir/extra/stm" -name '*.ko*' -printf '%f\n' 2>/dev/null |
	sed 's/\.ko.*$//' | LC_ALL=C sort)
missing_dep=""
for m in "${got[@]}"; do
	grep -q "/$m\.ko[^:]*:" "$moddir/modules.dep" 2>/dev/null || missing_dep="$missing_dep $m"
done
if [ "${#want[@]}" -gt 0 ] && [ "${got[*]}" = "${want[*]}" ] && [ -z "$missing_dep" ]; then
	echo "ok 4 - DESTDIR/lib/modules/$rel/extra/stm: the ${#got[@]} modules, in its modules.dep"
else
	echo "not ok 4 - DESTDIR/lib/modules/$rel/extra/stm: the modules, in its modules.dep"
	echo "# staged: ${got[*]}"
	echo "#   want: ${want[*]}"
	[ -z "$missing_dep" ] || echo "# not in modules.dep:$missing_dep"
fi

# 5: the tools' install got DESTDIR too
miss=""
for f in bin/mttdecode bin/mttcontrol lib/libmttdecode.so lib/libmtt.so include/mtt/mtt.h; do
	[ -e "$dest/usr/local/$f" ] || miss="$miss $f"
done
if [ -z "$miss" ]; then
	echo "ok 5 - the tools under DESTDIR/usr/local"
else
	echo "not ok 5 - the tools under DESTDIR/usr/local (missing:$miss)"
fi
