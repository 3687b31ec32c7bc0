/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mprof_wire.h - the MiniProfiler UART wire format, shared by the device
 * library (libmprofdev) and the host side (libmprof): command and
 * response framing, CRC16-CCITT, payload sizes, little-endian helpers.
 *
 * Command (host to device), 12 bytes:
 *   55 | cmd | payload length 0..8 | 8 payload bytes (zero padded) |
 *   checksum = sum of the 11 bytes before it, & 0xff
 * Response (device to host), 8 + N bytes:
 *   AA 55 | type | N (u16 LE) | N payload bytes |
 *   CRC16-CCITT (poly 0x1021, init 0xffff, u16 LE) of every byte before it |
 *   0A
 */
#ifndef MPROF_WIRE_H
#define MPROF_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define MPROF_CMD_SYNC		0x55
#define MPROF_CMD_LEN		12
#define MPROF_CMD_PAYLOAD	8

#define MPROF_CMD_START		0x01
#define MPROF_CMD_STOP		0x02
#define MPROF_CMD_GET_STATUS	0x03
#define MPROF_CMD_RESET		0x04
#define MPROF_CMD_GET_METADATA	0x05
#define MPROF_CMD_SET_CONFIG	0x06
/* our extension (Documentation/miniprofiler.rst, "Clock exchanges"):
 * payload seq (u32 LE); a device that predates it answers NACK */
#define MPROF_CMD_TIME_SYNC	0x07
#define MPROF_TIME_SYNC_CMD_LEN	4

#define MPROF_RSP_SYNC0		0xAA
#define MPROF_RSP_SYNC1		0x55
#define MPROF_RSP_END		0x0A
#define MPROF_RSP_HDR		5	/* sync, type, length */
#define MPROF_RSP_OVERHEAD	8	/* header, CRC, end marker */
#define MPROF_RSP_MAX_PAYLOAD	65535

#define MPROF_RSP_ACK		0x01
#define MPROF_RSP_NACK		0x02
#define MPROF_RSP_METADATA	0x03
#define MPROF_RSP_STATUS	0x04
#define MPROF_RSP_PROFILE_DATA	0x05
/* our extension: the answer to TIME_SYNC, payload seq, t_rx, t_tx (u32
 * LE each: the device's microsecond timer when the command's last byte
 * was received, and just before this response was queued) */
#define MPROF_RSP_TIME_SYNC	0x06
#define MPROF_TIME_SYNC_LEN	12

#define MPROF_METADATA_LEN	28
#define MPROF_FW_VERSION_LEN	16
#define MPROF_STATUS_LEN	10
#define MPROF_PROFILE_HDR_LEN	3
#define MPROF_RECORD_LEN	14
#define MPROF_PROTO_VERSION	0x01
/* most records one PROFILE_DATA payload can hold */
#define MPROF_MAX_RECORDS \
	((MPROF_RSP_MAX_PAYLOAD - MPROF_PROFILE_HDR_LEN) / MPROF_RECORD_LEN)

/* One function call, sent when it returns */
struct mprof_record {
	uint32_t func_addr;	/* the function (link-time address) */
	uint32_t entry_time;	/* microseconds, wraps */
	uint32_t duration_us;	/* including its callees */
	uint16_t depth;		/* call depth, 0 for the outermost */
};

struct mprof_metadata {
	uint32_t mcu_clock_hz;
	uint32_t timer_freq;
	uint32_t elf_build_id;	/* CRC32 of the ELF's .text */
	char fw_version[MPROF_FW_VERSION_LEN + 1];	/* NUL-terminated */
};

/* a TIME_SYNC response */
struct mprof_time_sync {
	uint32_t seq;		/* the command's, echoed */
	uint32_t t_rx;		/* us: the command's last byte received */
	uint32_t t_tx;		/* us: just before the response was queued */
};

struct mprof_status {
	uint8_t is_profiling;
	uint32_t buffer_overflows;
	uint32_t records_captured;
	uint8_t buffer_usage_percent;
};

static inline void mprof_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void mprof_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint16_t mprof_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t mprof_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Encode a command into out[12]; -1 if len > 8 (payload may be NULL
 * when len is 0) */
int mprof_cmd_encode(uint8_t *out, uint8_t cmd, const uint8_t *payload,
		     size_t len);
/* 1 if c[0..12) is a well-formed command (sync, length <= 8, checksum) */
int mprof_cmd_valid(const uint8_t *c);

/* Frame a response into out (cap bytes); returns its size (8 + len),
 * or 0 if it does not fit or len > 65535.  The payload is either
 * already in place (payload == out + MPROF_RSP_HDR) or apart from out */
size_t mprof_rsp_encode(uint8_t *out, size_t cap, uint8_t type,
			const uint8_t *payload, size_t len);

/* Payload encoders (device side) and decoders (host side).  The decoders
 * return 0, or -1 for a payload too short to hold the structure (a
 * longer payload is accepted, the rest ignored). */
void mprof_metadata_put(uint8_t *out, const struct mprof_metadata *m);
int mprof_metadata_get(struct mprof_metadata *m, const uint8_t *p, size_t n);
void mprof_status_put(uint8_t *out, const struct mprof_status *s);
int mprof_status_get(struct mprof_status *s, const uint8_t *p, size_t n);
void mprof_time_sync_put(uint8_t *out, const struct mprof_time_sync *t);
int mprof_time_sync_get(struct mprof_time_sync *t, const uint8_t *p,
			size_t n);
/* the TIME_SYNC command carrying seq into out[12] */
void mprof_time_sync_cmd(uint8_t *out, uint32_t seq);
void mprof_record_put(uint8_t *out, const struct mprof_record *r);
void mprof_record_get(struct mprof_record *r, const uint8_t *p);

#endif
