# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/mttfw/Build.mk - libmttfw built for the host: MTT for firmware
# (mttfw/mttfw.h, mttfw/rvencap.h), freestanding C, here a static archive
# the host tests link (tests/host/mttfw.t) with a memory sink, and the
# CRC-16 of lib/wire.  Firmware builds include mttfw.mk instead.  Never
# installed.
MTTFW_OBJ := $(call objs,lib/mttfw)
$(MTTFW_OBJ): CPPFLAGS_LOCAL := -Ilib/mttfw/include
$(MTTFW_OBJ): CFLAGS_ALL += -ffreestanding

all: $(B)/libmttfw.a

# with wire_crc16_ccitt (lib/wire/crc.c), the configuration's crc16
$(B)/libmttfw.a: $(MTTFW_OBJ) $(B)/obj/lib/wire/crc.o
	rm -f $@
	$(AR) rcs $@ $^
