// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_text.c - the MIPI reference printer's input text: lines holding
 * "SYS-T RAW DATA:" and a message in hex; other lines are ignored.
 * Lines are split as the bytes arrive; a line that spans feed() calls is
 * gathered in a bounded buffer (longer lines are cut and the message
 * flagged truncated).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal/hex.h"
#include "internal/simd.h"
#include "internal/state.h"
#include "syst_internal.h"

#define LINE_MAX_BYTES (256u << 10)

static const char marker[] = "SYS-T RAW DATA:";

struct mttd_syst_text {
	struct mttd_syst *s;
	char *line;		/* a line cut by the end of a feed() */
	size_t cap;		/* grown up to LINE_MAX_BYTES */
	size_t len;
	int over;		/* it was longer than LINE_MAX_BYTES */
	uint64_t line_off;	/* stream offset of the line */
	uint64_t lineno;	/* 1-based number of the current line */
	uint64_t off;		/* stream offset of the next byte fed */
	uint8_t *msg;		/* decoded bytes */
	size_t msg_cap;
	int finished;
	int avx2;		/* hex_run() may use AVX2 (the CPU has it) */
};

struct mttd_syst_text *mttd_syst_text_new(struct mttd_syst *s)
{
	struct mttd_syst_text *t;

	if (!s)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->s = s;
	t->lineno = 1;
#if MTTD_AVX2_RT
	/* the CPU's features as the compiler's run time reads them once
	 * (CPUID and XGETBV: the OS saves the AVX state) */
	t->avx2 = __builtin_cpu_supports("avx2");
#endif
	return t;
}

void mttd_syst_text_free(struct mttd_syst_text *t)
{
	if (!t)
		return;
	free(t->line);
	free(t->msg);
	free(t);
}

/* each character's hex digit value, or -1 */
#define HV(c)	((c) >= '0' && (c) <= '9' ? (c) - '0' : \
		 (c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10 : \
		 (c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 10 : -1)
#define HV4(c)	HV(c), HV((c) + 1), HV((c) + 2), HV((c) + 3)
#define HV16(c)	HV4(c), HV4((c) + 4), HV4((c) + 8), HV4((c) + 12)
#define HV64(c)	HV16(c), HV16((c) + 16), HV16((c) + 32), HV16((c) + 48)
static const int8_t hex_tab[256] = { HV64(0), HV64(64), HV64(128), HV64(192) };

/*
 * Eight hex digits at c to four bytes, a word at a time: *out gets them
 * in order, returns 0; -1 (nothing written) if any of the eight is not a
 * hex digit.  Per byte lane (all below 0x80): digits are 0x30..0x39;
 * letters, with bit 5 set (0x20), 0x61..0x66; x + (0x80 - lo) has bit 7
 * set when x >= lo, x + (0x7f - hi) when x > hi, and no lane carries into
 * the next.  A digit's value is its low nibble, a letter's its low nibble
 * plus 9 (bit 6 tells letters).
 */
static inline int hex8(const char *c, uint8_t *out)
{
	const uint64_t ones = 0x0101010101010101ULL, hi = 0x80 * ones;
	uint64_t x, y, ok, v;

	memcpy(&x, c, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	y = x | 0x20 * ones;
	ok = ((x + (0x80 - '0') * ones) & ~(x + (0x7f - '9') * ones)) |
	     ((y + (0x80 - 'a') * ones) & ~(y + (0x7f - 'f') * ones));
	if (((ok & ~x) & hi) != hi)
		return -1;
	/* lane values 0..15; char 2k (high nibble) in byte 2k */
	v = (x & 0x0f * ones) + ((x >> 6) & ones) * 9;
	/* byte pairs to one byte in each 16-bit lane, then packed */
	v = ((v & 0x00ff00ff00ff00ffULL) << 4) | ((v >> 8) & 0x00ff00ff00ff00ffULL);
	v = (v | (v >> 8)) & 0x0000ffff0000ffffULL;
	v = (v | (v >> 16)) & 0xffffffffULL;
	out[0] = (uint8_t)v;
	out[1] = (uint8_t)(v >> 8);
	out[2] = (uint8_t)(v >> 16);
	out[3] = (uint8_t)(v >> 24);
	return 0;
}

#if MTTD_SSE2

/* Sixteen characters at c as hex digits to eight bytes at out, all
 * eight stored whatever the characters: a mask of the characters that
 * are hex digits (bit i for c[i]; 0xffff: all of them, the eight bytes
 * are theirs).  As hex8(), in SSE2. */
static inline unsigned int hex16(const char *c, uint8_t *out)
{
	__m128i x = _mm_loadu_si128((const __m128i *)c);
	__m128i d = _mm_sub_epi8(x, _mm_set1_epi8('0'));
	__m128i l = _mm_sub_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)),
				 _mm_set1_epi8('a'));
	/* unsigned d <= 9, l <= 5 */
	__m128i isd = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
	__m128i isl = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(5)), l);
	__m128i v;

	v = _mm_or_si128(_mm_and_si128(isd, d),
			 _mm_and_si128(isl, _mm_add_epi8(l, _mm_set1_epi8(10))));
	/* in each 16-bit lane: first digit (low byte) << 4 | second */
	v = _mm_and_si128(_mm_or_si128(_mm_slli_epi16(v, 4),
				       _mm_srli_epi16(v, 8)),
			  _mm_set1_epi16(0xff));
	_mm_storel_epi64((__m128i *)out, _mm_packus_epi16(v, v));
	return (unsigned int)_mm_movemask_epi8(_mm_or_si128(isd, isl));
}
#endif

#if MTTD_AVX2_RT
#include <immintrin.h>

/*
 * hex16() on 32 characters, sixteen bytes stored: in AVX2, chosen at run
 * time (mttd_syst_text_new()); the digits' values as in hex16(), each
 * pair made one byte by a multiply-add (first * 16 + second), the 16-bit
 * lanes packed within each 128-bit half and the two halves' results put
 * side by side.  Returns the mask of the characters that are hex digits.
 */
#define HREP2(a, b) { a, b, a, b, a, b, a, b, a, b, a, b, a, b, a, b, \
		      a, b, a, b, a, b, a, b, a, b, a, b, a, b, a, b }
/* hex32()'s constants, taken from memory as operands (built with a
 * broadcast each, on every call, otherwise): '0', 0x20, 'a', 9, 5, 10,
 * and the multipliers 16 and 1 of each pair */
enum { HK_0, HK_20, HK_A, HK_9, HK_5, HK_10, HK_MUL, HK_N };
static const uint8_t hk[HK_N][32] __attribute__((aligned(32))) = {
	MTTD_REP32('0'), MTTD_REP32(0x20), MTTD_REP32('a'), MTTD_REP32(9),
	MTTD_REP32(5), MTTD_REP32(10),
	HREP2(0x10, 0x01),
};

__attribute__((target("avx2")))
static unsigned int hex32(const char *c, uint8_t *out, const __m256i *k)
{
	__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)c);
	__m256i d = _mm256_sub_epi8(x, k[HK_0]);
	__m256i l = _mm256_sub_epi8(_mm256_or_si256(x, k[HK_20]), k[HK_A]);
	__m256i isd = _mm256_cmpeq_epi8(_mm256_min_epu8(d, k[HK_9]), d);
	__m256i isl = _mm256_cmpeq_epi8(_mm256_min_epu8(l, k[HK_5]), l);
	__m256i v;

	v = _mm256_or_si256(_mm256_and_si256(isd, d),
			    _mm256_and_si256(isl, _mm256_add_epi8(l,
							k[HK_10])));
	v = _mm256_maddubs_epi16(v, k[HK_MUL]);
	v = _mm256_permute4x64_epi64(_mm256_packus_epi16(v, v), 0x08);
	_mm_storeu_si128((__m128i *)(void *)out, _mm256_castsi256_si128(v));
	return (unsigned int)_mm256_movemask_epi8(_mm256_or_si256(isd, isl));
}

/* hex_run()'s steps of 32 characters; *stop: a character that is not
 * a digit was met (the run ends where returned) */
__attribute__((target("avx2")))
static const char *hex_run32(const char *h, const char *end, uint8_t *out,
			     size_t *kp, size_t lim, int *stop)
{
	const __m256i *hv = (const __m256i *)(const void *)hk;
	size_t k = *kp, steps = (size_t)(end - h) / 32;

	/* hv's values unknown to the compiler: its loads stay loads */
	__asm__("" : "+r"(hv));
	if (steps > (lim - k) / 16)
		steps = (lim - k) / 16;
	for (; steps; steps--) {
		unsigned int ok = hex32(h, out + k, hv);

		if (ok != 0xffffffffu) {
			unsigned int n = (unsigned int)__builtin_ctz(~ok) / 2;

			*kp = k + n;
			*stop = 1;
			return h + 2 * n;
		}
		k += 16;
		h += 32;
	}
	*kp = k;
	return h;
}
#endif

static const char *find_marker(const char *l, size_t n)
{
	const size_t k = sizeof(marker) - 1;
	size_t i;

	for (i = 0; i + k <= n; i++) {
		const char *c = memchr(l + i, 'S', n - i - k + 1);

		if (!c)
			return NULL;
		i = (size_t)(c - l);
		if (!memcmp(c, marker, k))
			return c + k;
	}
	return NULL;
}

/* pairs of hex digits from h (before end) to out + *k, at most lim
 * bytes in all: where the first that is not a pair of digits is; *k
 * counts the bytes decoded.  Up to 15 bytes past them may be written,
 * within lim and within the bytes the characters up to end make.  With
 * avx2, 32 characters a step first. */
static const char *hex_run(int avx2, const char *h, const char *end,
			   uint8_t *out, size_t *kp, size_t lim)
{
	size_t k;

#if MTTD_AVX2_RT
	if (avx2) {
		int stop = 0;

		h = hex_run32(h, end, out, kp, lim, &stop);
		if (stop)
			return h;
	}
#else
	(void)avx2;
#endif
	k = *kp;
#if MTTD_SSE2
	/* the steps that fit both the characters and the room, counted
	 * once */
	size_t steps = (size_t)(end - h) / 16;

	if (steps > (lim - k) / 8)
		steps = (lim - k) / 8;
	for (; steps; steps--) {
		unsigned int ok = hex16(h, out + k);

		if (ok != 0xffff) {
			/* the pairs before the first other character are
			 * decoded (the bytes after them are not the
			 * message's): no pair can follow them */
			unsigned int n = (unsigned int)__builtin_ctz(~ok) / 2;

			*kp = k + n;
			return h + 2 * n;
		}
		k += 8;
		h += 16;
	}
#endif
	while (end - h >= 8 && lim - k >= 4 && !hex8(h, out + k)) {
		k += 4;
		h += 8;
	}
	while (end - h >= 2 && k < lim) {
		int a = hex_tab[(uint8_t)h[0]], b = hex_tab[(uint8_t)h[1]];

		if ((a | b) < 0)
			break;
		out[k++] = (uint8_t)(a << 4 | b);
		h += 2;
	}
	*kp = k;
	return h;
}

/* room for the bytes of a line of n characters; 0 or -1 */
static int msg_room(struct mttd_syst_text *t, size_t n)
{
	uint8_t *nb;

	if (n / 2 + 1 <= t->msg_cap)
		return 0;
	nb = realloc(t->msg, n / 2 + 1);
	if (!nb)
		return -1;
	t->msg = nb;
	t->msg_cap = n / 2 + 1;
	return 0;
}

static void line(struct mttd_syst_text *t, const char *l, size_t n,
		 int over)
{
	const char *h, *end;
	size_t k = 0, lim;
	struct mttd_syst_src src = { .offset = t->line_off };

	if (!l)
		return;
	h = find_marker(l, n);
	end = l + n;
	if (!h || msg_room(t, (size_t)(end - h)))
		return;
	/* the common case, pairs of hex digits, through a table (no
	 * branch on the digit's range); anything else, from the first
	 * blank, bad digit or the length limit on, in the loop below */
	lim = t->s->max_len ? t->s->max_len : SIZE_MAX;
	while (h < end && (*h == ' ' || *h == '\t' || *h == '\r'))
		h++;
	h = hex_run(t->avx2, h, end, t->msg, &k, lim);
	while (h < end) {
		int a, b;

		if (*h == ' ' || *h == '\t' || *h == '\r') {
			h++;
			continue;
		}
		a = mttd_hexval(*h);
		b = h + 1 < end ? mttd_hexval(h[1]) : -1;
		if (a < 0 || b < 0) {
			if (over && h + 1 >= end)
				break;	/* cut inside a byte */
			mttd__syst_event(t->s, MTTD_SYST_EV_BADLINE,
					 t->line_off, t->lineno);
			return;
		}
		if (t->s->max_len && k == t->s->max_len) {
			over = 1;	/* the rest is dropped unread */
			break;
		}
		t->msg[k++] = (uint8_t)(a << 4 | b);
		h += 2;
	}
	if (over)
		src.flags = MTTD_SYST_F_TRUNCATED;
	mttd_syst_decode(t->s, &src, t->msg, k);
}

static void keep(struct mttd_syst_text *t, const char *p, size_t n)
{
	if (!n)
		return;
	if (n > LINE_MAX_BYTES - t->len) {
		n = LINE_MAX_BYTES - t->len;
		t->over = 1;
	}
	if (t->len + n > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		char *nl;

		while (cap < t->len + n)
			cap *= 2;
		if (cap > LINE_MAX_BYTES)
			cap = LINE_MAX_BYTES;
		nl = realloc(t->line, cap);
		if (!nl) {
			t->over = 1;
			return;
		}
		t->line = nl;
		t->cap = cap;
	}
	memcpy(t->line + t->len, p, n);
	t->len += n;
}

/*
 * The common line, "SYS-T RAW DATA: " at its start and pairs of hex
 * digits up to its line feed, in one pass: the digits decoded straight
 * from the input, the line feed found where they stop (no search for it
 * or for the marker).  Returns the line's length without its line feed,
 * the message decoded; 0 when the line is not one of those (nothing
 * done: line() takes it), or when it would need more room than msg has
 * or reach the length limit.
 */
static size_t fast_line(struct mttd_syst_text *t, const char *b,
			const char *end)
{
	static const char lead[] = "SYS-T RAW DATA: ";
	const size_t ll = sizeof(lead) - 1;
	struct mttd_syst_src src = { .offset = t->line_off };
	size_t k = 0, cap = t->msg_cap, lim;
	const char *h;

	if ((size_t)(end - b) <= ll || memcmp(b, lead, ll) || cap < 2)
		return 0;
	lim = t->s->max_len && t->s->max_len < cap ? t->s->max_len : cap;
#if MTTD_AVX2_RT
	if (t->avx2) {
		/* hex_run()'s AVX2 steps called from here, where a line
		 * nearly always ends (no frame of hex_run() for them) */
		int stop = 0;

		h = hex_run32(b + ll, end, t->msg, &k, lim, &stop);
		if (!stop)
			h = hex_run(0, h, end, t->msg, &k, lim);
	} else
#endif
	{
		h = hex_run(t->avx2, b + ll, end, t->msg, &k, lim);
	}
	/* the limit reached (or the room): line() decides */
	if (h >= end || *h != '\n' || k >= lim)
		return 0;
	mttd_syst_decode(t->s, &src, t->msg, k);
	return (size_t)(h - b);
}

int mttd_syst_text_feed(struct mttd_syst_text *t, const void *p, size_t n)
{
	const char *b = p, *end = b + n;

	if (t->finished)
		return -1;
	/* room for the fast path's common lines (grown by line()); without
	 * it, fast_line() leaves every line to line() */
	if (t->msg_cap < 4096)
		msg_room(t, 8190);
	while (b < end) {
		const char *nl;
		size_t k;

		if (!t->len && !t->over) {
			k = fast_line(t, b, end);
			if (k) {
				t->off += k + 1;
				t->line_off = t->off;
				t->lineno++;
				b += k + 1;
				continue;
			}
		}
		nl = memchr(b, '\n', (size_t)(end - b));
		k = (size_t)((nl ? nl : end) - b);

		if (!nl) {
			keep(t, b, k);
			t->off += k;
			break;
		}
		if (t->len || t->over) {
			keep(t, b, k);
			line(t, t->line, t->len, t->over);
		} else if (k > LINE_MAX_BYTES) {
			line(t, b, LINE_MAX_BYTES, 1);
		} else {
			line(t, b, k, 0);
		}
		t->len = 0;
		t->over = 0;
		t->off += k + 1;
		t->line_off = t->off;
		t->lineno++;
		b = nl + 1;
	}
	return 0;
}

int mttd_syst_text_finish(struct mttd_syst_text *t)
{
	if (t->finished)
		return -1;
	t->finished = 1;
	if (t->len || t->over)
		line(t, t->line, t->len, t->over);
	t->len = 0;
	return 0;
}

/* ---- mttdecode -j (internal/state.h) ---- */

void mttd__syst_text_state(const struct mttd_syst_text *t,
			   struct mttd__blob *b)
{
	mttd__blob_put(b, &t->off, sizeof(t->off));
	mttd__blob_put(b, &t->line_off, sizeof(t->line_off));
	mttd__blob_put(b, &t->over, sizeof(t->over));
	mttd__blob_put(b, &t->len, sizeof(t->len));
	if (t->len)
		mttd__blob_put(b, t->line, t->len);
}

void mttd__syst_text_start_at(struct mttd_syst_text *t, uint64_t off)
{
	t->off = off;
	t->line_off = off;
}

uint64_t mttd__syst_text_lineno(const struct mttd_syst_text *t)
{
	return t->lineno;
}

void mttd__syst_text_set_lineno(struct mttd_syst_text *t, uint64_t lineno)
{
	t->lineno = lineno;
}
