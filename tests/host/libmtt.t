#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# libmtt.t - libmtt on the host (tests/host/src/libmtttest.c, under
# ASan + UBSan, writing frames to a file): encoder golden frame, every
# API call, filters, every type decoded back, threads without
# interleaving; then mttdecode shows such a file (text, JSON, Chrome
# counters) and the libmtt file read back with --input=mtt.
. "$(dirname "$0")/lib.sh"

L=$TOOLS/lib/mtt
# libmtttest uses libmtt's internal headers (internal/frame.h,
# internal/mmio.h): its include path comes first
san_tools
if ! san_cc "$TMP/libmtttest" -I"$L/include" -I"$L/include/mtt" \
    -I"$TOP/include/uapi" "$TOP/tests/host/src/libmtttest.c" \
    "$SAN/libmtt.a" "$SAN/libmttdecode.a" -lexpat -lpthread \
    >"$TMP/cc.log" 2>&1; then
	sed 's/^/# /' "$TMP/cc.log"
	bail "cannot build libmtttest with $(ctest_cc) and ASan/UBSan"
fi
"$TMP/libmtttest" "$TMP/out.mtt" | sed -n '/^1\.\./!p' >"$TMP/c.tap"
cat "$TMP/c.tap"
tap_n=$(grep -c '^\(not \)\{0,1\}ok ' "$TMP/c.tap")
tap_fail=$(grep -c '^not ok ' "$TMP/c.tap")

# mttdecode on a file written by an application
need_mttdecode
cat >"$TMP/app.c" <<'EOC'
#include <mtt.h>
int main(int argc, char **argv)
{
	mtt_init_param_t p = { 0 };
	mtt_comp_handle_t h;
	unsigned int v = 4242;
	short vec[3] = { 1, -2, 3 };

	(void)argc;
	for (int i = 0; argv[1][i] && i < 63; i++)
		p.name[i] = argv[1][i];
	mtt_initialize(&p);
	mtt_open(MTT_COMPONENTID_ANY, "demo", &h);
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, "signal0");
	mtt_trace(h, MTT_LEVEL_DEBUG, MTT_TRACEVECTOR_INT16(3), vec, "vec");
	mtt_trace(h, MTT_LEVEL_USER1, MTT_TRACEITEM_PTR32, &v, NULL);
	mtt_print(h, MTT_LEVEL_API_RETURN, "fake_alsa_init");
	return mtt_close(h);
}
EOC
make -s -C "$TOOLS" B="$TMP/lb" "$TMP/lb/libmtt.a" >"$TMP/lb.log" 2>&1
tap_ok $? "make -C tools: libmtt.a"
cc -std=c11 -Wall -Wextra -Werror -I"$L/include/mtt" -o "$TMP/app" "$TMP/app.c" \
	"$TMP/lb/libmtt.a" -lpthread
tap_ok $? "an application builds against <mtt.h> and libmtt.a"
"$TMP/app" "$TMP/app.mtt"
tap_ok $? "it runs"
"$MTTDECODE" "$TMP/app.mtt" | sed 's/^ *[0-9]* //; s/ ctx [0-9]* cpu [0-9]*$//' \
	>"$TMP/text"
tap_is "$(cat "$TMP/text")" '- MTT META 0x6efd3536 "demo"
- MTT INFO demo signal0 = 4242
- MTT DEBUG demo vec = [1, -2, 3]
- MTT USER1 demo 0x00001092
- MTT API_RETURN demo "fake_alsa_init"' "mttdecode text: names, levels, hints, typed values"
"$MTTDECODE" --input=mtt -f chrome "$TMP/app.mtt" >"$TMP/chrome.json"
tap_ok $? "mttdecode --input=mtt -f chrome"
python3 - "$TMP/chrome.json" <<'EOP' >"$TMP/chrome.txt"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
for e in ev:
    if e["ph"] == "C":
        print(e["name"], json.dumps(e["args"], sort_keys=True))
EOP
tap_is "$(cat "$TMP/chrome.txt")" 'demo signal0 {"value": 4242}
demo vec {"0": 1, "1": -2, "2": 3}' "Chrome: each named value is a counter track"
"$MTTDECODE" -f json "$TMP/app.mtt" | python3 -c '
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    print(o["cmd"], o["component_name"], o["level"], o["name"], o["value"])' \
	>"$TMP/json.txt"
tap_is "$(cat "$TMP/json.txt")" 'META demo None None "demo"
TRACE demo INFO signal0 4242
TRACE demo DEBUG vec [1, -2, 3]
TRACE demo USER1 None 0x00001092
TRACE demo API_RETURN None "fake_alsa_init"' "mttdecode JSON lines"
# damage: bytes in front and a cut frame at the end
{ printf 'junk'; cat "$TMP/app.mtt"; head -c 30 "$TMP/app.mtt"; } >"$TMP/bad.mtt"
"$MTTDECODE" --input=mtt "$TMP/bad.mtt" | sed 's/^ *[0-9]* //; s/ ctx [0-9]* cpu [0-9]*$//' \
	>"$TMP/bad.txt"
tap_is "$(grep -c '^- MTT ' "$TMP/bad.txt") $(grep '^!!' "$TMP/bad.txt" | tr '\n' '|')" \
	"5 !! loss: MTT framing lost at offset 0, 4 bytes skipped|!! loss: MTT framing lost at offset $(($(wc -c <"$TMP/app.mtt") + 4)), 30 bytes skipped|" \
	"a damaged file: every frame, and both damaged runs reported"
tap_done
