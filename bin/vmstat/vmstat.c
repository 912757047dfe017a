/*
 * vmstat: the user memory counters (vmstats(2), sys/vmstats.h).
 *	vmstat
 * Pages in use by processes, how many of them fork left shared, and the
 * copy-on-write faults since boot: a copy for a page still shared, a
 * reuse for one its other mappings have let go.
 */
#include <sys/vmstats.h>
#include <err.h>
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct vmstats v;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: vmstat\n");
		return 1;
	}
	if (vmstats(&v) < 0)
		err(1, "vmstats");
	printf("pages: %u total, %u free, %u user, %u shared\n",
	    v.vm_total, v.vm_free, v.vm_user, v.vm_shared);
	printf("copy-on-write faults: %u copied, %u reused\n",
	    v.vm_cow_copies, v.vm_cow_reuses);
	return 0;
}
