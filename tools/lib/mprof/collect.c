// SPDX-License-Identifier: GPL-2.0
/*
 * collect.c - a stream of MiniProfiler responses taken into a profile:
 * the parser's packets are decoded (METADATA, STATUS, PROFILE_DATA with
 * its version and record count checked; ACK/NACK counted) and records
 * and TIME_SYNC responses added; the caller's callback then sees each event (to print it or to
 * warn).  Used live by mttprofile and on capture files by mttdecode.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mprof/mprof.h"

static void on_event(void *ctx, const struct mprof_event *ev)
{
	struct mprof_collect *c = ctx;
	int ret;

	if (ev->kind == MPROF_EV_PACKET) {
		c->last_type = ev->type;
		switch (ev->type) {
		case MPROF_RSP_ACK:
			c->acks++;
			break;
		case MPROF_RSP_NACK:
			c->nacks++;
			break;
		case MPROF_RSP_METADATA:
			if (mprof_metadata_get(&c->prof.meta, ev->payload, ev->len))
				c->bad_payload++;
			else
				c->prof.have_meta = 1;
			break;
		case MPROF_RSP_STATUS:
			if (mprof_status_get(&c->status, ev->payload, ev->len))
				c->bad_payload++;
			else
				c->have_status = 1;
			break;
		case MPROF_RSP_TIME_SYNC: {
			struct mprof_time_sync t;

			if (mprof_time_sync_get(&t, ev->payload, ev->len))
				c->bad_payload++;
			else if (mprof_profile_add_sync(&c->prof, &t,
							ev->offset +
							MPROF_RSP_OVERHEAD +
							ev->len))
				c->oom = 1;
			break;
		}
		case MPROF_RSP_PROFILE_DATA: {
			size_t before = c->prof.nrec;

			ret = mprof_profile_add_payload(&c->prof, ev->payload,
							ev->len);
			if (ret == -2)
				c->bad_version++;
			else if (ret == -1)
				c->bad_payload++;
			else if (ret == -3)
				c->oom = 1;
			c->records += c->prof.nrec - before;
			break;
		}
		}
	}
	if (c->fn)
		c->fn(c->ctx, ev);
}

int mprof_collect_init(struct mprof_collect *c, mprof_event_fn fn, void *ctx)
{
	memset(c, 0, sizeof(*c));
	mprof_profile_init(&c->prof);
	c->fn = fn;
	c->ctx = ctx;
	c->parser = mprof_parser_new(on_event, c, 0);
	return c->parser ? 0 : -1;
}

int mprof_collect_feed(struct mprof_collect *c, const uint8_t *buf, size_t n)
{
	if (mprof_parser_feed(c->parser, buf, n) || c->oom)
		return -1;
	return 0;
}

void mprof_collect_finish(struct mprof_collect *c)
{
	mprof_parser_finish(c->parser);
}

void mprof_collect_free(struct mprof_collect *c)
{
	mprof_parser_free(c->parser);
	mprof_profile_free(&c->prof);
	c->parser = NULL;
}

int mprof_collect_fd(struct mprof_collect *c, int fd)
{
	uint8_t buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (mprof_collect_feed(c, buf, (size_t)n)) {
			errno = ENOMEM;
			return -1;
		}
	}
	mprof_collect_finish(c);
	return 0;
}

int mprof_collect_file(struct mprof_collect *c, const char *path)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
	int ret, e;

	if (fd < 0)
		return -1;
	ret = mprof_collect_fd(c, fd);
	e = errno;
	if (fd != STDIN_FILENO)
		close(fd);
	errno = e;
	return ret;
}

int mprof_collect_synced(const struct mprof_collect *c)
{
	return mprof_parser_stats(c->parser)->packets != 0;
}

void mprof_collect_nothing(const struct mprof_collect *c, char *buf,
			   size_t n)
{
	const struct mprof_parser_stats *st = mprof_parser_stats(c->parser);
	size_t k;

	k = (size_t)snprintf(buf, n, "nothing synchronised in %llu bytes: no MiniProfiler packet (%llu bad bytes skipped looking for AA 55",
			     (unsigned long long)st->bytes,
			     (unsigned long long)st->garbage_bytes);
	if (k < n && st->crc_errors)
		k += (size_t)snprintf(buf + k, n - k, ", %llu CRC errors",
				      (unsigned long long)st->crc_errors);
	if (k < n && st->end_errors)
		k += (size_t)snprintf(buf + k, n - k, ", %llu bad end markers",
				      (unsigned long long)st->end_errors);
	if (k < n && st->truncated)
		k += (size_t)snprintf(buf + k, n - k, ", %llu packets cut short",
				      (unsigned long long)st->truncated);
	if (k < n)
		snprintf(buf + k, n - k, ")");
}
