/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttdecode/syst.h - MIPI SyS-T message decoder (public API).
 *
 * A SyS-T message is a 32-bit header (little-endian), then the optional
 * GUID (16 bytes, RFC 4122 byte order), location record, u16 payload
 * length, u64 timestamp, the payload and an optional CRC-32C.  The
 * decoder turns the bytes of one message into a struct mttd_syst_msg:
 * every header field, the optional fields, the status (OK,
 * CHECKSUM_ERROR, TOO_SHORT, UNKNOWN_TYPE, MISSING_COLLATERAL) and a
 * rendered text (strings, printf and catalog formats with their
 * arguments, build, clock, raw and SBD summaries).  Bad data never stops
 * it: every input gives a message with a status.
 *
 * Messages come from three front ends:
 *  - the STP message layer: mttd_syst_sink() gives a struct mttd_msg_sink
 *    that decodes each reassembled STP message (master, channel and STP
 *    timestamp are kept, FREQ packets are noted for clock correlation);
 *  - a plain byte stream of messages back to back (UART style):
 *    struct mttd_syst_stream frames each message by its own length
 *    (see mttd_syst_stream_new());
 *  - the text format of the MIPI reference printer, lines
 *    "SYS-T RAW DATA: <hex>" (struct mttd_syst_text).
 * Or call mttd_syst_decode() with the bytes of one message.
 *
 * Catalog and short-message formats, module, file and build names come
 * from collateral (collateral.h), optional.
 */
#ifndef MTTDECODE_SYST_H
#define MTTDECODE_SYST_H

#include <stddef.h>
#include <stdint.h>

#include "mttdecode/msg.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mttd_coll;

/* Message types (header bits [3:0]) */
enum mttd_syst_type {
	MTTD_SYST_BUILD = 0, MTTD_SYST_SHORT32 = 1, MTTD_SYST_STRING = 2,
	MTTD_SYST_CATALOG = 3, MTTD_SYST_RAW = 6, MTTD_SYST_SHORT64 = 7,
	MTTD_SYST_CLOCK = 8, MTTD_SYST_SBD = 9
};

/* Subtypes (header bits [29:24]) */
enum {
	MTTD_SYST_BUILD_COMPACT32 = 0, MTTD_SYST_BUILD_COMPACT64 = 1,
	MTTD_SYST_BUILD_LONG = 2,
	MTTD_SYST_STRING_GENERIC = 1, MTTD_SYST_STRING_FUNCTIONENTER = 2,
	MTTD_SYST_STRING_FUNCTIONEXIT = 3, MTTD_SYST_STRING_INVALIDPARAM = 5,
	MTTD_SYST_STRING_ASSERT = 7, MTTD_SYST_STRING_PRINTF_32 = 11,
	MTTD_SYST_STRING_PRINTF_64 = 12,
	MTTD_SYST_CATALOG_ID32_P32 = 1, MTTD_SYST_CATALOG_ID64_P32 = 2,
	MTTD_SYST_CATALOG_ID32_P64 = 5, MTTD_SYST_CATALOG_ID64_P64 = 6,
	MTTD_SYST_CLOCK_SYNC = 1,
	MTTD_SYST_SBD_ID64 = 0x1, MTTD_SYST_SBD_NAME = 0x2,
	MTTD_SYST_SBD_ADDR_MASK = 0xc	/* 0 none, 4: 16, 8: 32, 0xc: 64 bit */
};

/* Decode status of a message, most serious first */
enum mttd_syst_status {
	MTTD_SYST_OK,
	MTTD_SYST_CHECKSUM_ERROR,	/* CRC-32C mismatch (still decoded) */
	MTTD_SYST_TOO_SHORT,		/* fields or arguments cut short */
	MTTD_SYST_UNKNOWN_TYPE,		/* reserved type or subtype */
	MTTD_SYST_MISSING_COLLATERAL,	/* catalog id not in the collateral */
	MTTD_SYST_STATUS_COUNT
};

/* mttd_syst_msg.flags */
#define MTTD_SYST_F_GUID	0x0001u	/* guid[] came with the message */
#define MTTD_SYST_F_LOC		0x0002u	/* location record: loc_* */
#define MTTD_SYST_F_LEN		0x0004u	/* length field: len */
#define MTTD_SYST_F_TS		0x0008u	/* SyS-T timestamp: ts */
#define MTTD_SYST_F_CHK		0x0010u	/* CRC present: crc, crc_calc */
#define MTTD_SYST_F_SEV		0x0020u	/* severity, origin, unit are fields
					 * (not for SHORT and compact BUILD) */
#define MTTD_SYST_F_VALUE	0x0040u	/* value is set */
#define MTTD_SYST_F_FREQ	0x0080u	/* freq is set (CLOCK) */
#define MTTD_SYST_F_TS_STP	0x0100u	/* ts_stp: ts on the STP clock */
#define MTTD_SYST_F_STP		0x0200u	/* master and channel are known */
#define MTTD_SYST_F_STP_TS	0x0400u	/* stp_ts is known */
#define MTTD_SYST_F_INCOMPLETE	0x0800u	/* the transport lost its end */
#define MTTD_SYST_F_TRUNCATED	0x1000u	/* the transport cut its bytes */
#define MTTD_SYST_F_CATLOC	0x2000u	/* cat_file/cat_line from collateral */
#define MTTD_SYST_F_TEXT_CUT	0x4000u	/* text reached max_text */
#define MTTD_SYST_F_SHORT_GUID	0x8000u	/* SHORT32/SHORT64: guid[] is
					 * cfg.short_guid (not in the message;
					 * F_GUID stays clear) */
#define MTTD_SYST_F_PLAIN	0x10000u/* every byte of text is printable
					 * ASCII other than '"' and '\\'
					 * (0x20..0x7e): it needs no escaping.
					 * Set where the decoder knows it
					 * cheaply; clear says nothing */

/* A numeric argument of a printf, catalog or short message */
enum { MTTD_SYST_ARG_INT, MTTD_SYST_ARG_UINT, MTTD_SYST_ARG_DOUBLE };
struct mttd_syst_arg {
	uint8_t kind;
	union {
		int64_t i;
		uint64_t u;
		double d;
	} v;
};
#define MTTD_SYST_MAX_ARGS 16

/*
 * One decoded message.  Pointers are valid during the callback (or until
 * the next mttd_syst_decode()) only.
 */
struct mttd_syst_msg {
	/* transport */
	uint64_t offset;	/* input byte offset of the message */
	uint64_t stp_ts;	/* STP timestamp (MTTD_SYST_F_STP_TS) */
	uint16_t master;	/* MTTD_SYST_F_STP */
	uint16_t channel;
	uint32_t flags;		/* MTTD_SYST_F_* */

	/* bytes */
	const uint8_t *raw;	/* the whole message */
	size_t size;
	const uint8_t *payload;	/* between the optional fields and CRC */
	size_t payload_len;

	/* header */
	uint32_t header;
	uint8_t type;		/* enum mttd_syst_type (any 0..15) */
	uint8_t subtype;
	uint8_t severity;	/* 0..7 (MTTD_SYST_F_SEV) */
	uint8_t status;		/* enum mttd_syst_status */
	uint16_t origin;	/* module, 7 bits (F_SEV and no GUID) */
	uint16_t unit;		/* 4 bits; 11 bits with a GUID */
	uint8_t guid[16];	/* MTTD_SYST_F_GUID or _SHORT_GUID */

	/* optional fields */
	uint8_t loc_format;	/* 0 file16:line16, 1 file32:line32,
				 * 2 address32, 3 address64 */
	uint32_t loc_file;
	uint32_t loc_line;
	uint64_t loc_addr;
	uint16_t len;		/* the length field */
	uint64_t ts;		/* the SyS-T timestamp */
	uint32_t crc;		/* as received */
	uint32_t crc_calc;	/* computed */

	/* content */
	uint64_t value;		/* SHORT value, BUILD id, CATALOG id, CLOCK
				 * value, RAW protocol id, SBD id */
	uint64_t freq;		/* CLOCK frequency (Hz) */
	uint64_t ts_stp;	/* ts correlated to the STP clock */
	uint64_t sbd_addr;	/* SBD address (0 if none) */
	const char *text;	/* rendered text, UTF-8 from the trace (any
				 * bytes: escape before printing) */
	size_t text_len;
	const char *client;	/* collateral client name, or NULL */
	const char *collateral;	/* the file that client came from (the path
				 * given to mttd_coll_load_file()), or NULL */
	const char *module;	/* collateral module name, or NULL */
	const char *file;	/* collateral file name of the location, or
				 * NULL */
	const char *cat_file;	/* MTTD_SYST_F_CATLOC: source of the catalog
				 * format (name or NULL), cat_line */
	uint32_t cat_line;
	uint32_t cat_file_id;
	const char *protocol;	/* RAW: the collateral Write/Protocol name,
				 * a format rendered with the protocol id
				 * ("Protocol%d" gives "Protocol1"); else
				 * NULL */
	unsigned int nargs;
	struct mttd_syst_arg args[MTTD_SYST_MAX_ARGS];
};

/* Where a message came from, for mttd_syst_decode() */
struct mttd_syst_src {
	uint64_t offset;
	uint64_t stp_ts;
	uint16_t master;
	uint16_t channel;
	uint32_t flags;		/* MTTD_SYST_F_STP, _STP_TS, _INCOMPLETE,
				 * _TRUNCATED */
};

/* Stream events from the plain-stream and text front ends */
enum mttd_syst_event_kind {
	MTTD_SYST_EV_RESYNC,	/* no message could be framed at offset:
				 * count bytes skipped to the next header */
	MTTD_SYST_EV_BADLINE	/* a "SYS-T RAW DATA" line with bad hex at
				 * offset; count = line number */
};

struct mttd_syst_event {
	uint64_t offset;
	uint64_t count;
	unsigned int kind;
};

typedef void (*mttd_syst_fn)(void *ctx, const struct mttd_syst_msg *m);
typedef void (*mttd_syst_event_fn)(void *ctx,
				   const struct mttd_syst_event *e);

struct mttd_syst_config {
	mttd_syst_fn fn;		/* decoded messages (required) */
	mttd_syst_event_fn event;	/* front end events (optional) */
	void *ctx;
	const struct mttd_coll *coll;	/* collateral or NULL; must outlive
					 * the decoder, and not change while
					 * it decodes (it keeps the clients
					 * and entries it looked up) */
	size_t max_text;		/* rendered text limit; 0: 256 KiB */
	uint64_t stp_hz;		/* STP timestamp frequency until a FREQ
					 * packet says otherwise; 0: 1 GHz */
	const uint8_t *short_guid;	/* 16 bytes (RFC 4122 order) or NULL:
					 * the GUID SHORT32/SHORT64 messages
					 * select their collateral client with
					 * (they carry none); copied */
	size_t max_len;			/* plain stream and text front ends:
					 * bytes of a message decoded at most;
					 * the rest is dropped and the message
					 * flagged MTTD_SYST_F_TRUNCATED.
					 * 0: no limit but their own */
};

struct mttd_syst_stats {
	uint64_t messages;
	uint64_t status[MTTD_SYST_STATUS_COUNT];
	uint64_t resyncs;		/* MTTD_SYST_EV_RESYNC */
	uint64_t skipped;		/* bytes skipped by resyncs */
	uint64_t bad_lines;		/* MTTD_SYST_EV_BADLINE */
};

struct mttd_syst;

/* NULL on bad config or out of memory */
struct mttd_syst *mttd_syst_new(const struct mttd_syst_config *cfg);
void mttd_syst_free(struct mttd_syst *s);

/* Decode the n bytes of one message and hand it to cfg.fn. */
void mttd_syst_decode(struct mttd_syst *s, const struct mttd_syst_src *src,
		      const void *p, size_t n);

/* A message-layer sink feeding this decoder (register it with
 * mttd_msg_add_sink()). */
void mttd_syst_sink(struct mttd_syst *s, struct mttd_msg_sink *sink);

/* The STP timestamp frequency (what a FREQ packet says). */
void mttd_syst_set_stp_hz(struct mttd_syst *s, uint64_t hz);

const struct mttd_syst_stats *mttd_syst_stats(const struct mttd_syst *s);

/*
 * Plain byte stream front end.  Messages are back to back; each one's
 * size comes from its own header: SHORT32 and BUILD COMPACT32 are 4
 * bytes, SHORT64 and COMPACT64 8; otherwise the optional fields, then the
 * payload: the length field when present; without it CLOCK is 16 bytes,
 * STRING (not PRINTF) and BUILD LONG (after the id) end at their NUL,
 * PRINTF at the end of the arguments its format asks for, CATALOG too
 * when the collateral has its format; then the CRC.  A message that
 * cannot be framed (RAW, SBD or an unknown catalog id without a length
 * field, a reserved type, no NUL within 64 KiB) is reported as a RESYNC
 * event and the stream is scanned byte by byte for the next plausible
 * header (reserved bits clear, a known type).  Chunking never changes
 * the result; memory is bounded by the largest message (about 64 KiB).
 * A message longer than cfg.max_len is decoded from its first max_len
 * bytes (flagged MTTD_SYST_F_TRUNCATED); its framing is unchanged.
 */
struct mttd_syst_stream;
struct mttd_syst_stream *mttd_syst_stream_new(struct mttd_syst *s);
void mttd_syst_stream_free(struct mttd_syst_stream *st);
int mttd_syst_stream_feed(struct mttd_syst_stream *st, const void *p,
			  size_t n);
/* end of stream: bytes left over are decoded as a last (short) message */
int mttd_syst_stream_finish(struct mttd_syst_stream *st);

/*
 * Whether p[0..n) looks like the start of a plain SyS-T stream (for
 * telling input kinds apart): the number of messages framed back to back
 * from p[0], as the stream front end frames them (collateral of s
 * included); *clean is 1 when framing stopped only at the end of the
 * bytes (the last message may be cut there), 0 when a message could not
 * be framed.  final: no bytes follow p[n-1].  Decodes nothing.
 */
size_t mttd_syst_probe(struct mttd_syst *s, const void *p, size_t n,
		       int final, int *clean);

/*
 * Is p[0..n) exactly one SyS-T message, as a transport that delimits
 * messages (an STP message) carries one?  MTTD_SYST_IS_SHORT: a SHORT32
 * or compact BUILD of 4 bytes, a SHORT64 or COMPACT64 of 8 (any word
 * is one); MTTD_SYST_IS_NORMAL: a header with no reserved bit set, of a
 * known type and subtype, whose optional fields fit, whose length field
 * (if any) is the payload's, whose CRC-32C (if any) matches, and whose
 * payload holds the type's fixed part; 0 otherwise.  Needs no decoder.
 */
enum { MTTD_SYST_IS_SHORT = 1, MTTD_SYST_IS_NORMAL = 2 };
int mttd_syst_is_msg(const void *p, size_t n);

/*
 * Reference printer text front end: each line holding "SYS-T RAW DATA:"
 * followed by hex digits (spaces allowed between bytes) is one message;
 * every other line is ignored.  A line with a bad hex digit or an odd
 * number of digits is a BADLINE event.  Lines longer than 256 KiB are
 * cut, and messages longer than cfg.max_len (when set) too: the message
 * is flagged MTTD_SYST_F_TRUNCATED.
 */
struct mttd_syst_text;
struct mttd_syst_text *mttd_syst_text_new(struct mttd_syst *s);
void mttd_syst_text_free(struct mttd_syst_text *t);
int mttd_syst_text_feed(struct mttd_syst_text *t, const void *p, size_t n);
int mttd_syst_text_finish(struct mttd_syst_text *t);

/* Names: "OK", "CHECKSUM_ERROR" ...; "MAX", "FATAL" ... "DEBUG" */
const char *mttd_syst_status_name(unsigned int status);
const char *mttd_syst_severity_name(unsigned int severity);

/*
 * The type as the reference printer names it: "STRING:GENERIC",
 * "STRING:ENTER", "STRING:EXIT", "STRING:INVPARAM", "STRING:ASSERT",
 * "STRING:PRINTF32", "STRING:PRINTF64", "CATALOG:ID32P64", "BUILD:LONG",
 * "SHORT32", "RAW:<n>", and beyond the printer "CLOCK:SYNC",
 * "SBD:ID64", "UNKNOWN(<n>)", "<TYPE>:UNKNOWN(<n>)".  Writes into buf
 * (32 bytes are enough) and returns it.  (For RAW with a collateral
 * protocol name the printer writes "RAW:<m->protocol>".)
 */
const char *mttd_syst_type_name(unsigned int type, unsigned int subtype,
				char *buf, size_t n);

/* "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" (lowercase) and a NUL */
#define MTTD_GUID_STR 39
void mttd_syst_guid_str(const uint8_t guid[16], char out[MTTD_GUID_STR]);

/*
 * The pseudo-GUID that selects collateral for a message without a GUID:
 * {00000000-<master>-<channel>-<origin>00-000000000000}, master and
 * channel as 4 hex digits, origin (the 7-bit module) as 2.
 */
void mttd_syst_pseudo_guid(unsigned int master, unsigned int channel,
			   unsigned int origin, uint8_t out[16]);

/* The GUID collateral is selected with: the message's, the short GUID
 * (MTTD_SYST_F_SHORT_GUID) or the pseudo-GUID. */
void mttd_syst_key_guid(const struct mttd_syst_msg *m, uint8_t out[16]);

/*
 * The location as text: "<file>:<line>" (the collateral file name, or the
 * file id in decimal), "0x<8 hex>" or "0x<16 hex>"; else the catalog
 * format's File/Line from the collateral.  Returns the length, 0 if the
 * message has none (buf is then "").
 */
size_t mttd_syst_location(const struct mttd_syst_msg *m, char *buf,
			  size_t n);

/* CRC-32C (Castagnoli) of p[0..n): "123456789" gives 0xe3069283. */
uint32_t mttd_crc32c(const void *p, size_t n);

#ifdef __cplusplus
}
#endif

#endif
