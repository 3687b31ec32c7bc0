#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# plaintext.t - a message text that needs no escaping is flagged by the
# decoder (MTTD_SYST_F_PLAIN) and copied as it is by mttdecode's text,
# CSV and JSON printers; every other text still goes through their
# escapers.  tests/host/src/plaintext.c checks the library's scan for
# plain bytes (every length, every byte value, with and without AVX2)
# and the flag on texts from every way the decoder writes them (catalog
# literals and every conversion kind, STRING, BUILD, SHORT, RAW, CLOCK,
# PRINTF), with the SIMD paths and without (-DMTTD_NO_SIMD); then
# mttdecode decodes the same messages and each format's texts are
# compared with the expected ones below (text: quotes as they are,
# backslashes doubled, \t \n \r, \xHH for other controls, DEL and bytes
# that are not UTF-8, UTF-8 as it is; CSV: quotes doubled, a line feed a
# blank, every other byte as it is; JSON: its escapes).
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
# each format's text of every message: text after the type; the CSV
# Payload cell (control bytes shown by cat -vT); the JSON "text"
cells() {
	"$M" -j1 --format="$1" --collateral "$TMP/coll.xml" "$TMP/in.txt" \
		>"$TMP/out.$1" 2>"$TMP/err.$1"
	tap_ok $? "mttdecode --format=$1 decodes them"
	case $1 in
	text) LC_ALL=C sed 's/^ *- - INFO plain [^ ]* //' "$TMP/out.$1" ;;
	csv) LC_ALL=C sed '1d; s/^[^,]*,"\(.*\)",[A-Z0-9:_]*,INFO,.*/\1/' \
		"$TMP/out.$1" | cat -vT ;;
	json) LC_ALL=C sed 's/.*,"text":"\(.*\)","payload":.*/\1/' \
		"$TMP/out.$1" ;;
	esac >"$TMP/got.$1"
	cmp -s "$TMP/got.$1" "$TMP/want.$1"
	tap_ok $? "mttdecode --format=$1: the texts are the ones expected"
	[ -s "$TMP/err.$1" ] && sed 's/^/# /' "$TMP/err.$1"
	diff "$TMP/want.$1" "$TMP/got.$1" | sed 's/^/# /'
}
cat >"$TMP/want.text" <<'WANT'
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
cat >"$TMP/want.csv" <<'WANT'
say ""it"" now
path C:\dir\x
tab^Ihere 5
line feed 6
del^? ff
cafM-CM-) 7
s=[quote "" in it]
s=[back\slash]
s=[ctl^Ahere]
s=[tab^Ix]
s=[lf x]
s=[cr^Mx]
s=[del^?x]
s=[utf8 cafM-CM-)]
s=[high M-^@M-^?]
s=[plain ~ !#[]{}|]
s=[]
s=[a text of more than thirty-two bytes, then \ at its end]
s=[a text of more than thirty-two bytes, then "" at its end]
s=[a text of more than thirty-two bytes, then ^[ at its end]
s=[a text of more than thirty-two bytes and all of them plain]
c=[""]
c=[\]
c=[^A]
c=[^?]
c=[A]
c=[ ]
lc=[M-bM-^BM-,]
lc=[""]
lc=[z]
nums d=-42 i=7 u=4000000000 o=10 x=beef X=BEEF ld=-5000000000 f=3.141590 .2f=2.67 e=1.234568e+04 g=0.0001234 a=0x1p+0 p=0x1234 n= w=[   42|7    |000ff] star=[    42|1.500] bad=%y pct=% end
s=[a""    |b\|      ^Az]
s=[ab    |cd|      ef]
plain words xyz and 3
plain words x\y and 3
TOO_SHORT,"4302000508001B00000078797A00",,,,,,,,,,
quote "" in it
back\slash
ctl^Ahere
tab^Ix
lf x
cr^Mx
del^?x
utf8 cafM-CM-)
high M-^@M-^?
plain ~ !#[]{}|

a text of more than thirty-two bytes, then \ at its end
a text of more than thirty-two bytes, then "" at its end
a text of more than thirty-two bytes, then ^[ at its end
a text of more than thirty-two bytes and all of them plain
0123456789012345678901234567890123456789
012345678901234567890123456789012""456789
0123456789012345678\
p ""q"" 5
0x0000000000000005 fw ""x""
0x0000000000000005 fw 1.2
0x0000000000000077
0x0000000000000078
clock 123 at 1000 Hz
22005c7f
Undefined catalog id 0x0x00000099
WANT
cat >"$TMP/want.json" <<'WANT'
say \"it\" now
path C:\\dir\\x
tab\there 5
line\nfeed 6
del\u007f ff
café 7
s=[quote \" in it]
s=[back\\slash]
s=[ctl\u0001here]
s=[tab\tx]
s=[lf\nx]
s=[cr\rx]
s=[del\u007fx]
s=[utf8 café]
s=[high \u0080\u00ff]
s=[plain ~ !#[]{}|]
s=[]
s=[a text of more than thirty-two bytes, then \\ at its end]
s=[a text of more than thirty-two bytes, then \" at its end]
s=[a text of more than thirty-two bytes, then \u001b at its end]
s=[a text of more than thirty-two bytes and all of them plain]
c=[\"]
c=[\\]
c=[\u0001]
c=[\u007f]
c=[A]
c=[ ]
lc=[€]
lc=[\"]
lc=[z]
nums d=-42 i=7 u=4000000000 o=10 x=beef X=BEEF ld=-5000000000 f=3.141590 .2f=2.67 e=1.234568e+04 g=0.0001234 a=0x1p+0 p=0x1234 n= w=[   42|7    |000ff] star=[    42|1.500] bad=%y pct=% end
s=[a\"    |b\\|      \u0001z]
s=[ab    |cd|      ef]
plain words xyz and 3
plain words x\\y and 3
plain words xyz and <?>
quote \" in it
back\\slash
ctl\u0001here
tab\tx
lf\nx
cr\rx
del\u007fx
utf8 café
high \u0080\u00ff
plain ~ !#[]{}|

a text of more than thirty-two bytes, then \\ at its end
a text of more than thirty-two bytes, then \" at its end
a text of more than thirty-two bytes, then \u001b at its end
a text of more than thirty-two bytes and all of them plain
0123456789012345678901234567890123456789
012345678901234567890123456789012\"456789
0123456789012345678\\
p \"q\" 5
build 0x5 fw \"x\"
build 0x5 fw 1.2
build 0x77 fw \"rc\" \\1
build 0x78 fw plain 2.0
clock 123 at 1000 Hz
22005c7f
catalog 0x00000099 args 225c0100
WANT
for fmt in text csv json; do
	cells $fmt
done

# plain STRING texts of every length from 0 to 140 (the copy's steps:
# under 4, 8 and 16 bytes, 16 to 31, then 32 a step with an overlapping
# last 32), each a different window of printable bytes: every format
# gives each text as it is
awk 'BEGIN {
	a = "";
	for (c = 33; c < 127; c++) {
		ord[sprintf("%c", c)] = c;
		if (c != 34 && c != 92)
			a = a sprintf("%c", c);
	}
	for (n = 0; n <= 140; n++) {
		t = "";
		s = "42000001";
		for (j = 0; j < n; j++) {
			ch = substr(a, (n + j) % length(a) + 1, 1);
			t = t ch;
			s = s sprintf("%02x", ord[ch]);
		}
		print t > "/dev/stderr";
		print "SYS-T RAW DATA: " s;
	}
}' >"$TMP/len.txt" 2>"$TMP/len.want"
for fmt in text csv json; do
	"$M" -j1 --format=$fmt "$TMP/len.txt" >"$TMP/len.$fmt" 2>"$TMP/len.err"
	tap_ok $? "every length to 140, $fmt: mttdecode decodes them"
	case $fmt in
	text) LC_ALL=C sed 's/^ *- - INFO 0:0 STRING:GENERIC//; s/^ //' \
		"$TMP/len.$fmt" ;;
	csv) LC_ALL=C sed '1d; s/^OK,"\(.*\)",STRING:GENERIC,.*/\1/' \
		"$TMP/len.$fmt" ;;
	json) LC_ALL=C sed 's/.*,"text":"\(.*\)","payload":.*/\1/' \
		"$TMP/len.$fmt" ;;
	esac >"$TMP/len.got"
	cmp -s "$TMP/len.got" "$TMP/len.want"
	tap_ok $? "every length to 140, $fmt: each text as it is"
	diff "$TMP/len.want" "$TMP/len.got" | head -5 | sed 's/^/# /'
done

ASAN_EXTRA_CFLAGS=-DMTTD_NO_SIMD ctest_relay plaintext-nosimd nosimd
tap_done
