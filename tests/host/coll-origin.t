#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# coll-origin.t - a collateral client describes its own source's messages
# only: make demo's shape (tests/host/src/systmix.c "demo": the console,
# the shell and an origin node through p_sys-t, each with its own GUID or
# origin, and MTT's RAW:0x31 messages with MTT's GUID) decoded with
# collateral like drivers/mtt/collateral.c writes (client "mtt", Modules,
# Write/Protocol 0x31), with MTT's Guid as the kernel now writes it and
# without, as it once did: no other source's message is ever labelled
# "mtt" (a client without Guids matches no message, as in the reference
# printer), MTT components are named from the client "mtt" either way,
# and with the Guid MTT's own messages get the client and its protocol
# name.  mttdecode is built with ASan + UBSan.
. "$(dirname "$0")/lib.sh"
asan_mttdecode
stream_gen systmix "$TMP/demo.stp" demo

cat >"$TMP/new.xml" <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<syst:Collateral xmlns:syst="http://www.mipi.org/1.0/sys-t">
  <syst:Client Name="mtt">
    <syst:Guids>
      <syst:Guid ID="{cd6b9ebf-0b3a-4b7d-ac9a-4fe18a923223}"/>
    </syst:Guids>
    <syst:Modules>
      <syst:Module ID="0x00000004"><![CDATA[coll_comp]]></syst:Module>
    </syst:Modules>
    <syst:Write>
      <syst:Protocol ID="0x31" Mask="0x3f"><![CDATA[MTT]]></syst:Protocol>
    </syst:Write>
    <syst:Catalog32>
    </syst:Catalog32>
  </syst:Client>
</syst:Collateral>
XML
grep -v 'Guid' "$TMP/new.xml" >"$TMP/old.xml"

TEXT='-- sync at offset 0
-- version 3 (natural binary timestamps) at offset 11
           1000 m4/c0 INFO {11111111-2222-4333-8444-555555555555} STRING:GENERIC demo: console line
           2000 m1/c0 INFO {22222222-3333-4444-8555-666666666666} STRING:GENERIC shell: sensor reading 1
           3000 m5/c1 INFO 5:3 STRING:GENERIC origin node
     4294967297 m6/c0 MTT META 0x00000003 "sample"
     4294967298 m6/c0 MTT INFO coll_comp signal0 = 4242 ctx 100 cpu 1'
for c in old new; do
	tap_is "$("$M" --syst --collateral "$TMP/$c.xml" "$TMP/demo.stp")" \
		"$TEXT" "$c kernel collateral: console, shell, origin node keep their GUID/origin; MTT named"
done

# CSV: Origin of the other sources' rows
tap_is "$("$M" -f csv --collateral "$TMP/old.xml" "$TMP/demo.stp" |
	cut -d, -f5 | sed 1d | tr '\n' ' ')" \
"{11111111-2222-4333-8444-555555555555} {22222222-3333-4444-8555-666666666666} 5 sample coll_comp " \
	"CSV, collateral without Guids: no row has Origin mtt"

# MTT's messages as SyS-T (--no-mtt): the client and its protocol name
# for those with MTT's GUID, and for those only
tap_is "$("$M" --no-mtt -f csv --collateral "$TMP/new.xml" "$TMP/demo.stp" |
	cut -d, -f3,5,12 | sed 1d | sed "s|$TMP/||")" \
"STRING:GENERIC,{11111111-2222-4333-8444-555555555555},
STRING:GENERIC,{22222222-3333-4444-8555-666666666666},
STRING:GENERIC,5,
RAW:MTT,mtt,new.xml
RAW:MTT,mtt,new.xml" "MTT's Guid: client mtt for MTT's RAW:0x31 messages only"
tap_is "$("$M" --no-mtt -f csv --collateral "$TMP/old.xml" "$TMP/demo.stp" |
	cut -d, -f3,5 | sed 1d | tail -n 2)" \
"RAW:49,{cd6b9ebf-0b3a-4b7d-ac9a-4fe18a923223}
RAW:49,{cd6b9ebf-0b3a-4b7d-ac9a-4fe18a923223}" \
	"no Guids: not even MTT's messages (the reference printer's rule)"

# the kernel writes the Guid: MTT_FRAME_SYST_GUID (the uapi header), the
# one demo.conf gives the mtt node
tap_is "$(sed -n 's/^#define MTT_FRAME_SYST_GUID[^"]*"\(.*\)"$/\1/p' \
	"$TOP/include/uapi/linux/mtt_frame.h") $(grep -c 'syst:Guid ID=\\"{" MTT_FRAME_SYST_GUID "}' \
	"$TOP/drivers/mtt/collateral.c") $(grep -c 'uuid = "cd6b9ebf-0b3a-4b7d-ac9a-4fe18a923223"' \
	"$TOP/tests/guest/demo.conf")" \
	"cd6b9ebf-0b3a-4b7d-ac9a-4fe18a923223 1 1" \
	"the kernel's collateral and the demo's mtt node use MTT_FRAME_SYST_GUID"
tap_done
