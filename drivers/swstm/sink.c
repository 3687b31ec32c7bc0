// SPDX-License-Identifier: GPL-2.0
/*
 * swstm sink: the misc char device /dev/swstm.N-sink that delivers the
 * STPv2 stream, and its sysfs counters.  The counters tell about what
 * is traced, which only root may read (the sink is 0600): they are 0400.
 *
 * One reader at a time.  Reads are destructive (like trace_pipe) and
 * block until there is data.  The write path never waits for the
 * reader: it only queues an irq_work (NMI-safe) when a reader has said,
 * through ->waiting, that it is about to sleep.
 */
#include <linux/bitops.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "swstm.h"

/* encoder output buffer of one reader */
#define SWSTM_BOUNCE_SIZE	(4 * PAGE_SIZE)
/* one read() returns after this much even if writers keep the sink full */
#define SWSTM_READ_MAX		SZ_4M

/**
 * struct swstm_reader - one open file of the sink
 * @sw:		the device
 * @lock:	serialises read() on this file
 * @enc:	encoder state, output bytes not yet read included
 */
struct swstm_reader {
	struct swstm_dev	*sw;
	struct mutex		lock;	/* protects @enc and the ring's reader side */
	struct swstm_enc	enc;
};

static struct swstm_dev *misc_to_swstm(struct miscdevice *misc)
{
	return container_of(misc, struct swstm_dev, misc);
}

/*
 * Write path, after a packet is committed.  Any context.  The full
 * barrier pairs with the one in swstm_sink_arm(): either the reader
 * sees the packet, or we see ->waiting and wake it (store buffering;
 * Documentation/ordering.rst, "The sink's waiting flag").
 */
notrace void swstm_sink_kick(struct swstm_dev *sw)
{
	/*
	 * Order the slot commit (a store-release, which orders nothing
	 * after it) before the ->waiting load; pairs with swstm_sink_arm()
	 */
	smp_mb();
	if (READ_ONCE(sw->waiting))
		irq_work_queue(&sw->wake_work);
}

/* irq_work: hard irq, or the irq_work thread under PREEMPT_RT */
static void swstm_sink_wake(struct irq_work *work)
{
	struct swstm_dev *sw = container_of(work, struct swstm_dev, wake_work);

	WRITE_ONCE(sw->waiting, false);
	wake_up_interruptible_poll(&sw->wq, EPOLLIN | EPOLLRDNORM);
}

/*
 * Process context: is there something to read?  If not, the write path
 * will wake us when there is; packets staged for a while are asked for.
 */
static bool swstm_sink_arm(struct swstm_dev *sw)
{
	WRITE_ONCE(sw->waiting, true);
	/*
	 * Order the ->waiting store before the ring check; pairs with
	 * swstm_sink_kick() (ordering.rst)
	 */
	smp_mb();
	if (!swstm_ring_readable(&sw->ring)) {
		swstm_stage_check(sw);
		return false;
	}
	WRITE_ONCE(sw->waiting, false);
	return true;
}

static int swstm_sink_open(struct inode *inode, struct file *file)
{
	struct swstm_dev *sw = misc_to_swstm(file->private_data);
	struct swstm_reader *rd;
	struct swstm_rec *rec;
	u8 *buf;

	if (!(file->f_mode & FMODE_READ))
		return -EINVAL;
	/*
	 * One reader: acquire, pairs with clear_bit_unlock() in
	 * swstm_sink_release(): the last reader's ring reads and frees
	 * are done (ordering.rst, "The sink's reader bit")
	 */
	if (test_and_set_bit_lock(0, &sw->reader))
		return -EBUSY;

	rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	buf = kvmalloc(SWSTM_BOUNCE_SIZE, GFP_KERNEL);
	rec = kvzalloc(sizeof(*rec) + SWSTM_STREAM_MAX, GFP_KERNEL);
	if (!rd || !buf || !rec) {
		kvfree(rec);
		kvfree(buf);
		kfree(rd);
		clear_bit_unlock(0, &sw->reader);
		return -ENOMEM;
	}
	rd->sw = sw;
	mutex_init(&rd->lock);
	swstm_enc_init(&rd->enc, buf, SWSTM_BOUNCE_SIZE, rec,
		       READ_ONCE(swstm_sync_interval), READ_ONCE(sw->format));
	file->private_data = rd;
	return stream_open(inode, file);
}

static int swstm_sink_release(struct inode *inode, struct file *file)
{
	struct swstm_reader *rd = file->private_data;
	struct swstm_dev *sw = rd->sw;

	WRITE_ONCE(sw->waiting, false);
	mutex_destroy(&rd->lock);
	kvfree(rd->enc.rec);
	kvfree(rd->enc.buf);
	kfree(rd);
	/* release: pairs with test_and_set_bit_lock() in swstm_sink_open() */
	clear_bit_unlock(0, &sw->reader);
	return 0;
}

/* bytes of encoded output ready for the user */
static size_t swstm_reader_avail(struct swstm_reader *rd)
{
	return rd->enc.wr - rd->enc.rd;
}

/*
 * Copy out what is ready, encoding more as needed.  Returns bytes
 * copied, or -EFAULT if none could be.  Called with rd->lock held.
 */
static ssize_t swstm_reader_copy(struct swstm_reader *rd, char __user *ubuf,
				 size_t count)
{
	struct swstm_enc *enc = &rd->enc;
	size_t done = 0, n, left;

	count = min_t(size_t, count, SWSTM_READ_MAX);
	while (done < count) {
		if (!swstm_reader_avail(rd)) {
			swstm_enc_fill(enc, &rd->sw->ring, count - done);
			if (!swstm_reader_avail(rd))
				break;
		}
		n = min(swstm_reader_avail(rd), count - done);
		left = copy_to_user(ubuf + done, enc->buf + enc->rd, n);
		enc->rd += n - left;
		done += n - left;
		if (left)
			return done ? done : -EFAULT;
		cond_resched();
	}
	return done;
}

static ssize_t swstm_sink_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct swstm_reader *rd = file->private_data;
	struct swstm_dev *sw = rd->sw;
	ssize_t ret;

	if (!count)
		return 0;
	for (;;) {
		if (mutex_lock_interruptible(&rd->lock))
			return -ERESTARTSYS;
		ret = swstm_reader_copy(rd, ubuf, count);
		mutex_unlock(&rd->lock);
		if (ret)
			break;
		if (file->f_flags & O_NONBLOCK) {
			/* packets staged for a while: for the next read */
			swstm_stage_check(sw);
			return -EAGAIN;
		}
		if (wait_event_interruptible(sw->wq, swstm_sink_arm(sw)))
			return -ERESTARTSYS;
	}
	if (ret > 0)
		atomic64_add(ret, &sw->bytes_read);
	return ret;
}

static __poll_t swstm_sink_poll(struct file *file, poll_table *wait)
{
	struct swstm_reader *rd = file->private_data;
	struct swstm_dev *sw = rd->sw;

	poll_wait(file, &sw->wq, wait);
	/*
	 * Output left over, a pending half byte a read would pad, or
	 * packets left in the record being encoded (taken off the ring).
	 */
	if (READ_ONCE(rd->enc.rd) != READ_ONCE(rd->enc.wr) ||
	    READ_ONCE(rd->enc.half) ||
	    READ_ONCE(rd->enc.rec_pos) < READ_ONCE(rd->enc.rec->len))
		return EPOLLIN | EPOLLRDNORM;
	if (swstm_sink_arm(sw))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

static const struct file_operations swstm_sink_fops = {
	.owner		= THIS_MODULE,
	.open		= swstm_sink_open,
	.release	= swstm_sink_release,
	.read		= swstm_sink_read,
	.poll		= swstm_sink_poll,
};

static struct swstm_dev *dev_to_swstm(struct device *dev)
{
	return misc_to_swstm(dev_get_drvdata(dev));
}

static ssize_t bytes_written_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", swstm_ring_bytes(&dev_to_swstm(dev)->ring));
}
static DEVICE_ATTR_ADMIN_RO(bytes_written);

static ssize_t bytes_read_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)atomic64_read(&dev_to_swstm(dev)->bytes_read));
}
static DEVICE_ATTR_ADMIN_RO(bytes_read);

static ssize_t packets_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  swstm_ring_packets(&dev_to_swstm(dev)->ring));
}
static DEVICE_ATTR_ADMIN_RO(packets);

static ssize_t drops_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%lu\n",
			  (unsigned long)atomic_long_read(&dev_to_swstm(dev)->ring.drops));
}
static DEVICE_ATTR_ADMIN_RO(drops);

static ssize_t queued_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%lu\n",
			  swstm_ring_queued(&dev_to_swstm(dev)->ring));
}
static DEVICE_ATTR_ADMIN_RO(queued);

static ssize_t overwrite_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(dev_to_swstm(dev)->ring.overwrite) ? 1 : 0);
}

static ssize_t overwrite_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	bool val;
	int ret;

	ret = kstrtobool(buf, &val);
	if (ret)
		return ret;
	WRITE_ONCE(dev_to_swstm(dev)->ring.overwrite, val);
	return count;
}
static DEVICE_ATTR_RW(overwrite);

static ssize_t size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct swstm_ring *ring = &dev_to_swstm(dev)->ring;

	return sysfs_emit(buf, "%lu\n",
			  (ring->mask + 1) * SWSTM_SLOT_SIZE);
}
static DEVICE_ATTR_RO(size);

/*
 * Output format: "stp" or "riscv", and the RISC-V widths.  A reader
 * gets the setting in force when it opened the sink; a change applies
 * from the next open.  Process context; the update of the one word is
 * a cmpxchg loop so that concurrent stores of different fields all stay.
 */
static void swstm_format_update(struct swstm_dev *sw, unsigned int mask,
				unsigned int val)
{
	unsigned int old = READ_ONCE(sw->format), cur;

	for (;;) {
		cur = cmpxchg(&sw->format, old, (old & ~mask) | val);
		if (cur == old)
			return;
		old = cur;
	}
}

static ssize_t format_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	unsigned int f = READ_ONCE(dev_to_swstm(dev)->format);

	return sysfs_emit(buf, "%s\n", SWSTM_FORMAT_FMT(f) == SWSTM_FMT_RISCV ?
			  "riscv" : "stp");
}

static ssize_t format_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	unsigned int fmt;

	if (sysfs_streq(buf, "stp"))
		fmt = SWSTM_FMT_STP;
	else if (sysfs_streq(buf, "riscv"))
		fmt = SWSTM_FMT_RISCV;
	else
		return -EINVAL;
	swstm_format_update(dev_to_swstm(dev), SWSTM_FORMAT(0xff, 0, 0), fmt);
	return count;
}
static DEVICE_ATTR_RW(format);

static ssize_t srcid_bits_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  SWSTM_FORMAT_SRCID(READ_ONCE(dev_to_swstm(dev)->format)));
}

static ssize_t srcid_bits_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 0, &val);
	if (ret)
		return ret;
	if (val > SWSTM_RV_MAX_SRCID)
		return -EINVAL;
	swstm_format_update(dev_to_swstm(dev), SWSTM_FORMAT(0, 0xff, 0),
			    SWSTM_FORMAT(0, val, 0));
	return count;
}
static DEVICE_ATTR_RW(srcid_bits);

static ssize_t ts_bytes_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  SWSTM_FORMAT_TS(READ_ONCE(dev_to_swstm(dev)->format)));
}

static ssize_t ts_bytes_store(struct device *dev,
			      struct device_attribute *attr,
			      const char *buf, size_t count)
{
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 0, &val);
	if (ret)
		return ret;
	if (val > SWSTM_RV_MAX_TS)
		return -EINVAL;
	swstm_format_update(dev_to_swstm(dev), SWSTM_FORMAT(0, 0, 0xff),
			    SWSTM_FORMAT(0, 0, val));
	return count;
}
static DEVICE_ATTR_RW(ts_bytes);

static struct attribute *swstm_sink_attrs[] = {
	&dev_attr_format.attr,
	&dev_attr_srcid_bits.attr,
	&dev_attr_ts_bytes.attr,
	&dev_attr_bytes_written.attr,
	&dev_attr_bytes_read.attr,
	&dev_attr_packets.attr,
	&dev_attr_drops.attr,
	&dev_attr_queued.attr,
	&dev_attr_overwrite.attr,
	&dev_attr_size.attr,
	NULL,
};
ATTRIBUTE_GROUPS(swstm_sink);

/* Process context, the ring initialised. */
int swstm_sink_register(struct swstm_dev *sw)
{
	init_waitqueue_head(&sw->wq);
	init_irq_work(&sw->wake_work, swstm_sink_wake);
	sw->misc.minor = MISC_DYNAMIC_MINOR;
	sw->misc.name = sw->sink_name;
	sw->misc.fops = &swstm_sink_fops;
	sw->misc.groups = swstm_sink_groups;
	sw->misc.mode = 0600;
	return misc_register(&sw->misc);
}

/* Process context, after the STM device is gone (no more writers). */
void swstm_sink_unregister(struct swstm_dev *sw)
{
	misc_deregister(&sw->misc);
	irq_work_sync(&sw->wake_work);
}
