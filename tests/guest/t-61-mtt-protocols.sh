#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# MTT frames under each protocol.  p_mtt: the mtt source's frames go out
# unchanged, a plain /dev/swstm.0 write is wrapped into a TRACE frame
# (STRING, context id and timestamp, component 0).  p_sys-t: each frame
# is the payload of a RAW message of subtype 0x31 whose severity comes
# from the frame's level and whose origin field is the component id.
# Frames are checked by mtt_check (layout of mtt.rst), not the decoder.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/mtt_lib.sh
if stm_class_upstream; then
	tap_skip "MTT through p_mtt and p_sys-t" \
		"p_mtt needs our class (not built where the kernel has one) and upstream's p_sys-t has no MTT frames (Documentation/kernels.rst)"
	exit 0
fi

W=$SW_WORK
mtt_setup p_mtt sink_size=4194304 && tap_ok "stack, mtt, p_mtt policy, source linked" ||
	tap_fail "stack, mtt, p_mtt policy, source linked"
sw_node $MTT_POL default "3 3" "0 15"
tap_check "load mtt_test" mod_load mtt_test
ID=$(mtt_id mtt_test)
tap_errno "p_mtt: 4 traces" OK mtt_run "trace 4"
printf 'hello' >/dev/swstm.0
mtt_frames $W/a.stp $W/a.txt
tap_eq "p_mtt: no malformed frame" 0 "$(grep -c error= $W/a.txt)"
tap_eq "p_mtt: the 4 traces, unchanged" 4 \
	"$(grep -c "^m=2 .*cmd=0x0000 flags=0x000f .* comp=$ID .* type=0x05000004 .* level=0x20000000 hint=seq " $W/a.txt)"
tap_eq "p_mtt: a plain write wrapped: STRING(5), ctx+ts, component 0" 1 \
	"$(grep -c "^m=3 c=0 cmd=0x0000 flags=0x0003 target=[01] comp=0x00000000 tid=0x00000000 type=0x01020005 ctx=[1-9][0-9]* ts=[0-9]* level=- hint=- size=5 data=$(mtt_hex hello)\$" $W/a.txt)"

# p_sys-t: a new policy, the source relinked
fsop write $MTT_SRC/stm_source_link none >/dev/null
sw_policy_rm
mtt_setup p_sys-t && tap_ok "p_sys-t policy, source relinked" ||
	tap_fail "p_sys-t policy, source relinked"
tap_errno "p_sys-t: 3 traces" OK mtt_run "trace 3"
mod_load mtt_peer comps=1 n=2
PID1=$(mtt_id peer0)
sw_drain $W/b.stp >/dev/null
mttdecode --no-mtt --no-syst --format json $W/b.stp >$W/b.json
syst_check msgs -m 2 $W/b.json >$W/b.txt
syst_check unwrap -m 2 $W/b.json >$W/bu.json
mtt_check frames $W/bu.json >$W/bu.txt
U=$(cat $CFG/$MTT_POL/mtt/uuid)
# header: type 6 (RAW), subtype 0x31, severity 4 (INFO), GUID, origin = id & 0x7ff
HDR=$(printf '0x%08x' $((0x31800046 | (ID & 0x7ff) << 12)))
tap_eq "p_sys-t: 4 RAW/MTT messages for mtt_test (META at the link, 3 traces), header $HDR" 4 \
	"$(grep -c " hdr=$HDR .* guid=$U " $W/b.txt)"
tap_eq "p_sys-t: no malformed message" 0 "$(grep -c ' error=' $W/b.txt)"
tap_eq "p_sys-t: payloads are whole frames" 0 "$(grep -c error= $W/bu.txt)"
tap_eq "p_sys-t: the 3 seq frames" "1 2 3" \
	"$(grep " comp=$ID .*hint=seq " $W/bu.txt | sed 's/.*data=0\(.\).*/\1/' | tr '\n' ' ' | sed 's/ $//')"
tap_eq "p_sys-t: peer0's META and 2 traces" 3 "$(grep -c " comp=$PID1 " $W/bu.txt)"
tap_eq "p_sys-t: peer0's 3 messages INFO (META has no level: INFO)" 3 \
	"$(grep -c " hdr=$(printf '0x%08x' $((0x31800046 | (PID1 & 0x7ff) << 12))) " $W/b.txt)"
export_file $W/a.stp mtt-p_mtt.stp
export_file $W/b.stp mtt-syst.stp
sw_finish
exit 0
