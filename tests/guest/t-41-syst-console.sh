#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stm_console through p_sys-t: linking registers a console that replays
# the log buffer and then sends every printk record as one SyS-T message
# with the "console" node's uuid; marker lines written to /dev/kmsg arrive
# intact and in order; unlinking unregisters the console.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/syst_lib.sh

W=$SW_WORK
SRC=/sys/class/stm_source/console
syst_load sink_size=16777216 || tap_fail "load the stack and stm_p_sys-t"
tap_check "load stm_console" mod_load stm_console
tap_check "source 'console' registered" test -d $SRC
tap_errno "p_sys-t policy" OK fsop mkdir $SP
syst_node console "4 4" "2 2"
syst_node default "4 4" "3 3"
U=$(cat $SP/console/uuid)

tap_check "no stm console before the link" sh -c '! grep -q "^stm_console" /proc/consoles'
echo "syst-console-prelink-$$" >/dev/kmsg
# A reader drains the sink while the console prints: where consoles print
# from a thread (PREEMPT_RT), the test waits for the last line to arrive
# before it unlinks, instead of assuming printk has printed it by then.
sw_reader $W/c.stp
tap_errno "link console to swstm.0" OK fsop writeln $SRC/stm_source_link swstm.0
tap_eq "linked" swstm.0 "$(cat $SRC/stm_source_link)"
tap_check "stm_console is in /proc/consoles" grep -q '^stm_console' /proc/consoles
# a setting changed after the link does not apply to the linked console
syst_set console severity 2
i=1
while [ $i -le 50 ]; do
	echo "syst-console-marker-$i" >/dev/kmsg
	i=$((i + 1))
done
LONG=$(head -c 300 /dev/zero | tr '\0' 'L')
echo "syst-console-long-$LONG-end" >/dev/kmsg
long_arrived() {
	mttdecode --no-syst --format json $W/c.stp >$W/peek.json &&
		syst_check msgs -m 4 -c 2 $W/peek.json | grep -q 'syst-console-long-L*-end'
}
tap_check "the last line reached the sink (waited for, at most 600 s)" wait_until 600 long_arrived
tap_errno "unlink" EINVAL fsop write $SRC/stm_source_link none
tap_check "stm_console left /proc/consoles" sh -c '! grep -q "^stm_console" /proc/consoles'
echo "syst-console-after-unlink-$$" >/dev/kmsg

sw_reader_stop
mttdecode --no-syst --format json $W/c.stp >$W/c.json
syst_packets $W/c.stp $W/c-pk.json
syst_check msgs -m 4 -c 2 $W/c.json >$W/c.txt
n=$(grep -c . $W/c.txt)
tap_check "console messages captured ($n)" test "$n" -ge 52
tap_eq "every message: header 0x01800042 (upstream, severity 4 kept)" "$n" "$(grep -c ' hdr=0x01800042 ' $W/c.txt)"
tap_eq "every message: the console node's uuid" "$n" "$(grep -c " guid=$U " $W/c.txt)"
tap_eq "no decode errors" 0 "$(grep -c ' error=' $W/c.txt)"
tap_eq "nothing on other channels" "$n" "$(syst_check msgs $W/c.json | grep -c .)"
tap_check "STP framing: D32TS header ... FLAG" syst_check frames -m 4 -c 2 $W/c-pk.json

# the texts, as the console got them: "[  time] text\n"
syst_check msgs -m 4 -c 2 $W/c.json | sed -n 's/.* text=//p' >$W/texts.txt
tap_check "replayed log: the line printed before the link (CON_PRINTBUFFER)" \
	grep -q "syst-console-prelink-$$" $W/texts.txt
tap_check "the 'console enabled' line" grep -q 'console \[stm_console' $W/texts.txt
grep 'syst-console-marker-' $W/texts.txt >$W/markers.txt
seq 1 50 | sed 's/^/syst-console-marker-/' >$W/markers.want
sed 's/^\[ *[0-9]*\.[0-9]*\] //; s/\\x0a$//' $W/markers.txt >$W/markers.got
tap_check "50 markers, intact and in order" cmp -s $W/markers.want $W/markers.got
tap_eq "each marker is one record: '[time] text' and a newline" 50 \
	"$(grep -c '^\[ *[0-9]*\.[0-9]\{6\}\] syst-console-marker-[0-9]*\\x0a$' $W/markers.txt)"
tap_check "a 330-byte line arrives whole" grep -q "syst-console-long-$LONG-end\\\\x0a\$" $W/texts.txt
tap_check "nothing after the unlink" sh -c "! grep -q syst-console-after-unlink $W/texts.txt"
tap_check "console text equals the kernel log's" \
	sh -c "dmesg | grep -o 'syst-console-marker-[0-9]*\$' | cmp -s - $W/markers.want"

syst_policy_dump $W/policy.txt
if syst_has_decoder; then
	mttdecode --syst --policy $W/policy.txt --format json $W/c.stp >$W/syst.json 2>$W/syst.err
	tap_eq "mttdecode --syst: the 50 markers" 50 \
		"$(grep '"kind":"syst"' $W/syst.json | grep -c 'syst-console-marker-')"
	tap_eq "mttdecode --syst --policy: every message from source console" "$n" \
		"$(grep '"kind":"syst"' $W/syst.json | grep -c '"source":"console"')"
	mttdecode --syst --policy $W/policy.txt --format chrome $W/c.stp >$W/trace.json 2>$W/syst.err
	tap_check "mttdecode --format chrome: the console track and the markers" \
		sh -c "grep -q '\"name\":\"console\"' $W/trace.json && grep -q 'syst-console-marker-50' $W/trace.json"
else
	tap_skip "mttdecode --syst" "decoder without --syst"
fi
export_file $W/c.stp syst-console.stp
export_file $W/policy.txt syst-console.policy

# relink: the console registers again (and replays again).  As above,
# the line is waited for before the unlink: on PREEMPT_RT the console
# prints from a thread, which an unlink right after the write can beat.
relinked_arrived() {
	mttdecode --no-syst --format json $W/c2.stp >$W/peek.json &&
		syst_check msgs -m 4 -c 2 $W/peek.json | grep -q "syst-console-relinked-$$"
}
sw_reader $W/c2.stp
tap_errno "relink" OK fsop write $SRC/stm_source_link swstm.0
echo "syst-console-relinked-$$" >/dev/kmsg
tap_check "after relink: new records arrive (waited for, at most 600 s)" wait_until 600 relinked_arrived
tap_errno "unlink again" EINVAL fsop write $SRC/stm_source_link none
sw_reader_stop
mttdecode --no-syst --format json $W/c2.stp >$W/c2.json
syst_check msgs -m 4 -c 2 $W/c2.json >$W/c2.txt
if stm_class_upstream; then
	tap_skip "after relink: severity 2, copied at the new link" \
		"upstream 6.12's p_sys-t has no severity attribute"
else
	tap_check "after relink: severity 2, copied at the new link" grep -q ' hdr=0x01800022 ' $W/c2.txt
fi

# unloading while linked unlinks (and unregisters the console)
tap_errno "link once more" OK fsop write $SRC/stm_source_link swstm.0
tap_check "rmmod stm_console while linked" mod_unload stm_console
tap_check "the console is gone" sh -c '! grep -q "^stm_console" /proc/consoles'
echo "syst-console-after-rmmod" >/dev/kmsg

sw_finish
exit 0
