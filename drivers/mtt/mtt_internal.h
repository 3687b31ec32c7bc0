/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the mtt module: components, the stm_source "mtt" and its
 * channels, components' own sources, frame building, the hint
 * dictionary and its collateral, and sysfs.
 */
#ifndef _DRIVERS_MTT_INTERNAL_H
#define _DRIVERS_MTT_INTERNAL_H

#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mtt.h>
#include <linux/mutex.h>
#include <linux/stm.h>

/* Trace contexts one CPU can nest: task, softirq, hard IRQ, NMI. */
#define MTT_NEST		4
/* Per-CPU frame buffer size: the largest frame sent. */
#define MTT_BUF_BYTES		4096

/**
 * struct mtt_stats - per-CPU counters of a component
 * @sent:	frames handed to the STM class
 * @dropped:	frames that passed the filters but were not sent
 */
struct mtt_stats {
	u64	sent;
	u64	dropped;
};

/**
 * struct mtt_pin - a component's own stm_source "mtt/<name>" (pin.c)
 * @src:	the source, one channel of policy node mtt/<name>
 * @name:	"mtt/<name>"
 * @linked:	frames go out through @src (its link callbacks set it)
 * @busy:	bit 0: a frame is being written on @src's channel
 * @registered:	@src is registered
 */
struct mtt_pin {
	struct stm_source_data	src;
	char			name[4 + MTT_COMP_NAME_LEN];
	bool			linked;
	unsigned long		busy;
	bool			registered;
};

/**
 * struct mtt_comp - one component
 * @pub:	the part trace points read inline (active level mask)
 * @kobj:	/sys/kernel/mtt/components/<name>
 * @entry:	on mtt_components (RCU for mtt_data_raw(), mtt_mutex)
 * @id:		component id
 * @filter:	the component's own level mask (mtt_mutex)
 * @chan:	channel offset in the source's range (READ_ONCE)
 * @pinned:	@chan was chosen by the user (sysfs or a predefined id)
 * @opens:	mtt_open() calls not yet closed (mtt_mutex)
 * @dead:	closed for the last time (mtt_mutex): its channel is given
 *		back and its directory is going; sysfs writes fail
 * @stats:	counters
 * @pin:	its own source, pinning it through node mtt/<name>
 * @name:	component name
 */
struct mtt_comp {
	struct mtt_component	pub;
	struct kobject		kobj;
	struct list_head	entry;
	u32			id;
	u32			filter;
	unsigned int		chan;
	bool			pinned;
	unsigned int		opens;
	bool			dead;
	struct mtt_stats __percpu *stats;
	struct mtt_pin		pin;
	char			name[MTT_COMP_NAME_LEN];
};

static inline struct mtt_comp *to_mtt_comp(struct mtt_component *pub)
{
	return container_of(pub, struct mtt_comp, pub);
}

/* component.c */
extern struct mutex mtt_mutex;
extern struct list_head mtt_components;
extern u32 mtt_core_filter;
extern u64 mtt_comps_gen;
int mtt_comp_set_filter(struct mtt_comp *c, u32 filter);
void mtt_set_core(u32 filter);
int mtt_comp_set_chan(struct mtt_comp *c, unsigned int chan);
void mtt_comp_stats(struct mtt_comp *c, u64 *sent, u64 *dropped);
void mtt_components_exit(void);

/* output.c */
extern unsigned int mtt_nr_comp_chans;
int mtt_output_init(void);
void mtt_output_exit(void);
unsigned int mtt_chan_pick(void);
void mtt_chan_get(unsigned int chan);
void mtt_chan_put(unsigned int chan);
int mtt_send(struct mtt_comp *c, const void *frame, size_t len,
	     unsigned int cpu, unsigned int depth);

/* frame.c */
int mtt_frames_init(void);
void mtt_frames_exit(void);
void mtt_send_meta(struct mtt_comp *c);

/* pin.c */
int mtt_pin_register(struct mtt_comp *c);
void mtt_pin_unregister(struct mtt_comp *c);

/* dict.c: hint dictionary slots (a power of two), ids 1..MTT_DICT_SLOTS */
#define MTT_DICT_SLOTS		4096
extern bool mtt_hints_dict;
int mtt_hints_set(const char *val);
const char *mtt_hints_get(void);
u32 mtt_dict_id(const char *hint);
bool mtt_dict_text(u32 id, char *text);
unsigned int mtt_dict_count(void);
int mtt_dict_init(void);
void mtt_dict_exit(void);

/* collateral.c */
extern struct kobj_attribute mtt_hints_attr;
extern struct bin_attribute mtt_collateral_attr;
void mtt_collateral_exit(void);

/* sysfs.c */
int mtt_sysfs_init(void);
void mtt_sysfs_exit(void);
int mtt_sysfs_add(struct mtt_comp *c);
void mtt_sysfs_del(struct mtt_comp *c);

#endif /* _DRIVERS_MTT_INTERNAL_H */
