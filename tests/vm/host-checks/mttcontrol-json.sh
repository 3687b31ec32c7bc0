#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host check: the "mttcontrol --status --json" the guest exported
# (tests/guest/t-70-mttcontrol.sh) parses as JSON and describes the
# set-up the guest applied: swstm.0 with its sink, the p_sys-t policy
# with its nodes, the three sources linked to swstm.0.
#
#   mttcontrol-json.sh OUTDIR
set -uo pipefail

out=${1:?usage: mttcontrol-json.sh OUTDIR}
f=$out/exports/mttcontrol-status.json
if [ ! -f "$f" ]; then
	echo "ok - mttcontrol --status --json parses # SKIP no capture"
	exit 0
fi
perl -MJSON::PP -e '
	local $/;
	my $j = eval { decode_json(<STDIN>) };
	if (!$j) { print "not ok - mttcontrol --status --json parses\n# $@"; exit 1 }
	print "ok - mttcontrol --status --json parses\n";
	my $n = 0;
	sub is { my ($d, $ok) = @_; print(($ok ? "ok" : "not ok"), " - $d\n"); $n += !$ok }
	my ($dev) = grep { $_->{name} eq "swstm.0" } @{$j->{devices}};
	is("device swstm.0 with masters 0 15", $dev && $dev->{masters} eq "0 15");
	is("its sink, 1048576 bytes, drop mode", $dev && $dev->{sink} &&
	   $dev->{sink}{size} == 1048576 && $dev->{sink}{overwrite} == 0);
	my ($pol) = grep { $_->{name} eq "swstm.0:p_sys-t.mc" } @{$j->{policies}};
	is("policy swstm.0:p_sys-t.mc, protocol p_sys-t", $pol && $pol->{protocol} eq "p_sys-t");
	my ($app) = grep { $_->{path} eq "user/app" } @{$pol ? $pol->{nodes} : []};
	is("node user/app: masters 3 3, channels 0 15, do_len 1", $app &&
	   $app->{masters} eq "3 3" && $app->{channels} eq "0 15" && $app->{do_len} eq "1");
	my %link = map { $_->{name} => $_->{link} } @{$j->{sources}};
	is("console, heartbeat.0 and ftrace linked to swstm.0",
	   join(",", map { $link{$_} // "" } qw(console heartbeat.0 ftrace)) eq
	   "swstm.0,swstm.0,swstm.0");
	is("every source has drops: a count, or null (upstream class)",
	   !grep { !exists $_->{drops} ||
		   (defined $_->{drops} && $_->{drops} !~ /^[0-9]+$/) } @{$j->{sources}});
	is("no session running", !defined $j->{session});
	exit($n ? 1 : 0);
' <"$f"
