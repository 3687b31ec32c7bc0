#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# session-merge.t - "mttdecode SESSION" merges the Linux stream and every
# serial target into one reference-time-ordered output
# (Documentation/mttdecode.rst, "Merged sessions").  The session is
# written by hand (mergegen.c, from the specifications): a Linux STP
# stream, an MTT frame target (TS64, +500 ppm, offset -3 s, TIME_SYNC
# replies and their requests) and a MiniProfiler target (-200 ppm) (and
# in one session a riscv-encap target with MTT frames and TIME_SYNC
# replies on a srcID), with
# read times chosen so that the true order is known.  Checked: the exact
# merged order, every planted device-then-Linux pair in order, each
# format's columns, the stats lines, a CONFLICT, and the records held at
# once under the ceiling whatever the session's size.  ASan + UBSan,
# except the large session (a fixed amount of work, no timing).
. "$(dirname "$0")/lib.sh"
asan_mttdecode
need_mttdecode
cc=$(ctest_cc)
$cc -std=c11 -Wall -Wextra -Werror -O1 -D_DEFAULT_SOURCE \
	-I"$TOOLS/lib/mttdecode/include" -I"$TOP/tests/host/enc" \
	-I"$TOP/tests/host/src" -I"$TOP/include/uapi" -o "$TMP/mergegen" \
	"$TOP/tests/host/src/mergegen.c" "$TOP/tests/host/enc/stpenc.c" \
	"$TOP/tests/host/enc/rvenc.c" -lm \
	>"$TMP/cc.log" 2>&1 || { sed 's/^/# /' "$TMP/cc.log"; bail "mergegen"; }

# has FILE ERE NAME: a line of FILE matches ERE
has() {
	grep -Eq -- "$2" "$1"
	tap_ok $? "$3"
}

N=400
"$TMP/mergegen" "$TMP/s" $N ok || bail "mergegen ok"

# text: REF TARGET DEV +-BOUND KIND CORE COMP LEVEL SOURCE TEXT
"$M" --stats "$TMP/s" >"$TMP/t.out" 2>"$TMP/t.err"
tap_ok $? "mttdecode SESSION exits 0"
grep -v '^#' "$TMP/t.out" | awk '{ print $2, $10 }' >"$TMP/order"
cmp -s "$TMP/order" "$TMP/s/expect"
tap_ok $? "merged order is the true one ($(wc -l <"$TMP/s/expect") records)"
[ -s "$TMP/order" ] && diff "$TMP/s/expect" "$TMP/order" | head -5 | sed 's/^/# /'

# every ack<i> (Linux traced the mcu frame i after reading it) comes
# after frame i
awk '$2 == "mcu" { seen[$10] = 1 }
     $2 == "linux" && $10 ~ /^ack/ { n++; i = substr($10, 4);
	if (!(i in seen)) bad++ }
     END { print n + 0, bad + 0 }' "$TMP/t.out" >"$TMP/ack"
tap_is "$(cat "$TMP/ack")" "$((N / 8)) 0" "every planted mcu->linux pair in order"

# the columns of one record of each target
l=$(grep -m1 ' linux [0-9.]* +-0 msg - - - m1/c2 L0$' "$TMP/t.out")
tap_ok $? "linux line: $l"
l=$(grep -m1 -E '^[0-9]+\.[0-9]{9} mcu [0-9]+\.[0-9]{9} \+-[0-9]+ value 64 - INFO - 0$' "$TMP/t.out")
tap_ok $? "mcu line: $l"
l=$(grep -m1 -E '^[0-9]+\.[0-9]{9} prof [0-9]+\.[0-9]{9} \+-inf slice 0 - - - 0x08000100 dur=1000000$' "$TMP/t.out")
tap_ok $? "prof line: $l"

# the stats: at the end of the text output and on stderr with --stats
grep '^# merge: ' "$TMP/t.out" | sed 's/^# //' >"$TMP/tail"
cmp -s "$TMP/tail" "$TMP/t.err"
tap_ok $? "--stats says what the text output ends with"
X=$((N / 16))
has "$TMP/t.err" "^merge: mcu: fit ok drift \+(4[5-9][0-9]|5[0-4][0-9])\.[0-9]{3} ppm \[.*\] offset -?[0-9]+ ns bound first [0-9]+ last [0-9]+ max [0-9]+ ns; bounds up $((N + X)) down $X exchanges $X; records $N late 0$" \
	"mcu: fit ok, drift near +500 ppm, bounds up $((N + X)) down $X"
has "$TMP/t.err" "^merge: prof: fit one-sided drift -(1[5-9][0-9]|2[0-4][0-9])\.[0-9]{3} ppm .* bound first inf last inf max inf ns; bounds up $N down 0 exchanges 0; records $N late 0$" \
	"prof: one-sided, drift near -200 ppm, bounds up $N"
has "$TMP/t.err" "^merge: linux: the reference; records $((N + N / 8)) late 0 \(reorder window 1024\)$" \
	"linux: the reference, records $((N + N / 8)), none late"
sed 's/^/# /' "$TMP/t.err"

# JSON: the keys in order, the same records
"$M" --format=json "$TMP/s" >"$TMP/j.out"
tap_ok $? "--format=json exits 0"
# the short option and the separate argument merge as well
for f in "-f json" "-fjson" "--format json"; do
	# shellcheck disable=SC2086 # $f: the option's words
	"$M" $f "$TMP/s" >"$TMP/j2.out"
	cmp -s "$TMP/j.out" "$TMP/j2.out"
	tap_ok $? "mttdecode $f SESSION: the same merged JSON"
done
# any other option: the session stands for its stream alone
"$M" --format=json --packets "$TMP/s" >"$TMP/j3.out"
tap_is "$?:$(grep -c '"target"' "$TMP/j3.out"):$(grep -c '"kind":"packet"' "$TMP/j3.out" | sed 's/^0$/none/; s/^[1-9][0-9]*$/some/')" \
	"0:0:some" "--packets: not merged (the stream's packets alone, no target)"
python3 - "$TMP/j.out" "$TMP/order" <<'PY'
import json, sys
keys = ["ref_ns", "target", "tindex", "dev_ns", "bound_ns", "kind", "dur_ns",
        "core", "comp", "level", "source", "name", "text", "value"]
rows = [json.loads(l) for l in open(sys.argv[1])]
ok = all(list(r) == keys for r in rows)
ok = ok and all(a["ref_ns"] <= b["ref_ns"] for a, b in zip(rows, rows[1:]))
order = [l.split()[0] for l in open(sys.argv[2])]
ok = ok and [r["target"] for r in rows] == order
m = next(r for r in rows if r["target"] == "mcu")
ok = ok and m["value"] == 0 and m["level"] == "INFO" and m["bound_ns"] is not None
p = next(r for r in rows if r["target"] == "prof")
ok = ok and p["dur_ns"] == 1000000 and p["bound_ns"] is None
sys.exit(0 if ok else 1)
PY
tap_ok $? "JSON: keys in order, times nondecreasing, the same order"

# CSV: the header, one row per record, 14 columns
"$M" --format=csv "$TMP/s" >"$TMP/c.out"
tap_ok $? "--format=csv exits 0"
tap_is "$(head -1 "$TMP/c.out")" \
	"ref_ns,target,tindex,dev_ns,bound_ns,kind,dur_ns,core,comp,level,source,name,text,value" \
	"CSV header"
tap_is "$(tail -n +2 "$TMP/c.out" | awk -F, '{ print NF }' | sort -u)" 14 \
	"CSV: 14 cells a row"
tap_is "$(tail -n +2 "$TMP/c.out" | cut -d, -f2 | tr '\n' ' ')" \
	"$(cut -d' ' -f1 "$TMP/s/expect" | tr '\n' ' ')" "CSV: the same order"

# Chrome: a process per target, slices, counters
"$M" --format=chrome "$TMP/s" >"$TMP/h.out"
tap_ok $? "--format=chrome exits 0"
python3 - "$TMP/h.out" $N <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
ev = d["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in ev
         if e["ph"] == "M" and e["name"] == "process_name"}
ok = procs == {1: "linux", 2: "mcu", 3: "prof"}
ok = ok and sum(1 for e in ev if e["ph"] == "X" and e["pid"] == 3) == n
ok = ok and sum(1 for e in ev if e["ph"] == "C" and e["pid"] == 2) == n
ok = ok and all(e["dur"] > 990 for e in ev if e["ph"] == "X")
sys.exit(0 if ok else 1)
PY
tap_ok $? "Chrome: processes linux, mcu, prof; $N slices, $N counter values"

# html: one page of the merged session; its records are the CSV's rows,
# in the same order, field for field
"$M" --stats --format=html "$TMP/s" >"$TMP/p.html" 2>"$TMP/p.err"
tap_ok $? "--format=html exits 0"
cmp -s "$TMP/p.err" "$TMP/t.err"
tap_ok $? "--format=html --stats: the merge summary on stderr"
rows=$(($(wc -l <"$TMP/c.out") - 1))
tap_is "$(page_py "$TMP/p.html" 'print(d["title"], d["records"], d["held"], len(d["t"]))')" \
	"$TMP/s $rows $rows $rows" "the page holds the $rows records the CSV has rows for"
page_data "$TMP/p.html" >"$TMP/p.json"
python3 - "$TMP/p.json" "$TMP/c.out" >"$TMP/p.cmp" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
S = d["strings"]
st = lambda i: S[i] if i >= 0 else ""
kinds = ["msg", "value", "begin", "end", "slice", "loss"]
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
bad = 0
for i, r in enumerate(rows):
    tr = d["tracks"][d["k"][i]]
    ref = d["t0"] + d["t"][i]
    kind = kinds[d["y"][i]]
    v, b, core = d["v"][i], d["b"][i], d["c"][i]
    page = {
        "ref_ns": str(ref), "target": st(d["targets"][tr[0]][0]),
        "tindex": str(tr[0]), "dev_ns": str(ref + d["o"][i]),
        "bound_ns": "inf" if b is None else "%.0f" % b, "kind": kind,
        "dur_ns": "%d" % v if kind == "slice" else "",
        "core": str(core) if core >= 0 else "",
        # a record without a component is on its source's track, a
        # slice without either on "functions"
        "comp": st(tr[2]), "level": st(d["l"][i]), "source": st(d["s"][i]),
        "name": st(d["n"][i]), "text": st(d["x"][i]),
        "value": "%.17g" % v if kind == "value" else "",
    }
    want = {k: r[k] for k in page}
    want["comp"] = r["comp"] or r["source"] or \
        ("functions" if kind == "slice" else "-")
    if page != want:
        bad += 1
        if bad <= 3:
            print("# row %d: csv %s page %s" % (i, want, page))
print("rows %d differ %d" % (len(rows), bad))
PY
tap_is "$(tail -n 1 "$TMP/p.cmp")" "rows $rows differ 0" \
	"every page record is the CSV row of its place: times, bound, kind, core, component, level, source, name, text, value, duration"
grep '^#' "$TMP/p.cmp"
fit() {
	sed -n "s/^merge: $1: fit \([^ ]*\) drift \([^ ]*\) ppm .* max \([^ ]*\) ns;.*/\1 \2 \3/p" "$TMP/t.err"
}
tap_is "$(page_py "$TMP/p.html" '
for g in d["targets"]:
    print(st(g[0]), g[1], st(g[4]) or "-",
          "-" if g[5] is None else "%+.3f" % g[5],
          "inf" if g[2] is None else "%.0f" % g[2], g[3])')" \
"linux 1 - - 0 $((N + N / 8))
mcu 0 $(fit mcu) $N
prof 0 $(fit prof) $N" \
	"targets: linux on the reference clock; mcu and prof with the fit, drift and bound max of --stats"
"$M" --format=html --html-max=100 "$TMP/s" >"$TMP/q.html"
tap_is "$?:$(page_py "$TMP/q.html" 'print(d["records"], d["held"], d["summarised"], len(d["targets"]))')" \
	"0:$rows 100 $((rows - 100)) 3" "--html-max=100: 100 held, the rest summarised"

view_chromium
if [ -z "$CHROMIUM" ]; then
	for c in "the merged page drawn" "tracks per target" "accuracies" \
		"side panel: accuracy" "screenshot"; do
		view_unavailable "$c"
	done
else
	ART=$TOP/tests/host/out
	mkdir -p "$ART" || bail "cannot create $ART"
	cp "$TMP/p.html" "$ART/session-merge.html"
	P=$ART/session-merge.html
	prof=$(page_py "$P" 'print(next(i for i, k in enumerate(d["k"]) if st(d["targets"][d["tracks"][k][0]][0]) == "prof"))')
	tap_is "$(view_summary "$P" "?test=select:$prof")" \
		"tracks 3 marks $((N + N / 8)) points $N slices $N buckets 0" \
		"the merged page drawn: $((N + N / 8)) marks, $N points, $N slices"
	grep -q 'data-targets="linux:1 mcu:1 prof:1"' "$TMP/dom"
	tap_ok $? "tracks per target: linux, mcu and prof one each"
	set -- $(fit mcu) $(fit prof)
	grep -q "data-bounds=\"linux: reference clock; mcu: fit ok $2 ppm, ± [0-9.]* us; prof: fit one-sided $5 ppm, accuracy unknown\"" "$TMP/dom"
	tap_ok $? "each target's fit and accuracy in its track headers"
	grep -q '<td>accuracy</td><td>unknown (infinite)</td>' "$TMP/dom"
	tap_ok $? "side panel of a prof record: its accuracy unknown (infinite)"
	view_screenshot "$ART/session-merge.png" "$P" ""
	[ "$tap_fail" -eq 0 ] || grep -v dbus "$TMP/chrome.log" | tail -n 20 | sed 's/^/# /'
fi

# a CONFLICT: one request's t1 a second late
bad=$("$TMP/mergegen" "$TMP/k" $N conflict) || bail "mergegen conflict"
"$M" --stats "$TMP/k" >"$TMP/k.out" 2>"$TMP/k.err"
tap_ok $? "a conflicting session decodes (exit 0)"
has "$TMP/k.err" "^merge: mcu: fit CONFLICT " "mcu: fit CONFLICT"
has "$TMP/k.err" "^merge: mcu: CONFLICT: no line fits every bound: up bound [0-9]+ and down bound $bad conflict" \
	"CONFLICT names the exchange (seq $bad)"
has "$TMP/k.out" "^# merge: mcu: CONFLICT" "and so does the end of the text output"

# ports faster than their baud (an emulator's UART, a USB virtual COM
# port), not "paced": reads come sooner than the bytes' time on the
# wire, so only causality bounds the clocks; counting the wire time
# would make the exchanges conflict
"$TMP/mergegen" "$TMP/u" $N unpaced || bail "mergegen unpaced"
"$M" --stats "$TMP/u" >"$TMP/u.out" 2>"$TMP/u.err"
tap_ok $? "an unpaced session decodes (exit 0)"
has "$TMP/u.err" "^merge: mcu: fit ok " "unpaced: mcu: fit ok, no wire time counted"
grep -v '^#' "$TMP/u.out" | awk '$2 == "mcu" { seen[$10] = 1 }
     $2 == "linux" && $10 ~ /^ack/ { n++; i = substr($10, 4);
	if (!(i in seen)) bad++ }
     END { exit !(n > 0 && bad == 0) }'
tap_ok $? "unpaced: every ack<i> after mcu frame i"
printf 'paced 1\n' >>"$TMP/u/targets/mcu/target"
"$M" --stats "$TMP/u" >/dev/null 2>"$TMP/u2.err"
has "$TMP/u2.err" "^merge: mcu: fit CONFLICT " "the same said paced: its wire time conflicts (the key is read)"

# a riscv-encap target (mergegen rv): its MTT frames on srcID 1, cut into
# packets, TIME_SYNC replies among them and their requests; the bounds
# taken at the ends of the packets that complete the frames in the
# capture (not at the frames' offsets in srcID 1's payload): a two-way
# fit, its drift near -300 ppm, every record within its bound of its true
# reference time, the merged order the true one
"$TMP/mergegen" "$TMP/r" $N rv || bail "mergegen rv"
"$M" --stats "$TMP/r" >"$TMP/r.out" 2>"$TMP/r.err"
tap_ok $? "a session with a riscv-encap target decodes (exit 0)"
has "$TMP/r.err" "^merge: rv: fit ok drift -(2[5-9][0-9]|3[0-4][0-9])\.[0-9]{3} ppm \[.*\] offset -?[0-9]+ ns bound first [0-9]+ last [0-9]+ max [0-9]+ ns; bounds up $((N + X)) down $X exchanges $X; records $N late 0$" \
	"rv: fit ok (finite bound), drift near -300 ppm, bounds up $((N + X)) down $X"
grep -v '^#' "$TMP/r.out" | awk '{ print $2, $10 }' | cmp -s - "$TMP/r/expect"
tap_ok $? "with rv: merged order is the true one ($(wc -l <"$TMP/r/expect") records)"
"$M" --format=json "$TMP/r" >"$TMP/r.json"
python3 - "$TMP/r.json" "$TMP/r/rvtruth" <<'PY' >"$TMP/r.cmp"
import json, sys
truth = dict(map(int, l.split()) for l in open(sys.argv[2]))
n = bad = 0
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["target"] != "rv":
        continue
    n += 1
    b = r["bound_ns"]
    if b is None or abs(r["ref_ns"] - truth[int(r["value"])]) > b:
        bad += 1
print(n, bad)
PY
tap_is "$(cat "$TMP/r.cmp")" "$N 0" \
	"rv: each of its $N values mapped within its (finite) bound of its true reference time"

# the reorder window: the stream's messages written out of order (every
# 50th 3 later: in order above, none late); one written 1100 messages
# late is printed where it left the window, and counted
"$TMP/mergegen" "$TMP/w" 1200 late || bail "mergegen late"
"$M" --stats "$TMP/w" >"$TMP/w.out" 2>"$TMP/w.err"
tap_ok $? "a session with a late Linux message decodes (exit 0)"
has "$TMP/w.err" "^merge: linux: the reference; records 1350 late 1 \\(reorder window 1024\\)$" \
	"linux: 1 record late (beyond the window of 1024)"
tap_is "$(grep -v '^#' "$TMP/w.out" | awk '$2 == "linux" { print $10 }' | grep -n -x -e L4 -e L5 -e L73 | tr '\n' ' ')" \
	"6:L5 83:L4 84:L73 " \
	"the late one (L4) printed where it left the window: after 1024 others came in"

# memory: the records held at once against the ceiling, on a session of
# many MB (the build without ASan), the same ceiling as the small one's
"$TMP/mergegen" "$TMP/big" 200000 ok || bail "mergegen big"
mb=$(du -sm "$TMP/big" | cut -f1)
[ "$mb" -ge 10 ]
tap_ok $? "big session: $mb MB (at least 10)"
"$MTTDECODE" --stats "$TMP/big" >"$TMP/b.out" 2>"$TMP/b.err"
tap_ok $? "big session decodes"
grep -v '^#' "$TMP/b.out" | awk '{ print $2, $10 }' | cmp -s - "$TMP/big/expect"
tap_ok $? "big session: the true order"
small=$(sed -n 's/^merge: records .*(ceiling \([0-9]*\)).*/\1/p' "$TMP/t.err")
set -- $(sed -n 's/^merge: records \([0-9]*\); held at most \([0-9]*\) (ceiling \([0-9]*\)).*/\1 \2 \3/p' "$TMP/b.err")
tap_is "$1" "$((200000 * 3 + 200000 / 8))" "big session: every record merged"
[ "$2" -le "$3" ]
tap_ok $? "big session: held at most $2 records <= ceiling $3"
tap_is "$3" "$small" "the ceiling does not depend on the session's size"
tap_done
