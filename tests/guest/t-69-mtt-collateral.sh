#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# MTT's collateral.xml and components/* are root only: user nobody is
# refused.  collateral.xml carries its generation at its start and its
# end; a reader whose reads interleave with another reader's, with a
# component closed or opened in between, gets one whole document or a
# document whose two generations differ (Documentation/mtt.rst,
# "Collateral for dictionaries"); nothing changed, nothing is rebuilt.
. /stm/tests/lib.sh
. /stm/tests/swstm_lib.sh
. /stm/tests/mtt_lib.sh

W=$SW_WORK
C=$MTT_SYS/collateral.xml
tap_check "stack, mtt, policy node mtt, source linked" mtt_setup ""
tap_check "load mtt_test: the first component" mod_load mtt_test
tap_check "load mtt_peer: 16 components after it" mod_load mtt_peer comps=16 n=1

# --- root only ----------------------------------------------------------------
mode() { # mode FILE: its mode as ls -l shows it
	ls -l "$1" | cut -c1-10
}
tap_eq "collateral.xml: 0400" -r-------- "$(mode $C)"
tap_eq "a component's id, filter, channel, source, stats: 0400 0600 0600 0400 0400" \
	"-r-------- -rw------- -rw------- -r-------- -r--------" \
	"$(for f in id filter channel source stats; do mode $MTT_COMPS/mtt_test/$f; done | tr '\n' ' ' | sed 's/ $//')"
tap_check "user nobody reads hints (0644: su works)" as_nobody cat $MTT_SYS/hints
tap_fails "user nobody cannot read collateral.xml" as_nobody cat $C
for f in id filter channel source stats; do
	tap_fails "user nobody cannot read components/mtt_test/$f" as_nobody cat $MTT_COMPS/mtt_test/$f
done
tap_fails "user nobody cannot write components/mtt_test/filter" as_nobody "echo 0 >$MTT_COMPS/mtt_test/filter"
tap_eq "root still can: filter" 0xffffffff "$(cat $MTT_COMPS/mtt_test/filter)"

# --- one document per reader ------------------------------------------------------
# gen_start FILE, gen_end FILE: the generation of the marker on the
# document's second line, on its last line (empty if none)
gen_start() {
	sed -n '2s/^<!-- mtt collateral generation \([0-9][0-9]*\) -->$/\1/p' "$1"
}
gen_end() {
	tail -n 1 "$1" | sed -n 's/^<!-- mtt collateral generation \([0-9][0-9]*\) -->$/\1/p'
}
# whole FILE: the generation at its start and its end agree
whole() {
	[ -n "$(gen_start "$1")" ] && [ "$(gen_start "$1")" = "$(gen_end "$1")" ]
}
# same_whole R B: B is R byte for byte, and whole
same_whole() {
	cmp "$1" "$2" && whole "$2"
}
# one_or_seen A R0 R1: A is R0 or R1 byte for byte, or its generations differ
one_or_seen() {
	cmp -s "$1" "$2" || cmp -s "$1" "$3" ||
		{ [ -n "$(gen_start "$1")" ] && [ -n "$(gen_end "$1")" ] &&
		  [ "$(gen_start "$1")" != "$(gen_end "$1")" ]; }
}
# interleave A B CMD: reader A reads 1 KiB from offset 0, CMD runs,
# reader B reads the whole file, A reads the rest
interleave() {
	exec 3<$C
	dd bs=1024 count=1 <&3 >"$1" 2>/dev/null
	$3 >/dev/null 2>&1
	cat $C >"$2"
	cat <&3 >>"$1"
	exec 3<&-
}

cat $C >$W/r0.xml
tap_check "a whole read: the generation at its start and its end agree" whole $W/r0.xml
tap_match "17 components make it more than 1 KiB" '^(1[1-9]|[2-9][0-9])[0-9][0-9]$' "$(wc -c <$W/r0.xml)"
cat $C >$W/r0b.xml
tap_check "read again, nothing changed: the same document" cmp $W/r0.xml $W/r0b.xml
interleave $W/a0.xml $W/b0.xml true
tap_check "two readers interleaved, nothing changed: A has the document" cmp $W/r0.xml $W/a0.xml
tap_check "... and so has B" cmp $W/r0.xml $W/b0.xml

interleave $W/a1.xml $W/b1.xml "rmmod mtt_test"
cat $C >$W/r1.xml
tap_eq "mtt_test closed between A's reads" "" "$(ls $MTT_COMPS | grep -x mtt_test)"
tap_check "B, reading after the close: the new document, whole" same_whole $W/r1.xml $W/b1.xml
tap_eq "the close changed the generation by one" "$(($(gen_start $W/r0.xml) + 1))" "$(gen_start $W/r1.xml)"
if ! tap_check "A: one document, or the mixing shows in its generations" one_or_seen $W/a1.xml $W/r0.xml $W/r1.xml; then
	tap_diag "$(diff $W/r0.xml $W/a1.xml | head -n 20)"
fi

interleave $W/a2.xml $W/b2.xml "mod_load mtt_test"
cat $C >$W/r2.xml
tap_check "B, reading after mtt_test opened again: the new document, whole" same_whole $W/r2.xml $W/b2.xml
tap_check "A: one document, or the mixing shows in its generations" one_or_seen $W/a2.xml $W/r1.xml $W/r2.xml

tap_check "unload mtt_peer, mtt_test" sh -c 'rmmod mtt_peer && rmmod mtt_test'
tap_check "unload mtt" mod_unload mtt
tap_dmesg_clean "kernel log clean"
sw_finish
exit 0
