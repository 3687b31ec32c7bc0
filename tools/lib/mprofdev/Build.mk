# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/mprofdev/Build.mk - libmprofdev, the MiniProfiler's device side:
# linked by a program built with -finstrument-functions (the library
# itself is built without), public header include/mprofdev/mprofdev.h,
# its man page in man/man3/.
MPROFDEV_VERSION := $(MTTD_VERSION)
MPROFDEV_OBJ := $(call objs,lib/mprofdev) $(WIRE_OBJ)
$(call objs,lib/mprofdev): CFLAGS_ALL += -pthread

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
