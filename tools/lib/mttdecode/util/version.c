// SPDX-License-Identifier: LGPL-2.1-or-later
/* version.c - the library's version string. */
#include "mttdecode/mttdecode.h"

const char *mttd_version(void)
{
	return MTTD_VERSION_STRING;
}
