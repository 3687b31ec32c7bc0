// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * chan.c - libmtt's per-thread channels.  Each thread writes each
 * component through its own file descriptor on the STM device, bound
 * with STP_POLICY_ID_SET to the policy node named after the component,
 * so the class gives it a channel of its own and frames from different
 * threads never interleave.  A new channel first carries a META frame
 * naming the component.  When the output is a regular file, frames are
 * appended to it instead (O_APPEND: one write, one frame); a character
 * device that is not an STM device (/dev/null) gets them as they are.
 * Where the STM device maps the channel's MMIO window, frames are stored
 * into it instead of written ($MTT_IO chooses; mmio.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal/frame.h"
#include "internal/libmtt.h"
#include "internal/mmio.h"
#include <linux/stm.h>	/* the class's ioctl: include/uapi/linux/stm.h */

struct tchan {
	struct mttl_comp	*c;
	unsigned int		gen;
	int			fd;
	uint32_t		channel;
	void			*win;	/* mapped MMIO window, or NULL */
	size_t			winlen;
};

struct tstate {
	struct tchan	*v;
	size_t		n, cap;
	uint32_t	tid;
};

static pthread_key_t tkey;
static pthread_once_t tonce = PTHREAD_ONCE_INIT;
static _Thread_local struct tstate *tself;

static void tchan_close(struct tchan *tc)
{
	if (tc->win)
		munmap(tc->win, tc->winlen);
	tc->win = NULL;
	tc->winlen = 0;
	if (tc->fd >= 0)
		close(tc->fd);
	tc->fd = -1;
}

static void tstate_free(void *p)
{
	struct tstate *t = p;
	size_t i;

	for (i = 0; i < t->n; i++)
		tchan_close(&t->v[i]);
	free(t->v);
	free(t);
}

static void tkey_init(void)
{
	(void)pthread_key_create(&tkey, tstate_free);
}

static struct tstate *tstate(void)
{
	struct tstate *t = tself;

	if (t)
		return t;
	pthread_once(&tonce, tkey_init);
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = (uint32_t)syscall(SYS_gettid);
	if (pthread_setspecific(tkey, t)) {
		free(t);
		return NULL;
	}
	tself = t;
	return t;
}

uint32_t mttl_tid(void)
{
	struct tstate *t = tstate();

	return t ? t->tid : (uint32_t)syscall(SYS_gettid);
}

/* Choose the output: mtt_initialize()'s, $MTT_DEVICE, or the first STM
 * device in /sys/class/stm.  Context: registry locked. */
int mttl_device_path(struct mttl_registry *r)
{
	const char *env;
	struct dirent *de;
	DIR *d;
	int w;

	if (r->configured)
		return 0;
	env = getenv("MTT_DEVICE");
	if (env && env[0]) {
		w = snprintf(r->device, sizeof(r->device), "%s%s",
			     env[0] == '/' || env[0] == '.' ? "" : "/dev/",
			     env);
		if (w < 0 || (size_t)w >= sizeof(r->device))
			return -ENAMETOOLONG;
		r->configured = 1;
		return 0;
	}
	d = opendir("/sys/class/stm");
	if (!d)
		return -ENODEV;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		w = snprintf(r->device, sizeof(r->device), "/dev/%s",
			     de->d_name);
		if (w > 0 && (size_t)w < sizeof(r->device)) {
			r->configured = 1;
			break;
		}
	}
	closedir(d);
	return r->configured ? 0 : -ENODEV;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Map the channel's MMIO window of fd (bound to one channel): one page,
 * which the class grants when width (1) * sw_mmiosz is a page.  Returns
 * 0 and sets tc->win, or -errno.
 */
static int chan_map(struct tchan *tc, int fd)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *w;

	if (pg <= 0)
		return -EINVAL;
	w = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (w == MAP_FAILED)
		return -errno;
	tc->win = w;
	tc->winlen = (size_t)pg;
	return 0;
}

/* Open and bind a channel for tc->c, mapped as $MTT_IO says; returns
 * the fd or -errno. */
static int chan_open(struct tchan *tc, uint32_t *channel)
{
	struct mttl_comp *c = tc->c;
	struct mttl_registry *r = mttl_reg();
	char path[PATH_MAX];
	union {
		struct stp_policy_id id;
		char buf[sizeof(struct stp_policy_id) + MTT_COMP_NAME_LEN];
	} u;
	struct stat st;
	int fd, err, mode;

	mode = mttl_io_mode(getenv("MTT_IO"));
	if (mode < 0)
		return mode;
	pthread_mutex_lock(&r->lock);
	err = mttl_device_path(r);
	memcpy(path, r->device, sizeof(path));
	pthread_mutex_unlock(&r->lock);
	if (err)
		return err;

	if (stat(path, &st) ? strncmp(path, "/dev/", 5) != 0 :
	    !S_ISCHR(st.st_mode)) {
		/* a file (made if missing, but never under /dev) */
		if (!stat(path, &st) && !S_ISREG(st.st_mode))
			return -ENODEV;
		if (mode == MTTL_IO_MMAP)
			return -EOPNOTSUPP;
		fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			  0644);
		if (fd < 0)
			return -errno;
		*channel = 0;
		return fd;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(&u, 0, sizeof(u));
	u.id.size = sizeof(u);
	u.id.width = 1;
	strcpy(u.id.id, c->name);
	if (ioctl(fd, STP_POLICY_ID_SET, &u.id) < 0) {
		err = -errno;
		if (err == -ENOTTY && mode != MTTL_IO_MMAP) {
			/* not an STM device (/dev/null, a tty): frames as is */
			*channel = 0;
			return fd;
		}
		close(fd);
		return err == -ENOTTY ? -EOPNOTSUPP : err;
	}
	if (mode != MTTL_IO_WRITE) {
		err = chan_map(tc, fd);
		if (err && mode == MTTL_IO_MMAP) {
			close(fd);
			return err;
		}
	}
	*channel = u.id.channel;
	return fd;
}

/* Send one frame on tc: stored into the window when it fits, else
 * written.  0 or -EIO. */
static int tchan_send(struct tchan *tc, const uint8_t *buf, size_t n)
{
	if (tc->win && n <= tc->winlen) {
		mttl_mmio_store(tc->win, buf, n);
		return 0;
	}
	return write(tc->fd, buf, n) == (ssize_t)n ? 0 : -EIO;
}

/* Name the component on a new channel. */
static int chan_meta(struct tchan *tc, uint32_t tid)
{
	struct mttl_comp *c = tc->c;
	uint8_t buf[MTT_FRAME_PREAMBLE_BYTES + 12 + MTT_COMP_NAME_LEN];
	struct mttl_rec r = {
		.target = (uint32_t)sched_getcpu(),
		.cmd = MTT_FRAME_CMD_META,
		.flags = MTT_FRAME_F_CTXT | MTT_FRAME_F_TS64,
		.comp = c->id,
		.type_info = MTTL_TI_STRING | (uint32_t)strlen(c->name),
		.ctx = tid,
		.ts = now_ns(),
		.payload = c->name,
	};
	size_t n = mttl_frame_put(buf, &r);

	return tchan_send(tc, buf, n);
}

static struct tchan *find(struct tstate *t, struct mttl_comp *c)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].c == c)
			return &t->v[i];
	return NULL;
}

/* The calling thread's open channel for c, opened if need be; NULL
 * with errno set if it cannot be. */
static struct tchan *chan_get(struct mttl_comp *c)
{
	struct tstate *t = tstate();
	unsigned int gen = __atomic_load_n(&c->gen, __ATOMIC_RELAXED);
	struct tchan *tc;
	int fd;

	if (!t) {
		errno = ENOMEM;
		return NULL;
	}
	tc = find(t, c);
	if (tc && tc->fd >= 0 && tc->gen == gen)
		return tc;
	if (!tc) {
		if (t->n == t->cap) {
			size_t cap = t->cap ? t->cap * 2 : 4;
			struct tchan *v = realloc(t->v, cap * sizeof(*v));

			if (!v) {
				errno = ENOMEM;
				return NULL;
			}
			t->v = v;
			t->cap = cap;
		}
		tc = &t->v[t->n++];
		tc->c = c;
		tc->fd = -1;
		tc->win = NULL;
	} else {
		tchan_close(tc);
	}
	tc->gen = gen;
	fd = chan_open(tc, &tc->channel);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	tc->fd = fd;
	if (chan_meta(tc, t->tid)) {
		tchan_close(tc);
		errno = EIO;
		return NULL;
	}
	return tc;
}

int mttl_chan_fd(struct mttl_comp *c, uint32_t *channel)
{
	struct tchan *tc = chan_get(c);

	if (!tc)
		return -1;
	if (channel)
		*channel = tc->channel;
	return tc->fd;
}

int mttl_chan_send(struct mttl_comp *c, const uint8_t *buf, size_t n)
{
	struct tchan *tc = chan_get(c);

	if (!tc)
		return -errno;
	return tchan_send(tc, buf, n);
}

int mttl_chan_window(struct mttl_comp *c, volatile void **win, size_t *len)
{
	struct tstate *t = tself;
	struct tchan *tc = t ? find(t, c) : NULL;

	if (!tc || tc->fd < 0 || !tc->win)
		return 0;
	*win = tc->win;
	*len = tc->winlen;
	return 1;
}

int mttl_chan_peek(struct mttl_comp *c, uint32_t *channel)
{
	struct tstate *t = tself;
	struct tchan *tc = t ? find(t, c) : NULL;

	if (!tc || tc->fd < 0 ||
	    tc->gen != __atomic_load_n(&c->gen, __ATOMIC_RELAXED))
		return 0;
	*channel = tc->channel;
	return 1;
}

void mttl_chan_drop(struct mttl_comp *c)
{
	struct tstate *t = tself;
	struct tchan *tc = t ? find(t, c) : NULL;

	if (tc)
		tchan_close(tc);
}

void mttl_chan_drop_all(void)
{
	struct tstate *t = tself;
	size_t i;

	for (i = 0; t && i < t->n; i++)
		tchan_close(&t->v[i]);
}
