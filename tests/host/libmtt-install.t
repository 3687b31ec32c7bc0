#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# libmtt-install.t - "make -C tools install-libmtt" into a DESTDIR staging
# tree: library, <mtt/mtt.h> with the <mtt/mtt_defs.h> it shares with the
# kernel API (nothing in <linux/>), libmtt.pc and man pages land where they
# should; the values an application sees are mtt.md's;
# "pkg-config --cflags --libs libmtt" builds the man page's EXAMPLE, linked
# shared and static, and it runs (writing to a file); the shared library
# exports exactly the API; every exported function has a man page that
# formats without warnings.
. "$(dirname "$0")/lib.sh"

L=$TOOLS/lib/mtt
STAGE=$TMP/stage
PFX=/usr
make -s -C "$TOOLS" B="$TMP/build" PREFIX=$PFX DESTDIR="$STAGE" install-libmtt \
	>"$TMP/install.log" 2>&1
tap_ok $? "make install PREFIX=$PFX DESTDIR=... succeeds"
sed 's/^/# /' "$TMP/install.log" | head -20

missing=
for f in lib/libmtt.so.1 lib/libmtt.so lib/libmtt.a lib/pkgconfig/libmtt.pc \
	include/mtt/mtt.h include/mtt/mtt_defs.h share/man/man3/mtt.3 share/man/man3/mtt_trace.3; do
	[ -e "$STAGE$PFX/$f" ] || missing="$missing $f"
done
tap_is "$missing" "" "library, headers, pkg-config file and man pages installed"
cmp -s "$TOP/include/uapi/linux/mtt_defs.h" "$STAGE$PFX/include/mtt/mtt_defs.h"
tap_ok $? "the installed <mtt/mtt_defs.h> is the kernel API's include/uapi one"
[ ! -e "$STAGE$PFX/include/linux" ]
tap_ok $? "nothing installed into <linux/> (linux-libc-dev's)"

export PKG_CONFIG_PATH="$STAGE$PFX/lib/pkgconfig"
export PKG_CONFIG_LIBDIR="$STAGE$PFX/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$STAGE"
# shellcheck disable=SC2046,SC2116
flags=$(echo $(pkg-config --cflags --libs libmtt 2>&1))
tap_is "$flags" "-I$STAGE$PFX/include/mtt -L$STAGE$PFX/lib -lmtt" \
	"pkg-config --cflags --libs libmtt"

# the man page's example program
sed -n '/^\.SH EXAMPLE/,/^\.EE/p' "$L/man/man3/mtt.3" | sed '1,2d; $d' |
	sed 's/\\e/\\/g; s/\\-/-/g' >"$TMP/ex.c"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -o "$TMP/ex" "$TMP/ex.c" \
	$(pkg-config --cflags --libs libmtt) -lpthread 2>"$TMP/cc.log"
tap_ok $? "the EXAMPLE builds with pkg-config's flags (shared)"
sed 's/^/# /' "$TMP/cc.log"
MTT_DEVICE=$TMP/ex.mtt LD_LIBRARY_PATH=$STAGE$PFX/lib "$TMP/ex"
tap_ok $? "and runs against the staged libmtt.so.1"
need_mttdecode
tap_is "$("$MTTDECODE" "$TMP/ex.mtt" | sed 's/^ *[0-9]* - MTT //; s/ ctx .*//' |
	tr '\n' '|')" 'META 0x5312a8a6 "myapp"|INFO myapp signal0 = 4242|API_RETURN myapp "fake_alsa_init"|' \
	"its trace decodes"
# the shared values as an application sees them (mtt.md's encodings)
cat >"$TMP/vals.c" <<'EOC'
#include <mtt.h>
_Static_assert(MTT_ERR_PARAM == 0x0102 && MTT_ERR_OTHER == 0xffff, "err");
_Static_assert(MTT_LEVEL_INFO == 0x20000000U, "level");
_Static_assert(MTT_LEVEL_API_RETURN == 0x00020000U, "cursor");
_Static_assert(MTT_TRACEITEM_UINT32 == 0x05000004, "u32");
_Static_assert(MTT_TRACEITEM_PTR32 == 0x05040004, "ptr32");
_Static_assert(MTT_TRACEITEM_STRING(7) == 0x01020007, "string");
_Static_assert(MTT_TRACEVECTOR_INT16(3) == 0x04010006, "vector");
_Static_assert(MTT_TRACEITEM_DUMP(2) == 0x05050008, "dump");
_Static_assert(MTT_COMP_ID_USER == 0x40000000U, "user id");
_Static_assert(sizeof(mtt_init_param_t) == 72, "init_param");
_Static_assert(sizeof(((mtt_comp_info_t *)0)->name) == 64, "name");
int main(void) { return MTT_API_VERSION == 0x10002 ? 0 : 1; }
EOC
# shellcheck disable=SC2046
cc -std=c11 -pedantic -Wall -Wextra -Werror -o "$TMP/vals" "$TMP/vals.c" \
	$(pkg-config --cflags libmtt) 2>"$TMP/cc.log" && "$TMP/vals"
tap_ok $? "the installed headers give mtt.md's codes, levels and type_info values"
sed 's/^/# /' "$TMP/cc.log"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -static -o "$TMP/ex-static" "$TMP/ex.c" \
	$(pkg-config --static --cflags --libs libmtt) 2>"$TMP/cc.log"
tap_ok $? "and statically"

nm -D --defined-only "$STAGE$PFX/lib/libmtt.so.1" |
	awk '$2 == "T" { print $3 }' | sed 's/@.*//' | sort >"$TMP/so"
grep -ohE '\b_*mtt_[a-z_]+\(' "$L/include/mtt/mtt.h" | sed 's/($//' | sort -u |
	grep -vx 'mtt_trace\|mtt_print\|mtt_level_on' >"$TMP/hdr"
tap_is "$(comm -3 "$TMP/hdr" "$TMP/so" | tr -d '\t' | tr '\n' ' ')" "" \
	"libmtt.so exports exactly the header's out-of-line functions"
nopage=
for f in $(grep -v '^__' "$TMP/so") mtt_trace mtt_print mtt_level_on; do
	[ -f "$L/man/man3/$f.3" ] || nopage="$nopage $f"
done
tap_is "$nopage" "" "every function has a man page"
out=
for p in "$L"/man/man3/*.3; do
	grep -q '^\.so ' "$p" && continue
	out="$out$(groff -man -ww -z "$p" 2>&1)"
	out="$out$(cd "$L/man" && LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$p" 2>&1 >/dev/null)"
done
tap_is "$out" "" "the pages format without warnings"
tap_done
