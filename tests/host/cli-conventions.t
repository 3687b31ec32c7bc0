#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cli-conventions.t - the command-line conventions of Documentation/cli.rst
# hold for mttdecode, mttcontrol, mttprofile and stp-policy-dump (the
# built ones, tools/build/): --help exits 0; --version prints "TOOL
# VERSION", VERSION the package's (MTTD_VERSION_STRING); a usage error
# (unknown option, missing or invalid argument, conflicting options)
# exits 2 with "TOOL: WHAT: WHY" and a hint to --help on stderr, a
# runtime failure exits 1; the short options each --help lists are those
# the tool takes, and no letter means two things in two tools; each bash
# completion (tools/TOOL/TOOL.bash-completion) offers exactly --help's options.
. "$(dirname "$0")/lib.sh"
need_mttdecode
B=$TOOLS/build
VERSION=$(sed -n 's/^#define MTTD_VERSION_STRING "\(.*\)"$/\1/p' \
	"$TOOLS/lib/mttdecode/include/mttdecode/mttdecode.h")
TOOLSET="mttdecode mttcontrol mttprofile stp-policy-dump"
# mttcontrol must not see this machine's STM set-up or session
export MTTCONTROL_RUNDIR="$TMP/run" MTTCONTROL_POLICY_ROOT="$TMP/none" \
	MTTCONTROL_MTT_ROOT="$TMP/none" STP_POLICY_ROOT="$TMP/none"

# help TOOL: TOOL's --help (and mttdecode's --input=mprof --help)
help() {
	"$B/$1" --help
	[ "$1" != mttdecode ] || "$B/$1" --input=mprof --help
}
# help_opts TOOL: the options its --help lists, one a line ("-x", "--xyz")
help_opts() {
	help "$1" | grep -E '^ {2,6}(-[a-zA-Z], )?--[a-z]' |
		sed -E 's/^ +(-([a-zA-Z]), )?--([a-z0-9-]+).*/-\2 --\3/' |
		tr ' ' '\n' | grep -v '^-$' | sort -u
}

# --- --help, --version ----------------------------------------------------
for t in $TOOLSET; do
	"$B/$t" --help >"$TMP/out" 2>"$TMP/err"
	tap_is "$?:$(head -c 6 "$TMP/out"):$(cat "$TMP/err")" "0:Usage::" \
		"$t --help: usage on stdout, exit 0"
	"$B/$t" -h >"$TMP/out2" 2>&1
	cmp -s "$TMP/out" "$TMP/out2"
	tap_ok $? "$t -h is --help"
	tap_is "$("$B/$t" --version; echo "rc=$?")" "$t $VERSION
rc=0" "$t --version: the package version ($VERSION)"
	tap_is "$("$B/$t" -V)" "$t $VERSION" "$t -V"
done
tap_is "$("$B/mttdecode" --input=mprof --version)" "mttdecode $VERSION" \
	"mttdecode --input=mprof --version"
tap_is "$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$TOP/dkms.conf")" \
	"${VERSION%.*}" "dkms.conf's PACKAGE_VERSION is the package version's MAJOR.MINOR"

# --- exit statuses and messages -----------------------------------------------
# usage DESC TOOL WANT-LINE ARGS...: exit 2, WANT-LINE then the hint on
# stderr, nothing on stdout
usage() {
	d=$1 t=$2 want=$3
	shift 3
	"$B/$t" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
	tap_is "$?:$(cat "$TMP/out")$(cat "$TMP/err")" "2:$want
Try '$t --help' for more information." "$t: $d: exit 2"
}
for t in $TOOLSET; do
	usage "unknown option" "$t" "$t: --zz-bogus: unknown option" --zz-bogus
	usage "unknown short option" "$t" "$t: -%: unknown option" -%
done
usage "missing argument" mttdecode "mttdecode: --format: missing argument" --format
usage "invalid argument" mttdecode "mttdecode: --jobs '0': not a number in 1..1024" --jobs=0
usage "conflicting options" mttdecode \
	"mttdecode: --no-syst: does not go with --syst, --input=syst|systtext or --format=csv" \
	--syst --no-syst
usage "missing argument" mttcontrol "mttcontrol: --config: missing argument" --status --config
usage "invalid argument" mttcontrol \
	"mttcontrol: --rotate-size '100': a number of bytes, at least 4096" --start --rotate-size=100
usage "conflicting options" mttcontrol "mttcontrol: --stop: only one command at a time" --status --stop
usage "missing argument" mttprofile "mttprofile: --baud: missing argument" --baud
usage "invalid argument" mttprofile "mttprofile: --duration 'x': not a number >= 0" --duration=x /dev/null
usage "no DEVICE" mttprofile "mttprofile: DEVICE: missing"
usage "two DEVICEs" mttprofile "mttprofile: b: unexpected argument (one DEVICE only)" a b
usage "two policies named" stp-policy-dump \
	"stp-policy-dump: b: unexpected argument (one POLICY or DIR)" a b
"$B/mttdecode" --input=mprof --zz-bogus >"$TMP/out" 2>&1
tap_is "$?:$(tail -n 1 "$TMP/out")" \
	"2:Try 'mttdecode --help' for more information." \
	"mttdecode --input=mprof: unknown option: exit 2"

# runtime TOOL ARGS...: exit 1, "TOOL: ..." on stderr
runtime() {
	t=$1
	shift
	"$B/$t" "$@" </dev/null >/dev/null 2>"$TMP/err"
	tap_is "$?:$(cut -d: -f1 "$TMP/err" | sort -u)" "1:$t" \
		"$t $*: a runtime failure, exit 1"
}
runtime mttdecode "$TMP/nonexistent"
runtime mttcontrol --check "$TMP/nonexistent"
runtime mttprofile --report -o "$TMP/r" "$TMP/nonexistent"
runtime stp-policy-dump
bytes "12 34 56" >"$TMP/junk"
"$B/mttdecode" "$TMP/junk" >/dev/null 2>&1
tap_is $? 3 "mttdecode: nothing synchronised: exit 3"

# --- short options ----------------------------------------------------------
# accepted TOOL [ARGS]: the letters TOOL takes as short options (each
# given before an unknown option, so nothing is ever done)
accepted() {
	t=$1
	shift
	for l in a b c d e f g h i j k l m n o p q r s t u v w x y z \
		A B C D E F G H I J K L M N O P Q R S T U V W X Y Z; do
		"$B/$t" "$@" "-$l" --zz-bogus </dev/null >/dev/null 2>"$TMP/err"
		grep -q "^$t: -$l: " "$TMP/err" || printf -- "-%s\n" "$l"
	done | sort
}
for t in $TOOLSET; do
	tap_is "$(accepted "$t" | tr '\n' ' ')" \
		"$(help_opts "$t" | grep -v -- '^--' | sort -u | tr '\n' ' ')" \
		"$t takes exactly the short options its --help lists"
done
tap_is "$(accepted mttdecode --input=mprof | tr '\n' ' ')" \
	"$("$B/mttdecode" --input=mprof --help | grep -oE '^  -[a-zA-Z],' |
		tr -d ' ,' | sort | tr '\n' ' ')" \
	"mttdecode --input=mprof takes exactly the short options its --help lists"

# the table: every "-x, --long" pair of every --help; a letter for two
# long options is a letter with two meanings
for t in $TOOLSET; do
	help "$t" | sed -nE "s/^ {2,6}-([a-zA-Z]), --([a-z0-9-]+).*/\1 --\2 $t/p"
done | sort -u >"$TMP/table"
[ "$(wc -l <"$TMP/table")" -ge 20 ]
tap_ok $? "short options in the --help texts: $(wc -l <"$TMP/table")"
tap_is "$(awk '{ print $1, $2 }' "$TMP/table" | sort -u | awk '{ print $1 }' |
	uniq -d | while read -r l; do
		grep "^$l " "$TMP/table" | awk '{ printf "-%s %s (%s) ", $1, $2, $3 }'
	done)" "" "no short option means two things"
# self-test: the check sees two meanings
printf 'x --one a\nx --two b\n' | awk '{ print $1 }' | uniq -d | grep -q x
tap_ok $? "self-test: a letter with two meanings is caught"

# --- bash completions -----------------------------------------------------
# comp_opts TOOL: the options in the completion's opts='...'
comp_opts() {
	awk "/local opts='/ { on = 1; sub(/.*opts='/, \"\") }
		on { if (sub(/'.*/, \"\")) on = 2; print; if (on == 2) exit }" \
		"$TOOLS/$1/$1.bash-completion" | tr -s ' \t' '\n' | grep . | sort -u
}
for t in $TOOLSET; do
	[ -f "$TOOLS/$t/$t.bash-completion" ]
	tap_ok $? "tools/$t/$t.bash-completion exists"
	tap_is "$(comp_opts "$t" | tr '\n' ' ')" "$(help_opts "$t" | tr '\n' ' ')" \
		"$t's completion offers exactly --help's options"
done
# complete TOOL WORD...: what bash offers for the last WORD
complete_words() {
	t=$1
	shift
	# shellcheck disable=SC2016 # expanded by bash -c
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		"$(complete -p "$1" | sed "s/.*-F \([^ ]*\).*/\1/")"
		printf "%s\n" "${COMPREPLY[@]}"' sh "$TOOLS/$t/$t.bash-completion" "$t" "$@" |
		sort | tr '\n' ' '
}
tap_is "$(complete_words mttdecode mttdecode --for)" "--format " \
	"completion: mttdecode --for"
tap_is "$(complete_words mttdecode mttdecode --format = j)" "json " \
	"completion: mttdecode --format=j"
tap_is "$(complete_words mttcontrol mttcontrol -)" \
	"$(help_opts mttcontrol | sort | tr '\n' ' ')" "completion: mttcontrol -"
tap_is "$(complete_words mttprofile mttprofile --baud 9216)" "921600 " \
	"completion: mttprofile --baud 9216"
mkdir -p "$TMP/none/swstm.0.example"
tap_is "$(complete_words stp-policy-dump stp-policy-dump sw)" "swstm.0.example " \
	"completion: stp-policy-dump sw (a policy under STP_POLICY_ROOT)"

tap_done
