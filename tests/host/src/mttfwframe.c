// SPDX-License-Identifier: GPL-2.0
/*
 * mttfwframe.c - libmttfw's frames, byte for byte: mttfw_frame() (which
 * writes a word at a time) and mttfw_add_crc() against a byte-at-a-time
 * encoder written here from Documentation/mtt.rst ("The native frame":
 * little-endian words, the payload NUL-padded to 4, the hint in exactly
 * 12 bytes, the CRC-16/CCITT-FALSE word last: the instance's
 * wire_crc16_ccitt_x4 against the byte table's wire_crc16_ccitt, both
 * checked against a bit-at-a-time register by crc.t), for every payload size
 * 0..70, hints of 0..14 characters, buffers and payloads at every
 * alignment, with and without TS64, LEVEL and HINT.  Every byte up to the
 * frame's end is compared, padding included.
 */
#include <string.h>

#include "mttfw/mttfw.h"
#include "wire/crc.h"
#include "tap.h"

#define FRAME_MAX (20 + 8 + 4 + 72 + 12 + 4)

struct spec {
	uint8_t b[FRAME_MAX + 8];
	size_t n;
};

static void w8(struct spec *s, uint8_t v)
{
	s->b[s->n++] = v;
}

static void w32(struct spec *s, uint32_t v)
{
	w8(s, (uint8_t)v);
	w8(s, (uint8_t)(v >> 8));
	w8(s, (uint8_t)(v >> 16));
	w8(s, (uint8_t)(v >> 24));
}

static void spec_frame(struct spec *s, uint32_t target, uint32_t w1,
		       uint32_t comp, uint32_t tid, uint32_t ti, uint64_t ts,
		       uint32_t level, const uint8_t *pl, const char *hint,
		       int crc)
{
	uint32_t size = ti & 0xffff, i;

	s->n = 0;
	w32(s, 0xeee01000u | (target & 0xff));
	w32(s, w1 | (crc ? 0x0800u : 0));
	w32(s, comp);
	w32(s, tid);
	w32(s, ti);
	if (w1 & 0x0002) {
		w32(s, (uint32_t)ts);
		w32(s, (uint32_t)(ts >> 32));
	}
	if (w1 & 0x0004)
		w32(s, level);
	for (i = 0; i < size; i++)
		w8(s, pl[i]);
	while (s->n % 4)
		w8(s, 0);
	if (w1 & 0x0008) {
		for (i = 0; i < 12 && hint[i]; i++)
			w8(s, (uint8_t)hint[i]);
		for (; i < 12; i++)
			w8(s, 0);
	}
	if (crc) {
		uint16_t c = wire_crc16_ccitt(WIRE_CRC16_START, s->b, s->n);

		w32(s, c);
	}
}

int main(void)
{
	static const char hints[] = "abcdefghijklmn";
	uint8_t src[80 + 4], out[FRAME_MAX + 8 + 4];
	struct mttfw m = { .cfg = { .crc16 = wire_crc16_ccitt_x4 } };
	struct mttfw none = { .cfg = { .crc16 = NULL } };
	static const uint32_t flags[] = { 0, 0x0002, 0x0004, 0x0008, 0x0006,
					  0x000e };
	unsigned int bad = 0, frames = 0, crcbad = 0;
	uint32_t size, f, h, a;
	struct spec s;

	for (a = 0; a < sizeof(src); a++)
		src[a] = (uint8_t)(0xa5 ^ (a * 29));
	for (size = 0; size <= 70; size++)
		for (f = 0; f < sizeof(flags) / sizeof(flags[0]); f++)
			for (h = 0; h <= 14; h++)
				for (a = 0; a < 4; a++) {
					char hint[16];
					uint32_t ti = 0x01020000u | size;
					uint64_t ts = 0x1122334455667788ull + size;
					size_t n;

					memcpy(hint, hints, h);
					hint[h] = 0;
					/* garbage where padding goes */
					memset(out, 0xee, sizeof(out));
					n = mttfw_frame(out + a, 0x60 + a, flags[f],
							7 + h, 0xdead0000u + size, ti,
							ts, 1u << f, src + a, hint);
					spec_frame(&s, 0x60 + a, flags[f], 7 + h,
						   0xdead0000u + size, ti, ts, 1u << f,
						   src + a, hint, 0);
					frames++;
					if (n != s.n || memcmp(out + a, s.b, n))
						bad++;
					n = mttfw_add_crc(&m, out + a, n);
					spec_frame(&s, 0x60 + a, flags[f], 7 + h,
						   0xdead0000u + size, ti, ts, 1u << f,
						   src + a, hint, 1);
					if (n != s.n || memcmp(out + a, s.b, n))
						crcbad++;
				}
	ok(!bad, "%u frames byte for byte as the specification's encoder "
	   "writes them (%u differ)", frames, bad);
	ok(!crcbad, "the same with the CRC word (%u differ)", crcbad);
	memset(out, 0xee, sizeof(out));
	ok(mttfw_add_crc(&none, out, 20) == 20 && out[5] == 0xee,
	   "without a crc16 function the frame is left alone");
	return done_testing();
}
