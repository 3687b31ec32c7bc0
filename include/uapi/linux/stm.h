/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * STM class user ABI: the ioctls of /dev/<stm device>.
 * Binary compatible with the upstream Linux <uapi/linux/stm.h>.
 */
#ifndef _UAPI_LINUX_STM_H
#define _UAPI_LINUX_STM_H

#include <linux/types.h>

/* Maximum allowed master and channel values */
#define STP_MASTER_MAX	0xffff
#define STP_CHANNEL_MAX	0xffff

/**
 * struct stp_policy_id - identification for the STP policy
 * @size:	size of the structure including real id[] length
 * @master:	assigned master
 * @channel:	first assigned channel
 * @width:	number of requested channels
 * @__reserved_0: must be zero
 * @__reserved_1: must be zero
 * @id:		identification string (a path in the policy tree)
 *
 * The user fills @size, @width and @id; the kernel fills @master and
 * @channel (and rewrites @size to the header size) on success.
 */
struct stp_policy_id {
	__u32		size;
	__u16		master;
	__u16		channel;
	__u16		width;
	__u16		__reserved_0;
	__u32		__reserved_1;
	char		id[];
};

#define STP_POLICY_ID_SET	_IOWR('%', 0, struct stp_policy_id)
#define STP_POLICY_ID_GET	_IOR('%', 1, struct stp_policy_id)
#define STP_SET_OPTIONS		_IOW('%', 2, __u64)

#endif /* _UAPI_LINUX_STM_H */
