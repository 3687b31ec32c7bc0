#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# swstm in RISC-V trace encapsulation format: the module parameters and
# sink attributes (format, srcid_bits, ts_bytes: values, refusals, taken
# at open), the exact bytes of one p_basic message with a 4-bit srcID and
# no timestamp (sync of N + 1 = 32 bytes, srcID bits carried in the
# length, zero padding), round trips through mttdecode --input=riscv-encap
# with 16-bit srcIDs and 8-byte timestamps (masters above 255, periodic
# syncs) and with other widths (0/0, 11/3, 8/1, 13/8), a SyS-T message,
# exact loss marking, and back to STPv2.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/syst_lib.sh

W=$SW_WORK
A=/sys/class/misc/swstm.0-sink
P=/sys/module/swstm/parameters

configfs_load
mod_load stm_core
mod_load stm_p_basic
for p in format=bogus srcid_bits=17 ts_bytes=9; do
	if insmod /stm/modules/swstm.ko "$p" >/dev/null 2>&1; then
		tap_fail "swstm $p refused"
		rmmod swstm
	else
		tap_ok "swstm $p refused"
	fi
done
tap_check "load with format=riscv srcid_bits=4 ts_bytes=0" \
	mod_load swstm format=riscv srcid_bits=4 ts_bytes=0 sink_size=4096 \
	master_max=300 nr_channels=1024 sync_interval=1024
tap_eq "parameters" "riscv 4 0" "$(cat $P/format $P/srcid_bits $P/ts_bytes | tr '\n' ' ' | sed 's/ $//')"
tap_eq "sink attributes from the parameters" "riscv 4 0" \
	"$(cat $A/format $A/srcid_bits $A/ts_bytes | tr '\n' ' ' | sed 's/ $//')"
tap_errno "format: 'bogus' refused" EINVAL fsop write $A/format bogus
tap_errno "srcid_bits: 17 refused" EINVAL fsop write $A/srcid_bits 17
tap_errno "ts_bytes: 9 refused" EINVAL fsop write $A/ts_bytes 9
tap_errno "ts_bytes: 'x' refused" EINVAL fsop write $A/ts_bytes x
tap_eq "unchanged after bad writes" "riscv 4 0" \
	"$(cat $A/format $A/srcid_bits $A/ts_bytes | tr '\n' ' ' | sed 's/ $//')"

sw_policy swstm.0.rv
sw_node swstm.0.rv default "7 7" "3 3"
sw_node swstm.0.rv big "280 280" "700 700"

# --- exact bytes -----------------------------------------------------------------
# "hello" on master 7 channel 3 is D32TS "hell", D8M "o".  Source 0x70003:
# srcID 3 (4 bits), X = 2 bytes 00 70 after the type byte.
#   sync: 31 x 00 (N = 31 + 0 + 0), 80
#   08 | 03 05 00 87 56 c6 c6 06   length 8 = type, 2, 4 data, srcID nibble
#   05 | 83 04 00 f7 06            length 5; type 0x48 = DATA, marked, X 2
printf hello >"$W/hello"
tap_check "write 'hello' (one write, node default)" sh -c "cat $W/hello >/dev/swstm.0"
sw_drain "$W/b.rv" >/dev/null
want="$(i=0; while [ $i -lt 31 ]; do printf '00'; i=$((i + 1)); done)80"
want="${want}0803050087 56c6c606 0583 0400f706"
want=$(echo "$want" | tr -d ' ')
if stm_class_upstream; then
	tap_skip "the exact bytes (sync, two packets, no stale padding)" \
		"upstream's p_basic sends D32TS, D8 and a FLAG (Documentation/abi.rst)"
else
	tap_eq "the exact bytes (sync, two packets, no stale padding)" "$want" \
		"$(od -An -v -tx1 "$W/b.rv" | tr -d ' \n')"
fi
tap_eq "mttdecode reads it" "m7 c3 hello" \
	"$(mttdecode --input=riscv-encap --srcid-bits=4 --ts-bytes=0 -f json "$W/b.rv" |
	   sed -n 's/.*"master":\([0-9]*\),"channel":\([0-9]*\).*"data":"\([0-9a-f]*\)".*/m\1 c\2 \3/p' |
	   sed 's/68656c6c6f/hello/')"

# --- round trips, 16-bit srcID, 8-byte timestamps --------------------------------
tap_errno "srcid_bits=16" OK fsop write $A/srcid_bits 16
tap_errno "ts_bytes=8" OK fsop write $A/ts_bytes 8
out=$(swstm_write -i default -t A -s 1-24 -n 24 -T)
tap_match "write 24 messages of 1..24 bytes on node default" '^OK' "$out"
T0=$(echo "$out" | sed -n 's/^t0=\([0-9]*\) .*/\1/p')
out=$(swstm_write -i big -t B -s 33 -n 6 -T)
tap_match "write 6 messages of 33 bytes on node big (master 280)" '^OK' "$out"
T1=$(echo "$out" | sed -n 's/.* t1=\([0-9]*\)$/\1/p')
sw_drain "$W/rt.rv" >/dev/null
mttdecode --input=riscv-encap --srcid-bits=16 --ts-bytes=8 -f json "$W/rt.rv" >"$W/rt.json"
tap_check "sizes 1..24, master 7 channel 3, timestamps within the run" \
	swstm_check msgs -m 7 -c 3 -t A -s 1-24 -n 24 -T "$T0:$T1" "$W/rt.json"
tap_check "master 280 channel 700 (a source byte beyond the srcID)" \
	swstm_check msgs -m 280 -c 700 -t B -s 33 -n 6 -T "$T0:$T1" "$W/rt.json"
tap_eq "no loss markers" "markers=0 lost=0" "$(swstm_check losses "$W/rt.json")"
syncs=$(mttdecode --input=riscv-encap -M --stats "$W/rt.rv" 2>&1 >/dev/null | sed -n 's/^syncs: *//p')
n=$(wc -c <"$W/rt.rv")
tap_check "a sync every 1024 bytes ($syncs in $n bytes)" \
	test "$syncs" -ge $((n / (1024 + 60))) -a "$syncs" -le $((n / 1024 + 1))
export_file "$W/rt.rv" swstm-riscv-w16-t8.rv

# --- other widths: none, odd, byte ------------------------------------------------
for wt in "0 0" "11 3" "8 1" "13 8"; do
	set -- $wt
	echo "$1" >$A/srcid_bits && echo "$2" >$A/ts_bytes
	swstm_write -i default -t W -s 1-9 -n 9 >/dev/null
	swstm_write -i big -t X -s 12 -n 2 >/dev/null
	sw_drain "$W/w.rv" >/dev/null
	mttdecode --input=riscv-encap --srcid-bits=$1 --ts-bytes=$2 -f json "$W/w.rv" >"$W/w.json"
	tap_eq "srcID $1 bits, $2-byte timestamps: both sources round trip" \
		"OK OK markers=0 lost=0" \
		"$(swstm_check msgs -m 7 -c 3 -t W -s 1-9 -n 9 "$W/w.json" | head -n 1) $(swstm_check msgs -m 280 -c 700 -t X -s 12 -n 2 "$W/w.json" | head -n 1) $(swstm_check losses "$W/w.json")"
done
echo 16 >$A/srcid_bits && echo 8 >$A/ts_bytes	# mttdecode's defaults

# --- losses ----------------------------------------------------------------------
tap_eq "sink holds 128 packets" 4096 "$(cat $A/size)"
d0=$(sw_attr 0 drops)
# packets per 8-byte message: 1, or 2 with upstream's p_basic (a FLAG)
ppm=$(sw_npackets 8)
tap_match "200 8-byte messages ($ppm packets each) with nobody reading" '^OK' \
	"$(swstm_write -i default -t L -s 8 -n 200)"
sw_drain "$W/l.rv" >/dev/null
d=$(( $(sw_attr 0 drops) - d0 ))
tap_eq "$((200 * ppm - 128)) dropped" $((200 * ppm - 128)) "$d"
mttdecode --input=riscv-encap -f json "$W/l.rv" >"$W/l.json"
# the marker's count saturates at 255
lost=$((200 * ppm - 128))
[ $lost -le 255 ] || lost=255
tap_eq "one GERR marks them, with the exact count" "markers=1 lost=$lost" \
	"$(swstm_check losses "$W/l.json")"
tap_check "the $((128 / ppm)) stored messages round trip" \
	swstm_check msgs -m 7 -c 3 -t L -s 8 -n $((128 / ppm)) "$W/l.json"

# --- back to STPv2 ---------------------------------------------------------------
tap_errno "format=stp" OK fsop write $A/format stp
tap_check "write 3 messages" swstm_write -i default -t S -s 10 -n 3
sw_drain "$W/stp.stp" >/dev/null
sw_decode "$W/stp.stp" "$W/stp.json"
tap_check "the next open reads STPv2 again" \
	swstm_check msgs -m 7 -c 3 -t S -s 10 -n 3 "$W/stp.json"

# --- SyS-T -----------------------------------------------------------------------
# one policy per device: the p_basic one goes first
sw_policy_rm
tap_errno "format=riscv again" OK fsop write $A/format riscv
if mod_load stm_p_sys-t && [ "$(fsop mkdir "$SP")" = OK ] &&
    syst_node default "9 9" "5 5"; then
	printf 'riscv syst' >"$W/s"
	cat "$W/s" >/dev/swstm.0
	sw_drain "$W/s.rv" >/dev/null
	tap_match "a SyS-T message through the encapsulation" \
		'"master":9,"channel":5.*riscv syst' \
		"$(mttdecode --input=riscv-encap --syst -f json "$W/s.rv")"
else
	tap_fail "p_sys-t policy for the SyS-T check"
fi

sw_finish
