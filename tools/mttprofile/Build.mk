# SPDX-License-Identifier: GPL-2.0
# mttprofile/Build.mk - the mttprofile command (the MiniProfiler host):
# libmprof, libmttsession.
MTTPROFILE_OBJ := $(call objs,mttprofile)

all: $(B)/mttprofile
$(B)/mttprofile: $(MTTPROFILE_OBJ) $(B)/libmprof.a $(B)/libmttsession.a
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $(MTTPROFILE_OBJ) \
		$(B)/libmprof.a $(B)/libmttsession.a $(MPROF_LIBS)

install: install-mttprofile
install-mttprofile: $(B)/mttprofile
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(B)/mttprofile $(DESTDIR)$(BINDIR)/mttprofile
	install -m 644 mttprofile/mttprofile.1 $(DESTDIR)$(MANDIR)/man1/mttprofile.1
	$(call install_completion,mttprofile)
