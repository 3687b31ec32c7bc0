#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stm_heartbeat through p_sys-t: module parameters, the "heartbeat"
# messages, beats never faster than interval_ms (counted between marker
# messages whose STP times bracket the link), and p_sys-t's per-output
# ts_interval and clocksync_interval state on a timer source: with
# intervals far longer than the test, exactly one CLOCK message and one
# timestamp, on one wall clock.  Fixed amounts of work, no time windows.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/syst_lib.sh

W=$SW_WORK
HB=/sys/class/stm_source
# what a beat says: upstream's stm_heartbeat (6.12) has a longer text,
# sent with its NUL (HBEND: what may follow the text in syst_check's line)
HBTXT=heartbeat HBSZ=9 HBEND='$'
if stm_class_upstream; then
	HBTXT="heartbeat stm source driver is here to serve you" HBSZ=49 HBEND=
fi
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
if stm_class_upstream; then
	# upstream 6.12's stm_heartbeat: out-of-range nr_devs refused without
	# a log line; interval_ms not checked (0 accepted); nothing linked here
	tap_errno "nr_devs=33 refused (upstream: no log line)" EINVAL mod_insmod stm_heartbeat nr_devs=33
	tap_errno "nr_devs=-1 refused (upstream: no log line)" EINVAL mod_insmod stm_heartbeat nr_devs=-1
	tap_check "default load" mod_load stm_heartbeat
	tap_eq "nr_devs defaults to 4" 4 "$(cat $P/nr_devs)"
	tap_eq "interval_ms defaults to 10" 10 "$(cat $P/interval_ms)"
	tap_eq "sources heartbeat.0 .. heartbeat.3" "heartbeat.0 heartbeat.1 heartbeat.2 heartbeat.3" \
		"$(ls $HB | grep '^heartbeat' | tr '\n' ' ' | sed 's/ $//')"
else
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
fi
tap_check "unload" mod_unload stm_heartbeat
tap_check "nr_devs=32" mod_load stm_heartbeat nr_devs=32
tap_check "heartbeat.31 exists" test -d $HB/heartbeat.31
tap_check "unload" mod_unload stm_heartbeat

# --- beats, and p_sys-t on a timer source ---------------------------------------------
# Each source is linked alone between two marker messages on the "mark"
# node: the first is written before the link, the second after the unlink,
# so their STP times bracket every beat.  The test waits for a number of
# packets (the time-out only guards against a hang) and asserts what no
# machine speed changes: the messages' bytes, and that beats never come
# faster than interval_ms.
tap_check "load nr_devs=3" mod_load stm_heartbeat nr_devs=3
tap_errno "p_sys-t policy" OK fsop mkdir $SP
syst_node heartbeat.0 "5 5" "0 0"
syst_node heartbeat.1 "5 5" "1 1"
syst_node heartbeat.2 "5 5" "2 2"
syst_node mark "5 5" "9 9"
# ts_interval and clocksync_interval of 1 h: due once, at the first
# message, however slow the machine (the test takes far less than that)
syst_set heartbeat.1 ts_interval 3600000
syst_set heartbeat.1 clocksync_interval 3600000
syst_set heartbeat.1 crc 1

packets_from() {
	test "$(sw_attr 0 packets)" -ge "$1"
}

# beats SRC: link SRC between the markers "start-SRC" and "end-SRC" and
# unlink it once the sink has taken 300 more packets (at least 10 beats
# of fewer than 30 packets each).
beats() {
	local from
	stmctl /dev/swstm.0 set=mark write=start-$1 >/dev/null
	from=$(($(sw_attr 0 packets) + 300))
	tap_errno "link $1" OK fsop write $HB/$1/stm_source_link swstm.0
	[ "$1" != heartbeat.0 ] || syst_set heartbeat.0 severity 1
	tap_check "$1 beats: 300 packets (waited for, at most 600 s)" wait_until 600 packets_from $from
	tap_errno "unlink $1" EINVAL fsop write $HB/$1/stm_source_link none
	stmctl /dev/swstm.0 set=mark write=end-$1 >/dev/null
}
T0=$(date +%s)
beats heartbeat.0
beats heartbeat.1
T1=$(date +%s)
echo 25 >$P/interval_ms
beats heartbeat.2

syst_capture $W/h.stp $W/h.json
syst_packets $W/h.stp $W/h-pk.json
for s in 0 1 2 9; do
	syst_check msgs -m 5 -c $s $W/h.json >$W/h$s.txt
done
U0=$(cat $SP/heartbeat.0/uuid)
n0=$(grep -c . $W/h0.txt)
tap_check "heartbeat.0: messages ($n0)" test "$n0" -ge 10
tap_eq "heartbeat.0: every one 'heartbeat', 0x01800042, its uuid" "$n0" \
	"$(grep -c " hdr=0x01800042 .* guid=$U0 .* size=$HBSZ text=$HBTXT$HBEND" $W/h0.txt)"
tap_eq "no decode errors" 0 "$(cat $W/h0.txt $W/h1.txt $W/h2.txt $W/h9.txt | grep -c ' error=')"
tap_check "STP framing: D32TS header ... FLAG" syst_check frames -m 5 $W/h-pk.json
tap_eq "heartbeat.0: severity set after the link not applied" 0 "$(grep -c ' sev=1 ' $W/h0.txt)"

# never_faster IVL SRC: SRC's beats lie on a grid of IVL ms that starts
# one interval after the link (hrtimer_forward_now), so N beats need
# N*IVL ms between the markers written before the link and after the
# unlink; one interval of slack for the fast clock read of STP times.
never_faster() {
	awk -v ivl="$1" -v src="$2" '
		{ stp = $3; sub(/^stp=/, "", stp) }
		/ text=start-/ && index($0, "text=start-" src) { t0 = stp }
		/ text=end-/ && index($0, "text=end-" src) { t1 = stp }
		END {
			n = beats + 0
			max = int((t1 - t0) / (ivl * 1e6)) + 1
			printf "beats=%d between markers %.1f ms apart: at most %d\n", n, (t1 - t0) / 1e6, max
			exit !(t0 != "" && t1 != "" && n >= 10 && n <= max)
		}' beats="$(grep -c " text=$HBTXT$HBEND" "$3")" "$W/h9.txt"
}
tap_check "heartbeat.0: never faster than interval_ms 10 ($(never_faster 10 heartbeat.0 $W/h0.txt))" \
	never_faster 10 heartbeat.0 $W/h0.txt
tap_check "heartbeat.2: never faster than interval_ms 25 ($(never_faster 25 heartbeat.2 $W/h2.txt))" \
	never_faster 25 heartbeat.2 $W/h2.txt

# heartbeat.1: ts_interval and clocksync_interval 1 h, crc
n1=$(grep -c ' type=2 ' $W/h1.txt)
tap_check "heartbeat.1: messages ($n1)" test "$n1" -ge 10
if stm_class_upstream; then
	# upstream 6.12's p_sys-t has no crc attribute: no CHK bit, no CRC
	tap_eq "heartbeat.1: no CRC (upstream 6.12: no crc attribute)" "$(grep -c . $W/h1.txt)" \
		"$(grep -c ' crc=- ' $W/h1.txt)"
	hclk=0x01000008 hts=0x01800842 hplain=0x01800042
else
	tap_eq "heartbeat.1: every CRC-32C correct" "$(grep -c . $W/h1.txt)" "$(grep -c ' crc=ok ' $W/h1.txt)"
	hclk=0x01000408 hts=0x01800c42 hplain=0x01800442
fi
tap_eq "heartbeat.1: a CLOCK message, a timestamped one, then only plain ones ($hplain)" \
	"$hclk $hts $((n1 - 1))x$hplain" \
	"$(head -n 2 $W/h1.txt | sed 's/.* hdr=\(0x[0-9a-f]*\) .*/\1/' | tr '\n' ' ')$(tail -n +3 $W/h1.txt | grep -c " hdr=$hplain ")x$hplain"
nclk=$(grep -c ' type=8 ' $W/h1.txt)
tap_eq "heartbeat.1: exactly one CLOCK message" 1 "$nclk"
tap_eq "CLOCK frequency 1 GHz" "$nclk" "$(grep -c ' freq=1000000000 ' $W/h1.txt)"
c=$(syst_get "$(grep ' type=8 ' $W/h1.txt)" clock)
ts=$(syst_get "$(grep ' ts=[0-9]' $W/h1.txt)" ts)
# same clock: the CLOCK value is read first, the timestamp after it in
# the same write, both CLOCK_REALTIME like date(1)
tap_check "CLOCK value ($c) then the timestamp ($ts): one wall clock, in order, between date's $T0 and $T1" \
	test "${c:-0}" -gt 0 -a "${c:-0}" -le "${ts:-0}" -a $((${c:-0} / 1000000000)) -ge "$T0" \
	-a $((${ts:-0} / 1000000000)) -le "$T1"

syst_policy_dump $W/policy.txt
if syst_has_decoder; then
	mttdecode --syst --policy $W/policy.txt --format json $W/h.stp >$W/syst.json 2>$W/syst.err
	tap_eq "mttdecode --syst: heartbeat.0 texts" "$n0" \
		"$(grep '"kind":"syst","master":5,"channel":0,' $W/syst.json | grep -c "\"text\":\"$HBTXT\"")"
	tap_eq "mttdecode --syst --policy: named heartbeat.0" "$n0" \
		"$(grep -c "\"source\":\"heartbeat.0\".*\"text\":\"$HBTXT\"" $W/syst.json)"
	tap_eq "mttdecode --syst: CLOCK messages of heartbeat.1" "$nclk" \
		"$(grep '"source":"heartbeat.1"' $W/syst.json | grep -c '"type":"CLOCK:SYNC"')"
else
	tap_skip "mttdecode --syst" "decoder without --syst"
fi
export_file $W/h.stp syst-heartbeat.stp
export_file $W/policy.txt syst-heartbeat.policy

sw_finish
exit 0
