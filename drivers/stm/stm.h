/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the STM class: the device and source objects,
 * outputs (a master/channel range in use), the protocol driver API and
 * the policy lookup used by the core.
 */
#ifndef _DRIVERS_STM_STM_H_
#define _DRIVERS_STM_STM_H_

#include <linux/configfs.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/stm.h>

struct stp_policy;
struct stp_policy_node;
struct stm_protocol_driver;

/**
 * struct stm_output - a master/channel range assigned to a writer
 * @master:		assigned master
 * @channel:		first assigned channel
 * @nr_chans:		number of channels; 0 while unassigned
 * @pdrv_private:	protocol driver's per-output state
 * @pdrv:		protocol driver that opened this output (holds a
 *			module reference while the output is assigned)
 */
struct stm_output {
	unsigned int				master;
	unsigned int				channel;
	unsigned int				nr_chans;
	void					*pdrv_private;
	const struct stm_protocol_driver	*pdrv;
};

/**
 * struct stm_device - one registered STM device
 * @dev:	class device, /sys/class/stm/<name>
 * @major:	char device major (minor is always 0)
 * @owner:	module of the driver that registered the device
 * @data:	driver description; NULL once unregistered (RCU for the
 *		write path, @data_mutex for sleeping callbacks)
 * @data_mutex:	held around driver callbacks that may sleep
 * @policy:	bound policy or NULL (stp_policy_mutex)
 * @pdrv:	protocol of the bound policy (stp_policy_mutex)
 * @chan_mutex:	protects @masters (process context only)
 * @link_list:	linked stm_source devices (stm_link_mutex)
 * @dead:	being unregistered: no new links or policies (written
 *		under stm_link_mutex, WRITE_ONCE; read elsewhere with READ_ONCE)
 * @sw_start:	copies of the driver's ranges, fixed at registration
 * @sw_end:
 * @sw_nchannels:
 * @sw_mmiosz:
 * @hw_override:
 * @nr_masters:	sw_end - sw_start + 1
 * @masters:	per-master channel bitmaps, allocated on first use
 */
struct stm_device {
	struct device				dev;
	int					major;
	struct module				*owner;
	struct stm_data __rcu			*data;
	struct mutex				data_mutex;	/* see above */
	struct stp_policy			*policy;
	const struct stm_protocol_driver	*pdrv;
	struct mutex				chan_mutex;	/* @masters */
	struct list_head			link_list;
	bool					dead;
	unsigned int				sw_start;
	unsigned int				sw_end;
	unsigned int				sw_nchannels;
	unsigned int				sw_mmiosz;
	unsigned int				hw_override;
	unsigned int				nr_masters;
	unsigned long				*masters[];
};

#define to_stm_device(_d) container_of((_d), struct stm_device, dev)

/**
 * struct stm_source_device - one registered stm_source
 * @dev:	class device, /sys/class/stm_source/<name>
 * @data:	the source driver's description
 * @link:	linked STM device or NULL (RCU-sched; stm_link_mutex)
 * @output:	channels assigned while linked
 * @link_entry:	on @link's link_list
 * @dead:	being unregistered: links refused (stm_link_mutex)
 * @drops:	writes refused while linked (sysfs "drops"; lock-free)
 */
struct stm_source_device {
	struct device			dev;
	struct stm_source_data		*data;
	struct stm_device __rcu		*link;
	struct stm_output		output;
	struct list_head		link_entry;
	bool				dead;
	atomic_long_t			drops;
};

#define to_stm_source_device(_d) \
	container_of((_d), struct stm_source_device, dev)

/**
 * struct stm_protocol_driver - a framing protocol (p_basic, p_sys-t, ...)
 * @owner:		module
 * @name:		"p_basic", ...; selected by the policy directory name
 * @write:		frame @count bytes on @output's channel + @chan; may be
 *			called in any context (NMI included), must not sleep
 * @policy_node_init:	initialise a new policy node's @priv_sz bytes
 * @output_open:	copy the node's settings (@priv) into the output;
 *			process context, may allocate
 * @output_close:	free what @output_open set up
 * @priv_sz:		bytes of per-node protocol settings
 * @policy_attr:	NULL-terminated extra configfs attributes of a node
 */
struct stm_protocol_driver {
	struct module			*owner;
	const char			*name;
	ssize_t				(*write)(struct stm_data *data,
						 struct stm_output *output,
						 unsigned int chan,
						 const char *buf, size_t count,
						 struct stm_source_data *source);
	void				(*policy_node_init)(void *arg);
	int				(*output_open)(void *priv,
						       struct stm_output *output);
	void				(*output_close)(struct stm_output *output);
	ssize_t				priv_sz;
	struct configfs_attribute	**policy_attr;
};

int stm_register_protocol(const struct stm_protocol_driver *pdrv);
void stm_unregister_protocol(const struct stm_protocol_driver *pdrv);

/* Protocol lookup by name (NULL: "p_basic"), loading stm_<name> if needed;
 * takes a module reference on success.  Process context.
 */
int stm_lookup_protocol(const char *name,
			const struct stm_protocol_driver **pdrv);
void stm_put_protocol(const struct stm_protocol_driver *pdrv);

/*
 * Send @count bytes as STP DATA packets of 8/4/2/1 bytes on master @m,
 * channel @c; the first packet is timestamped if @ts_first.  Returns the
 * bytes sent or -errno.  Any context.
 */
ssize_t stm_data_write(struct stm_data *data, unsigned int m, unsigned int c,
		       bool ts_first, const void *buf, size_t count);
/* Same, and the last packet is marked (end of message). */
ssize_t stm_data_write_marked(struct stm_data *data, unsigned int m,
			      unsigned int c, bool ts_first, const void *buf,
			      size_t count);
/*
 * Ours: the @nseg pieces at @seg (a message's fields) as the packets of
 * one stm_data_write() per piece, in one run: one call of a device's
 * data_run.  Returns the bytes sent or -errno.  Any context.
 */
ssize_t stm_data_writev(struct stm_data *data, unsigned int m, unsigned int c,
			bool ts_first, const struct stm_run_seg *seg,
			unsigned int nseg);

/* The protocol's private area of a policy node (for policy_attr code). */
void *to_pdrv_policy_node(struct config_item *item);

/* core.c */
extern struct class stm_class;
extern struct mutex stm_link_mutex;
struct stm_device *stm_find_device(const char *name);
void stm_put_device(struct stm_device *stm);

/*
 * Process context: the driver's data, held against unregistration until
 * stm_data_put() (sleeping callbacks such as link/unlink/set_options).
 * NULL once the device is unregistered; stm_data_put() is still owed.
 */
static inline struct stm_data *stm_data_get(struct stm_device *stm)
{
	mutex_lock(&stm->data_mutex);
	return rcu_dereference_protected(stm->data,
					 lockdep_is_held(&stm->data_mutex));
}

static inline void stm_data_put(struct stm_device *stm)
{
	mutex_unlock(&stm->data_mutex);
}

/* chardev.c */
extern const struct file_operations stm_fops;

/* output.c: assignment of channels by policy; process context */
int stm_assign_first_policy(struct stm_device *stm, struct stm_output *output,
			    const char * const *ids, unsigned int width);
void stm_output_free(struct stm_device *stm, struct stm_output *output);
ssize_t stm_output_write(struct stm_device *stm, struct stm_output *output,
			 unsigned int chan, const char *buf, size_t count,
			 struct stm_source_data *source);

/* source.c */
int stm_source_class_init(void);
void stm_source_class_exit(void);
void stm_unlink_all_sources(struct stm_device *stm);

/* policy.c */
extern struct mutex stp_policy_mutex;
int stp_configfs_init(void);
void stp_configfs_exit(void);
void stp_policy_unbind(struct stp_policy *policy);

/**
 * struct stp_node_ranges - a policy node's settings, copied out at lookup
 * @first_master, @last_master, @first_channel, @last_channel: ranges
 */
struct stp_node_ranges {
	unsigned int first_master;
	unsigned int last_master;
	unsigned int first_channel;
	unsigned int last_channel;
};

/*
 * Find the deepest node on the path @id in @stm's policy; on success copy
 * its ranges and open @output's protocol state from it via @open (called
 * with the node held).  -ENOENT if no node matches.  Process context.
 */
int stp_policy_node_lookup(struct stm_device *stm, const char *id,
			   int (*open)(struct stm_device *stm,
				       const struct stp_node_ranges *r,
				       void *pdrv_priv, void *arg),
			   void *arg);

#endif /* _DRIVERS_STM_STM_H_ */
