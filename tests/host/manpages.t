#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manpages.t - the man(3) pages of libmttdecode (tools/lib/mttdecode/man/man3): every
# public function (declared in tools/lib/mttdecode/include/mttdecode/*.h or exported by
# build/libmttdecode.so, internal mttd__* symbols aside) has a page, whose
# NAME and SYNOPSIS name it; every page is a complete page (NAME, SYNOPSIS,
# DESCRIPTION, RETURN VALUE, EXAMPLE, SEE ALSO) or a ".so" link to one;
# every page formats without a warning under groff -ww and man --warnings;
# every reference to a (3) page resolves; no page is left for a function
# that no longer exists.
. "$(dirname "$0")/lib.sh"

MAN=$TOOLS/lib/mttdecode/man
cd "$MAN" || bail "no $MAN"

# The public functions: the headers' prototypes, and the shared library's
# exported functions (so one missing from the headers is caught too)
flock "$TOOLS/build/.make.lock" make -s -C "$TOOLS" all >"$TMP/make.log" 2>&1
tap_ok $? "make -C tools"
sed 's/^/# /' "$TMP/make.log" | head -20
grep -ohE '\bmttd_[a-z0-9_]+\(' "$TOOLS"/lib/mttdecode/include/mttdecode/*.h |
	sed 's/($//' | sort -u >"$TMP/hdr"
nm -D --defined-only "$TOOLS/build/libmttdecode.so" |
	awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u >"$TMP/so"
grep -v '^mttd_' "$TMP/so" | grep -v '^mttd__' >"$TMP/so-other"
grep '^mttd__' "$TMP/so" >"$TMP/so-internal"
tap_is "$(cat "$TMP/so-internal" "$TMP/so-other" | tr '\n' ' ')" "" \
	"the library exports no internal (mttd__) or foreign function"
grep '^mttd_' "$TMP/so" | grep -v '^mttd__' >"$TMP/so-api"
mv "$TMP/so-api" "$TMP/so"
[ "$(wc -l <"$TMP/hdr")" -ge 50 ]
tap_ok $? "public functions in the headers ($(wc -l <"$TMP/hdr"))"
tap_is "$(comm -3 "$TMP/hdr" "$TMP/so" | tr -d '\t' | tr '\n' ' ')" "" \
	"the library exports exactly the headers' functions"
sort -u "$TMP/hdr" "$TMP/so" >"$TMP/funcs"

# page_of NAME: the file that documents NAME, following one ".so" link;
# empty if there is none
page_of() {
	[ -f "man3/$1.3" ] || return 0
	so=$(sed -n 's/^\.so //p' "man3/$1.3")
	if [ -n "$so" ]; then
		[ -f "$so" ] && echo "$so"
	else
		echo "man3/$1.3"
	fi
}

# documented NAME: its page exists and names it in NAME and SYNOPSIS
documented() {
	p=$(page_of "$1")
	[ -n "$p" ] || { echo "$1: no page"; return 1; }
	awk '/^\.SH NAME/ { on = 1; next } /^\.SH / { on = 0 } on' "$p" |
		tr ',' '\n' | sed 's/\\-.*//; s/^[[:space:]]*//; s/[[:space:]]*$//' |
		grep -qx "$1" || { echo "$1: not in NAME of $p"; return 1; }
	awk '/^\.SH SYNOPSIS/ { on = 1; next } /^\.SH / { on = 0 } on' "$p" |
		grep -q "$1(" || { echo "$1: no prototype in SYNOPSIS of $p"; return 1; }
}

# Self-test: the check refuses a function without a page, and a page
# that does not name its function
documented mttd_no_such_function >/dev/null
tap_ok $((!$?)) "self-test: a function without a page is caught"
mkdir -p "$TMP/m/man3"
printf '.TH X 3\n.SH NAME\nmttd_a \\- a\n.SH SYNOPSIS\nmttd_a(void);\n' \
	>"$TMP/m/man3/mttd_b.3"
(cd "$TMP/m" && documented mttd_b >/dev/null)
tap_ok $((!$?)) "self-test: a page that does not name its function is caught"

bad=$(while read -r f; do documented "$f"; done <"$TMP/funcs")
tap_is "$bad" "" "every public function has a page naming it ($(wc -l <"$TMP/funcs"))"

# No stale pages: each page is the overview or a public function
stale=$(ls man3 | sed 's/\.3$//' | grep -vx libmttdecode | grep -vxF -f "$TMP/funcs")
tap_is "$stale" "" "no page for a function that does not exist"

# Every page: a link to a full page, or a full page with every section
incomplete=
for p in man3/*.3; do
	if grep -q '^\.so ' "$p"; then
		[ "$(grep -vc '^\.\\"' "$p")" -eq 1 ] &&
			[ -f "$(sed -n 's/^\.so //p' "$p")" ] ||
			incomplete="$incomplete $p(bad .so link)"
		continue
	fi
	for sec in NAME SYNOPSIS DESCRIPTION 'RETURN VALUE' EXAMPLE 'SEE ALSO'; do
		[ "$p" = man3/libmttdecode.3 ] && [ "$sec" = 'RETURN VALUE' ] &&
			continue
		grep -q "^\.SH \"*$sec\"*\$" "$p" ||
			incomplete="$incomplete $p($sec)"
	done
	grep -q '^\.TH [A-Z0-9_]* 3 ' "$p" || incomplete="$incomplete $p(.TH)"
	grep -q '^\.B #include <mttdecode/' "$p" ||
		incomplete="$incomplete $p(#include)"
done
tap_is "$incomplete" "" "every page is complete or a .so link to one"

# Formatting: no warning from groff -ww nor from man --warnings
man_format_ok .

# Cross references to (3) pages resolve
dangling=$(cat man3/*.3 | sed -n 's/^\.BR \([a-z0-9_]*\) (3).*/\1/p' |
	sort -u | while read -r r; do
		[ -f "man3/$r.3" ] || echo "$r"
	done)
tap_is "$dangling" "" "every (3) reference has a page"

tap_done
