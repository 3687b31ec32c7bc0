#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# opencsd.t - mttdecode agrees with OpenCSD (trc_pkt_lister) on every data
# packet: master, channel, size, value, marker and timestamp.  Streams are
# written out byte by byte below (derived by hand; nibble sequences in the
# comments), plus random streams from src/ocsdgen.c.  A missing
# trc_pkt_lister is a failure, not a skip.
. "$(dirname "$0")/lib.sh"
need_mttdecode
. "$TOP/tests/lib/opencsd.sh"

if ! command -v "$(opencsd_lister)" >/dev/null 2>&1; then
	tap_ok 1 "trc_pkt_lister is installed (apt-get install libopencsd-bin)"
	echo "# OpenCSD's trc_pkt_lister was not found in PATH: cannot cross-check"
	tap_done
fi
tap_ok 0 "trc_pkt_lister is installed"

agree() {
	# agree FILE WANT NAME: both decoders give WANT
	o=$(opencsd_norm "$1")
	tap_ok $? "$3: OpenCSD ran"
	m=$(mttdecode_norm "$1")
	tap_ok $? "$3: mttdecode ran"
	tap_is "$o" "$2" "$3: OpenCSD as expected"
	tap_is "$m" "$2" "$3: mttdecode as expected"
}

P="ff ff ff ff ff ff ff ff ff ff 0f 0f 30"	# F x21 0 | F 0 0 3
P4="ff ff ff ff ff ff ff ff ff ff 0f 0f 40"	# F x21 0 | F 0 0 4

# natural binary:
#  FREQ 1 GHz         F 0 8 3b9aca00 0          0f 38 9b ca 0a 00
#  M8 12, C8 34       1 1 2 3 3 4               11 32 43
#  D8TS 41 L=16       F 4 4 1 E 0000000000001000 0
#                                               4f 14 0e 00 00 00 00 00 10 00 00
#  D16 beef           5 b e e f 0               b5 ee 0f
#  D32M cafef00d      F a c a f e f 0 0 d       af ac ef 0f d0
#  D64MTS L=2 34      b 0011223344556677 2 3 4  0b 10 21 32 43 54 65 76 27 43
#  C16 0102           F 3 0 1 0 2               3f 10 20
#  D4MTS 9 L=1 7      d 9 1 7                   9d 71
#  D4 3, 2 NULLs      c 3 0 0                   3c 00
#  D16TS 1234 L=3 abc F 5 1 2 3 4 3 a b c       5f 21 43 a3 cb
#  D32MTS L=14        a deadbeef D 00000000002000
#                                               da ae bd ee df 00 00 00 00 00 02 00
#  FLAG               F E                       ef
#  GERR 02, M8 01, C8 02, D8M 55
#                     F 2 0 2 1 0 1 3 0 2 F 8 5 5
#                                               2f 20 01 31 20 8f 55
#  TRIG 05            F 0 6 0 5 0               0f 06 05
#  D8TS 01 L=16       F 4 0 1 E 8000000000001234 0
#                                               4f 10 8e 00 00 00 00 00 10 32 04
bytes "$P 0f 38 9b ca 0a 00 11 32 43 4f 14 0e 00 00 00 00 00 10 00 00 \
b5 ee 0f af ac ef 0f d0 0b 10 21 32 43 54 65 76 27 43 3f 10 20 9d 71 3c 00 \
5f 21 43 a3 cb da ae bd ee df 00 00 00 00 00 02 00 ef 2f 20 01 31 20 8f 55 \
0f 06 05 4f 10 8e 00 00 00 00 00 10 32 04" >"$TMP/nat.stp"
agree "$TMP/nat.stp" "18 52 8 41 0 1000
18 52 16 beef 0 -
18 52 32 cafef00d 1 -
18 52 64 0011223344556677 1 1034
18 258 4 9 1 1037
18 258 4 3 0 -
18 258 16 1234 0 1abc
18 258 32 deadbeef 1 2000
1 2 8 55 1 -
1 2 8 01 0 8000000000001234" "natural binary stream"

# Gray code (VERSION 4):
#  M8 03, C8 04       1 0 3 3 0 4               01 33 40
#  D32TS L=16 gray ff F 6 01020304 E 00000000000000ff 0
#                                               6f 10 20 30 40 0e 00 00 00 00 00 00 f0 0f
#  D8MTS 99 L=1 d     8 9 9 1 d 0               98 19 0d
#  D16MTS L=2 34      9 1 1 1 1 2 3 4           19 11 21 43
bytes "$P4 01 33 40 6f 10 20 30 40 0e 00 00 00 00 00 00 f0 0f \
98 19 0d 19 11 21 43" >"$TMP/gray.stp"
agree "$TMP/gray.stp" "3 4 32 01020304 0 aa
3 4 8 99 1 a9
3 4 16 1111 1 27" "Gray code stream"

# random streams OpenCSD can read (see src/ocsdgen.c)
cc=${CC:-cc}
if $cc -std=c11 -O1 -D_DEFAULT_SOURCE -I"$TOOLS/lib/mttdecode/include" -I"$TOP/tests/host/enc" \
    -I"$TOP/tests/host/src" -o "$TMP/ocsdgen" "$TOP/tests/host/src/ocsdgen.c" \
    "$TOP/tests/host/src/testutil.c" "$TOP/tests/host/enc/stpenc.c" \
    "$TOOLS/build/libmttdecode.a" -lexpat 2>"$TMP/cc.log"; then
	tap_ok 0 "build the random stream generator"
else
	sed 's/^/# /' "$TMP/cc.log"
	tap_ok 1 "build the random stream generator"
fi
for seed in 1 2 3 4 5; do
	"$TMP/ocsdgen" "$seed" 2000 >"$TMP/r.stp"
	o=$(opencsd_norm "$TMP/r.stp")
	m=$(mttdecode_norm "$TMP/r.stp")
	n=$(printf '%s\n' "$o" | grep -c .)
	if [ "$n" -gt 1000 ] && [ "$o" = "$m" ]; then
		tap_ok 0 "random stream $seed: $n data packets agree"
	else
		tap_ok 1 "random stream $seed: $n data packets agree"
		printf '%s\n' "$o" >"$TMP/o"
		printf '%s\n' "$m" >"$TMP/m"
		diff "$TMP/o" "$TMP/m" | head -n 10 | sed 's/^/# /'
	fi
done

tap_done
