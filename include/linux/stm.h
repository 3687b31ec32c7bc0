/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-kernel API of the STM class: STM device drivers and stm_source
 * drivers include this.  Names, types and structure layouts are those of
 * the upstream Linux <linux/stm.h>, so drivers written for upstream build
 * and run against this out-of-tree class unchanged; one optional member
 * of ours ends struct stm_data (@data_run, with struct stm_run_seg;
 * STM_DATA_HAS_RUN).
 */
#ifndef _STM_H_
#define _STM_H_

#include <linux/device.h>

/**
 * enum stp_packet_type - STP packets that an STM driver sends
 */
enum stp_packet_type {
	STP_PACKET_DATA = 0,
	STP_PACKET_FLAG,
	STP_PACKET_USER,
	STP_PACKET_MERR,
	STP_PACKET_GERR,
	STP_PACKET_TRIG,
	STP_PACKET_XSYNC,
};

/**
 * enum stp_packet_flags - STP packet flags
 */
enum stp_packet_flags {
	STP_PACKET_MARKED	= 0x1,
	STP_PACKET_TIMESTAMPED	= 0x2,
};

struct stp_policy;
struct stm_device;

/**
 * struct stm_run_seg - one piece of a run of DATA payload (ours, with
 *	stm_data::data_run; STM_DATA_HAS_RUN)
 * @buf:	its bytes
 * @len:	how many (0: an empty piece, skipped)
 *
 * A protocol sends the fields of a message (a header, an identifier, a
 * length, the payload) as one run of pieces: one call, and the packets
 * that a call per field would give.
 */
struct stm_run_seg {
	const void	*buf;
	size_t		len;
};

/**
 * struct stm_data - STM device description and callbacks
 * @name:		device name; the char device is /dev/@name
 * @stm:		internal, filled in by the class
 * @sw_start:		first STP master available to software
 * @sw_end:		last STP master available to software
 * @sw_nchannels:	number of STP channels per master
 * @sw_mmiosz:		size of one channel's MMIO space, 0 if none
 * @hw_override:	masters in the STP stream will not match the ones
 *			used by software (shown in sysfs)
 * @packet:		send one STP packet; returns bytes consumed or -errno.
 *			May be called in any context (NMI included).
 * @mmio_addr:		physical address of a channel range's MMIO space
 * @link:		a master/channel range is about to be used
 * @unlink:		a master/channel range is no longer used
 * @set_options:	set device-specific options on a channel range
 * @data_run:		optional, ours (not in upstream's <linux/stm.h>; see
 *			STM_DATA_HAS_RUN): send the @nseg pieces at @seg, in
 *			order, on one channel as the DATA packets of 8/4/2/1
 *			bytes that calls of @packet would send for each piece
 *			in turn (each cut on its own by stm_data_run_lg()),
 *			the run's first packet timestamped if @flags has
 *			STP_PACKET_TIMESTAMPED, its last marked if it has
 *			STP_PACKET_MARKED; returns the bytes of the packets
 *			sent (0 for none asked) or -errno.  Any context, NMI
 *			included.  NULL: the class calls @packet per packet.
 *
 * Fill this in and hand it to stm_register_device().
 */
struct stm_data {
	const char		*name;
	struct stm_device	*stm;
	unsigned int		sw_start;
	unsigned int		sw_end;
	unsigned int		sw_nchannels;
	unsigned int		sw_mmiosz;
	unsigned int		hw_override;
	ssize_t			(*packet)(struct stm_data *data,
					  unsigned int master,
					  unsigned int channel,
					  unsigned int packet,
					  unsigned int flags,
					  unsigned int size,
					  const unsigned char *payload);
	phys_addr_t		(*mmio_addr)(struct stm_data *data,
					     unsigned int master,
					     unsigned int channel,
					     unsigned int nr_chans);
	int			(*link)(struct stm_data *data,
					unsigned int master,
					unsigned int channel);
	void			(*unlink)(struct stm_data *data,
					  unsigned int master,
					  unsigned int channel);
	long			(*set_options)(struct stm_data *data,
					       unsigned int master,
					       unsigned int channel,
					       unsigned int nr_chans,
					       unsigned long options);
	ssize_t			(*data_run)(struct stm_data *data,
					    unsigned int master,
					    unsigned int channel,
					    unsigned int flags,
					    const struct stm_run_seg *seg,
					    unsigned int nseg);
};

/*
 * This class's struct stm_data has @data_run (upstream's has not): a
 * device driver built for both sets it under #ifdef STM_DATA_HAS_RUN.
 */
#define STM_DATA_HAS_RUN	1

/**
 * stm_data_run_lg() - log2 of the next DATA packet's size in a run
 * @left: bytes of the run not sent yet (at least 1)
 *
 * The class cuts each piece of a run into packets of 8 bytes while 8
 * are left, then one each of 4, 2 and 1 as needed; a device's @data_run
 * sends the same packets, so both take the size from here (ours,
 * STM_DATA_HAS_RUN).
 * Context: any.
 *
 * Return: 3, 2, 1 or 0 (packets of 8, 4, 2 or 1 bytes).
 */
static __always_inline unsigned int stm_data_run_lg(size_t left)
{
	return left >= 8 ? 3 : left >= 4 ? 2 : left >= 2 ? 1 : 0;
}

int stm_register_device(struct device *parent, struct stm_data *stm_data,
			struct module *owner);
void stm_unregister_device(struct stm_data *stm_data);

struct stm_source_device;

/**
 * struct stm_source_data - STM source device description and callbacks
 * @name:	source name; also the policy node it looks for
 * @src:	internal, filled in by the class
 * @percpu:	unused, kept for layout compatibility
 * @nr_chans:	number of channels the source needs
 * @link:	called (process context) after the source is linked
 * @unlink:	called (process context) before the source is unlinked
 */
struct stm_source_data {
	const char		*name;
	struct stm_source_device *src;
	unsigned int		percpu;
	unsigned int		nr_chans;
	int			(*link)(struct stm_source_data *data);
	void			(*unlink)(struct stm_source_data *data);
};

int stm_source_register_device(struct device *parent,
			       struct stm_source_data *data);
void stm_source_unregister_device(struct stm_source_data *data);

int notrace stm_source_write(struct stm_source_data *data, unsigned int chan,
			     const char *buf, size_t count);

#endif /* _STM_H_ */
