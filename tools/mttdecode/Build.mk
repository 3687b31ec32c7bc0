# SPDX-License-Identifier: GPL-2.0
# mttdecode/Build.mk - the mttdecode command: libmttdecode, libmprof for
# MiniProfiler captures, libmttsession for session directories,
# libmttclock for a merged session's clocks.  It links the static
# archives and uses two internal headers of libmttdecode:
# internal/state.h (the decoder state that the parallel decoder, par.c,
# compares between pieces) and internal/simd.h (esc.c's SSE2 path, on the
# library's MTTD_SSE2 switch).
MTTDECODE_OBJ := $(call objs,mttdecode)
$(MTTDECODE_OBJ): CPPFLAGS_LOCAL := -Ilib/mttdecode/include

all: $(B)/mttdecode
$(B)/mttdecode: $(MTTDECODE_OBJ) $(B)/libmttdecode.a $(B)/libmprof.a \
		$(B)/libmttsession.a $(B)/libmttclock.a
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $(MTTDECODE_OBJ) \
		$(B)/libmttdecode.a $(B)/libmprof.a $(B)/libmttsession.a \
		$(B)/libmttclock.a \
		$(MTTD_LIBS) $(MPROF_LIBS) -lm -pthread

install: install-mttdecode
install-mttdecode: $(B)/mttdecode
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(B)/mttdecode $(DESTDIR)$(BINDIR)/mttdecode
	install -m 644 mttdecode/mttdecode.1 $(DESTDIR)$(MANDIR)/man1/mttdecode.1
	$(call install_completion,mttdecode)
