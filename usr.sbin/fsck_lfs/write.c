/*
 * Repair, written the LFS way (thesis 6.2.4): nothing the checkpoint
 * uses is overwritten, so every checksum in the log stays right.  The
 * repaired model goes to the log as one partial segment, as
 * lfs_writeseg would write it:
 *
 *	[summary] [dirty file blocks, a FINFO per file]
 *	[the whole ifile, its single indirect block if it has one]
 *	[inode blocks: the repaired inodes, the ifile's last]
 *
 * at the checkpoint's dlfs_offset in dlfs_curseg, or at the start of
 * dlfs_nextseg if it does not fit there (the segment then marked
 * DIRTY|ACTIVE and a new nextseg chosen, as lfs_newseg does).  Blocks
 * get their addresses first; then pointers, the inode map and every
 * count (recount) follow the model, so the ifile written already holds
 * the segment usage of its own partial segment.  Then the block after
 * the new log end is zeroed (older log there, with higher serials, must
 * not look like ours), and last the new checkpoint goes to every
 * superblock copy with serial + 1.
 *
 * A dirty block moves, so the block that points to it changes too: every
 * indirect block above a dirty block is made dirty first (lift), and once
 * addresses are given each pointer is set to its block's new place
 * (relocate).  The ifile is rewritten whole; one of at most NDADDR +
 * nindir blocks can be.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "fsck_lfs.h"

static u_int32_t *inolist;		/* inodes to write, the ifile last */
static u_int32_t ninos;

/* A file block to write: its inode is allocated. */
static int
wanted(const struct dirtyblk *db)
{

	return (db->db_ino != LFS_IFILE_INUM &&
	    inos[db->db_ino].is_state == IS_ALLOC);
}

/* lift's walk: a dirty block makes the block above it dirty. */
static int
lift(u_int32_t ino, int32_t lbn, u_int32_t *ptr, void *arg)
{

	return (dirtyblk(ino, lbn) != NULL);
}

/* relocate's walk: a dirty block's pointer is its new address. */
static int
relocate(u_int32_t ino, int32_t lbn, u_int32_t *ptr, void *arg)
{
	struct dirtyblk *db = dirtyblk(ino, lbn);

	if (db == NULL)
		return (0);
	*ptr = db->db_daddr;
	return (1);
}

/* evacuate's walk: a block in a segment to be cleaned is rewritten. */
static int
evacblk(u_int32_t ino, int32_t lbn, u_int32_t *ptr, void *arg)
{
	u_int8_t *buf;

	if (*ptr < fs.dlfs_size && segbroken[lfs_dtosn(&fs, *ptr)] &&
	    dirtyblk(ino, lbn) == NULL && (buf = fileblk(ino, lbn, *ptr)))
		mkdirty(ino, lbn, *ptr, buf);
	return (0);
}

/*
 * What is live in a segment whose summaries are broken (log.c), made
 * dirty, so the segment is empty once the repairs are written: its
 * blocks and its inodes (the ifile's go anyway).
 */
static void
evacuate(void)
{
	u_int32_t ino, daddr;

	for (ino = ROOTINO; ino < nent; ino++) {
		if (inos[ino].is_state != IS_ALLOC)
			continue;
		daddr = inos[ino].is_daddr;
		if (daddr < fs.dlfs_size && segbroken[lfs_dtosn(&fs, daddr)])
			inos[ino].is_flags |= IF_DIRTY;
		walkfile(ino, &inos[ino].is_di, evacblk, NULL);
	}
}

/* A walk over every allocated inode with dirty blocks but the ifile. */
static void
walkdirty(blkfn fn)
{
	u_int32_t ino;

	for (ino = ROOTINO; ino < nent; ino++)
		if (inos[ino].is_state == IS_ALLOC &&
		    (inos[ino].is_flags & IF_DIRTY))
			walkfile(ino, &inos[ino].is_di, fn, NULL);
}

/* Where the partial segment of total blocks goes; 0 if nowhere. */
static u_int32_t
place(u_int32_t total)
{
	u_int32_t sn, n, start;
	SEGUSE *sup;

	if (fs.dlfs_offset + total <= lfs_sntod(&fs, fs.dlfs_curseg + 1) &&
	    !segbroken[fs.dlfs_curseg])
		return (fs.dlfs_offset);
	sn = fs.dlfs_nextseg;
	sup = seguse(sn);
	start = lfs_sbfirstblock(&fs, sn);
	if (sn == fs.dlfs_curseg ||
	    (sup->su_flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE)) ||
	    start + total > lfs_sntod(&fs, sn + 1))
		return (0);
	seguse(fs.dlfs_curseg)->su_flags &= ~SEGUSE_ACTIVE;
	sup->su_flags |= SEGUSE_DIRTY | SEGUSE_ACTIVE;
	sup->su_nbytes = 0;
	sup->su_nsums = sup->su_ninos = 0;
	fs.dlfs_curseg = sn;
	fs.dlfs_nextseg = sn;
	for (n = 1; n < fs.dlfs_nseg; n++)
		if (!(seguse((sn + n) % fs.dlfs_nseg)->su_flags &
		    (SEGUSE_DIRTY | SEGUSE_ACTIVE)) &&
		    (sn + n) % fs.dlfs_nseg != fs.dlfs_cnextseg) {
			fs.dlfs_nextseg = (sn + n) % fs.dlfs_nseg;
			break;
		}
	return (start);
}

/* Start a FINFO for ino at p. */
static FINFO *
finfo(u_int8_t *p, u_int32_t ino)
{
	FINFO *fip = (FINFO *)p;

	fip->fi_ino = ino;
	fip->fi_version = ifentry(ino)->if_version;
	fip->fi_lastlength = fs.dlfs_bsize;
	fip->fi_nblocks = 0;
	return (fip);
}

/* Append lbn to the FINFO, its last length if it ends the file. */
static void
finfo_add(FINFO *fip, int32_t lbn)
{
	u_int64_t size = inos[fip->fi_ino].is_di.di_size;

	fip->fi_blocks[fip->fi_nblocks++] = lbn;
	fip->fi_lastlength = fs.dlfs_bsize;
	if (lbn >= 0 && size > 0 &&
	    (u_int64_t)lbn == (size - 1) >> fs.dlfs_bshift)
		fip->fi_lastlength = size - ((u_int64_t)lbn << fs.dlfs_bshift);
}

/* An empty block: the end of the log at daddr, if inside its segment. */
static int
endlog(u_int32_t daddr)
{
	u_int8_t *zero;
	int ok;

	if (daddr >= lfs_sntod(&fs, lfs_dtosn(&fs, daddr - 1) + 1))
		return (1);
	zero = emalloc(fs.dlfs_bsize);
	ok = bwrite(daddr, zero, fs.dlfs_bsize);
	free(zero);
	return (ok);
}

/*
 * Write the repaired model as a partial segment and a checkpoint; 1 on
 * success, 0 (nothing written, or a write failed) otherwise.
 */
int
writelog(void)
{
	struct dirtyblk *db, ind;
	struct dinode *ifdi = &inos[LFS_IFILE_INUM].is_di, *dip;
	struct segsum *ss;
	u_int32_t ino, nfile, nblk, niblk, total, start, a, lbn, i, sumbytes;
	u_int32_t *ib = NULL, oldoffset;
	u_int8_t *pseg, *fp;
	FINFO *fip;
	int hasind = ifnblk > NDADDR, ok;

	if (ifnblk > NDADDR + fs.dlfs_nindir) {
		fprintf(stderr, "fsck_lfs: an ifile of %u blocks is too large "
		    "to rewrite\n", ifnblk);
		return (0);
	}
	/* What goes in, and whether it fits. */
	evacuate();
	walkdirty(lift);
	inolist = emalloc((nent + 1) * sizeof(*inolist));
	ninos = 0;
	for (ino = ROOTINO; ino < nent; ino++)
		if (inos[ino].is_state == IS_ALLOC &&
		    (inos[ino].is_flags & IF_DIRTY))
			inolist[ninos++] = ino;
	inolist[ninos++] = LFS_IFILE_INUM;
	nblk = ifnblk + hasind;
	sumbytes = sizeof(struct segsum) + FINFOSIZE + 4 * nblk;
	for (ino = ROOTINO; ino < nent; ino++) {
		for (nfile = 0, db = dirtyblks; db != NULL; db = db->db_next)
			if (wanted(db) && db->db_ino == ino)
				nfile++;
		nblk += nfile;
		if (nfile > 0)
			sumbytes += FINFOSIZE + 4 * nfile;
	}
	niblk = (ninos + fs.dlfs_inopb - 1) / fs.dlfs_inopb;
	sumbytes += 4 * niblk;
	total = 1 + nblk + niblk;
	oldoffset = fs.dlfs_offset;
	if (sumbytes > fs.dlfs_sumsize || total > fs.dlfs_ssize - 1 ||
	    (start = place(total)) == 0) {
		fprintf(stderr, "fsck_lfs: no room in the log for the repairs "
		    "(%u blocks)\n", total);
		return (0);
	}

	/*
	 * Addresses first: blocks in FINFO order, then the inode blocks.
	 * A new block (lost+found's) is a hole until now: direct only.
	 */
	pseg = emalloc((size_t)total * fs.dlfs_bsize);
	ss = (struct segsum *)pseg;
	fp = (u_int8_t *)(ss + 1);
	a = start + 1;
	for (ino = ROOTINO; ino < nent; ino++) {
		fip = NULL;
		for (db = dirtyblks; db != NULL; db = db->db_next) {
			if (!wanted(db) || db->db_ino != ino)
				continue;
			if (fip == NULL)
				fip = finfo(fp, ino);
			finfo_add(fip, db->db_lbn);
			db->db_daddr = a++;
			if (db->db_lbn >= 0 && db->db_lbn < NDADDR)
				inos[ino].is_di.di_db[db->db_lbn] = db->db_daddr;
		}
		if (fip != NULL) {
			fp = (u_int8_t *)lfs_nextfinfo(fip);
			ss->ss_nfinfo++;
		}
	}
	walkdirty(relocate);
	for (db = dirtyblks; db != NULL; db = db->db_next)
		if (wanted(db))
			memcpy(pseg + (size_t)(db->db_daddr - start) *
			    fs.dlfs_bsize, db->db_data, fs.dlfs_bsize);
	fip = finfo(fp, LFS_IFILE_INUM);
	if (hasind) {
		ib = emalloc(fs.dlfs_bsize);
		memset(&ind, 0, sizeof(ind));
		ind.db_ino = LFS_IFILE_INUM;
		ind.db_lbn = -NDADDR;
		ind.db_data = (u_int8_t *)ib;
		ind.db_next = dirtyblks;
		dirtyblks = &ind;	/* account() reads it from here */
	}
	for (lbn = 0; lbn < ifnblk; lbn++, a++) {
		finfo_add(fip, lbn);
		if (lbn < NDADDR)
			ifdi->di_db[lbn] = a;
		else
			ib[lbn - NDADDR] = a;
	}
	if (hasind) {
		finfo_add(fip, -NDADDR);
		ifdi->di_ib[0] = a++;
	}
	ss->ss_nfinfo++;
	for (i = 0; i < ninos; i++) {
		ino = inolist[i];
		inos[ino].is_daddr = a + i / fs.dlfs_inopb;
		ifentry(ino)->if_daddr = inos[ino].is_daddr;
	}
	fs.dlfs_idaddr = inos[LFS_IFILE_INUM].is_daddr;
	for (i = 0; i < niblk; i++)
		lfs_inoaddrs(&fs, ss)[-1 - (int)i] = a + i;

	/* The checkpoint this partial segment ends, and every count. */
	fs.dlfs_serial++;
	fs.dlfs_tstamp = now;
	fs.dlfs_lastpseg = start;
	fs.dlfs_offset = start + total;
	recount();
	seguse(fs.dlfs_curseg)->su_nsums++;
	seguse(fs.dlfs_curseg)->su_ninos += niblk;
	seguse(fs.dlfs_curseg)->su_lastmod = (u_int32_t)now;

	/* Now the contents: the ifile as recounted, the inodes. */
	a = start + 1 + nblk - ifnblk - hasind;
	memcpy(pseg + (size_t)(a - start) * fs.dlfs_bsize, ifbuf,
	    (size_t)ifnblk * fs.dlfs_bsize);
	if (hasind)
		memcpy(pseg + (size_t)(a + ifnblk - start) * fs.dlfs_bsize,
		    ib, fs.dlfs_bsize);
	dip = (struct dinode *)(pseg + (size_t)(1 + nblk) * fs.dlfs_bsize);
	for (i = 0; i < ninos; i++) {
		dip[i] = inos[inolist[i]].is_di;
		dip[i].di_inumber = inolist[i];
	}
	ss->ss_magic = SS_MAGIC;
	ss->ss_next = lfs_sntod(&fs, fs.dlfs_nextseg);
	ss->ss_serial = fs.dlfs_serial;
	ss->ss_create = now;
	ss->ss_ninos = niblk;
	ss->ss_flags = SS_CKP | SS_DIROP;
	ss->ss_nblocks = total - 1;
	ss->ss_datasum = lfs_crc32(0, pseg + fs.dlfs_bsize,
	    (size_t)(total - 1) * fs.dlfs_bsize);
	/* The partial segment is valid once this checksum is on disk. */
	ss->ss_sumsum = lfs_sssum(&fs, ss);
	if (lfs_sscheck(&fs, ss) != NULL) {
		fprintf(stderr, "fsck_lfs: internal error: the summary fails "
		    "its check: %s\n", lfs_sscheck(&fs, ss));
		return (0);
	}
	ok = sumfix_write() &&
	    bwrite(start, pseg, (size_t)total * fs.dlfs_bsize) &&
	    endlog(fs.dlfs_offset);
	if (ok && start != oldoffset)
		ok = endlog(oldoffset);
	if (hasind)
		dirtyblks = ind.db_next;
	free(ib);
	free(pseg);
	free(inolist);
	/* Commit point: the new checkpoint in the superblock copies. */
	return (ok && sb_writeall());
}
