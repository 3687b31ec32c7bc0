#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# coll-load.t - loading collateral XML: element text delivered in very
# many pieces (a million lines in one format; an entity expanded 60000
# times) loads and renders exactly, with mttdecode built with ASan +
# UBSan (the text buffer grows geometrically: this used to take minutes
# and gigabytes).  The 600 s timeout only guards against a hang; nothing
# here measures time.  Also: --collateral with an empty name or a
# directory is a clear error.
. "$(dirname "$0")/lib.sh"
asan_mttdecode

# CATALOG/ID32_P32 INFO 0x01000043, id 0x10, argument 3
echo "SYS-T RAW DATA: 43000001 10000000 03000000" >"$TMP/cat.txt"

# status, text length, whether the text is the start of file $1 (the
# rendered text of one message stops at 256 KiB)
text_of() {
	python3 -c '
import json, sys
want = open(sys.argv[1]).read()
for o in map(json.loads, sys.stdin):
    if o["kind"] == "syst":
        sys.stdout.write("%s %d %s\n" % (o["status"], len(o["text"]),
                                          want.startswith(o["text"])))' "$1"
}

# four formats of "x", a million newlines, "%d" (about 4 MB; before the
# fix each took about 300 s under ASan: together past the hang guard)
python3 - "$TMP/lines.xml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('<Collateral><Client Name="c"><Guids><Guid ID="{00000000-0000-0000-0000-000000000000}" Mask="{00000000-0000-0000-0000-000000000000}"/></Guids><Catalog32>')
    for i in range(0x10, 0x14):
        f.write('<Format ID="%d"><![CDATA[x' % i + "\n" * 1000000 +
                '%d]]></Format>')
    f.write('</Catalog32></Client></Collateral>\n')
PY
python3 -c 'import sys; sys.stdout.write("x" + "\n" * 1000000 + "3")' >"$TMP/want"
timeout -k 10 600 "$M" -f json --collateral "$TMP/lines.xml" "$TMP/cat.txt" \
	>"$TMP/lines.json"
tap_is "$?:$(text_of "$TMP/want" <"$TMP/lines.json")" "0:OK 262144 True" \
	"a million newlines in each of 4 CDATA formats: loads, renders (the first 256 KiB)"

# an entity expanded 15 * 4096 times (983040 bytes of text)
{
	echo '<?xml version="1.0"?>'
	echo '<!DOCTYPE Collateral ['
	echo '<!ENTITY a "aaaaaaaaaaaaaaaa">'
	echo '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
	echo '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">'
	echo '<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">'
	echo ']>'
	echo '<Collateral><Client Name="c"><Guids><Guid ID="{00000000-0000-0000-0000-000000000000}" Mask="{00000000-0000-0000-0000-000000000000}"/></Guids><Catalog32><Format ID="0x10">'
	echo '&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;%d</Format>'
	echo '</Catalog32></Client></Collateral>'
} >"$TMP/entities.xml"
python3 -c 'import sys; sys.stdout.write("a" * 983040 + "3")' >"$TMP/want"
timeout -k 10 600 "$M" -f json --collateral "$TMP/entities.xml" "$TMP/cat.txt" \
	>"$TMP/entities.json"
tap_is "$?:$(text_of "$TMP/want" <"$TMP/entities.json")" "0:OK 262144 True" \
	"an entity expanded 61440 times: loads, renders (the first 256 KiB)"

# past the 1 MiB limit of one element's text: an error, not a hang
python3 - "$TMP/big.xml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('<Collateral><Client><Catalog32><Format ID="1">' + "\n" * 1100000
            + 'x</Format></Catalog32></Client></Collateral>\n')
PY
tap_is "$(timeout -k 10 600 "$M" --collateral "$TMP/big.xml" "$TMP/cat.txt" 2>&1; echo "rc=$?")" \
"mttdecode: $TMP/big.xml:1048577: element text longer than 1048576 bytes
rc=1" "text over 1 MiB: error naming file and line"

# ---- bad --collateral arguments ----
tap_is "$("$M" --collateral= "$TMP/cat.txt" 2>&1; echo "rc=$?")" \
"mttdecode: --collateral '': empty file name
Try 'mttdecode --help' for more information.
rc=2" "--collateral= (empty): usage error"
tap_is "$("$M" --collateral "$TMP" "$TMP/cat.txt" 2>&1; echo "rc=$?")" \
"mttdecode: $TMP: is a directory, not a collateral XML file
rc=1" "--collateral DIR: clear error"
tap_is "$("$M" --collateral "$TMP/nonexistent.xml" "$TMP/cat.txt" 2>&1; echo "rc=$?")" \
"mttdecode: $TMP/nonexistent.xml: No such file or directory
rc=1" "--collateral missing file: error"

tap_done
