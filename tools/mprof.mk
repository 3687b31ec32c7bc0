# SPDX-License-Identifier: GPL-2.0
# mprof.mk - MiniProfiler, included by tools/Makefile:
#   build/libmprof.a     host side: parser, profile, symbols (libelf), reports
#   build/libmprofdev.a  device side, linked by a program built with
#                        -finstrument-functions (itself built without)
#   build/mttprofile     the capture tool
# mttdecode links libmprof to read MiniProfiler captures.

MPROF_CPPFLAGS := -Improf -Improfdev -D_DEFAULT_SOURCE $(CPPFLAGS)
MPROF_LIBS := -lelf
MPROF_HDR := $(wildcard mprof/*.h mprofdev/*.h)
MPROF_SRC := $(wildcard mprof/*.c) mprofdev/mprof_wire.c
MPROF_OBJ := $(MPROF_SRC:%.c=$(B)/obj/mprof-host/%.o)
MPROFDEV_SRC := $(wildcard mprofdev/*.c)
MPROFDEV_OBJ := $(MPROFDEV_SRC:%.c=$(B)/obj/mprof-dev/%.o)
MTTPROFILE_SRC := $(wildcard mttprofile/*.c)

all: $(B)/mttprofile $(B)/libmprofdev.a

$(B)/obj/mprof-host/%.o: %.c $(MPROF_HDR)
	@mkdir -p $(@D)
	$(CC) $(MPROF_CPPFLAGS) $(CFLAGS_ALL) -c -o $@ $<

$(B)/obj/mprof-dev/%.o: %.c $(MPROF_HDR)
	@mkdir -p $(@D)
	$(CC) $(MPROF_CPPFLAGS) $(CFLAGS_ALL) -fPIC -pthread -c -o $@ $<

$(B)/libmprof.a: $(MPROF_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/libmprofdev.a: $(MPROFDEV_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/mttprofile: $(MTTPROFILE_SRC) mttprofile/mttprofile.h $(B)/libmprof.a \
		lib/session/session.h $(SESS_LIB)
	$(CC) $(MPROF_CPPFLAGS) -Ilib/session $(CFLAGS_ALL) $(LDFLAGS) -o $@ \
		$(MTTPROFILE_SRC) $(B)/libmprof.a $(SESS_LIB) $(MPROF_LIBS)

# mttdecode's MiniProfiler input (mttdecode/mprof.c, sniff.c): one
# hand-off to libmprof
$(B)/obj/cli/mprof.o $(B)/obj/cli/sniff.o: CPPFLAGS_ALL += -Improf -Improfdev
$(B)/obj/cli/mprof.o $(B)/obj/cli/sniff.o: $(MPROF_HDR)
$(B)/mttdecode: $(B)/libmprof.a
MPROF_LINK := $(B)/libmprof.a $(MPROF_LIBS)

install: install-mprof
install-mprof: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(INCDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man3
	install -m 755 $(B)/mttprofile $(DESTDIR)$(BINDIR)/mttprofile
	install -m 644 $(B)/libmprofdev.a $(DESTDIR)$(LIBDIR)/libmprofdev.a
	install -m 644 mprofdev/mprofdev.h $(DESTDIR)$(INCDIR)/mprofdev.h
	install -m 644 mttprofile/mttprofile.1 $(DESTDIR)$(MANDIR)/man1/mttprofile.1
	install -m 644 mprofdev/libmprofdev.3 $(DESTDIR)$(MANDIR)/man3/libmprofdev.3

# libFuzzer target of the parser and analysis; seeds in fuzz/corpus-mprof/
FUZZ_TARGETS += $(B)/fuzz/fuzz_mprof
fuzz: $(B)/fuzz/fuzz_mprof
$(B)/fuzz/fuzz_mprof: fuzz/fuzz_mprof.c $(MPROF_SRC) $(MPROF_HDR) | $(B)/fuzz
	$(FUZZ_CC) $(MPROF_CPPFLAGS) $(FUZZ_FLAGS) -o $@ $< $(MPROF_SRC) \
		$(MPROF_LIBS)
