/*
 * mttdecode/mttdecode.h - libmttdecode: decoders for MIPI STPv2 trace
 * streams (the STP packet layer and message reassembly; SyS-T, MTT and
 * other layers attach as message sinks, see msg.h).
 */
#ifndef MTTDECODE_MTTDECODE_H
#define MTTDECODE_MTTDECODE_H

#include "mttdecode/stp.h"
#include "mttdecode/msg.h"

#define MTTD_VERSION_MAJOR 0
#define MTTD_VERSION_MINOR 1
#define MTTD_VERSION_PATCH 0
#define MTTD_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version, e.g. "0.1.0". */
const char *mttd_version(void);

#ifdef __cplusplus
}
#endif

#endif
