# SPDX-License-Identifier: GPL-2.0
# Top-level Makefile: kernel modules (via Kbuild), userspace tools, tests.
#
#   make            build every module and every tool
#   make demo       set up a fresh Debian 12 host, boot a VM, run a trace session
#   make demo-firmware  set up, build both test firmwares, run them under QEMU:
#                   a profile and flame graph of the STM32F405, its MTT traces and
#                   the RISC-V core's, in tests/vm/out/demo-firmware/
#   make demo-multi  the Linux VM and both boards in one mttcontrol session,
#                   left in tests/vm/out/multi/session
#   make check      set up, then unit tests, fuzz smoke runs, the firmware lane
#                   (QEMU boards) and the VM suite under prove
#   make bench      write-path (in the VM: a timed boot, then a boot that
#                   counts instructions), decoder (on the host) and firmware
#                   (bench-firmware: QEMU boards) figures;
#                   STM_BENCH_PERF=1: write-path profiles (perf) instead
#   make fuzz       longer libFuzzer runs of the decoder
#   make install    install modules (with depmod) and tools; DESTDIR=DIR stages
#                   both under DIR and touches nothing outside it
#   make arm64      cross-build the modules for Debian's arm64 kernel into
#                   build/arm64/, the tools into tools/build/arm64/
#                   (make armhf: for its armmp kernel, build/armhf/ and
#                   tools/build/armhf/)
#   make check-arm64  the whole VM suite on Debian's arm64 kernel under
#                   qemu-system-aarch64 (make check runs a subset of it)
#   make check-armhf  the same on Debian's armmp kernel under
#                   qemu-system-arm (make check runs a subset of it)
#
# KDIR selects the kernel build tree (default: scripts/kdir.sh).

# Empty on a fresh machine before `make deps`; sub-makes look again.
ifeq ($(KDIR),)
KDIR := $(shell $(CURDIR)/scripts/kdir.sh 2>/dev/null)
endif
PREFIX ?= /usr/local
DESTDIR ?=

export KDIR

.PHONY: fuzz
.PHONY: all modules tools tests deps check check-all check-files check-host check-firmware check-debian check-debug \
	check-rt check-k612 check-k612rt demo demo-firmware demo-multi bench bench-firmware install modules_install tools_install clean sparse \
	checkpatch arm64 armhf check-arm64 check-armhf

all: modules tools

modules:
	@test -n "$(KDIR)" || { echo "no kernel build tree: run 'make deps' or set KDIR" >&2; exit 1; }
	@$(CURDIR)/scripts/stm-class-kind.sh $(KDIR)
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools:
	$(MAKE) -C tools

# Cross-builds for Debian's Arm kernels, in copies of the sources
# (build/arm64, build/armhf), with headers fetched into /var/cache/stm-ci
# (scripts/cross-build.sh, Documentation/kernels.rst); the tools against
# Debian's libraries of that architecture, fetched the same way.
arm64 armhf:
	$(CURDIR)/scripts/cross-build.sh $@
	$(CURDIR)/scripts/cross-build.sh --tools $@

# Guest programs and the test-only modules (tests/kmod; never installed).
tests: modules tools
	$(MAKE) -C tests all kmod

# Install every package the build, tests and demo need (Debian 12).
deps:
	$(CURDIR)/scripts/install-deps.sh

# STM_CHECK_LOAD=1 keeps every host core busy for the whole run
# (scripts/with-load.sh): the suite must pass on a loaded machine.
LOAD := $(CURDIR)/scripts/with-load.sh

check: deps
	$(LOAD) $(MAKE) check-all

# Everything, the lanes side by side (scripts/check-all.sh says how).
check-all:
	$(CURDIR)/scripts/check-all.sh

# what check-all runs (tests/static/check-files.t: every .t is in it)
check-files:
	@$(CURDIR)/scripts/check-all.sh --list

# One part of the check at a time (after `make deps tests`):
check-host:
	$(LOAD) prove tests/static tests/host
check-firmware:
	$(LOAD) prove -v tests/firmware
check-debian:
	$(LOAD) prove -v tests/vm.t
check-debug:
	$(LOAD) prove -v -j2 tests/lanes/debug.t tests/lanes/debug-b.t
check-rt:
	$(LOAD) prove -v tests/lanes/rt.t
check-k612:
	$(LOAD) prove -v tests/lanes/k612.t
check-k612rt:
	$(LOAD) prove -v tests/lanes/k612rt.t
# the whole suite on arm64 (make check runs tests/lanes/arm64.t's subset)
check-arm64:
	STM_ARM64_SUITE=full $(LOAD) prove -v tests/lanes/arm64.t
# the whole suite on armhf (make check runs tests/lanes/armhf.t's subset)
check-armhf:
	STM_ARMHF_SUITE=full $(LOAD) prove -v tests/lanes/armhf.t

# Longer fuzzing of the decoder's STP and SyS-T layers (libFuzzer).
fuzz: deps
	$(MAKE) -C tools fuzz-long

# The Linux VM's session, then the three-target one (DEMO_PINGS
# exchanges with each MTT board), merged on the host (tests/vm/multi.sh).
DEMO_PINGS ?= 20
demo: deps
	$(MAKE) tests
	$(CURDIR)/tests/vm/demo.sh
	$(CURDIR)/tests/vm/multi.sh $(DEMO_PINGS)

# No VM, no kernel: the tools and the two QEMU boards (tests/firmware/demo.sh).
demo-firmware: deps
	$(MAKE) tools
	$(CURDIR)/tests/firmware/demo.sh

# The three-target session alone (make demo's second part; 100 pings): the
# session directory lands in tests/vm/out/multi/session.
demo-multi: deps
	$(MAKE) tests
	$(CURDIR)/tests/vm/multi.sh

bench: deps
	$(MAKE) tests
	$(if $(filter 1,$(STM_BENCH_PERF)),,$(MAKE) -C tools bench)
	$(if $(filter 1,$(STM_BENCH_PERF)),,$(MAKE) bench-firmware)
	$(CURDIR)/tests/vm/bench.sh
	$(if $(filter 1,$(STM_BENCH_PERF)),,STM_BENCH_COST=1 $(CURDIR)/tests/vm/bench.sh)

# the firmware libraries' figures (Documentation/firmware.rst, Figures):
# instructions per hook and mtt_trace stepped under QEMU, sizes
bench-firmware: deps
	$(MAKE) tools
	$(CURDIR)/tests/firmware/bench.sh

install: modules_install tools_install

# DESTDIR (or INSTALL_MOD_PATH) stages the modules: they go to
# $(DESTDIR)/lib/modules/<release>/extra/stm and depmod runs on that tree
# only (depmod -b), as the kernel's modules_install does; nothing outside
# it is touched.  Without either, the live /lib/modules and depmod -a.
# (Absolute paths: the sub-makes run elsewhere.)
INSTALL_MOD_PATH ?= $(DESTDIR)
mod_path := $(abspath $(INSTALL_MOD_PATH))

modules_install:
	@$(CURDIR)/scripts/stm-class-kind.sh $(KDIR)
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra/stm \
		$(if $(mod_path),INSTALL_MOD_PATH=$(mod_path)) modules_install
	depmod -a $(if $(mod_path),-b $(mod_path)) \
		$$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$$/\1/p' $(KDIR)/include/generated/utsrelease.h)

tools_install:
	$(MAKE) -C tools install PREFIX=$(PREFIX) DESTDIR=$(abspath $(DESTDIR))

# Static checks of the kernel code: sparse, and checkpatch from linux-source-6.1.
sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 W=1 modules
	$(MAKE) -C $(KDIR) M=$(CURDIR)/tests/kmod C=2 W=1 modules

checkpatch:
	$(CURDIR)/scripts/checkpatch.sh

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools clean
	$(MAKE) -C tests clean
