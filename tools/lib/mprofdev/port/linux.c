// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * port/linux.c - libmprofdev on Linux (mprofdev.h): the core
 * (core.c) driven by a writer thread, which reads 12-byte commands from
 * the fd and writes what the core has ready (responses; while profiling,
 * the ring drained into PROFILE_DATA packets; STOP drains every record
 * already in the ring before its ACK), and the waits a program uses to
 * follow the host.  The hooks keep one stack per thread.  What the
 * library learns about the program it runs in: the main program's load
 * bias (so addresses sent are link-time addresses, which the host finds
 * in the ELF's symbol table) and the CRC32 of its .text as read from
 * /proc/self/exe (the build id the host checks the ELF against).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core.h"
#include "mprofdev/mprofdev.h"
#include "wire/crc.h"

/* one stack of entry times per thread */
static _Thread_local struct mprofdev_stack stack;

struct mprofdev {
	struct mprofdev_core core;
	struct mprofdev_config cfg;
	struct ring_slot *slots;
	atomic_int quit;
	atomic_int peer;	/* a byte was read: the host is there */
	atomic_int hangup;	/* ... and then the line hung up */
	int wake[2];		/* pipe: mprofdev_stop() wakes the thread */
	pthread_t thread;
	pthread_mutex_t lock;	/* with cond: state changes for waiters */
	pthread_cond_t cond;
	uint8_t *out;
};

NO_INSTR struct mprofdev_stack *mprofdev_port_stack(void)
{
	return &stack;
}

NO_INSTR uint32_t mprofdev_port_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)((uint64_t)ts.tv_sec * 1000000u +
			  (uint64_t)ts.tv_nsec / 1000u);
}

static NO_INSTR int first_object(struct dl_phdr_info *info, size_t size,
				 void *data)
{
	(void)size;
	*(uintptr_t *)data = (uintptr_t)info->dlpi_addr;
	return 1;	/* the first object is the main program */
}

static NO_INSTR uintptr_t load_bias(void)
{
	uintptr_t bias = 0;

	dl_iterate_phdr(first_object, &bias);
	return bias;
}

NO_INSTR uint32_t mprofdev_addr(const void *fn)
{
	return (uint32_t)((uintptr_t)fn - load_bias());
}

static NO_INSTR int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* offset and size of ".text" in an ELF64 file */
static NO_INSTR int find_text(int fd, uint64_t *off, uint64_t *size)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, strsh;
	char name[8];
	unsigned int i;

	if (read_at(fd, &eh, sizeof(eh), 0) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum ||
	    read_at(fd, &strsh, sizeof(strsh),
		    eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof(sh)))
		return -1;
	for (i = 0; i < eh.e_shnum; i++) {
		if (read_at(fd, &sh, sizeof(sh), eh.e_shoff + (uint64_t)i * sizeof(sh)))
			return -1;
		if (sh.sh_type != SHT_PROGBITS ||
		    read_at(fd, name, sizeof(name), strsh.sh_offset + sh.sh_name))
			continue;
		if (!memcmp(name, ".text", 6)) {
			*off = sh.sh_offset;
			*size = sh.sh_size;
			return 0;
		}
	}
	return -1;
}

/* CRC32 of /proc/self/exe's .text, 0 if it cannot be read */
static NO_INSTR uint32_t text_crc(void)
{
	uint64_t off, size, done = 0;
	uint32_t crc = 0;
	uint8_t buf[8192];
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (find_text(fd, &off, &size)) {
		close(fd);
		return 0;
	}
	while (done < size) {
		size_t n = size - done < sizeof(buf) ? (size_t)(size - done) :
			   sizeof(buf);

		if (read_at(fd, buf, n, off + done)) {
			crc = 0;
			break;
		}
		crc = wire_crc32(crc, buf, n);
		done += n;
	}
	close(fd);
	return crc;
}

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

static NO_INSTR void notify(struct mprofdev *d)
{
	pthread_mutex_lock(&d->lock);
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
}

/* send every packet the core has ready; waiters hear of what changed */
static NO_INSTR void send_ready(struct mprofdev *d, int changed)
{
	unsigned int done = atomic_load(&d->core.done);
	size_t n;

	while ((n = mprofdev_core_next(&d->core)))
		write_all(d, d->core.out, n);
	if (changed || atomic_load(&d->core.done) != done)
		notify(d);
}

static NO_INSTR void *writer(void *arg)
{
	struct mprofdev *d = arg;
	uint8_t buf[256];

	while (!atomic_load(&d->quit)) {
		struct pollfd pf[2] = {
			{ .fd = d->cfg.fd, .events = POLLIN },
			{ .fd = d->wake[0], .events = POLLIN },
		};
		int busy = atomic_load(&d->core.profiling);

		if (poll(pf, 2, busy ? 2 : 20) < 0 && errno != EINTR)
			break;
		if (pf[1].revents)
			break;
		if (pf[0].revents & POLLIN) {
			ssize_t r = read(d->cfg.fd, buf, sizeof(buf));

			if (r > 0) {
				atomic_store(&d->peer, 1);
				send_ready(d, mprofdev_core_rx(&d->core, buf,
							       (size_t)r) != 0);
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
		send_ready(d, 0);
	}
	atomic_store(&d->quit, 1);
	notify(d);
	return NULL;
}

NO_INSTR struct mprofdev *mprofdev_start(const struct mprofdev_config *cfg,
					 int *err)
{
	struct mprofdev *d = calloc(1, sizeof(*d));
	unsigned int order = cfg->ring_order ? cfg->ring_order : 14;
	unsigned int rpp = cfg->records_per_packet ? cfg->records_per_packet : 20;
	struct mprof_metadata meta = { .timer_freq = 1000000 };

	*err = ENOMEM;
	if (!d)
		return NULL;
	d->cfg = *cfg;
	if (rpp > MPROF_MAX_RECORDS)
		rpp = MPROF_MAX_RECORDS;
	if (order > 24)
		order = 24;
	d->out = malloc(MPROFDEV_OUT_SIZE(rpp));
	d->slots = calloc((size_t)1 << order, sizeof(*d->slots));
	if (!d->out || !d->slots) {
		free(d->out);
		free(d->slots);
		free(d);
		return NULL;
	}
	meta.mcu_clock_hz = cfg->mcu_clock_hz;
	meta.elf_build_id = cfg->build_id ? cfg->build_id : text_crc();
	strncpy(meta.fw_version, cfg->fw_version ? cfg->fw_version : "",
		MPROF_FW_VERSION_LEN - 1);
	mprofdev_core_init(&d->core, d->slots, order, d->out, rpp, &meta,
			   cfg->burst);
	d->core.addr_bias = load_bias();
	d->core.t0_us = mprofdev_port_now_us();
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->cond, NULL);
	if (pipe(d->wake)) {
		*err = errno;
		goto fail;
	}
	if (mprofdev_core_activate(&d->core)) {
		*err = EBUSY;
		goto fail_pipe;
	}
	*err = pthread_create(&d->thread, NULL, writer, d);
	if (*err) {
		mprofdev_core_deactivate(&d->core);
		goto fail_pipe;
	}
	return d;
fail_pipe:
	close(d->wake[0]);
	close(d->wake[1]);
fail:
	pthread_cond_destroy(&d->cond);
	pthread_mutex_destroy(&d->lock);
	free(d->slots);
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
	return atomic_load(&d->core.profiling) == on;
}

static NO_INSTR int all_sent(struct mprofdev *d, int captured)
{
	return (int)(atomic_load(&d->core.done) - (unsigned int)captured) >= 0;
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
	wait_for(d, all_sent, (int)mprofdev_core_captured(&d->core));
}

NO_INSTR void mprofdev_stop(struct mprofdev *d)
{
	if (!d)
		return;
	atomic_store(&d->core.profiling, 0);
	atomic_store(&d->quit, 1);
	if (write(d->wake[1], "", 1) < 0) {
		/* the thread also sees quit at its next poll timeout */
	}
	pthread_join(d->thread, NULL);
	mprofdev_core_deactivate(&d->core);
	close(d->wake[0]);
	close(d->wake[1]);
	pthread_cond_destroy(&d->cond);
	pthread_mutex_destroy(&d->lock);
	free(d->slots);
	free(d->out);
	free(d);
}
