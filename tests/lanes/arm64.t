#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The arm64 lane under prove: Debian's arm64 6.1 kernel (linux-image-<abi>
# of the headers' ABI, fetched and unpacked into the cache, never
# installed: scripts/cross-kdir.sh --image) boots under
# qemu-system-aarch64 -M virt -cpu max (TCG) with our modules and the test
# modules cross-built against its headers (scripts/cross-build.sh arm64),
# Debian's arm64 busybox-static, the tools cross-built for arm64 with
# their arm64 shared libraries, and the guest programs built static for
# aarch64 (tests/vm/env.sh, STM_VM_ARCH=arm64).  The same suite.sh as the
# other lanes, the same kernel log scan.
#   prove -v tests/lanes/arm64.t     (make check: the subset below)
#   STM_ARM64_SUITE=full prove -v tests/lanes/arm64.t   (make check-arm64)
# The subset: the class and its policy, p_basic, p_sys-t, swstm in STP and
# RISC-V formats, MTT, libmtt (threads and mmap), mttcontrol and the
# source reload stress, at a quarter of its rounds (Documentation/
# testing.rst, "The arm64 lane").  Without qemu-system-aarch64, qemu-aarch64,
# the cross compiler or the arm64 C library, or when Debian's arm64
# packages cannot be fetched, the lane SKIPs naming what is missing,
# unless STM_CHECK_ARM=1: then it fails (tests/lanes/arm.sh, shared with
# the armhf lane).
arch=arm64
t=aarch64-linux-gnu
qsys="qemu-system-aarch64 (qemu-system-arm)"
quser=qemu-aarch64
subset=t-00-smoke,t-10-class-abi,t-11-source-link,t-12-source-reload,t-31-swstm-roundtrip,t-40-syst-protocol,t-46-swstm-riscv,t-60-mtt-api,t-64-libmtt,t-65-libmtt-mmap,t-70-mttcontrol
suite=${STM_ARM64_SUITE:-subset} suitevar=STM_ARM64_SUITE
. "$(dirname "$0")/arm.sh"
