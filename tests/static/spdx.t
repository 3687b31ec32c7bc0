#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# Licence tags, as TAP: every file git knows (tracked, or new and not
# ignored) carries an SPDX-License-Identifier line in its first lines, in
# the comment syntax of its type, naming a licence its directory allows;
# every licence or exception named has its text in LICENSES/.  A self-test
# first shows the checker rejects untagged and wrongly tagged files.
use strict;
use warnings;
use File::Basename qw(dirname);
use Cwd qw(abs_path);

my $top = abs_path(dirname($0) . '/../..');
chdir $top or die "cd $top: $!";

# Files exempt from tagging, with why: they cannot hold a comment.
my @exempt = (
	# fuzzer seeds: every byte is input, a comment would change them
	[qr{^tools/fuzz/corpus[^/]*/}, 'fuzz seed corpus'],
	# captures and expected outputs used byte for byte by tests
	[qr{\.(?:stp|bin|out|expected)$}, 'trace capture or expected output'],
	# copies of kernel file formats that have no comment syntax
	[qr{^tests/host/data/kallsyms\.txt$}, '/proc/kallsyms format'],
	[qr{^tests/host/data/tracefs/.*/format$}, 'tracefs event format'],
	# the licence texts (checked for their own headers below) and the
	# summary that explains them
	[qr{^LICENSES/}, 'licence text'],
	[qr{^COPYING$}, 'licence summary'],
);

# Allowed licence expressions by path, first match wins.
my @rules = (
	# internal libraries (not installed), linked only into the GPL-2.0
	# commands: the session directory reader, the MiniProfiler host side
	[qr{^tools/lib/(?:session|mprof)/}, ['GPL-2.0']],
	# the libraries applications link (libmttdecode, libmtt, libmprofdev
	# in profiled programs) and libwire, part of them
	[qr{^tools/lib/}, ['LGPL-2.1-or-later']],
	# the user-space API; a header the LGPL libraries share may also
	# be under theirs (mtt_frame.h)
	[qr{^include/uapi/}, ['GPL-2.0 WITH Linux-syscall-note',
			      'GPL-2.0 WITH Linux-syscall-note OR LGPL-2.1-or-later']],
	[qr{.}, ['GPL-2.0']],
);

sub exempt_reason {
	my ($path) = @_;
	for (@exempt) {
		return $_->[1] if $path =~ $_->[0];
	}
	return undef;
}

sub allowed {
	my ($path) = @_;
	for (@rules) {
		return @{$_->[1]} if $path =~ $_->[0];
	}
	return ();
}

# The tag line's pattern for a file type; $1 is the licence expression.
sub tag_re {
	my ($path) = @_;
	my $id = 'SPDX-License-Identifier: (\S.*?)';
	return qr{^// $id$} if $path =~ /\.c$/;
	return qr{^/\* $id \*/$} if $path =~ /\.(?:h|ld)$/;	# C headers, linker scripts
	return qr{^\.\. $id$} if $path =~ /\.rst$/ || $path =~ m{(?:^|/)README$};
	return qr{^<!-- $id -->$} if $path =~ /\.md$/;
	return qr{^(?:<\?xml[^>]*\?>)?<!-- $id -->$} if $path =~ /\.xml$/;
	return qr{^\.\\" $id$} if $path =~ /\.[1-9]$/;
	return qr{^# $id$};
}

# Licence and exception identifiers with a text in LICENSES/.
sub known_ids {
	my (%lic, %exc);
	for my $f (glob('LICENSES/*/*')) {
		open my $fh, '<', $f or next;
		while (<$fh>) {
			last if /^License-Text:/;
			$lic{$1} = $f if /^Valid-License-Identifier: (\S+)$/;
			$exc{$1} = $f if /^SPDX-Exception-Identifier: (\S+)$/;
		}
	}
	return (\%lic, \%exc);
}

# Check one file's text; returns '' if fine, else what is wrong.
sub check_text {
	my ($path, $text, $lic, $exc) = @_;
	my @l = split /\n/, $text, 4;
	my $line = 0;
	# the tag goes on line 1, or line 2 after a "#!" line or an XML
	# declaration (or on the declaration's own line, after it)
	$line = 1 if @l > 1 && ($l[0] =~ /^#!/ ||
			       ($l[0] =~ /^<\?xml[^>]*\?>$/));
	return '"#!" not on the first line' if @l > 1 && $l[1] =~ /^#!/;
	my $first = $l[$line] // '';
	my $re = tag_re($path);
	if ($first !~ $re) {
		my ($where) = grep { $l[$_] =~ /SPDX-License-Identifier/ }
			      0 .. $#l;
		return 'no SPDX-License-Identifier tag' unless defined $where;
		return 'SPDX tag on line ' . ($where + 1) . ' or in the wrong '
		     . 'comment syntax (want ' . $re . ' on line '
		     . ($line + 1) . ')';
	}
	my $expr = $1;
	my @ok = allowed($path);
	return "licence \"$expr\" not allowed here (allowed: "
	     . join(', ', @ok) . ')' unless grep { $_ eq $expr } @ok;
	# each term of an OR/AND list is a licence, WITH an exception or not
	for my $term (split / (?:OR|AND) /, $expr) {
		$term =~ s/^\(+|\)+$//g;
		my ($id, $with) = split / WITH /, $term, 2;
		return "licence $id has no text in LICENSES/"
			unless $lic->{$id};
		return "exception $with has no text in LICENSES/"
			if defined $with && !$exc->{$with};
	}
	return '';
}

my $n = 0;
my $failed = 0;
sub ok {
	my ($cond, $name, @diag) = @_;
	$n++;
	print(($cond ? 'ok' : 'not ok') . " $n - $name\n");
	print "# $_\n" for @diag;
	$failed++ unless $cond;
}

my ($lic, $exc) = known_ids();

# Self-test: the checker itself, on made-up files.
my @self = (
	['tests/x.c', "// SPDX-License-Identifier: GPL-2.0\n/* x */\n", 1],
	['tests/x.c', "/* x.c - no tag */\nint x;\n", 0],
	['tests/x.c', "/* SPDX-License-Identifier: GPL-2.0 */\n", 0],
	['tests/x.h', "// SPDX-License-Identifier: GPL-2.0\n", 0],
	['tests/x.sh', "#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0\n", 1],
	['tests/x.sh', "# SPDX-License-Identifier: GPL-2.0\n#!/bin/sh\n", 0],
	['tests/x.sh', "#!/bin/sh\necho\n# SPDX-License-Identifier: GPL-2.0\n",
	 0],
	['tools/lib/x.c', "// SPDX-License-Identifier: GPL-2.0\n", 0],
	['tools/lib/x.c', "// SPDX-License-Identifier: LGPL-2.1-or-later\n",
	 1],
	['tools/mttdecode/x.c',
	 "// SPDX-License-Identifier: LGPL-2.1-or-later\n", 0],
	['tools/lib/session/x.c', "// SPDX-License-Identifier: GPL-2.0\n", 1],
	['include/uapi/linux/x.h', "/* SPDX-License-Identifier: GPL-2.0 "
	 . "WITH Linux-syscall-note */\n", 1],
	['include/uapi/linux/x.h', "/* SPDX-License-Identifier: GPL-2.0 */\n",
	 0],
	['include/uapi/linux/x.h', "/* SPDX-License-Identifier: GPL-2.0 "
	 . "WITH Linux-syscall-note OR LGPL-2.1-or-later */\n", 1],
	['tests/x.xml', "<?xml version=\"1.0\"?>\n<!-- SPDX-License-"
	 . "Identifier: GPL-2.0 -->\n", 1],
	['tests/x.xml', "<?xml version=\"1.0\"?>\n<a/>\n", 0],
	['Documentation/x.rst', ".. SPDX-License-Identifier: GPL-2.0\n", 1],
	['tools/lib/mttdecode/man/man3/x.3',
	 ".\\\" SPDX-License-Identifier: LGPL-2.1-or-later\n", 1],
	['tests/x.md', "# Title\n", 0],
);
for my $s (@self) {
	my ($path, $text, $good) = @$s;
	my $why = check_text($path, $text, $lic, $exc);
	my $line = (split /\n/, $text)[0];
	ok(($why eq '') == $good,
	   "self-test: $path starting \"$line\" is "
	   . ($good ? 'accepted' : 'rejected'), $why ne '' ? $why : ());
}
{
	# a licence without a text in LICENSES/ is refused
	my $why = check_text('tests/x.c',
			     "// SPDX-License-Identifier: GPL-2.0\n", {}, $exc);
	ok($why =~ /no text in LICENSES/,
	   'self-test: a licence without a text in LICENSES/ is rejected',
	   $why);
}
{
	# and a real untagged file in the tree is caught by the walk below
	# (same code path as every file): write one, check it, remove it
	my $tmp = "tests/static/.spdx-selftest-$$.c";
	open my $fh, '>', $tmp or die "$tmp: $!";
	print $fh "int x;\n";
	close $fh;
	my $why = check_file($tmp);
	unlink $tmp;
	ok($why ne '', 'self-test: an untagged file on disk is caught', $why);
}

# Each licence text starts with the SPDX header lines.
for my $f (sort glob('LICENSES/*/*')) {
	open my $fh, '<', $f or die "$f: $!";
	my $head = '';
	while (<$fh>) {
		$head .= $_;
		last if /^License-Text:/;
	}
	my $id = $f =~ m{/exceptions/} ? 'SPDX-Exception-Identifier'
				       : 'Valid-License-Identifier';
	my $good = $head =~ /^\Q$id\E: \S+$/m && $head =~ /^SPDX-URL: \S+$/m
		&& $head =~ /^Usage-Guide:$/m && $head =~ /^License-Text:$/m
		&& !eof($fh);
	ok($good, "$f has $id, SPDX-URL, Usage-Guide and License-Text");
}
for my $id ('GPL-2.0', 'LGPL-2.1-or-later') {
	ok($lic->{$id}, "LICENSES/ has the text of $id");
}
ok($exc->{'Linux-syscall-note'}, 'LICENSES/ has Linux-syscall-note');

sub check_file {
	my ($path) = @_;
	open my $fh, '<:raw', $path or return "cannot read: $!";
	my $text = '';
	read $fh, $text, 4096;
	return check_text($path, $text, $lic, $exc);
}

# Every file of the tree.
open my $git, '-|', 'git', 'ls-files', '-z', '--cached', '--others',
	'--exclude-standard' or die "git ls-files: $!";
my @files = do { local $/ = "\0"; map { chomp; $_ } <$git> };
close $git or die "git ls-files failed\n";
ok(scalar(@files) > 100, 'git ls-files lists the tree ('
   . scalar(@files) . ' files)');
my %seen;
for my $f (sort grep { !$seen{$_}++ } @files) {
	next if -l $f || !-f $f;	# deleted in the work tree, or a link
	my $reason = exempt_reason($f);
	if (defined $reason) {
		ok(1, "$f is exempt ($reason)");
		next;
	}
	my $why = check_file($f);
	ok($why eq '', "$f is tagged", $why ne '' ? $why : ());
}

print "1..$n\n";
exit($failed ? 1 : 0);
