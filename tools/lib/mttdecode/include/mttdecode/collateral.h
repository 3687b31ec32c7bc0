/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttdecode/collateral.h - SyS-T collateral: catalog formats, short
 * message formats, build, module, source file and protocol names, read
 * from XML files in the MIPI reference format (public API).
 *
 *   <syst:Collateral xmlns:syst="http://www.mipi.org/1.0/sys-t">
 *     <syst:Client Name="...">
 *       <syst:Guids><syst:Guid ID="{...}" Mask="{...}"/></syst:Guids>
 *       <syst:Builds><syst:Build ID="0x.." Mask="0x..">text</...>
 *       <syst:Modules><syst:Module ID="1">name</syst:Module></...>
 *       <syst:SourceFiles><syst:File ID="1">a.c</syst:File></...>
 *       <syst:Catalog32><syst:Format ID="0x1" File="1" Line="42">
 *           <![CDATA[value %d]]></syst:Format></syst:Catalog32>
 *       <syst:Catalog64> ... </syst:Catalog64>
 *       <syst:Short32><syst:Format ID=".." Mask="..">..</...></...>
 *       <syst:Short64> ... </syst:Short64>
 *       <syst:Write><syst:Protocol ID="1" Mask="..">name</...></...>
 *     </syst:Client>
 *   </syst:Collateral>
 *
 * Elements are matched by local name (any namespace prefix).  ID and Mask
 * are decimal or 0x-hex (GUIDs: 32 hex digits with optional dashes and
 * braces); a missing Mask means all ones.  An element's text is its CDATA
 * section if it has one, else its character data with surrounding white
 * space removed.
 *
 * Lookups: an entry matches key when (key & Mask) == (ID & Mask); among
 * matches the one with the most Mask bits wins, then the one loaded first.
 * A client is selected the same way by its Guid entries against the
 * message's GUID (or the pseudo-GUID of syst.h); a client without Guids
 * matches no GUID (as in the reference printer; a Guid with a zero Mask
 * matches every one).  Several files may be loaded; their clients add
 * up.
 */
#ifndef MTTDECODE_COLLATERAL_H
#define MTTDECODE_COLLATERAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum mttd_coll_table {
	MTTD_COLL_BUILD, MTTD_COLL_MODULE, MTTD_COLL_FILE,
	MTTD_COLL_CATALOG32, MTTD_COLL_CATALOG64,
	MTTD_COLL_SHORT32, MTTD_COLL_SHORT64, MTTD_COLL_PROTOCOL,
	MTTD_COLL_TABLES
};

struct mttd_coll_entry {
	uint64_t id;
	uint64_t mask;
	const char *text;	/* NUL-terminated */
	size_t text_len;
	int64_t file;		/* Format File attribute, -1 if none */
	int64_t line;		/* Format Line attribute, -1 if none */
};

struct mttd_coll;

struct mttd_coll *mttd_coll_new(void);
void mttd_coll_free(struct mttd_coll *c);

/*
 * Add the clients of an XML file (or of xml[0..len)); 0, or -1 with a
 * message "<name>:<line>: <what>" in err.  An empty path and a directory
 * are errors ("<path>: is a directory ...").  Loading time and memory
 * are linear in the file size (an element's text is at most 1 MiB).
 */
int mttd_coll_load_file(struct mttd_coll *c, const char *path, char *err,
			size_t errlen);
int mttd_coll_load_mem(struct mttd_coll *c, const char *xml, size_t len,
		       const char *name, char *err, size_t errlen);

unsigned int mttd_coll_clients(const struct mttd_coll *c);
const char *mttd_coll_client_name(const struct mttd_coll *c, int client);
/* The path given to mttd_coll_load_file() (or the name given to
 * mttd_coll_load_mem()) the client was loaded from; NULL if no client. */
const char *mttd_coll_client_file(const struct mttd_coll *c, int client);

/* The client for a GUID (16 bytes, RFC 4122 order), or -1. */
int mttd_coll_client(const struct mttd_coll *c, const uint8_t guid[16]);

/* The entry of table in client matching key, or NULL. */
const struct mttd_coll_entry *mttd_coll_find(const struct mttd_coll *c,
					     int client, unsigned int table,
					     uint64_t key);

/* "{...}" or 32 hex digits with optional dashes -> 16 bytes; 0 or -1 */
int mttd_guid_parse(const char *s, uint8_t out[16]);

#ifdef __cplusplus
}
#endif

#endif
