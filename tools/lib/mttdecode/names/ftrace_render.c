// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ftrace_render.c - one ftrace record as text: "function: <ip> <- <parent
 * ip>" for the function tracer, "<event>: field=value ..." for others
 * (common_* fields left out), "ftrace event <id> (<n> bytes)" when the
 * event is unknown.  Addresses are "func+0xoff" with kallsyms, else hex;
 * char arrays are text up to their NUL (a trailing newline dropped);
 * other arrays "{a,b}"; odd sizes hex bytes; anything outside the record
 * "?".
 */
#include <stdio.h>
#include <string.h>

#include "ftrace_internal.h"

#define BYTES_MAX 64

struct sb {
	char *p;
	size_t len, cap;	/* cap includes the NUL */
};

static void put(struct sb *b, const void *s, size_t n)
{
	if (n > b->cap - 1 - b->len)
		n = b->cap - 1 - b->len;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

static void puts_(struct sb *b, const char *s)
{
	put(b, s, strlen(s));
}

static void fmt(struct sb *b, const char *f, unsigned long long v)
{
	char t[32];
	int r = snprintf(t, sizeof(t), f, v);

	if (r > 0)
		put(b, t, (size_t)r < sizeof(t) ? (size_t)r : sizeof(t) - 1);
}

static uint64_t le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void addr(struct sb *b, const struct mttd_ftrace *f, uint64_t a)
{
	uint64_t off;
	const char *s = mttd_ftrace_symbol(f, a, &off);

	if (!s) {
		fmt(b, "0x%llx", a);
		return;
	}
	puts_(b, s);
	fmt(b, "+0x%llx", off);
}

static void number(struct sb *b, const struct mttd_ftrace *f,
		   const struct mttd__field *fl, const uint8_t *p,
		   unsigned int size)
{
	uint64_t v = le(p, size);

	if (fl->addr) {
		addr(b, f, v);
	} else if (fl->is_signed) {
		unsigned int sh = 64 - 8 * size;
		int64_t s = (int64_t)(v << sh) >> sh;
		char t[24];
		int r = snprintf(t, sizeof(t), "%lld", (long long)s);

		put(b, t, (size_t)r);
	} else {
		fmt(b, "%llu", v);
	}
}

static void text(struct sb *b, const uint8_t *p, size_t n)
{
	const uint8_t *nul = memchr(p, 0, n);

	if (nul)
		n = (size_t)(nul - p);
	if (n && p[n - 1] == '\n')
		n--;
	put(b, p, n);
}

static void bytes(struct sb *b, const uint8_t *p, size_t n)
{
	static const char hexd[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n && i < BYTES_MAX; i++) {
		char t[2] = { hexd[p[i] >> 4], hexd[p[i] & 0xf] };

		put(b, t, 2);
	}
	if (n > BYTES_MAX)
		puts_(b, "...");
}

/* the bytes of a field in rec[0..n), or NULL */
static const uint8_t *where(const struct mttd__field *fl, const uint8_t *rec,
			    size_t n, size_t *len)
{
	size_t off = fl->offset, sz = fl->size;

	if (fl->dyn) {
		uint32_t loc;

		if (off > n || n - off < 4)
			return NULL;
		loc = (uint32_t)le(rec + off, 4);
		sz = loc >> 16;
		off = (fl->dyn == 2 ? off + fl->size : 0) + (loc & 0xffff);
	} else if (!sz) {
		sz = off <= n ? n - off : 0;	/* flexible array */
	}
	if (off > n || n - off < sz)
		return NULL;
	*len = sz;
	return rec + off;
}

static void field(struct sb *b, const struct mttd_ftrace *f,
		  const struct mttd__field *fl, const uint8_t *rec, size_t n)
{
	size_t len = 0, i;
	const uint8_t *p = where(fl, rec, n, &len);

	if (!p) {
		puts_(b, "?");
		return;
	}
	switch (fl->kind) {
	case FK_NUM:
		number(b, f, fl, p, (unsigned int)len);
		break;
	case FK_STR:
		text(b, p, len);
		break;
	case FK_ARRAY:
		puts_(b, "{");
		for (i = 0; i + fl->elem <= len; i += fl->elem) {
			if (i)
				puts_(b, ",");
			number(b, f, fl, p + i, fl->elem);
		}
		puts_(b, "}");
		break;
	default:
		bytes(b, p, len);
		break;
	}
}

static const struct mttd__field *named(const struct mttd__event *ev,
				       const char *name)
{
	size_t i;

	for (i = 0; i < ev->nf; i++)
		if (!strcmp(ev->f[i].name, name))
			return &ev->f[i];
	return NULL;
}

size_t mttd_ftrace_render(const struct mttd_ftrace *f, const uint8_t *rec,
			  size_t n, char *buf, size_t cap)
{
	struct sb b = { buf, 0, cap };
	const struct mttd__event *ev;
	const struct mttd__field *ip, *pip;
	size_t i;

	if (!cap)
		return 0;
	buf[0] = 0;
	if (n < 8)
		return 0;
	ev = mttd__ftrace_event(f, (uint32_t)le(rec, 2));
	if (!ev) {
		fmt(&b, "ftrace event %llu", le(rec, 2));
		fmt(&b, " (%llu bytes)", n);
		return b.len;
	}
	ip = named(ev, "ip");
	pip = named(ev, "parent_ip");
	if (!strcmp(ev->name, "function") && ip && pip && ev->nf <= 6) {
		puts_(&b, "function: ");
		field(&b, f, ip, rec, n);
		puts_(&b, " <- ");
		field(&b, f, pip, rec, n);
		return b.len;
	}
	puts_(&b, ev->name);
	puts_(&b, ":");
	for (i = 0; i < ev->nf; i++) {
		if (ev->f[i].common)
			continue;
		puts_(&b, " ");
		puts_(&b, ev->f[i].name);
		puts_(&b, "=");
		field(&b, f, &ev->f[i], rec, n);
	}
	return b.len;
}
