/*
 * Phase 4 - Check Reference Counts (thesis table 6-2: put any inodes
 * that are not "found" in lost+found, verify link counts for every
 * file).
 *
 * lncntp[ino] is now the link count minus the references phases 2 and
 * 3 found.  A file nobody references is reconnected to lost+found (or
 * cleared if it is empty); any other difference is a wrong link count,
 * set to the references found.  Inodes marked for clearing in phase 1
 * (BAD or DUP blocks) and directories still unreachable are cleared.
 */
#include <sys/types.h>
#include <stdio.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

void
pass4(void)
{
	struct inodesc idesc;
	struct dinode *dp;
	u_int32_t ino;
	int n;

	memset(&idesc, 0, sizeof(idesc));
	idesc.id_type = ADDR;
	idesc.id_func = pass4check;
	for (ino = ROOTINO; ino < maxino; ino++) {
		idesc.id_number = ino;
		switch (statemap[ino]) {
		case FSTATE:
		case DFOUND:
			n = lncntp[ino];
			if (n != 0) {
				adjust(&idesc, n);
				break;
			}
			/* Link count 0 and no references: a lost file. */
			dp = ginode(ino);
			if (dp->di_nlink <= 0)
				clri(&idesc, "UNREF", 1);
			break;
		case DSTATE:
			clri(&idesc, "UNREF", 1);
			break;
		case DCLEAR:
		case FCLEAR:
			clri(&idesc, "BAD/DUP", 1);
			break;
		case USTATE:
			break;
		default:
			errexit("BAD STATE %d FOR INODE I=%u", statemap[ino],
			    ino);
		}
	}
}
