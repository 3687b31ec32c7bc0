// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - read a mttcontrol configuration file with libconfig and
 * check all of it (types, ranges, names, unknown keys) before anything
 * is touched.  Every error names the file and the line.  What can only
 * be checked against the running system (the device's ranges) is
 * checked by apply.c.
 */
#include <errno.h>
#include <stdint.h>
#include <libconfig.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mprof/mprof.h"
#include "mttcontrol.h"

struct ctx {
	struct mc_config *c;
	struct mc_err *e;
};

static int line_of(const config_setting_t *s)
{
	return (int)config_setting_source_line(s);
}

static int err_at(struct ctx *x, const config_setting_t *s,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int err_at(struct ctx *x, const config_setting_t *s,
		  const char *fmt, ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return mc_fail(x->e, "%s:%d: %s", x->c->file, s ? line_of(s) : 0,
		       what);
}

/* each member of group g must be one of keys (NULL-terminated) */
static int known_keys(struct ctx *x, const config_setting_t *g,
		      const char *where, const char *const *keys)
{
	int i, k, n = config_setting_length(g);

	for (i = 0; i < n; i++) {
		config_setting_t *s = config_setting_get_elem(g, i);
		const char *name = config_setting_name(s);

		for (k = 0; keys[k]; k++)
			if (name && !strcmp(name, keys[k]))
				break;
		if (!keys[k])
			return err_at(x, s, "unknown key \"%s\"%s%s", name,
				      where ? " in " : "", where ? where : "");
	}
	return 0;
}

static int is_int(const config_setting_t *s)
{
	int t = config_setting_type(s);

	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

static int get_uint(struct ctx *x, const config_setting_t *s,
		    const char *what, unsigned long long lo,
		    unsigned long long hi, unsigned long long *v)
{
	long long n;

	if (!is_int(s))
		return err_at(x, s, "%s: must be an integer", what);
	n = config_setting_get_int64(s);
	/* libconfig reads 0x80000000..0xffffffff (no L) as negative ints */
	if (n < 0 && config_setting_type(s) == CONFIG_TYPE_INT &&
	    config_setting_get_format(s) == CONFIG_FORMAT_HEX)
		n = (long long)(uint32_t)n;
	if (n < 0 || (unsigned long long)n < lo ||
	    (unsigned long long)n > hi)
		return err_at(x, s, "%s: %lld outside %llu..%llu", what, n, lo,
			      hi);
	*v = (unsigned long long)n;
	return 0;
}

static int get_str(struct ctx *x, const config_setting_t *s,
		   const char *what, char *buf, size_t len)
{
	const char *v;

	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return err_at(x, s, "%s: must be a string", what);
	v = config_setting_get_string(s);
	if (!*v)
		return err_at(x, s, "%s: must not be empty", what);
	if (strlen(v) >= len)
		return err_at(x, s, "%s: longer than %zu characters", what,
			      len - 1);
	strcpy(buf, v);
	return 0;
}

/* a device, source, policy or module name: no '/', no white space */
static int check_name(struct ctx *x, const config_setting_t *s,
		      const char *what, const char *v, const char *extra)
{
	const char *p;

	if (!strcmp(v, ".") || !strcmp(v, ".."))
		return err_at(x, s, "%s \"%s\": not a name", what, v);
	for (p = v; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		    *p == '.' || (extra && strchr(extra, *p)))
			continue;
		return err_at(x, s, "%s \"%s\": character '%c' not allowed",
			      what, v, *p);
	}
	return 0;
}

/* "first last" ranges: [a, b] or a single integer */
static int get_range(struct ctx *x, const config_setting_t *s,
		     const char *what, struct mc_range *r)
{
	unsigned long long a, b;

	if (is_int(s)) {
		if (get_uint(x, s, what, 0, 65535, &a))
			return -1;
		r->lo = r->hi = (unsigned long)a;
		return 0;
	}
	if (config_setting_type(s) != CONFIG_TYPE_ARRAY ||
	    config_setting_length(s) != 2)
		return err_at(x, s, "%s: must be [first, last]", what);
	if (get_uint(x, config_setting_get_elem(s, 0), what, 0, 65535, &a) ||
	    get_uint(x, config_setting_get_elem(s, 1), what, 0, 65535, &b))
		return -1;
	if (a > b)
		return err_at(x, s, "%s: first %llu above last %llu", what, a,
			      b);
	r->lo = (unsigned long)a;
	r->hi = (unsigned long)b;
	return 0;
}

/* a list of groups (WHAT in messages): calloc'ed elements of size bytes,
 * their number in *n; NULL (said in x->e) when not a list or out of
 * memory */
static void *list_of(struct ctx *x, const config_setting_t *list,
		     const char *what, size_t size, int *n)
{
	void *v;

	if (config_setting_type(list) != CONFIG_TYPE_LIST) {
		err_at(x, list, "%s: must be a list ( { ... }, ... )", what);
		return NULL;
	}
	*n = config_setting_length(list);
	v = calloc(*n ? (size_t)*n : 1, size);
	if (!v)
		mc_fail(x->e, "out of memory");
	return v;
}

static int parse_modules(struct ctx *x, const config_setting_t *s)
{
	struct mc_config *c = x->c;
	int i, n;

	if (!config_setting_is_aggregate(s) ||
	    config_setting_type(s) == CONFIG_TYPE_GROUP)
		return err_at(x, s, "modules: must be a list of strings");
	n = config_setting_length(s);
	c->mods = calloc(n ? n : 1, sizeof(*c->mods));
	if (!c->mods)
		return mc_fail(x->e, "out of memory");
	for (i = 0; i < n; i++) {
		config_setting_t *m = config_setting_get_elem(s, i);
		struct mc_module *mod = &c->mods[i];
		char word[PATH_MAX], *sp, *base, *dot;
		const char *v;

		if (config_setting_type(m) != CONFIG_TYPE_STRING)
			return err_at(x, m, "modules: must be strings");
		v = config_setting_get_string(m);
		while (*v == ' ')
			v++;
		if (!*v || strlen(v) >= sizeof(word))
			return err_at(x, m, "modules: empty or too long entry");
		strcpy(word, v);
		sp = strchr(word, ' ');
		if (sp) {
			*sp++ = 0;
			if (strlen(sp) >= sizeof(mod->params))
				return err_at(x, m, "modules: parameters too long");
			strcpy(mod->params, sp);
		}
		base = strrchr(word, '/');
		base = base ? base + 1 : word;
		dot = strstr(base, ".ko");
		if (dot && !dot[3]) {
			strcpy(mod->path, word);
			*dot = 0;
		} else if (base != word) {
			return err_at(x, m, "modules: \"%s\": a path must name a .ko file",
				      word);
		}
		if (check_name(x, m, "module", base, NULL) ||
		    strlen(base) >= sizeof(mod->name))
			return -1;
		strcpy(mod->name, base);
		strcpy(mod->given, base);
		for (sp = mod->name; *sp; sp++)
			if (*sp == '-')
				*sp = '_';
		mod->line = line_of(m);
		c->nmods++;
	}
	return 0;
}

/* the attributes a protocol is known to have (NULL: not known here) */
static const char *const *proto_attrs(const char *proto)
{
	static const char *const none[] = { NULL };
	static const char *const syst[] = {
		"uuid", "do_len", "ts_interval", "clocksync_interval", "crc",
		"severity", "origin", NULL
	};

	if (!*proto || !strcmp(proto, "p_basic"))
		return none;
	if (!strcmp(proto, "p_sys-t"))
		return syst;
	return NULL;
}

static int parse_attrs(struct ctx *x, const config_setting_t *g,
		       struct mc_node *nd)
{
	const char *const *known = proto_attrs(x->c->protocol);
	int i, k, n;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return err_at(x, g, "node \"%s\": attrs must be a group { name = value; }",
			      nd->path);
	n = config_setting_length(g);
	nd->attrs = calloc(n ? n : 1, sizeof(*nd->attrs));
	if (!nd->attrs)
		return mc_fail(x->e, "out of memory");
	for (i = 0; i < n; i++) {
		config_setting_t *s = config_setting_get_elem(g, i);
		struct mc_attr *a = &nd->attrs[i];
		const char *name = config_setting_name(s);

		if (!strcmp(name, "masters") || !strcmp(name, "channels"))
			return err_at(x, s, "node \"%s\": %s is a key of the node, not an attribute",
				      nd->path, name);
		if (known) {
			for (k = 0; known[k]; k++)
				if (!strcmp(known[k], name))
					break;
			if (!known[k])
				return err_at(x, s, "node \"%s\": protocol %s has no attribute \"%s\"",
					      nd->path, *x->c->protocol ?
					      x->c->protocol : "p_basic", name);
		}
		if (strlen(name) >= sizeof(a->name))
			return err_at(x, s, "attribute name too long");
		strcpy(a->name, name);
		switch (config_setting_type(s)) {
		case CONFIG_TYPE_INT:
		case CONFIG_TYPE_INT64:
			mc_snprintf(a->value, sizeof(a->value), "%lld",
				 config_setting_get_int64(s));
			break;
		case CONFIG_TYPE_BOOL:
			strcpy(a->value, config_setting_get_bool(s) ? "1" : "0");
			break;
		case CONFIG_TYPE_STRING:
			if (get_str(x, s, name, a->value, sizeof(a->value)))
				return -1;
			if (strchr(a->value, '\n'))
				return err_at(x, s, "%s: newline in the value", name);
			break;
		default:
			return err_at(x, s, "node \"%s\": %s: must be an integer, a boolean or a string",
				      nd->path, name);
		}
		a->line = line_of(s);
		nd->nattrs++;
	}
	return 0;
}

static int check_path(struct ctx *x, const config_setting_t *s,
		      struct mc_node *nd, int idx)
{
	char tmp[sizeof(nd->path)], *p, *save = NULL;
	int i;

	if (check_name(x, s, "node", nd->path, "/"))
		return -1;
	if (nd->path[0] == '/' || nd->path[strlen(nd->path) - 1] == '/' ||
	    strstr(nd->path, "//"))
		return err_at(x, s, "node \"%s\": a path like \"user/app\"",
			      nd->path);
	strcpy(tmp, nd->path);
	for (p = strtok_r(tmp, "/", &save); p; p = strtok_r(NULL, "/", &save))
		if (!strcmp(p, ".") || !strcmp(p, ".."))
			return err_at(x, s, "node \"%s\": \".\" and \"..\" are not node names",
				      nd->path);
	for (i = 0; i < idx; i++)
		if (!strcmp(x->c->nodes[i].path, nd->path))
			return err_at(x, s, "node \"%s\" defined twice (first at line %d)",
				      nd->path, x->c->nodes[i].line);
	p = strrchr(nd->path, '/');
	if (p) {
		size_t plen = (size_t)(p - nd->path);

		for (i = 0; i < idx; i++)
			if (strlen(x->c->nodes[i].path) == plen &&
			    !strncmp(x->c->nodes[i].path, nd->path, plen))
				return 0;
		return err_at(x, s, "node \"%s\": its parent \"%.*s\" must be listed before it",
			      nd->path, (int)plen, nd->path);
	}
	return 0;
}

static int parse_policy(struct ctx *x, const config_setting_t *g)
{
	static const char *const keys[] = { "name", "protocol", "nodes", NULL };
	static const char *const nkeys[] = {
		"path", "masters", "channels", "attrs", NULL
	};
	struct mc_config *c = x->c;
	config_setting_t *s, *list;
	int i, n;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return err_at(x, g, "policy: must be a group { ... }");
	if (known_keys(x, g, "policy", keys))
		return -1;
	c->has_policy = 1;
	c->policy_line = line_of(g);
	s = config_setting_get_member(g, "name");
	if (!s)
		return err_at(x, g, "policy: \"name\" missing");
	if (get_str(x, s, "policy name", c->policy, sizeof(c->policy)) ||
	    check_name(x, s, "policy name", c->policy, NULL))
		return -1;
	s = config_setting_get_member(g, "protocol");
	if (s) {
		if (get_str(x, s, "protocol", c->protocol,
			    sizeof(c->protocol)) ||
		    check_name(x, s, "protocol", c->protocol, NULL))
			return -1;
		if (!strcmp(c->protocol, "p_basic"))
			c->protocol[0] = 0;
	}
	list = config_setting_get_member(g, "nodes");
	if (!list)
		return 0;
	c->nodes = list_of(x, list, "nodes", sizeof(*c->nodes), &n);
	if (!c->nodes)
		return -1;
	for (i = 0; i < n; i++) {
		config_setting_t *ng = config_setting_get_elem(list, i);
		struct mc_node *nd = &c->nodes[i];

		c->nnodes = i + 1;
		nd->line = line_of(ng);
		if (config_setting_type(ng) != CONFIG_TYPE_GROUP)
			return err_at(x, ng, "nodes: each node is a group { path = ...; }");
		if (known_keys(x, ng, "a policy node", nkeys))
			return -1;
		s = config_setting_get_member(ng, "path");
		if (!s)
			return err_at(x, ng, "node: \"path\" missing");
		if (get_str(x, s, "path", nd->path, sizeof(nd->path)) ||
		    check_path(x, s, nd, i))
			return -1;
		s = config_setting_get_member(ng, "masters");
		if (s) {
			if (get_range(x, s, "masters", &nd->masters))
				return -1;
			nd->has_masters = 1;
		}
		s = config_setting_get_member(ng, "channels");
		if (s) {
			if (get_range(x, s, "channels", &nd->channels))
				return -1;
			nd->has_channels = 1;
		}
		s = config_setting_get_member(ng, "attrs");
		if (s && parse_attrs(x, s, nd))
			return -1;
	}
	return 0;
}

static int parse_sources(struct ctx *x, const config_setting_t *s)
{
	struct mc_config *c = x->c;
	int i, j, n;

	if (!config_setting_is_aggregate(s) ||
	    config_setting_type(s) == CONFIG_TYPE_GROUP)
		return err_at(x, s, "sources: must be a list of source names");
	n = config_setting_length(s);
	c->srcs = calloc(n ? n : 1, sizeof(*c->srcs));
	if (!c->srcs)
		return mc_fail(x->e, "out of memory");
	for (i = 0; i < n; i++) {
		config_setting_t *m = config_setting_get_elem(s, i);

		if (get_str(x, m, "source", c->srcs[i].name,
			    sizeof(c->srcs[i].name)) ||
		    check_name(x, m, "source", c->srcs[i].name, "/"))
			return -1;
		/* "mtt/<component>": the component's own source, mtt!<comp> */
		strcpy(c->srcs[i].sysname, c->srcs[i].name);
		for (j = 0; c->srcs[i].sysname[j]; j++)
			if (c->srcs[i].sysname[j] == '/')
				c->srcs[i].sysname[j] = '!';
		for (j = 0; j < i; j++)
			if (!strcmp(c->srcs[j].name, c->srcs[i].name))
				return err_at(x, m, "source \"%s\" listed twice",
					      c->srcs[i].name);
		c->srcs[i].line = line_of(m);
		c->nsrcs++;
	}
	return 0;
}

static int parse_sink(struct ctx *x, const config_setting_t *g)
{
	static const char *const keys[] = { "overwrite", "size", NULL };
	struct mc_config *c = x->c;
	unsigned long long v;
	config_setting_t *s;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return err_at(x, g, "sink: must be a group { ... }");
	if (known_keys(x, g, "sink", keys))
		return -1;
	c->has_sink = 1;
	c->sink_line = line_of(g);
	s = config_setting_get_member(g, "overwrite");
	if (s) {
		if (config_setting_type(s) != CONFIG_TYPE_BOOL)
			return err_at(x, s, "overwrite: must be true or false");
		c->has_overwrite = 1;
		c->overwrite = config_setting_get_bool(s);
	}
	s = config_setting_get_member(g, "size");
	if (s) {
		if (get_uint(x, s, "sink size", 4096, 268435456ull, &v))
			return -1;
		c->sink_size = (unsigned long)v;
	}
	return 0;
}

/*
 * An element of a list of named groups (components, targets): a group
 * (else "EACH") of the keys KEYS only (WHERE names it), with a "name"
 * that is a name (WHAT in messages), into name.
 */
static int named_group(struct ctx *x, const config_setting_t *g,
		       const char *each, const char *where,
		       const char *const *keys, const char *what, char *name,
		       size_t len)
{
	config_setting_t *s;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return err_at(x, g, "%s", each);
	if (known_keys(x, g, where, keys))
		return -1;
	s = config_setting_get_member(g, "name");
	if (!s)
		return err_at(x, g, "%s: \"name\" missing", what);
	if (get_str(x, s, what, name, len) || check_name(x, s, what, name, NULL))
		return -1;
	return 0;
}

static int parse_mtt(struct ctx *x, const config_setting_t *g)
{
	static const char *const keys[] = { "filter", "components", NULL };
	static const char *const ckeys[] = { "name", "filter", NULL };
	struct mc_config *c = x->c;
	unsigned long long v;
	config_setting_t *s, *list;
	int i, n;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return err_at(x, g, "mtt: must be a group { ... }");
	if (known_keys(x, g, "mtt", keys))
		return -1;
	c->has_mtt = 1;
	c->mtt_line = line_of(g);
	s = config_setting_get_member(g, "filter");
	if (s) {
		if (get_uint(x, s, "mtt filter", 0, 0xffffffffull, &v))
			return -1;
		c->has_core_filter = 1;
		c->core_filter = (uint32_t)v;
	}
	list = config_setting_get_member(g, "components");
	if (!list)
		return 0;
	c->comps = list_of(x, list, "components", sizeof(*c->comps), &n);
	if (!c->comps)
		return -1;
	for (i = 0; i < n; i++) {
		config_setting_t *cg = config_setting_get_elem(list, i);
		struct mc_comp *cp = &c->comps[i];

		if (named_group(x, cg, "components: each is a group { name = ...; filter = ...; }",
				"an mtt component", ckeys, "component",
				cp->name, sizeof(cp->name)))
			return -1;
		s = config_setting_get_member(cg, "filter");
		if (!s)
			return err_at(x, cg, "component \"%s\": \"filter\" missing",
				      cp->name);
		if (get_uint(x, s, "component filter", 0, 0xffffffffull, &v))
			return -1;
		cp->filter = (uint32_t)v;
		cp->line = line_of(cg);
		c->ncomps++;
	}
	return 0;
}

static int parse_session(struct ctx *x, const config_setting_t *g)
{
	static const char *const keys[] = { "rotate_size", NULL };
	unsigned long long v;
	config_setting_t *s;

	if (!g)
		return 0;
	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return err_at(x, g, "session: must be a group { ... }");
	if (known_keys(x, g, "session", keys))
		return -1;
	s = config_setting_get_member(g, "rotate_size");
	if (s) {
		if (get_uint(x, s, "rotate_size", 0, 1ull << 40, &v))
			return -1;
		if (v && v < 4096)
			return err_at(x, s, "rotate_size: 0 (no rotation) or at least 4096");
		x->c->rotate_size = (unsigned long)v;
	}
	return 0;
}

static const char *const tproto_names[MC_TP_COUNT] = {
	[MC_TP_MPROF] = "mprof", [MC_TP_MTT] = "mtt", [MC_TP_SYST] = "syst",
	[MC_TP_RISCV] = "riscv-encap", [MC_TP_RAW] = "raw",
};

int mc_tproto_parse(const char *s)
{
	int i;

	for (i = 0; i < MC_TP_COUNT; i++)
		if (!strcmp(s, tproto_names[i]))
			return i;
	return -1;
}

const char *mc_tproto_name(enum mc_tproto p)
{
	return (unsigned int)p < MC_TP_COUNT ? tproto_names[p] : "?";
}

/* a match's "properties" or "sysattrs": a group of string values */
static int parse_kvs(struct ctx *x, const config_setting_t *g,
		     const char *what, struct mc_kv **out, int *nout)
{
	int i, n;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return err_at(x, g, "%s: must be a group { NAME = \"value\"; }",
			      what);
	n = config_setting_length(g);
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return mc_fail(x->e, "out of memory");
	for (i = 0; i < n; i++) {
		config_setting_t *s = config_setting_get_elem(g, i);
		struct mc_kv *kv = &(*out)[i];
		const char *name = config_setting_name(s);

		if (strlen(name) >= sizeof(kv->key))
			return err_at(x, s, "%s: name too long", what);
		strcpy(kv->key, name);
		if (get_str(x, s, name, kv->value, sizeof(kv->value)))
			return -1;
		(*nout)++;
	}
	return 0;
}

static int parse_match(struct ctx *x, const config_setting_t *g,
		       struct mc_target *t)
{
	static const char *const keys[] = {
		"sysname", "syspath", "properties", "sysattrs", NULL
	};
	config_setting_t *s;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return err_at(x, g, "target \"%s\": match must be a group { ... }",
			      t->name);
	if (known_keys(x, g, "a target's match", keys))
		return -1;
	if (!config_setting_length(g))
		return err_at(x, g, "target \"%s\": match: empty (give sysname, syspath, properties or sysattrs)",
			      t->name);
	t->has_match = 1;
	s = config_setting_get_member(g, "sysname");
	if (s && get_str(x, s, "sysname", t->sysname, sizeof(t->sysname)))
		return -1;
	s = config_setting_get_member(g, "syspath");
	if (s && get_str(x, s, "syspath", t->syspath, sizeof(t->syspath)))
		return -1;
	s = config_setting_get_member(g, "properties");
	if (s && parse_kvs(x, s, "properties", &t->props, &t->nprops))
		return -1;
	s = config_setting_get_member(g, "sysattrs");
	if (s && parse_kvs(x, s, "sysattrs", &t->sysattrs, &t->nsysattrs))
		return -1;
	return 0;
}

/* srcid_proto: one "IDS:PROTO" string, or a list of them */
static int parse_srcid_protos(struct ctx *x, const config_setting_t *s,
			      struct mc_target *t)
{
	const config_setting_t *e = s;
	unsigned long lo, hi;
	int i, n = 1, mtt, list = config_setting_is_aggregate(s);

	if (t->proto != MC_TP_RISCV)
		return err_at(x, s, "srcid_proto: for protocol riscv-encap only");
	if (list)
		n = config_setting_length(s);
	if (n < 1 || n > MC_SRCID_PROTOS)
		return err_at(x, s, "srcid_proto: 1 to %d of \"IDS:PROTO\"",
			      MC_SRCID_PROTOS);
	for (i = 0; i < n; i++) {
		char *v = t->srcid_proto[i];

		if (list)
			e = config_setting_get_elem(s, (unsigned int)i);
		if (get_str(x, e, "srcid_proto", v, sizeof(t->srcid_proto[i])))
			return -1;
		if (mc_srcid_proto(v, (1ul << t->srcid_bits) - 1, &lo, &hi,
				   &mtt))
			return err_at(x, e, "srcid_proto: \"%s\" is not IDS:PROTO (IDS: N, FIRST-LAST or * of the %u-bit srcIDs; PROTO: stp, raw or mtt)",
				      v, t->srcid_bits);
	}
	t->nsrcid_proto = n;
	return 0;
}

/*
 * A clock exchange setting of target @t (sync_interval_ms, sync_wait_ms),
 * @lo..3600000 ms, into *@ms if given: an error where @t has no
 * exchanges (a protocol without TIME_SYNC, a riscv-encap target without
 * an mtt srcID).
 */
static int get_sync_ms(struct ctx *x, const config_setting_t *g,
		       const struct mc_target *t, const char *key,
		       unsigned long long lo, unsigned long *ms)
{
	config_setting_t *s = config_setting_get_member(g, key);
	unsigned long long v;

	if (!s)
		return 0;
	if (t->proto == MC_TP_RISCV) {
		uint8_t map[MC_RV_MAP_BYTES];

		if (!mc_rv_mtt_srcids(t, map))
			return err_at(x, s, "%s: a riscv-encap target needs an mtt srcID (srcid_proto \"IDS:mtt\") for clock exchanges",
				      key);
	} else if (t->proto != MC_TP_MPROF && t->proto != MC_TP_MTT) {
		return err_at(x, s, "%s: for protocols mprof, mtt and riscv-encap (with an mtt srcID) only",
			      key);
	}
	if (get_uint(x, s, key, lo, 3600000, &v))
		return -1;
	*ms = (unsigned long)v;
	return 0;
}

static int parse_target(struct ctx *x, const config_setting_t *g,
			struct mc_target *t, int idx)
{
	static const char *const keys[] = {
		"name", "port", "match", "baud", "protocol", "srcid_bits",
		"ts_bytes", "unframed", "srcid_proto", "mtt_start", "elf",
		"sync_interval_ms", "sync_wait_ms", "paced", NULL
	};
	char proto[MC_NAME_MAX];
	unsigned long long v;
	config_setting_t *s, *m;
	int i, p;

	t->line = line_of(g);
	if (named_group(x, g, "targets: each target is a group { name = ...; }",
			"a target", keys, "target name", t->name,
			sizeof(t->name)))
		return -1;
	s = config_setting_get_member(g, "name");
	for (i = 0; i < idx; i++)
		if (!strcmp(x->c->targets[i].name, t->name))
			return err_at(x, s, "target \"%s\" defined twice (first at line %d)",
				      t->name, x->c->targets[i].line);
	s = config_setting_get_member(g, "port");
	m = config_setting_get_member(g, "match");
	if (s && m)
		return err_at(x, m, "target \"%s\": port and match: give one",
			      t->name);
	if (!s && !m)
		return err_at(x, g, "target \"%s\": \"port\" or \"match\" missing",
			      t->name);
	if (s && get_str(x, s, "port", t->port, sizeof(t->port)))
		return -1;
	if (m && parse_match(x, m, t))
		return -1;
	t->baud = 115200;
	s = config_setting_get_member(g, "baud");
	if (s) {
		if (get_uint(x, s, "baud", 1, 4000000, &v))
			return -1;
		if (!mprof_serial_baud_ok((unsigned long)v))
			return err_at(x, s, "baud: %llu is not a standard rate (9600, 19200, 38400, 57600, 115200, 230400, ... 4000000)",
				      v);
		t->baud = (unsigned long)v;
	}
	s = config_setting_get_member(g, "protocol");
	if (!s)
		return err_at(x, g, "target \"%s\": \"protocol\" missing (mprof, mtt, syst, riscv-encap or raw)",
			      t->name);
	if (get_str(x, s, "protocol", proto, sizeof(proto)))
		return -1;
	p = mc_tproto_parse(proto);
	if (p < 0)
		return err_at(x, s, "protocol: \"%s\" is not one of mprof, mtt, syst, riscv-encap, raw",
			      proto);
	t->proto = (enum mc_tproto)p;
	t->srcid_bits = MC_RV_SRCID_BITS;
	t->ts_bytes = MC_RV_TS_BYTES;
	for (i = 0; i < 3; i++) {
		static const char *const rv[] = {
			"srcid_bits", "ts_bytes", "unframed"
		};

		s = config_setting_get_member(g, rv[i]);
		if (s && t->proto != MC_TP_RISCV)
			return err_at(x, s, "%s: for protocol riscv-encap only",
				      rv[i]);
		if (!s)
			continue;
		if (i == 2) {
			if (config_setting_type(s) != CONFIG_TYPE_BOOL)
				return err_at(x, s, "unframed: must be true or false");
			t->unframed = config_setting_get_bool(s);
		} else if (get_uint(x, s, rv[i], 0, i ? MC_RV_MAX_TS_BYTES :
				    MC_RV_MAX_SRCID_BITS, &v)) {
			return -1;
		} else if (i) {
			t->ts_bytes = (unsigned int)v;
		} else {
			t->srcid_bits = (unsigned int)v;
		}
	}
	s = config_setting_get_member(g, "srcid_proto");
	if (s && parse_srcid_protos(x, s, t))
		return -1;
	s = config_setting_get_member(g, "mtt_start");
	if (s && t->proto != MC_TP_MTT && t->proto != MC_TP_RISCV)
		return err_at(x, s, "mtt_start: for protocols mtt and riscv-encap only");
	if (s && config_setting_type(s) != CONFIG_TYPE_BOOL)
		return err_at(x, s, "mtt_start: must be true or false");
	t->mtt_start = s && config_setting_get_bool(s);
	s = config_setting_get_member(g, "paced");
	if (s && config_setting_type(s) != CONFIG_TYPE_BOOL)
		return err_at(x, s, "paced: must be true or false");
	t->paced = s && config_setting_get_bool(s);
	t->sync_interval_ms = MC_SYNC_INTERVAL_MS;
	t->sync_wait_ms = MC_SYNC_WAIT_MS;
	if (get_sync_ms(x, g, t, "sync_interval_ms", 0, &t->sync_interval_ms) ||
	    get_sync_ms(x, g, t, "sync_wait_ms", 1, &t->sync_wait_ms))
		return -1;
	s = config_setting_get_member(g, "elf");
	if (s) {
		if (get_str(x, s, "elf", t->elf, sizeof(t->elf)))
			return -1;
		if (access(t->elf, R_OK))
			return err_at(x, s, "elf: %s: %s", t->elf,
				      strerror(errno));
	}
	return 0;
}

static int parse_targets(struct ctx *x, const config_setting_t *list)
{
	struct mc_config *c = x->c;
	int i, n;

	c->targets = list_of(x, list, "targets", sizeof(*c->targets), &n);
	if (!c->targets)
		return -1;
	for (i = 0; i < n; i++) {
		c->ntargets = i + 1;
		if (parse_target(x, config_setting_get_elem(list, i),
				 &c->targets[i], i))
			return -1;
	}
	return 0;
}

static int parse_root(struct ctx *x, config_t *cf)
{
	static const char *const keys[] = {
		"device", "timeout", "modules", "policy", "sources", "sink",
		"mtt", "session", "targets", NULL
	};
	config_setting_t *root = config_root_setting(cf), *s;
	struct mc_config *c = x->c;
	unsigned long long v;

	if (known_keys(x, root, NULL, keys))
		return -1;
	c->timeout = 10;
	s = config_setting_get_member(root, "targets");
	if (s && parse_targets(x, s))
		return -1;
	s = config_setting_get_member(root, "device");
	if (!s && !c->ntargets)
		return mc_fail(x->e, "%s:1: \"device\" missing (the STM device, e.g. device = \"swstm.0\";)",
			       c->file);
	if (!s) {	/* serial targets only: nothing else to set up */
		static const char *const stm[] = {
			"modules", "policy", "sources", "sink", "mtt", NULL
		};
		int i;

		for (i = 0; stm[i]; i++)
			if ((s = config_setting_get_member(root, stm[i])))
				return err_at(x, s, "%s: needs a \"device\" (a file without one records serial targets only)",
					      stm[i]);
		return parse_session(x, config_setting_get_member(root,
								  "session"));
	}
	if (get_str(x, s, "device", c->device, sizeof(c->device)) ||
	    check_name(x, s, "device", c->device, ":"))
		return -1;
	c->device_line = line_of(s);
	s = config_setting_get_member(root, "timeout");
	if (s) {
		if (get_uint(x, s, "timeout", 1, 3600, &v))
			return -1;
		c->timeout = (int)v;
	}
	s = config_setting_get_member(root, "modules");
	if (s && parse_modules(x, s))
		return -1;
	s = config_setting_get_member(root, "policy");
	if (s && parse_policy(x, s))
		return -1;
	s = config_setting_get_member(root, "sources");
	if (s && parse_sources(x, s))
		return -1;
	s = config_setting_get_member(root, "sink");
	if (s && parse_sink(x, s))
		return -1;
	s = config_setting_get_member(root, "mtt");
	if (s && parse_mtt(x, s))
		return -1;
	s = config_setting_get_member(root, "session");
	if (s && parse_session(x, s))
		return -1;
	if (c->nsrcs && !c->has_policy)
		return mc_fail(x->e, "%s:%d: sources need a policy (their nodes or \"default\")",
			       c->file, c->srcs[0].line);
	return 0;
}

int mc_config_load(struct mc_config *c, const char *file, struct mc_err *e)
{
	struct ctx x = { .c = c, .e = e };
	FILE *f;
	config_t cf;
	int ret;

	memset(c, 0, sizeof(*c));
	if (strlen(file) >= sizeof(c->file))
		return mc_fail(e, "%.64s...: file name too long", file);
	strcpy(c->file, file);
	f = fopen(file, "r");
	if (!f)
		return mc_fail(e, "%s: %s", file, strerror(errno));
	config_init(&cf);
	if (!config_read(&cf, f)) {
		mc_fail(e, "%s:%d: syntax error: %s", file,
			config_error_line(&cf), config_error_text(&cf));
		ret = -1;
	} else {
		ret = parse_root(&x, &cf);
	}
	config_destroy(&cf);
	fclose(f);
	if (ret)
		mc_config_free(c);
	return ret;
}

void mc_config_free(struct mc_config *c)
{
	int i;

	for (i = 0; i < c->nnodes; i++)
		free(c->nodes[i].attrs);
	for (i = 0; i < c->ntargets; i++) {
		free(c->targets[i].props);
		free(c->targets[i].sysattrs);
	}
	free(c->targets);
	c->targets = NULL;
	c->ntargets = 0;
	free(c->nodes);
	free(c->mods);
	free(c->srcs);
	free(c->comps);
	c->nodes = NULL;
	c->mods = NULL;
	c->srcs = NULL;
	c->comps = NULL;
	c->nnodes = c->nmods = c->nsrcs = c->ncomps = 0;
}

void mc_policy_dirname(const struct mc_config *c, char *buf, size_t len)
{
	if (*c->protocol)
		mc_snprintf(buf, len, "%s:%s.%s", c->device, c->protocol,
			 c->policy);
	else
		mc_snprintf(buf, len, "%s.%s", c->device, c->policy);
}
