// SPDX-License-Identifier: GPL-2.0
/*
 * ctx_check: check the messages of stm_ctx_test in mttdecode's JSON output.
 *
 *   mttdecode --format json FILE | ctx_check [OPTIONS] [JSONFILE|-]
 *
 *   -m FIRST-LAST  messages of stm_ctx_test must be on these masters
 *   -x MASTER      messages on MASTER are someone else's: skip them
 *                  (repeatable, up to 16)
 *   -W WIDTH       the source's channel count (default 32): its channels
 *                  start at a multiple of WIDTH, so a message of context
 *                  index K (P S H F N = 0..4) from CPU C must be on a
 *                  channel with channel % WIDTH == K * CPUS + C; 0: no check
 *   -C CPUS        CPUs per context in that layout (default 4); also the
 *                  limit on <cpu>
 *   -n L=MIN       at least MIN messages of context letter L (repeatable)
 *   -0             each (context, CPU) starts at sequence number 0 (unless
 *                  a loss came first)
 *   -z             no loss at all: any loss record fails
 *   -v             also print one line per (context, CPU)
 *
 * Every message not skipped must be "<ctx>:<cpu>:<seq>" (ctx one of
 * P S H F N, decimal numbers without leading zeros).  stm_ctx_test
 * numbers the messages that went out per (context, CPU), so for each
 * (context, CPU) the numbers must rise by exactly one, except across a
 * loss record.  Losses must be GERR (the sink's marker for dropped
 * packets): desync, truncation or MERR mean a corrupted stream.  A loss
 * ends the messages open at that point as incomplete (mttdecode prints
 * them just before the loss record) and the rest of such a message comes
 * after the loss without its timestamp: those two are accepted there, and
 * only there.  Timestamps going back within a (context, CPU) are counted
 * (ts_back) but not a failure.
 *
 * Prints one line per context ("P: msgs=N cpus=C gaps=G missing=M"), a
 * summary line, then "OK" or "FAIL" and the first failures.  Exit 0 iff
 * OK; 1 on failure; 2 on bad usage or unreadable input.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NCTX		5
#define MAX_CPUS	64
#define MAX_SKIP	16
#define MAX_MSG		64	/* longest message of ours, bytes */
#define CHAN_HASH	4096	/* master/channel pairs tracked */

static const char letters[NCTX + 1] = "PSHFN";

struct key {
	int seen;
	unsigned long long last;	/* last sequence number */
	unsigned long long first;
	unsigned long long msgs;
	unsigned long long gaps, missing;
	unsigned long long epoch;	/* loss count when last seen */
	unsigned long long ts;		/* its timestamp */
};

struct chan {
	int used;
	uint32_t id;			/* master << 16 | channel */
	unsigned long long epoch;	/* loss count at its last message */
	int seen;
};

static struct key keys[NCTX][MAX_CPUS];
static struct chan chans[CHAN_HASH];

static long m_first = -1, m_last = -1;
static long skip[MAX_SKIP];
static int nskip;
static unsigned int width = 32, ncpus = 4;
static unsigned long long need[NCTX];
static int from_zero, no_loss, verbose;

static unsigned long long lineno, losses, lost, other, fragments;
static unsigned long long incomplete, ts_back, total;
static unsigned long long pend_incomplete, pend_line;
static int failures;

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
	va_list ap;

	if (++failures > 20)
		return;
	printf("FAIL: line %llu: ", lineno);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Incomplete messages seen and not followed by a loss record: a failure. */
static void pend_fail(const char *why)
{
	unsigned long long here = lineno;

	if (!pend_incomplete)
		return;
	lineno = pend_line;
	failf("%s (%llu of them)", why, pend_incomplete);
	lineno = here;
	pend_incomplete = 0;
}

/* ---- flat JSON objects (mttdecode's, one per line) -------------------- */

/* The text after "KEY": in LINE, or NULL. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *p = line;

	while ((p = strchr(p, '"'))) {
		if (!strncmp(p + 1, key, n) && p[n + 1] == '"' && p[n + 2] == ':')
			return p + n + 3;
		p++;
	}
	return NULL;
}

/* An unsigned number field; -1 if absent or not a number. */
static long long num(const char *line, const char *key)
{
	const char *p = field(line, key);
	char *end;
	unsigned long long v;

	if (!p || !isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (errno || v > INT64_MAX)
		return -1;
	return (long long)v;
}

/* A string field copied into BUF (no escapes expected); 0 if found. */
static int str(const char *line, const char *key, char *buf, size_t size)
{
	const char *p = field(line, key), *q;

	if (!p || *p != '"')
		return -1;
	q = strchr(p + 1, '"');
	if (!q || (size_t)(q - p - 1) >= size)
		return -1;
	memcpy(buf, p + 1, (size_t)(q - p - 1));
	buf[q - p - 1] = 0;
	return 0;
}

static int is_true(const char *line, const char *key)
{
	const char *p = field(line, key);

	return p && !strncmp(p, "true", 4);
}

static int is_null(const char *line, const char *key)
{
	const char *p = field(line, key);

	return p && !strncmp(p, "null", 4);
}

/* ---- channels ------------------------------------------------------------ */

static struct chan *chan_of(unsigned int master, unsigned int channel)
{
	uint32_t id = (uint32_t)master << 16 | channel;
	unsigned int i = (id * 2654435761u) % CHAN_HASH, n;

	for (n = 0; n < CHAN_HASH; n++, i = (i + 1) % CHAN_HASH) {
		if (!chans[i].used) {
			chans[i].used = 1;
			chans[i].id = id;
			return &chans[i];
		}
		if (chans[i].id == id)
			return &chans[i];
	}
	fprintf(stderr, "ctx_check: more than %d channels\n", CHAN_HASH);
	exit(2);
}

/* ---- one message --------------------------------------------------------- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Decimal without leading zeros, the whole of [p, end); -1 if not. */
static int decimal(const char *p, const char *end, unsigned long long *v)
{
	if (p == end || (*p == '0' && end - p > 1) || end - p > 19)
		return -1;
	*v = 0;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		*v = *v * 10 + (unsigned long long)(*p - '0');
	}
	return 0;
}

/* Parse "<ctx>:<cpu>:<seq>"; 0 if it is one. */
static int parse_msg(const char *s, size_t len, int *ctx, unsigned int *cpu,
		     unsigned long long *seq)
{
	const char *end = s + len, *c1, *c2, *l;
	unsigned long long v;

	if (len < 5 || s[1] != ':')
		return -1;
	l = strchr(letters, s[0]);
	if (!s[0] || !l)
		return -1;
	*ctx = (int)(l - letters);
	c1 = s + 1;
	c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1));
	if (!c2 || decimal(c1 + 1, c2, &v) || v >= ncpus)
		return -1;
	*cpu = (unsigned int)v;
	return decimal(c2 + 1, end, seq);
}

static void show(char *out, size_t size, const unsigned char *b, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n && o + 5 < size; i++) {
		if (b[i] >= 0x20 && b[i] < 0x7f && b[i] != '\\')
			out[o++] = (char)b[i];
		else
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", b[i]);
	}
	out[o] = 0;
}

static int skipped(long master)
{
	int i;

	for (i = 0; i < nskip; i++)
		if (skip[i] == master)
			return 1;
	return 0;
}

static void message(const char *line)
{
	long long master = num(line, "master"), channel = num(line, "channel");
	long long len = num(line, "len"), ts = num(line, "ts");
	unsigned char data[MAX_MSG];
	char hex[2 * MAX_MSG + 1], shown[4 * MAX_MSG + 1];
	unsigned long long seq;
	unsigned int cpu, i;
	struct chan *ch;
	struct key *k;
	int ctx;

	if (master < 0 || channel < 0 || master > 65535 || channel > 65535 ||
	    len < 0 || (ts < 0 && !is_null(line, "ts"))) {
		failf("bad msg record: %s", line);
		return;
	}
	total++;
	if (!is_true(line, "complete")) {
		/* fine only if a loss record follows: see loss() */
		incomplete++;
		if (!pend_incomplete++)
			pend_line = lineno;
		return;
	}
	pend_fail("incomplete message not ended by a loss");
	if (skipped(master)) {
		other++;
		return;
	}
	ch = chan_of((unsigned int)master, (unsigned int)channel);
	if (ts < 0) {
		/* the tail of a message whose head came before a loss */
		if (losses == 0 || (ch->seen && ch->epoch == losses))
			failf("m%lld c%lld: message without a timestamp, no loss before",
			      master, channel);
		fragments++;
		ch->seen = 1;
		ch->epoch = losses;
		return;
	}
	ch->seen = 1;
	ch->epoch = losses;

	if (len > MAX_MSG || str(line, "data", hex, sizeof(hex)) ||
	    strlen(hex) != (size_t)len * 2) {
		failf("m%lld c%lld: not a message of ours (%lld bytes)", master,
		      channel, len);
		return;
	}
	for (i = 0; i < (unsigned int)len; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			failf("m%lld c%lld: bad hex data", master, channel);
			return;
		}
		data[i] = (unsigned char)(hi << 4 | lo);
	}
	if (parse_msg((const char *)data, (size_t)len, &ctx, &cpu, &seq)) {
		show(shown, sizeof(shown), data, (size_t)len);
		failf("m%lld c%lld: malformed message \"%s\"", master, channel,
		      shown);
		return;
	}
	if (m_first >= 0 && (master < m_first || master > m_last))
		failf("%c:%u:%llu on master %lld, outside %ld-%ld",
		      letters[ctx], cpu, seq, master, m_first, m_last);
	if (width && (unsigned long long)channel % width !=
	    (unsigned long long)ctx * ncpus + cpu)
		failf("%c:%u:%llu on channel %lld: not channel %u of the source",
		      letters[ctx], cpu, seq, channel, ctx * ncpus + cpu);

	k = &keys[ctx][cpu];
	if (!k->seen) {
		if (from_zero && seq != 0 && losses == 0)
			failf("%c:%u starts at %llu, not 0, no loss before",
			      letters[ctx], cpu, seq);
		k->seen = 1;
		k->first = seq;
	} else if (seq <= k->last) {
		failf("%c:%u:%llu after %llu: %s", letters[ctx], cpu, seq,
		      k->last, seq == k->last ? "repeated" : "went back");
	} else if (seq != k->last + 1) {
		if (k->epoch == losses)
			failf("%c:%u:%llu after %llu: %llu missing, no loss between",
			      letters[ctx], cpu, seq, k->last, seq - k->last - 1);
		k->gaps++;
		k->missing += seq - k->last - 1;
	}
	if (k->msgs && (unsigned long long)ts < k->ts)
		ts_back++;
	if (seq > k->last || !k->msgs)
		k->last = seq;
	k->ts = (unsigned long long)ts;
	k->epoch = losses;
	k->msgs++;
}

static void loss(const char *line)
{
	char reason[32];
	long long count = num(line, "count");

	if (str(line, "reason", reason, sizeof(reason))) {
		failf("bad loss record: %s", line);
		return;
	}
	pend_incomplete = 0;
	losses++;
	if (count > 0)
		lost += (unsigned long long)count;
	if (strcmp(reason, "gerr"))
		failf("loss of kind %s (stream corrupted): %s", reason, line);
	else if (no_loss)
		failf("loss of %lld packets (-z: none expected)", count);
}

static void record(const char *line)
{
	char kind[32];

	if (str(line, "kind", kind, sizeof(kind))) {
		failf("not a JSON record: %s", line);
		return;
	}
	if (!strcmp(kind, "msg")) {
		message(line);
		return;
	}
	if (!strcmp(kind, "loss")) {
		loss(line);
		return;
	}
	pend_fail("incomplete message not ended by a loss");
	if (strcmp(kind, "sync") && strcmp(kind, "version") &&
	    strcmp(kind, "freq") && strcmp(kind, "packet"))
		failf("unknown record kind %s", kind);
}

/* ---- options and report -------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: ctx_check [-m FIRST-LAST] [-x MASTER]... [-W WIDTH] [-C CPUS]\n"
		"                 [-n L=MIN]... [-0] [-z] [-v] [JSONFILE|-]\n");
	exit(2);
}

static unsigned long opt_num(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end)
		usage();
	return v;
}

static void report(void)
{
	unsigned long long msgs, gaps, missing;
	unsigned int c, cpu, cpus;
	int ctx;

	for (ctx = 0; ctx < NCTX; ctx++) {
		msgs = gaps = missing = 0;
		cpus = 0;
		for (cpu = 0; cpu < ncpus; cpu++) {
			struct key *k = &keys[ctx][cpu];

			if (!k->seen)
				continue;
			cpus++;
			msgs += k->msgs;
			gaps += k->gaps;
			missing += k->missing;
			if (verbose)
				printf("  %c:%u msgs=%llu seq=%llu-%llu gaps=%llu missing=%llu\n",
				       letters[ctx], cpu, k->msgs, k->first,
				       k->last, k->gaps, k->missing);
		}
		printf("%c: msgs=%llu cpus=%u gaps=%llu missing=%llu\n",
		       letters[ctx], msgs, cpus, gaps, missing);
		if (msgs < need[ctx]) {
			c = (unsigned int)ctx;
			printf("FAIL: %c: %llu messages, at least %llu wanted\n",
			       letters[c], msgs, need[c]);
			failures++;
		}
	}
	printf("records=%llu msgs=%llu other=%llu incomplete=%llu fragments=%llu losses=%llu lost=%llu ts_back=%llu\n",
	       lineno, total, other, incomplete, fragments, losses, lost,
	       ts_back);
	if (failures > 20)
		printf("FAIL: ... %d failures in all\n", failures);
	printf("%s\n", failures ? "FAIL" : "OK");
}

int main(int argc, char **argv)
{
	char *line = NULL, *l;
	size_t cap = 0;
	ssize_t n;
	FILE *in = stdin;
	int opt;

	while ((opt = getopt(argc, argv, "m:x:W:C:n:0zv")) != -1) {
		switch (opt) {
		case 'm':
			if (sscanf(optarg, "%ld-%ld", &m_first, &m_last) != 2 ||
			    m_first < 0 || m_last < m_first)
				usage();
			break;
		case 'x':
			if (nskip == MAX_SKIP)
				usage();
			skip[nskip++] = (long)opt_num(optarg);
			break;
		case 'W':
			width = (unsigned int)opt_num(optarg);
			break;
		case 'C':
			ncpus = (unsigned int)opt_num(optarg);
			if (!ncpus || ncpus > MAX_CPUS)
				usage();
			break;
		case 'n':
			l = strchr(letters, optarg[0]);
			if (!optarg[0] || !l || optarg[1] != '=')
				usage();
			need[l - letters] = opt_num(optarg + 2);
			break;
		case '0':
			from_zero = 1;
			break;
		case 'z':
			no_loss = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (optind + 1 < argc)
		usage();
	if (optind < argc && strcmp(argv[optind], "-")) {
		in = fopen(argv[optind], "r");
		if (!in) {
			fprintf(stderr, "ctx_check: %s: %s\n", argv[optind],
				strerror(errno));
			return 2;
		}
	}
	while ((n = getline(&line, &cap, in)) > 0) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (n)
			record(line);
	}
	if (ferror(in)) {
		fprintf(stderr, "ctx_check: read error\n");
		return 2;
	}
	pend_fail("incomplete message at the end of the stream");
	free(line);
	report();
	return failures ? 1 : 0;
}
