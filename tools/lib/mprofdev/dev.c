// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * dev.c - libmprofdev's instance: start and stop, the waits a program
 * uses to follow the host, and the writer thread, which reads 12-byte
 * commands from the fd (resynchronising on a bad checksum), answers
 * them, and while profiling drains the ring into PROFILE_DATA packets.
 * STOP drains every record already in the ring before its ACK.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dev_internal.h"

_Atomic(struct mprofdev *) mprofdev__active;

/* write everything, waiting for room; a dead line drops the data */
static NO_INSTR void write_all(struct mprofdev *d, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(d->cfg.fd, p, n);

		if (w > 0) {
			p += w;
			n -= (size_t)w;
		} else if (w < 0 && errno == EINTR) {
			continue;
		} else if (w < 0 && errno == EAGAIN) {
			struct pollfd pf = { .fd = d->cfg.fd, .events = POLLOUT };

			if (poll(&pf, 1, 1000) <= 0 ||
			    atomic_load(&d->quit))
				return;
		} else {
			return;
		}
	}
}

static NO_INSTR void respond(struct mprofdev *d, uint8_t type,
			     const uint8_t *payload, size_t len)
{
	size_t n = mprof_rsp_encode(d->out, d->outcap, type, payload, len);

	if (n)
		write_all(d, d->out, n);
}

static NO_INSTR void notify(struct mprofdev *d)
{
	pthread_mutex_lock(&d->lock);
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
}

/* send (or, discard, drop) every record in the ring */
static NO_INSTR void drain(struct mprofdev *d, int discard)
{
	unsigned int max = d->cfg.records_per_packet;
	uint8_t *pl = d->out + MPROF_RSP_HDR;
	struct mprof_record r;
	unsigned int n = 0, total = 0;

	for (;;) {
		int got = !ring_pop(&d->ring, &r);

		if (got && !discard)
			mprof_record_put(pl + MPROF_PROFILE_HDR_LEN +
					 (size_t)n++ * MPROF_RECORD_LEN, &r);
		total += (unsigned int)got;
		if (n && (n == max || !got)) {
			pl[0] = MPROF_PROTO_VERSION;
			mprof_put16(pl + 1, (uint16_t)n);
			respond(d, MPROF_RSP_PROFILE_DATA, pl,
				MPROF_PROFILE_HDR_LEN + (size_t)n * MPROF_RECORD_LEN);
			n = 0;
		}
		if (!got)
			break;
	}
	if (total) {
		atomic_fetch_add(&d->done, total);
		notify(d);
	}
}

static NO_INSTR void status(struct mprofdev *d)
{
	struct mprof_status s;
	uint8_t pl[MPROF_STATUS_LEN];
	size_t used = ring_used(&d->ring), size = d->ring.mask + 1;

	s.is_profiling = (uint8_t)atomic_load(&d->profiling);
	s.buffer_overflows = atomic_load(&d->overflows);
	s.records_captured = atomic_load(&d->captured);
	s.buffer_usage_percent = (uint8_t)(used >= size ? 100 : used * 100 / size);
	mprof_status_put(pl, &s);
	respond(d, MPROF_RSP_STATUS, pl, sizeof(pl));
}

static NO_INSTR void command(struct mprofdev *d, const uint8_t *c)
{
	uint8_t pl[MPROF_METADATA_LEN];

	switch (c[1]) {
	case MPROF_CMD_GET_METADATA:
		mprof_metadata_put(pl, &d->meta);
		respond(d, MPROF_RSP_METADATA, pl, MPROF_METADATA_LEN);
		return;
	case MPROF_CMD_START:
		atomic_store(&d->profiling, 1);
		respond(d, MPROF_RSP_ACK, NULL, 0);
		break;
	case MPROF_CMD_STOP:
		atomic_store(&d->profiling, 0);
		drain(d, 0);
		respond(d, MPROF_RSP_ACK, NULL, 0);
		break;
	case MPROF_CMD_GET_STATUS:
		status(d);
		return;
	case MPROF_CMD_RESET:
		drain(d, 1);
		atomic_store(&d->overflows, 0);
		respond(d, MPROF_RSP_ACK, NULL, 0);
		break;
	case MPROF_CMD_SET_CONFIG:	/* reserved: accepted, ignored */
		respond(d, MPROF_RSP_ACK, NULL, 0);
		return;
	default:
		respond(d, MPROF_RSP_NACK, NULL, 0);
		return;
	}
	notify(d);
}

/* assemble commands from the bytes read; skip to the next 55 after a
 * bad one */
static NO_INSTR void input(struct mprofdev *d, const uint8_t *p, size_t n)
{
	while (n--) {
		uint8_t b = *p++;

		if (!d->cmdlen && b != MPROF_CMD_SYNC)
			continue;
		d->cmd[d->cmdlen++] = b;
		while (d->cmdlen == MPROF_CMD_LEN) {
			const uint8_t *s;

			if (mprof_cmd_valid(d->cmd)) {
				command(d, d->cmd);
				d->cmdlen = 0;
				break;
			}
			s = memchr(d->cmd + 1, MPROF_CMD_SYNC, MPROF_CMD_LEN - 1);
			d->cmdlen = s ? (unsigned int)(d->cmd + MPROF_CMD_LEN - s) : 0;
			if (s)
				memmove(d->cmd, s, d->cmdlen);
		}
	}
}

NO_INSTR void *mprofdev__writer(void *arg)
{
	struct mprofdev *d = arg;
	uint8_t buf[256];

	while (!atomic_load(&d->quit)) {
		struct pollfd pf[2] = {
			{ .fd = d->cfg.fd, .events = POLLIN },
			{ .fd = d->wake[0], .events = POLLIN },
		};
		int busy = atomic_load(&d->profiling);

		if (poll(pf, 2, busy ? 2 : 20) < 0 && errno != EINTR)
			break;
		if (pf[1].revents)
			break;
		if (pf[0].revents & POLLIN) {
			ssize_t r = read(d->cfg.fd, buf, sizeof(buf));

			if (r > 0) {
				atomic_store(&d->peer, 1);
				input(d, buf, (size_t)r);
			}
			else if (r == 0 || (errno != EINTR && errno != EAGAIN))
				pf[0].revents = POLLHUP;
		}
		if (pf[0].revents & (POLLHUP | POLLERR | POLLNVAL) &&
		    !(pf[0].revents & POLLIN)) {
			/* no peer (yet): a pty master before its slave is
			 * opened, a closed line; look again shortly */
			struct pollfd w = { .fd = d->wake[0], .events = POLLIN };

			if (atomic_load(&d->peer) && !atomic_load(&d->hangup)) {
				atomic_store(&d->hangup, 1);
				notify(d);
			}

			if (poll(&w, 1, 20) > 0)
				break;
		}
		if (atomic_load(&d->profiling) && !d->cfg.burst)
			drain(d, 0);
	}
	atomic_store(&d->quit, 1);
	notify(d);
	return NULL;
}

NO_INSTR struct mprofdev *mprofdev_start(const struct mprofdev_config *cfg,
					 int *err)
{
	struct mprofdev *d = calloc(1, sizeof(*d)), *none = NULL;
	unsigned int order = cfg->ring_order ? cfg->ring_order : 14;

	*err = ENOMEM;
	if (!d)
		return NULL;
	d->cfg = *cfg;
	if (!d->cfg.records_per_packet)
		d->cfg.records_per_packet = 20;
	if (d->cfg.records_per_packet > MPROF_MAX_RECORDS)
		d->cfg.records_per_packet = MPROF_MAX_RECORDS;
	if (order > 24)
		order = 24;
	d->outcap = MPROF_RSP_OVERHEAD + MPROF_PROFILE_HDR_LEN +
		    (size_t)d->cfg.records_per_packet * MPROF_RECORD_LEN;
	d->out = malloc(d->outcap);
	if (!d->out || ring_init(&d->ring, order)) {
		free(d->out);
		free(d);
		return NULL;
	}
	d->meta.mcu_clock_hz = cfg->mcu_clock_hz;
	d->meta.timer_freq = 1000000;
	d->meta.elf_build_id = cfg->build_id ? cfg->build_id :
			       mprofdev__text_crc();
	strncpy(d->meta.fw_version, cfg->fw_version ? cfg->fw_version : "",
		MPROF_FW_VERSION_LEN - 1);
	d->bias = mprofdev__bias();
	d->t0_us = mprofdev__now_us();
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->cond, NULL);
	if (pipe(d->wake)) {
		*err = errno;
		goto fail;
	}
	if (!atomic_compare_exchange_strong(&mprofdev__active, &none, d)) {
		*err = EBUSY;
		goto fail_pipe;
	}
	*err = pthread_create(&d->thread, NULL, mprofdev__writer, d);
	if (*err) {
		atomic_store(&mprofdev__active, NULL);
		goto fail_pipe;
	}
	return d;
fail_pipe:
	close(d->wake[0]);
	close(d->wake[1]);
fail:
	pthread_cond_destroy(&d->cond);
	pthread_mutex_destroy(&d->lock);
	ring_free(&d->ring);
	free(d->out);
	free(d);
	return NULL;
}

/* wait until cond(d) holds or the writer thread has ended */
static NO_INSTR int wait_for(struct mprofdev *d, int (*cond)(struct mprofdev *, int),
			     int arg)
{
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	while (!cond(d, arg)) {
		struct timespec ts;

		if (atomic_load(&d->quit)) {
			ret = -1;
			break;
		}
		/* a timed wait: the writer's notify may race with the check */
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&d->cond, &d->lock, &ts);
	}
	pthread_mutex_unlock(&d->lock);
	return ret;
}

static NO_INSTR int is_profiling(struct mprofdev *d, int on)
{
	return atomic_load(&d->profiling) == on;
}

static NO_INSTR int all_sent(struct mprofdev *d, int captured)
{
	return (int)(atomic_load(&d->done) - (unsigned int)captured) >= 0;
}

NO_INSTR int mprofdev_wait(struct mprofdev *d, int on)
{
	return wait_for(d, is_profiling, !!on);
}

static NO_INSTR int hung_up(struct mprofdev *d, int unused)
{
	(void)unused;
	return atomic_load(&d->hangup);
}

NO_INSTR int mprofdev_wait_hangup(struct mprofdev *d)
{
	return wait_for(d, hung_up, 0);
}

NO_INSTR void mprofdev_flush(struct mprofdev *d)
{
	wait_for(d, all_sent, (int)atomic_load(&d->captured));
}

NO_INSTR void mprofdev_stop(struct mprofdev *d)
{
	if (!d)
		return;
	atomic_store(&d->profiling, 0);
	atomic_store(&d->quit, 1);
	if (write(d->wake[1], "", 1) < 0) {
		/* the thread also sees quit at its next poll timeout */
	}
	pthread_join(d->thread, NULL);
	atomic_store(&mprofdev__active, NULL);
	close(d->wake[0]);
	close(d->wake[1]);
	pthread_cond_destroy(&d->cond);
	pthread_mutex_destroy(&d->lock);
	ring_free(&d->ring);
	free(d->out);
	free(d);
}
