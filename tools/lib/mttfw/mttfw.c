// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mttfw.c - MTT for firmware (mttfw/mttfw.h): components in the
 * firmware's table, filters, and the frames of mtt_trace and mtt_print,
 * built on the stack and handed whole to an output.
 */
#include <stdarg.h>
#include "mttfw/fwstring.h"

#include "mttfw/mttfw.h"

static struct mttfw_comp *comp_of(mtt_comp_handle_t h)
{
	/* pub is the first member */
	return (struct mttfw_comp *)(void *)h;
}

/*
 * Four bytes copied whatever their alignment: one load or store where the
 * compiler may (even freestanding, where memcpy is not its builtin).
 */
#ifdef __GNUC__
#define COPY4(d, s) __builtin_memcpy((d), (s), 4)
#else
#define COPY4(d, s) memcpy((d), (s), 4)
#endif

/* a frame's word: little-endian */
static void put32(uint8_t *p, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	COPY4(p, &v);
#else
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
#endif
}

#ifdef __GNUC__
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

_Static_assert(MTT_FRAME_HINT_BYTES == 12, "the hint is three words");

/*
 * Written a word at a time: the preamble, the words w1's flags ask for,
 * the payload's whole words and then its last, zero-padded, the hint's
 * three words zeroed and its bytes up to the NUL.  Inline in emit(), the
 * path of every trace (its ten arguments are not passed on the stack).
 */
static ALWAYS_INLINE size_t frame(uint8_t *buf, uint32_t target, uint32_t w1,
				  uint32_t comp, uint32_t trace_id,
				  uint32_t type_info, uint64_t ts,
				  uint32_t level, const void *payload,
				  const char *hint)
{
	uint32_t size = type_info & MTT_FRAME_PAYLOAD_MASK;
	const uint8_t *pl = payload;
	uint8_t *w = buf + MTT_FRAME_PREAMBLE_BYTES;
	uint32_t i;

	put32(buf, MTT_FRAME_WORD0(target));
	put32(buf + 4, w1);
	put32(buf + 8, comp);
	put32(buf + 12, trace_id);
	put32(buf + 16, type_info);
	if (w1 & MTT_FRAME_F_TS64) {
		put32(w, (uint32_t)ts);
		put32(w + 4, (uint32_t)(ts >> 32));
		w += 8;
	}
	if (w1 & MTT_FRAME_F_LEVEL) {
		put32(w, level);
		w += 4;
	}
	for (i = 0; i + 4 <= size; i += 4, w += 4)
		COPY4(w, pl + i);
	if (i < size) {
		put32(w, 0);
		for (; i < size; i++)
			*w++ = pl[i];
		w = buf + ((w - buf + 3) & ~(size_t)3);
	}
	if (w1 & MTT_FRAME_F_HINT) {
		put32(w, 0);
		put32(w + 4, 0);
		put32(w + 8, 0);
		for (i = 0; i < MTT_FRAME_HINT_BYTES && hint[i]; i++)
			w[i] = (uint8_t)hint[i];
		w += MTT_FRAME_HINT_BYTES;
	}
	return (size_t)(w - buf);
}

size_t mttfw_frame(uint8_t *buf, uint32_t target, uint32_t w1, uint32_t comp,
		   uint32_t trace_id, uint32_t type_info, uint64_t ts,
		   uint32_t level, const void *payload, const char *hint)
{
	return frame(buf, target, w1, comp, trace_id, type_info, ts, level,
		     payload, hint);
}

size_t mttfw_add_crc(const struct mttfw *m, uint8_t *buf, size_t len)
{
	uint16_t crc;

	if (!m->cfg.crc16)
		return len;
	/* word 1, little-endian: the flag's byte */
	buf[4 + 1] |= (uint8_t)(MTT_FRAME_F_CRC >> 8);
	crc = m->cfg.crc16(0xffff, buf, len);
	put32(buf + len, crc);
	return len + MTT_FRAME_CRC_BYTES;
}

static const struct mttfw_out *out_of(const struct mttfw_comp *c)
{
	return c->out ? c->out : &c->m->cfg.out;
}

/* One frame of c: TS64 when the instance has a clock. */
static void emit(struct mttfw *m, const struct mttfw_out *out, uint32_t w1,
		 uint32_t comp, uint32_t trace_id, uint32_t type_info,
		 uint32_t level, const void *payload, const char *hint)
{
	uint8_t buf[MTT_FRAME_PREAMBLE_BYTES + 8 + 4 +
		    ((MTTFW_MAX_PAYLOAD + 3) & ~3) + MTT_FRAME_HINT_BYTES +
		    MTT_FRAME_CRC_BYTES];
	uint64_t ts = 0;
	size_t n;

	if (m->cfg.now_ns) {
		w1 |= MTT_FRAME_F_TS64;
		ts = m->cfg.now_ns(m->cfg.now_ctx);
	}
	n = frame(buf, m->cfg.target, w1, comp, trace_id, type_info, ts,
		  level, payload, hint);
	n = mttfw_add_crc(m, buf, n);
	if (out->put)
		out->put(out->ctx, buf, n);
}

static void update(struct mttfw_comp *c)
{
	__atomic_store_n(&c->pub.active, c->filter & c->m->core_filter,
			 __ATOMIC_RELAXED);
}

void mttfw_init(struct mttfw *m, const struct mttfw_config *cfg)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	m->core_filter = MTT_LEVEL_ALL;
	m->next_id = 1;
	m->dead.m = m;
	for (i = 0; i < cfg->ncomps; i++)
		memset(&cfg->comps[i], 0, sizeof(cfg->comps[i]));
}

struct mttfw_comp *mttfw_find(struct mttfw *m, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < m->cfg.ncomps; i++)
		if (m->cfg.comps[i].name && m->cfg.comps[i].id == id)
			return &m->cfg.comps[i];
	return NULL;
}

static int same_name(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

mtt_return_t mttfw_open(struct mttfw *m, uint32_t comp_id, const char *name,
			mtt_comp_handle_t *h)
{
	struct mttfw_comp *c = NULL, *free_slot = NULL;
	unsigned int i, len;

	if (!h)
		return MTT_ERR_PARAM;
	*h = &m->dead.pub;
	if (!name || !*name)
		return MTT_ERR_PARAM;
	for (i = 0; i < m->cfg.ncomps; i++) {
		struct mttfw_comp *e = &m->cfg.comps[i];

		if (!e->name) {
			if (!free_slot)
				free_slot = e;
		} else if (same_name(e->name, name)) {
			c = e;
		}
	}
	if (c && comp_id != (uint32_t)MTT_COMP_ID_ANY && c->id != comp_id)
		return MTT_ERR_PARAM;
	if (!c && comp_id != (uint32_t)MTT_COMP_ID_ANY && mttfw_find(m, comp_id))
		return MTT_ERR_PARAM;	/* the id is another name's */
	if (!c) {
		if (!free_slot)
			return MTT_ERR_OTHER;
		c = free_slot;
		c->m = m;
		c->out = NULL;
		c->name = name;
		c->id = comp_id == (uint32_t)MTT_COMP_ID_ANY ? m->next_id++ :
			comp_id;
		c->filter = MTT_LEVEL_ALL;
		c->opens = 0;
		c->sent = 0;
		update(c);
		for (len = 0; len < MTT_COMP_NAME_LEN - 1 && name[len]; len++)
			;
		emit(m, &m->cfg.out, MTT_FRAME_CMD_META, c->id, 0,
		     MTT_TRACEITEM_STRING(len > MTTFW_MAX_PAYLOAD ?
					  MTTFW_MAX_PAYLOAD : len),
		     0, name, NULL);
	}
	c->opens++;
	*h = &c->pub;
	return MTT_ERR_NONE;
}

void mttfw_set_out(mtt_comp_handle_t h, const struct mttfw_out *out)
{
	struct mttfw_comp *c = comp_of(h);

	if (c->name)
		c->out = out;
}

mtt_return_t mttfw_close(mtt_comp_handle_t h)
{
	struct mttfw_comp *c = comp_of(h);

	if (!h || !c->name)
		return MTT_ERR_PARAM;
	if (--c->opens == 0) {
		__atomic_store_n(&c->pub.active, 0, __ATOMIC_RELAXED);
		c->name = NULL;
	}
	return MTT_ERR_NONE;
}

mtt_return_t mttfw_set_core_filter(struct mttfw *m, uint32_t level,
				   uint32_t *prev)
{
	unsigned int i;

	if (prev)
		*prev = m->core_filter;
	m->core_filter = level;
	for (i = 0; i < m->cfg.ncomps; i++)
		if (m->cfg.comps[i].name)
			update(&m->cfg.comps[i]);
	return MTT_ERR_NONE;
}

mtt_return_t mttfw_get_core_filter(struct mttfw *m, uint32_t *level)
{
	if (!level)
		return MTT_ERR_PARAM;
	*level = m->core_filter;
	return MTT_ERR_NONE;
}

mtt_return_t mttfw_set_component_filter(mtt_comp_handle_t h, uint32_t level,
					uint32_t *prev)
{
	struct mttfw_comp *c = comp_of(h);

	if (!h || !c->name)
		return MTT_ERR_PARAM;
	if (prev)
		*prev = c->filter;
	c->filter = level;
	update(c);
	return MTT_ERR_NONE;
}

mtt_return_t mttfw_get_component_filter(mtt_comp_handle_t h, uint32_t *level)
{
	struct mttfw_comp *c = comp_of(h);

	if (!h || !c->name || !level)
		return MTT_ERR_PARAM;
	*level = c->filter;
	return MTT_ERR_NONE;
}

__attribute__((noinline))
mtt_return_t mttfw_trace_out(mtt_comp_handle_t h, uint32_t level,
			     uint32_t type_info, const void *data,
			     const char *hint)
{
	struct mttfw_comp *c = comp_of(h);
	uint32_t w1 = MTT_FRAME_CMD_TRACE | MTT_FRAME_F_LEVEL;

	if (!c->name || MTT_TYPE_SIZE(type_info) > MTTFW_MAX_PAYLOAD ||
	    (MTT_TYPE_SIZE(type_info) && !data))
		return MTT_ERR_PARAM;
	if (hint)
		w1 |= MTT_FRAME_F_HINT;
	emit(c->m, out_of(c), w1, c->id,
	     (uint32_t)(uintptr_t)__builtin_return_address(0), type_info,
	     level, data, hint);
	c->sent++;
	return MTT_ERR_NONE;
}

/* --- mtt_print's formatter: a bounded buffer, the usual conversions --- */

struct pbuf {
	char *p;
	unsigned int n, cap;
};

static void pc(struct pbuf *b, char c)
{
	if (b->n < b->cap)
		b->p[b->n] = c;
	b->n++;
}

static void pnum(struct pbuf *b, unsigned long long v, unsigned int base,
		 int upper, int neg, unsigned int width, int zero, int left)
{
	const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char t[24];
	unsigned int k = 0, len;

	do {
		t[k++] = dig[v % base];
		v /= base;
	} while (v);
	len = k + (neg ? 1 : 0);
	if (neg && zero)
		pc(b, '-');
	while (!left && len < width) {
		pc(b, zero ? '0' : ' ');
		len++;
	}
	if (neg && !zero)
		pc(b, '-');
	while (k)
		pc(b, t[--k]);
	while (left && len < width) {
		pc(b, ' ');
		len++;
	}
}

static void pfmt(struct pbuf *b, const char *f, va_list ap)
{
	for (; *f; f++) {
		unsigned int width = 0, lng = 0;
		int zero = 0, left = 0;
		unsigned long long u;
		long long s;
		const char *str;

		if (*f != '%') {
			pc(b, *f);
			continue;
		}
		for (f++; *f == '0' || *f == '-'; f++) {
			zero |= *f == '0';
			left |= *f == '-';
		}
		while (*f >= '0' && *f <= '9')
			width = width * 10 + (unsigned int)(*f++ - '0');
		while (*f == 'l') {
			lng++;
			f++;
		}
		switch (*f) {
		case 'd':
		case 'i':
			s = lng > 1 ? va_arg(ap, long long) :
			    lng ? va_arg(ap, long) : va_arg(ap, int);
			u = s < 0 ? 0 - (unsigned long long)s :
			    (unsigned long long)s;
			pnum(b, u, 10, 0, s < 0, width, zero && !left, left);
			break;
		case 'u':
		case 'x':
		case 'X':
			u = lng > 1 ? va_arg(ap, unsigned long long) :
			    lng ? va_arg(ap, unsigned long) :
			    va_arg(ap, unsigned int);
			pnum(b, u, *f == 'u' ? 10 : 16, *f == 'X', 0, width,
			     zero && !left, left);
			break;
		case 'p':
			pc(b, '0');
			pc(b, 'x');
			pnum(b, (uintptr_t)va_arg(ap, void *), 16, 0, 0, 0, 0, 0);
			break;
		case 'c':
			pc(b, (char)va_arg(ap, int));
			break;
		case 's':
			str = va_arg(ap, const char *);
			for (u = 0; str && str[u]; u++)
				pc(b, str[u]);
			for (; u < width; u++)
				pc(b, ' ');
			break;
		case '%':
			pc(b, '%');
			break;
		default:
			if (!*f)
				return;
			pc(b, '%');
			pc(b, *f);
			break;
		}
	}
}

__attribute__((noinline))
mtt_return_t mttfw_print_out(mtt_comp_handle_t h, uint32_t level,
			     const char *fmt, ...)
{
	struct mttfw_comp *c = comp_of(h);
	char text[MTTFW_MAX_PAYLOAD];
	struct pbuf b = { text, 0, sizeof(text) };
	va_list ap;

	if (!c->name || !fmt)
		return MTT_ERR_PARAM;
	va_start(ap, fmt);
	pfmt(&b, fmt, ap);
	va_end(ap);
	if (b.n > b.cap)
		b.n = b.cap;
	emit(c->m, out_of(c), MTT_FRAME_CMD_TRACE | MTT_FRAME_F_LEVEL, c->id,
	     (uint32_t)(uintptr_t)__builtin_return_address(0),
	     MTT_TRACEITEM_STRING(b.n), level, text, NULL);
	c->sent++;
	return MTT_ERR_NONE;
}
