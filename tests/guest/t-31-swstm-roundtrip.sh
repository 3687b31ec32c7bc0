#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# write(2) -> STM class -> p_basic -> swstm -> sink -> mttdecode, byte for
# byte: message sizes 1..64 and odd sizes up to PAGE_SIZE-1, masters
# above 255 (M16) and channels above 255 (C16), reads of 1 and 7 bytes,
# timestamps in nanoseconds within the writers' run, the sysfs counters,
# and OpenCSD's view of the same capture.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh

W=$SW_WORK
# rt_load [SWSTM_PARAMS...]: the stack and the test's policy nodes
rt_load() {
	stack_load master_max=300 nr_channels=1024 sink_size=16777216 "$@" &&
		sw_policy swstm.0.rt &&
		sw_node swstm.0.rt a "7 7" "3 3" &&
		sw_node swstm.0.rt b "7 7" "200 200" &&
		sw_node swstm.0.rt big "280 280" "700 700" &&
		sw_node swstm.0.rt mix "255 255" "256 256" &&
		sw_node swstm.0.rt d "7 7" "4 4"
}
rt_load

ODD=4095,4094,4093,4088,2049,1000,999,777,257,255,129,3
tms=
# wr NODE TAG SIZES COUNT: write, note the bytes and packets sent
bytes=0
pkts=0
wr() {
	local out
	out=$(swstm_write -i "$1" -t "$2" -s "$3" -n "$4" -T)
	tap_match "write $4 messages (tag $2, sizes $3) on node $1" '^OK' "$out"
	tms="$tms $(echo "$out" | sed -n 's/^t0=\([0-9]*\) t1=\([0-9]*\)$/\1:\2/p')"
}
# account SIZES...: add messages of these sizes to bytes and pkts
account() {
	local s
	for s in "$@"; do
		bytes=$((bytes + s))
	done
	sw_npackets_sum "$@"
	pkts=$((pkts + SW_NPK))
}

wr a A 1-64 64
wr b B $ODD 12
wr big C 1-40 40
wr d D 100 5
wr mix E 17 3
account $(seq 1 64) $(echo $ODD | tr ',' ' ') $(seq 1 40) 100 100 100 100 100 17 17 17

T0=$(echo $tms | tr ' ' '\n' | head -n 1 | cut -d: -f1)
T1=$(echo $tms | tr ' ' '\n' | tail -n 1 | cut -d: -f2)

n=$(sw_drain $W/rt.stp)
tap_check "capture is not empty" test -s $W/rt.stp
tap_check "mttdecode the capture" sw_decode $W/rt.stp $W/rt.json
tap_check "sizes 1..64 round trip (master 7, channel 3)" \
	swstm_check msgs -m 7 -c 3 -t A -s 1-64 -n 64 -T "$T0:$T1" $W/rt.json
tap_check "odd sizes up to 4095 round trip (channel 200, C8)" \
	swstm_check msgs -m 7 -c 200 -t B -s $ODD -n 12 -T "$T0:$T1" $W/rt.json
tap_check "master 280 (M16), channel 700 (C16) round trip" \
	swstm_check msgs -m 280 -c 700 -t C -s 1-40 -n 40 -T "$T0:$T1" $W/rt.json
tap_check "back to master 7 (M8 after M16)" \
	swstm_check msgs -m 7 -c 4 -t D -s 100 -n 5 -T "$T0:$T1" $W/rt.json
tap_check "master 255, channel 256" \
	swstm_check msgs -m 255 -c 256 -t E -s 17 -n 3 -T "$T0:$T1" $W/rt.json
tap_eq "no loss markers" "markers=0 lost=0" "$(swstm_check losses $W/rt.json)"
tap_eq "packets counter" "$pkts" "$(sw_attr 0 packets)"
tap_eq "bytes_written counter" "$bytes" "$(sw_attr 0 bytes_written)"
tap_eq "bytes_read counter is the capture size" "$n" "$(sw_attr 0 bytes_read)"
tap_eq "drops counter" 0 "$(sw_attr 0 drops)"
tap_check "one sync at the start, every 4096 bytes after" swstm_check sync -i 4096 $W/rt.stp
export_file $W/rt.stp swstm-m16-roundtrip.stp

# --- tiny reads --------------------------------------------------------------
for b in 1 7; do
	wr a A 1-64 64
	wr b B $ODD 12
	sw_drain $W/r$b.stp -b $b >/dev/null
	tap_check "reads of $b bytes: mttdecode" sw_decode $W/r$b.stp $W/r$b.json
	tap_check "reads of $b bytes: sizes 1..64" \
		swstm_check msgs -m 7 -c 3 -t A -s 1-64 -n 64 $W/r$b.json
	tap_check "reads of $b bytes: odd sizes" \
		swstm_check msgs -m 7 -c 200 -t B -s $ODD -n 12 $W/r$b.json
	tap_check "reads of $b bytes: syncs" swstm_check sync -i 4096 $W/r$b.stp
done

# --- OpenCSD reads the same packets --------------------------------------------
# (OpenCSD rejects M16, so this capture has masters below 256 only)
# (the arm64 lane has no OpenCSD in the guest: the host check
# swstm-opencsd.sh decodes the export below with the host's)
if command -v trc_pkt_lister >/dev/null; then
	sh /stm/tests/lib/opencsd.sh $W/r7.stp >$W/ocsd.txt
	sh /stm/tests/lib/opencsd.sh --mttdecode $W/r7.stp >$W/mtt.txt
	tap_check "OpenCSD decodes the capture" test -s $W/ocsd.txt
	tap_check "OpenCSD and mttdecode agree on every data packet" diff $W/ocsd.txt $W/mtt.txt
else
	why="no trc_pkt_lister in this guest ($(uname -m)): host check swstm-opencsd"
	tap_skip "OpenCSD decodes the capture" "$why"
	tap_skip "OpenCSD and mttdecode agree on every data packet" "$why"
fi
export_file $W/r7.stp swstm-ocsd-roundtrip.stp

# --- a message in one call, or a call per packet: the same packets ----------
# Our class hands swstm a message's DATA packets in one call
# (stm_data::data_run, our extension: Documentation/abi.rst); loaded with
# data_run=0, swstm takes them one call per packet, as on upstream's
# class.  Both must give the same packets: master, channel, size, value,
# mark, and which packet is stamped.
# rt_packets FILE: FILE's data packets without the timestamps' values
rt_packets() {
	sh /stm/tests/lib/opencsd.sh --mttdecode "$1" |
		awk '{ print $1, $2, $3, $4, $5, ($6 == "-" ? "-" : "ts") }'
}
if [ ! -e /sys/module/swstm/parameters/data_run ]; then
	why="swstm built without STM_DATA_HAS_RUN (upstream's class): a call per packet only"
	tap_skip "data_run on by default" "$why"
	tap_skip "a message in one call and a call per packet: the same packets" "$why"
	tap_skip "p_sys-t: its fields in one run and a call per packet: the same packets" "$why"
	tap_skip "p_sys-t: first message's packets: D32 ts, D64, D64, D16, D8" "$why"
else
	tap_eq "data_run on by default" Y "$(cat /sys/module/swstm/parameters/data_run)"
	wr a A 1-64 64
	wr b B $ODD 12
	wr mix E 17 3
	sw_drain $W/run.stp >/dev/null
	sw_policy_rm
	mod_unload swstm
	if rt_load data_run=0; then
		wr a A 1-64 64
		wr b B $ODD 12
		wr mix E 17 3
		sw_drain $W/pkt.stp >/dev/null
		rt_packets $W/run.stp >$W/run.txt
		rt_packets $W/pkt.stp >$W/pkt.txt
		tap_check "a message in one call and a call per packet: the same packets" \
			sh -c "test -s $W/run.txt && cmp -s $W/run.txt $W/pkt.txt"
		tap_diag "data packets: $(wc -l <$W/run.txt) with data_run, $(wc -l <$W/pkt.txt) with data_run=0"
	else
		tap_fail "a message in one call and a call per packet: the same packets"
		tap_diag "could not load swstm data_run=0"
	fi
	# p_sys-t sends a message's header, GUID, length and payload as
	# the pieces of one run (stm_data_writev()): the packets must be
	# those of a write per field (D32TS, two D64, D16, the payload's),
	# as the class gives them piece by piece with data_run=0.  A fixed
	# uuid, do_len and crc: both runs write the same bytes.
	rt_syst() {
		local n=$CFG/swstm.0:p_sys-t.rt/s
		sw_policy_rm
		mod_unload swstm
		stack_load master_max=300 nr_channels=1024 sink_size=16777216 "$@" &&
			{ mod_loaded stm_p_sys_t || mod_load stm_p_sys-t; } &&
			sw_policy swstm.0:p_sys-t.rt &&
			sw_node swstm.0:p_sys-t.rt s "9 9" "5 5" &&
			echo 00112233-4455-6677-8899-aabbccddeeff >$n/uuid &&
			echo 1 >$n/do_len && echo 1 >$n/crc &&
			swstm_write -i s -t S -s 1,2,3,4,5,7,8,9,15,16,17,24,31,40,255,4095 -n 32 | grep -q '^OK' &&
			sw_drain $W/syst-$1.stp >/dev/null
	}
	if rt_syst run && rt_syst pkt data_run=0; then
		rt_packets $W/syst-run.stp >$W/syst-run.txt
		rt_packets $W/syst-pkt.stp >$W/syst-pkt.txt
		tap_check "p_sys-t: its fields in one run and a call per packet: the same packets" \
			sh -c "test -s $W/syst-run.txt && cmp -s $W/syst-run.txt $W/syst-pkt.txt"
		tap_diag "p_sys-t data packets: $(wc -l <$W/syst-run.txt) in runs, $(wc -l <$W/syst-pkt.txt) with data_run=0"
		# the first message: its header alone in a D32 (stamped), the
		# GUID in two D64, the length (1) in a D16, then its 1 byte
		tap_eq "p_sys-t: first message's packets: D32 ts, D64, D64, D16, D8" \
			"32 ts 64 - 64 - 16 - 8 -" \
			"$(head -n 5 $W/syst-run.txt | awk '{ printf "%s%s %s", (NR > 1 ? " " : ""), $3, $6 }')"
	else
		tap_fail "p_sys-t: its fields in one run and a call per packet: the same packets"
		tap_fail "p_sys-t: first message's packets: D32 ts, D64, D64, D16, D8"
		tap_diag "could not load, write or drain p_sys-t with and without data_run"
	fi
fi

sw_finish
exit 0
