#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# linefmt.t - the one-pass SyS-T text line writer (fmt_text.c: the
# line's longest length reserved once, fields written at a pointer,
# names escaped once and cached) gives exactly the lines of the
# field-by-field writer, which mttdecode keeps for lines too long for
# one reservation and uses for every line when built with
# -DMTTD_LINE_BY_FIELD.  mttdecode is built both ways with ASan + UBSan
# and both decode the same generated "SYS-T RAW DATA:" lines: every type
# with every subtype 0..9 and random ones, every severity, random header
# flags (location, length, timestamp, checksum, GUID), origins and units,
# the GUID of a collateral client or a random one, payloads of random
# bytes (controls, UTF-8, invalid sequences, backslashes, quotes) and a
# few payloads long enough to take the field-by-field path; without
# collateral (GUIDs and origin:unit shown) and with each test collateral
# (client names).  The outputs must be identical byte for byte.
. "$(dirname "$0")/lib.sh"

asan_mttdecode
cp "$M" "$TMP/line"
ASAN_EXTRA_CFLAGS=-DMTTD_LINE_BY_FIELD asan_mttdecode
cp "$M" "$TMP/field"
D=$TOP/tests/host/data

# 4000 lines; a fixed seed, so every run checks the same input
awk 'function byte(b) { return sprintf("%02x", b) }
function le(v, n,   s, k) {
	s = ""
	for (k = 0; k < n; k++) {
		s = s byte(v % 256)
		v = int(v / 256)
	}
	return s
}
function body(n, pp,   s, j, r) {
	s = ""
	for (j = 0; j < n; j++) {
		r = rand()
		if (r < pp)
			s = s byte(32 + int(rand() * 95))	# printable
		else if (r < pp + (1 - pp) / 4)
			s = s byte(int(rand() * 32))		# controls
		else if (r < pp + (1 - pp) / 2)
			s = s byte(194 + int(rand() * 30))	# UTF-8 lead
		else
			s = s byte(128 + int(rand() * 128))	# anything high
	}
	return s
}
BEGIN {
	srand(11)
	for (i = 0; i < 4000; i++) {
		type = i % 16
		sty = (i % 3) ? int(i / 16) % 10 : int(rand() * 64)
		long = (i % 250 == 2)
		if (long) {			# STRING:GENERIC
			type = 2
			sty = 0
		}
		sev = int(rand() * 8)
		fl = 0
		if (rand() < 0.2) fl += 256		# location
		if (rand() < 0.5) fl += 512		# length
		if (rand() < 0.1) fl += 1024		# checksum
		if (rand() < 0.3) fl += 2048		# timestamp
		guid = rand() < 0.5
		if (guid) fl += 8388608
		org = (rand() < 0.3) ? 5 : int(rand() * 2048)
		h = type + sev * 16 + fl + org * 4096 + sty * 16777216
		s = le(h, 4)
		if (guid)
			s = s ((rand() < 0.5) ? \
			    "a1b2c3d4e5f60718293a4b5c6d7e8f90" : body(16, 0))
		if (fl % 512 >= 256)			# 32-bit address
			s = s "01" le(int(rand() * 4294967296), 4)
		n = long ? 12000 + int(rand() * 4000) : int(rand() * 80)
		if (fl % 1024 >= 512)
			s = s le(n, 2)
		if (fl % 4096 >= 2048)
			s = s le(int(rand() * 4294967296), 8)
		pp = (i % 3 == 0) ? 1.0 : (i % 3 == 1) ? 0.95 : 0.6
		s = s body(n, pp)
		if (fl % 2048 >= 1024)
			s = s body(4, 0)
		printf "SYS-T RAW DATA: %s\n", s
	}
}' >"$TMP/in.txt"

for coll in none coll-a coll-b; do
	set --
	[ "$coll" = none ] || set -- --collateral "$D/$coll.xml"
	same_output "collateral $coll" 3900 one-pass "$TMP/line" \
		field-by-field "$TMP/field" --input=systtext "$@" "$TMP/in.txt"
	cp "$TMP/a.out" "$TMP/a.$coll"
done

# the generated lines reach what they are meant to: each type, GUIDs,
# origin:unit, statuses and lines long enough for the field-by-field path
for want in 'SHORT32 ' 'STRING:GENERIC ' 'CATALOG:' 'BUILD:' 'RAW:' \
	'CLOCK:' 'SBD:' 'UNKNOWN(' ' {a1b2c3d4-' ' [CHECKSUM_ERROR]' \
	' [TOO_SHORT]'; do
	grep -qF -- "$want" "$TMP/a.none"
	tap_ok $? "without collateral, some line holds '$want'"
done
grep -qE '^ +[0-9-]+ - [A-Z0-9?-]+ [0-9]+:[0-9]+ ' "$TMP/a.none"
tap_ok $? "without collateral, some line shows origin:unit"
grep -q ' ByGuid ' "$TMP/a.coll-a"
tap_ok $? "with coll-a.xml, some line names the client ByGuid"
long=$(awk 'length($0) > 12000' "$TMP/a.none" | wc -l)
[ "$long" -ge 4 ]
tap_ok $? "$long lines longer than 12000 bytes (the field-by-field path)"
tap_done
