#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The product build ships no test module, as TAP: the test-only modules
# (obj-m of tests/kmod/Kbuild) are absent from the top-level Kbuild, from
# dkms.conf, from the modules.order of `make modules`, and from what
# `make modules_install` (the kernel half of `make install`) puts into an
# INSTALL_MOD_PATH staging tree, even with the test modules built.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
KDIR=${KDIR:-$(scripts/kdir.sh)}
export KDIR
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
echo "1..7"

# in_list NAME LIST...: NAME is one of LIST.
in_list() {
	local n=$1 w
	shift
	for w in "$@"; do [ "$w" = "$n" ] && return 0; done
	return 1
}

# common ARRAY1 ARRAY2: the names in both arrays (space-separated).
common() {
	local -n a=$1 b=$2
	local n out=""
	for n in "${a[@]}"; do in_list "$n" "${b[@]}" && out="$out $n"; done
	echo "${out# }"
}

# 1: the test modules, from tests/kmod/Kbuild; every tests/kmod/*.c is one.
mapfile -t tmods < <(sed -n 's/^obj-m[[:space:]]*+\{0,1\}:\{0,1\}=//p' tests/kmod/Kbuild |
	tr ' \t' '\n\n' | sed -n 's/\.o$//p')
mapfile -t tsrcs < <(find tests/kmod -maxdepth 1 -name '*.c' ! -name '*.mod.c' \
	-printf '%f\n' | sed 's/\.c$//')
missing=""
for s in "${tsrcs[@]}"; do in_list "$s" "${tmods[@]}" || missing="$missing $s"; done
if [ "${#tmods[@]}" -gt 0 ] && [ -z "$missing" ]; then
	echo "ok 1 - tests/kmod/Kbuild builds every test module: ${tmods[*]}"
else
	echo "not ok 1 - tests/kmod/Kbuild builds every test module (${tmods[*]}; not built:$missing)"
fi

# 2: the top-level Kbuild (outside comments) names no test source or module.
bad=$(grep -nvE '^[[:space:]]*#' Kbuild |
	grep -E 'tests/|\<('"$(IFS='|'; echo "${tmods[*]}")"')\>')
if [ -z "$bad" ]; then
	echo "ok 2 - top-level Kbuild references no test module"
else
	echo "not ok 2 - top-level Kbuild references no test module"
	printf '%s\n' "$bad" | sed 's/^/# /'
fi

# 3: dkms builds none of them.
mapfile -t dkms < <(kernel_source_dir=$KDIR bash -c '. ./dkms.conf; printf "%s\n" "${BUILT_MODULE_NAME[@]}"')
both=$(common dkms tmods)
if [ "${#dkms[@]}" -gt 0 ] && [ -z "$both" ]; then
	echo "ok 3 - dkms.conf builds ${#dkms[@]} modules, no test module"
else
	echo "not ok 3 - dkms.conf builds ${#dkms[@]} modules, no test module (has: $both)"
fi

# 4: the product build's module list.
if ! out=$(make -s modules 2>&1); then
	echo "not ok 4 - make modules"
	printf '%s\n' "$out" | tail -n 30 | sed 's/^/# /'
else
	mapfile -t order < <(sed 's|.*/||; s|\.ko$||' modules.order)
	both=$(common order tmods)
	if [ "${#order[@]}" -gt 0 ] && [ -z "$both" ]; then
		echo "ok 4 - make modules: ${#order[@]} modules in modules.order, no test module"
	else
		echo "not ok 4 - make modules: ${#order[@]} modules in modules.order, no test module (has: $both)"
	fi
fi

# 5: the test modules build on request (so their absence above means something).
if out=$(make -s -C tests kmod 2>&1) &&
	built=$(for m in "${tmods[@]}"; do [ -f "tests/kmod/$m.ko" ] || echo "$m"; done) &&
	[ -z "$built" ]; then
	echo "ok 5 - make -C tests kmod builds the test modules"
else
	echo "not ok 5 - make -C tests kmod builds the test modules (missing: ${built:-?})"
	printf '%s\n' "$out" | tail -n 30 | sed 's/^/# /'
fi

# 6, 7: a staged modules_install.
if ! out=$(make modules_install INSTALL_MOD_PATH="$stage" 2>&1); then
	echo "not ok 6 - make modules_install INSTALL_MOD_PATH=<staging>"
	printf '%s\n' "$out" | tail -n 30 | sed 's/^/# /'
	echo "not ok 7 - no test module installed # not run"
	exit 0
fi
mapfile -t inst < <(find "$stage" -name '*.ko*' -printf '%f\n' | sed 's/\.ko.*$//' | sort)
mapfile -t want < <(printf '%s\n' "${order[@]}" | sort)
if [ "${inst[*]}" = "${want[*]}" ] && [ "${#inst[@]}" -gt 0 ]; then
	echo "ok 6 - modules_install staged exactly the ${#inst[@]} product modules"
else
	echo "not ok 6 - modules_install staged exactly the product modules"
	echo "# installed: ${inst[*]}"
	echo "#  expected: ${want[*]}"
fi
both=$(common inst tmods)
if [ -z "$both" ]; then
	echo "ok 7 - no test module installed"
else
	echo "not ok 7 - no test module installed (installed: $both)"
fi
