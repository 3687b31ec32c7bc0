/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * linux/types.h for freestanding builds (firmware): the __uN/__sN types
 * the uapi headers <linux/mtt_defs.h> and <linux/mtt_frame.h> use, from
 * <stdint.h>.  Only on a firmware's include path (mttfw.mk), never on the
 * host's, where the real one is.
 */
#ifndef MTTFW_LINUX_TYPES_H
#define MTTFW_LINUX_TYPES_H

#include <stdint.h>

typedef uint8_t __u8;
typedef int8_t __s8;
typedef uint16_t __u16;
typedef int16_t __s16;
typedef uint32_t __u32;
typedef int32_t __s32;
typedef uint64_t __u64;
typedef int64_t __s64;

#endif
