/*
 * User pages and their reference counts (kern/vm_page.c): how many page
 * tables map each physical page, so that fork can share pages instead of
 * copying them and the last unmapping frees a page.
 */
#ifndef _KERN_VM_PAGE_H_
#define _KERN_VM_PAGE_H_

#include <sys/types.h>
#include <sys/vmstats.h>

void	vm_page_init(void);
void	*vm_page_alloc(int flags);	/* count 1; NULL: user memory is full */
#define VM_COPY		0x10000		/* vm_page_alloc: a copy-on-write copy */
#define VM_COPYMARGIN	128		/* pages only such copies may take */
void	vm_page_ref(void *page);
void	vm_page_unref(void *page);	/* freed at count 0 */
int	vm_page_shared(void *page);	/* mapped more than once? */
extern struct vmstats vm_stats;		/* vmstats(2); pmap_cow counts faults */

#endif
