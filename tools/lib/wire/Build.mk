# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/wire/Build.mk - libwire: what a device and the host both need of the
# wire formats, written once: the CRCs (wire/crc.h), the MiniProfiler's
# frames and payloads (wire/mprof_wire.h).  No archive of its own: its
# position-independent objects (WIRE_OBJ) are part of the libraries that
# need them (libmttdecode, libmprof, libmprofdev); never installed alone.
WIRE_OBJ := $(call objs,lib/wire)

# x86-64 hosts: wire_crc32c() from crc32c_x86.c (SSE4.2 when the CPU has
# it, chosen at load time); crc.c keeps the table, plain C, for all
ifneq ($(filter x86_64-%,$(shell $(CC) -dumpmachine)),)
$(B)/obj/lib/wire/%.o: CPPFLAGS_LOCAL += -DWIRE_CRC32C_X86
endif
