#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# plaintext.t - a message text that needs no escaping is flagged by the
# decoder (MTTD_SYST_F_PLAIN) and copied as it is by mttdecode's text
# printer; every other text still goes through the escaper.
# tests/host/src/plaintext.c checks the library's scan for plain bytes
# (every length, every byte value, with and without AVX2) and the flag
# on texts from every way the decoder writes them (catalog literals and
# every conversion kind, STRING, BUILD, SHORT, RAW, CLOCK, PRINTF), with
# the SIMD paths and without (-DMTTD_NO_SIMD); then mttdecode decodes
# the same messages and its text lines are compared with the expected
# ones below (quotes as they are, backslashes doubled, \t \n \r, \xHH
# for other controls, DEL and bytes that are not UTF-8, UTF-8 as it is).
. "$(dirname "$0")/lib.sh"

# build plaintext.c as run_ctest does (into $TMP/NAME), then run it and
# give its checks on as this script's own
ctest_relay() {
	san_tools
	san_cc "$TMP/$1" "$TOP/tests/host/src/plaintext.c" \
	    "$TOP/tests/host/src/testutil.c" "$TOP/tests/host/enc/systenc.c" \
	    "$SAN/libmttdecode.a" -lexpat >"$TMP/cc.log" 2>&1 ||
		{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build plaintext"; }
	"$TMP/$1" >"$TMP/c.out"
	st=$?
	while IFS= read -r l; do
		case $l in
		"ok "*) tap_ok 0 "$2: ${l#ok * - }" ;;
		"not ok "*) tap_ok 1 "$2: ${l#not ok * - }" ;;
		"#"*) echo "$l" ;;
		esac
	done <"$TMP/c.out"
	tap_ok "$st" "$2: plaintext exits 0"
}

ctest_relay plaintext simd
"$TMP/plaintext" --write "$TMP/in.txt" "$TMP/coll.xml" ||
	bail "cannot write the messages"
asan_mttdecode
"$M" -j1 --collateral "$TMP/coll.xml" "$TMP/in.txt" >"$TMP/out.txt" \
	2>"$TMP/err.txt"
tap_ok $? "mttdecode decodes them"
# the text after the type
sed 's/^ *- - INFO plain [^ ]* //' "$TMP/out.txt" >"$TMP/got.txt"
cat >"$TMP/want.txt" <<'WANT'
say "it" now
path C:\\dir\\x
tab\there 5
line\nfeed 6
del\x7f ff
café 7
s=[quote " in it]
s=[back\\slash]
s=[ctl\x01here]
s=[tab\tx]
s=[lf\nx]
s=[cr\rx]
s=[del\x7fx]
s=[utf8 café]
s=[high \x80\xff]
s=[plain ~ !#[]{}|]
s=[]
s=[a text of more than thirty-two bytes, then \\ at its end]
s=[a text of more than thirty-two bytes, then " at its end]
s=[a text of more than thirty-two bytes, then \x1b at its end]
s=[a text of more than thirty-two bytes and all of them plain]
c=["]
c=[\\]
c=[\x01]
c=[\x7f]
c=[A]
c=[ ]
lc=[€]
lc=["]
lc=[z]
nums d=-42 i=7 u=4000000000 o=10 x=beef X=BEEF ld=-5000000000 f=3.141590 .2f=2.67 e=1.234568e+04 g=0.0001234 a=0x1p+0 p=0x1234 n= w=[   42|7    |000ff] star=[    42|1.500] bad=%y pct=% end
s=[a"    |b\\|      \x01z]
s=[ab    |cd|      ef]
plain words xyz and 3
plain words x\\y and 3
plain words xyz and <?> [TOO_SHORT]
quote " in it
back\\slash
ctl\x01here
tab\tx
lf\nx
cr\rx
del\x7fx
utf8 café
high \x80\xff
plain ~ !#[]{}|

a text of more than thirty-two bytes, then \\ at its end
a text of more than thirty-two bytes, then " at its end
a text of more than thirty-two bytes, then \x1b at its end
a text of more than thirty-two bytes and all of them plain
0123456789012345678901234567890123456789
012345678901234567890123456789012"456789
0123456789012345678\\
p "q" 5
build 0x5 fw "x"
build 0x5 fw 1.2
build 0x77 fw "rc" \\1
build 0x78 fw plain 2.0
clock 123 at 1000 Hz
22005c7f
catalog 0x00000099 args 225c0100 [MISSING_COLLATERAL]
WANT
cmp -s "$TMP/got.txt" "$TMP/want.txt"
tap_ok $? "mttdecode's text lines are the ones expected"
[ -s "$TMP/err.txt" ] && sed 's/^/# /' "$TMP/err.txt"
diff "$TMP/want.txt" "$TMP/got.txt" | sed 's/^/# /'

ASAN_EXTRA_CFLAGS=-DMTTD_NO_SIMD ctest_relay plaintext-nosimd nosimd
tap_done
