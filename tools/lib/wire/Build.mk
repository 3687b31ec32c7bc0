# SPDX-License-Identifier: GPL-2.0
# lib/wire/Build.mk - libwire: the wire formats that a device and the host
# both speak (MiniProfiler frames and payloads), written once.  A static
# archive of position-independent objects, linked into the libraries
# that need it; never installed on its own.
WIRE_OBJ := $(call objs,lib/wire)
$(B)/libwire.a: $(WIRE_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
