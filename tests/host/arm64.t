#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# arm64.t - the tools cross-built for arm64 (scripts/cross-build.sh
# --tools arm64: make -C tools with aarch64-linux-gnu-gcc, against Debian's
# arm64 libraries) and the C unit tests of tests/host run on them under
# qemu-aarch64 (user mode): every program the other tests/host/*.t build
# with run_ctest (the decoder's golden, SyS-T, message, frame, RISC-V,
# chunking, property tests, the CRCs, ...), taken from their run_ctest
# lines, built the same way but for arm64, linked with the arm64
# libmttdecode.a, without ASan/UBSan (their x86_64 runs have them; ASan
# does not run under qemu-user).  One check per program: exit 0, no
# "not ok".  Then mttdecode, mttcontrol and mttprofile start there
# (--version), and the arm64 mttdecode decodes every capture of the fuzz
# corpora (tools/fuzz/corpus*: hand-derived STP and SyS-T streams, the VM
# suite's captures, MTT frames, RISC-V encapsulation at five widths) in
# text with packets and in JSON, byte for byte as the host's (ASan) build
# does, with the same exit status: no difference from a plain char being
# unsigned or a long's alignment on arm64.  Without the cross
# compiler, the arm64 C library (libc6-dev-arm64-cross) or qemu-aarch64
# the checks SKIP, unless STM_CHECK_ARM=1: then they fail.  Last, the
# CRC-32C test once more on QEMU's "max" CPU, which has the CRC32
# instructions: the ARMv8 CRC32C path must be the one that ran.
. "$(dirname "$0")/lib.sh"

t=aarch64-linux-gnu
why=""
command -v $t-gcc >/dev/null || why="no $t-gcc"
[ -e /usr/$t/include/stdio.h ] || why="${why:+$why, }no libc6-dev-arm64-cross"
command -v qemu-aarch64 >/dev/null || why="${why:+$why, }no qemu-aarch64 (qemu-user)"
if [ -z "$why" ]; then
	b=$("$TOP/scripts/cross-build.sh" --tools arm64 2>"$TMP/tools.log") &&
		sys=$("$TOP/scripts/cross-kdir.sh" --libs arm64 2>>"$TMP/tools.log") ||
		why="tools not cross-built: $(tail -n 1 "$TMP/tools.log")"
fi
mapfile -t ctests < <(sed -n 's/^run_ctest //p' "$TOP"/tests/host/*.t | sort)
if [ -n "$why" ]; then
	echo "1..1"
	if [ "${STM_CHECK_ARM:-}" = 1 ]; then
		echo "not ok 1 - arm64 tools and unit tests ($why; STM_CHECK_ARM=1)"
		exit 1
	fi
	echo "ok 1 - arm64 tools and unit tests # SKIP $why"
	exit 0
fi
B=$TOOLS/$b
# The arm64 loader is named, not found through QEMU_LD_PREFIX: with a
# prefix, qemu-aarch64 looks every absolute path up there first, so
# "/" opened by libudev to walk sysfs is the prefix, which has no sys/.
run64() {
	qemu-aarch64 "/usr/$t/lib/ld-linux-aarch64.so.1" \
		--library-path "/usr/$t/lib:$sys/usr/lib/$t:$sys/lib/$t" "$@"
}

for c in mttdecode mttcontrol mttprofile; do
	v=$(run64 "$B/$c" --version 2>&1)
	tap_ok $? "arm64 $c --version under qemu-aarch64: $v"
done

# decode ARGS...: the arm64 and the host mttdecode on the same input;
# one check that both print the same, in both formats, with one status
asan_mttdecode
decode() {
	local f=$1 a64 x86 fmt same=0
	shift
	for fmt in "-p" "-f json"; do
		# shellcheck disable=SC2086 # fmt: one or two options
		a64=$(run64 "$B/mttdecode" "$@" $fmt "$f" 2>&1; echo "exit $?")
		# shellcheck disable=SC2086
		x86=$("$M" "$@" $fmt "$f" 2>&1; echo "exit $?")
		[ "$a64" = "$x86" ] || {
			same=1
			diff <(echo "$x86") <(echo "$a64") | head -n 6 | sed "s/^/# $fmt: /"
		}
	done
	tap_ok $same "arm64 mttdecode $* ${f#"$TOOLS"/fuzz/}: as on the host ($(echo "$x86" | wc -l) lines)"
}
for f in "$TOOLS"/fuzz/corpus/*; do
	decode "$f" --syst
done
for f in "$TOOLS"/fuzz/corpus-mtt/*.mtt; do
	decode "$f" --input=mtt
done
for f in "$TOOLS"/fuzz/corpus-rv/w*-t*.rv; do
	w=${f##*/w}
	tb=${w#*-t}
	decode "$f" --input=riscv-encap --srcid-bits="${w%%-*}" --ts-bytes="${tb%%[-.]*}" --syst
done

for line in "${ctests[@]}"; do
	# the run_ctest line's words, $TOP and $TOOLS expanded as there
	eval "set -- $line"
	name=$1
	shift
	if ! $t-gcc -std=c11 -Wall -Wextra -Werror -g -O1 \
		-D_DEFAULT_SOURCE -I"$TOOLS/lib/mttdecode/include" \
		-I"$TOOLS/lib/mprof/include" -I"$TOOLS/lib/mprofdev/include" \
		-I"$TOOLS/lib/wire/include" -I"$TOP/tests/host/enc" \
		-I"$TOP/tests/host/src" -I"$sys/usr/include" -I"$sys/usr/include/$t" \
		-o "$TMP/$name" "$TOP/tests/host/src/$name.c" \
		"$TOP/tests/host/src/testutil.c" "$@" "$B/libmttdecode.a" \
		-L"$sys/usr/lib/$t" -L"$sys/lib/$t" -lexpat -lconfig -ludev \
		-Wl,-rpath-link,"$sys/usr/lib/$t:$sys/lib/$t" >"$TMP/cc.log" 2>&1; then
		tap_ok 1 "$name built for arm64"
		sed 's/^/# /' "$TMP/cc.log" | head -n 20
		continue
	fi
	run64 "$TMP/$name" >"$TMP/$name.out" 2>&1
	st=$?
	oks=$(grep -c '^ok ' "$TMP/$name.out")
	bad=$(grep '^not ok ' "$TMP/$name.out")
	[ $st -eq 0 ] && [ "$oks" -gt 0 ] && [ -z "$bad" ]
	good=$?
	tap_ok $good "$name on arm64 (qemu-aarch64): $oks checks pass"
	if [ $good -ne 0 ]; then
		echo "# exit $st"
		{ printf '%s\n' "$bad"; tail -n 10 "$TMP/$name.out"; } | sed 's/^/# /'
	fi
done

# CRC-32C: on a CPU with the CRC32 instructions (-cpu max) the ARMv8
# CRC32C path is the one wire_crc32c() runs, not the table, and it
# agrees with the table and the reference (crctest, CRCTEST_EXPECT=hw)
if [ -x "$TMP/crctest" ]; then
	(export CRCTEST_EXPECT=hw QEMU_CPU=max; run64 "$TMP/crctest") \
		>"$TMP/crc.out" 2>&1
	st=$?
	grep '^# CRC-32C' "$TMP/crc.out"
	[ $st -eq 0 ] && ! grep -q '^not ok' "$TMP/crc.out" &&
		grep -q '^# CRC-32C: ARMv8 CRC32C ran' "$TMP/crc.out"
	tap_ok $? "crctest on arm64 -cpu max: the ARMv8 CRC32C path ran and is wire_crc32c(), $(grep -c '^ok ' "$TMP/crc.out") checks pass"
	grep '^not ok' "$TMP/crc.out" | sed 's/^/# /'
else
	tap_ok 1 "crctest built for arm64 (the CRC-32C check)"
fi
tap_done
