/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttfw/fwstring.h - the two functions of the C library libmttfw uses,
 * declared here so that it builds without any C library headers (a
 * firmware gives them, or links picolibc or newlib; the host's libc).
 */
#ifndef MTTFW_FWSTRING_H
#define MTTFW_FWSTRING_H

#include <stddef.h>

void *memcpy(void *dest, const void *src, size_t n);
void *memset(void *s, int c, size_t n);

#endif
