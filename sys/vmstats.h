/*
 * User memory counters, as the vmstats(2) system call (SYS_vmstats)
 * copies them out:
 *
 *	int vmstats(struct vmstats *buf);
 *
 * A user page is one that some process maps; after fork a page may be
 * mapped by several (copy-on-write, kern/vm_page.c) and is counted once.
 * The fault counters run from boot.
 */
#ifndef _SYS_VMSTATS_H_
#define _SYS_VMSTATS_H_

#include <sys/types.h>

struct vmstats {
	u_int32_t vm_total;		/* physical pages */
	u_int32_t vm_free;		/* pages no one holds */
	u_int32_t vm_user;		/* user pages */
	u_int32_t vm_shared;		/* user pages mapped more than once */
	u_int32_t vm_cow_copies;	/* write faults that copied a page */
	u_int32_t vm_cow_reuses;	/* ... that found it no longer shared */
};

#endif
