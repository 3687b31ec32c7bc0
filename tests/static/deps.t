#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One list of packages, as TAP: scripts/install-deps.sh holds the sets
# (tools, build, all; each holds the one before it), and every apt
# command in the documentation (README, *.rst, *.md, man pages) installs
# exactly one of them, so no list can drift from the script again.
# Every Debian "-dev" package the documentation names is in the script
# too, and the README says how a host that only decodes builds.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}

# --- the sets ---------------------------------------------------------------
for s in tools build all; do
	scripts/install-deps.sh --list $s >"$tmp/$s" 2>"$tmp/err"
	r=$?
	[ "$r" = 0 ] && [ -s "$tmp/$s" ] && [ -z "$(sort "$tmp/$s" | uniq -d)" ]
	ok $? "install-deps.sh --list $s: $(wc -l <"$tmp/$s") packages, none twice"
	sort -u "$tmp/$s" >"$tmp/$s.sorted"
done
[ -z "$(comm -23 "$tmp/tools.sorted" "$tmp/build.sorted")" ] &&
	[ -z "$(comm -23 "$tmp/build.sorted" "$tmp/all.sorted")" ]
ok $? "each set holds the one before it (tools, build, all)"
cmp -s "$tmp/all" <(scripts/install-deps.sh --list)
ok $? "--list with no set is all"
scripts/install-deps.sh --list nosuchset >/dev/null 2>&1
ok $((!($? == 2))) "an unknown set: exit 2"
grep -Eq '^deps:' Makefile &&
	sed -n '/^deps:/,/^$/p' Makefile | grep -Eq '/scripts/install-deps\.sh[[:space:]]*$'
ok $? "make deps runs install-deps.sh for the whole (all) set"

# --- apt commands in the documentation ---------------------------------------
# apt_cmds FILE...: one line "FILE:LINE: PKG..." (sorted) per apt command
# in FILE: a line that starts (after indentation, a "$ " or "# " prompt
# and "sudo") with "apt install" or "apt-get install", joined with the
# lines it continues onto with a trailing backslash; options dropped.
apt_cmds() {
	awk '
	function flush(   i, k, w, out, m) {
		k = split(cmd, w, /[ \t]+/)
		m = 0
		for (i = 1; i <= k; i++) {
			if (w[i] == "install") { m = i; break }
		}
		out = ""
		for (i = m + 1; i <= k; i++) {
			if (w[i] == "" || w[i] ~ /^-/) continue
			out = out " " w[i]
		}
		print at ":" out
		cmd = ""
	}
	FNR == 1 && cmd != "" { flush() }
	cmd != "" {
		line = $0
		more = sub(/\\[ \t]*$/, "", line)
		cmd = cmd " " line
		if (!more) flush()
		next
	}
	/^[ \t]*([$#][ \t]+)?(sudo[ \t]+)?apt(-get)?[ \t]+(-[^ \t]+[ \t]+)*install([ \t]|$)/ {
		line = $0
		more = sub(/\\[ \t]*$/, "", line)
		at = FILENAME ":" FNR
		cmd = line
		if (!more) flush()
	}
	END { if (cmd != "") flush() }' "$@" |
		while IFS= read -r l; do
			printf '%s: %s\n' "${l%%:*}:$(echo "${l#*:}" | cut -d: -f1)" \
				"$(echo "${l#*:*:}" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ' | sed 's/ $//')"
		done
}

# set_of PKGS: the set whose packages are exactly PKGS (sorted, one
# space between), or nothing
set_of() {
	local s
	for s in tools build all; do
		[ "$1" = "$(tr '\n' ' ' <"$tmp/$s.sorted" | sed 's/ $//')" ] && echo $s && return
	done
}

# check_docs FILE...: every apt command in FILE is one set; prints
# "FILE:LINE: set" or "FILE:LINE: no set: missing ..., not in any set ..."
check_docs() {
	apt_cmds "$@" | while IFS= read -r l; do
		at=${l%%: *} pk=${l#*: }
		s=$(set_of "$pk")
		if [ -n "$s" ]; then
			echo "$at: $s"
		else
			echo "$pk" | tr ' ' '\n' >"$tmp/cmd"
			echo "$at: no set: against build, extra: $(comm -23 "$tmp/cmd" "$tmp/build.sorted" | tr '\n' ' ')missing: $(comm -13 "$tmp/cmd" "$tmp/build.sorted" | tr '\n' ' ')"
		fi
	done
}

# self-test on made-up documents
mkdir -p "$tmp/doc"
{
	echo "From apt install to a trace, in prose: not a command"
	echo "  apt install make gcc libc6-dev libexpat1-dev \\"
	echo "          libconfig-dev libudev-dev"
	echo "  \$ sudo apt-get -y install $(tr '\n' ' ' <"$tmp/tools")"
	echo "  # apt install -q $(tac "$tmp/build" | tr '\n' ' ')"
} >"$tmp/doc/a.rst"
check_docs "$tmp/doc/a.rst" | sed "s|$tmp/doc/||" >"$tmp/self"
printf '%s\n' "a.rst:2: no set: against build, extra: missing: kmod libelf-dev linux-headers-amd64 " \
	"a.rst:4: tools" "a.rst:5: build" | cmp -s - "$tmp/self"
r=$?
ok $r "self-test: a list short of libelf-dev is caught; prompts, sudo, options, continuations, order; prose is no command"
[ $r = 0 ] || sed 's/^/# /' "$tmp/self"

if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -- README '*.rst' '*.md' '*.[1-8]' 'configfs-examples/README' >"$tmp/docs"
else
	find . -path ./tests/vm/out -prune -o -path ./tools/build -prune -o -type f \
		\( -name README -o -name '*.rst' -o -name '*.md' -o -name '*.[1-8]' \) -print |
		sed 's|^\./||' >"$tmp/docs"
fi
mapfile -t docs <"$tmp/docs"
check_docs "${docs[@]}" >"$tmp/found"
sed 's/^/# /' "$tmp/found"
[ "$(grep -c ': \(tools\|build\|all\)$' "$tmp/found")" -ge 2 ]
ok $? "the documentation has apt commands ($(wc -l <"$tmp/found")): README and sessions.rst at least"
! grep -q ': no set:' "$tmp/found"
ok $? "every apt command in the documentation installs exactly one set of scripts/install-deps.sh"

# --- packages named elsewhere in the documentation ----------------------------
grep -onE '(^|[^a-z0-9/.+-])[a-z0-9][a-z0-9.+]*-dev([^a-z0-9.+-]|$)' "${docs[@]}" |
	sed -E 's/^([^:]*:[0-9]+):[^a-z0-9]*([a-z0-9][a-z0-9.+]*-dev).*/\1 \2/' >"$tmp/devs"
bad=$(while read -r at p; do
	grep -qx -- "$p" "$tmp/all" || echo "$at $p"
done <"$tmp/devs")
ok "$([ -z "$bad" ]; echo $?)" "every -dev package the documentation names ($(wc -l <"$tmp/devs")) is in the all set"
[ -z "$bad" ] || echo "$bad" | sed 's/^/# not in install-deps.sh: /'

# --- the README says how a decode-only host builds ----------------------------
sed -n '/^Dependencies$/,/^[A-Z][a-z ]*$/p' README >"$tmp/readme-deps"
grep -q 'install-deps.sh tools' "$tmp/readme-deps" && grep -q 'make -C tools' "$tmp/readme-deps"
ok $? "README, Dependencies: a host that only decodes (install-deps.sh tools, make -C tools)"

echo "1..$n"
[ "$fails" = 0 ]
