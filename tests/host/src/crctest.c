// SPDX-License-Identifier: GPL-2.0
/*
 * crctest.c - the one implementation of each CRC (libwire's wire/crc.h,
 * an internal header of the tools, and libmttdecode's public
 * mttd_crc32c()) against the published check values of the catalogue of
 * parametrised CRCs (the CRC of the ASCII bytes "123456789"), against a
 * bit-at-a-time reference written here from the parameters (width,
 * polynomial, reflection, start, final XOR), and fed in pieces.  CRC-32C
 * has several implementations behind wire_crc32c(): the byte table
 * (every target) and the CPU's instruction where the build has a path
 * for it (SSE4.2 crc32 on x86-64, ARMv8 CRC32C on arm64) and the CPU has
 * it; each that can run here is checked on its own against the check
 * value and against a bit-at-a-time reference (the reflected form) on
 * random lengths 0..4096 at every alignment 0..15 from random start
 * values (continuations), whole and cut in two, so all agree with each
 * other.  Which one wire_crc32c() is bound to is checked against the
 * CPU's own report (CPUID through __builtin_cpu_supports, AT_HWCAP),
 * and said in a "# CRC-32C:" line; CRCTEST_EXPECT=hw or =table in the
 * environment makes it a requirement (tests/host/crc.t,
 * tests/host/arm64.t).  CRC-16 by each of its two implementations (a
 * byte, four bytes at a time) the same way as before.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

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

/* CRC-32C one bit at a time in its reflected form (polynomial
 * 0x82f63b78), continuing from the CRC crc of what came before */
static uint32_t ref32c(uint32_t crc, const uint8_t *p, size_t n)
{
	uint32_t c = ~crc;
	int b;

	while (n--) {
		c ^= *p++;
		for (b = 0; b < 8; b++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
	}
	return ~c;
}

/* xorshift64, the test's own: the same numbers on every run */
static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 29);
}

/* the CRC-32C implementations that can run here: the table, the CPU's
 * instruction (when the build has it and the CPU too), the one
 * wire_crc32c() is bound to */
struct c_impl {
	const char *name;
	wire_crc32c_fn *f;
};

/* does the CPU have the instruction, by its own report?  1 yes, 0 no,
 * -1 no instruction path expected on this target (the table only) */
static int cpu_has_crc32c(void)
{
#if defined(__x86_64__) && defined(__GLIBC__)
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse4.2") != 0;
#elif defined(__aarch64__) && defined(__GLIBC__)
	return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0;
#else
	return -1;
#endif
}

/* which implementation is used, checked against the CPU; fills v[] with
 * the implementations to test, returns how many */
static int find_impls(struct c_impl *v)
{
	const char *hw_name = wire_crc32c_hw_name();
	const char *want = getenv("CRCTEST_EXPECT");
	wire_crc32c_fn *hw = wire_crc32c_hw();
	wire_crc32c_fn *bound = wire_crc32c_impl();
	int has = cpu_has_crc32c(), n = 0;

	v[n++] = (struct c_impl){ "table", wire_crc32c_table };
	if (has > 0) {
		ok(hw_name && hw, "CRC-32C: the CPU has the instruction; the "
		   "build's path for it: %s", hw_name ? hw_name : "none");
		ok(bound == hw && hw, "CRC-32C: wire_crc32c() is bound to %s",
		   hw_name ? hw_name : "none");
	} else {
		ok(!hw, "CRC-32C: %s: no instruction path runs",
		   has ? "no instruction path on this target" :
		   "the CPU has no CRC-32C instruction");
		ok(bound == wire_crc32c_table,
		   "CRC-32C: wire_crc32c() is bound to the table");
	}
	if (hw) {
		diag("CRC-32C: %s ran (the CPU has it), wire_crc32c() is %s",
		     hw_name, bound == hw ? "bound to it" : "NOT bound to it");
		v[n++] = (struct c_impl){ hw_name, hw };
	} else {
		diag("CRC-32C: the table only (%s)", hw_name ?
		     "the CPU has no instruction for it" :
		     "no instruction path in this build");
	}
	if (want)
		ok(!strcmp(want, "hw") ? hw && bound == hw :
		   !strcmp(want, "table") && !hw &&
		   bound == wire_crc32c_table,
		   "CRC-32C: CRCTEST_EXPECT=%s: wire_crc32c() is %s", want,
		   hw && bound == hw ? hw_name : "the table");
	v[n++] = (struct c_impl){ "wire_crc32c", wire_crc32c };
	return n;
}

/* every implementation against the reference: lengths 0..4096 (all of
 * 0..64, then random) at each alignment 0..15 (size: at least 4096 +
 * 15), from a random start value (a continuation), whole and cut at a
 * random point; then in pieces of 1..64 bytes */
static void check_impls(const struct c_impl *v, int nv, const uint8_t *buf,
			size_t size)
{
	static const uint8_t nine[] = "123456789";
	int bad[8] = { 0 }, piece_ok[8], cases = 0, w;
	uint64_t s = 0x243f6a8885a308d3ull;
	size_t a, i, k, at;

	for (w = 0; w < nv; w++)
		ok(v[w].f(0, nine, 9) == 0xe3069283u,
		   "CRC-32C %s: the check value (0x%x)", v[w].name,
		   v[w].f(0, nine, 9));
	for (a = 0; a < 16; a++)
		for (i = 0; i < 64 + 160; i++) {
			size_t n = i <= 64 ? i : rnd(&s) % 4097;
			size_t cut = rnd(&s) % (n + 1);
			uint32_t seed = i ? rnd(&s) : 0;
			uint32_t r = ref32c(seed, buf + a, n);

			cases++;
			for (w = 0; w < nv; w++) {
				wire_crc32c_fn *f = v[w].f;

				bad[w] += f(seed, buf + a, n) != r ||
					  f(f(seed, buf + a, cut), buf + a + cut,
					    n - cut) != r;
			}
		}
	for (w = 0; w < nv; w++)
		ok(!bad[w], "CRC-32C %s: equals the reference on %d cases "
		   "(%d wrong): 0..4096 bytes at alignments 0..15, random "
		   "start values, whole and cut in two", v[w].name, cases,
		   bad[w]);
	for (w = 0; w < nv; w++) {
		piece_ok[w] = 1;
		for (k = 1; k <= 64; k++) {
			uint32_t c = 0;

			for (at = 0; at < size; at += k)
				c = v[w].f(c, buf + at,
					   size - at < k ? size - at : k);
			piece_ok[w] &= c == ref32c(0, buf, size);
		}
		ok(piece_ok[w], "CRC-32C %s: fed in pieces of 1..64 bytes, "
		   "the same", v[w].name);
	}
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
	static uint8_t big[4096 + 16];
	struct c_impl v[3];
	uint8_t buf[1021];
	size_t i, k;
	int m, nv;

	srand(7);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand();
	for (i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)rand();
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
	ok(ref32c(0, nine, 9) == 0xe3069283u &&
	   ref32c(0, big, sizeof(big)) == reference(&models[2], big,
						    sizeof(big)),
	   "CRC-32C: the reflected bitwise reference gives the check value "
	   "and agrees with the textbook one");
	nv = find_impls(v);
	check_impls(v, nv, big, sizeof(big));
	ok(mttd_crc32c(nine, 9) == 0xe3069283u,
	   "mttd_crc32c(3): the CRC-32C check value");
	ok(mttd_crc32c(buf, sizeof(buf)) == reference(&models[2], buf,
						      sizeof(buf)),
	   "mttd_crc32c(3): equals the reference");
	return done_testing();
}
