# SPDX-License-Identifier: GPL-2.0
# lib/session/Build.mk - libmttsession: the one reader of a session
# directory (what kind of session it is, its stream files, the metadata
# mttcontrol and mttprofile write into it), include/session/session.h.
# A static archive linked by mttcontrol, mttdecode and mttprofile; not
# installed.
SESSION_OBJ := $(call objs,lib/session)

all: $(B)/libmttsession.a
$(B)/libmttsession.a: $(SESSION_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
