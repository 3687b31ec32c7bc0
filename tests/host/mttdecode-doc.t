#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mttdecode-doc.t - mttdecode's documentation is complete: every long
# option of "mttdecode --help" (MiniProfiler's --elf too) is in
# the man page (tools/mttdecode/mttdecode.1) and in
# Documentation/mttdecode.rst, and so is every option the code takes
# (the struct option tables, so --help cannot leave one out either);
# every input kind the code accepts is documented as --input=KIND in
# mttdecode.rst and named in the man page's --input entry; every output
# format (of STP/SyS-T/MTT decoding and of MiniProfiler captures) is in
# a --format=a|b|... list of mttdecode.rst and in the man page's
# --format entry.
. "$(dirname "$0")/lib.sh"
need_mttdecode

RST=$TOP/Documentation/mttdecode.rst
MAN1=$TOOLS/mttdecode/mttdecode.1
OPTC=$TOOLS/mttdecode/options.c

# troff's escapes removed: \- is -, fonts and quotes go
sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\(dq/"/g' "$MAN1" >"$TMP/man"
# man_entry OPT: the man page's .TP entry of --OPT (up to the next .TP)
man_entry() {
	awk -v o="--$1" '
		/^\.TP/ { on = 0; head = 1; next }
		head { head = 0; if (index($0, o) && $0 !~ /^[^.]/) on = 1 }
		on' "$TMP/man"
}

# --- options --------------------------------------------------------------
"$MTTDECODE" --help >"$TMP/help" 2>&1
grep -E '^ +(-[a-zA-Z], )?--[a-z]' "$TMP/help" |
	sed -E 's/^ +(-[a-zA-Z], )?--([a-z0-9-]+).*/\2/' | sort -u >"$TMP/help-opts"
# the code's struct option table: { "name", ...
sed -n '/struct option /,/^[[:space:]]*};/p' "$OPTC" |
	sed -n 's/^[[:space:]]*{ "\([a-z0-9-]*\)",.*/\1/p' | sort -u >"$TMP/code-opts"
[ "$(wc -l <"$TMP/help-opts")" -ge 25 ]
tap_ok $? "options in --help ($(wc -l <"$TMP/help-opts"))"
tap_is "$(comm -23 "$TMP/code-opts" "$TMP/help-opts" | tr '\n' ' ')" "" \
	"every option the code takes is in --help"

missing() { # missing FILE: the options of $TMP/help-opts not in FILE as --OPT
	while read -r o; do
		grep -qE -- "--$o([^a-z0-9-]|\$)" "$1" || printf '%s ' "--$o"
	done <"$TMP/help-opts"
}
tap_is "$(missing "$TMP/man")" "" "every option of --help is in mttdecode.1"
tap_is "$(missing "$RST")" "" "every option of --help is in Documentation/mttdecode.rst"

# --- input kinds ------------------------------------------------------------
# options.c's inputs[] table
sed -n '/inputs\[\] = {/,/};/p' "$OPTC" | grep -o '"[a-z0-9-]*"' | tr -d '"' |
	sort -u >"$TMP/kinds"
[ "$(wc -l <"$TMP/kinds")" -ge 9 ]
tap_ok $? "input kinds in the code: $(tr '\n' ' ' <"$TMP/kinds")"
for k in $(cat "$TMP/kinds"); do
	"$MTTDECODE" --input="$k" </dev/null >/dev/null 2>"$TMP/err"
	grep -q -- "^mttdecode: --input '$k': " "$TMP/err" && echo "$k"
done >"$TMP/refused"
tap_is "$(tr '\n' ' ' <"$TMP/refused")" "" "mttdecode accepts each of them"
man_entry input >"$TMP/man-input"
tap_is "$(for k in $(cat "$TMP/kinds"); do
	grep -qE "(^|[^a-z-])$k([^a-z-]|\$)" "$TMP/man-input" || printf '%s ' "$k"
done)" "" "the man page's --input entry names every kind"
tap_is "$(for k in $(cat "$TMP/kinds"); do
	grep -q -- "--input=$k\`\`" "$RST" || printf '%s ' "$k"
done)" "" "mttdecode.rst documents every kind as \`\`--input=KIND\`\`"

# --- output formats ------------------------------------------------------------
sed -n '/formats\[\] = {/,/};/p' "$OPTC" | grep -o '"[a-z]*"' | tr -d '"' |
	sort -u >"$TMP/formats"
[ "$(wc -l <"$TMP/formats")" -ge 6 ]
tap_ok $? "output formats in the code: $(tr '\n' ' ' <"$TMP/formats")"
grep -o -- '--format=[a-z|]*' "$RST" | sed 's/^--format=//' | tr '|' '\n' |
	sort -u >"$TMP/rst-formats"
tap_is "$(comm -23 "$TMP/formats" "$TMP/rst-formats" | tr '\n' ' ')" "" \
	"mttdecode.rst lists every format in a --format=a|b|... list"
man_entry format >"$TMP/man-format"
tap_is "$(for f in $(cat "$TMP/formats"); do
	grep -qE "^\\.BR? $f( |\$)" "$TMP/man-format" || printf '%s ' "$f"
done)" "" "the man page's --format entry names every format"

# --- self-test: the checks see a missing option --------------------------------
echo "no-such-option-x" >"$TMP/help-opts"
tap_is "$(missing "$RST")" "--no-such-option-x " "self-test: an option missing from a document is caught"
tap_done
