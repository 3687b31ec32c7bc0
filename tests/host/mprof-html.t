#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mprof-html.t - the MiniProfiler HTML page in headless Chromium (Debian's
# chromium, scripts/install-deps.sh): mttdecode renders a known capture
# (data/mprof-tree.bin: main 0..100 us calls a 10..30, which calls b
# 12..20, and a 40..60) to one self-contained page; Chromium runs its
# script and the rendered DOM must hold the flame graph's frames (names,
# totals, calls, widths in proportion), one timeline bar per call and the
# statistics table, sorted as asked by "#sort=".  The page and a
# screenshot are kept in tests/build/mprof-html/ as artifacts.
. "$(dirname "$0")/lib.sh"

need_mttdecode
ART=$TOP/tests/build/mprof-html
mkdir -p "$ART" || bail "cannot create $ART"
CHROMIUM=$(command -v chromium || command -v chromium-browser)
[ -n "$CHROMIUM" ] || bail "chromium not installed (scripts/install-deps.sh installs it)"

"$MTTDECODE" --format=html "$TOP/tests/host/data/mprof-tree.bin" >"$ART/profile.html"
tap_is "$?" 0 "mttdecode --format=html"
grep -qiE '<(script|link|img)[^>]* (src|href)=' "$ART/profile.html"
tap_ok $((!$?)) "the page loads nothing from elsewhere"

# dom URL-FRAGMENT: the DOM after the page's script ran
dom() {
	timeout -k 10 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chrome" --dump-dom \
		"file://$ART/profile.html$1" 2>>"$TMP/chrome.log"
}
dom "" >"$TMP/dom"
tap_ok $? "chromium --dump-dom"
grep -q 'data-ready="1"' "$TMP/dom"
tap_ok $? "the page's script ran to its end"

frames=$(grep -o '<div class="fr"[^>]*>' "$TMP/dom" |
	sed 's/.*data-name="\([^"]*\)" data-total="\([0-9]*\)" data-calls="\([0-9]*\)".*/\1 \2 \3/')
tap_is "$frames" "all 100 1
0x00000100 100 1
0x00000200 40 2
0x00000300 8 1" "flame graph: all, main, main;a (2 calls, 40 us), main;a;b (8 us)"
width() {
	grep -o "<div class=\"fr\" data-name=\"$1\"[^>]*>" "$TMP/dom" |
		sed 's/.*width: \([0-9.]*\)px.*/\1/'
}
awk -v m="$(width 0x00000100)" -v a="$(width 0x00000200)" -v b="$(width 0x00000300)" \
	'BEGIN { exit !(m > 0 && a / m > 0.39 && a / m < 0.41 && b / m > 0.07 && b / m < 0.09) }'
tap_ok $? "frame widths in proportion to total time (40%, 8%)"
tap_is "$(grep -o '<div class="ev"' "$TMP/dom" | wc -l)" 4 "timeline: one bar per call"
rows() { grep -o '<tr data-name="[^"]*" data-calls="[0-9]*">' | sed 's/.*name="\([^"]*\)" data-calls="\([0-9]*\)".*/\1=\2/' | tr '\n' ' '; }
tap_is "$(rows <"$TMP/dom")" "0x00000100=1 0x00000200=2 0x00000300=1 " \
	"table: sorted by total time"
tap_is "$(dom "#sort=calls" | rows)" "0x00000200=2 0x00000100=1 0x00000300=1 " \
	"table: #sort=calls sorts by calls"
grep -o '<tr data-name="0x00000200"[^>]*>.*' "$TMP/dom" | grep -q '<td>2</td><td>40</td><td>32</td><td>20</td><td>20</td><td>20.0</td><td>0x00000200</td>'
tap_ok $? "table row of a: 2 calls, 40 total, 32 self, 20 min/max/avg"

rm -f "$ART/profile.png"
(cd "$TMP" && timeout -k 10 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$TMP/chrome" --hide-scrollbars --window-size=1200,900 \
	--screenshot="$ART/profile.png" "file://$ART/profile.html" \
	>>"$TMP/chrome.log" 2>&1)
[ "$(od -An -tx1 -N4 "$ART/profile.png" 2>/dev/null | tr -d ' ')" = 89504e47 ]
tap_ok $? "screenshot kept: tests/build/mprof-html/profile.png"
[ "$tap_fail" -eq 0 ] || grep -v dbus "$TMP/chrome.log" | tail -n 20 | sed 's/^/# /'

tap_done
