#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chrome-slices.t - the Chrome trace: SyS-T STRING:ENTER/EXIT and MTT
# API_ENTRY/API_RETURN become slices ("B"/"E" on one track per thread,
# nested), --from/--to keep a window of the trace's time (ns), and
# --wall-clock moves "ts" to the wall clock with a session's clocks.
# Stream: tests/host/src/systmix.c "slices" (SyS-T and MTT written from
# the specifications).  Every output is checked to parse as JSON.
# mttdecode is built with ASan + UBSan.
. "$(dirname "$0")/lib.sh"
asan_mttdecode
stream_gen systmix "$TMP/s.stp" slices

# events FILE: one line per non-metadata event: ph name ts pid/tid
events() {
	python3 -c '
import json, sys
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e["ph"] != "M":
        print(e["ph"], e["name"], e["ts"], "%d/%d" % (e["pid"], e["tid"]))' "$1"
}
# threads FILE: the thread names by pid/tid
threads() {
	python3 -c '
import json, sys
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e["name"] == "thread_name":
        print("%d/%d" % (e["pid"], e["tid"]), e["args"]["name"])' "$1"
}

"$M" --syst -f chrome "$TMP/s.stp" >"$TMP/all.json"
python3 -m json.tool "$TMP/all.json" >/dev/null
tap_ok $? "the Chrome trace parses (json.tool)"
tap_is "$(events "$TMP/all.json")" \
"B f 1000.0 1/65536
B g 2000.0 1/65536
E g 3000.0 1/65536
E f 4000.0 1/65536
B api 5000.0 65535/1
C comp:0x00000003 api 5000.0 65535/2
i x = 7 5500.0 65535/2
C comp:0x00000003 x 5500.0 65535/2
E api 6000.0 65535/1
C comp:0x00000003 api 6000.0 65535/2" \
	"ENTER/EXIT and API_ENTRY/API_RETURN are B/E slices, nested per track"
tap_is "$(threads "$TMP/all.json")" \
"1/65536 m1 c0
65535/1 comp:0x00000003 ctx 100
65535/2 comp:0x00000003" \
	"MTT slices on a track per component and thread (ctx 100); the rest on the component's"

"$M" --syst -f chrome --from=2000000 --to=3000000 "$TMP/s.stp" >"$TMP/win.json"
python3 -m json.tool "$TMP/win.json" >/dev/null
tap_ok $? "--from/--to: parses"
tap_is "$(events "$TMP/win.json")" \
"B g 2000.0 1/65536
E g 3000.0 1/65536" "--from/--to: the events in [2000000, 3000000] ns, ends included"
tap_is "$("$M" --syst -f chrome --from=5500001 "$TMP/s.stp" >"$TMP/from.json" &&
	events "$TMP/from.json")" \
"E api 6000.0 65535/1
C comp:0x00000003 api 6000.0 65535/2" "--from alone"

"$M" --from=1 "$TMP/s.stp" >/dev/null 2>&1
tap_is $? 2 "--from without --format=chrome: usage error"
"$M" -f chrome --from=3 --to=2 "$TMP/s.stp" >/dev/null 2>&1
tap_is $? 2 "--from after --to: usage error"
"$M" -f chrome --from=x "$TMP/s.stp" >/dev/null 2>&1
tap_is $? 2 "--from not a number: usage error"

# a session: CLOCK_REALTIME 1700000000.000000000 when CLOCK_MONOTONIC was
# 1 ms: the wall clock is the trace's time + 1699999999999000000 ns
mkdir "$TMP/sess"
cp "$TMP/s.stp" "$TMP/sess/stream-0000.stp"
printf '%s\n' 'mttsession 1' 'clock_realtime_ns 1700000000000000000' \
	'clock_monotonic_ns 1000000' 'format stp' 'protocol p_sys-t' \
	>"$TMP/sess/mttsession"
"$M" -f chrome --wall-clock "$TMP/sess" >"$TMP/wall.json"
python3 -m json.tool "$TMP/wall.json" >/dev/null
tap_ok $? "--wall-clock: parses"
tap_is "$(grep -o '"ts":[0-9.]*' "$TMP/wall.json" | head -n 2 | tr '\n' ' ')" \
	'"ts":1700000000000000.000 "ts":1700000000001000.000 ' \
	"--wall-clock: ts = trace time + realtime - monotonic, in us"
tap_is "$("$M" -f chrome --wall-clock --from=2000000 --to=2000000 "$TMP/sess" |
	grep -o '"ts":[0-9.]*')" '"ts":1700000000001000.000' \
	"--wall-clock with a window: the window in the trace's time"
"$M" -f chrome --wall-clock "$TMP/s.stp" >/dev/null 2>"$TMP/err"
tap_is "$?:$(cat "$TMP/err")" \
"1:mttdecode: --wall-clock: no session with clock_realtime_ns and clock_monotonic_ns among the inputs" \
	"--wall-clock without a session: error"
tap_done
