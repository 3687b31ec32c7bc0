/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Hex digit parsing shared by the library's text readers. */
#ifndef MTTD_HEX_H
#define MTTD_HEX_H

/* Value of the hex digit @c, or -1. */
static inline int mttd_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
