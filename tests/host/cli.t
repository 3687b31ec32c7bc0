#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cli.t - the mttdecode command: options, exit codes, the exact text and
# JSON line formats, stdin, losses, limits.
. "$(dirname "$0")/lib.sh"
need_mttdecode
M=$MTTDECODE

P="ff ff ff ff ff ff ff ff ff ff 0f 0f 30"
# M8 07, C8 03, D32TS "hell" ts L=1 5, D8M "o"
HELLO="$P 01 37 30 6f c6 c6 56 86 51 8f f6"
bytes "$HELLO" >"$TMP/hello.stp"

"$M" --help >"$TMP/help" 2>&1
tap_ok $? "--help exits 0"
grep -q -- "--packets" "$TMP/help" && grep -q -- "--format" "$TMP/help" &&
	grep -q -- "--no-output" "$TMP/help" && grep -q -- "--stats" "$TMP/help"
tap_ok $? "--help lists the options"
tap_is "$("$M" --version)" "mttdecode 0.1.0" "--version"

"$M" --bogus "$TMP/hello.stp" >/dev/null 2>&1
tap_is $? 2 "unknown option: exit 2"
"$M" --format=xml "$TMP/hello.stp" >/dev/null 2>&1
tap_is $? 2 "bad --format: exit 2"
"$M" --max-message=3 "$TMP/hello.stp" >/dev/null 2>&1
tap_is $? 2 "bad --max-message: exit 2"
"$M" "$TMP/nonexistent" >/dev/null 2>&1
tap_is $? 1 "missing file: exit 1"
"$M" "$TMP/hello.stp" >"$TMP/one.txt" 2>&1
"$M" "$TMP/hello.stp" "$TMP/hello.stp" >"$TMP/two.txt" 2>&1
tap_is "$?:$(cat "$TMP/one.txt" "$TMP/one.txt")" "0:$(cat "$TMP/two.txt")" \
	"two files: each decoded as its own stream, in order, exit 0"
if [ -w /dev/full ]; then
	"$M" "$TMP/hello.stp" >/dev/full 2>/dev/null
	tap_is $? 1 "write error: exit 1"
fi

tap_is "$("$M" "$TMP/hello.stp")" \
"-- sync at offset 0
-- version 3 (natural binary timestamps) at offset 11
              5 m7 c3     5  \"hello\"" "text output"

tap_is "$("$M" --format json "$TMP/hello.stp")" \
'{"kind":"sync","offset":0,"skipped":0}
{"kind":"version","offset":11,"version":3}
{"kind":"msg","master":7,"channel":3,"ts":5,"len":5,"data":"68656c6c6f","complete":true}' \
	"JSON output"

tap_is "$("$M" --format=json --packets --no-messages "$TMP/hello.stp")" \
'{"kind":"packet","offset":0,"op":"ASYNC","master":0,"channel":0,"marked":false}
{"kind":"sync","offset":0,"skipped":0}
{"kind":"packet","offset":11,"op":"VERSION","master":0,"channel":0,"size":1,"value":"3","marked":false}
{"kind":"version","offset":11,"version":3}
{"kind":"packet","offset":13,"op":"M8","master":7,"channel":0,"marked":false}
{"kind":"packet","offset":14,"op":"C8","master":7,"channel":3,"marked":false}
{"kind":"packet","offset":16,"op":"D32TS","master":7,"channel":3,"size":4,"value":"6c6c6568","marked":false,"ts":5}
{"kind":"packet","offset":22,"op":"D8M","master":7,"channel":3,"size":1,"value":"6f","marked":true}' \
	"JSON packets"

tap_is "$("$M" -p "$TMP/hello.stp")" \
"@0 ASYNC m0 c0
-- sync at offset 0
@11 VERSION m0 c0 3
-- version 3 (natural binary timestamps) at offset 11
@13 M8 m7 c0
@14 C8 m7 c3
@16 D32TS m7 c3 6c6c6568 ts=5
@22 D8M m7 c3 6f marked
              5 m7 c3     5  \"hello\"" "text packets and messages"

tap_is "$("$M" - <"$TMP/hello.stp")" "$("$M" "$TMP/hello.stp")" "- reads stdin"
# shellcheck disable=SC2002 # a pipe, not a file, on stdin
tap_is "$(cat "$TMP/hello.stp" | "$M")" "$("$M" "$TMP/hello.stp")" \
	"no FILE reads stdin"

out=$("$M" --no-output --stats "$TMP/hello.stp" 2>"$TMP/stats")
tap_is "$out" "" "--no-output prints nothing"
grep -q "^bytes in: *24$" "$TMP/stats" &&
	grep -q "^messages: *1 (0 incomplete, 0 truncated)$" "$TMP/stats" &&
	grep -q "^packets: *6$" "$TMP/stats" &&
	grep -q "^unsynced bytes: *0$" "$TMP/stats"
tap_ok $? "--stats summary on stderr"

# GERR 3 in the middle of the message; D8M "o" arrives alone after it
bytes "$P 01 37 30 6f c6 c6 56 86 51 2f 30 8f f6" >"$TMP/gerr.stp"
tap_is "$("$M" "$TMP/gerr.stp")" \
"-- sync at offset 0
-- version 3 (natural binary timestamps) at offset 11
              5 m7 c3     4  \"hell\" (incomplete)
!! loss: 3 packets (GERR) at offset 22, m7 c3
              - m0 c0     1  \"o\"" "GERR in text"
tap_is "$("$M" -f json "$TMP/gerr.stp" | grep -v '"sync"\|"version"')" \
'{"kind":"msg","master":7,"channel":3,"ts":5,"len":4,"data":"68656c6c","complete":false}
{"kind":"loss","offset":22,"reason":"gerr","master":7,"channel":3,"count":3}
{"kind":"msg","master":0,"channel":0,"ts":null,"len":1,"data":"6f","complete":true}' \
	"GERR in JSON"

# reserved opcode F0C, then garbage, then a resync
bytes "$P 0f 0c 12 $P a4 0b" >"$TMP/desync.stp"
tap_is "$("$M" -f json "$TMP/desync.stp")" \
'{"kind":"sync","offset":0,"skipped":0}
{"kind":"version","offset":11,"version":3}
{"kind":"loss","offset":13,"reason":"desync","master":0,"channel":0,"count":3}
{"kind":"sync","offset":16,"skipped":3}
{"kind":"version","offset":27,"version":3}
{"kind":"msg","master":0,"channel":0,"ts":null,"len":1,"data":"ab","complete":false}' \
	"desync in JSON"
tap_is "$("$M" "$TMP/desync.stp" | grep '^!!')" \
"!! loss: desync at offset 13 (reserved opcode), 3 bytes skipped" \
	"desync in text"
"$M" -p "$TMP/desync.stp" | grep -q "^!! desync at offset 13: reserved opcode$"
tap_ok $? "--packets shows the desync where it happens"

bytes "$P 16 32" >"$TMP/cut.stp"
tap_is "$("$M" -f json "$TMP/cut.stp" | tail -n 1)" \
'{"kind":"loss","offset":13,"reason":"truncated","master":0,"channel":0,"count":2}' \
	"stream cut inside a packet"

bytes "12 34 56" >"$TMP/junk.stp"
tap_is "$("$M" "$TMP/junk.stp" 2>"$TMP/junk.err"; echo "rc=$?")" "rc=3" \
	"garbage only: nothing printed, exit 3"
tap_is "$(cat "$TMP/junk.err")" \
"mttdecode: $TMP/junk.stp: nothing synchronised in 3 bytes: no STP ASYNC, no \"SYS-T RAW DATA:\" line, no SyS-T messages (see --input)" \
	"garbage only: said on stderr"

# NULLs: 0 0 | 4 a b 0
bytes "$P 00 a4 0b" >"$TMP/null.stp"
tap_is "$("$M" -p -M "$TMP/null.stp" | grep -c NULL)" 0 \
	"NULL packets hidden by default"
tap_is "$("$M" -p -M --nulls "$TMP/null.stp" | grep -c '^@1[356] NULL m0 c0$')" 3 \
	"--nulls prints them"

# escapes: D32MTS "a\n\"\xff" -> value ff220a61, ts L=0:
# nibbles a f f 2 2 0 a 6 1 0
bytes "$P fa 2f 02 6a 01" >"$TMP/esc.stp"
tap_is "$("$M" "$TMP/esc.stp" | tail -n 1)" \
"              0 m0 c0     4  \"a\\n\\\"\\xff\"" "non-printable bytes escaped"

# a 24-byte message with --max-message=16: cut and flagged
MSG24="$P 07 21 43 65 87 a9 cb ed 0f 07 21 43 65 87 a9 cb ed 0f bf 11 22 33 44 55 66 77 88"
bytes "$MSG24" >"$TMP/long.stp"
"$M" -f json --max-message=16 "$TMP/long.stp" | grep -q \
	'"len":16,"data":"efcdab8967452301efcdab8967452301","complete":false,"truncated":true}$'
tap_ok $? "--max-message cuts and flags"
"$M" --max-message=16 "$TMP/long.stp" | grep -q '^ *- m0 c0    16  ".*" (truncated)$'
tap_ok $? "... shown in text"

# a live pipe: lines appear before the end of input; SIGTERM ends the
# input like EOF, so the open message and --stats still come out.  The
# writer keeps the pipe open and waits for events (a line printed, the
# pipe read empty), never for a time; 600 s only guards against a hang.
# live_start OUT ERR ARGS...: mttdecode ARGS reading $TMP/fifo, fd 7
# its writing end
live_start() {
	local out=$1 err=$2
	shift 2
	rm -f "$TMP/fifo"
	mkfifo "$TMP/fifo"
	"$M" "$@" <"$TMP/fifo" >"$out" 2>"$err" &
	live_pid=$!
	exec 7>"$TMP/fifo"
}
# live_wait CMD...: poll CMD every 0.1 s, at most 600 s
live_wait() {
	local i=0
	until "$@"; do
		[ $i -lt 6000 ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
}
# pipe_empty: mttdecode has read everything written to the fifo (FIONREAD)
pipe_empty() {
	perl -e 'open(my $f, ">", $ARGV[0]) or exit 2; my $n = pack("i", 0);
		ioctl($f, 0x541B, $n) or exit 2; exit(unpack("i", $n) ? 1 : 0)' "$TMP/fifo"
}
live_start "$TMP/live1" /dev/null
bytes "$HELLO" >&7
live_wait grep -q '^              5 m7 c3     5  "hello"$' "$TMP/live1"
tap_ok $? "live input: printed before the pipe ends"
exec 7>&-
wait $live_pid
live_start "$TMP/live2" "$TMP/stats2" -f json --stats
bytes "$P 01 37 30 6f c6 c6 56 86 51" >&7
live_wait pipe_empty
kill -TERM $live_pid
wait $live_pid
exec 7>&-
grep -q '"data":"68656c6c","complete":false}$' "$TMP/live2" &&
	grep -q "^messages: *1 (1 incomplete" "$TMP/stats2"
tap_ok $? "SIGTERM ends the input like EOF"

tap_done
