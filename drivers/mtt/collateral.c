// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/mtt/hints (inline | dict) and /sys/kernel/mtt/collateral.xml:
 * the MIPI SyS-T collateral of client "mtt" that names what DICT frames
 * and component ids stand for (Documentation/mtt.rst): Modules give the
 * open components' names, Catalog32 the texts of the dictionary ids.
 * The client's one Guid is MTT_FRAME_SYST_GUID, the uuid of the p_sys-t
 * nodes MTT writes through: it describes MTT's messages, no other
 * source's; its one Protocol is MTT_FRAME_SYST_PROTOCOL.
 *
 * The file can exceed a page, so it is a bin_attribute, read in several
 * read() calls.  sysfs gives a bin_attribute no open or release callback
 * (6.1 as 6.12), so there is no per-open state to keep a snapshot in
 * that would be freed when the file is closed.  So there is one snapshot,
 * tagged with the generation of what it shows (mtt_xml_gen()): a read at
 * offset 0 (or the first read) builds a new one only when the generation
 * changed since, and every read is served whole from the snapshot of the
 * moment.  The generation is written at the start and at the end of the
 * document: a reader whose two agree read one snapshot (mttcontrol reads
 * again until they do).  For that to hold whatever snapshots a reader's
 * reads came from, every marker must come whole from one read: a read
 * never crosses a page boundary here, the start marker is in the first
 * page and the end marker is padded so that it does not cross one
 * (Documentation/mtt.rst, "Collateral for dictionaries").
 * Root only, like swstm's counters: the names of the components and of
 * the traced values tell what is being traced.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/sysfs.h>
#include <uapi/linux/mtt_frame.h>

#include "mtt_internal.h"

static ssize_t hints_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", mtt_hints_get());
}

static ssize_t hints_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	int err = mtt_hints_set(buf);

	return err ? err : count;
}

struct kobj_attribute mtt_hints_attr = __ATTR(hints, 0644, hints_show,
					      hints_store);

/**
 * struct mtt_xml - a document being built
 * @buf:	its bytes
 * @len:	bytes used
 * @size:	bytes allocated
 * @gen:	the generation it shows (mtt_xml_gen())
 */
struct mtt_xml {
	char	*buf;
	size_t	len;
	size_t	size;
	u64	gen;
};

/* Append formatted text (cut if the buffer is full).  Context: process. */
static __printf(2, 3) void mtt_xml_add(struct mtt_xml *x, const char *fmt,
				       ...)
{
	va_list args;

	va_start(args, fmt);
	x->len += vscnprintf(x->buf + x->len, x->size - x->len, fmt, args);
	va_end(args);
}

/*
 * Append @s as CDATA: "]]>" split over two sections, bytes outside
 * printable ASCII as '?'.  Context: process.
 */
static void mtt_xml_cdata(struct mtt_xml *x, const char *s)
{
	mtt_xml_add(x, "<![CDATA[");
	for (; *s && x->len + 16 < x->size; s++) {
		if (!strncmp(s, "]]>", 3)) {
			mtt_xml_add(x, "]]]]><![CDATA[>");
			s += 2;
		} else {
			x->buf[x->len++] = *s >= 0x20 && *s <= 0x7e ? *s : '?';
		}
	}
	mtt_xml_add(x, "]]>");
}

/* Worst case bytes of one entry with a text of @n bytes. */
#define MTT_XML_ENTRY(n)	(96 + 5 * (n))

/* The generation marker, at the start and the end of the document. */
#define MTT_XML_MARK		"<!-- mtt collateral generation %llu -->\n"
#define MTT_XML_MARK_MAX	64

/*
 * The generation of the document's contents: it grows by one whenever
 * a component is added or removed or a dictionary id is given out.
 * Context: process, mtt_mutex held.
 */
static u64 mtt_xml_gen(void)
{
	lockdep_assert_held(&mtt_mutex);
	return mtt_comps_gen + mtt_dict_count();
}

/*
 * The end marker, alone on the last line, not across a page boundary:
 * padded with newlines (white space after the root element) when it
 * would be.  Context: process.
 */
static void mtt_xml_end_mark(struct mtt_xml *x)
{
	char mark[MTT_XML_MARK_MAX];
	size_t n, in_page;

	n = scnprintf(mark, sizeof(mark), MTT_XML_MARK,
		      (unsigned long long)x->gen);
	in_page = x->len & (PAGE_SIZE - 1);
	if (in_page + n > PAGE_SIZE) {
		memset(x->buf + x->len, '\n', PAGE_SIZE - in_page);
		x->len += PAGE_SIZE - in_page;
	}
	mtt_xml_add(x, "%s", mark);
}

/* The whole document into a new buffer.  Context: process. */
static int mtt_xml_build(struct mtt_xml *x)
{
	char text[MTT_FRAME_HINT_BYTES + 1];
	struct mtt_comp *c;
	unsigned int n = 0;
	u32 id;

	mutex_lock(&mtt_mutex);
	list_for_each_entry(c, &mtt_components, entry)
		n++;
	x->size = 1024 + n * MTT_XML_ENTRY(MTT_COMP_NAME_LEN) +
		  MTT_DICT_SLOTS * MTT_XML_ENTRY(MTT_FRAME_HINT_BYTES) + PAGE_SIZE;
	x->len = 0;
	x->buf = kvmalloc(x->size, GFP_KERNEL);
	if (!x->buf) {
		mutex_unlock(&mtt_mutex);
		return -ENOMEM;
	}
	x->gen = mtt_xml_gen();
	mtt_xml_add(x, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
		    MTT_XML_MARK
		    "<syst:Collateral xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">\n"
		    "  <syst:Client Name=\"mtt\">\n"
		    "    <syst:Guids>\n"
		    "      <syst:Guid ID=\"{" MTT_FRAME_SYST_GUID "}\"/>\n"
		    "    </syst:Guids>\n"
		    "    <syst:Modules>\n", (unsigned long long)x->gen);
	list_for_each_entry(c, &mtt_components, entry) {
		mtt_xml_add(x, "      <syst:Module ID=\"0x%08x\">", c->id);
		mtt_xml_cdata(x, c->name);
		mtt_xml_add(x, "</syst:Module>\n");
	}
	mutex_unlock(&mtt_mutex);
	mtt_xml_add(x, "    </syst:Modules>\n"
		    "    <syst:Write>\n"
		    "      <syst:Protocol ID=\"" __stringify(MTT_FRAME_SYST_PROTOCOL)
		    "\" Mask=\"0x3f\"><![CDATA[MTT]]></syst:Protocol>\n"
		    "    </syst:Write>\n"
		    "    <syst:Catalog32>\n");
	for (id = 1; id <= MTT_DICT_SLOTS; id++) {
		if (!mtt_dict_text(id, text))
			continue;
		mtt_xml_add(x, "      <syst:Format ID=\"0x%08x\" Mask=\"0xffffffff\">",
			    id);
		mtt_xml_cdata(x, text);
		mtt_xml_add(x, "</syst:Format>\n");
	}
	mtt_xml_add(x, "    </syst:Catalog32>\n"
		    "  </syst:Client>\n"
		    "</syst:Collateral>\n");
	mtt_xml_end_mark(x);
	return 0;
}

/* The snapshot readers continue in (mtt_xml_mutex). */
static DEFINE_MUTEX(mtt_xml_mutex);
static struct mtt_xml mtt_xml_snap;

/* The snapshot shows an older generation.  Context: process. */
static bool mtt_xml_stale(void)
{
	bool stale;

	mutex_lock(&mtt_mutex);
	stale = mtt_xml_gen() != mtt_xml_snap.gen;
	mutex_unlock(&mtt_mutex);
	return stale;
}

/*
 * Bytes from the snapshot, never across a page boundary (see the head
 * comment).  Context: process (sysfs read).
 */
static ssize_t collateral_read(struct file *filp, struct kobject *kobj,
			       struct bin_attribute *attr, char *buf,
			       loff_t off, size_t count)
{
	ssize_t ret = 0;

	mutex_lock(&mtt_xml_mutex);
	if (!mtt_xml_snap.buf || (!off && mtt_xml_stale())) {
		struct mtt_xml x;

		ret = mtt_xml_build(&x);
		if (ret)
			goto unlock;
		kvfree(mtt_xml_snap.buf);
		mtt_xml_snap = x;
	}
	if (off < mtt_xml_snap.len) {
		ret = min_t(size_t, count, mtt_xml_snap.len - off);
		ret = min_t(size_t, ret, PAGE_SIZE - (off & (PAGE_SIZE - 1)));
		memcpy(buf, mtt_xml_snap.buf + off, ret);
	}
unlock:
	mutex_unlock(&mtt_xml_mutex);
	return ret;
}

struct bin_attribute mtt_collateral_attr = {
	.attr	= { .name = "collateral.xml", .mode = 0400 },
	.read	= collateral_read,
};

/* Context: process (module exit). */
void mtt_collateral_exit(void)
{
	kvfree(mtt_xml_snap.buf);
	mtt_xml_snap.buf = NULL;
}
