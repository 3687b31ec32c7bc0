// SPDX-License-Identifier: GPL-2.0
/*
 * swstm_check: check what came out of an swstm sink.
 *
 *   swstm_check msgs [-m MASTER] [-c CHANNEL] [-t TAGS] [-s SIZES]
 *                    [-n COUNT] [-f FIRST] [-l] [-k] [-e MIN]
 *                    [-T T0:T1] JSONFILE
 *       JSONFILE is mttdecode's "--format json" output.  The messages on
 *       MASTER/CHANNEL (default: any) must be the test messages of
 *       swstm_write (swstm_msg.h) with tags TAGS (default A): for each
 *       tag, messages FIRST..FIRST+COUNT-1 in order, byte-exact, sizes
 *       from SIZES.  -l (lossy): messages may be missing (incomplete ones
 *       are skipped, and so is the first message of a channel, or its
 *       first after a loss, if it does not check: the tail of a message
 *       whose start was lost) but each tag's sequence numbers must rise;
 *       -k:
 *       the last message of each tag must be there; -e MIN: at least MIN
 *       messages of each tag.  -T: every timestamp lies in [T0, T1].
 *       Timestamps must never go back on a master/channel.  -o: one
 *       writer (tag) per channel, not lossy: a message shorter than the
 *       header is its channel's writer's next one (the first on a
 *       channel: the one tag whose next message it is byte for byte),
 *       and a message of another tag on that channel fails.
 *       Prints "OK", a summary and the timeline of the checked messages
 *       and of all loss records, e.g. "timeline=A0-17,L12,A20-24" (tag,
 *       sequence numbers; L and the lost count), or "FAIL: ..." lines.
 *   swstm_check text [-m MASTER] [-c CHANNEL] JSONFILE
 *       prints the complete messages on MASTER/CHANNEL as text, one per
 *       line (bytes outside 0x20..0x7e as \xNN).
 *   swstm_check losses JSONFILE
 *       prints "markers=N lost=M": loss records and their counts.
 *   swstm_check sync [-i INTERVAL] RAWFILE
 *       RAWFILE is one reader's STPv2 stream: it must start with ASYNC,
 *       every ASYNC must be followed by VERSION 3 and FREQ 1 GHz, and
 *       ASYNCs must come every INTERVAL bytes (at the first packet
 *       boundary after INTERVAL bytes).  Prints "OK" and "syncs=N".
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "swstm_msg.h"

#define MAX_TAGS	16
#define MAX_CHANS	4096
/* most bytes one packet adds to the stream between two syncs */
#define PKT_SLACK	32

static int failures;

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
	va_list ap;

	if (failures++ == 0)
		printf("FAIL\n");
	if (failures > 20)
		return;
	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ---- flat JSON lines ------------------------------------------------- */

static const char *json_val(const char *line, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(line, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	while (isspace((unsigned char)*p))
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

static int json_num(const char *line, const char *key, unsigned long long *v)
{
	const char *p = json_val(line, key);
	char *end;

	if (!p || !isdigit((unsigned char)*p))
		return -1;
	*v = strtoull(p, &end, 10);
	return 0;
}

static int json_str(const char *line, const char *key, char *buf, size_t len)
{
	const char *p = json_val(line, key);
	size_t i = 0;

	if (!p || *p != '"')
		return -1;
	for (p++; *p && *p != '"'; p++) {
		if (i + 1 >= len)
			return -1;
		buf[i++] = *p;
	}
	buf[i] = 0;
	return *p == '"' ? 0 : -1;
}

static int json_true(const char *line, const char *key)
{
	const char *p = json_val(line, key);

	return p && !strncmp(p, "true", 4);
}

static int unhex(const char *s, unsigned char *out, size_t max)
{
	size_t n = strlen(s), i;

	if (n % 2 || n / 2 > max)
		return -1;
	for (i = 0; i < n / 2; i++) {
		unsigned int b;

		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (unsigned char)b;
	}
	return (int)(n / 2);
}

/* the input file named by argv[optind]; NULL (and a message) if none */
static FILE *open_input(int argc, char **argv, const char *mode)
{
	FILE *f;

	if (optind >= argc) {
		fprintf(stderr, "swstm_check: no input file\n");
		return NULL;
	}
	f = fopen(argv[optind], mode);
	if (!f)
		perror(argv[optind]);
	return f;
}

/* ---- msgs -------------------------------------------------------------- */

struct tagstate {
	unsigned char tag;
	long long last;		/* last sequence number seen, -1 none */
	unsigned long seen;
};

struct chanstate {
	unsigned int master, channel;
	unsigned long long ts;
	unsigned long epoch;	/* loss_epoch at its last message */
	int tag;		/* -o: index of its writer's tag, -1 none */
};

/* number of loss records so far */
static unsigned long loss_epoch;

static struct chanstate chans[MAX_CHANS];
static int nchans;

/* timeline: runs of consecutive messages of one tag, and losses */
static char timeline[4096];
static unsigned char tl_tag;
static long long tl_first = -1, tl_last = -1;

static void tl_append(const char *item)
{
	size_t len = strlen(timeline);

	/* always leave room for the ",..." that ends a full timeline */
	if (len + strlen(item) + 2 + 4 >= sizeof(timeline)) {
		if (!strstr(timeline, "..."))
			strcat(timeline, ",...");
		return;
	}
	if (len)
		strcat(timeline, ",");
	strcat(timeline, item);
}

static void tl_flush(void)
{
	char item[64];

	if (tl_first < 0)
		return;
	if (tl_first == tl_last)
		snprintf(item, sizeof(item), "%c%lld", tl_tag, tl_first);
	else
		snprintf(item, sizeof(item), "%c%lld-%lld", tl_tag, tl_first,
			 tl_last);
	tl_append(item);
	tl_first = -1;
}

static void tl_msg(unsigned char tag, unsigned long seq)
{
	if (tl_first >= 0 && tag == tl_tag && (long long)seq == tl_last + 1) {
		tl_last = (long long)seq;
		return;
	}
	tl_flush();
	tl_tag = tag;
	tl_first = tl_last = (long long)seq;
}

static void tl_loss(unsigned long long count)
{
	char item[32];

	tl_flush();
	snprintf(item, sizeof(item), "L%llu", count);
	tl_append(item);
}

static struct chanstate *chan_get(unsigned int m, unsigned int c)
{
	int i;

	for (i = 0; i < nchans; i++)
		if (chans[i].master == m && chans[i].channel == c)
			return &chans[i];
	if (nchans == MAX_CHANS)
		return NULL;
	chans[nchans].master = m;
	chans[nchans].channel = c;
	chans[nchans].ts = 0;
	chans[nchans].epoch = ~0UL;	/* its first message may be a tail */
	chans[nchans].tag = -1;
	return &chans[nchans++];
}

/*
 * -o: the writer of a message too short for a header, on channel @cs:
 * the channel's writer, or (its first message) the one writer without a
 * channel whose next message is @data.  NULL if there is no such one.
 */
static struct tagstate *chan_writer(const struct chanstate *cs,
				    struct tagstate *ts, int ntags,
				    const int *bound,
				    const struct swstm_sizes *sizes,
				    const unsigned char *data, size_t n)
{
	unsigned char want[SWSTM_HDR_LEN];
	struct tagstate *found = NULL;
	int i;

	if (cs->tag >= 0)
		return &ts[cs->tag];
	for (i = 0; i < ntags; i++) {
		unsigned long seq = (unsigned long)(ts[i].last + 1);

		if (bound[i] || n >= SWSTM_HDR_LEN ||
		    swstm_sizes_get(sizes, seq) != n)
			continue;
		swstm_msg_fill(want, n, ts[i].tag, seq);
		if (memcmp(want, data, n))
			continue;
		if (found)
			return NULL;
		found = &ts[i];
	}
	return found;
}

static int do_msgs(int argc, char **argv)
{
	long long want_m = -1, want_c = -1;
	const char *tags = "A";
	struct swstm_sizes sizes;
	unsigned long count = 0, first = 0, min_seen = 0;
	unsigned long long t0 = 0, t1 = ~0ULL;
	int lossy = 0, need_last = 0, per_chan = 0, opt, ntags, i;
	int bound[MAX_TAGS] = { 0 };	/* -o: the tag has a channel */
	struct tagstate ts[MAX_TAGS];
	unsigned long msgs = 0, incomplete = 0, other = 0;
	static char line[65536], hex[16384];
	static unsigned char data[8192], want[SWSTM_MAX_MSG];
	FILE *f;

	swstm_sizes_parse(&sizes, "16");
	while ((opt = getopt(argc, argv, "m:c:t:s:n:f:lke:oT:")) != -1) {
		switch (opt) {
		case 'm': want_m = strtoll(optarg, NULL, 0); break;
		case 'c': want_c = strtoll(optarg, NULL, 0); break;
		case 't': tags = optarg; break;
		case 's':
			if (swstm_sizes_parse(&sizes, optarg)) {
				fprintf(stderr, "bad sizes %s\n", optarg);
				return 2;
			}
			break;
		case 'n': count = strtoul(optarg, NULL, 0); break;
		case 'f': first = strtoul(optarg, NULL, 0); break;
		case 'l': lossy = 1; break;
		case 'k': need_last = 1; break;
		case 'o': per_chan = 1; break;
		case 'e': min_seen = strtoul(optarg, NULL, 0); break;
		case 'T':
			if (sscanf(optarg, "%llu:%llu", &t0, &t1) != 2)
				return 2;
			break;
		default: return 2;
		}
	}
	if (per_chan && lossy) {
		fprintf(stderr, "swstm_check: -o is not for -l\n");
		return 2;
	}
	f = open_input(argc, argv, "r");
	if (!f)
		return 2;
	ntags = (int)strlen(tags);
	if (ntags > MAX_TAGS)
		return 2;
	for (i = 0; i < ntags; i++) {
		ts[i].tag = (unsigned char)tags[i];
		ts[i].last = (long long)first - 1;
		ts[i].seen = 0;
	}

	while (fgets(line, sizeof(line), f)) {
		unsigned long long m, c, len, t;
		char kind[32];
		unsigned char tag;
		unsigned long seq;
		struct tagstate *st = NULL;
		struct chanstate *cs;
		size_t size;
		int n, has_ts, fragment;

		if (json_str(line, "kind", kind, sizeof(kind)))
			continue;
		if (!strcmp(kind, "loss")) {
			tl_loss(json_num(line, "count", &t) ? 0 : t);
			loss_epoch++;
			continue;
		}
		if (strcmp(kind, "msg"))
			continue;
		if (json_num(line, "master", &m) || json_num(line, "channel", &c)) {
			failf("msg without master/channel: %.200s", line);
			continue;
		}
		if ((want_m >= 0 && (long long)m != want_m) ||
		    (want_c >= 0 && (long long)c != want_c)) {
			other++;
			continue;
		}
		msgs++;
		cs = chan_get((unsigned int)m, (unsigned int)c);
		if (!cs) {
			failf("too many channels");
			break;
		}
		fragment = lossy && cs->epoch != loss_epoch;
		cs->epoch = loss_epoch;
		if (!json_true(line, "complete")) {
			incomplete++;
			if (!lossy)
				failf("incomplete message on %llu/%llu: %.200s",
				      m, c, line);
			continue;
		}
		if (json_str(line, "data", hex, sizeof(hex)) ||
		    (n = unhex(hex, data, sizeof(data))) < 0) {
			failf("bad data in %.200s", line);
			continue;
		}
		if (!json_num(line, "len", &len) && len != (unsigned long long)n)
			failf("len %llu but %d data bytes", len, n);

		if (!swstm_msg_header(data, (size_t)n, &tag, &seq)) {
			for (i = 0; i < ntags; i++)
				if (ts[i].tag == tag)
					st = &ts[i];
		} else if (ntags == 1 && !lossy) {
			st = &ts[0];
			seq = (unsigned long)(st->last + 1);
		} else if (per_chan) {
			st = chan_writer(cs, ts, ntags, bound, &sizes, data,
					 (size_t)n);
			if (st)
				seq = (unsigned long)(st->last + 1);
		}
		size = st ? swstm_sizes_get(&sizes, seq) : 0;
		if (st)
			swstm_msg_fill(want, size, st->tag, seq);
		if (!st || (size_t)n != size || memcmp(want, data, size)) {
			if (fragment) {
				incomplete++;
				continue;
			}
			if (!st)
				failf("unidentifiable %d-byte message on %llu/%llu: %.80s",
				      n, m, c, hex);
			else
				failf("tag %c message %lu: %d bytes, expected %zu, contents %s",
				      st->tag, seq, n, size,
				      (size_t)n == size ? "differ" : "-");
			continue;
		}

		if (per_chan && cs->tag < 0) {
			if (bound[st - ts])
				failf("tag %c on two channels (then %llu/%llu)",
				      st->tag, m, c);
			bound[st - ts] = 1;
			cs->tag = (int)(st - ts);
		} else if (per_chan && cs->tag != st - ts) {
			failf("tag %c message %lu on %llu/%llu, tag %c's channel",
			      st->tag, seq, m, c, ts[cs->tag].tag);
		}
		if (lossy ? (long long)seq <= st->last :
			    (long long)seq != st->last + 1)
			failf("tag %c: message %lu after %lld", st->tag, seq,
			      st->last);
		if (seq < first || seq >= first + count)
			failf("tag %c: message %lu out of range", st->tag, seq);
		st->last = (long long)seq;
		st->seen++;
		tl_msg(st->tag, seq);

		has_ts = !json_num(line, "ts", &t);
		if (has_ts) {
			if (t < cs->ts)
				failf("timestamp went back on %llu/%llu: %llu after %llu",
				      m, c, t, cs->ts);
			cs->ts = t;
			if (t < t0 || t > t1)
				failf("timestamp %llu outside [%llu, %llu]", t, t0, t1);
		}
	}
	fclose(f);
	tl_flush();

	for (i = 0; i < ntags; i++) {
		struct tagstate *st = &ts[i];

		if (!lossy && st->seen != count)
			failf("tag %c: %lu messages, expected %lu", st->tag,
			      st->seen, count);
		if (need_last && st->last != (long long)(first + count) - 1)
			failf("tag %c: last message %lld, expected %lu", st->tag,
			      st->last, first + count - 1);
		if (st->seen < min_seen)
			failf("tag %c: %lu messages, expected at least %lu",
			      st->tag, st->seen, min_seen);
	}
	if (failures)
		return 1;
	printf("OK\nmsgs=%lu incomplete=%lu other=%lu", msgs, incomplete, other);
	for (i = 0; i < ntags; i++)
		printf(" %c=%lu", ts[i].tag, ts[i].seen);
	printf("\ntimeline=%s\n", timeline);
	return 0;
}

static int do_text(int argc, char **argv)
{
	long long want_m = -1, want_c = -1;
	static char line[65536], hex[16384];
	static unsigned char data[8192];
	unsigned long long m, c;
	char kind[32];
	int opt, n, i;
	FILE *f;

	while ((opt = getopt(argc, argv, "m:c:")) != -1) {
		switch (opt) {
		case 'm': want_m = strtoll(optarg, NULL, 0); break;
		case 'c': want_c = strtoll(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	f = open_input(argc, argv, "r");
	if (!f)
		return 2;
	while (fgets(line, sizeof(line), f)) {
		if (json_str(line, "kind", kind, sizeof(kind)) ||
		    strcmp(kind, "msg") || !json_true(line, "complete") ||
		    json_num(line, "master", &m) || json_num(line, "channel", &c) ||
		    (want_m >= 0 && (long long)m != want_m) ||
		    (want_c >= 0 && (long long)c != want_c) ||
		    json_str(line, "data", hex, sizeof(hex)) ||
		    (n = unhex(hex, data, sizeof(data))) < 0)
			continue;
		for (i = 0; i < n; i++) {
			if (data[i] >= 0x20 && data[i] < 0x7f && data[i] != '\\')
				putchar(data[i]);
			else
				printf("\\x%02x", data[i]);
		}
		putchar('\n');
	}
	fclose(f);
	return 0;
}

static int do_losses(int argc, char **argv)
{
	static char line[65536];
	unsigned long long markers = 0, lost = 0, n;
	char kind[32];
	FILE *f;

	optind = 1;
	f = open_input(argc, argv, "r");
	if (!f)
		return 2;
	while (fgets(line, sizeof(line), f)) {
		if (json_str(line, "kind", kind, sizeof(kind)) ||
		    strcmp(kind, "loss"))
			continue;
		markers++;
		if (!json_num(line, "count", &n))
			lost += n;
	}
	fclose(f);
	printf("markers=%llu lost=%llu\n", markers, lost);
	return 0;
}

/* ---- sync -------------------------------------------------------------- */

static unsigned char *raw;
static size_t rawlen;

static int nib(size_t i)
{
	unsigned char b = raw[i / 2];

	return i % 2 ? b >> 4 : b & 0xf;
}

/* @n nibbles from nibble @i, most significant first */
static unsigned long long nibs(size_t i, int n)
{
	unsigned long long v = 0;

	while (n--)
		v = v << 4 | (unsigned long long)nib(i++);
	return v;
}

static int do_sync(int argc, char **argv)
{
	/* VERSION 3 (f00 3), FREQ (f08) of 1000000000 = 0x3b9aca00 */
	static const unsigned char ver_freq[] = {
		0xf, 0, 0, 3, 0xf, 0, 8, 3, 0xb, 9, 0xa, 0xc, 0xa, 0, 0,
	};
	const int nvf = (int)sizeof(ver_freq);
	unsigned long interval = 0, syncs = 0;
	size_t i, nn, run = 0, prev = 0;
	int opt, k;
	FILE *f;

	while ((opt = getopt(argc, argv, "i:")) != -1) {
		if (opt != 'i')
			return 2;
		interval = strtoul(optarg, NULL, 0);
	}
	f = open_input(argc, argv, "rb");
	if (!f)
		return 2;
	raw = malloc(64 << 20);
	if (!raw)
		return 2;
	rawlen = fread(raw, 1, 64 << 20, f);
	fclose(f);
	nn = rawlen * 2;
	if (!rawlen) {
		failf("empty stream");
		return 1;
	}

	for (i = 0; i < nn; i++) {
		int v = nib(i);
		size_t start, pos;

		if (v == 0xf) {
			run++;
			continue;
		}
		if (v != 0 || run < 21) {
			run = 0;
			continue;
		}
		/*
		 * ASYNC: 21 F nibbles and a 0 (ending at nibble i); more F
		 * nibbles before them belong to the previous packet.  Ours
		 * are byte aligned: ff x 10, 0f.
		 */
		start = i - 21;
		run = 0;
		if (start % 2)
			failf("ASYNC at nibble %zu is not byte aligned", start);
		pos = start / 2;
		if (!syncs && pos)
			failf("stream starts with %zu bytes before ASYNC", pos);
		if (syncs && interval &&
		    (pos - prev < interval || pos - prev > interval + PKT_SLACK))
			failf("ASYNC at byte %zu, %zu bytes after the previous one (interval %lu)",
			      pos, pos - prev, interval);
		if (i + 1 + (size_t)nvf > nn) {
			failf("stream ends inside a sync at byte %zu", pos);
			break;
		}
		for (k = 0; k < nvf; k++)
			if (nib(i + 1 + (size_t)k) != ver_freq[k])
				break;
		if (k < nvf)
			failf("ASYNC at byte %zu not followed by VERSION 3, FREQ 1000000000 (%015llx)",
			      pos, nibs(i + 1, nvf));
		prev = pos;
		syncs++;
	}
	if (interval && syncs && rawlen - prev > interval + PKT_SLACK + 64)
		failf("no ASYNC in the last %zu bytes (interval %lu)",
		      rawlen - prev, interval);
	if (failures)
		return 1;
	printf("OK\nsyncs=%lu\n", syncs);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: swstm_check msgs|text|losses|sync ...\n");
		return 2;
	}
	if (!strcmp(argv[1], "msgs"))
		return do_msgs(argc - 1, argv + 1);
	if (!strcmp(argv[1], "text"))
		return do_text(argc - 1, argv + 1);
	if (!strcmp(argv[1], "losses"))
		return do_losses(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sync"))
		return do_sync(argc - 1, argv + 1);
	fprintf(stderr, "unknown command %s\n", argv[1]);
	return 2;
}
