#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# syst-sniff.t - with --input=auto and neither --syst nor --no-syst, STP
# whose first messages are all valid SyS-T decodes as SyS-T (as --syst);
# anything else as bytes (as --no-syst).  Streams from
# tests/host/src/systmix.c, SyS-T and MTT written from the
# specifications.  mttdecode is built with ASan + UBSan.
. "$(dirname "$0")/lib.sh"
asan_mttdecode
for k in demo basic short crc badcrc badlen mixed; do
	stream_gen systmix "$TMP/$k.stp" $k
done

# same KIND WANT NAME: mttdecode without either option decodes KIND's
# stream as with WANT (--syst or --no-syst), in text and JSON
same() {
	a=$("$M" "$TMP/$1.stp"; "$M" -f json "$TMP/$1.stp")
	b=$("$M" "$2" "$TMP/$1.stp"; "$M" -f json "$2" "$TMP/$1.stp")
	tap_is "$a" "$b" "$3"
}
same demo --syst "make demo's p_sys-t shape (GUIDs, origin, MTT RAW:0x31): SyS-T"
tap_is "$("$M" "$TMP/demo.stp" | grep -c 'STRING:GENERIC')" 3 \
	"... its three strings decoded"
same crc --syst "strings with good CRC-32Cs: SyS-T"
same badcrc --no-syst "one CRC-32C wrong among them: bytes"
same badlen --no-syst "a length field that is not the payload's: bytes"
same basic --no-syst "p_basic text: bytes"
same short --no-syst "only 4-byte messages (any word is a SHORT32): bytes"
same mixed --no-syst "SyS-T, then a p_basic text write: bytes"
tap_is "$("$M" --syst "$TMP/basic.stp" | grep -c 'TOO_SHORT\|UNKNOWN_TYPE')" 2 \
	"(--syst still forces it: the text writes fail as SyS-T)"

# from a pipe, and each input on its own
tap_is "$(cat "$TMP/demo.stp" | "$M")" "$("$M" --syst "$TMP/demo.stp")" \
	"standard input: detected too"
tap_is "$("$M" "$TMP/demo.stp" "$TMP/basic.stp" "$TMP/crc.stp")" \
	"$("$M" --syst "$TMP/demo.stp"; "$M" --no-syst "$TMP/basic.stp"; "$M" --syst "$TMP/crc.stp")" \
	"several inputs: each decided on its own"
# --input=stp says what the input is, not what it carries: no guessing
tap_is "$("$M" --input=stp "$TMP/demo.stp")" "$("$M" --no-syst "$TMP/demo.stp")" \
	"--input=stp: bytes unless --syst"
# --no-mtt: MTT's RAW:0x31 messages are SyS-T all the same (only frames
# that are whole STP messages stop being left out)
tap_is "$("$M" --no-mtt "$TMP/demo.stp" | grep -c ' m6/c0 INFO .* RAW:49 ')" 2 \
	"--no-mtt: MTT's RAW messages are SyS-T RAW:49, the stream SyS-T"

"$M" --no-syst --syst "$TMP/demo.stp" >/dev/null 2>&1
tap_is $? 2 "--no-syst with --syst: usage error"
"$M" --no-syst -f csv "$TMP/demo.stp" >/dev/null 2>&1
tap_is $? 2 "--no-syst with --format=csv (SyS-T only): usage error"
tap_done
