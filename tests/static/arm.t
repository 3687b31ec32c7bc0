#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Arm cross-builds, as TAP (Documentation/kernels.rst, "Arm
# boards"): for Debian's arm64 and armmp (armhf) 6.1 kernels,
# scripts/cross-build.sh fetches the headers (scripts/cross-kdir.sh,
# cached) and builds the modules with the cross compiler; each build
# must hold every module dkms.conf names for that kernel (swstm on armhf
# too), each one an ELF of the target's machine, with no compiler
# warning in the product modules nor in the test modules (the Arm lanes
# load both).
# Where a cross compiler or the headers cannot be had, that
# architecture's checks SKIP, unless STM_CHECK_ARM=1: then they fail.  The builds go to tests/build/cross-ARCH.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# unavailable DESC WHY: fail under STM_CHECK_ARM=1, else skip
unavailable() {
	if [ "${STM_CHECK_ARM:-}" = 1 ]; then
		nok "$1 ($2; STM_CHECK_ARM=1)"
	else
		skip "$1" "$2"
	fi
}

mkdir -p "$top/tests/build"
archs=(arm64 armhf)
declare -A machine=([arm64]=AArch64 [armhf]=ARM)
echo "1..$((4 * ${#archs[@]}))"

for a in "${archs[@]}"; do
	out=$top/tests/build/cross-$a
	cross=$(scripts/cross-kdir.sh --cross "$a")
	if ! command -v "${cross}gcc-12" >/dev/null; then
		unavailable "$a: modules cross-built" "no ${cross}gcc-12 (make deps)"
		unavailable "$a: every module of dkms.conf, $a ELF" "no compiler"
		unavailable "$a: no warning in the product modules" "no compiler"
		unavailable "$a: no warning in the test modules" "no compiler"
		continue
	fi
	if ! kdir=$(scripts/cross-kdir.sh "$a" 2>"$out.kdir.log"); then
		why="headers not fetched: $(tail -n 1 "$out.kdir.log")"
		unavailable "$a: modules cross-built" "$why"
		unavailable "$a: every module of dkms.conf, $a ELF" "no headers"
		unavailable "$a: no warning in the product modules" "no headers"
		unavailable "$a: no warning in the test modules" "no headers"
		continue
	fi
	rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h")
	if scripts/cross-build.sh "$a" "$out" >/dev/null 2>"$out.err"; then
		ok "$a: modules cross-built for $rel"
	else
		nok "$a: modules cross-built for $rel"
		sed 's/^/# /' "$out.err" | tail -n 30
		unavailable "$a: every module of dkms.conf, $a ELF" "no build"
		unavailable "$a: no warning in the product modules" "no build"
		unavailable "$a: no warning in the test modules" "no build"
		continue
	fi

	want=$(kernel_source_dir=$kdir bash -c '. ./dkms.conf; printf "%s\n" "${BUILT_MODULE_NAME[@]}"' | sort)
	got=$(sed 's|.*/||; s|\.ko$||' "$out/modules.order" | sort)
	badelf=""
	while read -r m; do
		f=$(find "$out/drivers" -name "$m.ko")
		readelf -h "$f" 2>/dev/null | grep -Eq "Machine:[[:space:]]+${machine[$a]}\$" ||
			badelf="$badelf $m"
	done <<<"$got"
	if [ -n "$want" ] && [ "$got" = "$want" ] && [ -z "$badelf" ]; then
		ok "$a: every module of dkms.conf, $a ELF: $(echo $got)"
	else
		nok "$a: every module of dkms.conf, $a ELF"
		echo "# want: $(echo $want)"
		echo "#  got: $(echo $got)"
		[ -z "$badelf" ] || echo "# not ${machine[$a]}:$badelf"
	fi

	# the product modules' lines of the log (the test-only ones build after)
	bad=$(sed '/tests\/kmod/,$d' "$out/build.log" | grep -E 'warning|error|not built')
	if [ -z "$bad" ]; then
		ok "$a: no warning in the product modules"
	else
		nok "$a: no warning in the product modules"
		printf '%s\n' "$bad" | head -n 20 | sed 's/^/# /'
	fi
	# the test modules too: the arm64 and armhf lanes load them
	bad=$(sed -n '/tests\/kmod/,$p' "$out/build.log" | grep -E 'warning|error')
	if [ -z "$bad" ]; then
		ok "$a: no warning in the test modules"
	else
		nok "$a: no warning in the test modules"
		printf '%s\n' "$bad" | head -n 20 | sed 's/^/# /'
	fi
done
