# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/mtt/Build.mk - libmtt, the MTT API for applications (<mtt.h>):
# public headers in include/mtt/ (mtt_defs.h is the kernel's uapi file,
# linked in), internal headers in include/internal/, man(3) pages in
# man/man3/.  The shared object exports what libmtt.map lists.
LIBMTT_VERSION := 1.2.0
LIBMTT_SONAME := libmtt.so.1
LIBMTT_OBJ := $(call objs,lib/mtt)
$(LIBMTT_OBJ): CPPFLAGS_LOCAL := -Ilib/mtt/include -Ilib/mtt/include/mtt

all: $(B)/libmtt.a
ifneq ($(SANITIZE),1)
all: $(B)/libmtt.so
endif

$(B)/libmtt.a: $(LIBMTT_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/libmtt.so: $(LIBMTT_OBJ) lib/mtt/libmtt.map
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -shared -Wl,-soname,$(LIBMTT_SONAME) \
		-Wl,--version-script=lib/mtt/libmtt.map -o $@ $(LIBMTT_OBJ) \
		-lpthread

install: install-libmtt
install-libmtt: $(B)/libmtt.a $(B)/libmtt.so
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/mtt \
		$(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(PCDIR)
	install -m 644 $(B)/libmtt.a $(DESTDIR)$(LIBDIR)/libmtt.a
	install -m 755 $(B)/libmtt.so $(DESTDIR)$(LIBDIR)/$(LIBMTT_SONAME)
	ln -sf $(LIBMTT_SONAME) $(DESTDIR)$(LIBDIR)/libmtt.so
	install -m 644 lib/mtt/include/mtt/mtt.h \
		lib/mtt/include/mtt/mtt_defs.h $(DESTDIR)$(INCDIR)/mtt/
	install -m 644 lib/mtt/man/man3/*.3 $(DESTDIR)$(MANDIR)/man3/
	$(call subst_pc,lib/mtt/libmtt.pc.in,$(B)/libmtt.pc,$(LIBMTT_VERSION))
	install -m 644 $(B)/libmtt.pc $(DESTDIR)$(PCDIR)/libmtt.pc
