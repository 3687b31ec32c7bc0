#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof-agree.t - mttdecode's MiniProfiler path and mttprofile --report
# agree on the same capture: mttdecode --format=folded, chrome and html
# are byte for byte mttprofile's profile.folded, profile.chrome.json and
# profile.html (the page's title aside: the input's name), and the
# statistics and call tree that end mttdecode's text output are its
# profile.txt; with and without --elf, on a clean capture, on one whose
# times wrap four times, on a damaged one (garbage, a CRC error, a packet
# cut short) and on a session directory.  Captures are written by the
# device emulator (src/mprof_emu.c, from the protocol seed alone).
. "$(dirname "$0")/lib.sh"
need_mttdecode
M=$MTTDECODE
P=$TOOLS/build/mttprofile
[ -x "$P" ] || bail "no $P (make -C tools)"

cc=$(ctest_cc)
$cc -std=c11 -Wall -Wextra -Werror -g -O1 -o "$TMP/emu" \
	"$TOP/tests/host/src/mprof_emu.c" >"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build the emulator"; }
cat >"$TMP/app.c" <<'X'
#define N __attribute__((noinline, used))
volatile int sink;
N void helper(int i) { sink += i; }
N void work(void) { for (int i = 0; i < 3; i++) helper(i); }
int main(void) { work(); return 0; }
X
$cc -std=c11 -O1 -g -o "$TMP/app" "$TMP/app.c" >"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build the test program"; }
sym() { nm "$TMP/app" | sed -n "s/^0*\([0-9a-f]*\) [Tt] $1\$/0x\1/p"; }
work=$(sym work)
helper=$(sym helper)

# clean: work calls helper three times
printf '%s 10 5 1\n%s 20 5 1\n%s 30 5 1\n%s 0 100 0\n' "$helper" "$helper" \
	"$helper" "$work" >"$TMP/app.rec"
"$TMP/emu" file "$TMP/clean.mprof" --per-packet=3 <"$TMP/app.rec"
# many wraps: tick every 1.5e9 us (10 ticks, 4 wraps), each calling x
# at +200 for 100 us and at +1200 for 400 us
perl -e 'for my $k (0 .. 9) { my $b = 0xFFFFFE0C + $k * 1500000000;
	printf "0x08000640 %u 100 1\n0x08000640 %u 400 1\n0x08000600 %u 2000 0\n",
		($b + 200) % 2**32, ($b + 1200) % 2**32, $b % 2**32 }' >"$TMP/wrap.rec"
"$TMP/emu" file "$TMP/wrap.mprof" --per-packet=7 <"$TMP/wrap.rec"
# damaged: 3 bytes of garbage, the clean capture, the same with one
# payload byte flipped, then its first 100 bytes
perl -e 'local $/; open(my $f, "<", $ARGV[0]) or die; my $d = <$f>;
	my $b = $d; substr($b, 60, 1) = chr(ord(substr($b, 60, 1)) ^ 1);
	print "\x01\x02\xaa", $d, $b, substr($d, 0, 100)' "$TMP/clean.mprof" \
	>"$TMP/damaged.mprof"
mkdir "$TMP/sess"
cp "$TMP/clean.mprof" "$TMP/sess/capture.mprof"
printf 'kind=miniprofiler\ndevice=/dev/null\n' >"$TMP/sess/session.txt"

# agree NAME INPUT [OPTION...]: mttprofile --report INPUT into a
# directory of its own, mttdecode --input=mprof (the damaged capture
# does not start with a response) on INPUT in every format
agree() {
	name=$1
	in=$2
	shift 2
	D=$TMP/r-$name
	"$P" --report -q -o "$D" "$@" "$in" 2>"$TMP/p.err"
	tap_is "$?" 0 "$name: mttprofile --report exits 0"
	"$M" --input=mprof "$@" "$in" >"$TMP/text" 2>"$TMP/d.err"
	tap_is "$?" 0 "$name: mttdecode exits 0"
	# the report follows the events and one empty line
	sed '1,/^$/d' "$TMP/text" >"$TMP/report.txt"
	cmp -s "$TMP/report.txt" "$D/profile.txt"
	tap_ok $? "$name: mttdecode's statistics and call tree are profile.txt"
	for f in folded chrome html; do
		case $f in
		chrome) want=$D/profile.chrome.json ;;
		*) want=$D/profile.$f ;;
		esac
		"$M" --input=mprof --format=$f "$@" "$in" >"$TMP/got.$f" 2>/dev/null
		if [ $f = html ]; then
			# the title: mttprofile's directory, mttdecode's input
			sed -i 's/{"title":"[^"]*"/{"title":""/' "$TMP/got.$f"
			sed 's/{"title":"[^"]*"/{"title":""/' "$want" >"$TMP/want.$f"
			want=$TMP/want.$f
		fi
		cmp -s "$TMP/got.$f" "$want"
		tap_ok $? "$name: mttdecode --format=$f is $(basename "$want")"
	done
}
agree clean "$TMP/clean.mprof"
agree clean-elf "$TMP/clean.mprof" --elf="$TMP/app"
grep -q "^ *3 .* helper\$" "$TMP/r-clean-elf/profile.txt"
tap_ok $? "clean-elf: helper named, 3 calls"
agree wraps "$TMP/wrap.mprof"
agree damaged "$TMP/damaged.mprof" --elf="$TMP/app"
agree session "$TMP/sess"
tap_done
