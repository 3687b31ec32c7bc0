// SPDX-License-Identifier: GPL-2.0
/*
 * apply.c - --setup and --teardown: bring configfs, sysfs and the loaded
 * modules to what a configuration describes.  Every change is written to
 * a journal first; when one fails, the journal is undone in reverse, so
 * the system is left as it was.  What already is as described is left
 * alone (a second --setup changes nothing).  With --dry-run the same
 * walk prints the operations instead of doing them.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mttcontrol.h"

enum { J_MKDIR, J_WRITE, J_LINK, J_MODULE };

struct jent {
	int kind;
	char path[PATH_MAX];
	char old[MC_VAL_MAX];
};

struct journal {
	struct jent *v;
	int n, cap;
	int dry;
	int changes;
	struct mc_err *e;
};

static struct jent *jadd(struct journal *j, int kind, const char *path,
			 const char *old)
{
	struct jent *x;

	if (j->n == j->cap) {
		int cap = j->cap ? j->cap * 2 : 32;
		struct jent *v = realloc(j->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		j->v = v;
		j->cap = cap;
	}
	x = &j->v[j->n++];
	x->kind = kind;
	mc_snprintf(x->path, sizeof(x->path), "%s", path);
	mc_snprintf(x->old, sizeof(x->old), "%s", old ? old : "");
	return x;
}

static int oom(struct journal *j)
{
	j->e->fatal = 1;
	return mc_fail(j->e, "out of memory");
}

static int op_mkdir(struct journal *j, const char *path)
{
	j->changes++;
	if (j->dry) {
		printf("mkdir %s\n", path);
		return 0;
	}
	if (mkdir(path, 0755))
		return mc_fail(j->e, "mkdir %s: %s", path, strerror(errno));
	if (!jadd(j, J_MKDIR, path, NULL)) {
		rmdir(path);
		return oom(j);
	}
	return 0;
}

/* write val to path unless it reads so already (same() decides) */
static int op_write(struct journal *j, const char *path, const char *val,
		    int kind, int (*same)(const char *cur, const char *val),
		    const char *what)
{
	char cur[MC_VAL_MAX] = "";
	int have = mc_read(path, cur, sizeof(cur)) == 0;

	if (have && same(cur, val))
		return 0;
	j->changes++;
	if (j->dry) {
		printf("echo '%s' > %s\n", val, path);
		return 0;
	}
	if (!have)
		return mc_fail(j->e, "%s: cannot read %s: %s", what, path,
			       strerror(errno));
	if (mc_write(path, val))
		return mc_fail(j->e, "%s: writing \"%s\" to %s: %s", what, val,
			       path, strerror(errno));
	if (!jadd(j, kind, path, cur))
		return oom(j);
	return 0;
}

static int same_str(const char *cur, const char *val)
{
	return !strcasecmp(cur, val);
}

static int same_num(const char *cur, const char *val)
{
	char *e1, *e2;
	unsigned long long a = strtoull(cur, &e1, 0);
	unsigned long long b = strtoull(val, &e2, 0);

	if (*e1 || *e2 || !*cur)
		return same_str(cur, val);
	return a == b;
}

static int same_hex(const char *cur, const char *val)
{
	char *e1, *e2;

	return strtoull(cur, &e1, 16) == strtoull(val, &e2, 16) && !*e1 &&
	       !*e2 && *cur;
}

static int same_bool(const char *cur, const char *val)
{
	int a = cur[0] == '1' || cur[0] == 'y' || cur[0] == 'Y' ||
		!strcasecmp(cur, "on");

	return a == (val[0] == '1');
}

/* "first last" pairs, whatever the spacing */
static int same_pair(const char *cur, const char *val)
{
	unsigned long a, b, c, d;

	if (sscanf(cur, "%lu %lu", &a, &b) != 2 ||
	    sscanf(val, "%lu %lu", &c, &d) != 2)
		return same_str(cur, val);
	return a == c && b == d;
}

static int load_module(struct journal *j, const struct mc_config *c,
		       const struct mc_module *m)
{
	j->changes++;
	if (j->dry) {
		printf("%s %s%s%s\n", m->path[0] ? "insmod" : "modprobe",
		       m->path[0] ? m->path : m->given, m->params[0] ? " " : "",
		       m->params);
		return 0;
	}
	if (m->path[0]) {
		int fd = open(m->path, O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			return mc_fail(j->e, "%s:%d: module %s: %s", c->file,
				       m->line, m->path, strerror(errno));
		if (syscall(SYS_finit_module, fd, m->params, 0)) {
			int err = errno;

			close(fd);
			return mc_fail(j->e, "%s:%d: loading %s: %s", c->file,
				       m->line, m->path, strerror(err));
		}
		close(fd);
	} else {
		char *argv[64], params[sizeof(m->params)], *save = NULL, *p;
		int argc = 0, st;
		pid_t pid;

		argv[argc++] = "modprobe";
		argv[argc++] = (char *)m->given;
		strcpy(params, m->params);
		for (p = strtok_r(params, " ", &save); p && argc < 63;
		     p = strtok_r(NULL, " ", &save))
			argv[argc++] = p;
		argv[argc] = NULL;
		pid = fork();
		if (pid < 0)
			return mc_fail(j->e, "fork: %s", strerror(errno));
		if (!pid) {
			dup2(2, 1);
			execvp("modprobe", argv);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			return mc_fail(j->e, "%s:%d: modprobe %s failed", c->file,
				       m->line, m->given);
	}
	if (!jadd(j, J_MODULE, m->name, NULL))
		return oom(j);
	return 0;
}

/* undo the journal, newest first; 0, or -1 if something stayed */
static int rollback(struct journal *j, char *left, size_t len)
{
	int i, bad = 0;

	left[0] = 0;
	for (i = j->n - 1; i >= 0; i--) {
		struct jent *x = &j->v[i];
		int r = 0;
		char cur[MC_VAL_MAX];

		switch (x->kind) {
		case J_MKDIR:
			r = rmdir(x->path);
			break;
		case J_WRITE:
			r = mc_write(x->path, x->old);
			break;
		case J_LINK:
			/* an unknown device name unlinks (and gives EINVAL) */
			if (!strcmp(x->old, "<none>")) {
				mc_write(x->path, "none");
				r = mc_read(x->path, cur, sizeof(cur)) ||
				    strcmp(cur, "<none>");
			} else {
				r = mc_write(x->path, x->old);
			}
			break;
		case J_MODULE:
			r = syscall(SYS_delete_module, x->path, O_NONBLOCK);
			break;
		}
		if (r) {
			bad = 1;
			mc_snprintf(left + strlen(left), len - strlen(left), " %s",
				 x->path);
		}
	}
	j->n = 0;
	return bad ? -1 : 0;
}

/* the device's ranges: masters "a b", channels per master */
static int device_ranges(const char *dev, struct mc_range *m,
			 unsigned long *chans)
{
	char path[PATH_MAX], buf[64];

	mc_snprintf(path, sizeof(path), "/sys/class/stm/%s/masters", dev);
	if (mc_read(path, buf, sizeof(buf)) ||
	    sscanf(buf, "%lu %lu", &m->lo, &m->hi) != 2)
		return -1;
	mc_snprintf(path, sizeof(path), "/sys/class/stm/%s/channels", dev);
	if (mc_read(path, buf, sizeof(buf)) || sscanf(buf, "%lu", chans) != 1)
		return -1;
	return 0;
}

static int check_ranges(const struct mc_config *c, struct mc_err *e)
{
	struct mc_range m;
	unsigned long ch;
	int i;

	if (device_ranges(c->device, &m, &ch))
		return mc_fail(e, "%s:%d: device \"%s\": cannot read its masters and channels",
			       c->file, c->device_line, c->device);
	for (i = 0; i < c->nnodes; i++) {
		const struct mc_node *n = &c->nodes[i];

		if (n->has_masters &&
		    (n->masters.lo < m.lo || n->masters.hi > m.hi))
			return mc_fail(e, "%s:%d: policy node \"%s\": masters %lu %lu outside %lu..%lu of %s",
				       c->file, n->line, n->path, n->masters.lo,
				       n->masters.hi, m.lo, m.hi, c->device);
		if (n->has_channels && n->channels.hi >= ch)
			return mc_fail(e, "%s:%d: policy node \"%s\": channels %lu %lu outside 0..%lu of %s",
				       c->file, n->line, n->path,
				       n->channels.lo, n->channels.hi, ch - 1,
				       c->device);
	}
	return 0;
}

/* another policy of the device (configfs allows one) */
static int other_policy(const struct mc_config *c, const char *mine,
			char *other, size_t len)
{
	DIR *d = opendir(mc_policy_root());
	struct dirent *de;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		char path[PATH_MAX], dev[MC_NAME_MAX];

		if (de->d_name[0] == '.' || !strcmp(de->d_name, mine))
			continue;
		mc_snprintf(path, sizeof(path), "%s/%s/device", mc_policy_root(),
			 de->d_name);
		if (!mc_read(path, dev, sizeof(dev)) && !strcmp(dev, c->device)) {
			mc_snprintf(other, len, "%s", de->d_name);
			found = 1;
		}
	}
	closedir(d);
	return found;
}

static int has_module(const struct mc_config *c, const char *name)
{
	int i;

	for (i = 0; i < c->nmods; i++)
		if (!strcmp(c->mods[i].name, name))
			return 1;
	return 0;
}

/* what can be checked before anything is touched */
static int precheck(const struct mc_config *c, const struct mc_opts *o,
		    struct mc_err *e)
{
	char path[PATH_MAX], other[MC_NAME_MAX], mine[PATH_MAX];
	int i, dev = mc_udev_stm(c->device, &(struct mc_devinfo){ 0 }) == 0;

	if (!o->dry_run && geteuid() != 0)
		return mc_fail(e, "permission denied: --setup changes configfs and sysfs: run it as root");
	if (c->has_mtt && !mc_isdir(mc_mtt_root()) && !has_module(c, "mtt"))
		return mc_fail(e, "%s:%d: mtt: %s does not exist: MTT components need the mtt module (load it, or list it in modules)",
			       c->file, c->mtt_line, mc_mtt_root());
	if (!dev) {
		if (!c->nmods)
			return mc_fail(e, "%s:%d: device \"%s\": no such STM device (load its driver, or list it in modules)",
				       c->file, c->device_line, c->device);
		return 0;	/* checked again once the modules are in */
	}
	if (check_ranges(c, e))
		return -1;
	if (c->has_policy) {
		mc_policy_dirname(c, mine, sizeof(mine));
		if (other_policy(c, mine, other, sizeof(other)))
			return mc_fail(e, "%s:%d: device \"%s\" already has policy \"%s\" (one per device): remove it first",
				       c->file, c->policy_line, c->device, other);
	}
	for (i = 0; i < c->nsrcs && !c->nmods; i++) {
		mc_snprintf(path, sizeof(path), "/sys/class/stm_source/%s",
			 c->srcs[i].sysname);
		if (!mc_exists(path))
			return mc_fail(e, "%s:%d: source \"%s\": no such stm_source (load its module, or list it in modules)",
				       c->file, c->srcs[i].line, c->srcs[i].name);
	}
	return 0;
}

static int apply_policy(struct journal *j, const struct mc_config *c)
{
	char pol[PATH_MAX], name[PATH_MAX], path[PATH_MAX], cur[MC_NAME_MAX];
	char val[64];
	int i, k;

	if (!c->has_policy)
		return 0;
	if (!mc_isdir(mc_policy_root()) && !j->dry)
		return mc_fail(j->e, "%s missing: load stm_core and mount configfs",
			       mc_policy_root());
	mc_policy_dirname(c, name, sizeof(name));
	if (other_policy(c, name, cur, sizeof(cur)))
		return mc_fail(j->e, "%s:%d: device \"%s\" already has policy \"%s\" (one per device): remove it first",
			       c->file, c->policy_line, c->device, cur);
	mc_snprintf(pol, sizeof(pol), "%s/%s", mc_policy_root(), name);
	if (mc_isdir(pol)) {
		mc_snprintf(path, sizeof(path), "%s/protocol", pol);
		if (!mc_read(path, cur, sizeof(cur)) &&
		    strcmp(cur, *c->protocol ? c->protocol : "p_basic"))
			return mc_fail(j->e, "%s:%d: policy %s exists with protocol %s",
				       c->file, c->policy_line, name, cur);
	} else if (op_mkdir(j, pol)) {
		return mc_fail(j->e, "%s:%d: policy \"%s\": mkdir %s: %s",
			       c->file, c->policy_line, c->policy, pol,
			       strerror(errno));
	}
	for (i = 0; i < c->nnodes; i++) {
		const struct mc_node *n = &c->nodes[i];
		char np[PATH_MAX + 256];
		char what[512];

		mc_snprintf(np, sizeof(np), "%s/%s", pol, n->path);
		mc_snprintf(what, sizeof(what), "%s:%d: policy node \"%s\"",
			 c->file, n->line, n->path);
		if (!mc_isdir(np) && op_mkdir(j, np))
			return mc_fail(j->e, "%s: mkdir %s: %s", what, np,
				       strerror(errno));
		if (n->has_masters) {
			mc_snprintf(val, sizeof(val), "%lu %lu", n->masters.lo,
				 n->masters.hi);
			mc_snprintf(path, sizeof(path), "%s/masters", np);
			if (op_write(j, path, val, J_WRITE, same_pair, what))
				return -1;
		}
		if (n->has_channels) {
			mc_snprintf(val, sizeof(val), "%lu %lu", n->channels.lo,
				 n->channels.hi);
			mc_snprintf(path, sizeof(path), "%s/channels", np);
			if (op_write(j, path, val, J_WRITE, same_pair, what))
				return -1;
		}
		for (k = 0; k < n->nattrs; k++) {
			const struct mc_attr *a = &n->attrs[k];

			mc_snprintf(what, sizeof(what), "%s:%d: policy node \"%s\": %s",
				 c->file, a->line, n->path, a->name);
			mc_snprintf(path, sizeof(path), "%s/%s", np, a->name);
			if (!j->dry && !mc_exists(path))
				return mc_fail(j->e, "%s: no such attribute in protocol %s",
					       what, *c->protocol ? c->protocol :
					       "p_basic");
			if (op_write(j, path, a->value, J_WRITE, same_num, what))
				return -1;
		}
	}
	return 0;
}

static int apply_sink(struct journal *j, const struct mc_config *c)
{
	struct mc_devinfo d;
	char path[PATH_MAX], cur[64], what[256];

	if (!c->has_sink)
		return 0;
	mc_snprintf(what, sizeof(what), "%s:%d: sink", c->file, c->sink_line);
	if (mc_udev_stm(c->device, &d) || !d.sink_syspath[0]) {
		if (j->dry) {
			printf("# sink of %s: checked once the device exists\n",
			       c->device);
			return 0;
		}
		return mc_fail(j->e, "%s: device \"%s\" has no sink", what,
			       c->device);
	}
	if (c->sink_size) {
		mc_snprintf(path, sizeof(path), "%s/size", d.sink_syspath);
		if (mc_read(path, cur, sizeof(cur)))
			return mc_fail(j->e, "%s: %s: %s", what, path,
				       strerror(errno));
		if (strtoul(cur, NULL, 0) != c->sink_size)
			return mc_fail(j->e, "%s: size is %s, not %lu (a load-time setting: the sink_size module parameter of swstm)",
				       what, cur, c->sink_size);
	}
	if (c->has_overwrite) {
		mc_snprintf(path, sizeof(path), "%s/overwrite", d.sink_syspath);
		if (op_write(j, path, c->overwrite ? "1" : "0", J_WRITE,
			     same_bool, what))
			return -1;
	}
	return 0;
}

static int apply_sources(struct journal *j, const struct mc_config *c)
{
	char path[PATH_MAX], what[256];
	int i;

	for (i = 0; i < c->nsrcs; i++) {
		const struct mc_source *s = &c->srcs[i];

		mc_snprintf(what, sizeof(what), "%s:%d: source \"%s\"", c->file,
			 s->line, s->name);
		if (!j->dry && mc_udev_wait("stm_source", s->sysname, c->timeout))
			return mc_fail(j->e, "%s: no such stm_source (waited %d s)",
				       what, c->timeout);
		mc_snprintf(path, sizeof(path),
			 "/sys/class/stm_source/%s/stm_source_link", s->sysname);
		if (op_write(j, path, c->device, J_LINK, same_str, what))
			return -1;
	}
	return 0;
}

static int apply_mtt(struct journal *j, const struct mc_config *c)
{
	char path[PATH_MAX], val[32], what[256];
	int i;

	if (!c->has_mtt)
		return 0;
	if (!mc_isdir(mc_mtt_root()) && !j->dry)
		return mc_fail(j->e, "%s:%d: mtt: %s does not exist: load the mtt module",
			       c->file, c->mtt_line, mc_mtt_root());
	if (c->has_core_filter) {
		mc_snprintf(what, sizeof(what), "%s:%d: mtt filter", c->file,
			 c->mtt_line);
		mc_snprintf(path, sizeof(path), "%s/filter", mc_mtt_root());
		mc_snprintf(val, sizeof(val), "0x%08x", c->core_filter);
		if (op_write(j, path, val, J_WRITE, same_hex, what))
			return -1;
	}
	for (i = 0; i < c->ncomps; i++) {
		const struct mc_comp *cp = &c->comps[i];

		mc_snprintf(what, sizeof(what), "%s:%d: mtt component \"%s\"",
			 c->file, cp->line, cp->name);
		mc_snprintf(path, sizeof(path), "%s/components/%s", mc_mtt_root(),
			 cp->name);
		if (!j->dry && !mc_isdir(path))
			return mc_fail(j->e, "%s: no such component (%s)", what,
				       path);
		strncat(path, "/filter", sizeof(path) - strlen(path) - 1);
		mc_snprintf(val, sizeof(val), "0x%08x", cp->filter);
		if (op_write(j, path, val, J_WRITE, same_hex, what))
			return -1;
	}
	return 0;
}

static int apply_all(struct journal *j, const struct mc_config *c)
{
	int i, loaded = 0;

	for (i = 0; i < c->nmods; i++) {
		if (mc_module_loaded(c->mods[i].name))
			continue;
		if (load_module(j, c, &c->mods[i]))
			return -1;
		loaded++;
	}
	if (mc_udev_stm(c->device, &(struct mc_devinfo){ 0 })) {
		if (j->dry) {
			printf("# wait up to %d s for device %s\n", c->timeout,
			       c->device);
		} else if (!loaded) {
			return mc_fail(j->e, "%s:%d: device \"%s\": no such STM device",
				       c->file, c->device_line, c->device);
		} else if (mc_udev_wait("stm", c->device, c->timeout)) {
			return mc_fail(j->e, "%s:%d: device \"%s\" did not appear within %d s of loading the modules",
				       c->file, c->device_line, c->device,
				       c->timeout);
		}
	}
	if (!mc_udev_stm(c->device, &(struct mc_devinfo){ 0 }) &&
	    check_ranges(c, j->e))
		return -1;
	if (apply_policy(j, c) || apply_sink(j, c) || apply_sources(j, c) ||
	    apply_mtt(j, c))
		return -1;
	return 0;
}

int mc_setup(const struct mc_config *c, const struct mc_opts *o,
	     struct mc_err *e)
{
	struct journal j = { .dry = o->dry_run, .e = e };
	char left[2048];
	int ret;

	if (precheck(c, o, e))
		return -1;
	ret = apply_all(&j, c);
	if (ret && !j.dry && rollback(&j, left, sizeof(left))) {
		size_t l = strlen(e->msg);

		mc_snprintf(e->msg + l, sizeof(e->msg) - l,
			 "; rollback incomplete, left:%s", left);
		e->fatal = 1;
	}
	free(j.v);
	if (ret)
		return -1;
	if (!j.dry) {
		if (j.changes)
			printf("%s: applied (%d change%s)\n", c->file,
			       j.changes, j.changes == 1 ? "" : "s");
		else
			printf("%s: nothing to do: the system is as described\n",
			       c->file);
	}
	return 0;
}

/* remove dir and every directory under it, deepest first */
static int rm_tree(struct journal *j, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return mc_fail(j->e, "%s: %s", dir, strerror(errno));
	while (!ret && (de = readdir(d))) {
		char sub[PATH_MAX];

		if (de->d_name[0] == '.')
			continue;
		mc_snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (mc_isdir(sub))
			ret = rm_tree(j, sub);
	}
	closedir(d);
	if (ret)
		return ret;
	j->changes++;
	if (j->dry) {
		printf("rmdir %s\n", dir);
		return 0;
	}
	if (rmdir(dir))
		return mc_fail(j->e, "rmdir %s: %s", dir, strerror(errno));
	return 0;
}

int mc_teardown(const struct mc_config *c, const struct mc_opts *o,
		struct mc_err *e)
{
	struct journal j = { .dry = o->dry_run, .e = e };
	char path[PATH_MAX], name[PATH_MAX], cur[MC_NAME_MAX];
	int i;

	if (!o->dry_run && geteuid() != 0)
		return mc_fail(e, "permission denied: --teardown changes configfs and sysfs: run it as root");
	for (i = 0; i < c->nsrcs; i++) {
		mc_snprintf(path, sizeof(path),
			 "/sys/class/stm_source/%s/stm_source_link",
			 c->srcs[i].sysname);
		if (mc_read(path, cur, sizeof(cur)) || strcmp(cur, c->device))
			continue;
		j.changes++;
		if (j.dry) {
			printf("echo none > %s\n", path);
			continue;
		}
		mc_write(path, "none");	/* EINVAL, and unlinked */
		if (mc_read(path, cur, sizeof(cur)) || strcmp(cur, "<none>"))
			return mc_fail(e, "%s:%d: source \"%s\": could not unlink it",
				       c->file, c->srcs[i].line, c->srcs[i].name);
	}
	if (c->has_policy) {
		mc_policy_dirname(c, name, sizeof(name));
		mc_snprintf(path, sizeof(path), "%s/%s", mc_policy_root(), name);
		if (mc_isdir(path) && rm_tree(&j, path))
			return -1;
	}
	if (!j.dry)
		printf("%s: %s\n", c->file, j.changes ? "removed" :
		       "nothing to remove");
	return 0;
}
