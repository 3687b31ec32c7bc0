// SPDX-License-Identifier: GPL-2.0
/*
 * The STM char device, /dev/<stm device>: write() sends a message through
 * the fd's output, ioctls set and query the policy id and device options,
 * mmap exposes channel MMIO where the device has it.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <uapi/linux/stm.h>

#include <stm_compat.h>
#include "stm.h"

/* Messages up to this size are copied on the stack: no allocation. */
#define STM_STACK_BUF	256

/**
 * struct stm_file - per open file state
 * @stm:	the device (reference held while open)
 * @lock:	serialises assignment of @output
 * @output:	channels in use; nr_chans is 0 until assigned
 * @buf:	PAGE_SIZE bounce buffer for large writes, allocated lazily
 * @buf_busy:	bit 0 set while a writer uses @buf
 */
struct stm_file {
	struct stm_device	*stm;
	struct mutex		lock;	/* serialises assignment */
	struct stm_output	output;
	char			*buf;
	unsigned long		buf_busy;
};

static int stm_match_devt(struct device *dev, const void *devt)
{
	return dev->devt == *(const dev_t *)devt;
}

static int stm_char_open(struct inode *inode, struct file *file)
{
	struct stm_file *stmf;
	struct device *dev;
	dev_t devt = inode->i_rdev;
	int err = -ENODEV;

	dev = class_find_device(&stm_class, NULL, &devt, stm_match_devt);
	if (!dev)
		return -ENODEV;

	stmf = kzalloc(sizeof(*stmf), GFP_KERNEL);
	if (!stmf) {
		err = -ENOMEM;
		goto err_put_device;
	}

	stmf->stm = to_stm_device(dev);
	mutex_init(&stmf->lock);
	if (!try_module_get(stmf->stm->owner))
		goto err_free;

	file->private_data = stmf;
	return stream_open(inode, file);

err_free:
	kfree(stmf);
err_put_device:
	put_device(dev);
	return err;
}

/* Undo a fully assigned output: device unlink, protocol, channels. */
static void stm_file_output_release(struct stm_file *stmf)
{
	struct stm_device *stm = stmf->stm;
	struct stm_data *data;

	if (!stmf->output.nr_chans)
		return;

	data = stm_data_get(stm);
	if (data && data->unlink)
		data->unlink(data, stmf->output.master, stmf->output.channel);
	stm_data_put(stm);

	stm_output_free(stm, &stmf->output);
}

static int stm_char_release(struct inode *inode, struct file *file)
{
	struct stm_file *stmf = file->private_data;
	struct stm_device *stm = stmf->stm;

	stm_file_output_release(stmf);
	kfree(stmf->buf);
	kfree(stmf);
	stm_put_device(stm);
	return 0;
}

/*
 * Assign channels by policy to an fd that has none and tell the device.
 * -EBUSY if the fd already has channels.  Context: process.
 */
static int stm_file_assign(struct stm_file *stmf, const char * const *ids,
			   unsigned int width)
{
	struct stm_device *stm = stmf->stm;
	struct stm_output output = {};
	struct stm_data *data;
	int err;

	mutex_lock(&stmf->lock);
	if (stmf->output.nr_chans) {
		err = -EBUSY;
		goto unlock;
	}

	err = stm_assign_first_policy(stm, &output, ids, width);
	if (err)
		goto unlock;

	data = stm_data_get(stm);
	if (!data)
		err = -ENODEV;
	else if (data->link)
		err = data->link(data, output.master, output.channel);
	stm_data_put(stm);
	if (err) {
		stm_output_free(stm, &output);
		goto unlock;
	}

	stmf->output.master = output.master;
	stmf->output.channel = output.channel;
	stmf->output.pdrv_private = output.pdrv_private;
	stmf->output.pdrv = output.pdrv;
	/*
	 * Publishes the fields above to lockless readers: pairs with the
	 * smp_load_acquire() of nr_chans in stm_char_write(),
	 * stm_set_options(), stm_policy_id_get() and stm_char_mmap()
	 * (Documentation/ordering.rst, "The char device's output").
	 */
	smp_store_release(&stmf->output.nr_chans, output.nr_chans);
unlock:
	mutex_unlock(&stmf->lock);
	return err;
}

/* Claim the per-file bounce buffer, or allocate one for a rare overlap. */
static char *stm_file_get_buf(struct stm_file *stmf, size_t count)
{
	/*
	 * Acquire: pairs with clear_bit_unlock() in stm_file_put_buf()
	 * (and below): the last user is done with the buffer.
	 */
	if (test_and_set_bit_lock(0, &stmf->buf_busy))
		return kmalloc(count, GFP_KERNEL);
	if (!stmf->buf) {
		stmf->buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
		if (!stmf->buf) {
			/* release: pairs with test_and_set_bit_lock() above */
			clear_bit_unlock(0, &stmf->buf_busy);
			return NULL;
		}
	}
	return stmf->buf;
}

static void stm_file_put_buf(struct stm_file *stmf, char *buf)
{
	/* release: pairs with test_and_set_bit_lock() in stm_file_get_buf() */
	if (buf == stmf->buf)
		clear_bit_unlock(0, &stmf->buf_busy);
	else
		kfree(buf);
}

static ssize_t stm_char_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct stm_file *stmf = file->private_data;
	char stack_buf[STM_STACK_BUF];
	ssize_t ret;
	char *buf;

	if (count >= PAGE_SIZE)
		count = PAGE_SIZE - 1;

	/*
	 * No id set: the task's name, then "default" pick the channel.
	 * Pairs with smp_store_release() in stm_file_assign().  If another
	 * thread assigns first, stm_file_assign() returns -EBUSY after
	 * taking stmf->lock, which orders that thread's fields for us.
	 */
	if (!smp_load_acquire(&stmf->output.nr_chans)) {
		char comm[TASK_COMM_LEN];
		const char *ids[3];

		get_task_comm(comm, current);
		ids[0] = comm;
		ids[1] = "default";
		ids[2] = NULL;
		ret = stm_file_assign(stmf, ids, 1);
		/* -EBUSY: another thread just assigned it, which is fine. */
		if (ret && ret != -EBUSY)
			return ret;
	}

	if (!count)
		return 0;

	if (count <= sizeof(stack_buf)) {
		buf = stack_buf;
	} else {
		buf = stm_file_get_buf(stmf, count);
		if (!buf)
			return -ENOMEM;
	}

	if (copy_from_user(buf, ubuf, count))
		ret = -EFAULT;
	else
		ret = stm_output_write(stmf->stm, &stmf->output, 0, buf, count,
				       NULL);

	if (buf != stack_buf)
		stm_file_put_buf(stmf, buf);
	return ret;
}

static unsigned int stm_width_limit(const struct stm_device *stm)
{
	return stm->sw_mmiosz ? PAGE_SIZE / stm->sw_mmiosz : 1;
}

static long stm_policy_id_set(struct stm_file *stmf, void __user *arg)
{
	struct stp_policy_id *id;
	const char *ids[2] = { NULL, NULL };
	unsigned int width;
	u32 size;
	int err;

	/* a hint only: stm_file_assign() checks again under stmf->lock */
	if (READ_ONCE(stmf->output.nr_chans))
		return -EBUSY;

	if (copy_from_user(&size, arg, sizeof(size)))
		return -EFAULT;
	if (size < sizeof(*id) || size >= PATH_MAX + sizeof(*id))
		return -EINVAL;

	/* One more byte: the id is always NUL-terminated here. */
	id = kzalloc(size + 1, GFP_KERNEL);
	if (!id)
		return -ENOMEM;

	if (copy_from_user(id, arg, size)) {
		err = -EFAULT;
		goto out;
	}

	width = id->width;
	err = -EINVAL;
	if (id->__reserved_0 || id->__reserved_1)
		goto out;
	if (width < 1 || width > stm_width_limit(stmf->stm))
		goto out;

	ids[0] = id->id;
	err = stm_file_assign(stmf, ids, width);
	if (err)
		goto out;

	id->size = sizeof(*id);
	id->master = stmf->output.master;
	id->channel = stmf->output.channel;
	id->width = stmf->output.nr_chans;
	if (copy_to_user(arg, id, sizeof(*id)))
		err = -EFAULT;
out:
	kfree(id);
	return err;
}

static long stm_policy_id_get(struct stm_file *stmf, void __user *arg)
{
	struct stp_policy_id id = { .size = sizeof(id) };

	/* Pairs with smp_store_release() in stm_file_assign(). */
	if (smp_load_acquire(&stmf->output.nr_chans)) {
		id.master = stmf->output.master;
		id.channel = stmf->output.channel;
		id.width = stmf->output.nr_chans;
	}
	return copy_to_user(arg, &id, sizeof(id)) ? -EFAULT : 0;
}

static long stm_set_options(struct stm_file *stmf, void __user *arg)
{
	struct stm_device *stm = stmf->stm;
	unsigned int nr_chans;
	struct stm_data *data;
	u64 options;
	long err;

	if (copy_from_user(&options, arg, sizeof(options)))
		return -EFAULT;
	/*
	 * set_options() takes an unsigned long: on a 32-bit kernel a value
	 * above 32 bits is refused, not cut to its low half.
	 */
	if ((unsigned long)options != options)
		return -EINVAL;

	/*
	 * Master and channel after the count, as another thread's first
	 * write may be assigning them.  Pairs with smp_store_release() in
	 * stm_file_assign().
	 */
	nr_chans = smp_load_acquire(&stmf->output.nr_chans);

	data = stm_data_get(stm);
	if (!data)
		err = -ENODEV;
	else if (!data->set_options)
		err = -ENOTTY;
	else
		err = data->set_options(data, stmf->output.master,
					stmf->output.channel, nr_chans,
					options);
	stm_data_put(stm);
	return err;
}

static long stm_char_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct stm_file *stmf = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case STP_POLICY_ID_SET:
		return stm_policy_id_set(stmf, uarg);
	case STP_POLICY_ID_GET:
		return stm_policy_id_get(stmf, uarg);
	case STP_SET_OPTIONS:
		return stm_set_options(stmf, uarg);
	default:
		return -ENOTTY;
	}
}

static int stm_char_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct stm_file *stmf = file->private_data;
	struct stm_device *stm = stmf->stm;
	unsigned long size = vma->vm_end - vma->vm_start;
	struct stm_data *data;
	unsigned int nr_chans;
	phys_addr_t phys = 0;
	int err = -EINVAL;

	data = stm_data_get(stm);
	if (!data || !data->mmio_addr) {
		err = -EOPNOTSUPP;
		goto out;
	}
	if (vma->vm_pgoff)
		goto out;

	/* Pairs with smp_store_release() in stm_file_assign(). */
	nr_chans = smp_load_acquire(&stmf->output.nr_chans);
	if (!nr_chans || (unsigned long)nr_chans * stm->sw_mmiosz != size)
		goto out;

	phys = data->mmio_addr(data, stmf->output.master,
			       stmf->output.channel, nr_chans);
out:
	stm_data_put(stm);
	if (!phys)
		return err;

	vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	stm_compat_vm_flags_set(vma, VM_IO | VM_DONTEXPAND | VM_DONTDUMP);
	return vm_iomap_memory(vma, phys, size);
}

const struct file_operations stm_fops = {
	.owner		= THIS_MODULE,
	.open		= stm_char_open,
	.release	= stm_char_release,
	.write		= stm_char_write,
	.unlocked_ioctl	= stm_char_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= stm_char_mmap,
};
