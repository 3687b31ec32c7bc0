/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libmtt.h - libmtt's private types: the component registry (the one
 * piece of process-wide state the MTT API implies: handles carry no
 * context) and the per-thread channels.
 */
#ifndef MTTL_INTERNAL_H
#define MTTL_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "mtt/mtt.h"

struct mttl_comp {
	struct mtt_component	pub;	/* first: the handle points here */
	uint32_t		id;
	uint32_t		filter;
	char			name[MTT_COMP_NAME_LEN];
	int			refs;	/* opens not yet closed */
	unsigned int		gen;	/* bumped when the last open closes */
	uint64_t		sent;	/* atomic */
	uint64_t		dropped;	/* atomic */
	struct mttl_comp	*next;
};

struct mttl_registry {
	pthread_mutex_t		lock;
	struct mttl_comp	*comps;
	uint32_t		core_filter;
	int			configured;	/* an output was chosen */
	char			device[PATH_MAX];
};

/* The registry (registry.c); lock it for anything but comp->pub.active. */
struct mttl_registry *mttl_reg(void);

static inline struct mttl_comp *mttl_comp(mtt_comp_handle_t h)
{
	return (struct mttl_comp *)h;
}

/* The calling thread's channel for comp: its fd, or -1 (errno set). */
int mttl_chan_fd(struct mttl_comp *c, uint32_t *channel);
/* Send one frame on the calling thread's channel for comp (opened if
 * need be): stored into its MMIO window or written; 0 or -errno. */
int mttl_chan_send(struct mttl_comp *c, const uint8_t *buf, size_t n);
/* The calling thread's mapped window for comp, if it has one (tests). */
int mttl_chan_window(struct mttl_comp *c, volatile void **win, size_t *len);
/* Has the calling thread a channel for comp?  Its number then. */
int mttl_chan_peek(struct mttl_comp *c, uint32_t *channel);
/* The open component of an id; 0 or -ENOENT. */
int mttl_lookup_id(uint32_t id, struct mttl_comp **out);
/* Close the calling thread's channel of comp, if any. */
void mttl_chan_drop(struct mttl_comp *c);
/* Close all the calling thread's channels. */
void mttl_chan_drop_all(void);
/* The calling thread's id (cached). */
uint32_t mttl_tid(void);
/* Resolve the output path into reg->device; 0 or -errno.  Locked. */
int mttl_device_path(struct mttl_registry *reg);

#endif
