#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# p_sys-t: the policy node attributes (defaults, parsing, errors) and the
# bytes each one produces on the wire, checked at the byte level from the
# STP messages (syst_check), not through the decoder's SyS-T layer: the
# upstream data header 0x01800042 and uuid, do_len, ts_interval,
# clocksync_interval, crc, severity, origin; STP framing (D32TS header
# ... FLAG); settings copied at open; private data released once when a
# device's link() fails.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/syst_lib.sh
# On upstream's class (the 6.12 lane) p_sys-t has no crc, severity or
# origin attribute: each check of one of those is a SKIP naming it, and
# where upstream answers differently the check expects upstream's answer
# and says both (Documentation/abi.rst).
UP=
XATTRS="crc severity origin"
if stm_class_upstream; then
	UP=1
	XATTRS=
	tap_diag "upstream 6.12's p_sys-t: no crc, severity or origin attributes (ours has them)"
fi
# ours_only DESC ATTR: skip DESC on upstream's class (no ATTR there); 0 on ours
ours_only() {
	[ -n "$UP" ] || return 0
	tap_skip "$1" "upstream 6.12's p_sys-t has no $2 attribute (ours adds it)"
	return 1
}

W=$SW_WORK
syst_load sink_size=16777216 || tap_fail "load the stack and stm_p_sys-t"
tap_errno "p_sys-t policy directory" OK fsop mkdir $SP
tap_eq "policy protocol" p_sys-t "$(cat $SP/protocol)"
syst_node default "3 3" "5 5"
syst_node other "3 3" "6 6"
N=$SP/default

# --- attributes ----------------------------------------------------------------
UUID_RE='^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
tap_match "uuid: random (version 4) at mkdir, %pU" "$UUID_RE" "$(cat $N/uuid)"
tap_check "uuid: another node, another uuid" test "$(cat $N/uuid)" != "$(cat $SP/other/uuid)"
defaults=
for a in do_len ts_interval clocksync_interval $XATTRS; do
	defaults="$defaults $a=$(cat $N/$a)"
done
want=" do_len=0 ts_interval=0 clocksync_interval=0"
[ -n "$UP" ] || want="$want crc=0 severity=4 origin=none"
tap_eq "defaults" "$want" "$defaults"

# bad ATTR VALUE...: each refused with EINVAL (a number beyond 32 bits:
# ERANGE on upstream's class), the value unchanged
bad() {
	local a=$1 v before e
	shift
	case "$a" in crc | severity | origin) ours_only "$a: bad values refused" $a || return 0 ;; esac
	before=$(cat $N/$a)
	for v in "$@"; do
		e=EINVAL
		[ -z "$UP" ] || [ "$v" != 4294967296 ] || e=ERANGE
		tap_errno "$a: '$v' refused ($e; ours: EINVAL)" $e fsop write $N/$a "$v"
	done
	tap_eq "$a: unchanged after bad writes" "$before" "$(cat $N/$a)"
}
bad uuid xyz 00112233-4455-6677-8899-aabbccddeef \
	00112233x4455-6677-8899-aabbccddeeff 0011223g-4455-6677-8899-aabbccddeeff
bad do_len maybe 2
bad crc maybe 2
bad ts_interval -1 abc 4294967296 1.5
bad clocksync_interval -1 abc 4294967296
bad severity 8 -1 x 255
bad origin 128:0 0:16 1 1:2:3 a:b -1:0 "1:2x"

# as upstream, only the first 36 bytes are parsed: anything after is ignored
tap_errno "uuid: bytes after the 36 characters ignored" OK fsop write $N/uuid ffeeddcc-bbaa-9988-7766-5544332211000junk
tap_eq "uuid: the first 36 characters taken" ffeeddcc-bbaa-9988-7766-554433221100 "$(cat $N/uuid)"
tap_errno "uuid: upper case accepted" OK fsop writeln $N/uuid 00112233-4455-6677-8899-AABBCCDDEEFF
tap_eq "uuid: reads back in lower case" 00112233-4455-6677-8899-aabbccddeeff "$(cat $N/uuid)"
tap_errno "do_len: 'y'" OK fsop write $N/do_len y
tap_eq "do_len: reads 1" 1 "$(cat $N/do_len)"
if ours_only "origin: 0:0, 127:15, none" origin; then
	tap_errno "origin: 0:0" OK fsop writeln $N/origin 0:0
	tap_eq "origin: reads 0:0" 0:0 "$(cat $N/origin)"
	tap_errno "origin: 127:15" OK fsop write $N/origin 127:15
	tap_eq "origin: reads 127:15" 127:15 "$(cat $N/origin)"
	tap_errno "origin: none" OK fsop writeln $N/origin none
	tap_eq "origin: reads none" none "$(cat $N/origin)"
fi
tap_errno "ts_interval: 4294967295" OK fsop write $N/ts_interval 4294967295
v=$(cat $N/ts_interval)
if [ -n "$UP" ]; then
	# upstream keeps jiffies: the value comes back rounded to a jiffy (at
	# most 10 ms at HZ=100); ours keeps milliseconds
	tap_diag "ts_interval 4294967295 reads back $v on upstream's class (ours: 4294967295)"
	tap_check "ts_interval: reads back within a jiffy (upstream: rounded; ours: exact)" \
		test "$v" -ge 4294967285 -a "$v" -le 4294967295
	tap_errno "ts_interval: 1000" OK fsop write $N/ts_interval 1000
	tap_eq "ts_interval: 1000 reads back exactly" 1000 "$(cat $N/ts_interval)"
else
	tap_eq "ts_interval: reads back" 4294967295 "$v"
fi
for a in do_len ts_interval; do syst_set default $a 0; done
if [ -n "$UP" ]; then
	want="channels clocksync_interval do_len masters ts_interval uuid"
else
	want="channels clocksync_interval crc do_len masters origin severity ts_interval uuid"
fi
tap_eq "node attributes: masters, channels and the $(($(echo $want | wc -w) - 2)) of p_sys-t (ours: 7)" \
	"$want" "$(ls $SP/default | sort | tr '\n' ' ' | sed 's/ $//')"

# --- bytes per setting: one fsop write (a fresh fd: node "default") each ------------
U=00112233-4455-6677-8899-aabbccddeeff
send() { tap_errno "write '$1'" OK fsop write /dev/swstm.0 "$1"; }
# wall-clock seconds before the first and after the last timestamped write
T0=$(date +%s)
send syst-plain
syst_set default do_len 1; send syst-len-17-bytes; syst_set default do_len 0
if [ -z "$UP" ]; then
	syst_set default crc 1; send syst-crc; syst_set default crc 0
	syst_set default severity 2; send syst-sev2
	syst_set default severity 7; send syst-sev7; syst_set default severity 4
	syst_set default origin 5:3; send syst-origin; syst_set default origin none
fi
syst_set default ts_interval 1000; send syst-ts; syst_set default ts_interval 0
syst_set default clocksync_interval 1000; send syst-clock; syst_set default clocksync_interval 0
for a in "do_len 1" "ts_interval 1" "clocksync_interval 1"; do
	syst_set default $a
done
[ -n "$UP" ] || for a in "crc 1" "severity 3" "origin 127:15"; do
	syst_set default $a
done
send syst-all
T1=$(date +%s)

# several messages on one fd: node "multi" (do_len, crc), "tsint" (ts_interval 1 h:
# only the first after open is due, however slow the machine), "tsall" (both
# intervals 1 ms and a 3 ms pause between writes: every message is due)
syst_node multi "3 3" "7 7"
syst_set multi do_len 1
[ -n "$UP" ] || syst_set multi crc 1
syst_node multi2 "3 3" "10 10"
syst_set multi2 do_len 1
[ -n "$UP" ] || syst_set multi2 crc 1
syst_node tsint "3 3" "8 8"
syst_set tsint ts_interval 3600000
syst_node tsall "3 3" "11 11"
syst_set tsall ts_interval 1
syst_set tsall clocksync_interval 1
tap_match "64 messages of 1..64 bytes, do_len and crc (upstream: no crc)" '^OK' "$(swstm_write -i multi -t A -s 1-64 -n 64)"
tap_match "messages up to 4095 bytes, do_len and crc (upstream: no crc)" '^OK' "$(swstm_write -i multi2 -t B -s 4095,1000,255,17 -n 8)"
tap_match "50 messages with ts_interval 1 h" '^OK' "$(swstm_write -i tsint -t C -s 16 -n 50)"
# Upstream keeps the intervals in jiffies and sends when more than
# msecs_to_jiffies(1) jiffies have passed: 2 jiffies, up to 20 ms at
# HZ=100, so 3 ms apart is due only now and then there.  A pause of at
# least 25 ms makes every message due on both.
gap=3
[ -z "$UP" ] || gap=25
tap_eq "10 messages $gap ms apart with both intervals 1 ms (upstream: 25 ms, jiffies)" \
	"OK:3:11:1 OK:6 OK OK:6 OK OK:6 OK OK:6 OK OK:6 OK OK:6 OK OK:6 OK OK:6 OK OK:6 OK OK:6" \
	"$(stmctl /dev/swstm.0 set=tsall write=tsall0 sleep=$gap write=tsall1 sleep=$gap write=tsall2 \
		sleep=$gap write=tsall3 sleep=$gap write=tsall4 sleep=$gap write=tsall5 sleep=$gap write=tsall6 \
		sleep=$gap write=tsall7 sleep=$gap write=tsall8 sleep=$gap write=tsall9)"

# settings are copied at open: change the node while an fd is open
syst_node copy "3 3" "9 9"
rm -f $W/ready $W/go
swstm_write -i copy -t D -s 20 -n 5 -r $W/ready -g $W/go >$W/copy.out &
cpid=$!
sw_wait_file $W/ready
[ -n "$UP" ] || syst_set copy severity 7
syst_set copy do_len 1
touch $W/go
wait $cpid
tap_eq "writer with the old settings done" OK "$(head -n 1 $W/copy.out)"
tap_match "a new fd after the change" '^OK' "$(swstm_write -i copy -t E -s 20 -n 1)"

syst_capture $W/p.stp $W/p.json
syst_packets $W/p.stp $W/p-pk.json
syst_check msgs -m 3 -c 5 $W/p.json >$W/d.txt
if [ -n "$UP" ]; then
	tap_eq "default node: 7 messages (5 data, 2 clock; ours: 9 and 2)" 7 "$(grep -c . $W/d.txt)"
else
	tap_eq "default node: 11 messages (9 data, 2 clock)" 11 "$(grep -c . $W/d.txt)"
fi

# chk TEXT DESC HDR [KEY=VALUE...]: the message with payload TEXT has
# header HDR and these fields
chk() {
	local t=$1 d=$2 h=$3 line kv k v bad=
	shift 3
	line=$(grep " text=$t\$" $W/d.txt)
	if [ -z "$line" ]; then
		tap_fail "$d: message '$t' found"
		return
	fi
	[ "$(syst_get "$line" hdr)" = "$h" ] || bad="$bad hdr"
	for kv in "$@"; do
		k=${kv%%=*}
		v=${kv#*=}
		[ "$(syst_get "$line" $k)" = "$v" ] || bad="$bad $k"
	done
	if [ -z "$bad" ]; then
		tap_ok "$d"
	else
		tap_fail "$d"
		tap_diag "wrong:$bad"
		tap_diag "$line"
	fi
}
chk syst-plain "default: 0x01800042 STRING/GENERIC INFO + GUID, uuid byte-exact, raw payload" \
	0x01800042 guid=$U lenf=- ts=- crc=- size=10
chk syst-len-17-bytes "do_len: LEN bit and the exact u16 length" 0x01800242 guid=$U lenf=17 size=17
if ours_only "crc: CHK bit and a correct CRC-32C" crc; then
	chk syst-crc "crc: CHK bit and a correct CRC-32C" 0x01800442 guid=$U crc=ok size=8
fi
if ours_only "severity 2 and 7: header bits 6:4" severity; then
	chk syst-sev2 "severity 2: header bits 6:4" 0x01800022 sev=2 guid=$U
	chk syst-sev7 "severity 7" 0x01800072 sev=7 guid=$U
fi
if ours_only "origin 5:3: no GUID, (5<<4|3) in bits 22:12" origin; then
	chk syst-origin "origin 5:3: no GUID, (5<<4|3) in bits 22:12" 0x01053042 guid=- origin=5:3 size=11
fi
chk syst-ts "ts_interval: TS bit and a timestamp" 0x01800842 guid=$U lenf=- crc=-
chk syst-clock "clocksync_interval: the data message itself unchanged" 0x01800042 guid=$U
if [ -n "$UP" ]; then
	chk syst-all "everything upstream has: LEN, TS (ours: also CHK, severity, origin)" \
		0x01800a42 guid=$U lenf=8 crc=-
else
	chk syst-all "everything: LEN, CHK, TS, severity 3, origin 127:15" 0x017ffe32 \
		guid=- origin=127:15 lenf=8 crc=ok sev=3
fi

# wall SEC NS: NS (ns) falls in the second T0..T1 (CLOCK_REALTIME, as date)
wall() {
	test "$T0" -le $((${1:-0} / 1000000000)) -a $((${1:-0} / 1000000000)) -le "$T1"
}
ts=$(syst_get "$(grep ' text=syst-ts$' $W/d.txt)" ts)
tap_check "ts: wall clock ns (CLOCK_REALTIME: between date's $T0 and $T1)" wall "$ts"
# the CLOCK messages come right before syst-clock and syst-all
clk=$(grep -B1 ' text=syst-clock$' $W/d.txt | head -n 1)
tap_eq "clocksync: CLOCK/TRANSPORT_SYNC 0x01000008 before the message" 0x01000008 "$(syst_get "$clk" hdr)"
tap_eq "clocksync: frequency 1e9" 1000000000 "$(syst_get "$clk" freq)"
c=$(syst_get "$clk" clock)
tap_check "clocksync: the clock is wall clock ns (between $T0 and $T1)" wall "$c"
clk=$(grep -B1 ' text=syst-all$' $W/d.txt | head -n 1)
if [ -n "$UP" ]; then
	tap_eq "clocksync before syst-all: 0x01000008 (ours: origin and crc, 0x017ff408)" \
		0x01000008 "$(syst_get "$clk" hdr)"
	ours_only "clocksync with crc: CRC-32C correct" crc
else
	tap_eq "clocksync with origin and crc: 0x017ff408" 0x017ff408 "$(syst_get "$clk" hdr)"
	tap_eq "clocksync with crc: CRC-32C correct" ok "$(syst_get "$clk" crc)"
fi
tap_eq "no other CLOCK messages" 2 "$(grep -c ' type=8 ' $W/d.txt)"
tap_eq "the payload carries no NUL" 0 "$(grep ' type=2 ' $W/d.txt | grep -cF '\x00')"

# several messages on one fd
{ syst_check msgs -m 3 -c 7 $W/p.json; syst_check msgs -m 3 -c 10 $W/p.json; } >$W/multi.txt
tap_eq "multi: 72 messages" 72 "$(grep -c . $W/multi.txt)"
if [ -n "$UP" ]; then
	tap_eq "multi: every header 0x01800242 (LEN; ours with crc: 0x01800642)" 72 \
		"$(grep -c ' hdr=0x01800242 ' $W/multi.txt)"
	ours_only "multi: every CRC-32C correct" crc
else
	tap_eq "multi: every header 0x01800642" 72 "$(grep -c ' hdr=0x01800642 ' $W/multi.txt)"
	tap_eq "multi: every CRC-32C correct" 72 "$(grep -c ' crc=ok ' $W/multi.txt)"
fi
tap_eq "multi: every length field equals the payload size" "" \
	"$(awk '{ l = s = ""; for (i = 1; i <= NF; i++) { if ($i ~ /^lenf=/) l = substr($i, 6); if ($i ~ /^size=/) s = substr($i, 6) } if (l != s) print }' $W/multi.txt | head -n 3)"
syst_check unwrap -m 3 $W/p.json >$W/multi-pl.json
tap_check "multi: payloads of 1..64 bytes byte-exact, in order" \
	swstm_check msgs -m 3 -c 7 -t A -s 1-64 -n 64 $W/multi-pl.json
tap_check "multi: payloads up to 4095 bytes byte-exact" \
	swstm_check msgs -m 3 -c 10 -t B -s 4095,1000,255,17 -n 8 $W/multi-pl.json
syst_check msgs -m 3 -c 8 $W/p.json >$W/tsint.txt
tap_eq "ts_interval 1 h: 50 messages" 50 "$(grep -c . $W/tsint.txt)"
tap_eq "ts_interval 1 h: only the first after open has a timestamp" "1 0x01800842" \
	"$(grep -n ' ts=[0-9]' $W/tsint.txt | sed 's/:.* hdr=/ /; s/ type=.*//')"
syst_check msgs -m 3 -c 11 $W/p.json >$W/tsall.txt
tap_eq "intervals 1 ms, writes 3 ms apart: a CLOCK then a timestamped message, 10 times" \
	"$(seq 0 9 | sed 's/.*/0x01000008 0x01800842/' | tr '\n' ' ')" \
	"$(sed 's/.* hdr=\(0x[0-9a-f]*\) .*/\1/' $W/tsall.txt | paste -d' ' - - | tr '\n' ' ')"
tap_eq "intervals 1 ms: the ten texts in order" "$(seq 0 9 | sed 's/^/tsall/' | tr '\n' ' ')" \
	"$(grep ' type=2 ' $W/tsall.txt | sed -n 's/.* text=//p' | tr '\n' ' ')"
syst_check msgs -m 3 -c 9 $W/p.json >$W/copy.txt
tap_eq "copied at open: the open fd kept severity 4 and no length" 5 "$(grep -c ' hdr=0x01800042 ' $W/copy.txt)"
if [ -n "$UP" ]; then
	tap_eq "copied at open: a new fd has the new do_len (ours also severity 7: 0x01800272)" 1 \
		"$(grep -c ' hdr=0x01800242 ' $W/copy.txt)"
else
	tap_eq "copied at open: a new fd has the new settings" 1 "$(grep -c ' hdr=0x01800272 ' $W/copy.txt)"
fi

tap_check "STP framing: D32TS header, D8..D64, FLAG; nothing marked" \
	syst_check frames -m 3 $W/p-pk.json
tap_eq "no decode errors, no incomplete messages" "" "$(syst_check msgs $W/p.json | grep ' error=')"
tap_eq "checker's CRC-32C: check value of 123456789" e3069283 "$(syst_check crc 123456789)"

if syst_has_decoder; then
	mttdecode --syst --format json $W/p.stp >$W/syst.json 2>$W/syst.err
	# ours: 9 texts, 7 with the uuid (origin replaces it); upstream: 5, all
	nt=9 nu=7
	[ -z "$UP" ] || nt=5 nu=5
	tap_eq "mttdecode --syst: the $nt texts of the default node" $nt \
		"$(grep '"kind":"syst"' $W/syst.json | grep -c '"text":"syst-')"
	tap_eq "mttdecode --syst: the uuid" $nu "$(grep '"text":"syst-' $W/syst.json | grep -ci "$U")"
else
	tap_skip "mttdecode --syst" "decoder without --syst"
fi
export_file $W/p.stp syst-protocol.stp

# --- link() failing after output_open: the protocol state is freed once ---------
sw_policy_rm
mod_load dummy_stm nr_dummies=1 master_min=0 master_max=7 nr_channels=16 fail_mode=1
mod_load stm_heartbeat nr_devs=1
refs() { awk '$1 == "stm_p_sys_t" { print $3 }' /proc/modules; }
tap_errno "p_sys-t policy on dummy_stm.0" OK fsop mkdir $CFG/dummy_stm.0:p_sys-t.f
for n in default heartbeat.0; do
	fsop mkdir $CFG/dummy_stm.0:p_sys-t.f/$n >/dev/null
	fsop write $CFG/dummy_stm.0:p_sys-t.f/$n/channels "1 1" >/dev/null
done
r0=$(refs)
# upstream's write() on an fd without an id does not call link()
we=EINVAL
[ -z "$UP" ] || we=OK
for i in 1 2 3; do
	tap_errno "write: device link() fails ($i): $we (ours: EINVAL, upstream: OK)" $we \
		fsop write /dev/dummy_stm.0 x
	tap_errno "source link: device link() fails ($i)" EINVAL \
		fsop write /sys/class/stm_source/heartbeat.0/stm_source_link dummy_stm.0
done
tap_eq "protocol module references back to where they were" "$r0" "$(refs)"
echo 0 >/sys/module/dummy_stm/parameters/fail_mode
tap_errno "write works once link() does" OK fsop write /dev/dummy_stm.0 x
tap_errno "source link works once link() does" OK \
	fsop write /sys/class/stm_source/heartbeat.0/stm_source_link dummy_stm.0
tap_errno "unlink" EINVAL fsop write /sys/class/stm_source/heartbeat.0/stm_source_link none
tap_eq "protocol module references back again" "$r0" "$(refs)"
rmdir $CFG/dummy_stm.0:p_sys-t.f/default $CFG/dummy_stm.0:p_sys-t.f/heartbeat.0 $CFG/dummy_stm.0:p_sys-t.f
tap_check "stm_p_sys-t unloads" mod_unload stm_p_sys_t

sw_finish
exit 0
