/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttdecode/policy.h - source names from an STP policy snapshot (public
 * API).
 *
 * The snapshot is text, one policy node per line:
 *
 *   <node path> <first master> <last master> <first channel> <last channel>
 *
 * e.g. "user/app 3 3 0 15".  Numbers are decimal (or 0x-hex); blank lines
 * and lines starting with '#' are ignored.  tools/stp-policy-dump/stp-policy-dump
 * writes it from /sys/kernel/config/stp-policy/<policy> on a target.
 *
 * A master/channel pair is named after the node whose ranges hold it;
 * when several do, the deepest node (most path components) wins, then
 * the one with the fewest master/channel pairs, then the first listed.
 */
#ifndef MTTDECODE_POLICY_H
#define MTTDECODE_POLICY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mttd_policy;

struct mttd_policy *mttd_policy_new(void);
void mttd_policy_free(struct mttd_policy *p);

/* 0, or -1 with "<name>:<line>: <what>" in err */
int mttd_policy_load_file(struct mttd_policy *p, const char *path,
			  char *err, size_t errlen);
int mttd_policy_load_mem(struct mttd_policy *p, const char *text,
			 size_t len, const char *name, char *err,
			 size_t errlen);
/* 0, or -1 (bad range or out of memory) */
int mttd_policy_add(struct mttd_policy *p, const char *path,
		    unsigned int first_master, unsigned int last_master,
		    unsigned int first_channel, unsigned int last_channel);

unsigned int mttd_policy_nodes(const struct mttd_policy *p);

/* The node path for master/channel, or NULL. */
const char *mttd_policy_lookup(const struct mttd_policy *p,
			       unsigned int master, unsigned int channel);

#ifdef __cplusplus
}
#endif

#endif
