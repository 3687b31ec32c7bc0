# SPDX-License-Identifier: GPL-2.0
# lib/mprof/Build.mk - libmprof, the MiniProfiler's host side: the
# protocol parser, the profile, symbols (libelf) and the reports, public
# header include/mprof/mprof.h.  A static archive, linked by mttprofile,
# mttdecode and mttcontrol; not installed.
MPROF_OBJ := $(call objs,lib/mprof) $(WIRE_OBJ)
MPROF_LIBS := -lelf

all: $(B)/libmprof.a
$(B)/libmprof.a: $(MPROF_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
