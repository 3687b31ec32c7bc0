// SPDX-License-Identifier: GPL-2.0
/*
 * crctest.c - the one implementation of each CRC (libwire's wire/crc.h,
 * an internal header of the tools, and libmttdecode's public
 * mttd_crc32c()) against the published check values of the catalogue of
 * parametrised CRCs (the CRC of the ASCII bytes "123456789"), against a
 * bit-at-a-time reference written here from the parameters (width,
 * polynomial, reflection, start, final XOR), and fed in pieces.  CRC-32C
 * has several implementations behind wire_crc32c(): the byte table
 * (every target) and, on x86-64 hosts whose CPU has SSE4.2, the crc32
 * instruction; each is checked on its own, at every alignment, and
 * against the others; CRC-16 by each of its two (a byte, four bytes at
 * a time) the same way.
 */
#include <stdint.h>
#include <stdlib.h>

#include "mttdecode/syst.h"
#include "tap.h"
#include "wire/crc.h"

/* the parameters of one CRC, as the catalogue lists them */
struct crc_model {
	const char *name;
	int width;
	uint32_t poly, init, xorout, check;
	int refin;	/* reflected input and output */
};

static const struct crc_model models[] = {
	{ "CRC-16/CCITT-FALSE", 16, 0x1021, 0xffff, 0, 0x29b1, 0 },
	{ "CRC-32/ISO-HDLC", 32, 0x04c11db7, 0xffffffff, 0xffffffff,
	  0xcbf43926, 1 },
	{ "CRC-32/ISCSI (CRC-32C)", 32, 0x1edc6f41, 0xffffffff, 0xffffffff,
	  0xe3069283, 1 },
};

static uint32_t reflect(uint32_t v, int bits)
{
	uint32_t r = 0;
	int i;

	for (i = 0; i < bits; i++)
		if (v & (1u << i))
			r |= 1u << (bits - 1 - i);
	return r;
}

/* the textbook shift register, one bit at a time, most significant first */
static uint32_t reference(const struct crc_model *m, const uint8_t *p,
			  size_t n)
{
	uint32_t top = 1u << (m->width - 1);
	uint32_t mask = m->width == 32 ? 0xffffffffu : (1u << m->width) - 1;
	uint32_t c = m->init;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		uint32_t byte = m->refin ? reflect(p[i], 8) : p[i];

		c ^= byte << (m->width - 8);
		for (b = 0; b < 8; b++)
			c = (c & top ? (c << 1) ^ m->poly : c << 1) & mask;
	}
	if (m->refin)
		c = reflect(c, m->width);
	return (c ^ m->xorout) & mask;
}

typedef uint32_t crc32_fn(uint32_t crc, const void *p, size_t n);

/* the CRC-32C implementations: the one wire_crc32c() chose, the table,
 * the SSE4.2 instruction (NULL where the CPU or the target has none) */
static const char *const c_names[] = { "wire_crc32c", "table", "SSE4.2" };
static crc32_fn *c_impl[3];

static void find_impls(void)
{
	c_impl[0] = wire_crc32c;
	c_impl[1] = wire_crc32c_table;
#if defined(__x86_64__)
	if (wire_crc32c_sse42_ok())
		c_impl[2] = wire_crc32c_sse42;
#endif
}

/* one CRC-32C implementation against the reference: the check value,
 * 0..300 bytes at each of 8 alignments, pieces of 1..64 bytes */
static void check_impl(int w, const uint8_t *buf, size_t size)
{
	static const uint8_t nine[] = "123456789";
	crc32_fn *f = c_impl[w];
	int all_ok = 1, piece_ok = 1;
	size_t a, n, k, at;

	ok(f(0, nine, 9) == 0xe3069283u,
	   "CRC-32C %s: the check value (0x%x)", c_names[w], f(0, nine, 9));
	for (a = 0; a < 8; a++)
		for (n = 0; n <= 300 && a + n <= size; n++)
			all_ok &= f(0, buf + a, n) ==
				  reference(&models[2], buf + a, n);
	ok(all_ok, "CRC-32C %s: equals the reference, 0..300 bytes at 8 "
	   "alignments", c_names[w]);
	for (k = 1; k <= 64; k++) {
		uint32_t c = 0;

		for (at = 0; at < size; at += k)
			c = f(c, buf + at, size - at < k ? size - at : k);
		piece_ok &= c == reference(&models[2], buf, size);
	}
	ok(piece_ok, "CRC-32C %s: fed in pieces of 1..64 bytes, the same",
	   c_names[w]);
}

/* CRC-16 four bytes at a time against the reference: the check value,
 * 0..300 bytes at 8 alignments, pieces of 1..64 bytes (each piece's
 * words and tail from the CRC so far) */
static void crc16_x4(const uint8_t *buf, size_t size)
{
	static const uint8_t nine[] = "123456789";
	int all_ok = 1, piece_ok = 1;
	size_t a, n, k, at;

	ok(wire_crc16_ccitt_x4(WIRE_CRC16_START, nine, 9) == 0x29b1,
	   "CRC-16/CCITT-FALSE, four bytes at a time: the check value");
	for (a = 0; a < 8; a++)
		for (n = 0; n <= 300 && a + n <= size; n++)
			all_ok &= wire_crc16_ccitt_x4(WIRE_CRC16_START, buf + a,
						      n) ==
				  reference(&models[0], buf + a, n);
	ok(all_ok, "CRC-16/CCITT-FALSE, four bytes at a time: equals the "
	   "reference, 0..300 bytes at 8 alignments");
	for (k = 1; k <= 64; k++) {
		uint16_t c = WIRE_CRC16_START;

		for (at = 0; at < size; at += k)
			c = wire_crc16_ccitt_x4(c, buf + at,
						size - at < k ? size - at : k);
		piece_ok &= c == reference(&models[0], buf, size);
	}
	ok(piece_ok, "CRC-16/CCITT-FALSE, four bytes at a time: fed in "
	   "pieces of 1..64 bytes, the same");
}

/* the implementation under test, whole or in pieces cut at every k */
static uint32_t ours(int which, const uint8_t *p, size_t n, size_t k)
{
	uint32_t c = which == 0 ? WIRE_CRC16_START : 0;
	size_t at = 0, len;

	do {
		len = n - at < k ? n - at : k;
		if (which == 0)
			c = wire_crc16_ccitt((uint16_t)c, p + at, len);
		else if (which == 1)
			c = wire_crc32(c, p + at, len);
		else
			c = wire_crc32c(c, p + at, len);
		at += len;
	} while (at < n);
	return c;
}

int main(void)
{
	static const uint8_t nine[] = "123456789";
	uint8_t buf[1021];
	size_t i, k;
	int m;

	srand(7);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand();
	for (m = 0; m < 3; m++) {
		const struct crc_model *cm = &models[m];
		int whole_ok = 1, piece_ok = 1;

		ok(reference(cm, nine, 9) == cm->check,
		   "%s: the reference gives the check value 0x%x", cm->name,
		   cm->check);
		ok(ours(m, nine, 9, 9) == cm->check,
		   "%s: libwire gives the check value (0x%x)", cm->name,
		   ours(m, nine, 9, 9));
		for (i = 0; i <= sizeof(buf); i += 17)
			whole_ok &= ours(m, buf, i, sizeof(buf)) ==
				    reference(cm, buf, i);
		ok(whole_ok, "%s: equals the reference on 0..1021 bytes",
		   cm->name);
		for (k = 1; k <= 64; k++)
			piece_ok &= ours(m, buf, sizeof(buf), k) ==
				    reference(cm, buf, sizeof(buf));
		ok(piece_ok, "%s: fed in pieces of 1..64 bytes, the same",
		   cm->name);
	}
	crc16_x4(buf, sizeof(buf));
	find_impls();
	for (m = 0; m < 3; m++)
		if (c_impl[m])
			check_impl(m, buf, sizeof(buf));
		else
			ok(1, "# SKIP CRC-32C %s: not on this CPU or target",
			   c_names[m]);
	if (c_impl[2]) {
		int same = 1;

		for (i = 0; i < sizeof(buf); i++)
			same &= c_impl[0](0, buf, i) == c_impl[2](0, buf, i) &&
				c_impl[1](0, buf, i) == c_impl[2](0, buf, i);
		ok(same, "CRC-32C: wire_crc32c, the table and SSE4.2 agree on "
		   "0..1020 bytes");
	}
	ok(mttd_crc32c(nine, 9) == 0xe3069283u,
	   "mttd_crc32c(3): the CRC-32C check value");
	ok(mttd_crc32c(buf, sizeof(buf)) == reference(&models[2], buf,
						      sizeof(buf)),
	   "mttd_crc32c(3): equals the reference");
	return done_testing();
}
