// SPDX-License-Identifier: GPL-2.0
/*
 * collector.c - --start, --stop and --view.  --start checks everything
 * it can, writes the session directory's metadata, opens the sink, then
 * forks the collector: a detached process (its own session, standard
 * streams on /dev/null, errors in DIR/collector.log) holding the run
 * lock, that drains the sink into stream-NNNN.stp files until SIGTERM,
 * then drains what is left and writes DIR/summary.  Serial targets are
 * read into their directories beside it, with clock exchanges (sync.c)
 * on the way that never block the reading.  With a rotation
 * size, it starts a new file at that size: the files are the stream cut
 * in pieces, decoded in order as one (mttdecode DIR does that).  --view
 * follows the running session's files into mttdecode.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mttcontrol.h"
#include "session/session.h"

#define CHUNK 65536
#define MIN_READ 64	/* reads this size or more lose nothing at close */

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

static void catch(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static unsigned long long read_counter(const char *syspath, const char *name)
{
	char path[PATH_MAX + 32], buf[64];

	mc_snprintf(path, sizeof(path), "%s/%s", syspath, name);
	if (mc_read(path, buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 0);
}

#define MAX_SOURCES 128
_Static_assert(MC_NAME_MAX == 128, "print_counts() reads names of up to 127");

/* an stm_source's drop counter when the session started */
struct src_drops {
	char name[MC_NAME_MAX];
	unsigned long long drops0;
};

struct coll {
	const char *dir;
	int has_dev;		/* 0: serial targets only */
	struct mc_devinfo dev;
	unsigned long rotate;
	int sink, out, idx;
	unsigned long long fbytes, bytes, drops0;
	struct src_drops src[MAX_SOURCES];
	int nsrc;
	FILE *summary;	/* while writing the per-source lines */
	FILE *log;
	struct mc_tgt *tg;	/* the serial targets */
	int ntg;
};

/*
 * A source's "drops" (our class's attribute, absent on upstream's): 0 and
 * the count, or -1 without one.
 */
static int source_drops(const char *syspath, unsigned long long *v)
{
	char path[PATH_MAX + 32], buf[64];

	mc_snprintf(path, sizeof(path), "%s/drops", syspath);
	if (mc_read(path, buf, sizeof(buf)))
		return -1;
	*v = strtoull(buf, NULL, 10);
	return 0;
}

static void snap_source(void *ctx, const char *name, const char *syspath)
{
	struct coll *c = ctx;
	struct src_drops *s;
	unsigned long long v;

	if (c->nsrc >= MAX_SOURCES || source_drops(syspath, &v))
		return;
	s = &c->src[c->nsrc++];
	mc_snprintf(s->name, sizeof(s->name), "%s", name);
	s->drops0 = v;
}

/* "source_drops NAME N": lost since the start (a new source: since 0) */
static void sum_source(void *ctx, const char *name, const char *syspath)
{
	struct coll *c = ctx;
	unsigned long long v, v0 = 0;
	int i;

	if (source_drops(syspath, &v))
		return;
	for (i = 0; i < c->nsrc; i++)
		if (!strcmp(c->src[i].name, name)) {
			v0 = c->src[i].drops0;
			break;
		}
	fprintf(c->summary, "source_drops %s %llu\n", name,
		v >= v0 ? v - v0 : v);
}

static int open_stream(struct coll *c)
{
	char path[PATH_MAX + 32];

	mc_snprintf(path, sizeof(path), "%s/stream-%04d.stp", c->dir, c->idx);
	c->out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	c->fbytes = 0;
	return c->out < 0 ? -1 : 0;
}

static int open_sink(const struct mc_devinfo *d)
{
	return open(d->sink_devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

/* read once; 1 data, 0 nothing there, -1 error */
static int pump(struct coll *c, char *buf)
{
	size_t want = CHUNK;
	ssize_t r, w, off = 0;

	if (c->rotate) {
		unsigned long long left = c->fbytes < c->rotate ?
					  c->rotate - c->fbytes : 0;

		if (left < want)
			want = left < MIN_READ ? MIN_READ : (size_t)left;
		/* a file is at most rotate + MIN_READ - 1 bytes */
	}
	r = read(c->sink, buf, want);
	if (r < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	while (off < r) {
		w = write(c->out, buf + off, (size_t)(r - off));
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += w;
	}
	c->fbytes += (unsigned long long)r;
	c->bytes += (unsigned long long)r;
	if (c->rotate && c->fbytes >= c->rotate) {
		close(c->out);
		c->idx++;
		if (open_stream(c))
			return -1;
	}
	return 1;
}

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* read the targets who[0..np) whose poll p[] saw something */
static void pump_polled(struct coll *c, char *buf, const struct pollfd *p,
			const int *who, int np)
{
	int i;

	for (i = 0; i < np; i++)
		if (p[i].revents)
			mc_tgt_pump(&c->tg[who[i]], buf, CHUNK,
				    p[i].revents & (POLLHUP | POLLERR), c->log);
}

/*
 * The end for the targets' devices (mc_tgt_stop()): what those that were
 * told to stop answer is read until their ports are quiet for
 * QUIET_MS, at most ANSWER_MS in all (a device that never goes quiet).
 */
#define QUIET_MS	200
#define ANSWER_MS	5000
static void answers(struct coll *c, char *buf, struct pollfd *p)
{
	long long end = mono_ms() + ANSWER_MS;
	int i, np, *who = calloc((size_t)c->ntg + 1, sizeof(*who));

	for (i = np = 0; who && i < c->ntg; i++)
		if (mc_tgt_stop(&c->tg[i], c->log))
			who[np++] = i;
	while (np && mono_ms() < end) {
		for (i = 0; i < np; i++)
			p[i] = (struct pollfd){ .fd = c->tg[who[i]].fd,
						.events = POLLIN };
		if (poll(p, (nfds_t)np, QUIET_MS) <= 0)
			break;
		pump_polled(c, buf, p, who, np);
	}
	free(who);
}

/* the targets' clock exchanges: what is due sent; the poll timeout
 * until the next (ms; at most max) */
static int ticks(struct coll *c, int max)
{
	long w, t = max;
	int i;

	for (i = 0; i < c->ntg; i++) {
		w = mc_sync_tick(&c->tg[i], c->log);
		if (w >= 0 && w < t)
			t = w;
	}
	return (int)t;
}

/*
 * The end for the exchanges: each target that answers gets its final
 * burst (a start burst still going is finished first), its replies read
 * as they come; at most SYNC_END_MS in all.
 */
#define SYNC_END_MS	60000
static void sync_end(struct coll *c, char *buf, struct pollfd *p)
{
	long long end = mono_ms() + SYNC_END_MS;
	int i, np, t, *who = calloc((size_t)c->ntg + 1, sizeof(*who));

	for (i = 0; who && i < c->ntg; i++)
		mc_sync_end(&c->tg[i]);
	while (who && mono_ms() < end) {
		t = ticks(c, 1000);
		for (i = np = 0; i < c->ntg; i++)
			if (mc_sync_busy(&c->tg[i])) {
				p[np] = (struct pollfd){ .fd = c->tg[i].fd,
							 .events = POLLIN };
				who[np++] = i;
			}
		if (!np || (poll(p, (nfds_t)np, t) < 0 && errno != EINTR))
			break;
		pump_polled(c, buf, p, who, np);
	}
	free(who);
}

static int collect(struct coll *c)
{
	char *buf = malloc(CHUNK);
	char path[PATH_MAX + 32], date[64];
	struct mc_err ce;
	time_t now;
	struct pollfd *p = calloc((size_t)c->ntg + 1, sizeof(*p));
	FILE *f;
	int r = 0, i, np;

	if (!buf || !p) {
		free(buf);
		free(p);
		return 1;
	}
	while (!stopping) {
		int wait = ticks(c, 1000);

		np = 0;
		if (c->sink >= 0)
			p[np++] = (struct pollfd){ .fd = c->sink, .events = POLLIN };
		for (i = 0; i < c->ntg; i++)	/* a port gone: fd -1, ignored */
			p[np++] = (struct pollfd){ .fd = c->tg[i].fd,
						   .events = POLLIN };
		if (poll(p, (nfds_t)np, wait) < 0 && errno != EINTR) {
			r = -1;
			break;
		}
		if (stopping)
			break;
		np = 0;
		if (c->sink >= 0 && p[np++].revents && (r = pump(c, buf)) < 0)
			break;
		for (i = 0; i < c->ntg; i++, np++)
			if (p[np].revents)
				mc_tgt_pump(&c->tg[i], buf, CHUNK,
					    p[np].revents & (POLLHUP | POLLERR),
					    c->log);
	}
	if (r >= 0 && c->sink >= 0)	/* what the sink still holds */
		while ((r = pump(c, buf)) > 0)
			;
	if (r < 0)
		fprintf(c->log, "collector: %s (file %d): %s\n",
			c->dev.sink_devnode, c->idx, strerror(errno));
	for (i = 0; i < c->ntg; i++)	/* what the ports still hold */
		while (mc_tgt_pump(&c->tg[i], buf, CHUNK, 0, c->log) > 0)
			;
	sync_end(c, buf, p);
	answers(c, buf, p);
	if (c->out >= 0)
		close(c->out);
	if (c->sink >= 0)
		close(c->sink);
	free(buf);
	free(p);
	if (c->has_dev) {
		/* events enabled since the start */
		mc_session_copy_events(c->dir);
		/* dictionary ids since then */
		if (mc_session_copy_collateral(c->dir, &ce))
			fprintf(c->log, "collector: %s\n", ce.msg);
	}
	now = time(NULL);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	mc_snprintf(path, sizeof(path), "%s/summary", c->dir);
	f = fopen(path, "w");
	if (f && c->has_dev) {
		fprintf(f, "stopped %s\nbytes %llu\nfiles %d\nsink_drops %llu\n",
			date, c->bytes, c->idx + 1,
			read_counter(c->dev.sink_syspath, "drops") - c->drops0);
		c->summary = f;
		mc_udev_each("stm_source", sum_source, c);
	} else if (f) {
		fprintf(f, "stopped %s\n", date);
	}
	for (i = 0; i < c->ntg; i++)
		mc_tgt_close(&c->tg[i], f);
	free(c->tg);
	if (f)
		fclose(f);
	fflush(c->log);
	return r < 0 ? 1 : 0;
}

static int pick_device(const struct mc_config *cf, const struct mc_opts *o,
		       struct mc_devinfo *d, struct mc_err *e)
{
	const char *name = o->device ? o->device : cf ? cf->device : NULL;

	if (!name)
		return mc_udev_only_stm(d, e);
	if (mc_udev_stm(name, d))
		return mc_fail(e, "device \"%s\": no such STM device", name);
	if (!d->sink_devnode[0])
		return mc_fail(e, "device \"%s\" has no sink to read (only software STMs like swstm have one)",
			       name);
	return 0;
}

/* every target's port and files closed (the collector has its own) */
static void close_targets(struct coll *c)
{
	int i;

	for (i = 0; i < c->ntg; i++)
		mc_tgt_close(&c->tg[i], NULL);
	free(c->tg);
	c->tg = NULL;
	c->ntg = 0;
}

/* open every target's port and files (the parent, before the fork) */
static int start_targets(struct coll *c, const struct mc_config *cf,
			 struct mc_err *e)
{
	int i;

	if (!cf || !cf->ntargets)
		return 0;
	c->tg = calloc((size_t)cf->ntargets, sizeof(*c->tg));
	if (!c->tg) {
		e->fatal = 1;
		return mc_fail(e, "out of memory");
	}
	for (i = 0; i < cf->ntargets; i++) {
		c->ntg = i + 1;
		if (mc_tgt_open(&c->tg[i], &cf->targets[i], c->dir, cf->file,
				e)) {
			close_targets(c);
			return -1;
		}
	}
	/* every port open: only now may a device be told to begin, so
	 * that what it sends on another port is read too */
	for (i = 0; i < c->ntg; i++)
		if (mc_tgt_begin(&c->tg[i], e)) {
			close_targets(c);
			return -1;
		}
	return 0;
}

static int mkdirs(const char *path)
{
	char tmp[PATH_MAX], *p;

	mc_snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
}

static int empty_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	if (d)
		closedir(d);
	return d && !n;
}

int mc_start(const struct mc_config *cf, const struct mc_opts *o,
	     struct mc_err *e)
{
	struct coll c = { .sink = -1, .out = -1 };
	char path[PATH_MAX], dir[PATH_MAX], def[64];
	struct mc_run run;
	int lock, devnull, i;
	pid_t pid;

	/* a file with serial targets and no device: the targets only */
	c.has_dev = o->device || !cf || cf->device[0] || !cf->ntargets;
	if (c.has_dev && pick_device(cf, o, &c.dev, e))
		return -1;
	if (mkdirs(mc_rundir()))
		return mc_fail(e, "%s: %s", mc_rundir(), strerror(errno));
	mc_snprintf(path, sizeof(path), "%s/lock", mc_rundir());
	lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock < 0)
		return mc_fail(e, "%s: %s", path, strerror(errno));
	if (flock(lock, LOCK_EX | LOCK_NB)) {
		close(lock);
		mc_run_get(&run, e);
		return mc_fail(e, "a session is already running (collector pid %ld, %s): end it with --stop",
			       run.pid, run.dir);
	}
	if (o->outdir) {
		mc_snprintf(dir, sizeof(dir), "%s", o->outdir);
	} else {
		time_t now = time(NULL);

		strftime(def, sizeof(def), "mtt-session-%Y%m%d-%H%M%S",
			 localtime(&now));
		mc_snprintf(dir, sizeof(dir), "%s", def);
	}
	if (mkdirs(dir) || !empty_dir(dir)) {
		close(lock);
		return mc_fail(e, "%s: %s", dir, errno && !mc_isdir(dir) ?
			       strerror(errno) : "exists and is not empty");
	}
	if (!realpath(dir, path)) {
		close(lock);
		return mc_fail(e, "%s: %s", dir, strerror(errno));
	}
	mc_snprintf(dir, sizeof(dir), "%s", path);
	c.dir = dir;
	c.rotate = o->rotate_size ? o->rotate_size : cf ? cf->rotate_size : 0;
	if (mc_session_write_meta(dir, c.has_dev ? &c.dev : NULL, cf, e)) {
		close(lock);
		return -1;
	}
	if (start_targets(&c, cf, e)) {
		close(lock);
		return -1;
	}
	if (c.has_dev) {
		c.sink = open_sink(&c.dev);
		if (c.sink < 0) {
			int err = errno;

			close_targets(&c);
			close(lock);
			return mc_fail(e, "%s: %s%s", c.dev.sink_devnode,
				       strerror(err), err == EBUSY ?
				       " (another reader has it open)" : "");
		}
		if (open_stream(&c)) {
			close_targets(&c);
			close(c.sink);
			close(lock);
			return mc_fail(e, "%s: %s", dir, strerror(errno));
		}
		c.drops0 = read_counter(c.dev.sink_syspath, "drops");
		mc_udev_each("stm_source", snap_source, &c);
	}
	mc_snprintf(path, sizeof(path), "%s/collector.log", dir);
	c.log = fopen(path, "we");
	devnull = open("/dev/null", O_RDWR);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close_targets(&c);
		close(lock);
		return mc_fail(e, "fork: %s", strerror(errno));
	}
	if (!pid) {	/* the collector: keeps the lock fd open */
		setsid();
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 1);
			dup2(devnull, 2);
		}
		if (!c.log)
			c.log = stderr;
		signal(SIGPIPE, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		catch(SIGTERM);
		catch(SIGINT);
		_exit(collect(&c));
	}
	if (c.sink >= 0)
		close(c.sink);
	if (c.out >= 0)
		close(c.out);
	if (c.log)
		fclose(c.log);
	if (devnull >= 0)
		close(devnull);
	mc_snprintf(path, sizeof(path), "%s/session", mc_rundir());
	{
		FILE *f = fopen(path, "w");

		if (!f || fprintf(f, "%ld\n%s\n", (long)pid, dir) < 0 ||
		    fclose(f)) {
			kill(pid, SIGTERM);
			close_targets(&c);
			close(lock);
			return mc_fail(e, "%s: %s", path, strerror(errno));
		}
	}
	close(lock);
	if (c.has_dev)
		printf("session started: %s (device %s, sink %s, collector pid %ld)\n",
		       dir, c.dev.name, c.dev.sink_devnode, (long)pid);
	else
		printf("session started: %s (serial targets only, collector pid %ld)\n",
		       dir, (long)pid);
	for (i = 0; cf && i < cf->ntargets; i++)
		printf("target %s: %s, %s at %lu baud\n", cf->targets[i].name,
		       mc_tproto_name(cf->targets[i].proto), c.tg[i].port,
		       cf->targets[i].baud);
	close_targets(&c);
	fflush(stdout);
	if (o->live) {
		struct mc_opts vo = *o;
		int ret;

		ret = mc_view(&vo, e);
		if (mc_stop(o, e))
			return -1;
		return ret;
	}
	return 0;
}

static int wait_unlocked(int secs)
{
	char path[PATH_MAX];
	int fd, i;

	mc_snprintf(path, sizeof(path), "%s/lock", mc_rundir());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	for (i = 0; i < secs * 20; i++) {
		if (!flock(fd, LOCK_EX | LOCK_NB)) {
			close(fd);
			return 0;
		}
		msleep(50);
	}
	close(fd);
	return -1;
}

static void print_counts(const char *dir, const struct mc_counts *n);

/* the Linux stream's counts (unless the session has serial targets
 * only), then each target's */
static int print_all(const char *dir, const struct mc_counts *n,
		     struct mc_err *e)
{
	if (n->files || !mc_session_targets(dir, NULL, NULL))
		print_counts(dir, n);
	return mc_print_targets(dir, e);
}

static void print_counts(const char *dir, const struct mc_counts *n)
{
	char path[PATH_MAX + 16], line[MC_NAME_MAX + 64], name[MC_NAME_MAX];
	unsigned long long drops = 0, v;
	int nsrc = 0;
	FILE *f;

	mc_snprintf(path, sizeof(path), "%s/summary", dir);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "sink_drops %llu", &v) == 1)
			drops = v;
	printf("captured %llu bytes in %llu file%s: %llu messages (%llu incomplete), %llu losses in the stream, %llu packets dropped by the sink\n",
	       (unsigned long long)n->bytes, (unsigned long long)n->files,
	       n->files == 1 ? "" : "s", (unsigned long long)n->messages,
	       (unsigned long long)n->incomplete,
	       (unsigned long long)n->losses, drops);
	if (!f)
		return;
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		/* the width: MC_NAME_MAX - 1 */
		if (sscanf(line, "source_drops %127s %llu", name, &v) != 2)
			continue;
		printf("%s %s %llu", nsrc++ ? "," : "messages dropped by sources:",
		       name, v);
	}
	if (nsrc)
		putchar('\n');
	fclose(f);
}

int mc_stop(const struct mc_opts *o, struct mc_err *e)
{
	struct mc_run r;
	struct mc_counts n;
	char path[PATH_MAX];
	int running = mc_run_get(&r, e);

	(void)o;
	if (running < 0)
		return -1;
	mc_snprintf(path, sizeof(path), "%s/session", mc_rundir());
	if (!running && !r.pid)
		return mc_fail(e, "no session is running");
	if (!running) {
		unlink(path);
		if (!mc_count(r.dir, &n, e)) {
			printf("session %s: partial (its collector, pid %ld, had died)\n",
			       r.dir, r.pid);
			print_all(r.dir, &n, e);
		}
		return mc_fail(e, "the collector (pid %ld) of session %s had died: what it wrote is kept",
			       r.pid, r.dir);
	}
	if (r.pid <= 0)	/* between --start's fork and its pid file */
		return mc_fail(e, "a session is starting: try again");
	if (kill((pid_t)r.pid, SIGTERM))
		return mc_fail(e, "collector pid %ld: %s", r.pid, strerror(errno));
	if (wait_unlocked(120))
		return mc_fail(e, "collector pid %ld did not end within 120 s",
			       r.pid);
	unlink(path);
	printf("session stopped: %s\n", r.dir);
	if (mc_count(r.dir, &n, e))
		return -1;
	return print_all(r.dir, &n, e);
}

/* the mttdecode next to this program, else the one on PATH */
static void decoder_path(char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	mc_snprintf(buf, len, "mttdecode");
	if (n <= 0)
		return;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (!slash)
		return;
	strcpy(slash + 1, "mttdecode");
	if (!access(self, X_OK))
		mc_snprintf(buf, len, "%s", self);
}

/* the session's policy was p_sys-t (its mttsession says so) */
static int is_syst(const char *dir)
{
	struct mtts_meta m;

	mtts_meta_read(dir, &m, MC_RV_MAX_SRCID_BITS, MC_RV_MAX_TS_BYTES);
	return m.syst;
}

static int session_running(void)
{
	struct mc_run r;
	struct mc_err e;

	return mc_run_get(&r, &e) == 1;
}

/* follow the session's stream files into mttdecode until it ends */
int mc_view(const struct mc_opts *o, struct mc_err *e)
{
	char dec[PATH_MAX], pol[PATH_MAX + 16], ks[PATH_MAX + 16];
	char ev[PATH_MAX + 16], file[PATH_MAX + 32], *buf;
	char srcid[32], ts[32];
	char *argv[16];
	struct mc_format fmt;
	struct mc_run r;
	int pfd[2], argc = 0, fd = -1, idx = 0, st, running;
	pid_t pid;

	running = mc_run_get(&r, e);
	if (running < 0)
		return -1;
	if (!running)
		return mc_fail(e, "no session is running (decode a finished one with: mttdecode DIR)");
	decoder_path(dec, sizeof(dec));
	argv[argc++] = dec;
	mc_snprintf(pol, sizeof(pol), "--policy=%s/policy.txt", r.dir);
	argv[argc++] = pol;
	mc_snprintf(ks, sizeof(ks), "%s/kallsyms", r.dir);
	if (mc_exists(ks)) {
		mc_snprintf(ks, sizeof(ks), "--kallsyms=%s/kallsyms", r.dir);
		argv[argc++] = ks;
	}
	mc_snprintf(ev, sizeof(ev), "%s/events", r.dir);
	if (mc_isdir(ev)) {
		mc_snprintf(ev, sizeof(ev), "--tracefs=%s/events", r.dir);
		argv[argc++] = ev;
	}
	if (is_syst(r.dir))
		argv[argc++] = "--syst";
	mc_session_format(r.dir, &fmt);
	if (fmt.riscv) {
		argv[argc++] = "--input=riscv-encap";
		mc_snprintf(srcid, sizeof(srcid), "--srcid-bits=%u",
			    fmt.srcid_bits);
		argv[argc++] = srcid;
		mc_snprintf(ts, sizeof(ts), "--ts-bytes=%u", fmt.ts_bytes);
		argv[argc++] = ts;
	}
	if (o->json)
		argv[argc++] = "--format=json";
	argv[argc++] = "-";
	argv[argc] = NULL;
	if (pipe(pfd))
		return mc_fail(e, "pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return mc_fail(e, "fork: %s", strerror(errno));
	if (!pid) {
		dup2(pfd[0], 0);
		close(pfd[0]);
		close(pfd[1]);
		signal(SIGINT, SIG_IGN);	/* it ends with its input */
		execvp(dec, argv);
		fprintf(stderr, "mttcontrol: %s: %s\n", dec, strerror(errno));
		_exit(127);
	}
	close(pfd[0]);
	signal(SIGPIPE, SIG_IGN);
	stopping = 0;
	catch(SIGINT);
	catch(SIGTERM);
	buf = malloc(CHUNK);
	while (buf && !stopping) {
		ssize_t n;

		if (fd < 0) {
			mc_snprintf(file, sizeof(file), "%s/stream-%04d.stp", r.dir,
				 idx);
			fd = open(file, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				if (!session_running())
					break;
				msleep(100);
				continue;
			}
		}
		n = read(fd, buf, CHUNK);
		if (n > 0) {
			if (write(pfd[1], buf, (size_t)n) != n)
				break;
			continue;
		}
		if (n < 0 && errno != EINTR)
			break;
		/* at the end of this file: the next one, or wait */
		mc_snprintf(file, sizeof(file), "%s/stream-%04d.stp", r.dir,
			 idx + 1);
		if (mc_exists(file)) {
			/* the collector is done with this one: read the rest */
			while ((n = read(fd, buf, CHUNK)) > 0)
				if (write(pfd[1], buf, (size_t)n) != n)
					break;
			close(fd);
			fd = -1;
			idx++;
			continue;
		}
		if (!session_running()) {
			while ((n = read(fd, buf, CHUNK)) > 0)
				if (write(pfd[1], buf, (size_t)n) != n)
					break;
			break;
		}
		msleep(100);
	}
	free(buf);
	if (fd >= 0)
		close(fd);
	close(pfd[1]);
	waitpid(pid, &st, 0);
	return 0;
}
