// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_crc.c - mttd_crc32c(): the CRC-32C that SyS-T messages carry, as
 * the public API gives it (the one implementation is libwire's,
 * wire/crc.h).
 */
#include "mttdecode/syst.h"
#include "wire/crc.h"

uint32_t mttd_crc32c(const void *p, size_t n)
{
	return wire_crc32c(0, p, n);
}
