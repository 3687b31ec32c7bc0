# SPDX-License-Identifier: GPL-2.0
# tests/host/lib.sh - sourced by the tests/host/*.t scripts (POSIX sh).
#
# TOP     the repository root        TOOLS   $TOP/tools
# MTTDECODE  the built command (built with "make -C tools" if missing)
# tap_ok COND-STATUS NAME ...   tiny TAP helpers for shell tests
# run_ctest NAME [SOURCES...]   build tests/host/src/NAME.c under
#                               ASan+UBSan, linked with libmttdecode
#                               built the same way (san_tools), and run it
# bytes "ff 0f 30"              write those bytes to stdout
# asan_mttdecode                build mttdecode with ASan+UBSan (and
#                               $ASAN_EXTRA_CFLAGS) and set M to it
# par_same FILE [ARGS...]       mttdecode ($M) -j N of FILE as -j1
# bad NAME LINE REGEX           a bad mttcontrol ($C) configuration on
#                               stdin: exit 1, "NAME.conf:LINE: REGEX"
# man_format_ok DIR             DIR/man3/*.3 format without warnings
# page_data PAGE, page_py PAGE CODE   the JSON block of an mttdecode
#                               --format=html page; CODE run on it
# view_chromium, view_unavailable DESC, view_summary PAGE QUERY,
# view_screenshot PNG PAGE QUERY   the page in headless Chromium

TOP=$(cd "$(dirname "$0")/../.." && pwd)
TOOLS=$TOP/tools
MTTDECODE=$TOOLS/build/mttdecode
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mttd-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
# A helper that is gone or misspelt must fail the test, not shrink it
# (its checks would just not be counted: the plan is printed at the
# end).  The shell says so only on stderr, so stderr is copied, as it
# goes, into a file that tap_done reads for the shell's "not found".
mkfifo "$TMP/.stderr.fifo" || exit 1
tee "$TMP/.stderr" <"$TMP/.stderr.fifo" >&2 &
exec 2>"$TMP/.stderr.fifo"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

tap_n=0
tap_fail=0

tap_ok() {
	# tap_ok STATUS NAME: STATUS 0 is a pass
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_fail=$((tap_fail + 1))
	fi
}

tap_is() {
	# tap_is GOT WANT NAME
	if [ "$1" = "$2" ]; then
		tap_ok 0 "$3"
	else
		tap_ok 1 "$3"
		printf '%s\n' "got:" "$1" "expected:" "$2" | sed 's/^/# /'
	fi
}

tap_done() {
	if grep -F -- "$0: " "$TMP/.stderr" | grep -Eq ': (command )?not found$'; then
		tap_ok 1 "every command the test runs exists"
		grep -F -- "$0: " "$TMP/.stderr" | grep -E ': (command )?not found$' |
			sed 's/^/# /'
	fi
	echo "1..$tap_n"
	[ "$tap_fail" -eq 0 ]
	exit $?
}

bail() {
	echo "Bail out! $*"
	exit 1
}

bytes() {
	for h in $1; do
		# an octal escape as the format: the portable way to write a byte
		# shellcheck disable=SC2059
		printf "\\$(printf %o "0x$h")"
	done
}

# tools_make VAR=VALUE...: "make -C tools all" with those variables, one
# build at a time (prove -j runs the tests in parallel: flock serialises
# their builds, and make redoes only what is out of date)
tools_make() {
	mkdir -p "$TOOLS/build"
	flock "$TOOLS/build/.make.lock" make -s -j"$(nproc)" -C "$TOOLS" "$@" \
		all >"$TMP/build.log" 2>&1 ||
		{ sed 's/^/# /' "$TMP/build.log"; bail "make -C tools $* failed"; }
}

need_mttdecode() {
	tools_make
}

ctest_cc() {
	if [ -n "${TEST_CC:-}" ]; then
		echo "$TEST_CC"
	elif command -v clang >/dev/null 2>&1; then
		echo clang
	else
		echo "${CC:-cc}"
	fi
}

# san_tools: every library and command built with ASan and UBSan (and
# $ASAN_EXTRA_CFLAGS) by "make -C tools SANITIZE=1", into $SAN
# (tools/build/san, or tools/build/san-FLAGS for extra flags)
san_tools() {
	SAN=build/san
	[ -z "${ASAN_EXTRA_CFLAGS:-}" ] ||
		SAN=build/san$(printf %s "$ASAN_EXTRA_CFLAGS" | tr -c 'A-Za-z0-9_' -)
	tools_make B="$SAN" SANITIZE=1 CC="$(ctest_cc)" \
		EXTRA_CFLAGS="${ASAN_EXTRA_CFLAGS:-}"
	SAN=$TOOLS/$SAN
}

# san_cc OUT SOURCES... -- LIBS...: a test program built like san_tools'
# objects (the public headers of every library on the include path)
san_cc() {
	o=$1
	shift
	# shellcheck disable=SC2046
	$(ctest_cc) -std=c11 -Wall -Wextra -Werror -g -O1 \
	    -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer -D_DEFAULT_SOURCE \
	    -I"$TOOLS/lib/mttdecode/include" -I"$TOOLS/lib/mprof/include" \
	    -I"$TOOLS/lib/mprofdev/include" -I"$TOOLS/lib/wire/include" \
	    -I"$TOP/tests/host/enc" -I"$TOP/tests/host/src" -o "$o" "$@"
}

run_ctest() {
	name=$1
	shift
	san_tools
	if ! san_cc "$TMP/$name" "$TOP/tests/host/src/$name.c" \
	    "$TOP/tests/host/src/testutil.c" "$@" "$SAN/libmttdecode.a" \
	    -lexpat >"$TMP/cc.log" 2>&1; then
		sed 's/^/# /' "$TMP/cc.log"
		bail "cannot build $name with $(ctest_cc) and ASan/UBSan"
	fi
	"$TMP/$name"
}

# par_same FILE [ARGS...]: $M -j1 --stats $PAR_ARGS ARGS FILE against
# -jJ --segment=S for each J:S of $PAR_SEGS (default 2:4096 3:65536
# 8:4096): the same output, --stats (but its "-j pieces:" line) and exit
# status; the test's name shows FILE's name and ARGS
par_same() {
	ps_in=$1
	shift
	# shellcheck disable=SC2086 # PAR_ARGS: options, split
	"$M" -j1 --stats $PAR_ARGS "$@" "$ps_in" >"$TMP/o1" 2>"$TMP/e1"
	ps_r1=$?
	ps_bad=""
	for ps_js in ${PAR_SEGS:-2:4096 3:65536 8:4096}; do
		# shellcheck disable=SC2086 # PAR_ARGS: options, split
		"$M" -j"${ps_js%:*}" --segment="${ps_js#*:}" --stats $PAR_ARGS \
			"$@" "$ps_in" >"$TMP/o2" 2>"$TMP/e2"
		ps_r2=$?
		grep -v '^-j pieces:' "$TMP/e2" >"$TMP/e2b"
		if [ "$ps_r1" != "$ps_r2" ] || ! cmp -s "$TMP/o1" "$TMP/o2" ||
		    ! cmp -s "$TMP/e1" "$TMP/e2b"; then
			ps_bad="$ps_bad -j$ps_js"
			diff "$TMP/o1" "$TMP/o2" | head -5 | sed 's/^/# /'
			diff "$TMP/e1" "$TMP/e2b" | head -5 | sed 's/^/# /'
		fi
	done
	tap_is "$ps_bad" "" "$(basename "$ps_in") $*: -j2, -j3, -j8 output as -j1"
}

# stream_gen NAME OUT [ARGS...]: build tests/host/src/NAME.c (an STP
# stream writer on the test encoder, tests/host/enc) once, run it with
# ARGS, its stream to OUT
stream_gen() {
	g=$1
	o=$2
	shift 2
	if [ ! -x "$TMP/$g" ]; then
		cc=$(ctest_cc)
		$cc -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE \
			-I"$TOOLS/lib/mttdecode/include" -I"$TOP/tests/host/enc" -o "$TMP/$g" \
			"$TOP/tests/host/src/$g.c" "$TOP"/tests/host/enc/*.c \
			>"$TMP/cc.log" 2>&1 ||
			{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build $g"; }
	fi
	"$TMP/$g" "$@" >"$o"
}

# mttstp_stream OUT: tests/host/src/mttstp.c's stream of MTT frames over
# STP (whole messages, in SyS-T) written to OUT
mttstp_stream() {
	stream_gen mttstp "$1"
}

asan_mttdecode() {
	san_tools
	M=$SAN/mttdecode
}

# asan_mttcontrol: mttcontrol built with ASan+UBSan as $C (and san_tools'
# $SAN), its run directory, policy root and MTT root in $TMP (no policy,
# no MTT)
asan_mttcontrol() {
	san_tools
	C=$SAN/mttcontrol
	export MTTCONTROL_RUNDIR=$TMP/run
	export MTTCONTROL_POLICY_ROOT=$TMP/stp-policy
	export MTTCONTROL_MTT_ROOT=$TMP/no-mtt
	mkdir "$TMP/stp-policy"
}

# asan_mttprofile: mttprofile built with ASan+UBSan, as $TMP/mttprofile
asan_mttprofile() {
	san_tools
	ln -sf "$SAN/mttprofile" "$TMP/mttprofile"
}

# session_files DIR: one check per file of an mttprofile session: each
# is there and not empty
session_files() {
	for f in capture.mprof session.txt profile.txt profile.folded \
	    profile.chrome.json profile.html; do
		[ -s "$1/$f" ]
		tap_ok $? "session file $f"
	done
}

# wait_pty FILE PID: wait until the device program PID has written its
# pty's path to FILE (a hang guard of 20 s, or PID ending, bails out)
wait_pty() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 2000 ] && kill -0 "$2" 2>/dev/null; do
		sleep 0.01
		i=$((i + 1))
	done
	[ -s "$1" ] || { kill "$2" 2>/dev/null; bail "no pty opened by the device program"; }
}

# reap PID: its exit status; a hang guard kills it after 60 s (status 137)
reap() {
	n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt 1200 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	kill -9 "$1" 2>/dev/null
	wait "$1"
}

# bad NAME LINE REGEX: mttcontrol ($C) --check of a file whose content is
# on stdin fails with exit 1 and "NAME.conf:LINE: ..." matching REGEX
bad() {
	f=$TMP/$1.conf
	cat >"$f"
	"$C" --check "$f" >"$TMP/out" 2>&1
	rc=$?
	got=$(cat "$TMP/out")
	if [ "$rc" = 1 ] && printf '%s\n' "$got" |
		grep -qE "^mttcontrol: $f:$2: $3"; then
		tap_ok 0 "bad file, exit 1 with file:line: $1"
	else
		tap_ok 1 "bad file, exit 1 with file:line: $1"
		echo "# exit $rc: $got"
	fi
}

# man_format_ok DIR: one check per page DIR/man3/*.3: it formats
# without a warning from groff -ww nor from man --warnings
man_format_ok() {
	for p in "$1"/man3/*.3; do
		out=$(groff -man -ww -z "$p" 2>&1)
		out="$out$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 \
			-l "$p" 2>&1 >/dev/null)"
		tap_is "$out" "" "${p#"$1"/} formats without warnings"
	done
}

# same_output WHAT MIN NAME_A BIN_A NAME_B BIN_B ARGS...: runs both builds
# of mttdecode with ARGS into $TMP/a.out and $TMP/b.out; four checks: each
# exits 0, A wrote at least MIN lines, the outputs are identical (the first
# differences shown when not).  WHAT names the case in the checks.
same_output() {
	local what=$1 min=$2 na=$3 a=$4 nb=$5 b=$6 sa sb st lines
	shift 6
	"$a" "$@" >"$TMP/a.out" 2>"$TMP/a.err"
	sa=$?
	"$b" "$@" >"$TMP/b.out" 2>"$TMP/b.err"
	sb=$?
	tap_ok $sa "$na build, $what: exits 0"
	tap_ok $sb "$nb build, $what: exits 0"
	lines=$(wc -l <"$TMP/a.out")
	[ "$lines" -ge "$min" ]
	tap_ok $? "$what: $lines lines out (at least $min)"
	cmp -s "$TMP/a.out" "$TMP/b.out"
	st=$?
	tap_ok $st "$what: $nb output identical"
	[ $st -eq 0 ] || diff "$TMP/a.out" "$TMP/b.out" |
		head -n 10 | sed 's/^/# /'
}

# page_data PAGE: the JSON block of an mttdecode --format=html page
page_data() {
	python3 -c '
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<script type=\"application/json\" id=\"data\">(.*?)</script>", s, re.S)
sys.stdout.write(m.group(1))' "$1"
}

# page_py PAGE CODE: python3 CODE with d = the page's data, S its
# strings, st(i) string i ('' for -1), json and collections imported
page_py() {
	page_data "$1" >"$TMP/data.json" || return 1
	python3 -c "
import json, collections
d = json.load(open('$TMP/data.json'))
S = d['strings']
st = lambda i: S[i] if i >= 0 else ''
$2"
}

# view_chromium: CHROMIUM set to Debian's chromium, or empty
view_chromium() {
	CHROMIUM=$(command -v chromium || command -v chromium-browser)
}

# view_unavailable DESC: a check that needs Chromium, without it: fails
# under STM_CHECK_VIEW=1, else skips
view_unavailable() {
	if [ "${STM_CHECK_VIEW:-}" = 1 ]; then
		tap_ok 1 "$1 (no chromium; STM_CHECK_VIEW=1)"
	else
		tap_n=$((tap_n + 1))
		echo "ok $tap_n - $1 # SKIP no chromium (scripts/install-deps.sh installs it)"
	fi
}

# view_summary PAGE QUERY: the page's #summary counts ("tracks N marks N
# points N slices N buckets N") after its script ran with QUERY (the
# page's ?test= hook); the whole DOM in $TMP/dom
view_summary() {
	timeout -k 10 300 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chrome" --window-size=1400,800 --dump-dom \
		"file://$1$2" 2>>"$TMP/chrome.log" >"$TMP/dom"
	grep -o '<div id="summary"[^>]*>' "$TMP/dom" |
		sed 's/.* data-tracks="\([0-9]*\)" data-marks="\([0-9]*\)" data-points="\([0-9]*\)" data-slices="\([0-9]*\)" data-buckets="\([0-9]*\)".*/tracks \1 marks \2 points \3 slices \4 buckets \5/'
}

# view_screenshot PNG PAGE QUERY: one check, the page's screenshot kept
# as PNG (a test artifact)
view_screenshot() {
	rm -f "$1"
	(cd "$TMP" && timeout -k 10 300 "$CHROMIUM" --headless=new --no-sandbox \
		--disable-gpu --user-data-dir="$TMP/chrome" --hide-scrollbars \
		--window-size=1400,500 --screenshot="$1" \
		"file://$2$3" >>"$TMP/chrome.log" 2>&1)
	[ "$(od -An -tx1 -N4 "$1" 2>/dev/null | tr -d ' ')" = 89504e47 ]
	tap_ok $? "screenshot kept: ${1#"$TOP"/}"
}
