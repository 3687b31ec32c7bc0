# SPDX-License-Identifier: GPL-2.0
# mttcontrol/Build.mk - the mttcontrol command: libmttdecode (names, the
# counts of --stop), libmprof (serial ports, MiniProfiler captures of
# serial targets), libmttsession (session directories), libconfig and
# libudev (Debian: libconfig-dev, libudev-dev).
MTTCONTROL_OBJ := $(call objs,mttcontrol)
MTTCONTROL_LIBS := -lconfig -ludev

all: $(B)/mttcontrol
$(B)/mttcontrol: $(MTTCONTROL_OBJ) $(B)/libmttdecode.a $(B)/libmprof.a \
		$(B)/libmttsession.a
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $(MTTCONTROL_OBJ) \
		$(B)/libmttdecode.a $(B)/libmprof.a $(B)/libmttsession.a \
		$(MTTCONTROL_LIBS) $(MTTD_LIBS) $(MPROF_LIBS)

install: install-mttcontrol
install-mttcontrol: $(B)/mttcontrol
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8
	install -m 755 $(B)/mttcontrol $(DESTDIR)$(BINDIR)/mttcontrol
	install -m 644 mttcontrol/mttcontrol.8 $(DESTDIR)$(MANDIR)/man8/mttcontrol.8
	$(call install_completion,mttcontrol)
