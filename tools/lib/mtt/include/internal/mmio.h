/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mmio.h - libmtt's output choice ($MTT_IO: auto, write, mmap) and the
 * stores of a frame into a mapped channel window (mmio.c).
 */
#ifndef MTTL_MMIO_H
#define MTTL_MMIO_H

#include <stddef.h>
#include <stdint.h>

enum {
	MTTL_IO_AUTO,	/* mmap where the device offers it, else write(2) */
	MTTL_IO_WRITE,	/* always write(2) */
	MTTL_IO_MMAP,	/* mmap, or the channel does not open */
};

/* The mode $MTT_IO names (NULL or "" is auto); -EINVAL if unknown. */
int mttl_io_mode(const char *s);

/* Store the n-byte frame at the start of the mapped window win. */
void mttl_mmio_store(volatile void *win, const uint8_t *frame, size_t n);

#endif
