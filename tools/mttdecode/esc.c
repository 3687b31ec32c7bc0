// SPDX-License-Identifier: GPL-2.0
/*
 * esc.c - escaping trace text for text and JSON output (see esc.h).
 * The common case, a run of printable ASCII, is copied in one go.
 */
#include <string.h>

#include "esc.h"
#include "internal/simd.h"

static const char hexd[] = "0123456789abcdef";

/*
 * One byte that is not plain text, escaped as text: a backslash and n, r,
 * t, a quote or a backslash, or xHH; returns the end (at most 4 bytes).
 */
static inline char *put_esc_byte(char *b, uint8_t c)
{
	*b++ = '\\';
	switch (c) {
	case '"': *b++ = '"'; break;
	case '\\': *b++ = '\\'; break;
	case '\n': *b++ = 'n'; break;
	case '\r': *b++ = 'r'; break;
	case '\t': *b++ = 't'; break;
	default:
		*b++ = 'x';
		*b++ = hexd[c >> 4];
		*b++ = hexd[c & 0xf];
		break;
	}
	return b;
}

unsigned int utf8_seq(const uint8_t *p, size_t n)
{
	uint8_t c = p[0];
	unsigned int len, i;
	uint32_t cp;

	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* bytes that go out unchanged in all three formats */
static inline int plain(uint8_t c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
/* some byte of x is below b (b <= 128) / above b (b <= 127) / zero */
#define HAS_LESS(x, b) (((x) - ONES * (b)) & ~(x) & HIGHS)
#define HAS_MORE(x, b) ((((x) + ONES * (127 - (b))) | (x)) & HIGHS)
#define HAS_ZERO(x) HAS_LESS(x, 1)

/* the length of the run of plain bytes at p: 16 (SSE2) or 8 at a time,
 * then exactly */
static size_t run(const uint8_t *p, size_t n)
{
	size_t i = 0;

#if MTTD_SSE2
	while (i + 16 <= n) {
		/* signed bytes: 0x20..0x7e are those > 0x1f and < 0x7f */
		__m128i x = _mm_loadu_si128((const __m128i *)(p + i));
		__m128i ok = _mm_and_si128(
			_mm_cmpgt_epi8(x, _mm_set1_epi8(0x1f)),
			_mm_cmplt_epi8(x, _mm_set1_epi8(0x7f)));
		__m128i bad = _mm_or_si128(
			_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
			_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_andnot_si128(bad, ok));

		if (m != 0xffff)
			return i + (unsigned int)__builtin_ctz(~m);
		i += 16;
	}
#endif
	while (i + 8 <= n) {
		uint64_t v;

		memcpy(&v, p + i, 8);
		if (HAS_LESS(v, 0x20) | HAS_MORE(v, 0x7e) |
		    HAS_ZERO(v ^ (ONES * '"')) | HAS_ZERO(v ^ (ONES * '\\')))
			break;
		i += 8;
	}
	while (i < n && plain(p[i]))
		i++;
	return i;
}

enum { M_TEXT, M_TEXTQ, M_JSON };

static void esc(struct out *o, const uint8_t *p, size_t n, int mode)
{
	while (n) {
		size_t k = run(p, n);
		unsigned int u;
		char *b;
		uint8_t c;

		if (k) {
			out_mem(o, p, k);
			p += k;
			n -= k;
			continue;
		}
		c = *p;
		b = out_room(o, 8);
		if (c >= 0x80 && (u = utf8_seq(p, n))) {
			memcpy(b, p, u);
			out_end(o, b + u);
			p += u;
			n -= u;
			continue;
		}
		p++;
		n--;
		if (mode == M_JSON) {
			*b++ = '\\';
			switch (c) {
			case '"': *b++ = '"'; break;
			case '\\': *b++ = '\\'; break;
			case '\n': *b++ = 'n'; break;
			case '\r': *b++ = 'r'; break;
			case '\t': *b++ = 't'; break;
			case '\b': *b++ = 'b'; break;
			case '\f': *b++ = 'f'; break;
			default:
				b = put_lit(b, "u00");
				*b++ = hexd[c >> 4];
				*b++ = hexd[c & 0xf];
				break;
			}
			out_end(o, b);
			continue;
		}
		if (c == '"' && mode != M_TEXTQ) {
			*b++ = '"';
			out_end(o, b);
			continue;
		}
		out_end(o, put_esc_byte(b, c));
	}
}

/* bytes that go out unchanged as text without quotes */
static inline int text_plain(uint8_t c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

/*
 * M_TEXT into memory: runs of plain bytes are copied as they are found
 * (16 or 8 bytes stored at a time: at most 4 * n bytes are ever written,
 * as each store lies within what the bytes before it and those 16 or 8
 * bytes escape to at most).
 */
char *put_esc_text(char *b, const void *s, size_t n)
{
	const uint8_t *p = s, *e = p + n;

	while (p < e) {
		unsigned int u;
		uint8_t c;

#if MTTD_SSE2
		while (e - p >= 16) {
			__m128i x = _mm_loadu_si128((const __m128i *)p);
			__m128i ok = _mm_andnot_si128(
				_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')),
				_mm_and_si128(
					_mm_cmpgt_epi8(x, _mm_set1_epi8(0x1f)),
					_mm_cmplt_epi8(x, _mm_set1_epi8(0x7f))));
			unsigned int m = (unsigned int)_mm_movemask_epi8(ok);

			_mm_storeu_si128((__m128i *)b, x);
			if (m != 0xffff) {
				unsigned int k = (unsigned int)__builtin_ctz(~m);

				p += k;
				b += k;
				goto special;
			}
			p += 16;
			b += 16;
		}
		if (p < e && p - (const uint8_t *)s >= 16 - (e - p)) {
			/* fewer than 16 left, and 16 before the end are
			 * there: when all 16 are plain, those before p
			 * among them went out as they are, just before b,
			 * and one store ends the text */
			__m128i x = _mm_loadu_si128((const __m128i *)(e - 16));
			__m128i ok = _mm_andnot_si128(
				_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')),
				_mm_and_si128(
					_mm_cmpgt_epi8(x, _mm_set1_epi8(0x1f)),
					_mm_cmplt_epi8(x, _mm_set1_epi8(0x7f))));

			if (_mm_movemask_epi8(ok) == 0xffff) {
				_mm_storeu_si128((__m128i *)(b - (16 - (e - p))),
						 x);
				return b + (e - p);
			}
		}
#endif
		while (e - p >= 8) {
			uint64_t v;

			memcpy(&v, p, 8);
			if (HAS_LESS(v, 0x20) | HAS_MORE(v, 0x7e) |
			    HAS_ZERO(v ^ (ONES * '\\')))
				break;
			memcpy(b, &v, 8);
			p += 8;
			b += 8;
		}
		while (p < e && text_plain(*p))
			*b++ = (char)*p++;
		if (p == e)
			break;
#if MTTD_SSE2
special:
#endif
		c = *p;
		if (c >= 0x80 && (u = utf8_seq(p, (size_t)(e - p)))) {
			memcpy(b, p, u);
			b += u;
			p += u;
			continue;
		}
		p++;
		b = put_esc_byte(b, c);
	}
	return b;
}

void esc_text(struct out *o, const void *s, size_t n, int quotes)
{
	esc(o, s, n, quotes ? M_TEXTQ : M_TEXT);
}

void esc_json(struct out *o, const void *s, size_t n)
{
	esc(o, s, n, M_JSON);
}

void json_str(struct out *o, const char *s)
{
	if (!s) {
		out_str(o, "null");
		return;
	}
	out_char(o, '"');
	esc_json(o, s, strlen(s));
	out_char(o, '"');
}
