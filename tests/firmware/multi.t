#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# multi.t - issue 21 section 4's causal test, in the firmware lane: the
# Linux VM (Debian's kernel, the plain lane's builders) and both firmware
# boards wired by QEMU socket chardevs (tests/vm/multi.sh), one
# mttcontrol session of the Linux stream and the three board UARTs, 100
# ping_exchange exchanges with each MTT target (tests/guest/multi.sh),
# the session exported.  Checked on the host without the merged output:
# the run and the kernel log clean (run-plain.sh's log scan), --stop's
# exact counts, every ping/pong record on both sides exactly once and in
# order, the captures complete (decoded without error); then the merged
# output: every exchange's send before its receive, every bound finite.
. "$(dirname "$0")/../host/lib.sh"
. "$(dirname "$0")/lib.sh"

PINGS=100
need timeout coreutils
need setsid util-linux
need riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
need qemu-system-riscv32 qemu-system-misc
need qemu-system-x86_64 qemu-system-x86
need arm-none-eabi-gcc gcc-arm-none-eabi
need qemu-system-arm qemu-system-arm
need_mttdecode
trap 'rm -rf "$TMP"' EXIT INT TERM

OUT=$TOP/tests/vm/out/multi-t
STM_VM_LANE=multi-t STM_VM_OUT=$OUT "$TOP/tests/vm/multi.sh" $PINGS >"$TMP/run.log" 2>&1
rc=$?
tap_is "$rc" 0 "multi.sh: the three-target session recorded, exported, kernel log clean"
# on failure: the log's last lines on stderr (prove shows them without
# -v), and its cause in the bail line (the end of a CI log): the guest
# script's "multi failed: ...", the VM not finishing, a kernel report
if [ $rc != 0 ]; then
	sed 's/^/multi.t: /' "$TMP/run.log" | tail -40 >&2
	why=$(grep -m 1 -e '^multi failed: ' -e '^== multi: did not finish' -e '^multi: cannot' -e '^ping_exchange: ' \
		-e 'building .* failed' "$TMP/run.log")
	grep -q '^== multi: the kernel log is not clean' "$TMP/run.log" &&
		why="${why:+$why; }kernel log: $("$TOP/tests/vm/logscan.sh" "$OUT/console.log" |
			sed -n '/^# >> /{s/^# >> //p;q}')"
	bail "the run failed: ${why:-exit $rc, see the log above} (its files: $OUT)"
fi

mkdir -p "$TMP/x"
tar xzf "$OUT/exports/multi-session.tar.gz" -C "$TMP/x" || bail "cannot unpack the session"
S=$TMP/x/multi-session
T=$S/targets

# --stop: USART2's 74 frames of work and the RV core's 55 (session.t),
# each plus the ping META, two per ping and a TIME_SYNC reply per request
# in its "requests" (USART2 and the RISC-V core at the default period,
# 250 ms: how many follows the run's length, each answered; USART1
# bursts only); the Linux stream's 4 per round; all three ports two-way.
# (The MTT targets' exchanges run all along: with bursts only at the
# start and the end, the line's drift range widened the band in the
# middle of the run, and the middle line came within 35 us of a ping's
# send)
nreq() { echo $((($(wc -c <"$T/$1/requests") - 8) / 12)); }
tap_is "$(sed 's/captured [0-9]* bytes/captured N bytes/; s/: [0-9]* records, \(.*profile\)/: M records, \1/' "$OUT/exports/multi-stop.txt")" \
"session stopped: /tmp/multi-session
captured N bytes in 1 file: $((4 * PINGS)) messages (0 incomplete), 0 losses in the stream, 0 packets dropped by the sink
target prof (mprof on /dev/ttyS2): captured N bytes: M records, 0 errors (0 bytes skipped), 0 losses, 300 profile records; clock: two-way
target mtt (mtt on /dev/ttyS3): captured N bytes: $((74 + 1 + 2 * PINGS + $(nreq mtt))) records, 0 errors (0 bytes skipped), 0 losses; clock: two-way
target rv (riscv-encap on /dev/ttyS4): captured N bytes: $((55 + 1 + 2 * PINGS + $(nreq rv))) records, 0 errors (0 bytes skipped), 0 losses; clock: two-way" \
	"--stop: exact counts, no error, no loss on any target"

# the Linux side: each exchange's two records, in exchange order.  The
# profiled ELF's path is the guest's: functions by address, said once
"$MTTDECODE" "$S" >"$TMP/linux.txt" 2>"$TMP/linux.err"
tap_is "$?:$(cat "$TMP/linux.err")" "0:mttdecode: target prof: /stm/tests/stm32.elf: cannot open (functions by address)" \
	"mttdecode SESSION decodes the session"
tap_is "$(sed -n 's/.* \(\(mtt\|rv\) p[io]ng [0-9]* \(sent\|seen\)\)$/\1/p' "$TMP/linux.txt")" \
	"$(for k in $(seq $PINGS); do
		printf 'mtt ping %s sent\nmtt pong %s seen\nrv ping %s sent\nrv pong %s seen\n' $k $k $k $k
	done)" "Linux: ping k sent, pong k seen, for each target, k = 1..$PINGS"

# the boards: each capture decodes whole.  The STM32F405 answers pings
# during its work too (its frames are whole, the pings' among the
# work's), the RISC-V core after it
"$MTTDECODE" --input=mtt "$T/mtt/capture.bin" >"$TMP/mtt.txt" 2>"$TMP/mtt.err"
tap_is "$?:$(cat "$TMP/mtt.err")" "0:" "USART2's capture decodes"
mtt_norm "$TMP/mtt.txt" >"$TMP/mtt.norm"
tap_is "$(grep -v -e ' ping ' -e '"ping"' "$TMP/mtt.norm")" "$(stm32_mtt 25)" "USART2: the whole work"
tap_is "$(grep -e ' ping ' -e '"ping"' "$TMP/mtt.norm")" "$(ping_lines '- ' 96 $PINGS)" \
	"USART2: each ping received and answered, in order"
tap_is "$(grep -c -e CRC_ERROR -e '^!!' "$TMP/mtt.txt")" 0 "USART2: no CRC error, nothing skipped"
tap_is "$(grep -c ' MTT TIME_SYNC REPLY ' "$TMP/mtt.txt")" "$(nreq mtt)" \
	"USART2: a TIME_SYNC reply to each of the $(nreq mtt) requests"
(cd "$T/rv" && eval "\"\$MTTDECODE\" $(sed -n 's/^decode mttdecode //p' target)") \
	>"$TMP/rv.txt" 2>"$TMP/rv.err"
tap_is "$?:$(cat "$TMP/rv.err")" "0:" "the RISC-V capture decodes"
mtt_norm "$TMP/rv.txt" >"$TMP/rv.norm"
# shellcheck disable=SC2034 # read by lib.sh's riscv_src1
REPLIES='src1 MTT START REPLY - comp:0x00000000 - seq 0 cpu 80'
tap_is "$(grep '^src1 ' "$TMP/rv.norm")" "$(riscv_src1 0xffffffff 0xffffffff; ping_lines 'src1 ' 80 $PINGS)" \
	"RISC-V: its work, then each ping received and answered"
tap_is "$(grep -c ' src1 MTT TIME_SYNC REPLY ' "$TMP/rv.txt")" "$(nreq rv)" \
	"RISC-V: a TIME_SYNC reply on srcID 1 to each of the $(nreq rv) requests"
"$MTTDECODE" "$T/prof" >"$TMP/prof.txt" 2>"$TMP/prof.err"
tap_is "$?:$(grep -c '^# 300 calls ' "$TMP/prof.txt")" "0:1" "USART1: the whole profile (300 calls)"

# the merged output (mttdecode SESSION, JSON: reference times): for each
# of the 2 * PINGS exchanges, Linux "<target> ping k sent" before the
# target's "ping received = k", and the target's "ping pong = k" before
# Linux "<target> pong k seen"; a pair missing counts as a violation.
# Every target's bound (--stats: "max N ns") finite; its size is not
# asserted, only printed
"$MTTDECODE" --stats --format=json "$S" >"$TMP/merged.json" 2>"$TMP/merged.err"
tap_is "$?" 0 "mttdecode SESSION: the merged output (JSON)"
python3 - "$TMP/merged.json" $PINGS >"$TMP/order" 2>&1 <<'PY'
import json, re, sys
pings = int(sys.argv[2])
t = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["target"] == "linux":
        m = re.search(r"\b(mtt|rv) (ping|pong) ([0-9]+) (sent|seen)$",
                      r["text"] or "")
        if m:
            t[("L", m.group(1), m.group(2), int(m.group(3)))] = r["ref_ns"]
    elif r["comp"] == "ping" and r["name"] in ("received", "pong") \
            and r["value"] is not None:
        t[("T", r["target"], r["name"], int(r["value"]))] = r["ref_ns"]
bad = 0
margin = {}
for g in ("mtt", "rv"):
    for k in range(1, pings + 1):
        for a, b in ((("L", g, "ping", k), ("T", g, "received", k)),
                     (("T", g, "pong", k), ("L", g, "pong", k))):
            if a not in t or b not in t:
                bad += 1
                print("# missing: %s or %s" % (a, b))
                continue
            d = t[b] - t[a]
            margin[g] = min(margin.get(g, d), d)
            if d <= 0:
                bad += 1
                if bad <= 10:
                    print("# violation: %s at %d after %s at %d" %
                          (a, t[a], b, t[b]))
for g in sorted(margin):
    print("# %s: the smallest send-to-receive gap %d ns" % (g, margin[g]))
print("violations %d" % bad)
PY
grep '^#' "$TMP/order"
tap_is "$(grep '^violations ' "$TMP/order")" "violations 0" \
	"merged output: send before receive in all $((4 * PINGS)) pairs of the $((2 * PINGS)) exchanges"
sed -n 's/^merge: \([a-z]*\): fit .*/# &/p' "$TMP/merged.err"
# what make demo leaves on the host (tests/vm/multi.sh): the merged text,
# the Perfetto JSON with a process per target, the viewer's page, and
# the run's summary of each target's clock
tap_is "$(python3 - "$OUT/multi-trace.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
print(" ".join(sorted(e["args"]["name"] for e in ev
                      if e["ph"] == "M" and e["name"] == "process_name")))
PY
)" "linux mtt prof rv" "multi-trace.json: a Perfetto process per target"
tap_is "$(head -n "$(wc -l <"$TMP/linux.txt")" "$OUT/multi.txt" | cmp -s - "$TMP/linux.txt" && echo same):$(tail -c 64 "$OUT/multi.html" | grep -c '</html>'):$(grep -c '^==     [a-z]*: fit ok, drift' "$TMP/run.log")" \
	"same:1:3" "multi.txt as mttdecode SESSION prints it, multi.html a whole page, the three fits said"
tap_is "$(sed -n 's/^merge: \([a-z]*\): fit [^ ]* .* max \([^ ]*\) ns;.*/\1 \2/p' "$TMP/merged.err" |
	awk '{ print $1, ($2 ~ /^[0-9]+$/ ? "finite" : $2) }' | sort | tr '\n' ' ')" \
	"mtt finite prof finite rv finite " "every target's bound finite (--stats)"
tap_done
