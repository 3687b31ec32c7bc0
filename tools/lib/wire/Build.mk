# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/wire/Build.mk - libwire: what a device and the host both need of the
# wire formats, written once: the CRCs (wire/crc.h), the MiniProfiler's
# frames and payloads (wire/mprof_wire.h).  No archive of its own: its
# position-independent objects (WIRE_OBJ) are part of the libraries that
# need them (libmttdecode, libmprof, libmprofdev); never installed alone.
WIRE_OBJ := $(call objs,lib/wire)

# x86-64 and arm64 hosts with glibc (GNU indirect functions): wire_crc32c()
# from crc32c_hw.c, the CPU's CRC-32C instruction when it has one (SSE4.2
# crc32, ARMv8 CRC32C), chosen at load time; crc.c keeps the table, plain
# C, for all (musl, other targets and the firmware: the table alone)
ifneq ($(filter x86_64-%-gnu aarch64-%-gnu,$(shell $(CC) -dumpmachine)),)
$(B)/obj/lib/wire/%.o: CPPFLAGS_LOCAL += -DWIRE_CRC32C_HW
endif
