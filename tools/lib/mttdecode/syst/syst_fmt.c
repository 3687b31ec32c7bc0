// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_fmt.c - printf format rendering for SyS-T PRINTF, CATALOG and
 * SHORT messages (rules in syst_fmt.h).
 *
 * The conversion spec is parsed here; numbers are then formatted by the
 * C library's snprintf() from a spec this file builds itself (flags,
 * "*.*", a fixed length modifier), so the trace's format string never
 * reaches the C library.  %s, %c, %p and %n are done by hand, and so are
 * integers without flags, width or precision (most of them), and %f of
 * a finite double below 2^63 without flags and with a precision up to
 * 17, exactly as the C library rounds it (see fixed_f()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/coll.h"
#include "internal/plain.h"
#include "syst_fmt.h"
#include "syst_internal.h"

enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_PTR };

struct spec {
	char flags[6];		/* subset of "-+ #0", NUL-terminated */
	int left;		/* '-' */
	int width;		/* 0 if none */
	int prec;		/* -1 if none */
	int len;		/* LEN_* */
};

static uint64_t take(struct mttd__args *a, unsigned int size, int *ok)
{
	uint64_t v;

	if (a->n - a->pos < size) {
		a->missing = 1;
		a->pos = a->n;
		*ok = 0;
		return 0;
	}
	v = mttd__lexx(a->p + a->pos, size);
	a->pos += size;
	*ok = 1;
	return v;
}

static void record(struct mttd__args *a, unsigned int kind, uint64_t bits)
{
	struct mttd_syst_msg *m = a->m;

	if (!m || m->nargs >= MTTD_SYST_MAX_ARGS)
		return;
	m->args[m->nargs].kind = (uint8_t)kind;
	m->args[m->nargs].v.u = bits;
	m->nargs++;
}

void mttd__utf8(struct mttd__tbuf *tb, uint32_t cp)
{
	char b[4];

	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		b[0] = (char)cp;
		mttd__tb_put(tb, b, 1);
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		mttd__tb_put(tb, b, 2);
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		mttd__tb_put(tb, b, 3);
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		mttd__tb_put(tb, b, 4);
	}
}

/* s[0..n) padded to the spec's width */
static void padded(struct mttd__tbuf *tb, const struct spec *sp,
		   const void *s, size_t n)
{
	size_t pad = (size_t)sp->width > n ? (size_t)sp->width - n : 0;

	if (!tb)
		return;
	if (pad && !sp->left)
		mttd__tb_fill(tb, ' ', pad);
	mttd__tb_put(tb, s, n);
	if (pad && sp->left)
		mttd__tb_fill(tb, ' ', pad);
}

static void missing(struct mttd__tbuf *tb)
{
	if (tb)
		mttd__tb_put(tb, "<?>", 3);
}

/* "%<flags>*.*<mod><conv>" for snprintf */
static void c_spec(char *out, const struct spec *sp, const char *mod,
		   char conv)
{
	size_t n = 0, k;

	out[n++] = '%';
	k = strlen(sp->flags);
	memcpy(out + n, sp->flags, k);
	n += k;
	memcpy(out + n, "*.*", 3);
	n += 3;
	k = strlen(mod);
	memcpy(out + n, mod, k);
	n += k;
	out[n++] = conv;
	out[n] = 0;
}

static void put_snprintf(struct mttd__tbuf *tb, const char *buf, int r,
			 size_t cap)
{
	if (r < 0)
		return;
	mttd__tb_put(tb, buf, (size_t)r < cap ? (size_t)r : cap - 1);
}

/* %d %i %u %x %X without flags, width or precision (the common case):
 * by hand, as snprintf() would write them */
static void plain_int(struct mttd__tbuf *tb, char conv, uint64_t v, int neg)
{
	const char *digits = conv == 'X' ? "0123456789ABCDEF" :
			     "0123456789abcdef";
	char tmp[21];
	unsigned int n = sizeof(tmp);

	if (conv == 'x' || conv == 'X') {
		do {
			tmp[--n] = digits[v & 0xf];
			v >>= 4;
		} while (v);
	} else {
		n = (unsigned int)(mttd__dec_back(tmp + 1, v) - tmp);
		if (neg)
			tmp[--n] = '-';
	}
	mttd__tb_put(tb, tmp + n, sizeof(tmp) - n);
}

static void conv_int(struct mttd__tbuf *tb, const struct spec *sp, char conv,
		     struct mttd__args *a)
{
	unsigned int size = sp->len == LEN_LL ? 8 :
			    sp->len == LEN_L || sp->len == LEN_PTR ? a->ptr : 4;
	int ok, r;
	uint64_t v = take(a, size, &ok);
	char cs[16], buf[MTTD_FMT_MAX_WIDTH + 64];

	if (!ok) {
		missing(tb);
		return;
	}
	if (conv == 'd' || conv == 'i') {
		int64_t s = size == 8 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;

		if (sp->len == LEN_HH)
			s = (signed char)s;
		else if (sp->len == LEN_H)
			s = (short)s;
		record(a, MTTD_SYST_ARG_INT, (uint64_t)s);
		if (!tb)
			return;
		if (!sp->flags[0] && !sp->width && sp->prec < 0) {
			plain_int(tb, conv, s < 0 ? 0 - (uint64_t)s :
				  (uint64_t)s, s < 0);
			return;
		}
		c_spec(cs, sp, "ll", conv);
		r = snprintf(buf, sizeof(buf), cs, sp->width, sp->prec,
			     (long long)s);
	} else {
		if (sp->len == LEN_HH)
			v = (unsigned char)v;
		else if (sp->len == LEN_H)
			v = (unsigned short)v;
		record(a, MTTD_SYST_ARG_UINT, v);
		if (!tb)
			return;
		if (!sp->flags[0] && !sp->width && sp->prec < 0 &&
		    conv != 'o') {
			plain_int(tb, conv, v, 0);
			return;
		}
		c_spec(cs, sp, "ll", conv);
		r = snprintf(buf, sizeof(buf), cs, sp->width, sp->prec,
			     (unsigned long long)v);
	}
	put_snprintf(tb, buf, r, sizeof(buf));
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/*
 * %.<prec>f of the double with bits v, by hand, into buf (room for 64
 * bytes): its length, or 0 when it is not a case done here (infinities,
 * NaNs, 2^63 and above, prec above 17: the C library does those).
 *
 * A finite double is m * 2^e exactly (m < 2^53).  The digits printed are
 * N = |value| * 10^prec rounded to the nearest integer, ties to even (the
 * C library's rounding of the exact binary value, in the default
 * rounding mode): with m * 10^prec < 2^110, N comes from one 128-bit
 * product and a shift, the bits shifted out deciding the rounding.  The
 * sign is the sign bit's, so -0.0 prints as "-0.000000", as printf does.
 */
static size_t fixed_f(char *buf, uint64_t v, int prec)
{
	static const uint64_t pow10[18] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
		10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
		100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull,
		10000000000000000ull, 100000000000000000ull,
	};
	unsigned int ef = (unsigned int)(v >> 52) & 0x7ff;
	uint64_t m = v & ((1ull << 52) - 1), ip, fp;
	int e, k;
	u128 n;
	char *b = buf, tmp[40];

	if (ef == 0x7ff || prec < 0 || prec > 17)
		return 0;
	if (ef) {
		m |= 1ull << 52;
		e = (int)ef - 1075;
	} else {
		e = -1074;
	}
	if (e >= 0) {
		if (e > 10)
			return 0;
		ip = m << e;
		fp = 0;
	} else {
		u128 p = (u128)m * pow10[prec], rest, half;
		int s = -e;

		if (s >= 128) {
			n = 0;	/* below 2^-75, far below half a digit */
		} else {
			n = p >> s;
			rest = p & (((u128)1 << s) - 1);
			half = (u128)1 << (s - 1);
			if (rest > half || (rest == half && (n & 1)))
				n++;
		}
		/* the integer part, then what n holds beyond it: at most
		 * 10^prec (a carry of the rounding into the integer part),
		 * so no 128-bit division */
		ip = s < 64 ? m >> s : 0;
		fp = (uint64_t)(n - (u128)ip * pow10[prec]);
		if (fp == pow10[prec]) {
			ip++;
			fp = 0;
		}
	}
	if (v >> 63)
		*b++ = '-';
	{
		/* 20 bytes copied (read to tmp + 40, written within the
		 * 64 of buf), the digits counted */
		const char *d = mttd__dec_back(tmp, ip);

		memcpy(b, d, 20);
		b += tmp + 20 - d;
	}
	if (prec) {
		/* prec digits of fp, leading zeros included, two a step
		 * from the last; in 32 bits when they fit */
		*b++ = '.';
		k = prec;
		if (prec <= 9) {
			uint32_t f = (uint32_t)fp;

			for (; k >= 2; k -= 2) {
				memcpy(b + k - 2, mttd__digits2 + 2 * (f % 100),
				       2);
				f /= 100;
			}
			fp = f;
		} else {
			for (; k >= 2; k -= 2) {
				memcpy(b + k - 2, mttd__digits2 + 2 * (fp % 100),
				       2);
				fp /= 100;
			}
		}
		if (k)
			b[0] = (char)('0' + fp % 10);
		b += prec;
	}
	return (size_t)(b - buf);
}
#endif

static void conv_float(struct mttd__tbuf *tb, const struct spec *sp,
		       char conv, struct mttd__args *a)
{
	int ok, r;
	uint64_t v = take(a, 8, &ok);
	char cs[16], buf[MTTD_FMT_MAX_WIDTH + 400];
	double d;

	if (!ok) {
		missing(tb);
		return;
	}
	record(a, MTTD_SYST_ARG_DOUBLE, v);
	if (!tb)
		return;
#ifdef __SIZEOF_INT128__
	if ((conv == 'f' || conv == 'F') && !sp->flags[0]) {
		char fb[64];
		size_t k = fixed_f(fb, v, sp->prec < 0 ? 6 : sp->prec);

		if (k) {
			padded(tb, sp, fb, k);
			return;
		}
	}
#endif
	memcpy(&d, &v, sizeof(d));
	c_spec(cs, sp, "", conv);
	/* %f of 1e308 with the largest precision still fits buf */
	r = snprintf(buf, sizeof(buf), cs, sp->width, sp->prec, d);
	put_snprintf(tb, buf, r, sizeof(buf));
}

static void conv_char(struct mttd__tbuf *tb, const struct spec *sp,
		      struct mttd__args *a)
{
	int ok;
	uint64_t v = take(a, 4, &ok);
	struct mttd__tbuf one;

	if (!ok) {
		missing(tb);
		return;
	}
	record(a, MTTD_SYST_ARG_UINT, (uint32_t)v);
	if (!tb)
		return;
	if (sp->len != LEN_L) {
		char c = (char)(unsigned char)v;

		padded(tb, sp, &c, 1);
		return;
	}
	mttd__tb_init(&one, 8);
	mttd__utf8(&one, (uint32_t)v);
	padded(tb, sp, mttd__tb_str(&one), one.len);
	mttd__tb_fini(&one);
}

static void conv_str(struct mttd__tbuf *tb, const struct spec *sp,
		     struct mttd__args *a)
{
	const uint8_t *s = a->p + a->pos;
	size_t avail = a->n - a->pos;
	const uint8_t *nul = memchr(s, 0, avail);
	size_t len = nul ? (size_t)(nul - s) : avail;

	a->pos += nul ? len + 1 : len;
	if (!nul)
		a->missing = 1;
	if (sp->prec >= 0 && (size_t)sp->prec < len)
		len = (size_t)sp->prec;
	padded(tb, sp, s, len);
}

static void conv_ptr(struct mttd__tbuf *tb, const struct spec *sp,
		     struct mttd__args *a)
{
	int ok;
	uint64_t v = take(a, a->ptr, &ok);
	char buf[24];
	unsigned int n = sizeof(buf);

	if (!ok) {
		missing(tb);
		return;
	}
	record(a, MTTD_SYST_ARG_UINT, v);
	if (!tb)
		return;
	if (!v)
		padded(tb, sp, "(nil)", 5);
	else {
		/* "0x%llx" by hand */
		do {
			buf[--n] = "0123456789abcdef"[v & 0xf];
			v >>= 4;
		} while (v);
		buf[--n] = 'x';
		buf[--n] = '0';
		padded(tb, sp, buf + n, sizeof(buf) - n);
	}
}

static int digits(const char *f, size_t flen, size_t *i)
{
	int v = 0;

	while (*i < flen && f[*i] >= '0' && f[*i] <= '9') {
		if (v < 100000)
			v = v * 10 + (f[*i] - '0');
		(*i)++;
	}
	return v;
}

/* a '*' argument: 32-bit int */
static int star(struct mttd__args *a)
{
	int ok;
	int32_t v = (int32_t)(uint32_t)take(a, 4, &ok);

	return ok ? v : 0;
}

/*
 * The spec after '%' at f[*i], without its '*' arguments (*wstar,
 * *pstar: the width, the precision is one); returns the conversion char,
 * 0 if the format ends inside the spec.  Widths and precisions written
 * as digits are capped here, those of arguments in stars().
 */
static char parse_spec(const char *f, size_t flen, size_t *i,
		       struct spec *sp, int *wstar, int *pstar)
{
	size_t nf = 0;

	/* field by field: for these 24 bytes a memset() is inlined as a
	 * rep stos, which costs more than the rest of the spec */
	memset(sp->flags, 0, sizeof(sp->flags));
	sp->left = 0;
	sp->width = 0;
	sp->prec = -1;
	sp->len = 0;
	*wstar = 0;
	*pstar = 0;
	for (; *i < flen; (*i)++) {
		char c = f[*i];

		if (c == '-')
			sp->left = 1;
		else if (c != '+' && c != ' ' && c != '#' && c != '0' &&
			 c != '\'' && c != 'I')
			break;
		if (c != '\'' && c != 'I' && !memchr(sp->flags, c, nf) &&
		    nf < sizeof(sp->flags) - 1)
			sp->flags[nf++] = c;
	}
	if (*i < flen && f[*i] == '*') {
		*wstar = 1;
		(*i)++;
	} else {
		sp->width = digits(f, flen, i);
	}
	if (*i < flen && f[*i] == '.') {
		(*i)++;
		if (*i < flen && f[*i] == '*') {
			(*i)++;
			*pstar = 1;
		} else {
			sp->prec = digits(f, flen, i);
		}
	}
	if (sp->width > MTTD_FMT_MAX_WIDTH)
		sp->width = MTTD_FMT_MAX_WIDTH;
	if (sp->prec > MTTD_FMT_MAX_WIDTH)
		sp->prec = MTTD_FMT_MAX_WIDTH;
	if (*i < flen) {
		switch (f[*i]) {
		case 'h':
			sp->len = LEN_H;
			if (++(*i) < flen && f[*i] == 'h') {
				sp->len = LEN_HH;
				(*i)++;
			}
			break;
		case 'l':
			sp->len = LEN_L;
			if (++(*i) < flen && f[*i] == 'l') {
				sp->len = LEN_LL;
				(*i)++;
			}
			break;
		case 'L': case 'q': case 'j':
			sp->len = LEN_LL;
			(*i)++;
			break;
		case 'z': case 'Z': case 't':
			sp->len = LEN_PTR;
			(*i)++;
			break;
		default:
			break;
		}
	}
	if (*i >= flen || !f[*i])
		return 0;
	return f[(*i)++];
}

/* the '*' arguments of a spec, width first, then precision */
static void stars(struct spec *sp, int wstar, int pstar,
		  struct mttd__args *a)
{
	if (wstar) {
		int w = star(a);

		if (w < 0) {
			size_t nf = strlen(sp->flags);

			if (!sp->left && nf < sizeof(sp->flags) - 1)
				sp->flags[nf] = '-';
			sp->left = 1;
			w = w == INT32_MIN ? INT32_MAX : -w;
		}
		sp->width = w > MTTD_FMT_MAX_WIDTH ? MTTD_FMT_MAX_WIDTH : w;
	}
	if (pstar) {
		sp->prec = star(a);
		if (sp->prec < 0)
			sp->prec = -1;
		if (sp->prec > MTTD_FMT_MAX_WIDTH)
			sp->prec = MTTD_FMT_MAX_WIDTH;
	}
}

enum {
	K_INT, K_FLOAT, K_CHAR, K_STR, K_PTR, K_N,
	K_RAW,		/* unknown or cut: the spec as it was written */
	K_END,		/* the literal after the last conversion */
};

static unsigned int kind_of(char conv)
{
	switch (conv) {
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
		return K_INT;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
	case 'a': case 'A':
		return K_FLOAT;
	case 'c':
		return K_CHAR;
	case 's':
		return K_STR;
	case 'p':
		return K_PTR;
	case 'n':
		return K_N;
	default:
		return K_RAW;
	}
}

/* one conversion; 1 if the text was cut (the format stops there) */
static int conv(struct mttd__tbuf *tb, unsigned int kind, char c,
		const struct spec *sp, struct mttd__args *a)
{
	int ok;

	switch (kind) {
	case K_INT:
		conv_int(tb, sp, c, a);
		break;
	case K_FLOAT:
		conv_float(tb, sp, c, a);
		break;
	case K_CHAR:
		conv_char(tb, sp, a);
		break;
	case K_STR:
		conv_str(tb, sp, a);
		break;
	case K_PTR:
		conv_ptr(tb, sp, a);
		break;
	case K_N:
		take(a, a->ptr, &ok);
		break;
	default:
		break;
	}
	return tb && tb->cut;
}

void mttd__fmt(struct mttd__tbuf *tb, const char *fmt, size_t flen,
	       struct mttd__args *a)
{
	size_t i = 0;
	const char *nul = memchr(fmt, 0, flen);

	if (nul)
		flen = (size_t)(nul - fmt);
	while (i < flen) {
		const char *pct = memchr(fmt + i, '%', flen - i);
		size_t start;
		struct spec sp;
		int ws, ps;
		unsigned int k;
		char c;

		if (!pct) {
			if (tb)
				mttd__tb_put(tb, fmt + i, flen - i);
			break;
		}
		if (tb)
			mttd__tb_put(tb, fmt + i, (size_t)(pct - fmt) - i);
		start = (size_t)(pct - fmt);
		i = start + 1;
		if (i < flen && fmt[i] == '%') {
			if (tb)
				mttd__tb_putc(tb, '%');
			i++;
			continue;
		}
		c = parse_spec(fmt, flen, &i, &sp, &ws, &ps);
		stars(&sp, ws, ps, a);
		k = kind_of(c);
		if (k == K_RAW && tb)
			mttd__tb_put(tb, fmt + start, i - start);
		if (conv(tb, k, c, &sp, a))
			return;
	}
}

/*
 * The compiled format: ops in order, each the literal bytes before it
 * (lit of them, taken in turn from text, "%%" already made "%"), then
 * its conversion; K_RAW's spec bytes (raw of them) follow its literal in
 * text; the last op is K_END, its literal the format's tail.
 */
struct fop {
	struct spec sp;
	uint32_t lit;
	uint32_t raw;
	uint8_t kind;
	char conv;
	uint8_t wstar, pstar;
	uint8_t fast;		/* F_*: done in mttd__fmt_run() itself */
	uint8_t size;		/* F_*: argument bytes, 0: a->ptr */
};

/* the common conversions without flags, width, precision or '*' (and
 * no h or hh), rendered without the general conversion code: the same
 * text, as conv_int() and conv_float() write them then */
enum { F_NONE, F_DEC, F_UDEC, F_HEX, F_HEXU, F_FIX };

/* a format with more '%' than this is rendered the slow way (the
 * compiled form takes some 40 bytes a '%') */
#define FMTC_MAX_OPS 4096

struct mttd__fmtc {
	size_t n;
	int plain;		/* text (literals, K_RAW's spec bytes) */
	char *text;
	struct fop op[];
};

static uint8_t fast_of(const struct fop *o)
{
	const struct spec *sp = &o->sp;

	if (o->wstar || o->pstar || sp->flags[0] || sp->width)
		return F_NONE;
#ifdef __SIZEOF_INT128__
	if ((o->conv == 'f' || o->conv == 'F') && sp->prec <= 17)
		return F_FIX;
#endif
	if (sp->prec >= 0 || sp->len == LEN_H || sp->len == LEN_HH)
		return F_NONE;
	switch (o->conv) {
	case 'd': case 'i': return F_DEC;
	case 'u': return F_UDEC;
	case 'x': return F_HEX;
	case 'X': return F_HEXU;
	default: return F_NONE;
	}
}

/* a fast op with its argument v; 0 if fixed_f() declines the value */
static int fast(struct mttd__tbuf *tb, const struct fop *o, uint64_t v,
		struct mttd__args *a)
{
	char tmp[64];
	unsigned int n = 21;

	switch (o->fast) {
	case F_DEC: {
		int64_t s = o->size == 8 || (o->size == 0 && a->ptr == 8) ?
			    (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
		uint64_t u = s < 0 ? 0 - (uint64_t)s : (uint64_t)s;

		record(a, MTTD_SYST_ARG_INT, (uint64_t)s);
		n = (unsigned int)(mttd__dec_back(tmp + 1, u) - tmp);
		if (s < 0)
			tmp[--n] = '-';
		break;
	}
	case F_UDEC:
		record(a, MTTD_SYST_ARG_UINT, v);
		n = (unsigned int)(mttd__dec_back(tmp + 1, v) - tmp);
		break;
	case F_HEX:
	case F_HEXU: {
		const char *digits = o->fast == F_HEXU ? "0123456789ABCDEF" :
				     "0123456789abcdef";

		record(a, MTTD_SYST_ARG_UINT, v);
		do {
			tmp[--n] = digits[v & 0xf];
			v >>= 4;
		} while (v);
		break;
	}
#ifdef __SIZEOF_INT128__
	default: {
		size_t k = fixed_f(tmp, v, o->sp.prec < 0 ? 6 : o->sp.prec);

		if (!k)
			return 0;
		record(a, MTTD_SYST_ARG_DOUBLE, v);
		mttd__tb_put32(tb, tmp, k);
		return 1;
	}
#endif
	}
	/* tmp[n..21), read up to tmp + 53 */
	mttd__tb_put32(tb, tmp + n, 21 - n);
	return 1;
}

struct mttd__fmtc *mttd__fmt_compile(const char *fmt, size_t flen)
{
	const char *nul = memchr(fmt, 0, flen);
	size_t i = 0, n = 1, t = 0, lit = 0;
	struct mttd__fmtc *c;

	if (nul)
		flen = (size_t)(nul - fmt);
	/* lengths are kept in 32 bits (a collateral text is at most
	 * 1 MiB) */
	if (flen >= (size_t)1 << 30)
		return NULL;
	/* ops: each starts at a '%' of its own (a spec may end in one),
	 * plus K_END */
	for (i = 0; i < flen; i++)
		n += fmt[i] == '%';
	if (n > FMTC_MAX_OPS)
		return NULL;
	/* the text is read 32 bytes at a time (mttd__tb_put32()) */
	c = malloc(sizeof(*c) + n * sizeof(c->op[0]) + flen + 32);
	if (!c)
		return NULL;
	c->text = (char *)&c->op[n];
	c->n = 0;
	i = 0;
	while (i < flen) {
		const char *pct = memchr(fmt + i, '%', flen - i);
		struct fop *o = &c->op[c->n];
		size_t start;
		int ws, ps;

		if (!pct)
			break;
		memcpy(c->text + t, fmt + i, (size_t)(pct - fmt) - i);
		t += (size_t)(pct - fmt) - i;
		lit += (size_t)(pct - fmt) - i;
		start = (size_t)(pct - fmt);
		i = start + 1;
		if (i < flen && fmt[i] == '%') {
			c->text[t++] = '%';
			lit++;
			i++;
			continue;
		}
		o->conv = parse_spec(fmt, flen, &i, &o->sp, &ws, &ps);
		o->kind = (uint8_t)kind_of(o->conv);
		o->wstar = (uint8_t)ws;
		o->pstar = (uint8_t)ps;
		o->lit = (uint32_t)lit;
		o->raw = 0;
		o->fast = fast_of(o);
		o->size = o->sp.len == LEN_LL ? 8 :
			  o->sp.len == LEN_L || o->sp.len == LEN_PTR ? 0 : 4;
		if (o->kind == K_FLOAT)
			o->size = 8;
		if (o->kind == K_RAW) {
			o->raw = (uint32_t)(i - start);
			memcpy(c->text + t, fmt + start, i - start);
			t += i - start;
		}
		lit = 0;
		c->n++;
	}
	memcpy(c->text + t, fmt + i, flen - i);
	lit += flen - i;
	c->op[c->n].kind = K_END;
	c->op[c->n].lit = (uint32_t)lit;
	c->op[c->n].raw = 0;
	c->n++;
	t += flen - i;
	c->plain = mttd__plain_run(c->text, t, 0) == t;
	return c;
}

void mttd__fmtc_free(struct mttd__fmtc *c)
{
	free(c);
}

void mttd__fmt_run(struct mttd__tbuf *tb, const struct mttd__fmtc *c,
		   struct mttd__args *a)
{
	const struct fop *o = c->op;
	const char *t = c->text;

	a->plain = c->plain;
	for (;; o++) {
		const struct spec *sp = &o->sp;
		struct spec s;
		size_t len;
		int cut;

		mttd__tb_put32(tb, t, o->lit + o->raw);
		t += o->lit + o->raw;
		if (o->kind == K_END)
			return;
		if (o->fast) {
			unsigned int size = o->size ? o->size : a->ptr;

			/* else conv() says "<?>", or does what fixed_f()
			 * does not (the argument taken again there) */
			if (a->n - a->pos >= size &&
			    fast(tb, o, mttd__lexx(a->p + a->pos, size), a)) {
				a->pos += size;
				if (tb->cut)
					return;
				continue;
			}
		}
		if (o->wstar | o->pstar) {
			s = o->sp;
			stars(&s, o->wstar, o->pstar, a);
			sp = &s;
		}
		len = tb->len;
		cut = conv(tb, o->kind, o->conv, sp, a);
		/* what it wrote (a string, a character, a padded or
		 * flagged number, "<?>"): plain or not */
		if (a->plain && tb->len > len)
			a->plain = mttd__plain_run(tb->p + len,
						   tb->len - len, a->avx2) ==
				   tb->len - len;
		if (cut)
			return;
	}
}
