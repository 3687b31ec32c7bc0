# SPDX-License-Identifier: GPL-2.0
# Included by every Kbuild of ours (the top level, which picks the folders,
# each drivers/*/Kbuild, tests/kmod/Kbuild): what kind of kernel we build
# for, our include path, and the kernel API probes behind
# include/stm_compat.h.  Kbuild reads each folder's Kbuild on its own, and
# ccflags-y holds for that folder only: so every Kbuild includes this file
# rather than the top level passing flags down.  Set STM_TOP (our source
# root) before including.
#
# STM_INKERNEL_CLASS := y when the target kernel provides the STM class
# itself (CONFIG_STM=m or y, and its Module.symvers exports
# stm_register_device; Debian's 6.12): then we build only what it lacks,
# against the kernel's own <linux/stm.h>.  Empty otherwise (Debian's 6.1):
# we build our own class, and our include/linux/stm.h comes first.
# STM_OWN_CLASS=y on the command line builds our class anyway (a compile
# check only: such modules clash with the kernel's own).

STM_INKERNEL_CLASS :=
ifneq ($(filter y m,$(CONFIG_STM)),)
ifeq ($(STM_OWN_CLASS),y)
$(warning CONFIG_STM=$(CONFIG_STM) but STM_OWN_CLASS=y: building our class (compile check only))
else ifneq ($(shell grep -s -w -m1 stm_register_device $(objtree)/Module.symvers),)
STM_INKERNEL_CLASS := y
else
$(error CONFIG_STM=$(CONFIG_STM) but $(objtree)/Module.symvers exports no stm_register_device)
endif
endif

ifeq ($(STM_INKERNEL_CLASS),y)
# after the kernel's include dirs: <linux/stm.h> is the kernel's
ccflags-y += -I$(STM_TOP)/include -DSTM_INKERNEL_CLASS
else
# before them: <linux/stm.h> and <uapi/linux/stm.h> are ours
NOSTDINC_FLAGS += -I$(STM_TOP)/include
endif

# Kernel API probes: -DSTM_HAVE_* when a header holds a pattern.  Each
# one has a canary in include/stm_compat.h that fails the build if the
# probe's answer is wrong.
stm_probe = $(if $(shell grep -s -E '$(2)' $(srctree)/$(1)),-D$(3))
ccflags-y += $(call stm_probe,include/linux/device/class.h,struct module[[:space:]]+.owner;,STM_HAVE_CLASS_OWNER)
ccflags-y += $(call stm_probe,include/linux/device/class.h,class_register.const struct class[[:space:]]*\*,STM_HAVE_CLASS_CONST)
ccflags-y += $(call stm_probe,include/linux/device/class.h,class_create.const char,STM_HAVE_CLASS_CREATE_NAME)
ccflags-y += $(call stm_probe,include/linux/mm.h,void vm_flags_set[[:space:]]*.struct,STM_HAVE_VM_FLAGS_SET)
ccflags-y += $(call stm_probe,include/linux/hrtimer.h,void hrtimer_setup.struct hrtimer,STM_HAVE_HRTIMER_SETUP)
