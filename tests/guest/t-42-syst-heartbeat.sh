#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stm_heartbeat through p_sys-t: module parameters, the "heartbeat"
# messages at interval_ms measured with STP timestamps, and p_sys-t's
# ts_interval and clocksync_interval semantics on a steady writer:
# a timestamp (clock sync) goes out once the interval has elapsed since
# the last one, and never earlier; the CLOCK value and the SyS-T
# timestamps are on one clock.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/syst_lib.sh

W=$SW_WORK
HB=/sys/class/stm_source
P=/sys/module/stm_heartbeat/parameters
syst_load sink_size=16777216 || tap_fail "load the stack and stm_p_sys-t"

# --- parameters ----------------------------------------------------------------------
# bad_param DESC PARAMS...: finit_module fails with EINVAL, LINES error lines
bad_param() {
	local d=$1 want=$2 before
	shift 2
	before=$(dmesg | grep -c 'stm_heartbeat')
	tap_errno "$d refused" EINVAL mod_insmod stm_heartbeat "$@"
	tap_eq "$d: $want error line(s)" "$want" \
		"$(dmesg | grep 'stm_heartbeat' | tail -n +$((before + 1)) | grep -c .)"
}
bad_param "nr_devs=33" 1 nr_devs=33
bad_param "nr_devs=-1" 1 nr_devs=-1
tap_match "the error names the parameter" 'stm_heartbeat: nr_devs=33' "$(dmesg | grep 'nr_devs=33')"
tap_errno "interval_ms=0 refused" EINVAL mod_insmod stm_heartbeat interval_ms=0
tap_check "default load" mod_load stm_heartbeat
tap_eq "nr_devs defaults to 4" 4 "$(cat $P/nr_devs)"
tap_eq "interval_ms defaults to 10" 10 "$(cat $P/interval_ms)"
tap_eq "sources heartbeat.0 .. heartbeat.3" "heartbeat.0 heartbeat.1 heartbeat.2 heartbeat.3" \
	"$(ls $HB | grep '^heartbeat' | tr '\n' ' ' | sed 's/ $//')"
tap_errno "interval_ms: 0 refused at run time" EINVAL fsop write $P/interval_ms 0
tap_eq "interval_ms unchanged" 10 "$(cat $P/interval_ms)"
tap_check "unload" mod_unload stm_heartbeat
tap_check "nr_devs=32" mod_load stm_heartbeat nr_devs=32
tap_check "heartbeat.31 exists" test -d $HB/heartbeat.31
tap_check "unload" mod_unload stm_heartbeat

# --- rate and p_sys-t intervals --------------------------------------------------------
tap_check "load nr_devs=3" mod_load stm_heartbeat nr_devs=3
tap_errno "p_sys-t policy" OK fsop mkdir $SP
syst_node heartbeat.0 "5 5" "0 0"
syst_node heartbeat.1 "5 5" "1 1"
syst_node heartbeat.2 "5 5" "2 2"
syst_set heartbeat.1 ts_interval 50
syst_set heartbeat.1 clocksync_interval 200
syst_set heartbeat.1 crc 1
for s in 0 1; do
	tap_errno "link heartbeat.$s" OK fsop write $HB/heartbeat.$s/stm_source_link swstm.0
done
syst_set heartbeat.0 severity 1
sleep 3
for s in 0 1; do
	tap_errno "unlink heartbeat.$s" EINVAL fsop write $HB/heartbeat.$s/stm_source_link none
done
echo 25 >$P/interval_ms
tap_errno "link heartbeat.2 (interval_ms 25)" OK fsop write $HB/heartbeat.2/stm_source_link swstm.0
sleep 2
tap_errno "unlink heartbeat.2" EINVAL fsop write $HB/heartbeat.2/stm_source_link none

syst_capture $W/h.stp $W/h.json
syst_packets $W/h.stp $W/h-pk.json
for s in 0 1 2; do
	syst_check msgs -m 5 -c $s $W/h.json >$W/h$s.txt
done
U0=$(cat $SP/heartbeat.0/uuid)
n0=$(grep -c . $W/h0.txt)
tap_check "heartbeat.0: messages ($n0)" test "$n0" -ge 50
tap_eq "heartbeat.0: every one 'heartbeat', 0x01800042, its uuid" "$n0" \
	"$(grep -c " hdr=0x01800042 .* guid=$U0 .* size=9 text=heartbeat\$" $W/h0.txt)"
tap_eq "no decode errors" 0 "$(cat $W/h0.txt $W/h1.txt $W/h2.txt | grep -c ' error=')"
tap_check "STP framing: D32TS header ... FLAG" syst_check frames -m 5 $W/h-pk.json

# rate IVL FILE: the hrtimer beats on a grid of IVL ms (each beat forwards
# to the next grid point), so N beats span more than (N-2)*IVL: never
# faster than the interval; and not much slower on average (< 2*IVL)
rate() {
	grep ' type=2 ' "$2" | sed 's/.* stp=\([0-9]*\) .*/\1/' | awk -v ivl="$1" '
		NR == 1 { first = $1 }
		NR > 1 { g = $1 - prev; if (min == "" || g < min) min = g }
		{ prev = $1; n++ }
		END {
			span = prev - first
			mean = span / (n - 1) / 1e6
			printf "n=%d span=%.1fms mean=%.2fms min=%.2fms\n", n, span / 1e6, mean, min / 1e6
			if (n < 10) exit 1
			if (span < (n - 2.5) * ivl * 1e6) exit 1
			if (mean > 2 * ivl) exit 1
		}'
}
tap_check "heartbeat.0: beats at interval_ms 10 ($(rate 10 $W/h0.txt))" rate 10 $W/h0.txt
tap_check "heartbeat.2: beats at interval_ms 25 ($(rate 25 $W/h2.txt))" rate 25 $W/h2.txt

# heartbeat.1: ts_interval 50, clocksync_interval 200, crc
n1=$(grep -c ' type=2 ' $W/h1.txt)
tap_check "heartbeat.1: messages ($n1)" test "$n1" -ge 50
tap_eq "heartbeat.1: every CRC-32C correct" "$(grep -c . $W/h1.txt)" "$(grep -c ' crc=ok ' $W/h1.txt)"
tap_match "heartbeat.1: first a CLOCK message, then a timestamped one" \
	'^0x01000408 0x01800c42$' "$(head -n 2 $W/h1.txt | sed 's/.* hdr=\(0x[0-9a-f]*\) .*/\1/' | tr '\n' ' ' | sed 's/ $//')"
tap_check "ts_interval 50: a timestamp once 50 ms have elapsed, never sooner" \
	syst_intervals 50 ' ts=[0-9]' $W/h1.txt
tap_check "clocksync_interval 200: a CLOCK message once 200 ms have elapsed, never sooner" \
	syst_intervals 200 ' type=8 ' $W/h1.txt
nts=$(grep -c ' ts=[0-9]' $W/h1.txt)
nclk=$(grep -c ' type=8 ' $W/h1.txt)
tap_check "3 to 5 timestamps per CLOCK message ($nts, $nclk)" \
	test $((nts >= 3 * nclk - 4 && nts <= 5 * nclk + 4)) -eq 1
tap_eq "CLOCK frequency 1 GHz" "$nclk" "$(grep -c ' freq=1000000000 ' $W/h1.txt)"
tap_eq "CLOCK messages: severity 0, no GUID, CRC" "$nclk" "$(grep -c ' hdr=0x01000408 ' $W/h1.txt)"
# same clock: a timestamp minus the preceding CLOCK value advances like the
# STP time (20 ms slack: a vCPU may stall between the protocol's clock read
# and the packet's STP time; a different clock would be off by far more)
sameclock() {
	awk '
		{ stp = $3; sub(/^stp=/, "", stp) }
		/ type=8 / { c = $0; sub(/.* clock=/, "", c); sub(/ .*/, "", c); cs = stp; next }
		/ ts=[0-9]/ && c != "" {
			t = $0; sub(/.* ts=/, "", t); sub(/ .*/, "", t)
			d = (t - c) - (stp - cs)
			if (d < 0) d = -d
			if (d > 20e6) { printf "off by %.3f ms\n", d / 1e6; bad = 1 }
			n++
		}
		END { printf "pairs=%d\n", n; exit bad || n < 2 }' "$1"
}
tap_check "CLOCK value and SyS-T timestamps on one clock (within 20 ms)" sameclock $W/h1.txt
tap_eq "heartbeat.0: severity set after the link not applied" 0 "$(grep -c ' sev=1 ' $W/h0.txt)"

syst_policy_dump $W/policy.txt
if syst_has_decoder; then
	mttdecode --syst --policy $W/policy.txt --format json $W/h.stp >$W/syst.json 2>$W/syst.err
	tap_eq "mttdecode --syst: heartbeat.0 texts" "$n0" \
		"$(grep '"kind":"syst","master":5,"channel":0,' $W/syst.json | grep -c '"text":"heartbeat"')"
	tap_eq "mttdecode --syst --policy: named heartbeat.0" "$n0" \
		"$(grep -c '"source":"heartbeat.0".*"text":"heartbeat"' $W/syst.json)"
	tap_eq "mttdecode --syst: CLOCK messages of heartbeat.1" "$nclk" \
		"$(grep '"source":"heartbeat.1"' $W/syst.json | grep -c '"type":"CLOCK:SYNC"')"
else
	tap_skip "mttdecode --syst" "decoder without --syst"
fi
export_file $W/h.stp syst-heartbeat.stp
export_file $W/policy.txt syst-heartbeat.policy

sw_finish
exit 0
