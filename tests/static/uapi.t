#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# include/uapi/linux/mtt_frame.h, the one definition of the native MTT
# frame, as TAP: a userspace C11 program includes it with -Wall -Wextra
# -Werror -pedantic (and C++ does too), and its values and mtt_frame_len()
# agree with Documentation/mtt.rst, "The native frame": every command and
# flag, and the worked 52-byte example written here word by word from
# that text.
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"

cat >"$tmp/t.c" <<'EOC'
#include <stdio.h>
#include <string.h>
#include <linux/mtt_frame.h>

static int n, bad;

static void is(unsigned long long got, unsigned long long want, const char *what)
{
	n++;
	if (got == want)
		return;
	bad++;
	printf("# %s: 0x%llx, want 0x%llx\n", what, got, want);
}

int main(void)
{
	/* mtt.rst's example: mtt_trace(component 3, INFO, UINT32, &4242,
	 * "signal0") by thread 100 on CPU 1 at 0x100000002 ns */
	static const unsigned int ex[] = {
		0xEEE01001, 0x0000000F, 0x00000003, 0xC0DE0000, 0x05000004,
		0x00000064, 0x00000002, 0x00000001, 0x20000000, 0x00001092,
	};

	is(MTT_FRAME_WORD0(1), ex[0], "word 0 of target 1");
	is(MTT_FRAME_WORD0(0x3f), 0xEEE0103F, "word 0 of target 0x3f");
	is(MTT_FRAME_WORD0(MTT_FRAME_TARGET_CONTROL), 0xEEE010FF, "word 0, control");
	is(MTT_FRAME_WORD0(1) & MTT_FRAME_SYNC_MASK, MTT_FRAME_SYNC, "sync of word 0");
	is(MTT_FRAME_SYNC, 0xEEE00000, "sync");
	is((ex[0] >> 8) & 0xff, MTT_FRAME_VERSION, "version byte 0x10");
	is((ex[0] & MTT_FRAME_VERSION_MASK) >> MTT_FRAME_VERSION_SHIFT, 0x10, "version field");
	is(MTT_FRAME_TARGET_CPU_MAX, 0x3f, "highest CPU target");
	is(MTT_FRAME_CMD_TRACE | MTT_FRAME_F_CTXT | MTT_FRAME_F_TS64 |
	   MTT_FRAME_F_LEVEL | MTT_FRAME_F_HINT, ex[MTT_FRAME_W_CMD], "word 1");
	is(MTT_FRAME_W_COMP, 2, "component word");
	is(MTT_FRAME_W_TRACE_ID, 3, "trace id word");
	is(MTT_FRAME_W_TYPE_INFO, 4, "type_info word");
	is(ex[MTT_FRAME_W_TYPE_INFO] & MTT_FRAME_PAYLOAD_MASK, 4, "payload size");
	is(MTT_FRAME_PREAMBLE_BYTES, 20, "preamble");
	is(MTT_FRAME_HINT_BYTES, 12, "hint");
	is(mtt_frame_len(ex[1], ex[4]), 52, "the example's length");
	is(sizeof(ex) + strlen("signal0") + 5, 52, "the example as written");
	/* 20 + 4 CTXT + 8 (TS64|TSTV) + 4 LEVEL + pad4(size) + 12 HINT + 4 CRC */
	is(mtt_frame_len(0, 0), 20, "bare preamble");
	is(mtt_frame_len(0, 0x01020001), 24, "1 payload byte, padded");
	is(mtt_frame_len(0, 0xffff), 20 + 0x10000, "longest payload");
	is(mtt_frame_len(MTT_FRAME_F_TSTV, 0), 28, "TSTV");
	is(mtt_frame_len(MTT_FRAME_F_TS64 | MTT_FRAME_F_TSTV, 0), 28, "TS64|TSTV, one timestamp");
	is(mtt_frame_len(MTT_FRAME_F_CRC, 8), 32, "CRC");
	is(mtt_frame_len(0xffff, 0xffff), MTT_FRAME_MAX_BYTES, "every flag, longest payload");
	is(mtt_frame_len(MTT_FRAME_CMD_META | MTT_FRAME_F_DICT | MTT_FRAME_F_RETV |
			 MTT_FRAME_F_RET | MTT_FRAME_F_ASYNC | MTT_FRAME_F_NACK, 0),
	   20, "flags without words");
	/* the values mtt.rst lists */
	static const struct { unsigned long long got, want; const char *name; } listed[] = {
		{ MTT_FRAME_CMD_TRACE, 0x00000000, "TRACE" },
		{ MTT_FRAME_CMD_META, 0x40000000, "META" },
		{ MTT_FRAME_CMD_RAW, 0x80000000, "RAW" },
		{ MTT_FRAME_CMD_START, 0x01000000, "START" },
		{ MTT_FRAME_CMD_STOP, 0x02000000, "STOP" },
		{ MTT_FRAME_CMD_MASK | MTT_FRAME_F_MASK, 0xffffffff, "command | flags" },
		{ MTT_FRAME_F_CTXT, 0x0001, "CTXT" }, { MTT_FRAME_F_TS64, 0x0002, "TS64" },
		{ MTT_FRAME_F_LEVEL, 0x0004, "LEVEL" }, { MTT_FRAME_F_HINT, 0x0008, "HINT" },
		{ MTT_FRAME_F_DICT, 0x0010, "DICT" }, { MTT_FRAME_F_TSTV, 0x0020, "TSTV" },
		{ MTT_FRAME_F_CRC, 0x0800, "CRC" }, { MTT_FRAME_F_RETV, 0x1000, "RETV" },
		{ MTT_FRAME_F_RET, 0x2000, "RET" }, { MTT_FRAME_F_ASYNC, 0x4000, "ASYNC" },
		{ MTT_FRAME_F_NACK, 0x8000, "NACK" },
	};
	size_t i;

	for (i = 0; i < sizeof(listed) / sizeof(listed[0]); i++)
		is(listed[i].got, listed[i].want, listed[i].name);
	is(MTT_FRAME_SYST_PROTOCOL, 0x31, "SyS-T RAW subtype");
	is(strlen(MTT_FRAME_SYST_GUID), 36, "GUID text");
	printf("%s 3 - the header agrees with mtt.rst (%d values, %d wrong)\n",
	       bad ? "not ok" : "ok", n, bad);
	return 0;
}
EOC

flags=(-std=c11 -Wall -Wextra -Werror -pedantic -I"$top/include/uapi")
if out=$(cc "${flags[@]}" -o "$tmp/t" "$tmp/t.c" 2>&1); then
	echo "ok 1 - C11 -Wall -Wextra -Werror -pedantic includes <linux/mtt_frame.h>"
else
	echo "not ok 1 - C11 -Wall -Wextra -Werror -pedantic includes <linux/mtt_frame.h>"
	printf '%s\n' "$out" | head -n 20 | sed 's/^/# /'
fi
printf '#include <linux/mtt_frame.h>\nint main() { return (int)mtt_frame_len(0, 0) - 20; }\n' >"$tmp/t.cc"
if ! command -v c++ >/dev/null; then
	echo "ok 2 - C++ includes it # SKIP no c++"
elif out=$(c++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$top/include/uapi" \
	-o "$tmp/tcc" "$tmp/t.cc" 2>&1) && "$tmp/tcc"; then
	echo "ok 2 - C++11 -Wall -Wextra -Werror -pedantic includes it"
else
	echo "not ok 2 - C++11 -Wall -Wextra -Werror -pedantic includes it"
	printf '%s\n' "$out" | head -n 20 | sed 's/^/# /'
fi
if [ -x "$tmp/t" ]; then
	"$tmp/t"
else
	echo "not ok 3 - the header agrees with mtt.rst # not built"
fi
