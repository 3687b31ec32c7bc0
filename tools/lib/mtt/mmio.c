// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mmio.c - libmtt's mmap output: which output a channel uses ($MTT_IO)
 * and how a frame is stored into a channel's mapped MMIO window.
 *
 * The STM class maps width * sw_mmiosz bytes of a channel's MMIO at
 * offset 0 of /dev/<stm> once STP_POLICY_ID_SET gave the fd a channel.
 * libmtt binds width 1 and maps one page, so the mapping succeeds only on
 * a device whose per-channel window is a page or more; on stimulus-port
 * hardware with 64- or 256-byte channels it fails and libmtt writes.
 *
 * Stores: the frame's 32-bit words, in order, each to the next offset of
 * the window starting at 0 (the native frame is a whole number of words;
 * volatile, so each word is exactly one aligned 32-bit store, none merged
 * or repeated).  The window then holds the frame byte for byte, as
 * write(2) would have passed it; the next frame starts at offset 0 again.
 */
#include <errno.h>
#include <string.h>

#include "internal/mmio.h"

int mttl_io_mode(const char *s)
{
	if (!s || !s[0] || !strcmp(s, "auto"))
		return MTTL_IO_AUTO;
	if (!strcmp(s, "write"))
		return MTTL_IO_WRITE;
	if (!strcmp(s, "mmap"))
		return MTTL_IO_MMAP;
	return -EINVAL;
}

void mttl_mmio_store(volatile void *win, const uint8_t *frame, size_t n)
{
	volatile uint32_t *w = win;
	volatile uint8_t *b = win;
	uint32_t v;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		memcpy(&v, frame + i, 4);
		w[i / 4] = v;
	}
	for (; i < n; i++)
		b[i] = frame[i];
}
