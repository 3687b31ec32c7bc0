#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# install.t - "make -C tools install" into a DESTDIR staging tree (built in
# a private build directory): the files land where they should,
# libmttdecode.pc is filled in (libmttclock's installed too), "pkg-config --cflags --libs libmttdecode"
# gives flags with which a small program compiles, links (shared and
# static) and runs against the staged library, and every man(3) page's
# EXAMPLE program compiles and links the same way; every command and its
# bash completion are installed, stp-policy-dump with the version.
. "$(dirname "$0")/lib.sh"

STAGE=$TMP/stage
PFX=/usr
VERSION=$(sed -n 's/^#define MTTD_VERSION_STRING "\(.*\)"$/\1/p' \
	"$TOOLS/lib/mttdecode/include/mttdecode/mttdecode.h")

make -s -C "$TOOLS" B="$TMP/build" PREFIX=$PFX DESTDIR="$STAGE" install \
	>"$TMP/install.log" 2>&1
tap_ok $? "make install PREFIX=$PFX DESTDIR=... succeeds"
sed 's/^/# /' "$TMP/install.log" | head -20

missing=
for f in lib/libmttdecode.so.0 lib/libmttdecode.so lib/libmttdecode.a \
	lib/pkgconfig/libmttdecode.pc include/mttdecode/mttdecode.h \
	lib/pkgconfig/libmtt.pc include/mtt/mtt.h lib/pkgconfig/libmprofdev.pc \
	include/mprofdev/mprofdev.h lib/libmprofdev.a bin/mttprofile \
	lib/libmttclock.so.0 lib/libmttclock.so lib/libmttclock.a \
	lib/pkgconfig/libmttclock.pc include/mttclock/clock.h \
	bin/mttcontrol bin/stp-policy-dump \
	share/man/man1/mttdecode.1 share/man/man3/libmttdecode.3 bin/mttdecode; do
	[ -e "$STAGE$PFX/$f" ] || missing="$missing $f"
done
tap_is "$missing" "" "library, headers, pkg-config file and man pages installed"

missing=
for t in mttdecode mttcontrol mttprofile stp-policy-dump; do
	[ -x "$STAGE$PFX/bin/$t" ] &&
		[ -f "$STAGE$PFX/share/bash-completion/completions/$t" ] ||
		missing="$missing $t"
done
tap_is "$missing" "" "each command and its bash completion (share/bash-completion/completions/) installed"
tap_is "$(STP_POLICY_ROOT=$TMP "$STAGE$PFX/bin/stp-policy-dump" --version)" \
	"stp-policy-dump $VERSION" "the installed stp-policy-dump has the package version"

src_pages=$( (cd "$TOOLS/lib/mttdecode/man/man3" && ls -- *.3; cd "$TOOLS/lib/mprofdev/man/man3" && ls -- *.3; cd "$TOOLS/lib/mtt/man/man3" && ls -- *.3; cd "$TOOLS/lib/clock/man/man3" && ls -- *.3) | sort)
inst_pages=$(cd "$STAGE$PFX/share/man/man3" 2>/dev/null && ls -- *.3 | sort)
tap_is "$inst_pages" "$src_pages" "every man(3) page installed"

pc=$STAGE$PFX/lib/pkgconfig/libmttdecode.pc
grep -q '@[A-Z]*@' "$pc" 2>/dev/null
tap_ok $((!$?)) "libmttdecode.pc has no @...@ left"
tap_is "$(sed -n 's/^prefix=//p; s/^libdir=//p; s/^includedir=//p' "$pc" |
	tr '\n' ' ')" "$PFX $PFX/lib $PFX/include " \
	"libmttdecode.pc: prefix, libdir, includedir"

# pkg-config against the staging tree: the sysroot prefixes -I and -L
export PKG_CONFIG_PATH="$STAGE$PFX/lib/pkgconfig"
export PKG_CONFIG_LIBDIR="$STAGE$PFX/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$STAGE"
tap_is "$(pkg-config --modversion libmttdecode 2>&1)" "$VERSION" \
	"pkg-config --modversion is the headers' version"
# shellcheck disable=SC2046,SC2116
flags=$(echo $(pkg-config --cflags --libs libmttdecode 2>&1))
tap_is "$flags" "-I$STAGE$PFX/include -L$STAGE$PFX/lib -lmttdecode" \
	"pkg-config --cflags --libs libmttdecode"
# shellcheck disable=SC2046,SC2116
flags=$(echo $(pkg-config --cflags --libs libmttdecode libmtt libmprofdev 2>&1))
tap_is "$flags" "-I$STAGE$PFX/include -I$STAGE$PFX/include/mtt -L$STAGE$PFX/lib -lmttdecode -lmtt -lmprofdev" \
	"pkg-config --cflags --libs libmttdecode libmtt libmprofdev"
# every installed shared library exports its public API only
for so in libmttdecode.so.0 libmtt.so.1 libmttclock.so.0; do
	nm -D --defined-only "$STAGE$PFX/lib/$so" | awk '$2 == "T" { print $3 }' |
		sed 's/@.*//' | grep -v '^mttd_[a-z]\|^_*mtt_[a-z]\|^mttclk_[a-z]' >"$TMP/other"
	tap_is "$(tr '\n' ' ' <"$TMP/other")" "" "$so exports its API only"
done
# shellcheck disable=SC2046,SC2116
clkflags=$(echo $(pkg-config --cflags --libs libmttclock 2>&1))
tap_is "$clkflags" "-I$STAGE$PFX/include -L$STAGE$PFX/lib -lmttclock" \
	"pkg-config --cflags --libs libmttclock"
sflags=$(pkg-config --static --cflags --libs libmttdecode 2>&1)
case " $sflags " in *" -lexpat "*) r=0 ;; *) r=1 ;; esac
tap_ok $r "pkg-config --static adds -lexpat"

cat >"$TMP/hello.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <mttdecode/mttdecode.h>

static unsigned long packets;

static void on_events(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n; i++)
		packets += ev[i].type == MTTD_EV_PACKET;
}

int main(void)
{
	/* ASYNC (21 F nibbles and a 0), then two NULL nibbles */
	static const unsigned char s[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0x0f, 0x00,
	};
	struct mttd_stp_config cfg = { .fn = on_events };
	struct mttd_stp *d = mttd_stp_new(&cfg);

	if (!d || mttd_stp_feed(d, s, sizeof(s)) || mttd_stp_finish(d))
		return 2;
	printf("%s %s %lu %llu\n", mttd_version(), MTTD_VERSION_STRING,
	       packets, (unsigned long long)mttd_stp_stats(d)->syncs);
	mttd_stp_free(d);
	return strcmp(mttd_version(), MTTD_VERSION_STRING) != 0;
}
EOF
CC=${CC:-cc}
# shellcheck disable=SC2086
$CC -std=c11 -Wall -Wextra -Werror -o "$TMP/hello" "$TMP/hello.c" $flags \
	>"$TMP/cc.log" 2>&1
tap_ok $? "a program compiles and links with those flags (shared)"
sed 's/^/# /' "$TMP/cc.log" | head -20
needed=$(readelf -d "$TMP/hello" 2>/dev/null | grep -c 'NEEDED.*libmttdecode\.so\.0')
tap_is "$needed" 1 "it needs libmttdecode.so.0"
out=$(LD_LIBRARY_PATH="$STAGE$PFX/lib" "$TMP/hello" 2>&1)
tap_is "$out" "$VERSION $VERSION 1 1" \
	"it runs against the staged library (version, one ASYNC decoded)"

# shellcheck disable=SC2086
$CC -std=c11 -Wall -Wextra -Werror -static -o "$TMP/hello-static" \
	"$TMP/hello.c" $sflags >"$TMP/cc.log" 2>&1
tap_ok $? "it links statically with pkg-config --static"
sed 's/^/# /' "$TMP/cc.log" | head -20
tap_is "$("$TMP/hello-static" 2>&1)" "$VERSION $VERSION 1 1" \
	"the static program runs"

# The EXAMPLE programs of the man pages ("\e" is a backslash, "\-" a minus)
nex=0
for page in "$TOOLS"/lib/mttdecode/man/man3/*.3; do
	grep -q '^\.so ' "$page" && continue
	name=$(basename "$page" .3)
	awk '/^\.SH EXAMPLE/ { ex = 1; next } /^\.SH / { ex = 0 }
	     ex && /^\.EX/ { code = 1; next } ex && /^\.EE/ { code = 0 }
	     code { print }' "$page" | sed -e 's/\\e/\\/g' -e 's/\\-/-/g' \
		>"$TMP/ex-$name.c"
	grep -q 'int main' "$TMP/ex-$name.c" || continue
	nex=$((nex + 1))
	# shellcheck disable=SC2086
	$CC -std=c11 -Wall -Wextra -Werror -o "$TMP/ex-$name" \
		"$TMP/ex-$name.c" $flags >"$TMP/cc.log" 2>&1
	tap_ok $? "$name(3): the EXAMPLE compiles and links"
	sed 's/^/# /' "$TMP/cc.log" | head -20
done
[ "$nex" -ge 10 ]
tap_ok $? "EXAMPLE programs found ($nex)"
# Two examples check what the pages say they print
for ex in crc32c version; do
	LD_LIBRARY_PATH="$STAGE$PFX/lib" "$TMP/ex-mttd_$ex" >/dev/null 2>&1
	tap_ok $? "mttd_$ex(3) EXAMPLE runs and exits 0"
done
tap_is "$(LD_LIBRARY_PATH="$STAGE$PFX/lib" "$TMP/ex-mttd_policy_new")" \
	"3 nodes; m3 c7 is user/app" "mttd_policy_new(3) EXAMPLE output"
tap_is "$(LD_LIBRARY_PATH="$STAGE$PFX/lib" "$TMP/ex-mttd_ftrace_new")" \
	"helper_fn+0x10" "mttd_ftrace_new(3) EXAMPLE output"

tap_done
