#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# par-hex.t - mttdecode -j on the reference printer's input, "SYS-T RAW
# DATA:" hex lines: on the printer's kind of corpus (bench-printer
# --write: catalog messages and their collateral, strings, BUILD, CLOCK,
# RAW, SHORT, half with a CRC-32C) altered with bad lines (bad digits,
# odd digit counts), CRC errors, blank lines, other text, text before
# the marker, blanks between bytes, CRLF, lines of 6 KB (longer than a
# 4096-byte piece), a line cut at 256 KiB and one longer than a warm-up,
# and no final line feed: every output format and --stats are byte for
# byte those of -j1, for several thread counts and piece sizes; both
# paths run (pieces used from the workers, pieces decoded again in
# order), and on the corpus as written every piece is used.  Built with
# ASan and UBSan.
. "$(dirname "$0")/lib.sh"
asan_mttdecode

mkdir -p "$TOOLS/build" && flock "$TOOLS/build/.make.lock" make -s -C "$TOOLS" build/bench-printer >"$TMP/make.log" 2>&1 &&
	"$TOOLS/build/bench-printer" --write "$TMP/clean.txt" "$TMP/coll.xml" 1
tap_ok $? "a 1 MB corpus of hex lines and its collateral written"

# every line of the corpus is "SYS-T RAW DATA: " and hex digits; the
# alterations go by line number, the long lines at fixed ones
awk '
function rep(s, n,   r) { r = ""; while (n-- > 0) r = r s; return r }
{
	h = substr($0, 17)
	if (NR % 97 == 0) h = substr(h, 1, length(h) - 2) "zz"
	else if (NR % 89 == 0) h = substr(h, 2)
	else if (NR % 83 == 0) {
		c = substr(h, 21, 1)
		h = substr(h, 1, 20) (c == "0" ? "1" : "0") substr(h, 22)
	}
	if (NR % 71 == 0) print ""
	if (NR % 53 == 0) print "some other log line, not a message"
	pre = NR % 47 == 0 ? "[   12.345678] " : ""
	if (NR % 43 == 0) { s = ""; for (i = 1; i <= length(h); i += 2)
		s = s " " substr(h, i, 2); h = substr(s, 2) }
	if (NR % 1500 == 0) h = h rep("00", 3000)
	if (NR == 3000) h = rep("0123456789abcdef", 20000)
	if (NR == 5000) h = rep("fedcba9876543210", 80000)
	printf "%sSYS-T RAW DATA: %s%s", pre, h, NR % 61 == 0 ? "\r\n" : "\n"
}' "$TMP/clean.txt" | head -c -1 >"$TMP/alt.txt"
tail -c 1 "$TMP/alt.txt" | od -c | grep -q '\\n'
tap_ok $((! $?)) "the altered corpus has no final line feed"

# par_same (lib.sh) with small pieces; a piece of 4096 bytes costs a
# warm-up of 1 MiB, so those only for text
PAR_SEGS="2:16384 3:65536 8:16384 2:262144"
# shellcheck disable=SC2034 # read by par_same (lib.sh)
PAR_ARGS=--collateral=$TMP/coll.xml

f=$TMP/alt.txt
"$M" -j1 --stats --collateral="$TMP/coll.xml" --no-output "$f" 2>"$TMP/e"
grep -q '^syst bad lines:  *[1-9]' "$TMP/e" &&
	grep -q 'checksum error [1-9]' "$TMP/e"
tap_ok $? "the altered corpus has bad lines and CRC errors"
PAR_SEGS="2:4096 8:4096 $PAR_SEGS" par_same "$f"
par_same "$f" --format=json
par_same "$f" --format=csv
par_same "$f" --format=csv --csv-extra
par_same "$f" --format=chrome
par_same "$f" --no-output
par_same "$f" --max-message=40
par_same "$f" --input=systtext
par_same "$TMP/clean.txt" --format=csv

"$M" -j2 --segment=65536 --stats --no-output "$f" 2>"$TMP/e" >/dev/null
used=$(sed -n 's/^-j pieces: *\([0-9]*\) decoded in parallel, \([0-9]*\) again.*/\1 \2/p' "$TMP/e")
echo "# altered corpus, pieces: $used"
[ "${used% *}" -gt 0 ] 2>/dev/null && [ "${used#* }" -gt 0 ]
tap_ok $? "pieces were used from the workers and some decoded again"
"$M" -j2 --segment=65536 --stats --no-output "$TMP/clean.txt" 2>"$TMP/e" >/dev/null
used=$(sed -n 's/^-j pieces: *\([0-9]*\) decoded in parallel, \([0-9]*\) again.*/\1 \2/p' "$TMP/e")
echo "# corpus as written, pieces: $used"
[ "${used% *}" -gt 8 ] 2>/dev/null && [ "${used#* }" -eq 0 ]
tap_ok $? "on the corpus as written every piece is used"

# nothing to decode: said once, exit status 3, as -j1
yes 'no message on this line' | head -c 300000 >"$TMP/none.txt"
par_same "$TMP/none.txt" --input=systtext

cat "$f" | "$M" -j2 --segment=4096 --collateral="$TMP/coll.xml" \
	>"$TMP/o2" 2>&1 &&
	"$M" -j1 --collateral="$TMP/coll.xml" "$f" >"$TMP/o1" 2>&1 &&
	cmp -s "$TMP/o1" "$TMP/o2"
tap_ok $? "standard input with -j: as -j1"

tap_done
