#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
# The documentation names no path that is not in the tree, as TAP.
#
# In README, Documentation/*.rst and tools/README.md, every relative
# repository path (tools/..., tests/..., drivers/..., include/...,
# scripts/... with at least one part after the folder) exists: a file, a
# folder, or a glob (*, [ch]) that matches at least one file.  Not
# checked: what is not a repository path by its form (/sys/..., <linux/
# stm.h>, a URL: anything after a "/", "<" or a word character but -I
# and -L), a path
# in the kernel's tree (after "kernel's" or "Linux's": Linux's
# drivers/hwtracing/...), paths with a placeholder part (tools/X,
# tools/CMD/..., t-NN-name.sh: a word in capitals only, or a part that
# goes on with "<name>"), and build output (tools/build/, tests/build/,
# tests/vm/out/, tests/host/out/: made by make and the tests, not in the
# tree).  What the build makes in
# a source folder counts when its source is there: FOLDER/NAME.ko (and
# dkms's FOLDER/NAME) when FOLDER/Kbuild builds NAME.o, a program
# FOLDER/NAME when FOLDER/NAME.c exists.
# tools/README.md's tables too: under a heading naming a folder
# (`tools/lib/mttdecode/stp/`), each first cell's names are files in it.
use strict;
use warnings;
use File::Basename qw(dirname);
use Cwd qw(abs_path);

my $top = abs_path(dirname($0) . '/../..');
chdir $top or die "cd $top: $!";

my $PREFIX = qr{(?:tools|tests|drivers|include|scripts)};
# a path part: letters, digits, . _ - and the globs * and [..]
my $PART = qr{[A-Za-z0-9_.*\[\]-]++};
my $PATH = qr{(?:(?<=-[IL])|(?<![\w/<.\$-]))($PREFIX/$PART(?:/$PART)*+/?+)(?![\w<])};
# a path in the kernel's tree is named as such just before it
my $KERNEL = qr{(?:kernel|Linux)'s\s+`*$};
my $BUILD = qr{^(?:tools/build|tests/build|tests/vm/out|tests/host/out)(?:/|$)};

# the tree: tracked files (and new ones not ignored) when in git, else
# every file
my @files;
if (system('git rev-parse --git-dir >/dev/null 2>&1') == 0) {
	@files = split /\0/, `git ls-files -z --cached --others --exclude-standard`;
} else {
	@files = split /\n/, `find . -type f -o -type l | sed 's|^\\./||'`;
}
my %exists;
for my $f (@files) {
	next unless -e $f || -l $f;	# deleted in the worktree, not committed
	$exists{$f} = 1;
	for (my $d = $f; $d =~ s{/[^/]*$}{};) {
		last if $exists{"$d/"};
		$exists{"$d/"} = 1;
	}
}

# glob to regex: * and ? within a part, [..] as is
sub glob_re {
	my ($g) = @_;
	my $re = '';
	for my $tok (split /(\*|\?|\[[^\]]*\])/, $g) {
		if ($tok eq '*') { $re .= '[^/]*' }
		elsif ($tok eq '?') { $re .= '[^/]' }
		elsif ($tok =~ /^\[/) { $re .= $tok }
		else { $re .= quotemeta $tok }
	}
	return qr{^$re$};
}

# does PATH name something in the tree?
sub in_tree {
	my ($p) = @_;
	if ($p =~ /[*?\[]/) {
		my $re = glob_re($p);
		return scalar grep { $_ =~ $re } keys %exists;
	}
	return 1 if $exists{$p} || $exists{"$p/"};
	# built in a source folder: a module its Kbuild builds, a program
	my ($dir, $name) = $p =~ m{^(.+)/([^/.]+)(?:\.ko)?$} or return 0;
	return 1 if $p !~ /\.ko$/ && $exists{"$dir/$name.c"};
	return 0 unless $exists{"$dir/Kbuild"};
	open my $kb, '<', "$dir/Kbuild" or return 0;
	my $built = grep { /^obj-m\s*[+:]?=.*(?<![\w-])\Q$name\E\.o\b/ } <$kb>;
	close $kb;
	return $built;
}

# the repository paths a text mentions, [line, path] each; placeholders,
# the kernel's paths and build output left out
sub paths_of {
	my ($text) = @_;
	my @p;
	while ($text =~ /$PATH/g) {
		my ($p, $start) = ($1, $-[1]);
		$p =~ s/[.]+$//;		# a sentence's full stop
		next if $p =~ $BUILD;
		next if substr($text, 0, $start) =~ $KERNEL;
		next if grep { /^[A-Z]+$/ } split m{[/-]}, $p;	# tools/X, t-NN-x
		push @p, [1 + (substr($text, 0, $start) =~ tr/\n//), $p];
	}
	return @p;
}

# Folder tables (tools/README.md): under a heading that names a folder
# (`tools/lib/mttdecode/stp/`), a row's first cell names files of that
# folder.  Returns the text with those cells blanked (they are relative
# to the folder, not repository paths) and [line, folder, name] for each
# name in them.
sub folder_tables {
	my ($text) = @_;
	my (@n, $dir);
	my @lines = split /^/, $text;
	for my $i (0 .. $#lines) {
		my $l = $lines[$i];
		if ($l =~ /^#/) {
			$dir = $l =~ /`((?:tools|tests)\/[^`]*\/)`/ ? $1 : undef;
		} elsif (defined $dir && $l =~ /^\|\s*(`[^|]*?)\s*\|/) {
			my $cell = $1;
			push @n, [$i + 1, $dir, $1] while $cell =~ /`([^`]+)`/g;
			$lines[$i] =~ s/^(\|[^|]*)/' ' x length $1/e;
		}
	}
	return (join('', @lines), @n);
}

my @docs = ('README', 'tools/README.md', sort glob('Documentation/*.rst'));
my $n = 0;
my $failed = 0;
sub ok {
	my ($ok, $name, @diag) = @_;
	$n++;
	print(($ok ? 'ok' : 'not ok') . " $n - $name\n");
	print "# $_\n" for $ok ? () : @diag;
	$failed++ unless $ok;
}

print '1..' . (2 + @docs) . "\n";

# self-test: what the pattern takes and what it leaves
my @sample = map { $_->[1] } paths_of(join ' ', 'see tools/lib/mttdecode/stp/stp_api.c.',
	'``tests/host/*.t``', 'tools/lib/X builds libX', '/sys/kernel/config/stp-policy',
	'<linux/stm.h>', 'https://example.org/tools/x', 'tools/build/mttdecode',
	'fuzz/corpus-<name>/', 'tools/fuzz/corpus-<name>/', 'make -C tools',
	'include/uapi/linux/', '$(B)/tools/y', 'stp_ops.[ch] in tools/lib/mttdecode/stp/stp_ops.[ch]',
	"Linux's ``drivers/hwtracing/stm/stm.h``", "the kernel's\n  scripts/faddr2line",
	'tests/guest/t-NN-name.sh', 'cc -Itools/lib/mtt/include/mtt');
my ($masked, @table) = folder_tables("## `tools/x/`\n| file | job |\n| `a.c`, `b.h` | tools/y.c |\n");
my $want = 'tools/lib/mttdecode/stp/stp_api.c tests/host/*.t include/uapi/linux/ '
	. 'tools/lib/mttdecode/stp/stp_ops.[ch] tools/lib/mtt/include/mtt';
ok("@sample" eq $want && in_tree('tests/host/*.t') && !in_tree('tools/nosuch/*.c')
	&& in_tree('tools/lib/mttdecode/stp/stp_ops.[ch]') && in_tree('tools/lib/mttdecode/stp/')
	&& in_tree('drivers/stm/stm_p_sys-t.ko') && in_tree('drivers/swstm/swstm')
	&& !in_tree('drivers/stm/core.ko') && in_tree('tests/guest/mtt_check')
	&& !in_tree('tests/guest/nosuch')
	&& join(' ', map { @$_ } @table) eq '3 tools/x/ a.c 3 tools/x/ b.h'
	&& $masked !~ /a\.c/ && $masked =~ /tools\/y\.c/,
	'self-test: repository paths and globs taken, not /sys, <linux/...>, URLs, the kernel\'s paths, placeholders, build output; built modules and programs by their source; folder tables',
	"got: @sample", "want: $want");

my @names;
for my $doc (@docs) {
	open my $fh, '<', $doc or die "$doc: $!";
	my ($text, @in_tables) = folder_tables(do { local $/; <$fh> });
	close $fh;
	push @names, map { [$doc, @$_] } @in_tables;
	my @p = paths_of($text);
	my $seen = @p;
	my @bad = map { "$doc:$_->[0]: $_->[1]" } grep { !in_tree($_->[1]) } @p;
	ok(!@bad, "$doc: the $seen repository paths it names exist", @bad);
}

my @bad = map { "$_->[0]:$_->[1]: $_->[2]$_->[3]" } grep { !in_tree("$_->[2]$_->[3]") } @names;
my $in_readme = grep { $_->[0] eq 'tools/README.md' } @names;
ok($in_readme && !@bad, 'folder tables: the ' . @names . ' names in them (' . $in_readme
	. ' in tools/README.md) are files of their folder', @bad);
exit($failed ? 1 : 0);
