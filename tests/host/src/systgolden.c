// SPDX-License-Identifier: GPL-2.0
/*
 * systgolden.c - SyS-T decoder golden tests.  Every message below was
 * written out by hand from the SyS-T field tables (header bits: [3:0]
 * type, [6:4] severity, 8 LOC, 9 LEN, 10 CHK, 11 TS, [22:12] origin/unit,
 * 23 GUID, [29:24] subtype; then GUID, location, u16 length, u64
 * timestamp, payload, CRC-32C; all little-endian except the GUID), never
 * produced by an encoder.  The CRC values were computed with a separate
 * bitwise CRC-32C (reflected 0x82F63B78), not the library's table.
 *
 * Each decoded message is rendered as one line:
 *   <STATUS> <TYPE> sev=<S> guid=<G> origin=<O> unit=<U> loc=<L> len=<N>
 *   ts=<N> crc=<ok|bad> value=<hex> client=<C> size=<N> text="<T>"
 * with "-" for what a message does not have.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"

#define G1 "a1 b2 c3 d4 e5 f6 07 18 29 3a 4b 5c 6d 7e 8f 90 "	/* GUID */

struct scase {
	const char *name;
	int coll;		/* decode with tests/host/data/coll-[ab].xml */
	int stp;		/* from STP master 3 channel 2, STP ts 500 */
	const char *bytes;
	const char *want;
};

static const struct scase cases[] = {
	/* ---- STRING ---- */
	{ "Linux p_sys-t data: STRING/GENERIC INFO GUID, no NUL", 0, 0,
	  /* header 0x01800042: type 2, severity 4, GUID (bit 23), subtype 1 */
	  "42 00 80 01 " G1 "68 65 6c 6c 6f",	/* "hello", no NUL */
	  "OK STRING:GENERIC sev=INFO guid={a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90}"
	  " origin=- unit=0 loc=- len=- ts=- crc=- value=- client=- size=25"
	  " text=\"hello\"" },
	{ "p_sys-t with do_len: LEN field", 0, 0,
	  /* 0x01800242: + LEN (bit 9); length 5 */
	  "42 02 80 01 " G1 "05 00 68 65 6c 6c 6f",
	  "OK STRING:GENERIC sev=INFO guid={a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90}"
	  " origin=- unit=0 loc=- len=5 ts=- crc=- value=- client=- size=27"
	  " text=\"hello\"" },
	{ "p_sys-t with do_len and ts_interval: LEN then TS", 0, 0,
	  /* 0x01800a42: + TS (bit 11); length 2, ts 0x0000000100000002 */
	  "42 0a 80 01 " G1 "02 00 02 00 00 00 01 00 00 00 68 69",
	  "OK STRING:GENERIC sev=INFO guid={a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90}"
	  " origin=- unit=0 loc=- len=2 ts=4294967298 crc=- value=- client=-"
	  " size=32 text=\"hi\"" },
	{ "LEN shorter than the bytes: the rest is ignored", 0, 0,
	  /* 0x01000242: STRING/GENERIC INFO LEN; length 2 of "hi!!" */
	  "42 02 00 01 02 00 68 69 21 21",
	  "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=- len=2 ts=-"
	  " crc=- value=- client=- size=10 text=\"hi\"" },
	{ "FUNCTIONENTER DEBUG, origin module 5 unit 3", 0, 0,
	  /* 0x02053072: type 2, severity 7 (0x70), origin (5 << 4 | 3) = 0x53
	   * << 12 = 0x53000, subtype 2 */
	  "72 30 05 02 6d 61 69 6e 00",	/* "main" NUL */
	  "OK STRING:ENTER sev=DEBUG guid=- origin=5 unit=3 loc=- len=-"
	  " ts=- crc=- value=- client=- size=9 text=\"main\"" },
	{ "FUNCTIONEXIT", 0, 0,
	  /* 0x03000062: severity 6 (USER2), subtype 3 */
	  "62 00 00 03 66 00",
	  "OK STRING:EXIT sev=USER2 guid=- origin=0 unit=0 loc=- len=-"
	  " ts=- crc=- value=- client=- size=6 text=\"f\"" },
	{ "INVALIDPARAM", 0, 0,
	  /* 0x05000022: severity 2 (ERROR), subtype 5 */
	  "22 00 00 05 70 00",
	  "OK STRING:INVPARAM sev=ERROR guid=- origin=0 unit=0 loc=- len=-"
	  " ts=- crc=- value=- client=- size=6 text=\"p\"" },
	{ "ASSERT", 0, 0,
	  /* 0x07000012: severity 1 (FATAL), subtype 7 */
	  "12 00 00 07 61 00",
	  "OK STRING:ASSERT sev=FATAL guid=- origin=0 unit=0 loc=- len=-"
	  " ts=- crc=- value=- client=- size=6 text=\"a\"" },
	{ "PRINTF_32: int, string, double, hh, long 32, pointer 32, %%", 0, 0,
	  /* 0x0b000042: subtype 11.  "%d|%-4s|%5.2f|%hhx|%lu|%p|%%" NUL,
	   * then -7 (f9 ff ff ff), "ab" NUL, 2.5 (0x4004000000000000),
	   * 0x1ff (shown as ff), 42 (4 bytes), 0xdeadbeef (4 bytes) */
	  "42 00 00 0b "
	  "25 64 7c 25 2d 34 73 7c 25 35 2e 32 66 7c 25 68 68 78 7c 25 6c 75 "
	  "7c 25 70 7c 25 25 00 "
	  "f9 ff ff ff 61 62 00 00 00 00 00 00 00 04 40 ff 01 00 00 "
	  "2a 00 00 00 ef be ad de",
	  "OK STRING:PRINTF32 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=- client=- size=60"
	  " text=\"-7|ab  | 2.50|ff|42|0xdeadbeef|%\"" },
	{ "PRINTF_64: long, size_t, pointer 64, long long, char, wide char", 0, 0,
	  /* 0x0c000042: subtype 12.  "%ld %zu %p %lld %c %lc" NUL, then
	   * -2 (8 bytes), 5 (8), 0x1122334455667788 (8), 2^40 (8),
	   * 'Z' (4), U+00E9 (4) */
	  "42 00 00 0c "
	  "25 6c 64 20 25 7a 75 20 25 70 20 25 6c 6c 64 20 25 63 20 25 6c 63 00 "
	  "fe ff ff ff ff ff ff ff 05 00 00 00 00 00 00 00 "
	  "88 77 66 55 44 33 22 11 00 00 00 00 00 01 00 00 "
	  "5a 00 00 00 e9 00 00 00",
	  "OK STRING:PRINTF64 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=- client=- size=67"
	  " text=\"-2 5 0x1122334455667788 1099511627776 Z \\xc3\\xa9\"" },
	{ "PRINTF with '*' width and precision", 0, 0,
	  /* "[%*d][%.*s]" NUL, 6, 42, 2, "abcdef" NUL */
	  "42 00 00 0b 5b 25 2a 64 5d 5b 25 2e 2a 73 5d 00 "
	  "06 00 00 00 2a 00 00 00 02 00 00 00 61 62 63 64 65 66 00",
	  "OK STRING:PRINTF32 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=- client=- size=35 text=\"[    42][ab]\"" },
	{ "PRINTF: unknown conversion and a format ending in '%'", 0, 0,
	  /* "%k %5" NUL: both copied as text, no argument taken */
	  "42 00 00 0b 25 6b 20 25 35 00",
	  "OK STRING:PRINTF32 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=- client=- size=10 text=\"%k %5\"" },
	{ "PRINTF: an argument missing -> TOO_SHORT", 0, 0,
	  /* "%d %d" NUL, only one int (1) */
	  "42 00 00 0b 25 64 20 25 64 00 01 00 00 00",
	  "TOO_SHORT STRING:PRINTF32 sev=INFO guid=- origin=0 unit=0 loc=- len=-"
	  " ts=- crc=- value=- client=- size=14 text=\"1 <?>\"" },
	{ "PRINTF: %s without its NUL -> TOO_SHORT", 0, 0,
	  "42 00 00 0b 3c 25 73 3e 00 78 79",	/* "<%s>" NUL "xy" */
	  "TOO_SHORT STRING:PRINTF32 sev=INFO guid=- origin=0 unit=0 loc=-"
	  " len=- ts=- crc=- value=- client=- size=11 text=\"<xy>\"" },
	{ "PRINTF: huge width is capped", 0, 0,
	  /* "%99999999d|" NUL, 1 */
	  "42 00 00 0b 25 39 39 39 39 39 39 39 39 64 7c 00 01 00 00 00",
	  NULL /* checked for its length below */ },

	/* ---- CATALOG ---- */
	{ "CATALOG ID32_P32 with collateral (catch-all client)", 1, 0,
	  /* 0x01000043: type 3, INFO, subtype 1; id 0x11, 42, 0xffffffff */
	  "43 00 00 01 11 00 00 00 2a 00 00 00 ff ff ff ff",
	  "OK CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=0x11 client=Default size=16"
	  " text=\"value 42 and 4294967295\"" },
	{ "CATALOG ID64_P32", 1, 0,
	  /* 0x02000043: subtype 2; id 0x1122334455667788, "hi" NUL, 2^40 */
	  "43 00 00 02 88 77 66 55 44 33 22 11 68 69 00 "
	  "00 00 00 00 00 01 00 00",
	  "OK CATALOG:ID64P32 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=0x1122334455667788 client=Default size=23"
	  " text=\"cat64 hi 1099511627776\"" },
	{ "CATALOG ID32_P64: pointers and long are 64-bit", 1, 0,
	  /* 0x05000043: subtype 5; id 0x13 "p64 %p %ld %s": 0x100000000,
	   * -1 (8 bytes), "z" NUL */
	  "43 00 00 05 13 00 00 00 00 00 00 00 01 00 00 00 "
	  "ff ff ff ff ff ff ff ff 7a 00",
	  "OK CATALOG:ID32P64 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=0x13 client=Default size=26"
	  " text=\"p64 0x100000000 -1 z\"" },
	{ "CATALOG ID64_P64", 1, 0,
	  /* 0x06000043: subtype 6; id 0x99 (8 bytes) "cat64 p64 %zu": 7 */
	  "43 00 00 06 99 00 00 00 00 00 00 00 07 00 00 00 00 00 00 00",
	  "OK CATALOG:ID64P64 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=0x99 client=Default size=20 text=\"cat64 p64 7\"" },
	{ "CATALOG masked id", 1, 0,
	  /* id 0x2ab matches ID 0x200 Mask 0xF00: "masked %x" of 0xbeef */
	  "43 00 00 01 ab 02 00 00 ef be 00 00",
	  "OK CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=0x2ab client=Default size=12 text=\"masked beef\"" },
	{ "CATALOG: duplicate ids, the first loaded wins; plain text trimmed",
	  1, 0,
	  "43 00 00 01 10 00 00 00 09 00 00 00",
	  "OK CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=0x10 client=Default size=12 text=\"default 9\"" },
	{ "CATALOG: a format without CDATA is its trimmed text", 1, 0,
	  "43 00 00 01 14 00 00 00",
	  "OK CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=0x14 client=Default size=8"
	  " text=\"plain text, trimmed\"" },
	{ "CATALOG: an argument short -> TOO_SHORT", 1, 0,
	  /* id 0x12 "two %d %d", one int */
	  "43 00 00 01 12 00 00 00 05 00 00 00",
	  "TOO_SHORT CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0 loc=-"
	  " len=- ts=- crc=- value=0x12 client=Default size=12"
	  " text=\"two 5 <?>\"" },
	{ "CATALOG without collateral -> MISSING_COLLATERAL", 0, 0,
	  "43 00 00 01 99 00 00 00 01 00 00 00",
	  "MISSING_COLLATERAL CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0"
	  " loc=- len=- ts=- crc=- value=0x99 client=- size=12"
	  " text=\"catalog 0x00000099 args 01000000\"" },
	{ "CATALOG id unknown to the collateral -> MISSING_COLLATERAL", 1, 0,
	  "43 00 00 01 77 00 00 00",
	  "MISSING_COLLATERAL CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0"
	  " loc=- len=- ts=- crc=- value=0x77 client=Default size=8"
	  " text=\"catalog 0x00000077\"" },

	/* ---- client selection ---- */
	{ "client by GUID", 1, 0,
	  /* 0x01800043: CATALOG ID32_P32 INFO + GUID; id 0x10, 1 */
	  "43 00 80 01 " G1 "10 00 00 00 01 00 00 00",
	  "OK CATALOG:ID32P32 sev=INFO guid={a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90}"
	  " origin=- unit=0 loc=- len=- ts=- crc=- value=0x10 client=ByGuid"
	  " size=28 text=\"guid client 1\"" },
	{ "client by GUID from the second file", 1, 0,
	  "43 00 80 01 5e c0 d0 00 00 00 40 00 80 00 00 00 00 00 00 01 "
	  "10 00 00 00 02 00 00 00",
	  "OK CATALOG:ID32P32 sev=INFO guid={5ec0d000-0000-4000-8000-000000000001}"
	  " origin=- unit=0 loc=- len=- ts=- crc=- value=0x10 client=Second"
	  " size=28 text=\"second file 2\"" },
	{ "pseudo-GUID: STP master 3 channel 2", 1, 1,
	  "43 00 00 01 10 00 00 00 03 00 00 00",
	  "OK CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=0x10 client=M3C2 size=12 text=\"master three 3\"" },
	{ "pseudo-GUID: m3 c2 origin 5 (most mask bits wins)", 1, 1,
	  /* 0x01050043: origin module 5 unit 0 (0x50 << 12) */
	  "43 00 05 01 10 00 00 00 04 00 00 00",
	  "OK CATALOG:ID32P32 sev=INFO guid=- origin=5 unit=0 loc=- len=- ts=-"
	  " crc=- value=0x10 client=M3C2M5 size=12 text=\"m3c2 module5 4\"" },
	{ "pseudo-GUID: origin 5 anywhere else; module, file names", 1, 0,
	  /* 0x01051143: origin module 5 unit 1 (0x51 << 12), LOC (bit 8);
	   * location format 0: file 7, line 42 */
	  "43 11 05 01 00 07 00 2a 00 10 00 00 00 05 00 00 00",
	  "OK CATALOG:ID32P32 sev=INFO guid=- origin=5 unit=1 loc=drv/net.c:42"
	  " len=- ts=- crc=- value=0x10 client=Module5 size=17"
	  " text=\"module five 5\"" },
	{ "catalog entry File/Line as the location", 1, 0,
	  "43 00 05 01 10 00 00 00 06 00 00 00",
	  "OK CATALOG:ID32P32 sev=INFO guid=- origin=5 unit=0 loc=drv/net.c:99"
	  " len=- ts=- crc=- value=0x10 client=Module5 size=12"
	  " text=\"module five 6\"" },

	/* ---- SHORT ---- */
	{ "SHORT32 without collateral", 0, 0,
	  /* word 0x01000071: type 1, value 0x0100007 (28 bits) */
	  "71 00 00 01",
	  "OK SHORT32 sev=- guid=- origin=- unit=- loc=- len=- ts=- crc=-"
	  " value=0x100007 client=- size=4 text=\"0x100007\"" },
	{ "SHORT32 with a masked collateral format", 1, 0,
	  "71 00 00 01",
	  "OK SHORT32 sev=- guid=- origin=- unit=- loc=- len=- ts=- crc=-"
	  " value=0x100007 client=Default size=4 text=\"short value 7\"" },
	{ "SHORT64: 60-bit value", 0, 0,
	  /* word 0x0123456789abcde7: type 7, value 0x0123456789abcde */
	  "e7 cd ab 89 67 45 23 01",
	  "OK SHORT64 sev=- guid=- origin=- unit=- loc=- len=- ts=- crc=-"
	  " value=0x123456789abcde client=- size=8 text=\"0x123456789abcde\"" },
	{ "SHORT64 with collateral", 1, 0,
	  /* value 0xabc000000000123 -> word 0xabc0000000001237 */
	  "37 12 00 00 00 00 c0 ab",
	  "OK SHORT64 sev=- guid=- origin=- unit=- loc=- len=- ts=- crc=-"
	  " value=0xabc000000000123 client=Default size=8 text=\"short64 123\"" },
	{ "SHORT64 cut to 4 bytes -> TOO_SHORT", 0, 0,
	  "e7 cd ab 89",
	  "TOO_SHORT SHORT64 sev=- guid=- origin=- unit=- loc=- len=- ts=- crc=-"
	  " value=- client=- size=4 text=\"\"" },

	/* ---- BUILD ---- */
	{ "BUILD COMPACT32: id in header bits [31:30] and [23:4]", 0, 0,
	  /* id 0x3abcde: bits 21:20 = 3 -> header [31:30], bits 19:0 =
	   * 0xabcde -> header [23:4]; subtype 0.  Header 0xc0abcde0: its
	   * GUID/TS/CHK/LOC bits are id bits, not flags */
	  "e0 cd ab c0",
	  "OK BUILD:COMPACT32 sev=- guid=- origin=- unit=- loc=- len=- ts=- crc=-"
	  " value=0x3abcde client=- size=4 text=\"build 0x3abcde\"" },
	{ "BUILD COMPACT32 with a collateral build name", 1, 0,
	  "e0 cd ab c0",
	  "OK BUILD:COMPACT32 sev=- guid=- origin=- unit=- loc=- len=- ts=- crc=-"
	  " value=0x3abcde client=Default size=4"
	  " text=\"build 0x3abcde release 7\"" },
	{ "BUILD COMPACT64: 32 more id bits after the header", 0, 0,
	  /* header 0xc1abcde0 (subtype 1), then 5: id = 5 << 22 | 0x3abcde */
	  "e0 cd ab c1 05 00 00 00",
	  "OK BUILD:COMPACT64 sev=- guid=- origin=- unit=- loc=- len=- ts=- crc=-"
	  " value=0x17abcde client=- size=8 text=\"build 0x17abcde\"" },
	{ "BUILD LONG: u64 id and text", 0, 0,
	  /* 0x02000240: type 0, INFO, LEN, subtype 2; length 13: id
	   * 0x0102030405060708, "v1.0" NUL */
	  "40 02 00 02 0d 00 08 07 06 05 04 03 02 01 76 31 2e 30 00",
	  "OK BUILD:LONG sev=INFO guid=- origin=0 unit=0 loc=- len=13 ts=-"
	  " crc=- value=0x102030405060708 client=- size=19"
	  " text=\"build 0x102030405060708 v1.0\"" },
	{ "BUILD LONG too short for its id -> TOO_SHORT", 0, 0,
	  "40 00 00 02 01 02 03",
	  "TOO_SHORT BUILD:LONG sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=- client=- size=7 text=\"\"" },

	/* ---- RAW, CLOCK, SBD ---- */
	{ "RAW protocol 3", 0, 0,
	  /* 0x03000006: type 6, severity 0, subtype 3 */
	  "06 00 00 03 de ad be ef",
	  "OK RAW:3 sev=MAX guid=- origin=0 unit=0 loc=- len=- ts=- crc=-"
	  " value=0x3 client=- size=8 text=\"deadbeef\"" },
	{ "RAW protocol name from collateral", 1, 0,
	  "06 00 00 03 de ad be ef",
	  "OK RAW:my-proto sev=MAX guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=0x3 client=Default size=8 text=\"deadbeef\"" },
	{ "CLOCK TRANSPORT_SYNC (p_sys-t clocksync)", 0, 0,
	  /* 0x01000008: type 8, severity 0, subtype 1; clock 1000, 1e9 Hz */
	  "08 00 00 01 e8 03 00 00 00 00 00 00 00 ca 9a 3b 00 00 00 00",
	  "OK CLOCK:SYNC sev=MAX guid=- origin=0 unit=0 loc=- len=- ts=- crc=-"
	  " value=0x3e8 client=- size=20 text=\"clock 1000 at 1000000000 Hz\"" },
	{ "CLOCK cut short -> TOO_SHORT", 0, 0,
	  "08 00 00 01 e8 03 00 00 00 00 00 00",
	  "TOO_SHORT CLOCK:SYNC sev=MAX guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=- value=- client=- size=12 text=\"\"" },
	{ "SBD ID32: id and blob", 0, 0,
	  /* 0x00000049: type 9, INFO, subtype 0; id 0x12345678, blob 01 02 */
	  "49 00 00 00 78 56 34 12 01 02",
	  "OK SBD:ID32 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=- crc=-"
	  " value=0x12345678 client=- size=10"
	  " text=\"sbd 0x12345678 2 bytes: 0102\"" },
	{ "SBD ID64 + name + 32-bit address", 0, 0,
	  /* subtype 0x0b = ID64 (1) | name (2) | address 32 (2 << 2);
	   * id 1, address 0x1000, "obj" NUL, blob aa bb */
	  "49 00 00 0b 01 00 00 00 00 00 00 00 00 10 00 00 6f 62 6a 00 aa bb",
	  "OK SBD:ID64 sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=- crc=-"
	  " value=0x1 client=- size=22"
	  " text=\"sbd 0x0000000000000001 obj @0x00001000 2 bytes: aabb\"" },

	/* ---- locations ---- */
	{ "location format 1: 32-bit file and line", 0, 0,
	  /* 0x01000142: STRING/GENERIC INFO LOC; format 1, file 7, line
	   * 1000 */
	  "42 01 00 01 01 07 00 00 00 e8 03 00 00 78 00",
	  "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=7:1000 len=-"
	  " ts=- crc=- value=- client=- size=15 text=\"x\"" },
	{ "location format 2: 32-bit address", 0, 0,
	  "42 01 00 01 02 78 56 34 12 78 00",
	  "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=0x12345678"
	  " len=- ts=- crc=- value=- client=- size=11 text=\"x\"" },
	{ "location format 3: 64-bit address", 0, 0,
	  "42 01 00 01 03 88 77 66 55 44 33 22 11 78 00",
	  "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0"
	  " loc=0x1122334455667788 len=- ts=- crc=- value=- client=- size=15"
	  " text=\"x\"" },
	{ "all optional fields: GUID, location, length, timestamp, CRC", 0, 0,
	  /* 0x01800f42: INFO, LOC, LEN, CHK, TS, GUID, subtype 1 */
	  "42 0f 80 01 " G1 "00 01 00 02 00 02 00 09 00 00 00 00 00 00 00 "
	  "68 69 ",
	  NULL /* CRC filled in below: see crc_cases() */ },

	/* ---- CRC ---- */
	{ "CRC-32C ok", 0, 0,
	  /* 0x01000442: STRING/GENERIC INFO CHK; "hi" NUL; CRC of the 7
	   * bytes before it = 0x6e659289 */
	  "42 04 00 01 68 69 00 89 92 65 6e",
	  "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	  " crc=ok value=- client=- size=11 text=\"hi\"" },
	{ "CRC-32C with LEN", 0, 0,
	  /* 0x01000642: + LEN 3; CRC 0x838a1340 */
	  "42 06 00 01 03 00 68 69 00 40 13 8a 83",
	  "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=- len=3 ts=-"
	  " crc=ok value=- client=- size=13 text=\"hi\"" },
	{ "CRC-32C mismatch -> CHECKSUM_ERROR (still decoded)", 0, 0,
	  "42 04 00 01 68 6f 00 89 92 65 6e",	/* "ho": CRC of "hi" */
	  "CHECKSUM_ERROR STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=-"
	  " len=- ts=- crc=bad value=- client=- size=11 text=\"ho\"" },

	/* ---- errors ---- */
	{ "3 bytes -> TOO_SHORT", 0, 0,
	  "42 00 80",
	  "TOO_SHORT STRING:UNKNOWN(0) sev=- guid=- origin=- unit=- loc=- len=-"
	  " ts=- crc=- value=- client=- size=3 text=\"\"" },
	{ "GUID cut -> TOO_SHORT", 0, 0,
	  "42 00 80 01 a1 b2 c3 d4",
	  "TOO_SHORT STRING:GENERIC sev=INFO"
	  " guid={a1b2c3d4-0000-0000-0000-000000000000} origin=- unit=0 loc=-"
	  " len=- ts=- crc=- value=- client=- size=8 text=\"\"" },
	{ "LEN larger than the message -> TOO_SHORT", 0, 0,
	  "42 02 00 01 0a 00 68 69 6a",
	  "TOO_SHORT STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=- len=10"
	  " ts=- crc=- value=- client=- size=9 text=\"hij\"" },
	{ "CHK without room for the CRC -> TOO_SHORT", 0, 0,
	  "42 04 00 01 68",
	  "TOO_SHORT STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=- len=-"
	  " ts=- crc=- value=- client=- size=5 text=\"h\"" },
	{ "CATALOG id cut -> TOO_SHORT", 1, 0,
	  "43 00 00 01 10 00",
	  "TOO_SHORT CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0 loc=- len=-"
	  " ts=- crc=- value=- client=Default size=6 text=\"\"" },
	{ "reserved type 4 -> UNKNOWN_TYPE", 0, 0,
	  "44 00 00 01 01 02",
	  "UNKNOWN_TYPE UNKNOWN(4) sev=INFO guid=- origin=0 unit=0 loc=- len=-"
	  " ts=- crc=- value=- client=- size=6 text=\"\"" },
	{ "reserved type 15 -> UNKNOWN_TYPE", 0, 0,
	  "4f 00 00 00",
	  "UNKNOWN_TYPE UNKNOWN(15) sev=INFO guid=- origin=0 unit=0 loc=- len=-"
	  " ts=- crc=- value=- client=- size=4 text=\"\"" },
	{ "STRING subtype 4 -> UNKNOWN_TYPE", 0, 0,
	  "42 00 00 04 6f 6b 00",
	  "UNKNOWN_TYPE STRING:UNKNOWN(4) sev=INFO guid=- origin=0 unit=0 loc=-"
	  " len=- ts=- crc=- value=- client=- size=7 text=\"ok\"" },
	{ "CLOCK subtype 2 -> UNKNOWN_TYPE", 0, 0,
	  "08 00 00 02",
	  "UNKNOWN_TYPE CLOCK:UNKNOWN(2) sev=MAX guid=- origin=0 unit=0 loc=-"
	  " len=- ts=- crc=- value=- client=- size=4 text=\"\"" },
	{ "CATALOG subtype 3 -> UNKNOWN_TYPE", 0, 0,
	  "43 00 00 03 01 00 00 00",
	  "UNKNOWN_TYPE CATALOG:UNKNOWN(3) sev=INFO guid=- origin=0 unit=0 loc=-"
	  " len=- ts=- crc=- value=- client=- size=8 text=\"\"" },
	{ "BUILD subtype 3 -> UNKNOWN_TYPE", 0, 0,
	  "40 00 00 03",
	  "UNKNOWN_TYPE BUILD:UNKNOWN(3) sev=INFO guid=- origin=0 unit=0 loc=-"
	  " len=- ts=- crc=- value=- client=- size=4 text=\"\"" },
	{ "CRC error beats unknown type", 0, 0,
	  /* 0x01000444: type 4 + CHK; CRC field zero */
	  "44 04 00 01 00 00 00 00",
	  "CHECKSUM_ERROR UNKNOWN(4) sev=INFO guid=- origin=0 unit=0 loc=- len=-"
	  " ts=- crc=bad value=- client=- size=8 text=\"\"" },
};

static struct mttd_coll *coll;
static struct strbuf got;

static void esc(struct strbuf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			sb_printf(b, "%c", c);
		else
			sb_printf(b, "\\x%02x", c);
	}
}

static void on_msg(void *ctx, const struct mttd_syst_msg *m)
{
	struct strbuf *b = ctx;
	char type[32], g[MTTD_GUID_STR], loc[128];
	uint32_t f = m->flags;

	mttd_syst_type_name(m->type, m->subtype, type, sizeof(type));
	if (m->protocol)	/* RAW: the printer's "RAW:<name>" */
		snprintf(type, sizeof(type), "RAW:%s", m->protocol);
	sb_printf(b, "%s %s sev=%s", mttd_syst_status_name(m->status), type,
		  (f & MTTD_SYST_F_SEV) ? mttd_syst_severity_name(m->severity) :
		  "-");
	mttd_syst_guid_str(m->guid, g);
	sb_printf(b, " guid=%s", (f & MTTD_SYST_F_GUID) ? g : "-");
	if ((f & MTTD_SYST_F_SEV) && !(f & MTTD_SYST_F_GUID))
		sb_printf(b, " origin=%u", m->origin);
	else
		sb_printf(b, " origin=-");
	if (f & MTTD_SYST_F_SEV)
		sb_printf(b, " unit=%u", m->unit);
	else
		sb_printf(b, " unit=-");
	sb_printf(b, " loc=%s", mttd_syst_location(m, loc, sizeof(loc)) ?
		  loc : "-");
	if (f & MTTD_SYST_F_LEN)
		sb_printf(b, " len=%u", m->len);
	else
		sb_printf(b, " len=-");
	if (f & MTTD_SYST_F_TS)
		sb_printf(b, " ts=%llu", (unsigned long long)m->ts);
	else
		sb_printf(b, " ts=-");
	sb_printf(b, " crc=%s", !(f & MTTD_SYST_F_CHK) ? "-" :
		  m->crc == m->crc_calc ? "ok" : "bad");
	if (f & MTTD_SYST_F_VALUE)
		sb_printf(b, " value=0x%llx", (unsigned long long)m->value);
	else
		sb_printf(b, " value=-");
	sb_printf(b, " client=%s size=%zu text=\"", m->client ? m->client : "-",
		  m->size);
	esc(b, m->text, m->text_len);
	sb_printf(b, "\"\n");
}

static void on_ev(void *ctx, const struct mttd_syst_event *e)
{
	sb_printf(ctx, "%s@%llu n=%llu\n",
		  e->kind == MTTD_SYST_EV_RESYNC ? "RESYNC" : "BADLINE",
		  (unsigned long long)e->offset, (unsigned long long)e->count);
}

static struct mttd_syst *dec(struct strbuf *b, int with_coll)
{
	struct mttd_syst_config c = {
		.fn = on_msg, .event = on_ev, .ctx = b,
		.coll = with_coll ? coll : NULL,
	};
	struct mttd_syst *s = mttd_syst_new(&c);

	if (!s)
		abort();
	return s;
}

/* decode one message, return its line without the newline */
static const char *one(const uint8_t *p, size_t n, int with_coll, int stp)
{
	struct mttd_syst *s = dec(&got, with_coll);
	struct mttd_syst_src src = {
		.master = 3, .channel = 2, .stp_ts = 500,
		.flags = MTTD_SYST_F_STP | MTTD_SYST_F_STP_TS,
	};

	sb_free(&got);
	mttd_syst_decode(s, stp ? &src : NULL, p, n);
	mttd_syst_free(s);
	if (got.len && got.s[got.len - 1] == '\n')
		got.s[--got.len] = 0;
	return got.s ? got.s : "";
}

static void run_cases(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct scase *c = &cases[i];
		uint8_t *b;
		size_t n = hex(c->bytes, &b);

		if (!c->want)
			continue;
		is_str(one(b, n, c->coll, c->stp), c->want, c->name);
	}
}

static const struct scase *named(const char *prefix)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strncmp(cases[i].name, prefix, strlen(prefix)))
			return &cases[i];
	abort();
}

static void special_cases(void)
{
	const struct scase *c = named("PRINTF: huge width");
	uint8_t *b, buf[128];
	size_t n;
	const char *l;

	/* "%99999999d|" of 1: width capped at 512 */
	n = hex(c->bytes, &b);
	l = one(b, n, 0, 0);
	ok(strstr(l, "size=20 text=\"") && strlen(strstr(l, "text=\"")) ==
	   6 + 512 + 1 + 1, "%s", c->name);

	/* every optional field; the CRC appended here is computed by the
	 * bitwise CRC-32C below, independent of the library's table */
	c = named("all optional");
	{
		size_t k = hex(c->bytes, &b), j;
		uint32_t crc = 0xffffffffu;

		memcpy(buf, b, k);
		for (j = 0; j < k; j++) {
			int bit;

			crc ^= buf[j];
			for (bit = 0; bit < 8; bit++)
				crc = (crc >> 1) ^
				      (0x82f63b78u & (0u - (crc & 1u)));
		}
		crc ^= 0xffffffffu;
		buf[k] = (uint8_t)crc;
		buf[k + 1] = (uint8_t)(crc >> 8);
		buf[k + 2] = (uint8_t)(crc >> 16);
		buf[k + 3] = (uint8_t)(crc >> 24);
		is_str(one(buf, k + 4, 0, 0),
		       "OK STRING:GENERIC sev=INFO"
		       " guid={a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90} origin=- unit=0"
		       " loc=1:2 len=2 ts=9 crc=ok value=- client=- size=41"
		       " text=\"hi\"", c->name);
	}
}

static void crc_values(void)
{
	is_u64(mttd_crc32c("123456789", 9), 0xe3069283u,
	       "CRC-32C check value \"123456789\"");
	is_u64(mttd_crc32c("0123456789ABCDEF", 16), 0xb5d83007u,
	       "CRC-32C check value \"0123456789ABCDEF\"");
	is_u64(mttd_crc32c("", 0), 0, "CRC-32C of nothing");
}

/* decode a plain stream in the given chunk size (0: whole) */
static char *stream(const uint8_t *p, size_t n, size_t chunk, int with_coll)
{
	struct strbuf b = { 0 };
	struct mttd_syst *s = dec(&b, with_coll);
	struct mttd_syst_stream *st = mttd_syst_stream_new(s);
	size_t off = 0;

	if (!chunk)
		chunk = n ? n : 1;
	while (off < n) {
		size_t k = n - off < chunk ? n - off : chunk;

		mttd_syst_stream_feed(st, p + off, k);
		off += k;
	}
	mttd_syst_stream_finish(st);
	ok(mttd_syst_stream_feed(st, p, 1) == -1, "no feed after finish");
	mttd_syst_stream_free(st);
	mttd_syst_free(s);
	return b.s ? b.s : calloc(1, 1);
}

static void plain_stream(void)
{
	uint8_t *b, copy[512];
	size_t n, k;
	char *whole;
	int same = 1;

	/* messages back to back, each framed by its own fields:
	 *  SHORT32 0x0100007 (4 bytes); STRING with LEN 2 "hi";
	 *  STRING without LEN, ends at its NUL: "yo" NUL;
	 *  PRINTF_32 without LEN "%d %s" NUL 7 "ab" NUL;
	 *  CLOCK (16-byte payload); COMPACT32 build;
	 *  CATALOG via collateral id 0x12 "two %d %d": 1, 2;
	 *  RAW without LEN: cannot be framed -> resync ... to the next
	 *  plausible header: STRING "ok" NUL */
	n = hex("71 00 00 01 "
		"42 02 00 01 02 00 68 69 "
		"42 00 00 01 79 6f 00 "
		"42 00 00 0b 25 64 20 25 73 00 07 00 00 00 61 62 00 "
		"08 00 00 01 01 00 00 00 00 00 00 00 00 ca 9a 3b 00 00 00 00 "
		"e0 cd ab c0 "
		"43 00 00 01 12 00 00 00 01 00 00 00 02 00 00 00 "
		"06 00 00 03 11 22 33 "
		"42 00 00 01 6f 6b 00", &b);
	memcpy(copy, b, n);
	whole = stream(copy, n, 0, 1);
	is_str(whole,
	       "OK SHORT32 sev=- guid=- origin=- unit=- loc=- len=- ts=- crc=-"
	       " value=0x100007 client=Default size=4 text=\"short value 7\"\n"
	       "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=- len=2 ts=-"
	       " crc=- value=- client=Default size=8 text=\"hi\"\n"
	       "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	       " crc=- value=- client=Default size=7 text=\"yo\"\n"
	       "OK STRING:PRINTF32 sev=INFO guid=- origin=0 unit=0 loc=- len=-"
	       " ts=- crc=- value=- client=Default size=17 text=\"7 ab\"\n"
	       "OK CLOCK:SYNC sev=MAX guid=- origin=0 unit=0 loc=- len=- ts=- crc=-"
	       " value=0x1 client=Default size=20 text=\"clock 1 at 1000000000"
	       " Hz\"\n"
	       "OK BUILD:COMPACT32 sev=- guid=- origin=- unit=- loc=- len=- ts=-"
	       " crc=- value=0x3abcde client=Default size=4"
	       " text=\"build 0x3abcde release 7\"\n"
	       "OK CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0 loc=- len=-"
	       " ts=- crc=- value=0x12 client=Default size=16 text=\"two 1 2\"\n"
	       "RESYNC@76 n=7\n"
	       "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	       " crc=- value=- client=Default size=7 text=\"ok\"\n",
	       "plain stream: framing by LEN, NUL, printf arguments, fixed "
	       "sizes, collateral; resync after RAW without LEN");
	for (k = 1; k <= 9; k++) {
		char *part = stream(copy, n, k, 1);

		same &= !strcmp(part, whole);
		free(part);
	}
	ok(same, "plain stream: same result for chunks of 1..9 bytes");
	free(whole);

	/* a STRING without NUL at the very end is the last message; a
	 * message cut by the end of the stream is decoded as it is */
	n = hex("42 00 00 01 61 62 63", &b);
	whole = stream(b, n, 0, 0);
	is_str(whole, "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=-"
	       " len=- ts=- crc=- value=- client=- size=7 text=\"abc\"\n",
	       "plain stream: STRING without NUL at the end");
	free(whole);
	n = hex("42 02 00 01 09 00 61", &b);
	whole = stream(b, n, 0, 0);
	is_str(whole, "TOO_SHORT STRING:GENERIC sev=INFO guid=- origin=0 unit=0"
	       " loc=- len=9 ts=- crc=- value=- client=- size=7 text=\"a\"\n",
	       "plain stream: cut by the end");
	free(whole);
	/* garbage only: one resync to the end */
	n = hex("ff ff ff ff ff", &b);
	whole = stream(b, n, 0, 0);
	is_str(whole, "RESYNC@0 n=5\n", "plain stream: garbage only");
	free(whole);
}

static char *text_input(const char *t, size_t chunk)
{
	struct strbuf b = { 0 };
	struct mttd_syst *s = dec(&b, 0);
	struct mttd_syst_text *tx = mttd_syst_text_new(s);
	size_t n = strlen(t), off = 0;

	if (!chunk)
		chunk = n ? n : 1;
	while (off < n) {
		size_t k = n - off < chunk ? n - off : chunk;

		mttd_syst_text_feed(tx, t + off, k);
		off += k;
	}
	mttd_syst_text_finish(tx);
	mttd_syst_text_free(tx);
	mttd_syst_free(s);
	return b.s ? b.s : calloc(1, 1);
}

static void reference_text(void)
{
	static const char in[] =
		"# a comment line, ignored\n"
		"SYS-T RAW DATA: 4200000168690000\n"		/* "hi" */
		"some other output\r\n"
		"[12.5] SYS-T RAW DATA: 71 00 00 01\r\n"	/* SHORT32 */
		"SYS-T RAW DATA: 4200zz01\n"			/* bad hex */
		"SYS-T RAW DATA: 420\n"				/* odd */
		"SYS-T RAW DATA: 08000001e803000000000000";	/* no \n */
	char *whole = text_input(in, 0);
	int same = 1;
	size_t k;

	is_str(whole,
	       "OK STRING:GENERIC sev=INFO guid=- origin=0 unit=0 loc=- len=- ts=-"
	       " crc=- value=- client=- size=8 text=\"hi\"\n"
	       "OK SHORT32 sev=- guid=- origin=- unit=- loc=- len=- ts=- crc=-"
	       " value=0x100007 client=- size=4 text=\"0x100007\"\n"
	       "BADLINE@114 n=5\n"
	       "BADLINE@139 n=6\n"
	       "TOO_SHORT CLOCK:SYNC sev=MAX guid=- origin=0 unit=0 loc=- len=-"
	       " ts=- crc=- value=- client=- size=12 text=\"\"\n",
	       "reference printer text: messages, other lines ignored, bad hex");
	for (k = 1; k <= 7; k++) {
		char *part = text_input(in, k);

		same &= !strcmp(part, whole);
		free(part);
	}
	ok(same, "reference printer text: same for any chunking");
	free(whole);
}

static void collateral_api(void)
{
	struct mttd_coll *c = mttd_coll_new();
	char err[256];
	uint8_t g[16];
	static const char ok_xml[] =
		"<Collateral><Client Name=\"x\"><Catalog32>"
		"<Format ID=\"0x5\">five</Format></Catalog32></Client>"
		"</Collateral>";
	static const char any_xml[] =
		"<Collateral><Client Name=\"any\"><Guids><Guid"
		" ID=\"{00000000-0000-0000-0000-000000000000}\""
		" Mask=\"{00000000-0000-0000-0000-000000000000}\"/></Guids>"
		"</Client><Client Name=\"a1\"><Guids><Guid"
		" ID=\"{a1000000-0000-0000-0000-000000000000}\""
		" Mask=\"{ff000000-0000-0000-0000-000000000000}\"/></Guids>"
		"</Client></Collateral>";

	ok(mttd_coll_load_file(c, TESTDATA "/coll-bad.xml", err,
			       sizeof(err)) == -1 &&
	   strstr(err, "coll-bad.xml:6: Format without ID"),
	   "collateral error names file and line (%s)", err);
	ok(mttd_coll_load_mem(c, "<a><b>", 6, "mem", err, sizeof(err)) == -1 &&
	   strstr(err, "mem:1:"), "XML syntax error reported (%s)", err);
	ok(mttd_coll_load_file(c, TESTDATA "/nonexistent.xml", err,
			       sizeof(err)) == -1 && strstr(err, "No such file"),
	   "missing collateral file reported");
	mttd_coll_free(c);
	c = mttd_coll_new();
	ok(mttd_coll_load_mem(c, ok_xml, sizeof(ok_xml) - 1, "mem", err,
			      sizeof(err)) == 0, "collateral without namespace");
	memset(g, 0x55, 16);
	ok(mttd_coll_client(c, g) == -1 &&
	   !strcmp(mttd_coll_find(c, 0, MTTD_COLL_CATALOG32, 5)->text, "five"),
	   "client without Guids matches no GUID (its entries still there)");
	mttd_coll_free(c);
	c = mttd_coll_new();
	ok(mttd_coll_load_mem(c, any_xml, sizeof(any_xml) - 1, "mem", err,
			      sizeof(err)) == 0 && mttd_coll_client(c, g) == 0,
	   "a Guid with an all-zero Mask matches any GUID");
	g[0] = 0xa1;
	ok(mttd_coll_client(c, g) == 1,
	   "... below a Guid with Mask bits set");
	mttd_coll_free(c);
	ok(mttd_guid_parse("{A1B2C3D4-E5F6-0718-293A-4B5C6D7E8F90}", g) == 0 &&
	   g[0] == 0xa1 && g[15] == 0x90, "GUID text parsed in RFC 4122 order");
	ok(mttd_guid_parse("a1b2c3d4e5f60718293a4b5c6d7e8f90", g) == 0,
	   "GUID without dashes and braces");
	ok(mttd_guid_parse("{a1b2}", g) == -1, "short GUID rejected");
	mttd_syst_pseudo_guid(0x1234, 0xabcd, 5, g);
	{
		char s[MTTD_GUID_STR];

		mttd_syst_guid_str(g, s);
		is_str(s, "{00000000-1234-abcd-0500-000000000000}",
		       "pseudo-GUID layout");
	}
}

static void sink(void)
{
	/* a reassembled STP message handed to the sink keeps its master,
	 * channel and STP timestamp; a FREQ event sets the STP clock */
	struct strbuf b = { 0 };
	struct mttd_syst *s = dec(&b, 1);
	struct mttd_msg_sink sk;
	uint8_t *p;
	size_t n = hex("43 00 00 01 10 00 00 00 03 00 00 00", &p);
	struct mttd_msg m = {
		.ts = 77, .master = 3, .channel = 2, .data = p, .len = n,
		.flags = MTTD_MSG_HAS_TS,	/* incomplete */
	};

	mttd_syst_sink(s, &sk);
	sk.msg(sk.ctx, &m);
	is_str(b.s, "OK CATALOG:ID32P32 sev=INFO guid=- origin=0 unit=0 loc=-"
	       " len=- ts=- crc=- value=0x10 client=M3C2 size=12"
	       " text=\"master three 3\"\n", "STP sink: master/channel select "
	       "the client");
	mttd_syst_free(s);
	sb_free(&b);
}

static uint64_t ts_stp;
static int ts_stp_ok;

static void keep_ts(void *ctx, const struct mttd_syst_msg *m)
{
	(void)ctx;
	ts_stp = m->ts_stp;
	ts_stp_ok = (m->flags & MTTD_SYST_F_TS_STP) != 0;
}

static void clock_correlation(void)
{
	struct mttd_syst_config c = { .fn = keep_ts };
	struct mttd_syst *s = mttd_syst_new(&c);
	struct mttd_syst_src src = {
		.master = 3, .channel = 2, .stp_ts = 1000,
		.flags = MTTD_SYST_F_STP | MTTD_SYST_F_STP_TS,
	};
	uint8_t *p;
	size_t n;

	/* CLOCK: clock 5000 at 1e9 Hz, at STP time 1000 */
	n = hex("08 00 00 01 88 13 00 00 00 00 00 00 00 ca 9a 3b 00 00 00 00",
		&p);
	mttd_syst_decode(s, &src, p, n);
	/* then ts 7000 on the same channel: STP time 1000 + 2000 = 3000 */
	n = hex("42 08 00 01 58 1b 00 00 00 00 00 00 74", &p);
	src.stp_ts = 9999;
	mttd_syst_decode(s, &src, p, n);
	ok(ts_stp_ok && ts_stp == 3000, "CLOCK sync: ts moved to STP time "
	   "(%llu)", (unsigned long long)ts_stp);
	/* with a 100 MHz STP clock: 1000 + 2000 ns * 0.1 = 1200 */
	mttd_syst_set_stp_hz(s, 100000000);
	mttd_syst_decode(s, &src, p, n);
	ok(ts_stp_ok && ts_stp == 1200, "CLOCK sync with STP FREQ 100 MHz "
	   "(%llu)", (unsigned long long)ts_stp);
	/* another channel has no sync point */
	src.channel = 3;
	mttd_syst_decode(s, &src, p, n);
	ok(!ts_stp_ok, "no sync point on another channel");
	mttd_syst_free(s);
}

static void api(void)
{
	char t[32];
	struct mttd_syst_config none = { 0 };

	ok(mttd_syst_new(NULL) == NULL && mttd_syst_new(&none) == NULL,
	   "new without a callback fails");
	is_str(mttd_syst_type_name(6, 200, t, sizeof(t)), "RAW:200",
	       "RAW type name");
	is_str(mttd_syst_type_name(9, 0x10, t, sizeof(t)), "SBD:UNKNOWN(16)",
	       "SBD reserved subtype name");
	is_str(mttd_syst_status_name(MTTD_SYST_MISSING_COLLATERAL),
	       "MISSING_COLLATERAL", "status name");
	is_str(mttd_syst_severity_name(5), "USER1", "severity name");
}

int main(void)
{
	char err[256];

	coll = mttd_coll_new();
	if (!coll || mttd_coll_load_file(coll, TESTDATA "/coll-a.xml", err,
					 sizeof(err)) ||
	    mttd_coll_load_file(coll, TESTDATA "/coll-b.xml", err,
				sizeof(err))) {
		printf("Bail out! collateral: %s\n", err);
		return 1;
	}
	ok(mttd_coll_clients(coll) == 6, "6 clients from 2 collateral files");
	crc_values();
	run_cases();
	special_cases();
	plain_stream();
	reference_text();
	collateral_api();
	sink();
	clock_correlation();
	api();
	sb_free(&got);
	mttd_coll_free(coll);
	return done_testing();
}
