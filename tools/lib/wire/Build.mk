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
