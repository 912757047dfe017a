/*
 * Phase 5 - Check Cyl groups (thesis table 6-2: update bit maps in
 * cylinder groups).
 *
 * What each cylinder group should say is rebuilt from what the earlier
 * phases learned: an inode is in use unless it is USTATE, a fragment is
 * free unless the block map has it claimed.  ffs_cgrecount (the routine
 * newfs uses) then derives the counts, the free-run summary and the
 * cluster map.  Compared with the disk, a difference is one of:
 *
 *	SUMMARY INFORMATION BAD		the group's header and counts
 *	BLK(S) MISSING IN BIT MAPS	its inode or fragment maps
 *	FREE BLK COUNT(S) WRONG IN SUPERBLK
 *					the summary array or superblock totals
 *
 * each asked about once and, if fixed, fixed in every group.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

/* Build in newcg what group c should hold. */
static void
rebuildcg(int c, struct cg *newcg, const struct cg *cg)
{
	u_int32_t ino;
	int32_t i, d, ndir;

	ffs_cginit(&sblock, newcg, c);
	/* Time and rotors are hints: keep the disk's if they make sense. */
	newcg->cg_time = cg->cg_time;
	if (cg->cg_rotor >= 0 && cg->cg_rotor < newcg->cg_ndblk)
		newcg->cg_rotor = cg->cg_rotor;
	if (cg->cg_frotor >= 0 && cg->cg_frotor < newcg->cg_ndblk)
		newcg->cg_frotor = cg->cg_frotor;
	if (cg->cg_irotor >= 0 && cg->cg_irotor < newcg->cg_niblk)
		newcg->cg_irotor = cg->cg_irotor;

	ndir = 0;
	for (i = 0; i < sblock.fs_ipg; i++) {
		ino = (u_int32_t)c * sblock.fs_ipg + i;
		if (ino < ROOTINO) {
			setbit(cg_inosused(newcg), i);	/* reserved */
			continue;
		}
		switch (statemap[ino]) {
		case USTATE:
			break;
		case DSTATE:
		case DCLEAR:
		case DFOUND:
			ndir++;
			/* FALLTHROUGH */
		default:
			setbit(cg_inosused(newcg), i);
		}
	}
	for (d = 0; d < newcg->cg_ndblk; d++)
		if (!testbmap(cgbase(&sblock, c) + d))
			setbit(cg_blksfree(newcg), d);
	ffs_cgrecount(&sblock, newcg);
	newcg->cg_cs.cs_ndir = ndir;
}

void
pass5(void)
{
	struct inodesc idesc[3];
	struct cg *cg, *newcg;
	struct csum *cs, total;
	int c, cgdirty, csdirty, mapstart, mapsize;

	memset(idesc, 0, sizeof(idesc));
	for (c = 0; c < 3; c++)
		idesc[c].id_type = ADDR;
	cg = emalloc(sblock.fs_cgsize);
	newcg = emalloc(sblock.fs_cgsize);
	cs = emalloc(sblock.fs_cssize);
	getblk(sblock.fs_csaddr, sblock.fs_cssize, cs);
	memset(&total, 0, sizeof(total));
	csdirty = 0;
	for (c = 0; c < sblock.fs_ncg; c++) {
		getblk(cgtod(&sblock, c), sblock.fs_cgsize, cg);
		if (!cg_chkmagic(cg))
			pfatal("CG %d: BAD MAGIC NUMBER\n", c);
		rebuildcg(c, newcg, cg);
		total.cs_ndir += newcg->cg_cs.cs_ndir;
		total.cs_nbfree += newcg->cg_cs.cs_nbfree;
		total.cs_nifree += newcg->cg_cs.cs_nifree;
		total.cs_nffree += newcg->cg_cs.cs_nffree;

		if (memcmp(&cs[c], &newcg->cg_cs, sizeof(cs[c])) != 0 &&
		    dofix(&idesc[0], "FREE BLK COUNT(S) WRONG IN SUPERBLK")) {
			cs[c] = newcg->cg_cs;
			csdirty = 1;
		}
		cgdirty = 0;
		if (memcmp(newcg, cg, sizeof(struct cg)) != 0 &&
		    dofix(&idesc[2], "SUMMARY INFORMATION BAD")) {
			memcpy(cg, newcg, sizeof(struct cg));
			cgdirty = 1;
		}
		/* The maps run from the inode map to cg_nextfreeoff. */
		mapstart = newcg->cg_iusedoff;
		mapsize = newcg->cg_nextfreeoff - mapstart;
		if (memcmp((u_int8_t *)newcg + mapstart,
		    (u_int8_t *)cg + mapstart, mapsize) != 0 &&
		    dofix(&idesc[1], "BLK(S) MISSING IN BIT MAPS")) {
			memcpy((u_int8_t *)cg + mapstart,
			    (u_int8_t *)newcg + mapstart, mapsize);
			cgdirty = 1;
		}
		if (cgdirty)
			putblk(cgtod(&sblock, c), sblock.fs_cgsize, cg);
	}
	if (memcmp(&total, &sblock.fs_cstotal, sizeof(total)) != 0 &&
	    dofix(&idesc[0], "FREE BLK COUNT(S) WRONG IN SUPERBLK")) {
		sblock.fs_cstotal = total;
		sbdirty();
	}
	if (csdirty)
		putblk(sblock.fs_csaddr, sblock.fs_cssize, cs);
	free(cg);
	free(newcg);
	free(cs);
}
