#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The armhf lane under prove: Debian's armmp 6.1 kernel (linux-image-<abi>
# of the armhf headers' ABI, fetched and unpacked into the cache, never
# installed: scripts/cross-kdir.sh --image armhf) boots under
# qemu-system-arm -M virt -cpu cortex-a15 (TCG, 2 vCPUs; an ARMv7 core as
# the STM32MP1's Cortex-A7) with our modules and the test modules
# cross-built against its headers (scripts/cross-build.sh armhf), Debian's
# armhf busybox-static, the tools cross-built for armhf with their armhf
# shared libraries (scripts/cross-build.sh --tools armhf: the guest
# scripts decode with mttdecode), and the guest programs built static
# with arm-linux-gnueabihf-gcc (tests/vm/env.sh, STM_VM_ARCH=armhf).  The
# same suite.sh as the other lanes, the same kernel log scan.
#   prove -v tests/lanes/armhf.t     (make check: the subset below)
#   STM_ARMHF_SUITE=full prove -v tests/lanes/armhf.t   (make check-armhf)
# The subset: the class and its policy, source links, p_basic, p_sys-t,
# swstm in STP and RISC-V formats, swstm's concurrent writers, the
# contexts (ARMv7 has no NMI: the NMI writer reports "not proven"), the
# MTT API, at stm.stress=25 (Documentation/testing.rst, "The armhf
# lane").  Without qemu-system-arm, qemu-arm, the cross compiler or the
# armhf C library, or when Debian's armhf packages cannot be fetched, the
# lane SKIPs naming what is missing, unless STM_CHECK_ARM=1: then it
# fails (tests/lanes/arm.sh, shared with the arm64 lane).
arch=armhf
t=arm-linux-gnueabihf
qsys=qemu-system-arm
quser=qemu-arm
subset=t-00-smoke,t-10-class-abi,t-11-source-link,t-31-swstm-roundtrip,t-33-swstm-concurrent,t-40-syst-protocol,t-46-swstm-riscv,t-50-contexts,t-60-mtt-api
suite=${STM_ARMHF_SUITE:-subset} suitevar=STM_ARMHF_SUITE
. "$(dirname "$0")/arm.sh"
