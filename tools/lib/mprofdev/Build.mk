# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/mprofdev/Build.mk - libmprofdev, the MiniProfiler's device side
# for Linux: the freestanding core (core.c, ring.c) and the Linux port
# (port/linux.c).  Linked by a program built with -finstrument-functions
# (the library itself is built without), public header
# include/mprofdev/mprofdev.h, its man page in man/man3/.  Firmware
# builds the core with its own compiler, fw/mprofdev_fw.c and a board
# file from port/ (include/mprofdev/mprofdev_fw.h; an example:
# tests/firmware/stm32f4/Makefile).
MPROFDEV_VERSION := $(MTTD_VERSION)
MPROFDEV_OWN := $(call objs,lib/mprofdev) $(B)/obj/lib/mprofdev/port/linux.o
MPROFDEV_OBJ := $(MPROFDEV_OWN) $(WIRE_OBJ)
$(MPROFDEV_OWN): CFLAGS_ALL += -pthread

all: $(B)/libmprofdev.a
$(B)/libmprofdev.a: $(MPROFDEV_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

install: install-libmprofdev
install-libmprofdev: $(B)/libmprofdev.a
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/mprofdev \
		$(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(PCDIR)
	install -m 644 $(B)/libmprofdev.a $(DESTDIR)$(LIBDIR)/libmprofdev.a
	install -m 644 lib/mprofdev/include/mprofdev/mprofdev.h \
		$(DESTDIR)$(INCDIR)/mprofdev/mprofdev.h
	install -m 644 lib/mprofdev/man/man3/*.3 $(DESTDIR)$(MANDIR)/man3/
	$(call subst_pc,lib/mprofdev/libmprofdev.pc.in,$(B)/libmprofdev.pc,$(MPROFDEV_VERSION))
	install -m 644 $(B)/libmprofdev.pc $(DESTDIR)$(PCDIR)/libmprofdev.pc
