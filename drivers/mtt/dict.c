// SPDX-License-Identifier: GPL-2.0
/*
 * The hint dictionary: in "dict" mode (/sys/kernel/mtt/hints) a trace's
 * hint is replaced by a dictionary id (DICT frame, trace id = the id, no
 * HINT); collateral.c publishes the id -> text table as MIPI collateral.
 *
 * The table is MTT_DICT_SLOTS fixed slots, allocated at module load, so
 * a trace point in any context (NMI included) can add a hint without
 * allocating: a slot holds the hint as an inline frame would carry it
 * (MTT_FRAME_HINT_BYTES, NUL-padded), and its id is its index + 1.  Slots are
 * never freed or reused while the module is loaded, so a text keeps its
 * id for the module's lifetime.  Lookup is open addressing from a hash
 * of the text; a free slot is claimed with cmpxchg, filled, then
 * published.  A trace falls back to an inline hint (nothing is lost)
 * when its hint cannot be put in the table: the table is full, a slot
 * on the probe path is being filled by another context (never waited
 * for: that could be the context this trace interrupted), or the hint
 * has bytes collateral XML cannot carry (outside printable ASCII).
 */
#include <linux/atomic.h>
#include <linux/jhash.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <uapi/linux/mtt_frame.h>

#include "mtt_internal.h"

enum { MTT_SLOT_FREE, MTT_SLOT_FILLING, MTT_SLOT_READY };

/**
 * struct mtt_dict_slot - one dictionary entry
 * @state:	MTT_SLOT_*; READY is published with release semantics
 * @text:	the hint, NUL-padded
 */
struct mtt_dict_slot {
	atomic_t	state;
	char		text[MTT_FRAME_HINT_BYTES];
};

static struct mtt_dict_slot *mtt_dict;
/* Slots published so far (the collateral's generation counts them). */
static atomic_t mtt_dict_used = ATOMIC_INIT(0);
/* Hints as dictionary ids (true) or inline (false); READ_ONCE. */
bool mtt_hints_dict;

/* "inline" or "dict".  Context: process.  Return: 0 or -EINVAL. */
int mtt_hints_set(const char *val)
{
	if (sysfs_streq(val, "dict"))
		WRITE_ONCE(mtt_hints_dict, true);
	else if (sysfs_streq(val, "inline"))
		WRITE_ONCE(mtt_hints_dict, false);
	else
		return -EINVAL;
	return 0;
}

/* The mode as the hints file shows it.  Context: process. */
const char *mtt_hints_get(void)
{
	return READ_ONCE(mtt_hints_dict) ? "dict" : "inline";
}

static int mtt_hints_param_set(const char *val, const struct kernel_param *kp)
{
	return mtt_hints_set(val);
}

static int mtt_hints_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", mtt_hints_get());
}

static const struct kernel_param_ops mtt_hints_ops = {
	.set	= mtt_hints_param_set,
	.get	= mtt_hints_param_get,
};
module_param_cb(hints, &mtt_hints_ops, NULL, 0444);
MODULE_PARM_DESC(hints,
		 "inline (default): hints in the frames; dict: dictionary ids, /sys/kernel/mtt/collateral.xml names them");

/* The hint as a frame carries it.  Context: any.  Return: its length. */
static size_t notrace mtt_dict_key(const char *hint, char key[MTT_FRAME_HINT_BYTES])
{
	size_t i, n = strnlen(hint, MTT_FRAME_HINT_BYTES);

	for (i = 0; i < n; i++)
		if (hint[i] < 0x20 || hint[i] > 0x7e)
			return 0;
	memcpy(key, hint, n);
	memset(key + n, 0, MTT_FRAME_HINT_BYTES - n);
	return n;
}

/**
 * mtt_dict_id() - the dictionary id of a hint, adding it if new
 * @hint:	the hint (not empty)
 *
 * Context: any, NMI included; never allocates, locks or waits.
 * Return: the id (1..MTT_DICT_SLOTS), or 0: send the hint inline.
 */
u32 notrace mtt_dict_id(const char *hint)
{
	char key[MTT_FRAME_HINT_BYTES];
	unsigned int i, n, h;

	if (!mtt_dict || !mtt_dict_key(hint, key))
		return 0;
	h = jhash(key, sizeof(key), 0);
	for (n = 0; n < MTT_DICT_SLOTS; n++) {
		struct mtt_dict_slot *s;
		int state;

		i = (h + n) & (MTT_DICT_SLOTS - 1);
		s = &mtt_dict[i];
		/*
		 * Pairs with atomic_set_release() below (another caller's
		 * publication): the text is read after a READY state
		 * (Documentation/ordering.rst, "MTT dictionary slots").
		 */
		state = atomic_read_acquire(&s->state);
		if (state == MTT_SLOT_FREE) {
			/* one winner; nobody reads a FILLING slot's text */
			state = atomic_cmpxchg_acquire(&s->state,
						       MTT_SLOT_FREE,
						       MTT_SLOT_FILLING);
			if (state == MTT_SLOT_FREE) {
				memcpy(s->text, key, sizeof(key));
				/*
				 * Publish: pairs with the acquire loads here
				 * and in mtt_dict_text()
				 */
				atomic_set_release(&s->state, MTT_SLOT_READY);
				/*
				 * Count it once READY is visible: pairs with
				 * atomic_read_acquire() in mtt_dict_count()
				 */
				atomic_inc_return_release(&mtt_dict_used);
				return i + 1;
			}
			/*
			 * Someone else claimed it: look at what they put.
			 * A failed cmpxchg orders nothing: read again, as
			 * above.
			 */
			state = atomic_read_acquire(&s->state);
		}
		if (state == MTT_SLOT_FILLING)
			return 0;
		if (!memcmp(s->text, key, sizeof(key)))
			return i + 1;
	}
	return 0;
}

/**
 * mtt_dict_text() - the text of a published dictionary id
 * @id:		1..MTT_DICT_SLOTS
 * @text:	gets the text, NUL-terminated (MTT_FRAME_HINT_BYTES + 1 bytes)
 *
 * Context: any.
 * Return: true if @id has a text.
 */
bool mtt_dict_text(u32 id, char *text)
{
	struct mtt_dict_slot *s;

	if (!mtt_dict || !id || id > MTT_DICT_SLOTS)
		return false;
	s = &mtt_dict[id - 1];
	/* pairs with atomic_set_release() in mtt_dict_id() */
	if (atomic_read_acquire(&s->state) != MTT_SLOT_READY)
		return false;
	memcpy(text, s->text, MTT_FRAME_HINT_BYTES);
	text[MTT_FRAME_HINT_BYTES] = 0;
	return true;
}

/*
 * Dictionary ids given out so far.  Context: any.  Acquire: a caller
 * that then looks at the slots (the collateral, whose generation
 * includes this count) finds every slot counted READY.  Pairs with
 * atomic_inc_return_release() in mtt_dict_id() (ordering.rst).
 */
unsigned int mtt_dict_count(void)
{
	return atomic_read_acquire(&mtt_dict_used);
}

/* Context: process (module init). */
int mtt_dict_init(void)
{
	mtt_dict = kcalloc(MTT_DICT_SLOTS, sizeof(*mtt_dict), GFP_KERNEL);
	return mtt_dict ? 0 : -ENOMEM;
}

/* Context: process (module exit: no trace point is left). */
void mtt_dict_exit(void)
{
	kfree(mtt_dict);
	mtt_dict = NULL;
}
