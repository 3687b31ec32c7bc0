#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Smoke test of the VM rig: the kernel the host meant to boot, the file
# systems the init mounts, fsop, and a load/unload of stm_core.ko (a
# missing module is a failure, never a skip).
. /stm/tests/lib.sh

tap_eq "kernel release is the one the host booted" "$(stm_param kver)" "$(uname -r)"
tap_check "configfs mounted on /sys/kernel/config" grep -q ' /sys/kernel/config configfs ' /proc/mounts
tap_check "debugfs mounted on /sys/kernel/debug" grep -q ' /sys/kernel/debug debugfs ' /proc/mounts
tap_check "tmpfs on /tmp" grep -q ' /tmp tmpfs ' /proc/mounts

tap_errno "fsop: mkdir on tmpfs" OK fsop mkdir /tmp/smoke
tap_errno "fsop: mkdir again is EEXIST" EEXIST fsop mkdir /tmp/smoke
echo first >/tmp/smoke/f
tap_errno "fsop: write a file" OK fsop write /tmp/smoke/f hello
tap_eq "fsop: read it back" "hello" "$(fsop cat /tmp/smoke/f)"
tap_errno "fsop: write to a missing file is ENOENT" ENOENT fsop write /tmp/smoke/nope x
tap_errno "fsop: open of a missing file is ENOENT" ENOENT fsop open /tmp/nope ro
tap_errno "fsop: rmdir of a non-empty dir is ENOTEMPTY" ENOTEMPTY fsop rmdir /tmp/smoke

if [ -f /stm/modules/stm_core.ko ]; then
	tap_ok "stm_core.ko is in the initramfs"
	tap_eq "stm_core.ko built for this kernel" "$(uname -r)" "$(mod_vermagic stm_core)"
	tap_check "insmod stm_core" mod_load stm_core
	tap_check "stm_core is in /proc/modules" mod_loaded stm_core
	tap_check "rmmod stm_core" mod_unload stm_core
	tap_fails "stm_core is gone" mod_loaded stm_core
else
	tap_fail "stm_core.ko is in the initramfs"
	tap_diag "modules present: $(ls /stm/modules)"
fi
exit 0
