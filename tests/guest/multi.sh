#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The three-target session (issue 21 section 4), run in the VM by
# tests/vm/multi.sh (make demo-multi, tests/firmware/multi.t): one
# mttcontrol session records the Linux stream (swstm) and the two
# firmware boards, wired by QEMU socket chardevs to ttyS2 (STM32F405
# USART1, MiniProfiler, its ELF /stm/tests/stm32.elf), ttyS3 (USART2,
# MTT) and ttyS4 (the RISC-V board's UART, MTT in RISC-V encapsulation).
# ping_exchange runs PINGS causal exchanges with each MTT target (stm.
# pings=N on the kernel command line, default 100); then, once the
# profile holds the STM32F405's whole work, the session is stopped and
# exported (multi-session.tar.gz) with --stop's summary (multi-stop.txt).
# Each clock exchange waits up to 60 s for its reply (sync_wait_ms, a hang
# guard): multi.t counts a reply to every request.
# Non-zero exit on failure.
. /stm/tests/lib.sh

die() { echo "multi failed: $*"; exit 1; }
PINGS=$(sed -n 's/.*stm\.pings=\([0-9]*\).*/\1/p' /proc/cmdline)
: "${PINGS:=100}"
CONF=/tmp/multi.conf
S=/tmp/multi-session
cat >$CONF <<X
device = "swstm.0";
modules = ( "/stm/modules/stm_core.ko", "/stm/modules/stm_p_sys-t.ko",
	    "/stm/modules/swstm.ko" );
policy = {
	name = "multi";
	protocol = "p_sys-t";
	nodes = ( { path = "default"; masters = 1; channels = [0, 63]; } );
};
sink = { overwrite = false; };
targets = (
	{ name = "prof"; port = "/dev/ttyS2"; protocol = "mprof";
	  elf = "/stm/tests/stm32.elf"; sync_interval_ms = 0;
	  sync_wait_ms = 60000; },
	{ name = "mtt"; port = "/dev/ttyS3"; protocol = "mtt";
	  sync_wait_ms = 60000; },
	{ name = "rv"; port = "/dev/ttyS4"; protocol = "riscv-encap";
	  srcid_bits = 8; ts_bytes = 4; unframed = true;
	  srcid_proto = "*:mtt"; mtt_start = true; sync_wait_ms = 60000; }
);
X
mttcontrol --setup $CONF || die "setup"
mttcontrol --start -c $CONF -o $S || die "start"
# the STM32F405's work opens its components first (hang guard 600 s):
# the firmware opens "ping" at the first ping (tests/firmware/ping.h),
# so the work's component ids are fixed only if that comes after.  The
# RISC-V core answers once its work is done: its pings wait meanwhile
i=0
until mttdecode --input=mtt $S/targets/mtt/capture.bin 2>/dev/null | grep -q '"tick"'; do
	[ $i -lt 6000 ] || die "the STM32F405's work never began on USART2"
	sleep 0.1
	i=$((i + 1))
done
ping_exchange -n "$PINGS" "mtt:/dev/ttyS3:$S/targets/mtt/capture.bin" \
	"rv:/dev/ttyS4:$S/targets/rv/capture.bin" || die "ping_exchange"
# the STM32F405's profile: its 12 * 25 calls (hang guard 600 s)
i=0
until mttdecode $S/targets/prof 2>/dev/null | grep -q '^# 300 calls '; do
	[ $i -lt 6000 ] || die "the profile never held 300 calls"
	sleep 0.1
	i=$((i + 1))
done
mttcontrol --stop >/tmp/multi-stop.txt 2>&1 || { cat /tmp/multi-stop.txt; die "stop"; }
cat /tmp/multi-stop.txt
tar czf /tmp/multi-session.tar.gz -C /tmp multi-session || die "tar"
export_file /tmp/multi-session.tar.gz multi-session.tar.gz || die "export_file $S"
export_file /tmp/multi-stop.txt multi-stop.txt || die "export_file stop"
mttcontrol --teardown $CONF
echo "multi: $PINGS exchanges with each MTT target, session exported"
