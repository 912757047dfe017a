/*
 * Pure FFS helpers shared by the kernel's allocator and by newfs, fsck_ffs
 * and dumpfs: free-map tests on fragment groups (ffs_isblock and friends),
 * the free-run and cluster summaries a cylinder group keeps
 * (ffs_fragacct, ffs_clusteracct, ffs_cgrecount), the layout of a
 * cylinder group block (ffs_cginit), and the checks a kernel makes before
 * it trusts a superblock or a cylinder group read from a disk
 * (ffs_sbcheck, ffs_cgcheck).
 *
 * Rules of this file: integer code only.  No libc, no kernel calls, no
 * allocation: it is linked into the kernel and into host tools alike.
 * Bad disk contents are reported as a short reason string, never a panic.
 *
 * Maps: in the fragment map (cg_blksfree) a set bit means the fragment is
 * free; a block is free when all fs_frag bits of its aligned group are
 * set.  In the cluster map a set bit means the whole block is free.
 */
#include <sys/types.h>
#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"

/*
 * The sizes the host reader and the guest agree on.  A negative array
 * size stops the compile if a header change breaks the disk format.
 */
typedef char ffs_dinode_is_128[sizeof(struct dinode) == 128 ? 1 : -1];
typedef char ffs_fs_is_1024[sizeof(struct fs) == 1024 ? 1 : -1];
typedef char ffs_cg_is_128[sizeof(struct cg) == 128 ? 1 : -1];
typedef char ffs_maxfilesize_at_312[
    __builtin_offsetof(struct fs, fs_maxfilesize) == 312 ? 1 : -1];
typedef char ffs_magic_at_1020[
    __builtin_offsetof(struct fs, fs_magic) == 1020 ? 1 : -1];

/*
 * Where in its byte of the map the fs_frag bits of block h start, and the
 * mask of those bits.  fs_frag divides NBBY, so a block never straddles
 * two bytes.
 */
static int
blkshift(const struct fs *fs, ufs_daddr_t h)
{

	return ((h % (NBBY / fs->fs_frag)) * fs->fs_frag);
}

static int
blkmask(const struct fs *fs, ufs_daddr_t h)
{

	return (((1 << fs->fs_frag) - 1) << blkshift(fs, h));
}

/*
 * Is block h entirely free in the fragment map cp?
 */
int
ffs_isblock(const struct fs *fs, const u_int8_t *cp, ufs_daddr_t h)
{
	int mask;

	mask = blkmask(fs, h);
	return ((cp[h / (NBBY / fs->fs_frag)] & mask) == mask);
}

/*
 * Mark block h free in the fragment map cp.
 */
void
ffs_setblock(const struct fs *fs, u_int8_t *cp, ufs_daddr_t h)
{

	cp[h / (NBBY / fs->fs_frag)] |= blkmask(fs, h);
}

/*
 * Mark block h allocated in the fragment map cp.
 */
void
ffs_clrblock(const struct fs *fs, u_int8_t *cp, ufs_daddr_t h)
{

	cp[h / (NBBY / fs->fs_frag)] &= ~blkmask(fs, h);
}

/*
 * Add cnt (+1 or -1) to fraglist[n] for every maximal run of n free
 * fragments in fragmap, the fs_frag map bits of one block (bit i set =
 * fragment i free).  A run as long as the block is a free block and is
 * counted in cs_nbfree instead.  The allocator calls it with -1 before
 * and +1 after it changes a block, keeping cg_frsum exact.
 */
void
ffs_fragacct(const struct fs *fs, int fragmap, int32_t fraglist[], int cnt)
{
	int i, run;

	run = 0;
	for (i = 0; i <= fs->fs_frag; i++) {
		if (i < fs->fs_frag && (fragmap & (1 << i)) != 0) {
			run++;
			continue;
		}
		if (run > 0 && run < fs->fs_frag)
			fraglist[run] += cnt;
		run = 0;
	}
}

/*
 * Block blkno of the group was freed (cnt = 1) or allocated (cnt = -1):
 * update the cluster map and the counts of free clusters by length.  The
 * cluster the block joins or splits is found by looking at most
 * fs_contigsumsize blocks each way.  Returns the length of the longest
 * free cluster left in the group (capped at fs_contigsumsize), which the
 * kernel caches to skip groups that cannot satisfy a cluster request.
 * Does nothing and returns 0 when the file system keeps no clusters.
 */
int
ffs_clusteracct(const struct fs *fs, struct cg *cgp, ufs_daddr_t blkno,
    int cnt)
{
	int32_t *sump;
	u_int8_t *freemapp;
	int i, start, end, forw, back;

	if (fs->fs_contigsumsize <= 0)
		return (0);
	freemapp = cg_clustersfree(cgp);
	sump = cg_clustersum(cgp);
	if (cnt > 0)
		setbit(freemapp, blkno);
	else
		clrbit(freemapp, blkno);

	/* Free blocks right after blkno. */
	start = blkno + 1;
	end = start + fs->fs_contigsumsize;
	if (end > cgp->cg_nclusterblks)
		end = cgp->cg_nclusterblks;
	for (i = start; i < end && isset(freemapp, i); i++)
		;
	forw = i - start;

	/* Free blocks right before blkno. */
	start = blkno - 1;
	end = start - fs->fs_contigsumsize;
	if (end < 0)
		end = -1;
	for (i = start; i > end && isset(freemapp, i); i--)
		;
	back = start - i;

	/*
	 * The run back + 1 + forw appears or disappears; the runs on each
	 * side disappear or appear.
	 */
	i = back + forw + 1;
	if (i > fs->fs_contigsumsize)
		i = fs->fs_contigsumsize;
	sump[i] += cnt;
	if (back > 0)
		sump[back] -= cnt;
	if (forw > 0)
		sump[forw] -= cnt;

	for (i = fs->fs_contigsumsize; i > 0; i--)
		if (sump[i] > 0)
			break;
	return (i);
}

/*
 * Fragments in cylinder group c: fs_fpg, except that the last group ends
 * with the file system.
 */
int32_t
ffs_cgndblk(const struct fs *fs, int c)
{

	if (c == fs->fs_ncg - 1)
		return (fs->fs_size - cgbase(fs, c));
	return (fs->fs_fpg);
}

/*
 * The offsets of the maps in a cylinder group block; see struct cg.
 */
struct cglayout {
	int32_t	iusedoff;
	int32_t	freeoff;
	int32_t	clustersumoff;
	int32_t	clusteroff;
	int32_t	nextfreeoff;
};

static void
cglayout(const struct fs *fs, struct cglayout *l)
{
	int32_t off;

	l->iusedoff = sizeof(struct cg);
	l->freeoff = l->iusedoff + howmany(fs->fs_ipg, NBBY);
	off = l->freeoff + howmany(fs->fs_fpg, NBBY);
	if (fs->fs_contigsumsize > 0) {
		l->clustersumoff = (off + 3) & ~3;	/* int32_t aligned */
		l->clusteroff = l->clustersumoff +
		    (fs->fs_contigsumsize + 1) * (int32_t)sizeof(int32_t);
		off = l->clusteroff +
		    howmany(fragstoblks(fs, fs->fs_fpg), NBBY);
	} else {
		l->clustersumoff = 0;
		l->clusteroff = 0;
	}
	l->nextfreeoff = off;
}

static int32_t
cgncyl(const struct fs *fs, int c)
{

	if (c == fs->fs_ncg - 1)
		return (fs->fs_ncyl - fs->fs_cpg * c);
	return (fs->fs_cpg);
}

/*
 * Set up an empty cylinder group block for group c in the fs_cgsize bytes
 * at cgp: header and map offsets filled in, every map zero (all inodes
 * free, all fragments allocated), counts zero.  The caller then frees
 * fragments and marks inodes, and calls ffs_cgrecount.
 */
void
ffs_cginit(const struct fs *fs, struct cg *cgp, int c)
{
	struct cglayout l;
	u_int8_t *p;
	int i;

	p = (u_int8_t *)cgp;
	for (i = 0; i < fs->fs_cgsize; i++)
		p[i] = 0;
	cglayout(fs, &l);
	cgp->cg_magic = CG_MAGIC;
	cgp->cg_cgx = c;
	cgp->cg_ncyl = cgncyl(fs, c);
	cgp->cg_niblk = fs->fs_ipg;
	cgp->cg_ndblk = ffs_cgndblk(fs, c);
	cgp->cg_iusedoff = l.iusedoff;
	cgp->cg_freeoff = l.freeoff;
	cgp->cg_clustersumoff = l.clustersumoff;
	cgp->cg_clusteroff = l.clusteroff;
	cgp->cg_nextfreeoff = l.nextfreeoff;
	if (fs->fs_contigsumsize > 0)
		cgp->cg_nclusterblks = cgp->cg_ndblk / fs->fs_frag;
}

/*
 * Recompute from the inode and fragment maps everything derived from
 * them: cs_nifree, cs_nbfree, cs_nffree, cg_frsum, and the cluster map
 * and cluster counts.  cs_ndir needs the inodes' types and is left alone.
 * newfs uses it after building a group, fsck_ffs to compute what a group
 * should say.
 */
void
ffs_cgrecount(const struct fs *fs, struct cg *cgp)
{
	u_int8_t *inosused, *blksfree, *clustersfree;
	int32_t *sump;
	int32_t i, b, nblks, d, run;

	inosused = cg_inosused(cgp);
	blksfree = cg_blksfree(cgp);
	cgp->cg_cs.cs_nifree = 0;
	for (i = 0; i < cgp->cg_niblk; i++)
		if (isclr(inosused, i))
			cgp->cg_cs.cs_nifree++;

	cgp->cg_cs.cs_nbfree = 0;
	cgp->cg_cs.cs_nffree = 0;
	for (i = 0; i < MAXFRAG; i++)
		cgp->cg_frsum[i] = 0;
	nblks = cgp->cg_ndblk / fs->fs_frag;
	for (b = 0; b < nblks; b++) {
		if (ffs_isblock(fs, blksfree, b)) {
			cgp->cg_cs.cs_nbfree++;
			continue;
		}
		d = blkstofrags(fs, b);
		for (i = 0; i < fs->fs_frag; i++)
			if (isset(blksfree, d + i))
				cgp->cg_cs.cs_nffree++;
		ffs_fragacct(fs, blkmap(fs, blksfree, d), cgp->cg_frsum, 1);
	}
	/* A partial block at the end of the last group is only fragments. */
	d = blkstofrags(fs, nblks);
	if (d < cgp->cg_ndblk) {
		for (i = d; i < cgp->cg_ndblk; i++)
			if (isset(blksfree, i))
				cgp->cg_cs.cs_nffree++;
		ffs_fragacct(fs, blkmap(fs, blksfree, d), cgp->cg_frsum, 1);
	}

	if (fs->fs_contigsumsize <= 0)
		return;
	clustersfree = cg_clustersfree(cgp);
	sump = cg_clustersum(cgp);
	for (i = 0; i <= fs->fs_contigsumsize; i++)
		sump[i] = 0;
	run = 0;
	for (b = 0; b <= cgp->cg_nclusterblks; b++) {
		if (b < cgp->cg_nclusterblks && ffs_isblock(fs, blksfree, b)) {
			setbit(clustersfree, b);
			run++;
			continue;
		}
		if (b < cgp->cg_nclusterblks)
			clrbit(clustersfree, b);
		if (run > 0)
			sump[run < fs->fs_contigsumsize ?
			    run : fs->fs_contigsumsize]++;
		run = 0;
	}
}

/*
 * The largest file a block size allows: NDADDR direct blocks plus what
 * the three indirect levels map, but no more than 2^31 logical blocks,
 * because logical block numbers are 32-bit ints in the kernel (and LFS
 * uses their negatives for indirect blocks).
 */
int64_t
ffs_maxfilesize(int32_t bsize)
{
	int64_t nblks, perlevel, cap;
	int i;

	cap = (int64_t)1 << 31;
	nblks = NDADDR;
	perlevel = 1;
	for (i = 0; i < NIADDR; i++) {
		perlevel *= bsize / (int32_t)sizeof(ufs_daddr_t);
		if (perlevel > cap)
			perlevel = cap;
		nblks += perlevel;
	}
	if (nblks > cap)
		nblks = cap;
	return (nblks * bsize - 1);
}

/* log2(n) if n is a power of two, else -1. */
static int
ilog2(int32_t n)
{
	int i;

	if (n <= 0 || (n & (n - 1)) != 0)
		return (-1);
	for (i = 0; (1 << i) != n; i++)
		;
	return (i);
}

/*
 * Is this superblock one a kernel can trust?  Checks every field that
 * sizes a buffer, indexes a map or computes a disk address, and the
 * relations newfs guarantees between them.  Returns 0 if the superblock
 * is sound, else a short reason for the console.
 */
const char *
ffs_sbcheck(const struct fs *fs)
{
	int32_t spb, ntotal, lastfrags, csfrags;

	if (fs->fs_magic != FS_MAGIC)
		return ("bad magic number");
	if (ilog2(fs->fs_bsize) < 0 || fs->fs_bsize < MINBSIZE ||
	    fs->fs_bsize > FS_MAXBSIZE)
		return ("bad block size");
	if (ilog2(fs->fs_fsize) < 0 || fs->fs_fsize < 512 ||
	    fs->fs_fsize > fs->fs_bsize)
		return ("bad fragment size");
	if (fs->fs_frag != fs->fs_bsize / fs->fs_fsize ||
	    fs->fs_frag > MAXFRAG)
		return ("bad fragments per block");
	if (fs->fs_bshift != ilog2(fs->fs_bsize) ||
	    fs->fs_fshift != ilog2(fs->fs_fsize) ||
	    fs->fs_fragshift != ilog2(fs->fs_frag) ||
	    fs->fs_fsbtodb != ilog2(fs->fs_fsize / 512))
		return ("bad shift counts");
	if (fs->fs_bmask != ~(fs->fs_bsize - 1) ||
	    fs->fs_fmask != ~(fs->fs_fsize - 1))
		return ("bad masks");
	if (fs->fs_nindir != fs->fs_bsize / (int32_t)sizeof(ufs_daddr_t) ||
	    fs->fs_inopb != fs->fs_bsize / (int32_t)sizeof(struct dinode))
		return ("bad nindir or inopb");
	if (fs->fs_sbsize < (int32_t)sizeof(struct fs) ||
	    fs->fs_sbsize > SBSIZE || fs->fs_sbsize % 512 != 0)
		return ("bad superblock size");

	/* Group geometry. */
	if (fs->fs_ncg < 1 || fs->fs_size < 1 || fs->fs_fpg < 1 ||
	    fs->fs_ipg < 1)
		return ("bad group counts");
	if (fs->fs_fpg % fs->fs_frag != 0 || fs->fs_ipg % fs->fs_inopb != 0)
		return ("fpg or ipg not whole blocks");
	if (fs->fs_ipg > 0x7fffffff / fs->fs_ncg ||
	    fs->fs_fpg > 0x7fffffff / fs->fs_ncg)
		return ("too many inodes or fragments");
	if (fs->fs_size > fs->fs_ncg * fs->fs_fpg ||
	    fs->fs_size <= (fs->fs_ncg - 1) * fs->fs_fpg)
		return ("size does not match group count");
	if (fs->fs_dsize < 1 || fs->fs_dsize > fs->fs_size)
		return ("bad data size");
	if (fs->fs_cpg < 1 || fs->fs_nsect < 1 || fs->fs_ntrak < 1 ||
	    fs->fs_spc != fs->fs_nsect * fs->fs_ntrak ||
	    fs->fs_ncyl <= (fs->fs_ncg - 1) * fs->fs_cpg ||
	    fs->fs_ncyl > fs->fs_ncg * fs->fs_cpg)
		return ("bad disk geometry");

	/* Layout inside a group (see fs.h). */
	spb = fs->fs_frag;
	if (fs->fs_sblkno % spb != 0 || fs->fs_cblkno % spb != 0 ||
	    fs->fs_iblkno % spb != 0 || fs->fs_dblkno % spb != 0)
		return ("group offsets not block aligned");
	if ((int64_t)fs->fs_sblkno * fs->fs_fsize < SBOFF + SBSIZE)
		return ("superblock copy overlaps the boot area");
	if (fs->fs_cblkno < fs->fs_sblkno + howmany(SBSIZE, fs->fs_fsize) ||
	    fs->fs_iblkno < fs->fs_cblkno + howmany(fs->fs_cgsize,
	    fs->fs_fsize))
		return ("bad group offsets");
	if (fs->fs_dblkno != fs->fs_iblkno +
	    blkstofrags(fs, fs->fs_ipg / fs->fs_inopb))
		return ("inode area size mismatch");
	if (fs->fs_dblkno >= fs->fs_fpg)
		return ("no data space in a group");
	lastfrags = fs->fs_size - cgbase(fs, fs->fs_ncg - 1);
	if (lastfrags <= fs->fs_dblkno)
		return ("last group too small");
	if (fs->fs_cgsize < CGSIZE(fs) || fs->fs_cgsize > fs->fs_bsize ||
	    fragoff(fs, fs->fs_cgsize) != 0)
		return ("bad cylinder group size");

	/* The summary array: first thing in cg 0's data area. */
	if (fs->fs_cssize != fragroundup(fs,
	    fs->fs_ncg * (int32_t)sizeof(struct csum)))
		return ("bad summary size");
	csfrags = numfrags(fs, fs->fs_cssize);
	if (fs->fs_csaddr != cgdmin(fs, 0) ||
	    fs->fs_csaddr + csfrags > ffs_cgndblk(fs, 0))
		return ("bad summary address");

	/* Policy values the allocator computes with. */
	if (fs->fs_minfree < 0 || fs->fs_minfree > 99)
		return ("bad minfree");
	if (fs->fs_optim != FS_OPTTIME && fs->fs_optim != FS_OPTSPACE)
		return ("bad optimization preference");
	if (fs->fs_rotdelay < 0 || fs->fs_rotdelay > 1000 ||
	    fs->fs_rps < 1 || fs->fs_rps > 1000)
		return ("bad rotdelay or rps");
	if (fs->fs_maxcontig < 0 || fs->fs_maxcontig > 1024 ||
	    fs->fs_maxbpg < 1)
		return ("bad maxcontig or maxbpg");
	/* Not bound by maxcontig: tunefs may lower that after newfs sized
	 * the groups' cluster maps. */
	if (fs->fs_contigsumsize < 0 || fs->fs_contigsumsize > FS_MAXCONTIG)
		return ("bad cluster summary size");
	if (fs->fs_maxsymlinklen < 0 || fs->fs_maxsymlinklen > MAXSYMLINKLEN)
		return ("bad maxsymlinklen");
	if (fs->fs_maxfilesize < 0 ||
	    fs->fs_maxfilesize > ffs_maxfilesize(fs->fs_bsize))
		return ("bad maxfilesize");
	if ((fs->fs_flags & ~FS_EFS) != 0)
		return ("unknown flags");
	if (fs->fs_cgrotor < 0 || fs->fs_cgrotor >= fs->fs_ncg)
		return ("bad cgrotor");
	if (fs->fs_fsmnt[MAXMNTLEN - 1] != '\0')
		return ("mount point name not terminated");

	/* Totals must not promise more than exists. */
	ntotal = fs->fs_ncg * fs->fs_ipg;
	if (fs->fs_cstotal.cs_ndir < 0 || fs->fs_cstotal.cs_ndir > ntotal ||
	    fs->fs_cstotal.cs_nifree < 0 ||
	    fs->fs_cstotal.cs_nifree > ntotal ||
	    fs->fs_cstotal.cs_nbfree < 0 || fs->fs_cstotal.cs_nffree < 0 ||
	    (int64_t)fs->fs_cstotal.cs_nbfree * fs->fs_frag +
	    fs->fs_cstotal.cs_nffree > fs->fs_dsize)
		return ("bad summary totals");
	return (0);
}

/*
 * Is the cylinder group block at cgp, read for group c, one the kernel
 * can use?  The header must be the one ffs_cginit writes for c, and the
 * counts must be in range.  Returns 0 or a short reason.
 */
const char *
ffs_cgcheck(const struct fs *fs, const struct cg *cgp, int c)
{
	struct cglayout l;
	int i;

	if (!cg_chkmagic(cgp))
		return ("bad cylinder group magic");
	if (cgp->cg_cgx != c)
		return ("wrong cylinder group index");
	cglayout(fs, &l);
	if (cgp->cg_ncyl != cgncyl(fs, c) || cgp->cg_niblk != fs->fs_ipg ||
	    cgp->cg_ndblk != ffs_cgndblk(fs, c))
		return ("bad group sizes");
	if (cgp->cg_iusedoff != l.iusedoff || cgp->cg_freeoff != l.freeoff ||
	    cgp->cg_clustersumoff != l.clustersumoff ||
	    cgp->cg_clusteroff != l.clusteroff ||
	    cgp->cg_nextfreeoff != l.nextfreeoff ||
	    cgp->cg_nextfreeoff > fs->fs_cgsize)
		return ("bad map offsets");
	if (cgp->cg_nclusterblks != (fs->fs_contigsumsize > 0 ?
	    cgp->cg_ndblk / fs->fs_frag : 0))
		return ("bad cluster map size");
	if (cgp->cg_rotor < 0 || cgp->cg_rotor >= cgp->cg_ndblk ||
	    cgp->cg_frotor < 0 || cgp->cg_frotor >= cgp->cg_ndblk ||
	    cgp->cg_irotor < 0 || cgp->cg_irotor >= cgp->cg_niblk)
		return ("bad rotors");
	if (cgp->cg_cs.cs_ndir < 0 || cgp->cg_cs.cs_ndir > cgp->cg_niblk ||
	    cgp->cg_cs.cs_nifree < 0 || cgp->cg_cs.cs_nifree > cgp->cg_niblk ||
	    cgp->cg_cs.cs_nbfree < 0 || cgp->cg_cs.cs_nffree < 0 ||
	    cgp->cg_cs.cs_nbfree * fs->fs_frag + cgp->cg_cs.cs_nffree >
	    cgp->cg_ndblk)
		return ("bad group counts");
	for (i = 0; i < MAXFRAG; i++)
		if (cgp->cg_frsum[i] < 0 ||
		    (i >= fs->fs_frag && cgp->cg_frsum[i] != 0))
			return ("bad fragment summary");
	return (0);
}
