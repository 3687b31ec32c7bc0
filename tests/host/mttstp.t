#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mttstp.t - mttdecode on MTT frames carried over STP in each form of
# Documentation/mtt.rst (tests/host/src/mttstp.c writes the stream):
# whole STP messages (p_basic, p_mtt), SyS-T RAW protocol 0x31 (our
# p_sys-t) and the STRING/GENERIC tunnel (upstream p_sys-t); with and
# without --syst (and as detected), next to a SyS-T string message.
. "$(dirname "$0")/lib.sh"

need_mttdecode
mttstp_stream "$TMP/s.stp"
tap_ok $? "the stream is written"

"$MTTDECODE" --syst "$TMP/s.stp" >"$TMP/syst.txt" 2>&1
tap_ok $? "mttdecode --syst"
tap_is "$(cat "$TMP/syst.txt")" \
'-- sync at offset 0
-- version 3 (natural binary timestamps) at offset 11
     4294967297 m8/c1 MTT META 0x00000003 "sample"
     4294967298 m8/c1 MTT INFO sample signal0 = 4242 ctx 100 cpu 1
           3000 m8/c2 INFO {01020304-0506-0708-090a-0b0c0d0e0f10} STRING:GENERIC hello
     4294967298 m8/c3 MTT INFO sample signal0 = 4242 ctx 100 cpu 1
     4294967298 m8/c3 MTT INFO sample signal0 = 4242 ctx 100 cpu 1' \
	"--syst: frames over STP, in SyS-T RAW:0x31 and tunnelled; SyS-T beside"

"$MTTDECODE" --no-syst "$TMP/s.stp" | grep ' MTT ' >"$TMP/plain.txt"
tap_is "$(cat "$TMP/plain.txt")" \
'     4294967297 m8/c1 MTT META 0x00000003 "sample"
     4294967298 m8/c1 MTT INFO sample signal0 = 4242 ctx 100 cpu 1' \
	"--no-syst: the frames that are whole STP messages"
tap_is "$("$MTTDECODE" "$TMP/s.stp")" "$(cat "$TMP/syst.txt")" \
	"neither: the messages that are no MTT frame are SyS-T: as --syst"

"$MTTDECODE" --syst -f json "$TMP/s.stp" | python3 -c '
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    if o["kind"] == "mtt":
        print(o["via"], o["channel"], o["stp_ts"], o["cmd"], o["component"],
              o["component_name"], o["ctx"], o["ts"], o["level"], o["name"],
              o["value"], o["payload"])' >"$TMP/json.txt"
tap_is "$(cat "$TMP/json.txt")" \
'stp 1 1000 META 3 sample 100 4294967297 None None "sample" 73616d706c65
stp 1 2000 TRACE 3 sample 100 4294967298 INFO signal0 4242 92100000
syst 3 4000 TRACE 3 sample 100 4294967298 INFO signal0 4242 92100000
syst 3 5000 TRACE 3 sample 100 4294967298 INFO signal0 4242 92100000' \
	"JSON lines: how each frame came, its fields"

# --no-mtt: the frames that are whole STP messages stay messages, their
# bytes starting with the sync word (what a byte-level checker reads)
"$MTTDECODE" --no-mtt -f json "$TMP/s.stp" >"$TMP/nomtt.json"
tap_is "$(grep -c '"kind":"mtt"' "$TMP/nomtt.json") $(grep -c '"kind":"msg","master":8,"channel":1,.*"data":"0[0-9a-f]10e0ee' "$TMP/nomtt.json")" \
	"0 2" "--no-mtt: no MTT records, the two frames on channel 1 as messages"
tap_done
