// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_coll.c - libFuzzer target for the collateral XML loader.  The
 * input is a collateral file: it is loaded from memory, then every
 * client and table is looked up (client by a few GUIDs, entries by a few
 * keys) and a SyS-T catalog, short and RAW message is decoded with it, so
 * whatever got loaded is used.  Loading must either succeed or fail with
 * a message naming the input; texts must be NUL-terminated at their
 * length.  Any violation aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "fuzz_hash.h"

static void on_msg(void *ctx, const struct mttd_syst_msg *m)
{
	uint64_t *h = ctx;

	if (m->text_len && !m->text)
		abort();
	fuzz_mix64(h, m->status);
	fuzz_mix64(h, m->text_len);
	if (m->protocol)
		fuzz_mix64(h, strlen(m->protocol));
}

static void lookups(const struct mttd_coll *c, uint64_t *h)
{
	static const uint64_t keys[] = { 0, 1, 0x10, 0x100007, UINT64_MAX };
	unsigned int n = mttd_coll_clients(c), t, k;
	int i;

	for (i = 0; i < (int)n; i++) {
		if (!mttd_coll_client_name(c, i) || !mttd_coll_client_file(c, i))
			abort();
		for (t = 0; t < MTTD_COLL_TABLES; t++) {
			for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				const struct mttd_coll_entry *e =
					mttd_coll_find(c, i, t, keys[k]);

				if (!e)
					continue;
				if (!e->text || e->text[e->text_len] != 0 ||
				    (e->id & e->mask) != (keys[k] & e->mask))
					abort();
				fuzz_mix64(h, e->id ^ e->text_len);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a catalog (id 0x10, one argument), a SHORT32 and a RAW message */
	static const uint8_t cat[] = { 0x43, 0, 0, 1, 0x10, 0, 0, 0, 3, 0, 0, 0 };
	static const uint8_t shrt[] = { 0x71, 0, 0, 1 };
	static const uint8_t raw[] = { 0x06, 0, 0, 1, 0xde, 0xad };
	static const uint8_t sguid[16] = { 1, 2, 3 };
	struct mttd_coll *c = mttd_coll_new();
	struct mttd_syst *s;
	struct mttd_syst_config cfg = { .fn = on_msg, .short_guid = sguid };
	uint64_t h = 0;
	uint8_t g[16];
	char err[256];
	int r;

	if (!c)
		return 0;
	r = mttd_coll_load_mem(c, (const char *)data, size, "fz", err,
			       sizeof(err));
	if (r && strncmp(err, "fz", 2))
		abort();	/* an error names the input */
	lookups(c, &h);
	memset(g, 0, sizeof(g));
	fuzz_mix64(&h, (uint64_t)(int64_t)mttd_coll_client(c, g));
	memset(g, 0xff, sizeof(g));
	fuzz_mix64(&h, (uint64_t)(int64_t)mttd_coll_client(c, g));
	cfg.ctx = &h;
	cfg.coll = c;
	s = mttd_syst_new(&cfg);
	if (s) {
		mttd_syst_decode(s, NULL, cat, sizeof(cat));
		mttd_syst_decode(s, NULL, shrt, sizeof(shrt));
		mttd_syst_decode(s, NULL, raw, sizeof(raw));
		mttd_syst_free(s);
	}
	mttd_coll_free(c);
	return 0;
}
