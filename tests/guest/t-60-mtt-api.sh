#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The MTT kernel API through p_basic: mtt_test checks every call in the
# kernel, then traces every type once; each must arrive as exactly one
# native frame (checked byte by byte against the layout of mtt.rst by
# mtt_check, not by the decoder): preamble, context id, timestamp, level,
# payload, 12-byte hint.  sysfs: ids, filters, channels; a trace after
# "echo 0 > filter" (component or core) never appears.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/mtt_lib.sh

W=$SW_WORK
C=$MTT_COMPS/mtt_test
tap_check "stack, mtt, policy node mtt, source linked" mtt_setup "" sink_size=4194304
tap_check "source mtt registered" test -d $MTT_SRC
tap_eq "core filter: every level" 0xffffffff "$(cat $MTT_SYS/filter)"
tap_check "load mtt_test" mod_load mtt_test
tap_check "its component in sysfs" test -d $C
tap_eq "a new component lets every level through" 0xffffffff "$(cat $C/filter)"
ID=$(mtt_id mtt_test)
CH=$(cat $C/channel)
tap_match "id allocated (1..0x3fffffff)" '^0x[0-3][0-9a-f]{7}$' "$ID"
tap_match "channel offset" '^[0-9]+$' "$CH"

tap_errno "run api" OK mtt_run api
tap_eq "every API call as expected" ok "$(cat /sys/module/mtt_test/parameters/result)"

# run-time filters: component, then core
tap_errno "component filter off" OK fsop write $C/filter 0
tap_eq "filter reads back" 0x00000000 "$(cat $C/filter)"
mtt_run "trace 5" >/dev/null
tap_errno "component filter INFO only" OK fsop write $C/filter 20000000
mtt_run "trace 3" >/dev/null
tap_errno "core filter off" OK fsop write $MTT_SYS/filter 0
mtt_run "trace 4" >/dev/null
tap_errno "core filter back" OK fsop write $MTT_SYS/filter ffffffff
tap_errno "bad filter refused" EINVAL fsop write $C/filter xyz
tap_errno "channel out of range refused" ERANGE fsop write $C/channel 1000

mtt_frames $W/a.stp $W/f.txt
tap_eq "no malformed frame" 0 "$(grep -c error= $W/f.txt)"
n=$(grep -c " comp=$ID " $W/f.txt)
tap_eq "frames of mtt_test = its sent count" "sent $n" "$(head -n 1 $C/stats)"
tap_eq "nothing dropped" "dropped 0" "$(tail -n 1 $C/stats)"
tap_eq "all on master 2, channel $CH" "$n" "$(grep -c "^m=2 c=$CH .* comp=$ID " $W/f.txt)"
tap_eq "META frame names the component" 1 \
	"$(grep -c "cmd=0x4000 flags=0x0003 .* comp=$ID tid=0x00000000 type=0x01020008 .* level=- hint=- size=8 data=$(mtt_hex mtt_test)\$" $W/f.txt)"

# the api run's frames: one thread (fsop's), not 0 (task context)
PID=$(grep ' hint=u8 ' $W/f.txt | sed 's/.* ctx=\([0-9]*\) .*/\1/')
tap_match "context id: the writer's thread id" '^[1-9][0-9]*$' "$PID"
# want HINT TYPE LEVEL DATA: exactly one TRACE frame like that
want() {
	tap_eq "$1: type $2, level $3, payload $4" 1 \
		"$(grep -c "cmd=0x0000 flags=0x00.f target=[01] comp=$ID tid=0x[0-9a-f]* type=$2 ctx=$PID ts=[0-9]* level=$3 hint=$1 size=[0-9]* data=$4\$" $W/f.txt)"
}
want u8 0x01000001 0x20000000 a5
want i8 0x02000001 0x20000000 fe
want u16 0x03000002 0x20000000 efbe
want i16 0x04000002 0x20000000 fdff
want signal0 0x05000004 0x20000000 92100000
want i32 0x06000004 0x20000000 fcffffff
want u64 0x07000008 0x20000000 efcdab8967452301
want i64 0x08000008 0x20000000 fbffffffffffffff
want float 0x09000004 0x20000000 db0f4940
want double 0x0a000008 0x20000000 182d4454fb210940
want bool 0x0b000004 0x20000000 01000000
want ptr32 0x05040004 0x20000000 00eeffc0
want string 0x01020009 0x20000000 "$(mtt_hex 'hello mtt')"
want blob 0x01010005 0x20000000 0102030405
want dump 0x0505000c 0x20000000 efbeadde7856341200000000
want vu16 0x03010006 0x20000000 010002000300
want vi32 0x06010008 0x20000000 ffffffff07000000
want vu64 0x07010010 0x20000000 0100000000000000ffffffffffffffff
want a_long_hint_ 0x05000004 0x40000000 92100000
tap_eq "no hint: flags 0x0007, hint - (3 traces, 1 print)" 4 \
	"$(grep -c "cmd=0x0000 flags=0x0007 .* comp=$ID .* hint=- " $W/f.txt)"
tap_eq "mtt_trace16/32 and a USER level" 3 \
	"$(grep -c -e 'type=0x03000002 .* level=0x10000000 hint=- size=2 data=efbe$' \
		-e 'type=0x05000004 .* level=0x80000000 hint=- size=4 data=92100000$' \
		-e 'type=0x05000004 .* level=0x00000008 hint=- size=4 data=92100000$' $W/f.txt)"
tap_eq "mtt_print: text without NUL, STRING(12), API_RETURN" 1 \
	"$(grep -c "cmd=0x0000 flags=0x0007 .* type=0x0102000c ctx=$PID .* level=0x00020000 hint=- size=12 data=$(mtt_hex 'print 42 abc')\$" $W/f.txt)"
tap_eq "mtt_data_raw: RAW, BLOB(5)" 1 \
	"$(grep -c "cmd=0x8000 flags=0x0007 .* type=0x01010005 .* level=0x20000000 hint=- size=5 data=$(mtt_hex 'raw!!')\$" $W/f.txt)"
tap_eq "filtered traces never appear" 0 "$(grep -c hint=filtered $W/f.txt)"
tap_eq "seq after the filter changes: only the INFO-only run (3)" "1 2 3" \
	"$(grep "hint=seq " $W/f.txt | sed 's/.*data=\(..\).*/\1/' | sed 's/^0//' | tr '\n' ' ' | sed 's/ $//')"

# sharing and pinning
tap_errno "pin the channel" OK fsop write $C/channel 7
tap_eq "channel reads back" 7 "$(cat $C/channel)"
mtt_run "trace 2" >/dev/null
mtt_frames $W/b.stp $W/g.txt
tap_eq "traces on the pinned channel" 2 "$(grep -c "^m=2 c=7 .* hint=seq " $W/g.txt)"

tap_check "unload mtt_test" mod_unload mtt_test
tap_check "its component is gone" test ! -e $C
export_file $W/a.stp mtt-api.stp
sw_finish
exit 0
