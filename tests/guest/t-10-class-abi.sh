#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The STM class user ABI on dummy_stm: module load, sysfs, the configfs
# policy tree, the char device's write/ioctl/mmap, with the errno of
# every mistake (upstream's errnos, see Documentation/abi.rst).
. /stm/tests/lib.sh

CFG=/sys/kernel/config/stp-policy
P=$CFG/dummy_stm.0.pol

# --- module load ---------------------------------------------------------
mod_load stm_core
tap_check "stm class registered" test -d /sys/class/stm
tap_check "stm_source class registered" test -d /sys/class/stm_source
tap_check "configfs stp-policy present" test -d $CFG
if insmod /stm/modules/stm_core.ko 2>/dev/null; then
	tap_fail "second stm_core load refused"
else
	tap_ok "second stm_core load refused"
fi
mod_load stm_p_basic

if insmod /stm/modules/dummy_stm.ko master_min=9 master_max=3 2>/dev/null; then
	tap_fail "dummy_stm with master_min > master_max refused"
	rmmod dummy_stm
else
	tap_ok "dummy_stm with master_min > master_max refused"
fi
D_KO=$STM_MODDIR/dummy_stm.ko
tap_errno "dummy_stm nr_dummies=33 refused (upstream max 32)" EINVAL fsop insmod $D_KO nr_dummies=33
tap_errno "dummy_stm nr_dummies=-1 refused" EINVAL fsop insmod $D_KO nr_dummies=-1
tap_errno "dummy_stm nr_dummies=0 loads" OK fsop insmod $D_KO nr_dummies=0
tap_eq "nr_dummies=0: no device" "" "$(ls /sys/class/stm | grep '^dummy_stm' | tr '\n' ' ')"
rmmod dummy_stm
tap_errno "dummy_stm nr_dummies=32 loads" OK fsop insmod $D_KO nr_dummies=32 master_max=1 nr_channels=4
tap_eq "nr_dummies=32: dummy_stm.0 to dummy_stm.31" "32 dummy_stm.31" \
	"$(ls /sys/class/stm | grep -c '^dummy_stm\.') $(ls /sys/class/stm | grep '^dummy_stm\.' | sort -t. -k2 -n | tail -n 1)"
rmmod dummy_stm
mod_load dummy_stm nr_dummies=2 master_min=16 master_max=31 nr_channels=64

# --- sysfs ---------------------------------------------------------------
tap_eq "masters attribute" "16 31" "$(cat /sys/class/stm/dummy_stm.0/masters)"
tap_eq "channels attribute" "64" "$(cat /sys/class/stm/dummy_stm.0/channels)"
tap_eq "hw_override attribute" "0" "$(cat /sys/class/stm/dummy_stm.0/hw_override)"
tap_errno "hw_override is read-only" EACCES fsop write /sys/class/stm/dummy_stm.0/hw_override 1
tap_check "char device node" test -c /dev/dummy_stm.0
tap_eq "char device minor 0" "0" "$(cut -d: -f2 /sys/class/stm/dummy_stm.0/dev)"

# --- policy directories ----------------------------------------------------
tap_errno "policy name without a dot" EINVAL fsop mkdir $CFG/nodot
tap_errno "policy for an unknown device" ENODEV fsop mkdir $CFG/nosuch.pol
tap_errno "policy with an unknown protocol" ENODEV fsop mkdir $CFG/dummy_stm.0:p_nosuch.pol
tap_errno "policy device name split on the last dot" ENODEV fsop mkdir $CFG/dummy_stm.pol
tap_errno "policy with an empty device name" ENODEV fsop mkdir $CFG/.pol
tap_errno "policy with an empty name (upstream accepts 'dev.')" OK fsop mkdir $CFG/dummy_stm.1.
tap_eq "empty-name policy bound" "dummy_stm.1 p_basic" "$(cat $CFG/dummy_stm.1./device) $(cat $CFG/dummy_stm.1./protocol)"
tap_errno "empty-name policy removable" OK fsop rmdir $CFG/dummy_stm.1.
tap_errno "policy with an empty protocol name" OK fsop mkdir $CFG/dummy_stm.1:.e
tap_eq "empty protocol name means p_basic" "p_basic" "$(cat $CFG/dummy_stm.1:.e/protocol)"
fsop rmdir $CFG/dummy_stm.1:.e >/dev/null
tap_errno "policy create" OK fsop mkdir $P
tap_errno "second policy for the same device" EBUSY fsop mkdir $CFG/dummy_stm.0.other
tap_eq "policy device attribute" "dummy_stm.0" "$(cat $P/device)"
tap_eq "policy protocol defaults to p_basic" "p_basic" "$(cat $P/protocol)"
tap_errno "explicit protocol" OK fsop mkdir $CFG/dummy_stm.1:p_basic.x
tap_eq "explicit protocol attribute" "p_basic" "$(cat $CFG/dummy_stm.1:p_basic.x/protocol)"
tap_errno "policy device attribute is read-only" EACCES fsop write $P/device x

# --- policy nodes ----------------------------------------------------------
tap_errno "node create" OK fsop mkdir $P/user
tap_eq "node masters default to the device range" "16 31" "$(cat $P/user/masters)"
tap_eq "node channels default to the device range" "0 63" "$(cat $P/user/channels)"
tap_errno "masters set" OK fsop write $P/user/masters "17 20"
tap_eq "masters read back" "17 20" "$(cat $P/user/masters)"
tap_errno "masters first > last" ERANGE fsop write $P/user/masters "20 17"
tap_errno "masters below the device range" ERANGE fsop write $P/user/masters "15 20"
tap_errno "masters above the device range" ERANGE fsop write $P/user/masters "16 32"
tap_errno "masters negative" EINVAL fsop write $P/user/masters "-1 20"
tap_errno "masters unparsable" EINVAL fsop write $P/user/masters "abc"
tap_errno "masters one number" EINVAL fsop write $P/user/masters "5"
tap_eq "masters unchanged by bad writes" "17 20" "$(cat $P/user/masters)"
tap_errno "channels set" OK fsop writeln $P/user/channels "8 15"
tap_errno "channels beyond nr_channels" ERANGE fsop write $P/user/channels "0 64"
tap_errno "channels first > last" ERANGE fsop write $P/user/channels "10 5"
tap_errno "channels unparsable" EINVAL fsop write $P/user/channels "x y"
tap_eq "channels read back" "8 15" "$(cat $P/user/channels)"
tap_errno "nested node" OK fsop mkdir $P/user/sub
fsop write $P/user/sub/masters "30 30" >/dev/null
fsop write $P/user/sub/channels "40 47" >/dev/null
tap_errno "node with a protocol-less policy has no extra attributes" ENOENT fsop read $P/user/uuid

# --- char device: id lookup ---------------------------------------------
D=/dev/dummy_stm.0
tap_eq "POLICY_ID_GET before assignment" "0:0:0" "$(stmctl $D get)"
tap_eq "write without task or default node" "EINVAL" "$(stmctl $D write=hello)"
tap_eq "POLICY_ID_SET by id" "OK:17:8:1 17:8:1" "$(stmctl $D set=user get)"
tap_eq "POLICY_ID_SET twice" "OK:17:8:1 EBUSY" "$(stmctl $D set=user set=user)"
tap_eq "nested id uses the deepest node" "OK:30:40:1" "$(stmctl $D set=user/sub)"
tap_eq "unknown leaf falls back to its parent" "OK:30:40:1" "$(stmctl $D set=user/sub/nosuch)"
tap_eq "unknown component falls back" "OK:17:8:1" "$(stmctl $D set=user/nosuch/sub)"
tap_eq "unknown id" "EINVAL" "$(stmctl $D set=nosuch)"
tap_eq "empty id" "EINVAL" "$(stmctl $D set=,size=16)"
tap_eq "size below the header" "EINVAL" "$(stmctl $D set=user,size=15)"
tap_eq "size of PATH_MAX+16" "EINVAL" "$(stmctl $D set=user,size=4112)"
tap_eq "size just below PATH_MAX+16" "OK:17:8:1" "$(stmctl $D set=user,size=4111)"
tap_eq "reserved_0 non-zero" "EINVAL" "$(stmctl $D set=user,res0=1)"
tap_eq "reserved_1 non-zero" "EINVAL" "$(stmctl $D set=user,res1=1)"
tap_eq "width 0" "EINVAL" "$(stmctl $D set=user,width=0)"
tap_eq "width 2 without mmio" "EINVAL" "$(stmctl $D set=user,width=2)"
tap_eq "NULL argument" "EFAULT" "$(stmctl $D setnull)"
tap_eq "struct truncated by an unmapped page" "EFAULT" "$(stmctl $D settrunc=64)"
tap_eq "fd usable after EFAULT" "EFAULT OK:17:8:1" "$(stmctl $D settrunc=64 set=user)"
tap_eq "failed set leaves the fd usable" "EINVAL OK:17:8:1" "$(stmctl $D set=user,res0=1 set=user)"

fsop mkdir $P/stmctl >/dev/null
fsop write $P/stmctl/masters "25 25" >/dev/null
tap_eq "write uses the task-name node" "OK:5 25:0:1" "$(stmctl $D write=hello get)"
fsop rmdir $P/stmctl >/dev/null
fsop mkdir $P/default >/dev/null
fsop write $P/default/masters "26 26" >/dev/null
tap_eq "write falls back to the default node" "OK:5 26:0:1" "$(stmctl $D write=hello get)"
tap_eq "empty write still assigns" "OK:0 26:0:1" "$(stmctl $D writen=0 get)"
tap_eq "write of PAGE_SIZE is cut to PAGE_SIZE-1" "OK:4095" "$(stmctl $D writen=4096)"
tap_eq "write of 1 MiB is cut to PAGE_SIZE-1" "OK:4095" "$(stmctl $D writen=1048576)"
tap_eq "write of 300 bytes" "OK:300" "$(stmctl $D writen=300)"
tap_eq "set after write" "OK:5 EBUSY" "$(stmctl $D write=hello set=user)"

# --- channel allocation ---------------------------------------------------
fsop mkdir $P/tiny >/dev/null
fsop write $P/tiny/masters "31 31" >/dev/null
fsop write $P/tiny/channels "2 3" >/dev/null
# two fds hold both channels until told to close (no sleeps: loaded hosts)
rm -f /tmp/a.here /tmp/b.here /tmp/ab.go
stmctl $D set=tiny touch=/tmp/a.here waitfor=/tmp/ab.go > /tmp/a & a=$!
stmctl $D set=tiny touch=/tmp/b.here waitfor=/tmp/ab.go > /tmp/b & b=$!
wait_until 600 test -e /tmp/a.here -a -e /tmp/b.here
tap_eq "no channel left" "ENOSPC" "$(stmctl $D set=tiny)"
touch /tmp/ab.go
wait $a $b
tap_eq "two fds got distinct channels" "OK:31:2:1 OK OK OK:31:3:1 OK OK" "$(sort /tmp/a /tmp/b | tr '\n' ' ' | sed 's/ $//')"
tap_eq "channels come back on close" "OK:31:2:1" "$(stmctl $D set=tiny)"

# --- ioctls ---------------------------------------------------------------
tap_eq "unknown ioctl" "ENOTTY" "$(stmctl $D ioctl=c0102599)"
tap_eq "POLICY_ID_SET with another size" "ENOTTY" "$(stmctl $D ioctl=c0202500)"
tap_eq "SET_OPTIONS without driver support" "OK:17:8:1 ENOTTY" "$(stmctl $D set=user opt=1)"
tap_eq "mmap without mmio" "OK:17:8:1 EOPNOTSUPP" "$(stmctl $D set=user mmap=4096)"

# --- link failure -----------------------------------------------------------
echo 1 > /sys/module/dummy_stm/parameters/fail_mode
fsop write $P/tiny/channels "3 3" >/dev/null
tap_eq "device link failure is returned" "EINVAL" "$(stmctl $D set=tiny)"
tap_eq "failed link leaves the channel free" "EINVAL" "$(stmctl $D set=tiny)"
echo 0 > /sys/module/dummy_stm/parameters/fail_mode
tap_eq "channel usable after link failure" "OK:31:3:1" "$(stmctl $D set=tiny)"

# --- teardown: policy outlives the device -----------------------------------
tap_errno "rmdir of a non-empty policy" ENOTEMPTY fsop rmdir $P
if stm_class_upstream; then
	# upstream (6.12): a bound policy pins the device's driver
	tap_errno "rmmod dummy_stm with a policy bound: in use (upstream 6.12; ours: unbinds)" \
		EAGAIN modop rm dummy_stm
	for n in user/sub user tiny default; do fsop rmdir $P/$n >/dev/null; done
	tap_errno "bound policy removable" OK fsop rmdir $P
	tap_errno "second policy removable" OK fsop rmdir $CFG/dummy_stm.1:p_basic.x
	tap_check "rmmod dummy_stm once its policies are gone" rmmod dummy_stm
else
	tap_check "rmmod dummy_stm with a policy bound" rmmod dummy_stm
	tap_eq "unbound policy device attribute" "<none>" "$(cat $P/device)"
	tap_eq "unbound policy protocol attribute" "<none>" "$(cat $P/protocol)"
	tap_errno "node mkdir in an unbound policy" ENODEV fsop mkdir $P/late
	tap_errno "masters write in an unbound policy" ENODEV fsop write $P/user/masters "16 16"
	for n in user/sub user tiny default; do fsop rmdir $P/$n >/dev/null; done
	tap_errno "unbound policy removable" OK fsop rmdir $P
	tap_errno "second policy removable" OK fsop rmdir $CFG/dummy_stm.1:p_basic.x
fi

# --- a device name with a colon: the protocol follows the LAST colon ----------
mod_load stm_test_device name=stm_test:dev
C="$CFG/stm_test:dev:p_basic.c"
tap_errno "policy 'stm_test:dev:p_basic.c' (device stm_test:dev)" OK fsop mkdir "$C"
tap_eq "colon device policy bound" "stm_test:dev p_basic" "$(cat "$C/device") $(cat "$C/protocol")"
fsop rmdir "$C" >/dev/null
tap_errno "policy 'stm_test:dev.c' is device stm_test, protocol dev" ENODEV fsop mkdir "$CFG/stm_test:dev.c"
mod_unload stm_test_device

# --- mmio, width and options (dummy_stm test parameters) --------------------
if stm_class_upstream; then
	tap_skip "mmio, width and SET_OPTIONS" \
		"upstream's dummy_stm has no mmiosz/has_options (our test aids)"
	stack_unload
	exit
fi
mod_load dummy_stm nr_dummies=1 master_min=0 master_max=1 nr_channels=128 mmiosz=64 has_options=1
fsop mkdir $CFG/dummy_stm.0.m >/dev/null
fsop mkdir $CFG/dummy_stm.0.m/w >/dev/null
tap_eq "width 64 aligned" "OK:0:0:64" "$(stmctl $D set=w,width=64)"
tap_eq "width 65 above PAGE_SIZE/mmiosz" "EINVAL" "$(stmctl $D set=w,width=65)"
rm -f /tmp/a.here /tmp/ab.go
stmctl $D set=w,width=64 touch=/tmp/a.here waitfor=/tmp/ab.go > /tmp/a & a=$!
wait_until 600 test -e /tmp/a.here
tap_eq "width 3 aligned to 4" "OK:0:64:3" "$(stmctl $D set=w,width=3)"
touch /tmp/ab.go
wait $a
tap_eq "mmap of width*mmiosz" "OK:0:0:64 OK" "$(stmctl $D set=w,width=64 mmap=4096)"
tap_eq "mmap of the wrong length" "OK:0:0:64 EINVAL" "$(stmctl $D set=w,width=64 mmap=8192)"
tap_eq "mmap with pgoff" "OK:0:0:64 EINVAL" "$(stmctl $D set=w,width=64 mmap=4096,pgoff=1)"
tap_eq "mmap before assignment" "EINVAL" "$(stmctl $D mmap=4096)"
tap_eq "SET_OPTIONS" "OK:0:0:1 OK" "$(stmctl $D set=w opt=0x1234)"
# dummy_stm (has_options) refuses bits above 32; a 32-bit kernel's class
# refuses them first, its set_options() taking an unsigned long (abi.rst)
tap_eq "SET_OPTIONS driver error (the class's on 32-bit)" "OK:0:0:1 EINVAL" \
	"$(stmctl $D set=w opt=0x100000000)"
fsop rmdir $CFG/dummy_stm.0.m/w >/dev/null
fsop rmdir $CFG/dummy_stm.0.m >/dev/null

stack_unload
