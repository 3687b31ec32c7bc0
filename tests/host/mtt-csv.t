#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mtt-csv.t - MTT frames in "mttdecode --format csv": a raw file of frames
# written by hand here (component names from META, a value with a hint,
# a vector, SHOWHEX, a string with a quote and a comma, a component never
# named, damage in between) gives one row per frame in the reference
# printer's columns and a LOSS row; --csv-extra adds where each came
# from; frames over STP and in SyS-T (mttstp's stream) have their STP
# timestamp, master and channel.  mttdecode runs under ASan + UBSan.
. "$(dirname "$0")/lib.sh"
# mttdecode built with ASan + UBSan (the CSV printer runs under them)
asan_mttdecode
MTTDECODE=$M

# frame TARGET CMD FLAGS COMP TRACE_ID TYPE_INFO CTX TS LEVEL PAYLOAD HINT:
# the native frame (Documentation/mtt.rst) as hex; empty fields left out
frame() {
	perl -e '
	my ($tg, $cmd, $fl, $comp, $tid, $ti, $ctx, $ts, $lvl, $pl, $hint) = @ARGV;
	my $f = pack("V5", 0xeee01000 | $tg, hex($cmd) | hex($fl), $comp,
		     hex($tid), hex($ti));
	$f .= pack("V", $ctx) if hex($fl) & 1;
	$f .= pack("VV", $ts & 0xffffffff, $ts >> 32) if hex($fl) & 2;
	$f .= pack("V", hex($lvl)) if hex($fl) & 4;
	my $p = pack("H*", $pl);
	$p .= "\0" x ((4 - length($p) % 4) % 4);
	$f .= $p;
	$f .= pack("a12", $hint) if hex($fl) & 8;
	print unpack("H*", $f);' -- "$@"
}
{
	frame 1 40000000 3 3 0 01020003 100 1000 0 617070 ""	# META "app"
	frame 1 00000000 f 3 1234 05000004 100 1001 20000000 92100000 sig0
	echo 0102030405060708	# damage: not a sync word
	frame 2 00000000 f 3 1238 03010006 101 1002 00000008 010002000300 vec
	frame 0 00000000 7 3 123c 05040004 100 1003 80000000 efbeadde ""
	frame 0 00000000 4 3 1240 0102000a 0 0 10000000 \
		"$(printf 'say "hi", ' | od -An -tx1 | tr -d ' \n')" ""
	frame 3 00000000 5 7 0 05000004 9 2000 00040000 01000000 ""
} | tr -d '\n' | xxd -r -p >"$TMP/f.mtt"

"$MTTDECODE" --format csv --input=mtt "$TMP/f.mtt" >"$TMP/f.csv" 2>"$TMP/err"
tap_ok $? "mttdecode --format csv --input=mtt"
sed 's/^/# /' "$TMP/err"
tap_is "$(cat "$TMP/f.csv")" \
'Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,Context TimeStamp,Location,Raw Length,Checksum,Collateral
OK,"""app""",MTT:META,,app,100,0x00000000000003E8,0x0000000000000000,,36,,
OK,"sig0 = 4242",MTT:TRACE,INFO,app,100,0x00000000000003E9,0x0000000000000000,0x00001234,52,,
LOSS,"MTT framing lost at offset 88, 8 bytes skipped",,,,,,,,,,
OK,"vec = [1, 2, 3]",MTT:TRACE,USER3,app,101,0x00000000000003EA,0x0000000000000000,0x00001238,56,,
OK,"0xdeadbeef",MTT:TRACE,ERROR,app,100,0x00000000000003EB,0x0000000000000000,0x0000123C,40,,
OK,"""say \""hi\"", """,MTT:TRACE,DEBUG,app,,,0x0000000000000000,0x00001240,36,,
OK,"1",MTT:TRACE,CURSORC,comp:0x00000007,9,,0x0000000000000000,,32,,' \
	"one row per frame: status, name = value, MTT:<cmd>, level, component, ctx, ts, trace id, length; a LOSS row"

"$MTTDECODE" --format csv --csv-extra --input=mtt "$TMP/f.mtt" |
	sed -n '1p; 3p' | cut -d, -f13- >"$TMP/x.csv"
tap_is "$(cat "$TMP/x.csv")" 'Source,Master,Channel,GUID,Offset,Complete
,,,,36,true' "--csv-extra: no source, master or channel in a file; the offset"

# over STP and in SyS-T: mttstp.t's stream
mttstp_stream "$TMP/s.stp"
"$MTTDECODE" --format csv --csv-extra "$TMP/s.stp" | grep ',MTT:' |
	cut -d, -f1-10,13- >"$TMP/s.csv"
tap_is "$(cat "$TMP/s.csv")" \
'OK,"""sample""",MTT:META,,sample,100,0x0000000100000001,0x00000000000003E8,,40,,8,1,,16,true
OK,"signal0 = 4242",MTT:TRACE,INFO,sample,100,0x0000000100000002,0x00000000000007D0,0xC0DE0000,52,,8,1,,62,true
OK,"signal0 = 4242",MTT:TRACE,INFO,sample,100,0x0000000100000002,0x0000000000000FA0,0xC0DE0000,52,,8,3,,158,true
OK,"signal0 = 4242",MTT:TRACE,INFO,sample,100,0x0000000100000002,0x0000000000001388,0xC0DE0000,52,,8,3,,239,true' \
	"frames over STP and in SyS-T: their STP timestamp, master, channel, offset"
tap_done
