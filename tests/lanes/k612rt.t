#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian 6.12 PREEMPT_RT lane under prove: tests/lanes/k612.t on
# linux-image-6.12-rt-amd64 (the kernel's STM class, our swstm and MTT,
# built against linux-headers-6.12-rt-amd64).
#   prove -v tests/lanes/k612rt.t    (or: make check-k612rt)
STM_K612_FLAVOUR=rt exec "$(dirname "$0")/k612.t"
