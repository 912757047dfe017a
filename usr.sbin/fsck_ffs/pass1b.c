/*
 * Phase 1b - Rescan For More DUPS.  Phase 1 reported every inode that
 * claimed an already claimed fragment, but not the inodes that claimed
 * those fragments first.  This scan finds them, so that every inode
 * sharing a fragment is marked for clearing (phase 2 offers to remove
 * their names, phase 4 to clear them; a shared fragment is freed only
 * when its last claimant goes).
 */
#include <sys/types.h>
#include <stdio.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

static int
pass1bcheck(struct inodesc *idesc)
{
	ufs_daddr_t blkno = idesc->id_blkno;
	int nfrags, res = KEEPON;

	for (nfrags = idesc->id_numfrags; nfrags > 0; blkno++, nfrags--) {
		if (chkrange(blkno, 1))
			res = SKIP;
		else if (dupcount(blkno) > 0) {
			blkerror(idesc->id_number, "DUP", blkno);
			return (STOP);	/* once per inode is enough */
		}
	}
	return (res);
}

void
pass1b(void)
{
	struct inodesc idesc;
	u_int32_t ino;

	memset(&idesc, 0, sizeof(idesc));
	idesc.id_type = ADDR;
	idesc.id_func = pass1bcheck;
	idesc.id_fix = IGNORE;
	for (ino = ROOTINO; ino < maxino; ino++) {
		/* Inodes already marked were reported in phase 1. */
		if (statemap[ino] != FSTATE && statemap[ino] != DSTATE)
			continue;
		idesc.id_number = ino;
		(void)ckinode(ginode(ino), &idesc);
	}
}
