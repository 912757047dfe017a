/*
 * Phase 3 - Check Connectivity (thesis table 6-2: attach any unresolved
 * ".." trees to lost+found, mark all inodes in those trees "found").
 *
 * A directory still in DSTATE was never reached from the root.  Follow
 * its parents up to the top of the detached tree (the first one whose
 * parent is unknown or already found, or a loop) and reconnect that
 * directory to lost+found; everything below it is then found too.
 * A tree the user chose not to reconnect is asked about once; phase 4
 * then offers to clear it.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

void
pass3(void)
{
	struct inoinfo *inp;
	u_int32_t orphan, *declined;
	int i, j, ndeclined, loopcnt;

	declined = emalloc((inplast + 1) * sizeof(*declined));
	ndeclined = 0;

	for (i = inplast - 1; i >= 0; i--) {
		inp = inpsort[i];
		if (inp->i_number == ROOTINO ||
		    statemap[inp->i_number] != DSTATE)
			continue;
		for (loopcnt = 0; ; loopcnt++) {
			orphan = inp->i_number;
			if (inp->i_parent == 0 ||
			    statemap[inp->i_parent] != DSTATE ||
			    loopcnt > inplast)
				break;
			inp = getinoinfo(inp->i_parent);
		}
		for (j = 0; j < ndeclined; j++)
			if (declined[j] == orphan)
				break;
		if (j < ndeclined)
			continue;
		if (linkup(orphan, inp->i_dotdot) == 0) {
			declined[ndeclined++] = orphan;
			continue;
		}
		inp->i_parent = inp->i_dotdot = lfdir;
		statemap[orphan] = DFOUND;
		propagate();
	}
	free(declined);
}
