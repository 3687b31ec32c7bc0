/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where kernel API differences are handled.  Kbuild probes
 * the kernel headers (scripts/kbuild/stm-kernel.mk) and defines STM_HAVE_*;
 * callers use the stm_compat_* names and never test kernel versions.
 *
 * Every probe has a canary below: a compile-time check of the probe's
 * answer against the kernel's real declarations, so a probe that greps
 * the wrong thing breaks the build instead of picking the wrong branch.
 * A canary for "present" checks the declaration's exact type; one for
 * "absent" declares the name as an object, which only compiles where the
 * kernel does not declare it, or checks the API that replaced it.
 *
 * Differences that need no wrapper:
 *  - no_llseek (gone in 6.12) was NULL since 6.0: we leave .llseek unset,
 *    which means the same (lseek fails with -ESPIPE) on every kernel;
 *  - configfs, the ftrace export (struct trace_export) and the legacy
 *    console write callback are unchanged between 6.1 and 6.12 for what
 *    our sources use.
 */
#ifndef _STM_COMPAT_H_
#define _STM_COMPAT_H_

#include <linux/build_bug.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>

/* struct class lost its .owner field in 6.4 (with one-argument class_create). */
#ifdef STM_HAVE_CLASS_OWNER
#define STM_COMPAT_CLASS_OWNER	.owner = THIS_MODULE,
static_assert(sizeof(((struct class *)NULL)->owner) == sizeof(struct module *),
	      "canary: STM_HAVE_CLASS_OWNER but struct class has no owner");
#else
#define STM_COMPAT_CLASS_OWNER
static_assert(__builtin_types_compatible_p(typeof(class_create),
					   struct class *(const char *)),
	      "canary: no STM_HAVE_CLASS_OWNER but class_create is the old one");
#endif

/*
 * class_register() and friends take a const struct class since 6.4, so a
 * class can live in read-only memory: STM_COMPAT_CLASS_CONST goes before
 * "struct class" in a class's definition.
 */
#ifdef STM_HAVE_CLASS_CONST
#define STM_COMPAT_CLASS_CONST	const
static_assert(__builtin_types_compatible_p(typeof(class_register),
					   int (const struct class *)),
	      "canary: STM_HAVE_CLASS_CONST but class_register is not const");
#else
#define STM_COMPAT_CLASS_CONST
static_assert(__builtin_types_compatible_p(typeof(__class_register),
					   int (struct class *, struct lock_class_key *)),
	      "canary: no STM_HAVE_CLASS_CONST but __class_register differs");
#endif

/* class_create(name) since 6.4; class_create(THIS_MODULE, name) before. */
#ifdef STM_HAVE_CLASS_CREATE_NAME
#define stm_compat_class_create(name)	class_create(name)
static_assert(__builtin_types_compatible_p(typeof(class_create),
					   struct class *(const char *)),
	      "canary: STM_HAVE_CLASS_CREATE_NAME but class_create differs");
#else
#define stm_compat_class_create(name)	class_create(THIS_MODULE, name)
static_assert(__builtin_types_compatible_p(typeof(__class_create),
					   struct class *(struct module *, const char *,
							     struct lock_class_key *)),
	      "canary: no STM_HAVE_CLASS_CREATE_NAME but __class_create differs");
#endif

/* vm_flags became read-only with accessors in 6.3. */
#ifdef STM_HAVE_VM_FLAGS_SET
static_assert(__builtin_types_compatible_p(typeof(vm_flags_set),
					   void (struct vm_area_struct *, vm_flags_t)),
	      "canary: STM_HAVE_VM_FLAGS_SET but vm_flags_set differs");
#else
/* compiles only where the kernel declares no vm_flags_set */
extern int vm_flags_set;
#endif

static inline void stm_compat_vm_flags_set(struct vm_area_struct *vma,
					   unsigned long flags)
{
#ifdef STM_HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/*
 * hrtimer_setup() (6.13) sets the callback with the rest; before it,
 * hrtimer_init() then ->function.  Context: process.
 */
#ifdef STM_HAVE_HRTIMER_SETUP
static_assert(__builtin_types_compatible_p(typeof(hrtimer_setup),
					   void (struct hrtimer *,
						 enum hrtimer_restart (*)(struct hrtimer *),
						 clockid_t, enum hrtimer_mode)),
	      "canary: STM_HAVE_HRTIMER_SETUP but hrtimer_setup differs");
#else
/* compiles only where the kernel declares no hrtimer_setup */
extern int hrtimer_setup;
#endif

static inline void
stm_compat_hrtimer_setup(struct hrtimer *timer,
			 enum hrtimer_restart (*fn)(struct hrtimer *),
			 clockid_t clock, enum hrtimer_mode mode)
{
#ifdef STM_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

#endif /* _STM_COMPAT_H_ */
