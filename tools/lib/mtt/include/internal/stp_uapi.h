/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stp_uapi.h - the STM character device's policy ioctl as libmtt uses
 * it (the ABI of <linux/stm.h>, restated so the library builds without
 * kernel headers).
 */
#ifndef MTTL_STP_UAPI_H
#define MTTL_STP_UAPI_H

#include <stdint.h>
#include <sys/ioctl.h>

struct stp_policy_id {
	uint32_t	size;
	uint16_t	master;
	uint16_t	channel;
	uint16_t	width;
	uint16_t	__reserved_0;
	uint32_t	__reserved_1;
	char		id[];
};

#define STP_POLICY_ID_SET	_IOWR('%', 0, struct stp_policy_id)

#endif
