#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# html-view.t - mttdecode --format=html, the viewer page
# (Documentation/mttdecode.rst, "The HTML viewer").
# Stream: tests/host/src/systmix.c "view 40" (SyS-T and MTT written from
# the specifications): 40 SyS-T strings on m1 c0 (4 "needle" ERROR, one
# holding "</script><!--"), 40 MTT values "temp" of component 3 on CPU
# 1, 10 API_ENTRY/API_RETURN pairs "work" on thread 100.
#  (a) static: the page fetches nothing (no src/href, no http(s)://), its
#      JSON block parses (python3) with exact record, track and level
#      counts, "</" in a text cannot end the block; --html-max=30 holds 30
#      records and summarises the other 70 per track, the page says so;
#      1100 channels (systmix "chans") make 1023 tracks and one for the rest;
#      mttdecode's peak RSS does not grow with the records beyond it;
#  (b) headless Chromium (Debian's chromium) runs the page: its #summary
#      says what is drawn (tracks, marks, points, slices, buckets), for
#      the whole trace and after "?test=zoom:..,search:..,level:..,
#      comp:..,key:..,click:.." (exact counts; keys and a button through
#      the page's own handlers); a page of merged-shape records (two
#      targets, one off the reference clock with its fit and accuracy,
#      per-record bounds, complete slices at their end, own times): what
#      is drawn, per target, and the side panel of a record; a
#      screenshot is kept in tests/host/out/.
#      Without chromium those checks skip, or fail with STM_CHECK_VIEW=1
#      (the page and Chromium helpers are lib.sh's page_* and view_*).
# mttdecode is built with ASan + UBSan.
. "$(dirname "$0")/lib.sh"
asan_mttdecode
ART=$TOP/tests/host/out
mkdir -p "$ART" || bail "cannot create $ART"
stream_gen systmix "$TMP/v.stp" view 40

# --- (a) the page as written -------------------------------------------------
"$M" --syst -f html "$TMP/v.stp" >"$ART/html-view.html"
tap_is $? 0 "mttdecode --syst --format=html"
P=$ART/html-view.html
grep -qiE '<(script|link|img|iframe)[^>]* (src|href)=' "$P"
tap_ok $((!$?)) "no src= or href=: the page loads nothing"
tap_is "$(grep -ciE 'https?://' "$P")" 0 "no http(s):// URL in the page"
page_data "$P" | python3 -m json.tool >/dev/null
tap_ok $? "the JSON block parses (json.tool)"
tap_is "$(page_py "$P" 'print(d["records"], d["held"], d["summarised"], len(d["t"]), len(d["sum"]))')" \
	"100 100 0 100 0" "100 records (40 + 40 + 2 x 10), all held, no summary"
tap_is "$(page_py "$P" '
for t in d["tracks"]:
    print(st(d["targets"][t[0]][0]), t[1], st(t[2]), st(t[3]), t[4])')" \
"v.stp m m1 c0  -1
v.stp v comp:0x00000003 temp 1
v.stp s comp:0x00000003 ctx 100  -1" \
	"tracks: messages of m1 c0, the value temp (CPU 1), slices of thread 100"
tap_is "$(page_py "$P" 'print(d["targets"])')" "[[0, 1, 0, 100, -1, None]]" \
	"one target, on the reference clock (no fit, no drift)"
tap_is "$(page_py "$P" '
c = collections.Counter((d["tracks"][k][1], y, st(l)) for k, y, l in zip(d["k"], d["y"], d["l"]))
for k in sorted(c): print(*k, c[k])')" \
"m 0 ERROR 4
m 0 INFO 36
s 2 API_ENTRY 10
s 3 API_RETURN 10
v 1 INFO 40" "kinds and levels: 4 ERROR + 36 INFO marks, 10 slices, 40 values"
tap_is "$(page_py "$P" '
print(" ".join("%d:%g" % (t, v) for t, v, k in zip(d["t"], d["v"], d["k"]) if k == 1 and t < 8000))')" \
	"500:0 1500:1 2500:2 3500:3 4500:4 5500:5 6500:6 7500:7" \
	"values: temp = i % 8 at (i + 1) us + 500 ns (time 0 = the first record)"
tap_is "$(page_py "$P" 'print(d["t0"], [st(x) for x in d["x"]].count("msg 5 </script><!--"))')" \
	"1000 1" "a text with </script><!-- survives in the JSON"
tap_is "$(grep -c '</script>' "$P") $(grep -c '<!--' "$P")" "2 0" \
	"and cannot end the JSON block: '<' is written \\u003c"

"$M" --syst -f html --html-max=30 "$TMP/v.stp" >"$ART/html-view-max.html"
tap_is $? 0 "--html-max=30"
Q=$ART/html-view-max.html
tap_is "$(page_py "$Q" '
print(d["records"], d["held"], d["summarised"], len(d["t"]))
for s in d["sum"]: print(s[0], sum(s[3]))')" \
"100 30 70 30
0 28
1 28
2 14" "the first 30 held in full; the other 70 counted in per-track summaries"
tap_is "$(page_py "$Q" '
for s in d["sum"]:
    if d["tracks"][s[0]][1] == "v":
        print(min(x for x in s[4] if x is not None), max(x for x in s[5] if x is not None))')" \
	"0 7" "the value summary keeps minimum and maximum"
"$M" --syst -f text --html-max=30 "$TMP/v.stp" >/dev/null 2>&1
tap_is $? 2 "--html-max without --format=html: usage error"
"$M" --syst -f html --html-max=5000001 "$TMP/v.stp" >/dev/null 2>"$TMP/err"
tap_is "$?:$(head -n 1 "$TMP/err")" \
	"2:mttdecode: --html-max '5000001': not a number in 0..5000000" \
	"--html-max beyond 5000000 (a page Chromium could not read): usage error"

stream_gen systmix "$TMP/c.stp" chans 1100
"$M" -f html "$TMP/c.stp" >"$TMP/c.html"
tap_is "$(page_py "$TMP/c.html" '
print(d["records"], len(d["tracks"]), st(d["tracks"][1022][2]), st(d["tracks"][1023][2]),
      sum(1 for k in d["k"] if k == 1023))')" "1100 1024 m4 c254 (other tracks) 77" \
	"1100 channels: 1023 tracks, the 1024th takes the other 77 records"

# peak RSS of the plain build: 10x the records beyond --html-max, about
# the same memory (the held records and the summaries are bounded)
need_mttdecode
"$(ctest_cc)" -std=c11 -Wall -Wextra -Werror -O1 -D_DEFAULT_SOURCE -o "$TMP/maxrss" \
	"$TOP/tests/host/src/maxrss.c" >"$TMP/cc.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/cc.log"; bail "cannot build maxrss"; }
stream_gen systmix "$TMP/s1.stp" view 20000
stream_gen systmix "$TMP/s2.stp" view 200000
r1=$("$TMP/maxrss" "$TMP/o1" "$MTTDECODE" --syst -f html --html-max=1000 "$TMP/s1.stp")
r2=$("$TMP/maxrss" "$TMP/o2" "$MTTDECODE" --syst -f html --html-max=1000 "$TMP/s2.stp")
echo "# peak RSS: $r1 KiB for 50000 records, $r2 KiB for 500000 (1000 held)"
[ -n "$r1" ] && [ -n "$r2" ] && [ "$r2" -lt $((r1 + 4096)) ]
tap_ok $? "memory bounded: 10x the records add less than 4 MiB of peak RSS"
tap_is "$(page_py "$TMP/o2" 'print(d["records"], d["held"], d["summarised"])')" \
	"500000 1000 499000" "500000 records: 1000 held, 499000 summarised"

# --- (b) headless Chromium ---------------------------------------------------
view_chromium
if [ -z "$CHROMIUM" ]; then
	for c in "the whole trace drawn" "zoom and search" "pan key" "pan window" \
		"zoom key" "zoom window" "zoom-out button" "reset key" "search ignores case" \
		"level filter" "component filter" "target filter" \
		"summaries drawn" "merged-shape records" "accuracies" \
		"tracks per target" "side panel: target" "side panel: clock" \
		"side panel: time" "side panel: accuracy" "side panel: core" \
		"side panel: name" "side panel: duration" \
		"side panel: own time" "side panel: text" "side panel: escaped text" \
		"screenshot"; do
		view_unavailable "$c"
	done
	tap_done
fi
tap_is "$(view_summary "$P" "")" "tracks 3 marks 40 points 40 slices 10 buckets 0" \
	"the whole trace: 3 tracks, 40 marks, 40 points of the waveform, 10 slices"
grep -q 'data-ready="1"' "$TMP/dom"
tap_ok $? "the page's script ran to its end"
tap_is "$(view_summary "$P" "?test=zoom:10000-20000,search:needle")" \
	"tracks 3 marks 1 points 10 slices 2 buckets 0" \
	"zoom to 10..20 us and search \"needle\": 1 mark, 10 points, 2 slices"
tap_is "$(view_summary "$P" "?test=zoom:10000-20000,search:needle,key:ArrowRight")" \
	"tracks 3 marks 2 points 10 slices 2 buckets 0" \
	"then the right arrow key pans by a tenth: 11..21 us, 2 marks"
grep -q 'data-from="11000" data-to="21000"' "$TMP/dom"
tap_ok $? "the window is 11000..21000 ns"
tap_is "$(view_summary "$P" "?test=zoom:10000-20000,search:needle,key:ArrowRight,key:%2B")" \
	"tracks 3 marks 0 points 6 slices 2 buckets 0" \
	"and + zooms in around the middle: 12667..19333 ns"
grep -q 'data-from="12667" data-to="19333"' "$TMP/dom"
tap_ok $? "the window is 12667..19333 ns"
tap_is "$(view_summary "$P" "?test=zoom:10000-20000,click:zout")" \
	"tracks 3 marks 15 points 16 slices 4 buckets 0" \
	"the zoom-out button: 7.5..22.5 us"
tap_is "$(view_summary "$P" "?test=zoom:10000-20000,click:zout,key:0")" \
	"tracks 3 marks 40 points 40 slices 10 buckets 0" "key 0: the whole trace again"
tap_is "$(view_summary "$P" "?test=search:NEEDLE")" \
	"tracks 3 marks 4 points 40 slices 10 buckets 0" "search ignores case: 4 marks"
tap_is "$(view_summary "$P" "?test=level:ERROR")" \
	"tracks 3 marks 4 points 40 slices 10 buckets 0" "level ERROR: 4 marks"
tap_is "$(view_summary "$P" "?test=comp:comp%3A0x00000003")" \
	"tracks 2 marks 0 points 40 slices 10 buckets 0" \
	"component comp:0x00000003: its value and slice tracks only"
tap_is "$(view_summary "$P" "?test=target:nothing")" \
	"tracks 0 marks 0 points 0 slices 0 buckets 0" "an unknown target: no track"
want=$(page_py "$Q" '
m = sum(1 for k in d["k"] if d["tracks"][k][1] == "m")
p = sum(1 for k in d["k"] if d["tracks"][k][1] == "v")
print("tracks 3 marks %d points %d slices %d buckets %d" % (m, p,
      sum(1 for y in d["y"] if y == 2), sum(sum(1 for c in s[3] if c) for s in d["sum"])))')
tap_is "$(view_summary "$Q" "")" "$want" \
	"--html-max=30: the held records and every summary bucket drawn ($want)"

# a page of merged-shape records (a merged session's, in merged order:
# session-merge.t checks the page mttdecode writes of one): the page of
# v.stp with its JSON block replaced; target mcu on its own clock (own
# time 20 ns behind), its fit ok, +12.5 ppm, accuracy 1.5 us (per
# record 1.4 to 1.5 us), MiniProfiler-like complete slices (time: the
# return) main 100..1000 holding work 200..500 and work 600..700, main
# again 5000..5010, on core 0
cat >"$TMP/merged.json" <<'JSON'
{"version":1,"title":"merged","t0":1000000,"records":6,"held":6,
"summarised":0,"max":1000000,"text_max":256,
"strings":["linux","mcu","console","main","work","hello","INFO","ok","functions"],
"targets":[[0,1,0,2,-1,null],[1,0,1500,4,7,12.5]],
"tracks":[[0,"m",2,-1,0],[1,"s",8,-1,-1]],
"t":[0,500,700,1000,1000,5010],"k":[0,1,1,1,0,1],"y":[0,4,4,4,0,4],
"l":[6,-1,-1,-1,6,-1],"x":[5,4,4,3,5,3],"v":[null,300,100,900,null,10],
"o":[0,-20,-20,-20,0,-25],"b":[0,1400,1420,1450,0,1500],
"s":[2,-1,-1,-1,2,-1],"n":[-1,4,4,3,-1,3],"c":[0,0,0,0,0,0],"sum":[]}
JSON
python3 -c '
import sys
page = open(sys.argv[1], encoding="utf-8").read()
tag = "id=\"data\">"
a = page.index(tag) + len(tag)
b = page.index("</script>", a)
data = open(sys.argv[2]).read()
open(sys.argv[3], "w", encoding="utf-8").write(page[:a] + data + page[b:])' \
	"$P" "$TMP/merged.json" "$ART/html-view-merged.html"
R=$ART/html-view-merged.html
tap_is "$(view_summary "$R" "?test=select:3")" \
	"tracks 2 marks 2 points 0 slices 4 buckets 0" \
	"merged-shape records: 2 tracks, 2 marks, 4 complete slices"
grep -q 'data-bounds="linux: reference clock; mcu: fit ok +12.500 ppm, ± 1.5 us"' "$TMP/dom"
tap_ok $? "each target's fit and accuracy: reference clock; fit ok +12.500 ppm, ± 1.5 us"
grep -q 'data-targets="linux:1 mcu:1"' "$TMP/dom"
tap_ok $? "tracks drawn per target: linux 1, mcu 1"
side=$(sed -n 's/.*<div id="side"[^>]*>\(.*\)/\1/p' "$TMP/dom" | sed 's/<\/div>.*//')
for w in '<td>target</td><td>mcu</td>' \
	'<td>clock</td><td>fit ok +12.500 ppm, ± 1.5 us</td>' \
	'<td>time</td><td>1001000 ns</td>' \
	'<td>accuracy</td><td>± 1.45 us</td>' '<td>core</td><td>0</td>' \
	'<td>name</td><td>main</td>' '<td>duration</td><td>900 ns</td>' \
	"<td>own time</td><td>1000980 ns (the target's clock)</td>" \
	'<td>text</td><td>main</td>'; do
	case $side in *"$w"*) r=0 ;; *) r=1 ;; esac
	tap_ok $r "side panel of the selected slice: $w"
done
view_summary "$P" "?test=select:$(page_py "$P" 'print([st(x) for x in d["x"]].index("msg 5 </script><!--"))')" >/dev/null
grep -q '<td>text</td><td>msg 5 &lt;/script&gt;&lt;!--</td>' "$TMP/dom"
tap_ok $? "the text with </script><!-- shown as it is in the side panel"

view_screenshot "$ART/html-view.png" "$P" "?test=zoom:1000-21000"
[ "$tap_fail" -eq 0 ] || grep -v dbus "$TMP/chrome.log" | tail -n 20 | sed 's/^/# /'

tap_done
