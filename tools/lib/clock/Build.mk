# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/clock/Build.mk - libmttclock, one target's clock on the session's
# reference clock from send-before-receive bounds (the convex-hull
# method; Documentation/clock-sync.rst): public header
# include/mttclock/clock.h, its man(3) pages in man/man3/.  The shared
# object exports what libmttclock.map lists.
LIBMTTCLOCK_VERSION := 0.1.0
LIBMTTCLOCK_SONAME := libmttclock.so.0
LIBMTTCLOCK_OBJ := $(call objs,lib/clock)

all: $(B)/libmttclock.a
ifneq ($(SANITIZE),1)
all: $(B)/libmttclock.so
endif

$(B)/libmttclock.a: $(LIBMTTCLOCK_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/libmttclock.so: $(LIBMTTCLOCK_OBJ) lib/clock/libmttclock.map
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -shared \
		-Wl,-soname,$(LIBMTTCLOCK_SONAME) \
		-Wl,--version-script=lib/clock/libmttclock.map -o $@ \
		$(LIBMTTCLOCK_OBJ) -lm

install: install-libmttclock
install-libmttclock: $(B)/libmttclock.a $(B)/libmttclock.so
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/mttclock \
		$(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(PCDIR)
	install -m 644 $(B)/libmttclock.a $(DESTDIR)$(LIBDIR)/libmttclock.a
	install -m 755 $(B)/libmttclock.so \
		$(DESTDIR)$(LIBDIR)/$(LIBMTTCLOCK_SONAME)
	ln -sf $(LIBMTTCLOCK_SONAME) $(DESTDIR)$(LIBDIR)/libmttclock.so
	install -m 644 lib/clock/include/mttclock/clock.h \
		$(DESTDIR)$(INCDIR)/mttclock/clock.h
	install -m 644 lib/clock/man/man3/*.3 $(DESTDIR)$(MANDIR)/man3/
	$(call subst_pc,lib/clock/libmttclock.pc.in,$(B)/libmttclock.pc,$(LIBMTTCLOCK_VERSION))
	install -m 644 $(B)/libmttclock.pc $(DESTDIR)$(PCDIR)/libmttclock.pc
