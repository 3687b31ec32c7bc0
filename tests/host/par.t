#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# par.t - mttdecode -j: on captures with losses and resyncs (pargen.c:
# GERR, MERR, cut packets, garbage, VERSION and FREQ changes, a message
# open for hundreds of KiB, a cut last packet) and on a SyS-T capture,
# every output format and --stats are byte for byte those of -j1, for
# several thread counts and piece sizes; the pieces are really decoded
# in parallel (and some again in order: both paths run).  Built with
# ASan and UBSan.
. "$(dirname "$0")/lib.sh"
asan_mttdecode

cc=$(ctest_cc)
$cc -std=c11 -Wall -Wextra -Werror -O1 -g -D_DEFAULT_SOURCE \
    -I"$TOOLS/lib/mttdecode/include" -I"$TOP/tests/host/enc" -o "$TMP/pargen" \
    "$TOP/tests/host/src/pargen.c" "$TOP/tests/host/enc/stpenc.c" \
    >"$TMP/cc.log" 2>&1 || { sed 's/^/# /' "$TMP/cc.log"; bail "pargen"; }
"$TMP/pargen" "$TMP/a.stp" 600000 1 && "$TMP/pargen" "$TMP/b.stp" 200000 7
tap_ok $? "two lossy captures written"
mkdir -p "$TOOLS/build" && flock "$TOOLS/build/.make.lock" make -s -C "$TOOLS" build/bench >"$TMP/make.log" 2>&1 &&
	"$TOOLS/build/bench" --write-syst "$TMP/s.stp" 1
tap_ok $? "a SyS-T capture written"

f=$TMP/a.stp
par_same "$f"
par_same "$f" --packets --nulls
par_same "$f" --format=json
par_same "$f" --syst
par_same "$f" --format=csv
par_same "$f" --format=chrome
par_same "$f" --no-output
par_same "$TMP/b.stp"
par_same "$TMP/s.stp" --syst
par_same "$TMP/s.stp" --syst --format=chrome

"$M" -j2 --segment=4096 --stats --no-output "$TMP/a.stp" 2>"$TMP/e" >/dev/null
used=$(sed -n 's/^-j pieces: *\([0-9]*\) decoded in parallel, \([0-9]*\) again.*/\1 \2/p' "$TMP/e")
echo "# pieces: $used"
[ "${used% *}" -gt 0 ] 2>/dev/null && [ "${used#* }" -gt 0 ]
tap_ok $? "pieces were used from the workers and some decoded again"

cat "$TMP/a.stp" | "$M" -j2 --segment=4096 >"$TMP/o2" 2>&1 &&
	"$M" -j1 "$TMP/a.stp" >"$TMP/o1" 2>&1 && cmp -s "$TMP/o1" "$TMP/o2"
tap_ok $? "standard input with -j: as -j1"
"$M" -j0 "$TMP/a.stp" >/dev/null 2>&1
tap_is $? 2 "-j0: usage error"
"$M" --segment=100 "$TMP/a.stp" >/dev/null 2>&1
tap_is $? 2 "--segment below 4096: usage error"

tap_done
