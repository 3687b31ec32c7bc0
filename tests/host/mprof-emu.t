#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof-emu.t - mttprofile and mttdecode against a MiniProfiler device
# emulator written from the seed alone (src/mprof_emu.c: its own CRC16,
# CRC32 and packing, nothing of libmprofdev), on a pty or into a capture
# file:
#  - entry_time wrapping at 2^32 us: the call tree, profile.folded, the
#    statistics and the Chrome events agree, over one wrap and many;
#  - GET_METADATA answered with NACK is sent again, three times in all,
#    then the run fails; a refused START writes no profile; random bytes
#    are "nothing synchronised" (stderr, exit status 3);
#  - the ELF a session names is found from the session directory, not
#    the current one, and refused when it is not the ELF that was
#    profiled; an address past a symbol's end is not named after it.
. "$(dirname "$0")/lib.sh"

cc=$(ctest_cc)
need_mttdecode
asan_mttprofile
$cc -std=c11 -Wall -Wextra -Werror -g -O1 -o "$TMP/emu" \
	"$TOP/tests/host/src/mprof_emu.c" >"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build the emulator"; }
tap_ok 0 "mttprofile (ASan) and the device emulator built"
M=$TOOLS/build/mttdecode

# live NAME RECORDS [EMULATOR-OPTION...] -- [MTTPROFILE-OPTION...]: the
# emulator on a pty (commands logged in $TMP/NAME.log), mttprofile on
# its slave into $TMP/NAME; sets lrc (mttprofile's status) and erc (the
# emulator's)
live() {
	ln=$1
	rf=$2
	shift 2
	eo=
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		eo="$eo $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	"$TMP/emu" pty "$TMP/$ln.pty" --log="$TMP/$ln.log" $eo <"$rf" &
	epid=$!
	wait_pty "$TMP/$ln.pty" $epid
	timeout -k 10 120 "$TMP/mttprofile" -q --status-interval=0 -o "$TMP/$ln" \
		"$@" "$(cat "$TMP/$ln.pty")" >"$TMP/$ln.out" 2>"$TMP/$ln.err"
	lrc=$?
	sed 's/^/# /' "$TMP/$ln.err"
	reap $epid
	erc=$?
}

# the call tree of a profile.txt, "name calls total self" per line
tree() {
	sed -n '/^# call tree/,$p' "$1" | sed '1d; s/  calls=\([0-9]*\) total=\([0-9]*\) self=\([0-9]*\)$/ \1 \2 \3/'
}
# the statistics table: "name calls total self" per function
stats() {
	awk 'NF == 7 && $1 ~ /^[0-9]+$/ { print $7, $1, $2, $3 }' "$1" | sort
}
# Chrome events: "name ts dur" per complete event, in file order
chrome() {
	perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
		print "$_->{name} $_->{ts} $_->{dur}\n"
			for grep { $_->{ph} eq "X" } @{$j->{traceEvents}}' <"$1"
}

# ---- 1. entry_time wraps at 2^32 us ----
# tick (0x08000600) from 0xFFFFFE0C for 2000 us calls x (0x08000640) at
# 0xFFFFFED4 for 100 us and, after the wrap, at 200 for 400 us; sent in
# exit order as a device does
cat >"$TMP/wrap.rec" <<EOF
0x08000640 0xFFFFFED4 100 1
0x08000640 200 400 1
0x08000600 0xFFFFFE0C 2000 0
EOF
live wrap "$TMP/wrap.rec" -- --records=3
tap_is "$lrc $erc" "0 0" "one wrap: mttprofile and the emulator exit 0"
W=$TMP/wrap
tap_is "$(tree "$W/profile.txt")" "0x08000600 1 2000 1500
  0x08000640 2 500 500" "one wrap: call tree: tick (self 1500) -> x twice"
tap_is "$(stats "$W/profile.txt")" "0x08000600 1 2000 1500
0x08000640 2 500 500" "one wrap: statistics: tick 1 call, self 1500; x 2 calls, 500"
tap_is "$(cat "$W/profile.folded")" "0x08000600 1500
0x08000600;0x08000640 500" "one wrap: profile.folded: x under tick only"
tap_is "$(chrome "$W/profile.chrome.json")" "0x08000600 4294966796 2000
0x08000640 4294966996 100
0x08000640 4294967496 400" "one wrap: Chrome events on one timeline (the last x at 2^32 + 200)"
"$M" --format=folded "$W" >"$TMP/wrap.folded" 2>"$TMP/wrap.derr"
tap_is "$? $(cat "$TMP/wrap.folded")" "0 0x08000600 1500
0x08000600;0x08000640 500" "one wrap: mttdecode DIR --format=folded agrees"

# the first record after the wrap: its caller entered before it
printf '0x08000640 200 400 1\n0x08000600 0xFFFFFE0C 2000 0\n' >"$TMP/late.rec"
"$TMP/emu" file "$TMP/late.mprof" <"$TMP/late.rec"
"$M" --format=chrome "$TMP/late.mprof" >"$TMP/late.json"
tap_is "$(chrome "$TMP/late.json")" "0x08000600 4294966796 2000
0x08000640 4294967496 400" "a stream starting after the wrap: the caller still comes first"

# many wraps: tick every 1.5e9 us (10 ticks, 4 wraps), each calling x
# at +200 for 100 us and at +1200 for 400 us
perl -e 'for my $k (0 .. 9) { my $b = 0xFFFFFE0C + $k * 1500000000;
	printf "0x08000640 %u 100 1\n0x08000640 %u 400 1\n0x08000600 %u 2000 0\n",
		($b + 200) % 2**32, ($b + 1200) % 2**32, $b % 2**32;
	print STDERR "0x08000600 $b 2000\n0x08000640 ", $b + 200,
		" 100\n0x08000640 ", $b + 1200, " 400\n" }' \
	>"$TMP/many.rec" 2>"$TMP/many.want"
"$TMP/emu" file "$TMP/many.mprof" --per-packet=7 <"$TMP/many.rec"
"$M" "$TMP/many.mprof" >"$TMP/many.txt"
tap_is "$(tree "$TMP/many.txt")" "0x08000600 10 20000 15000
  0x08000640 20 5000 5000" "4 wraps: call tree: tick x10 (self 15000) -> x x20"
tap_is "$(stats "$TMP/many.txt")" "0x08000600 10 20000 15000
0x08000640 20 5000 5000" "4 wraps: the statistics agree"
"$M" --format=folded "$TMP/many.mprof" >"$TMP/many.folded"
tap_is "$(cat "$TMP/many.folded")" "0x08000600 15000
0x08000600;0x08000640 5000" "4 wraps: folded stacks agree"
"$M" --format=chrome "$TMP/many.mprof" >"$TMP/many.json"
chrome "$TMP/many.json" >"$TMP/many.got"
cmp -s "$TMP/many.got" "$TMP/many.want"
st=$?
tap_ok $st "4 wraps: every Chrome event at its 64-bit time, in time order"
[ $st -eq 0 ] || diff "$TMP/many.want" "$TMP/many.got" | head -n 10 | sed 's/^/# /'
grep -q "entry times wrapped 4 times" "$TMP/many.txt"
tap_ok $? "4 wraps: the text report says how often the times wrapped"

# ---- 2. NACKs, a refused START, nothing synchronised ----
live nack2 "$TMP/wrap.rec" --nack-metadata=2 -- --records=3
tap_is "$lrc $erc" "0 0" "GET_METADATA refused twice: the third try succeeds, exit 0"
tap_is "$(cat "$TMP/nack2.log")" "GET_METADATA
GET_METADATA
GET_METADATA
START_PROFILING
STOP_PROFILING
GET_STATUS" "... the device saw GET_METADATA three times, then START, STOP, GET_STATUS"
tap_is "$(cat "$TMP/nack2/profile.folded")" "0x08000600 1500
0x08000600;0x08000640 500" "... and the profile is written"

live nack3 "$TMP/wrap.rec" --nack-metadata=3 -- --records=3
tap_is "$lrc" 1 "GET_METADATA refused three times: exit 1"
grep -q "GET_METADATA refused (NACK) 3 times" "$TMP/nack3.err"
tap_ok $? "... said on stderr"
tap_is "$(cat "$TMP/nack3.log")" "GET_METADATA
GET_METADATA
GET_METADATA" "... after exactly three tries, and no START"
tap_is "$(ls "$TMP/nack3" | tr '\n' ' ')" "capture.mprof " \
	"... no report written (only what the device sent)"

live nstart "$TMP/wrap.rec" --nack-start -- --records=3
tap_is "$lrc" 1 "START_PROFILING refused: exit 1"
grep -q "START_PROFILING refused (NACK): no profile written" "$TMP/nstart.err"
tap_ok $? "... said on stderr"
tap_is "$(ls "$TMP/nstart" | tr '\n' ' ')" "capture.mprof " \
	"... and no empty report is written"

perl -e 'srand(18); print map { chr(int(rand(256))) } 1 .. 4096' >"$TMP/random.bin"
"$M" --input=mprof "$TMP/random.bin" >"$TMP/random.out" 2>"$TMP/random.err"
tap_is "$?" 3 "mttdecode --input=mprof on random bytes: exit status 3"
sed 's/^/# /' "$TMP/random.err"
grep -q "random.bin: nothing synchronised in 4096 bytes: no MiniProfiler packet ([0-9]* bad bytes skipped" "$TMP/random.err"
tap_ok $? "... stderr says nothing synchronised and how many bytes were skipped"
"$M" --input=mprof --format=chrome "$TMP/random.bin" >/dev/null 2>&1
tap_is "$?" 3 "... with --format=chrome too"
"$TMP/mttprofile" --report -q -o "$TMP/rnd" "$TMP/random.bin" 2>"$TMP/rnd.err"
tap_is "$? $(ls "$TMP/rnd" | wc -l)" "1 0" "mttprofile --report on random bytes: exit 1, no report"

# ---- 3. the session's ELF ----
mkdir "$TMP/bin" "$TMP/elsewhere"
cat >"$TMP/app.c" <<'EOF'
#define N __attribute__((noinline, used))
volatile int sink;
N void helper(int i) { sink += i; }
N void work(void) { for (int i = 0; i < 3; i++) helper(i); }
int main(void) { work(); return 0; }
EOF
cat >"$TMP/other.c" <<'EOF'
#define N __attribute__((noinline, used))
volatile long acc;
N void alpha(long i) { acc = acc * 7 + i; }
N void beta(void) { for (long i = 0; i < 9; i++) alpha(i); acc ^= 0x5a; }
N void gamma_(void) { beta(); beta(); }
int main(void) { gamma_(); return (int)(acc & 1); }
EOF
$cc -std=c11 -O1 -g -Wl,--build-id=sha1 -o "$TMP/bin/app" "$TMP/app.c" &&
$cc -std=c11 -O1 -g -Wl,--build-id=sha1 -o "$TMP/elsewhere/app" "$TMP/other.c" &&
objcopy -O binary --only-section=.text "$TMP/bin/app" "$TMP/app.text" ||
	bail "cannot build the test programs"
sym() { nm "$2" | sed -n "s/^0*\([0-9a-f]*\) [Tt] $1\$/0x\1/p"; }
work=$(sym work "$TMP/bin/app")
helper=$(sym helper "$TMP/bin/app")
printf '%s 10 5 1\n%s 20 5 1\n%s 0 100 0\n' "$helper" "$helper" "$work" >"$TMP/app.rec"
live app "$TMP/app.rec" --text="$TMP/app.text" -- --records=3 --elf="$TMP/bin/../bin/app"
tap_is "$lrc $erc" "0 0" "a session with --elf: exit 0"
S=$TMP/app
kv() { sed -n "s/^$1=//p" "$2/session.txt"; }
tap_is "$(kv elf "$S")" "$(cd "$TMP/bin" && pwd -P)/app" "session.txt: elf= is the ELF's absolute path"
tap_is "$(kv elf_text_crc32 "$S")" "$(kv elf_build_id "$S")" \
	"session.txt: elf_text_crc32= the ELF's .text CRC32 (= the device's build id)"
gid=$(readelf -n "$TMP/bin/app" | sed -n 's/^ *Build ID: *//p')
tap_is "$(kv elf_gnu_build_id "$S")" "$gid" "session.txt: elf_gnu_build_id= the ELF's GNU build id"
names() { sed -n 's/.*"kind":"function","name":"\([^"]*\)".*"calls":\([0-9]*\),.*/\1=\2/p' "$1" | sort | tr '\n' ' '; }
(cd "$TMP/elsewhere" && "$M" --format=json ../app) >"$TMP/app.json" 2>"$TMP/app.derr"
tap_is "$? $(names "$TMP/app.json")" "0 helper=2 work=1 " \
	"mttdecode DIR from another directory (with an unrelated ./app): names from the session's ELF"

# a session as older mttprofile wrote it: elf=app relative, no identity
# of the ELF but the device's build id; the right app in the session
# directory, an unrelated one in the current directory
cp -r "$S" "$TMP/old"
sed -i '/^elf_text_crc32=/d; /^elf_gnu_build_id=/d; s/^elf=.*/elf=app/' "$TMP/old/session.txt"
cp "$TMP/bin/app" "$TMP/old/app"
(cd "$TMP/elsewhere" && "$M" --format=json ../old) >"$TMP/old.json" 2>"$TMP/old.derr"
tap_is "$? $(names "$TMP/old.json")" "0 helper=2 work=1 " \
	"elf=app relative: resolved against the session directory, not the current one"
cp "$TMP/elsewhere/app" "$TMP/old/app"
(cd "$TMP/elsewhere" && "$M" --format=json ../old) >"$TMP/old2.json" 2>"$TMP/old2.derr"
tap_is "$?" 1 "an ELF that is not the device's (build id): refused, exit 1"
sed 's/^/# /' "$TMP/old2.derr"
grep -q "is not the ELF that was profiled (its .text CRC32 is 0x[0-9a-f]*, the device's build id $(kv elf_build_id "$S"))" "$TMP/old2.derr"
tap_ok $? "... said on stderr, with both CRCs"
tap_is "$(grep -c '"name"' "$TMP/old2.json")" 0 "... and no name from it"

# the ELF at the recorded path replaced by another program
cp -r "$S" "$TMP/moved"
sed -i "s|^elf=.*|elf=$TMP/elsewhere/app|" "$TMP/moved/session.txt"
"$M" --format=json "$TMP/moved" >/dev/null 2>"$TMP/moved.derr"
tap_is "$?" 1 "the ELF at the recorded path rebuilt: refused, exit 1"
grep -q "is not the ELF that was profiled (its GNU build id is [0-9a-f]*, the session recorded $gid)" "$TMP/moved.derr"
tap_ok $? "... the GNU build ids named on stderr"

# an explicit --elf that does not match the device: warned about
"$M" --format=json --elf="$TMP/elsewhere/app" "$S/capture.mprof" >/dev/null 2>"$TMP/expl.derr"
grep -q "warning: .*elsewhere/app does not match the device" "$TMP/expl.derr"
tap_ok $? "mttdecode --elf=FILE not matching the device's build id: warned"

# an address past a symbol's end is not named after it: _fini (assembly,
# no size) + 0x225, past .fini and every function
fini=$(sym _fini "$TMP/bin/app")
if [ -n "$fini" ]; then
	past=$(printf '0x%08x' $((fini + 0x225)))
	printf '%s 0 5 1\n%s 0 10 0\n' "$past" "$work" >"$TMP/past.rec"
	"$TMP/emu" file "$TMP/past.mprof" --text="$TMP/app.text" <"$TMP/past.rec"
	"$M" --format=json --elf="$TMP/bin/app" "$TMP/past.mprof" >"$TMP/past.json"
	tap_is "$(names "$TMP/past.json")" "$past=1 work=1 " \
		"_fini+0x225 (past its section and every function) is shown unnamed"
else
	tap_ok 0 "# SKIP no _fini in the test program"
fi

tap_done
