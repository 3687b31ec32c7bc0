// SPDX-License-Identifier: GPL-2.0
/*
 * framegen.c - writes a raw STP stream as the capture of a framed sink,
 * for the framing tests (tests/host/framing.t):
 *
 *   framegen msc IN OUT EXPECT UNITS BLOCKS WINDOWS
 *	Intel TH MSC multi-block buffer: WINDOWS windows of BLOCKS blocks of
 *	UNITS * 64 bytes (descriptor included), filled in order.  IN is
 *	padded with 0x00 (STP NULLs) to whole 32-bit words.  With one
 *	window, more data than it holds wraps around (block wrap bit on the
 *	blocks written again; the last one written is left short); blocks
 *	past the data have valid_dw 0.  EXPECT gets the bytes an unframer
 *	must give: the oldest data first.
 *   framegen cs IN OUT SEED ID MODE [DECOY]
 *	CoreSight formatter frames: IN's bytes under trace ID ID, mixed
 *	with random bytes under two other IDs and padding (ID 0), with
 *	immediate and delayed ID changes; MODE plain: 16-byte aligned
 *	frames only; frame: with barrier frames (4 FSYNCs) between frames,
 *	one first; fsync: junk, then an FSYNC before the first frame,
 *	between some frames and after the last; hsync: fsync and an HSYNC
 *	halfword inside each frame.  DECOY: a second
 *	STP stream (a file) under ID ID + 1, starting first.
 *
 * Exit status 0, or 1 with a message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *slurp(const char *path, size_t *n, size_t extra)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	size_t cap = 0, len = 0, r;

	if (!f)
		return NULL;
	do {
		if (len + 65536 + extra > cap) {
			cap = (len + 65536 + extra) * 2;
			p = realloc(p, cap);
			if (!p)
				exit(1);
		}
		r = fread(p + len, 1, 65536, f);
		len += r;
	} while (r);
	fclose(f);
	*n = len;
	return p;
}

static void wr(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "framegen: cannot write %s\n", path);
		exit(1);
	}
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static int msc(char **av)
{
	size_t n, units = strtoul(av[3], NULL, 0);
	size_t blocks = strtoul(av[4], NULL, 0), wins = strtoul(av[5], NULL, 0);
	size_t bsz = units * 64, cap = bsz - 64, total = blocks * wins;
	uint8_t *in = slurp(av[0], &n, 8), *buf, *exp;
	size_t *fill, i, off = 0, b = 0, nexp = 0;
	unsigned int *wrap;
	int wrapped = 0;

	if (!in || units < 2 || !blocks || !wins || (wins > 1 && n > cap * total)) {
		fprintf(stderr, "framegen: bad msc arguments\n");
		return 1;
	}
	while (n % 4)
		in[n++] = 0;
	/* the last block written must be short when the ring wraps */
	if (wins == 1 && n > cap * total && n % cap == 0) {
		memset(in + n, 0, 4);
		n += 4;
	}
	buf = calloc(total, bsz);
	exp = malloc(n);
	fill = calloc(total, sizeof(*fill));
	wrap = calloc(total, sizeof(*wrap));
	if (!buf || !exp || !fill || !wrap)
		return 1;
	while (off < n) {
		size_t k = n - off < cap ? n - off : cap;

		if (b == total) {
			b = 0;
			wrapped = 1;
		}
		memcpy(buf + b * bsz + 64, in + off, k);
		fill[b] = k;
		wrap[b] = wrapped;
		off += k;
		b++;
	}
	for (i = 0; i < total; i++) {
		uint8_t *d = buf + i * bsz;
		int lastblk = (i % blocks) == blocks - 1;

		put32(d, lastblk ? (i == total - 1 ? 3 : 1) : 0);
		put32(d + 4, (uint32_t)units);
		put32(d + 8, (uint32_t)(i + 1));
		put32(d + 32, wrap[i] ? 2 : 0);
		put32(d + 36, fill[i] ? (uint32_t)((fill[i] + 64) / 4) : 0);
		put32(d + 40, (uint32_t)(1000 * (i + 1)));
		put32(d + 44, 1);
	}
	/* expected: from the block after the last one written when wrapped */
	for (i = 0; i < total; i++) {
		size_t j = wrapped ? (b + i) % total : i;

		memcpy(exp + nexp, buf + j * bsz + 64, fill[j]);
		nexp += fill[j];
	}
	wr(av[1], buf, total * bsz);
	wr(av[2], exp, nexp);
	return 0;
}

/* ---- CoreSight ---- */

struct item {
	uint8_t id, b;
};

static uint64_t rng;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

static void emit(uint8_t **o, size_t *no, size_t *co, const void *p, size_t n)
{
	if (*no + n > *co) {
		*co = (*no + n) * 2 + 1024;
		*o = realloc(*o, *co);
		if (!*o)
			exit(1);
	}
	memcpy(*o + *no, p, n);
	*no += n;
}

static int cs(char **av, int ac)
{
	static const uint8_t fsync[4] = { 0xff, 0xff, 0xff, 0x7f };
	size_t n, nd = 0, ni = 0, i = 0, di = 0, no = 0, co = 0;
	uint8_t *in = slurp(av[0], &n, 0), *dec = NULL, *o = NULL;
	unsigned int id = (unsigned int)strtoul(av[3], NULL, 0), cur = 0x100;
	const char *mode = av[4];
	int tpiu;
	struct item *it;

	rng = strtoull(av[2], NULL, 0) * 2654435761u + 7;
	if (ac > 5)
		dec = slurp(av[5], &nd, 0);
	if (!in || !id || id >= 0x6f || (ac > 5 && !dec) ||
	    (strcmp(mode, "plain") && strcmp(mode, "frame") &&
	     strcmp(mode, "fsync") && strcmp(mode, "hsync"))) {
		fprintf(stderr, "framegen: bad cs arguments\n");
		return 1;
	}
	it = malloc((n + nd) * 4 * sizeof(*it) + 64);
	if (!it)
		return 1;
	/* the decoy first, a whole ASYNC ahead of the STM's stream */
	for (; di < nd && di < 64; di++)
		it[ni++] = (struct item){ (uint8_t)(id + 1), dec[di] };
	while (i < n || di < nd) {
		unsigned int k = rnd(100), len = 1 + rnd(40), j;

		for (j = 0; j < len; j++) {
			if (k < 60 && i < n)
				it[ni++] = (struct item){ (uint8_t)id, in[i++] };
			else if (k < 70 && di < nd)
				it[ni++] = (struct item){ (uint8_t)(id + 1),
							  dec[di++] };
			else if (k < 85)
				it[ni++] = (struct item){ 0x42, (uint8_t)rnd(256) };
			else if (k < 95)
				it[ni++] = (struct item){ 0x07, (uint8_t)rnd(256) };
			else
				it[ni++] = (struct item){ 0, 0 };
		}
	}
	if (!strcmp(mode, "fsync") || !strcmp(mode, "hsync"))
		for (i = rnd(20); i; i--)
			emit(&o, &no, &co, (uint8_t[]){ (uint8_t)rnd(256) }, 1);
	if (strcmp(mode, "plain"))
		emit(&o, &no, &co, fsync, 4);
	if (!strcmp(mode, "frame"))
		for (i = 0; i < 3; i++)
			emit(&o, &no, &co, fsync, 4);
	i = 0;
	while (i < ni) {
		uint8_t f[16] = { 0 };
		unsigned int p;

		for (p = 0; p < 16; p += 2) {
			const struct item *a = i < ni ? &it[i] : NULL;
			const struct item *b = i + 1 < ni ? &it[i + 1] : NULL;
			int odd = p < 14;

			if (!a) {	/* padding: ID 0 then zeros */
				if (cur) {
					f[p] = 1;
					cur = 0;
				}
				continue;
			}
			if (a->id != cur) {	/* immediate */
				f[p] = (uint8_t)(a->id << 1 | 1);
				cur = a->id;
				if (odd)
					f[p + 1] = it[i++].b;
			} else if (odd && (!b || b->id != cur)) {
				/* delayed: the next byte is still cur's */
				cur = b ? b->id : 0;
				f[p] = (uint8_t)(cur << 1 | 1);
				f[15] |= (uint8_t)(1u << (p / 2));
				f[p + 1] = it[i++].b;
			} else {	/* data, bit 0 in the aux byte */
				f[p] = (uint8_t)(a->b & 0xfe);
				f[15] |= (uint8_t)((a->b & 1) << (p / 2));
				i++;
				if (odd)
					f[p + 1] = it[i++].b;
			}
		}
		if (!strcmp(mode, "hsync")) {
			/* an HSYNC at an even offset, the frame split there */
			unsigned int at = 2 * rnd(8);

			emit(&o, &no, &co, f, at);
			emit(&o, &no, &co, (uint8_t[]){ 0xff, 0x7f }, 2);
			emit(&o, &no, &co, f + at, 16 - at);
		} else {
			emit(&o, &no, &co, f, 16);
		}
		tpiu = !strcmp(mode, "fsync") || !strcmp(mode, "hsync");
		/* FSYNCs between frames; a TPIU capture ends with one */
		if (strcmp(mode, "plain") && (i < ni ? !rnd(8) : tpiu)) {
			emit(&o, &no, &co, fsync, 4);
			if (!strcmp(mode, "frame"))
				for (p = 0; p < 3; p++)
					emit(&o, &no, &co, fsync, 4);
		}
	}
	wr(av[1], o, no);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 8 && !strcmp(argv[1], "msc"))
		return msc(argv + 2);
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "cs"))
		return cs(argv + 2, argc - 2);
	fprintf(stderr, "usage: framegen msc IN OUT EXPECT UNITS BLOCKS WINDOWS\n"
		"       framegen cs IN OUT SEED ID plain|frame|fsync|hsync [DECOY]\n");
	return 1;
}
