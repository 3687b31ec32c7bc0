/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttdecode/mttdecode.h - libmttdecode: decoders for MIPI STPv2 trace
 * streams: the STP packet layer and message reassembly (stp.h, msg.h),
 * the MIPI SyS-T message decoder (syst.h) with its collateral
 * (collateral.h), STP policy source names (policy.h) and Linux ftrace
 * records (ftrace.h), RISC-V trace encapsulation (riscv.h), Intel TH MSC
 * and CoreSight formatter framing (frame.h).  Link with -lmttdecode
 * -lexpat.
 */
#ifndef MTTDECODE_MTTDECODE_H
#define MTTDECODE_MTTDECODE_H

#include "mttdecode/stp.h"
#include "mttdecode/msg.h"
#include "mttdecode/syst.h"
#include "mttdecode/collateral.h"
#include "mttdecode/policy.h"
#include "mttdecode/ftrace.h"
#include "mttdecode/riscv.h"
#include "mttdecode/framing.h"
#include "mttdecode/mttframe.h"

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
