#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# MTT hints as dictionary ids: mtt_test's api run (every type, hinted and
# not) traced with hints inline, then twice with /sys/kernel/mtt/hints =
# dict.  Dict frames carry DICT and the id instead of a HINT, the same id
# for the same hint in both runs; /sys/kernel/mtt/collateral.xml names
# the ids and the component (its META frame is only in the inline
# run's capture); mttdecode with it (--collateral, and as
# "mttdecode DIR" of a session directory holding it) prints every value
# named exactly as the inline run does, and without it does not.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/mtt_lib.sh

W=$SW_WORK
tap_check "stack, mtt, policy node mtt, source linked" mtt_setup "" sink_size=4194304
tap_check "load mtt_test" mod_load mtt_test
ID=$(mtt_id mtt_test)
tap_eq "hints inline by default" inline "$(cat $MTT_SYS/hints)"
tap_errno "an unknown mode is refused" EINVAL fsop write $MTT_SYS/hints bogus
tap_errno "api run, hints inline" OK mtt_run api
sw_drain $W/a.stp >/dev/null
tap_errno "hints = dict" OK fsop write $MTT_SYS/hints dict
tap_eq "reads back" dict "$(cat $MTT_SYS/hints)"
tap_errno "api run, dict" OK mtt_run api
sw_drain $W/b.stp >/dev/null
tap_errno "api run again" OK mtt_run api
sw_drain $W/c.stp >/dev/null
tap_errno "hints = inline" OK fsop write $MTT_SYS/hints inline
cp $MTT_SYS/collateral.xml $W/coll.xml
tap_check "collateral.xml copied" test -s $W/coll.xml
tap_eq "it names the component" 1 \
	"$(grep -c "<syst:Module ID=\"$ID\"><!\[CDATA\[mtt_test\]\]></syst:Module>" $W/coll.xml)"
tap_eq "it names a hint" 1 "$(grep -c '<syst:Format ID="0x[0-9a-f]*" Mask="0xffffffff"><!\[CDATA\[signal0\]\]>' $W/coll.xml)"

# the frames (mtt_check, not the decoder)
for r in a b c; do
	mttdecode --no-mtt --no-syst --format json $W/$r.stp >$W/$r.json
	mtt_check frames $W/$r.json | grep " comp=$ID " >$W/$r.txt
done
tap_eq "no malformed frame" 0 "$(cat $W/a.txt $W/b.txt $W/c.txt | grep -c error=)"
nh=$(grep -c ' cmd=0x0000 flags=0x000f ' $W/a.txt)
tap_match "inline: hinted frames ($nh)" '^[1-9][0-9]*$' "$nh"
tap_eq "dict: as many DICT frames, no HINT" "$nh 0" \
	"$(grep -c ' cmd=0x0000 flags=0x0017 .* hint=- ' $W/b.txt) $(grep -c ' flags=0x00.[89a-f] ' $W/b.txt)"
tap_eq "the same frames otherwise" "$(grep -v -c ' cmd=0x4000 ' $W/a.txt)" "$(wc -l <$W/b.txt)"
# ids: the trace id of each DICT frame, in order; same in both runs
ids() {
	grep ' flags=0x0017 ' "$1" | sed 's/.* tid=\(0x[0-9a-f]*\) .*/\1/' | tr '\n' ' '
}
tap_eq "each hint keeps its id" "$(ids $W/b.txt)" "$(ids $W/c.txt)"

# decoded: name = value, with the collateral as inline
named() { # named TEXT: mtt_test's TRACE/RAW lines without time, where, ctx, cpu
	grep " mtt_test " "$1" | grep -v ' MTT META ' |
		sed 's/^ *[0-9-]* [^ ]* //; s/ ctx [0-9]*//; s/ cpu [0-9]*$//'
}
mttdecode $W/a.stp >$W/a.dec
mttdecode --collateral $W/coll.xml $W/b.stp >$W/b.dec
mttdecode $W/b.stp >$W/b0.dec
named $W/a.dec >$W/a.n
named $W/b.dec >$W/b.n
tap_match "inline: signal0 named" 'signal0 = 4242' "$(cat $W/a.n)"
tap_eq "inline: every frame decoded" "$(grep -v -c ' cmd=0x4000 ' $W/a.txt)" "$(wc -l <$W/a.n)"
tap_eq "dict + collateral: every line as inline" "" "$(diff $W/a.n $W/b.n)"
tap_eq "dict without collateral: no value named signal0" 0 "$(grep -c 'signal0 = ' $W/b0.dec)"
# a session directory holding the collateral (what mttcontrol writes)
mkdir $W/sess
: >$W/sess/mttsession
cp $W/b.stp $W/sess/stream-0000.stp
cp $W/coll.xml $W/sess/collateral.xml
mttdecode $W/sess >$W/s.dec
named $W/s.dec >$W/s.n
tap_eq "mttdecode DIR uses the session's collateral.xml" "" "$(diff $W/a.n $W/s.n)"

tap_check "unload mtt_test" mod_unload mtt_test
tap_check "unload mtt" mod_unload mtt
tap_dmesg_clean "kernel log clean"
sw_finish
exit 0
