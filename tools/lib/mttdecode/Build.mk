# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/mttdecode/Build.mk - libmttdecode, the decoding library: one folder
# per protocol or layer (stp/, syst/, mtt/, riscv/, framing/, names/,
# msg/, util/), public headers in include/mttdecode/, headers shared
# between its folders in include/internal/, man(3) pages in man/man3/.
# The shared object exports what libmttdecode.map lists: the public API.
MTTD_VERSION := $(shell sed -n \
	's/^\#define MTTD_VERSION_STRING "\(.*\)"/\1/p' \
	lib/mttdecode/include/mttdecode/mttdecode.h)
MTTD_SONAME := libmttdecode.so.0
MTTD_DIRS := $(wildcard lib/mttdecode/*/)
# libwire's objects (the CRCs) are part of the library
MTTD_OBJ := $(call objs,$(MTTD_DIRS:/=))
MTTD_ALL_OBJ := $(MTTD_OBJ) $(WIRE_OBJ)
# collateral XML is read with expat (Debian: libexpat1-dev)
MTTD_LIBS := -lexpat
$(MTTD_OBJ): CPPFLAGS_LOCAL := -Ilib/mttdecode/include

all: $(B)/libmttdecode.a
ifneq ($(SANITIZE),1)
all: $(B)/libmttdecode.so
endif

$(B)/libmttdecode.a: $(MTTD_ALL_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/libmttdecode.so: $(MTTD_ALL_OBJ) lib/mttdecode/libmttdecode.map
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -shared -Wl,-soname,$(MTTD_SONAME) \
		-Wl,--version-script=lib/mttdecode/libmttdecode.map \
		-o $@ $(MTTD_ALL_OBJ) $(MTTD_LIBS)

install: install-libmttdecode
install-libmttdecode: $(B)/libmttdecode.a $(B)/libmttdecode.so
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/mttdecode \
		$(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(PCDIR)
	install -m 644 $(B)/libmttdecode.a $(DESTDIR)$(LIBDIR)/libmttdecode.a
	install -m 755 $(B)/libmttdecode.so $(DESTDIR)$(LIBDIR)/$(MTTD_SONAME)
	ln -sf $(MTTD_SONAME) $(DESTDIR)$(LIBDIR)/libmttdecode.so
	install -m 644 lib/mttdecode/include/mttdecode/*.h \
		$(DESTDIR)$(INCDIR)/mttdecode/
	install -m 644 lib/mttdecode/man/man3/*.3 $(DESTDIR)$(MANDIR)/man3/
	$(call subst_pc,lib/mttdecode/libmttdecode.pc.in,$(B)/libmttdecode.pc,$(MTTD_VERSION))
	install -m 644 $(B)/libmttdecode.pc $(DESTDIR)$(PCDIR)/libmttdecode.pc
