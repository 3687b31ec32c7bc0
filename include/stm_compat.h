/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where kernel API differences are handled.  Kbuild probes
 * the kernel headers and defines STM_HAVE_* (see the top-level Kbuild);
 * callers use the stm_compat_* names and never test kernel versions.
 */
#ifndef _STM_COMPAT_H_
#define _STM_COMPAT_H_

#include <linux/device.h>
#include <linux/mm.h>

/* struct class lost its .owner field in 6.4. */
#ifdef STM_HAVE_CLASS_OWNER
#define STM_COMPAT_CLASS_OWNER	.owner = THIS_MODULE,
#else
#define STM_COMPAT_CLASS_OWNER
#endif

/* vm_flags became read-only with accessors in 6.3. */
static inline void stm_compat_vm_flags_set(struct vm_area_struct *vma,
					   unsigned long flags)
{
#ifdef STM_HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

#endif /* _STM_COMPAT_H_ */
