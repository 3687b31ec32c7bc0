# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/wire/Build.mk - libwire: what a device and the host both need of the
# wire formats, written once: the CRCs (wire/crc.h), the MiniProfiler's
# frames and payloads (wire/mprof_wire.h).  A static
# archive of position-independent objects, linked into the libraries
# that need it; never installed on its own.
WIRE_OBJ := $(call objs,lib/wire)
$(B)/libwire.a: $(WIRE_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# x86-64 hosts: wire_crc32c() from crc32c_x86.c (SSE4.2 when the CPU has
# it, chosen at load time); crc.c keeps the table, plain C, for all
ifneq ($(filter x86_64-%,$(shell $(CC) -dumpmachine)),)
$(B)/obj/lib/wire/%.o: CPPFLAGS_LOCAL += -DWIRE_CRC32C_X86
endif
