#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# clock.t - libmttclock (tools/lib/clock), the clock estimator: synthetic
# devices with known offset and drift, conflicts, touching bounds, a
# single exchange, one-sided and empty sets, a million bounds in a fixed
# hull, any order (tests/host/src/clocktest.c under ASan + UBSan); its
# man(3) pages format without warnings, its EXAMPLE runs.
. "$(dirname "$0")/lib.sh"

san_tools
if ! san_cc "$TMP/clocktest" "$TOP/tests/host/src/clocktest.c" \
    -I"$TOOLS/lib/clock/include" "$SAN/libmttclock.a" -lm \
    >"$TMP/cc.log" 2>&1; then
	sed 's/^/# /' "$TMP/cc.log"
	bail "cannot build clocktest with $(ctest_cc) and ASan/UBSan"
fi
"$TMP/clocktest" >"$TMP/out"
tap_ok $? "clocktest exits 0"
# its checks, renumbered into this script's plan
while IFS= read -r l; do
	case $l in
	"ok "*) tap_ok 0 "${l#ok * - }" ;;
	"not ok "*) tap_ok 1 "${l#not ok * - }" ;;
	"#"*) echo "$l" ;;
	esac
done <"$TMP/out"
grep -q '^1\.\.[1-9]' "$TMP/out"
tap_ok $? "clocktest ran to its plan"

cd "$TOOLS/lib/clock/man" || bail "no man pages"
man_format_ok .
missing=
for f in $(sed -n 's/^\(int\|int64_t\|double\|size_t\|void\|struct mttclk\) \**\(mttclk_[a-z_]*\)(.*/\2/p' \
    "$TOOLS/lib/clock/include/mttclock/clock.h"); do
	[ -f "man3/$f.3" ] || missing="$missing $f"
done
tap_is "$missing" "" "every function of <mttclock/clock.h> has a page"

# mttclock(3)'s EXAMPLE compiles, runs and prints what it says
awk '/^\.SH EXAMPLE/ { on = 1; next } on && /^\.nf/ { next }
	on && /^\.fi/ { exit } on' man3/mttclock.3 | sed 's/\\e/\\/g' \
	>"$TMP/example.c"
san_cc "$TMP/example" "$TMP/example.c" -I"$TOOLS/lib/clock/include" \
	"$SAN/libmttclock.a" -lm >"$TMP/cc.log" 2>&1
tap_ok $? "mttclock(3) EXAMPLE compiles"
sed 's/^/# /' "$TMP/cc.log"
tap_is "$("$TMP/example")" "0.000 ppm, 5000500 -> 2000 +- 1010 ns" \
	"mttclock(3) EXAMPLE: NTP's offset, 1000 ppm assumed over the turnaround"
tap_done
