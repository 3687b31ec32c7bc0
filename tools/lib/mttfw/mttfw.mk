# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/mttfw/mttfw.mk - for firmware makefiles: include it with MTTFW_DIR
# set to this folder (default: where this file is), then compile
# $(MTTFW_SRCS) with $(MTTFW_CPPFLAGS) like the firmware's own sources
# (C11, -ffreestanding).  Needs memcpy and memset (picolibc, newlib, or
# the firmware's own), nothing else of a C library.
MTTFW_DIR ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
# wire/crc.c: wire_crc16_ccitt_x4 or wire_crc16_ccitt, for the
# configuration's crc16 (frames with a CRC word); link with
# --gc-sections to drop what is not used
MTTFW_SRCS := $(MTTFW_DIR)/mttfw.c $(MTTFW_DIR)/cmd.c $(MTTFW_DIR)/rvencap.c \
	$(MTTFW_DIR)/../wire/crc.c
# fwinc: <linux/types.h> from <stdint.h>, for the uapi headers
MTTFW_CPPFLAGS := -I$(MTTFW_DIR)/include -I$(MTTFW_DIR)/fwinc \
	-I$(MTTFW_DIR)/../wire/include -I$(MTTFW_DIR)/../../../include/uapi
