/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systenc.h - a small MIPI SyS-T message encoder for tests and the
 * benchmark, written from the SyS-T specification (header fields, the
 * order of the optional fields, CRC-32C over header and payload), not
 * from libmttdecode.  Messages go into a growing byte buffer, or out as
 * the MIPI reference printer's "SYS-T RAW DATA: <hex>" lines.
 */
#ifndef SYSTENC_H
#define SYSTENC_H

#include <stddef.h>
#include <stdint.h>

/* header fields (little-endian 32-bit word) */
#define SYSTENC_TYPE(t)		((uint32_t)(t) & 0xf)		/* [3:0] */
#define SYSTENC_SEV(s)		(((uint32_t)(s) & 7) << 4)	/* [6:4] */
#define SYSTENC_LEN		(1u << 9)	/* 16-bit length field */
#define SYSTENC_CHK		(1u << 10)	/* CRC-32C at the end */
#define SYSTENC_TS		(1u << 11)	/* 64-bit timestamp */
#define SYSTENC_SUB(s)		(((uint32_t)(s) & 0x3f) << 24)	/* [29:24] */

struct systenc {
	uint8_t *buf;
	size_t len, cap;
	int oom;
};

void systenc_init(struct systenc *e);
void systenc_free(struct systenc *e);
/* the bitwise CRC-32C (reflected 0x82f63b78, start and final XOR ~0) */
uint32_t systenc_crc32c(const uint8_t *p, size_t n);

/* payload builders: little-endian integers, a double's bits, bytes */
void systenc_le(struct systenc *e, uint64_t v, unsigned int n);
void systenc_f64(struct systenc *e, double d);
void systenc_put(struct systenc *e, const void *p, size_t n);

/* one message: the header (its LEN, TS and CHK bits say what follows),
 * the length (of the payload), the timestamp, the payload, the CRC; it is
 * appended to out (the payload is read from pl->buf[0..pl->len)) */
void systenc_msg(struct systenc *out, uint32_t header, uint64_t ts,
		 const struct systenc *pl);
/* "SYS-T RAW DATA: ", the bytes as upper-case hex without spaces (as
 * the printer's example platform writes them), a line feed; appended */
void systenc_hexline(struct systenc *out, const uint8_t *p, size_t n);

#endif
