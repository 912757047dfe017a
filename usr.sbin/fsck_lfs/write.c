/*
 * Repair, written the LFS way (thesis 6.2.4): nothing the checkpoint
 * uses is overwritten, so every checksum in the log stays right.  The
 * repaired model goes to the log as lfs_writeseg would write it:
 *
 *	[dirty file blocks, a FINFO per file]
 *	[the whole ifile, its single indirect block if it has one]
 *	[inode blocks: the repaired inodes, the ifile's last]
 *
 * in that order, over as many partial segments as it takes: the first
 * at the checkpoint's dlfs_offset in dlfs_curseg, the next where a
 * summary is full (lfs_sumsize), or at the start of the next clean
 * segment when a segment is (dlfs_nextseg first, then as lfs_pickseg
 * chooses, the cold head's choice last; each segment entered is marked
 * DIRTY|ACTIVE and a new nextseg chosen, as lfs_newseg does).
 * The inode blocks all go in the last one, which ends the checkpoint
 * (SS_CKP); the others carry SS_DIROP|SS_CONT, so a roll-forward takes
 * the repair whole or not at all.  Blocks get their addresses first
 * (plan, then place); then pointers, the inode map and every count
 * (recount) follow the model, so the ifile written already holds the
 * segment usage of its own partial segments.  Then the block after the
 * log's end in each segment written is zeroed (older log there, with
 * higher serials, must not look like ours), and last the new checkpoint
 * goes to every superblock copy with the last partial segment's serial.
 *
 * A dirty block moves, so the block that points to it changes too: every
 * indirect block above a dirty block is made dirty first (lift), and once
 * addresses are given each pointer is set to its block's new place
 * (relocate).  The ifile is rewritten whole; one of at most NDADDR +
 * nindir blocks can be.
 *
 * Room.  A segment with a broken summary is emptied (evacuate): its
 * live blocks are rewritten, up to a segment's worth.  The repair
 * writes only into clean segments, and one it empties is clean only
 * once the new checkpoint is on disk, so it cannot take its own
 * repairs.  When everything does not fit in the clean segments there
 * are, the segments to empty are left out one at a time, most live
 * bytes first (one with none costs nothing), until the plan fits
 * (fit; ndeferred): main checks again after the checkpoint, when the
 * segments emptied are clean and take the next ones, as the cleaner
 * frees a segment before it needs another (thesis 6.3.4).  A round
 * that can empty none says so, and leaves those segments as they are.
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

/* One block of the repair, in log order. */
struct slot {
	u_int32_t sl_ino;
	int32_t	sl_lbn;
	struct	dirtyblk *sl_db;	/* NULL: the ifile's (ifbuf, ib) */
};
static struct slot *slots;
static u_int32_t nslots;

/* One partial segment of the repair: slots, then (the last) inodes. */
struct pseg {
	u_int32_t ps_start;		/* its summary's address */
	u_int32_t ps_first;		/* its first slot */
	u_int32_t ps_nslots;
	u_int32_t ps_niblk;		/* inode blocks: the last one's */
	u_int32_t ps_seg;		/* its segment: an index of segs[] */
};
static struct pseg *psegs;
static u_int32_t npsegs;
static u_int32_t *segs;			/* segments written: curseg, then */
static u_int32_t nsegs;			/* ... each one moved into */

u_int32_t nmoved, ndeferred;		/* broken segments emptied, left */

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

/*
 * Slots in FINFO order: by inode, each file's data blocks in order (its
 * last one last, for fi_lastlength), then its indirect blocks.
 */
static int
slotcmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->sl_ino != y->sl_ino)
		return (x->sl_ino < y->sl_ino ? -1 : 1);
	if ((x->sl_lbn < 0) != (y->sl_lbn < 0))
		return (x->sl_lbn < 0 ? 1 : -1);
	if (x->sl_lbn < 0)
		return (x->sl_lbn > y->sl_lbn ? -1 : x->sl_lbn < y->sl_lbn);
	return (x->sl_lbn < y->sl_lbn ? -1 : x->sl_lbn > y->sl_lbn);
}

/* The blocks to write: the files' dirty ones, then the ifile whole. */
static void
mkslots(int hasind)
{
	struct dirtyblk *db;
	u_int32_t n, lbn;

	for (n = 0, db = dirtyblks; db != NULL; db = db->db_next)
		n++;
	slots = emalloc((n + ifnblk + 1) * sizeof(*slots));
	nslots = 0;
	for (db = dirtyblks; db != NULL; db = db->db_next)
		if (wanted(db)) {
			slots[nslots].sl_ino = db->db_ino;
			slots[nslots].sl_lbn = db->db_lbn;
			slots[nslots++].sl_db = db;
		}
	qsort(slots, nslots, sizeof(*slots), slotcmp);
	for (lbn = 0; lbn < ifnblk + hasind; lbn++, nslots++) {
		slots[nslots].sl_ino = LFS_IFILE_INUM;
		slots[nslots].sl_lbn = lbn < ifnblk ? (int32_t)lbn : -NDADDR;
		slots[nslots].sl_db = NULL;
	}
}

/* Forget the slots and the inode list (another plan may follow). */
static void
freeslots(void)
{

	free(slots);
	free(inolist);
	slots = NULL;
	inolist = NULL;
	nslots = ninos = 0;
}

/*
 * May the repair move into segment sn: clean, not emptied by it (that
 * is clean only after its checkpoint), not one it took already?
 */
static int
canuse(u_int32_t sn)
{
	u_int32_t i;

	if ((seguse(sn)->su_flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE)) ||
	    headseg(sn) || segbroken[sn])
		return (0);
	for (i = 0; i < nsegs; i++)
		if (segs[i] == sn)
			return (0);
	return (1);
}

/*
 * The segment the log moves into after the last of segs[]: dlfs_nextseg
 * (the summaries already name it), else as lfs_pickseg chooses; or
 * dlfs_nseg if there is none.
 */
static u_int32_t
nextseg(void)
{

	if (nsegs == 1 && canuse(fs.dlfs_nextseg))
		return (fs.dlfs_nextseg);
	return (pickseg(segs[nsegs - 1], canuse));
}

/*
 * Lay the slots and niblk inode blocks out in partial segments (psegs,
 * segs); 1 if they fit in the log, 0 if not.  Each partial segment
 * takes as many slots as its segment and its summary hold; the last
 * takes the inode blocks too, and at least one slot (the ifile's last)
 * so that it is a partial segment like the kernel's.  Nothing changes
 * but psegs and segs.
 */
static int
plan(u_int32_t niblk)
{
	u_int32_t a, end, i, k, bytes, add, sn;
	int last;

	nsegs = npsegs = 0;
	segs[nsegs++] = fs.dlfs_curseg;
	end = lfs_sntod(&fs, fs.dlfs_curseg + 1);
	a = segbroken[fs.dlfs_curseg] ? end : fs.dlfs_offset;
	for (i = 0;;) {
		bytes = sizeof(struct segsum);
		for (k = 0; i + k < nslots; k++) {
			add = 4;
			if (k == 0 || slots[i + k].sl_ino !=
			    slots[i + k - 1].sl_ino)
				add += FINFOSIZE;
			if (a + 1 + k + 1 > end || bytes + add > fs.dlfs_sumsize)
				break;
			bytes += add;
		}
		last = i + k == nslots && a + 1 + k + niblk <= end &&
		    bytes + 4 * niblk <= fs.dlfs_sumsize;
		if (!last && i + k == nslots)
			k--;		/* the last one holds a slot too */
		if (k > 0) {
			psegs[npsegs].ps_start = a;
			psegs[npsegs].ps_first = i;
			psegs[npsegs].ps_nslots = k;
			psegs[npsegs].ps_niblk = last ? niblk : 0;
			psegs[npsegs++].ps_seg = nsegs - 1;
			a += 1 + k + (last ? niblk : 0);
			i += k;
			if (last)
				return (1);
			continue;
		}
		/* This segment is full: the next, unless it was empty. */
		if (a == lfs_sbfirstblock(&fs, segs[nsegs - 1]) ||
		    (sn = nextseg()) == fs.dlfs_nseg)
			return (0);
		segs[nsegs++] = sn;
		a = lfs_sbfirstblock(&fs, sn);
		end = lfs_sntod(&fs, sn + 1);
	}
}

/*
 * Follow the plan in the model: the segments entered, as lfs_newseg
 * marks them, and every slot's and inode's new address.
 */
static void
place(u_int32_t *ib)
{
	struct dinode *ifdi = &inos[LFS_IFILE_INUM].is_di, *dip;
	struct slot *sl;
	struct pseg *ps;
	SEGUSE *sup;
	u_int32_t i, j, a, sn;

	for (i = 1; i < nsegs; i++) {
		seguse(segs[i - 1])->su_flags &= ~SEGUSE_ACTIVE;
		sup = seguse(segs[i]);
		sup->su_flags |= SEGUSE_DIRTY | SEGUSE_ACTIVE;
		sup->su_nbytes = 0;
		sup->su_nsums = sup->su_ninos = 0;
	}
	if (nsegs > 1) {
		fs.dlfs_curseg = segs[nsegs - 1];
		sn = nextseg();
		fs.dlfs_nextseg = sn < fs.dlfs_nseg ? sn : fs.dlfs_curseg;
	}
	for (ps = psegs; ps < psegs + npsegs; ps++)
		for (j = 0; j < ps->ps_nslots; j++) {
			sl = &slots[ps->ps_first + j];
			a = ps->ps_start + 1 + j;
			if (sl->sl_db != NULL) {
				sl->sl_db->db_daddr = a;
				dip = &inos[sl->sl_ino].is_di;
				if (sl->sl_lbn >= 0 && sl->sl_lbn < NDADDR)
					dip->di_db[sl->sl_lbn] = a;
			} else if (sl->sl_lbn < 0)
				ifdi->di_ib[0] = a;
			else if (sl->sl_lbn < NDADDR)
				ifdi->di_db[sl->sl_lbn] = a;
			else
				ib[sl->sl_lbn - NDADDR] = a;
		}
	walkdirty(relocate);
	ps = &psegs[npsegs - 1];
	a = ps->ps_start + 1 + ps->ps_nslots;
	for (i = 0; i < ninos; i++) {
		inos[inolist[i]].is_daddr = a + i / fs.dlfs_inopb;
		ifentry(inolist[i])->if_daddr = inos[inolist[i]].is_daddr;
	}
	fs.dlfs_idaddr = inos[LFS_IFILE_INUM].is_daddr;
	fs.dlfs_lastpseg = ps->ps_start;
	fs.dlfs_offset = a + ps->ps_niblk;
}

/*
 * Back to the dirty list as it was at mark, and the inodes' IF_DIRTY as
 * in wasdirty: what evacuate and lift added is dropped.
 */
static void
undirty(struct dirtyblk *mark, const u_int8_t *wasdirty)
{
	struct dirtyblk *db;
	u_int32_t ino;

	while ((db = dirtyblks) != mark) {
		dirtyblks = db->db_next;
		free(db->db_data);
		free(db);
	}
	for (ino = 0; ino < nent; ino++)
		if (!wasdirty[ino])
			inos[ino].is_flags &= ~IF_DIRTY;
}

/* The broken segment with the most live bytes, or dlfs_nseg. */
static u_int32_t
costliest(void)
{
	u_int32_t sn, best = fs.dlfs_nseg;

	for (sn = 0; sn < fs.dlfs_nseg; sn++)
		if (segbroken[sn] &&
		    (best == fs.dlfs_nseg || live[sn] > live[best]))
			best = sn;
	return (best);
}

/*
 * What goes in (evacuate, lift, the inodes) and where (plan), leaving
 * broken segments out, costliest first, until it fits; 0 if even the
 * repairs without them do not.
 */
static int
fit(int hasind, u_int32_t *niblkp)
{
	struct dirtyblk *mark = dirtyblks;
	u_int8_t *wasdirty;
	u_int32_t ino, sn, nblk;

	wasdirty = emalloc(nent);
	for (ino = 0; ino < nent; ino++)
		wasdirty[ino] = (inos[ino].is_flags & IF_DIRTY) != 0;
	nmoved = ndeferred = 0;
	for (;;) {
		evacuate();
		walkdirty(lift);
		inolist = emalloc((nent + 1) * sizeof(*inolist));
		ninos = 0;
		for (ino = ROOTINO; ino < nent; ino++)
			if (inos[ino].is_state == IS_ALLOC &&
			    (inos[ino].is_flags & IF_DIRTY))
				inolist[ninos++] = ino;
		inolist[ninos++] = LFS_IFILE_INUM;
		mkslots(hasind);
		*niblkp = (ninos + fs.dlfs_inopb - 1) / fs.dlfs_inopb;
		psegs = emalloc(((size_t)nslots + 1) * sizeof(*psegs));
		segs = emalloc(((size_t)nslots + 2) * sizeof(*segs));
		if (plan(*niblkp))
			break;
		nblk = nslots + *niblkp;
		free(psegs);
		free(segs);
		freeslots();
		undirty(mark, wasdirty);
		if ((sn = costliest()) == fs.dlfs_nseg) {
			fprintf(stderr, "fsck_lfs: no room in the log for the "
			    "repairs (%u blocks)\n", nblk);
			free(wasdirty);
			return (0);
		}
		segbroken[sn] = 0;
		ndeferred++;
		note("segment %u: no room in the log to empty it now "
		    "(%lld live bytes)", sn, (long long)live[sn]);
	}
	for (sn = 0; sn < fs.dlfs_nseg; sn++)
		nmoved += segbroken[sn];
	free(wasdirty);
	return (1);
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
 * Partial segment ps as it goes to disk, its serial given: summary,
 * slots, inode blocks.  The ifile must be final (recount done).
 */
static u_int8_t *
mkpseg(const struct pseg *ps, u_int64_t serial, const u_int32_t *ib)
{
	const struct slot *sl;
	struct segsum *ss;
	struct dinode *dip;
	u_int8_t *pseg, *fp, *data;
	FINFO *fip = NULL;
	u_int32_t j, nb = 1 + ps->ps_nslots + ps->ps_niblk;

	pseg = emalloc((size_t)nb * fs.dlfs_bsize);
	ss = (struct segsum *)pseg;
	fp = (u_int8_t *)(ss + 1);
	for (j = 0; j < ps->ps_nslots; j++) {
		sl = &slots[ps->ps_first + j];
		if (fip == NULL || fip->fi_ino != sl->sl_ino) {
			if (fip != NULL)
				fp = (u_int8_t *)lfs_nextfinfo(fip);
			fip = finfo(fp, sl->sl_ino);
			ss->ss_nfinfo++;
		}
		finfo_add(fip, sl->sl_lbn);
		if (sl->sl_db != NULL)
			data = sl->sl_db->db_data;
		else if (sl->sl_lbn < 0)
			data = (u_int8_t *)ib;
		else
			data = ifbuf + (size_t)sl->sl_lbn * fs.dlfs_bsize;
		memcpy(pseg + (size_t)(1 + j) * fs.dlfs_bsize, data,
		    fs.dlfs_bsize);
	}
	dip = (struct dinode *)(pseg + (size_t)(1 + ps->ps_nslots) *
	    fs.dlfs_bsize);
	for (j = 0; j < ps->ps_niblk; j++)
		lfs_inoaddrs(&fs, ss)[-1 - (int)j] =
		    ps->ps_start + 1 + ps->ps_nslots + j;
	if (ps->ps_niblk > 0)
		for (j = 0; j < ninos; j++) {
			dip[j] = inos[inolist[j]].is_di;
			dip[j].di_inumber = inolist[j];
		}
	ss->ss_magic = SS_MAGIC;
	ss->ss_next = lfs_sntod(&fs, ps->ps_seg + 1 < nsegs ?
	    segs[ps->ps_seg + 1] : fs.dlfs_nextseg);
	ss->ss_serial = serial;
	ss->ss_create = now;
	ss->ss_ninos = ps->ps_niblk;
	ss->ss_flags = ps->ps_niblk > 0 ? SS_CKP | SS_DIROP :
	    SS_DIROP | SS_CONT;
	ss->ss_nblocks = nb - 1;
	ss->ss_datasum = lfs_crc32(0, pseg + fs.dlfs_bsize,
	    (size_t)(nb - 1) * fs.dlfs_bsize);
	ss->ss_sumsum = lfs_sssum(&fs, ss);
	return (pseg);
}

/*
 * Write the repaired model, nfix repairs, as partial segments and a
 * checkpoint; 1 on success, 0 (nothing written, or a write failed)
 * otherwise.  ndeferred says how many broken segments were left for
 * another round; when they are all the repairs, nothing is written.
 */
int
writelog(int nfix)
{
	struct dirtyblk ind;
	struct pseg *ps;
	u_int32_t niblk, *ib = NULL, oldoffset;
	u_int64_t serial;
	u_int8_t *pseg;
	int hasind = ifnblk > NDADDR, ok;

	if (ifnblk > NDADDR + fs.dlfs_nindir) {
		fprintf(stderr, "fsck_lfs: an ifile of %u blocks is too large "
		    "to rewrite\n", ifnblk);
		return (0);
	}
	if (!fit(hasind, &niblk))
		return (0);
	if (ndeferred == (u_int32_t)nfix) {
		free(psegs);
		free(segs);
		freeslots();
		return (1);
	}
	oldoffset = fs.dlfs_offset;
	if (hasind) {
		ib = emalloc(fs.dlfs_bsize);
		memset(&ind, 0, sizeof(ind));
		ind.db_ino = LFS_IFILE_INUM;
		ind.db_lbn = -NDADDR;
		ind.db_data = (u_int8_t *)ib;
		ind.db_next = dirtyblks;
		dirtyblks = &ind;	/* account() reads it from here */
	}
	place(ib);

	/* The checkpoint the last partial segment ends, and every count. */
	serial = fs.dlfs_serial + 1;
	fs.dlfs_serial += npsegs;
	fs.dlfs_tstamp = now;
	recount();
	for (ps = psegs; ps < psegs + npsegs; ps++) {
		seguse(segs[ps->ps_seg])->su_nsums++;
		seguse(segs[ps->ps_seg])->su_ninos += ps->ps_niblk;
		seguse(segs[ps->ps_seg])->su_lastmod = (u_int32_t)now;
	}
	/* No clean segment was left to go on into: one emptied now is. */
	if (fs.dlfs_nextseg == fs.dlfs_curseg)
		fixnextseg();
	fixcnextseg();

	/* The partial segments in log order; each valid once on disk. */
	ok = sumfix_write();
	for (ps = psegs; ok && ps < psegs + npsegs; ps++) {
		pseg = mkpseg(ps, serial + (ps - psegs), ib);
		if (lfs_sscheck(&fs, (struct segsum *)pseg) != NULL) {
			fprintf(stderr, "fsck_lfs: internal error: the summary "
			    "fails its check: %s\n",
			    lfs_sscheck(&fs, (struct segsum *)pseg));
			ok = 0;
		}
		ok = ok && bwrite(ps->ps_start, pseg, (size_t)(1 +
		    ps->ps_nslots + ps->ps_niblk) * fs.dlfs_bsize);
		free(pseg);
		/* The log's end in this segment. */
		if (ok && (ps + 1 == psegs + npsegs ||
		    ps[1].ps_seg != ps->ps_seg))
			ok = endlog(ps->ps_start + 1 + ps->ps_nslots +
			    ps->ps_niblk);
	}
	if (ok && psegs[0].ps_start != oldoffset)
		ok = endlog(oldoffset);
	if (hasind)
		dirtyblks = ind.db_next;
	free(ib);
	free(psegs);
	free(segs);
	freeslots();
	/* Commit point: the new checkpoint in the superblock copies. */
	return (ok && sb_writeall());
}
