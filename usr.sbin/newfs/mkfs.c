/*
 * mkfs: lay out the file system and write it.
 *
 * The computation follows 4.4BSD's mkfs: a group is fs_cpg cylinders
 * (rounded so that it holds whole blocks), it holds one inode per
 * `density' bytes of data, and its cylinder group block must fit in one
 * block (else fewer cylinders per group).  A last group too small to
 * hold its inodes and some data is dropped.  Each group then gets its
 * superblock copy, group block and zeroed inodes; cg 0 also gets the
 * summary array, the root directory (inode 2) and lost+found (inode 3).
 *
 * Write order (the commit point is the last write): inode tables and
 * file data first, then group blocks and summary array, then the
 * superblock copies, and the primary superblock at SBOFF last.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/fs.h"
#include "newfs.h"

struct fs sblock;
u_int8_t *cgbuf;
int32_t now;

static int
ilog2(int n)
{
	int i;

	for (i = 0; (1 << i) < n; i++)
		;
	return (i);
}

static int
gcd(int a, int b)
{
	int t;

	while (b != 0) {
		t = a % b;
		a = b;
		b = t;
	}
	return (a);
}

/*
 * Offsets inside a group and the inodes per group for fs_cpg cylinders.
 * Returns 0 if the group block does not fit in a block or the inodes
 * leave (almost) no room for data.
 */
static int
grouplayout(struct fs *fs, int density)
{
	int64_t ninodes;

	fs->fs_fpg = fs->fs_cpg * fs->fs_spc / NSPF(fs);
	ninodes = (int64_t)fs->fs_fpg * fs->fs_fsize / density;
	if (ninodes < fs->fs_inopb)
		ninodes = fs->fs_inopb;
	fs->fs_ipg = (int32_t)((ninodes + fs->fs_inopb - 1) / fs->fs_inopb *
	    fs->fs_inopb);
	fs->fs_sblkno = roundup(howmany(BBSIZE + SBSIZE, fs->fs_fsize),
	    fs->fs_frag);
	fs->fs_cblkno = fs->fs_sblkno +
	    roundup(howmany(SBSIZE, fs->fs_fsize), fs->fs_frag);
	if (CGSIZE(fs) > fs->fs_bsize)
		return (0);
	fs->fs_cgsize = fragroundup(fs, CGSIZE(fs));
	fs->fs_iblkno = fs->fs_cblkno +
	    roundup(howmany(fs->fs_cgsize, fs->fs_fsize), fs->fs_frag);
	fs->fs_dblkno = fs->fs_iblkno + fs->fs_ipg / fs->fs_inopb * fs->fs_frag;
	/* Keep at least a quarter of a group for data, as a sanity bound. */
	if (fs->fs_dblkno > fs->fs_fpg - fs->fs_fpg / 4)
		return (0);
	return (1);
}

/* Compute the whole superblock from the parameters. */
static void
layout(struct fs *fs, struct mkfsparams *p)
{
	int64_t size;
	int mincpc, lastfrags;

	if ((p->bsize & (p->bsize - 1)) != 0)
		fatal("block size %d is not a power of 2", p->bsize);
	if ((p->fsize & (p->fsize - 1)) != 0)
		fatal("fragment size %d is not a power of 2", p->fsize);
	if (p->fsize > p->bsize)
		fatal("fragment size %d is larger than block size %d",
		    p->fsize, p->bsize);
	if (p->bsize / p->fsize > MAXFRAG)
		fatal("fragment size %d is too small, minimum with "
		    "block size %d is %d", p->fsize, p->bsize,
		    p->bsize / MAXFRAG);
	memset(fs, 0, sizeof(*fs));
	fs->fs_bsize = p->bsize;
	fs->fs_fsize = p->fsize;
	fs->fs_frag = p->bsize / p->fsize;
	fs->fs_bmask = ~(p->bsize - 1);
	fs->fs_fmask = ~(p->fsize - 1);
	fs->fs_bshift = ilog2(p->bsize);
	fs->fs_fshift = ilog2(p->fsize);
	fs->fs_fragshift = ilog2(fs->fs_frag);
	fs->fs_fsbtodb = ilog2(p->fsize / 512);
	/* Whole fragments, but never past the SBSIZE bytes reserved. */
	fs->fs_sbsize = fragroundup(fs, (int32_t)sizeof(struct fs));
	if (fs->fs_sbsize > SBSIZE)
		fs->fs_sbsize = SBSIZE;
	fs->fs_nindir = p->bsize / (int)sizeof(ufs_daddr_t);
	fs->fs_inopb = p->bsize / (int)sizeof(struct dinode);
	fs->fs_nsect = p->nsect;
	fs->fs_ntrak = p->ntrak;
	fs->fs_spc = p->nsect * p->ntrak;
	fs->fs_rps = p->rpm / 60 > 0 ? p->rpm / 60 : 1;

	size = p->sectors / NSPF(fs);
	if (size > 0x7fffffff)
		fatal("file system too large: at most 2^31 fragments");
	fs->fs_size = (int32_t)size;
	fs->fs_ncyl = (int32_t)howmany((int64_t)fs->fs_size * NSPF(fs),
	    fs->fs_spc);

	/* A group must hold whole blocks: cpg * spc a multiple of NSPB. */
	mincpc = NSPB(fs) / gcd(fs->fs_spc, NSPB(fs));
	if (p->cpgflag && p->cpg % mincpc != 0)
		fatal("cylinder groups must have a multiple of %d cylinders",
		    mincpc);
	fs->fs_cpg = roundup(p->cpg, mincpc);
	if (!p->cpgflag && fs->fs_cpg > roundup(fs->fs_ncyl, mincpc))
		fs->fs_cpg = roundup(fs->fs_ncyl, mincpc);

	fs->fs_maxcontig = p->maxcontig;
	fs->fs_contigsumsize = p->maxcontig > 1 ?
	    (p->maxcontig < FS_MAXCONTIG ? p->maxcontig : FS_MAXCONTIG) : 0;
	while (!grouplayout(fs, p->density)) {
		if (p->cpgflag || fs->fs_cpg <= mincpc)
			fatal("%d cylinders per group do not fit: the group "
			    "block exceeds a block or inodes fill the group "
			    "(try a larger -b, -i or a smaller -c)",
			    fs->fs_cpg);
		fs->fs_cpg -= mincpc;
	}

	fs->fs_ncg = howmany(fs->fs_size, fs->fs_fpg);
	lastfrags = fs->fs_size - cgbase(fs, fs->fs_ncg - 1);
	if (lastfrags < fs->fs_dblkno + 4 * fs->fs_frag) {
		if (fs->fs_ncg == 1)
			fatal("file system too small: %d sectors",
			    (int)p->sectors);
		printf("Warning: %d sector(s) in last cylinder group "
		    "unallocated\n", lastfrags * NSPF(fs));
		fs->fs_ncg--;
		fs->fs_size = fs->fs_ncg * fs->fs_fpg;
		fs->fs_ncyl = (int32_t)howmany((int64_t)fs->fs_size *
		    NSPF(fs), fs->fs_spc);
	}
	fs->fs_cssize = fragroundup(fs,
	    fs->fs_ncg * (int32_t)sizeof(struct csum));
	fs->fs_csaddr = cgdmin(fs, 0);
	if (fs->fs_dblkno + numfrags(fs, fs->fs_cssize) + 4 * fs->fs_frag >
	    ffs_cgndblk(fs, 0))
		fatal("file system too small for its summary information");
	fs->fs_dsize = fs->fs_size - fs->fs_sblkno -
	    fs->fs_ncg * (fs->fs_dblkno - fs->fs_sblkno) -
	    numfrags(fs, fs->fs_cssize);

	fs->fs_minfree = p->minfree;
	fs->fs_optim = p->optim;
	if (fs->fs_minfree < MINFREE && fs->fs_optim == FS_OPTTIME) {
		printf("Warning: changing optimization to space because "
		    "minfree is less than %d%%\n", MINFREE);
		fs->fs_optim = FS_OPTSPACE;
	}
	fs->fs_rotdelay = p->rotdelay;
	fs->fs_maxbpg = p->maxbpg > 0 ? p->maxbpg : fs->fs_nindir;
	fs->fs_maxfilesize = ffs_maxfilesize(fs->fs_bsize);
	fs->fs_maxsymlinklen = MAXSYMLINKLEN;
	fs->fs_flags = p->efs ? FS_EFS : 0;
	fs->fs_id[0] = now;
	fs->fs_id[1] = (int32_t)(p->sectors ^ ((int64_t)now << 7));
	fs->fs_time = now;
	fs->fs_clean = 1;
	fs->fs_magic = FS_MAGIC;
}

/*
 * Set up group c in memory: everything free except the boot area and
 * primary superblock (cg 0), the superblock copy, the group block, the
 * inode area and (cg 0) the summary array.  Inodes 0 and 1 are reserved.
 */
static void
initcg(int c)
{
	struct cg *cgp;
	int32_t d, dlower, dupper;

	cgp = CGP(c);
	ffs_cginit(&sblock, cgp, c);
	cgp->cg_time = now;
	dlower = c == 0 ? 0 : sblock.fs_sblkno;
	dupper = sblock.fs_dblkno;
	if (c == 0) {
		dupper += numfrags(&sblock, sblock.fs_cssize);
		setbit(cg_inosused(cgp), 0);
		setbit(cg_inosused(cgp), WINO);
	}
	for (d = 0; d < dlower; d++)
		setbit(cg_blksfree(cgp), d);
	for (d = dupper; d < cgp->cg_ndblk; d++)
		setbit(cg_blksfree(cgp), d);
	ffs_cgrecount(&sblock, cgp);
}

/* Write zeroed inode tables for every group, a few blocks at a time. */
static void
zeroinodes(void)
{
	u_int8_t *zero;
	int32_t c, i, n, chunk, total;

	chunk = 16 * sblock.fs_frag;		/* fragments per write */
	zero = emalloc((size_t)chunk * sblock.fs_fsize);
	total = sblock.fs_dblkno - sblock.fs_iblkno;
	for (c = 0; c < sblock.fs_ncg; c++) {
		for (i = 0; i < total; i += n) {
			n = total - i < chunk ? total - i : chunk;
			wtfs(fsbtodb(&sblock, (int64_t)cgimin(&sblock, c) + i),
			    n * sblock.fs_fsize, zero);
		}
	}
	free(zero);
}

/* Print the 4.4BSD summary lines. */
static void
summary(const char *special, struct mkfsparams *p)
{
	int64_t tenthmb;
	int c, col;

	printf("%s:\t%d sectors in %d cylinders of %d tracks, %d sectors\n",
	    special, (int)((int64_t)sblock.fs_size * NSPF(&sblock)),
	    sblock.fs_ncyl, sblock.fs_ntrak, sblock.fs_nsect);
	tenthmb = (int64_t)sblock.fs_size * sblock.fs_fsize * 10 /
	    (1024 * 1024);
	printf("\t%d.%dMB in %d cyl groups (%d c/g, ", (int)(tenthmb / 10),
	    (int)(tenthmb % 10), sblock.fs_ncg, sblock.fs_cpg);
	tenthmb = (int64_t)sblock.fs_fpg * sblock.fs_fsize * 100 /
	    (1024 * 1024);
	printf("%d.%02dMB/g, %d i/g)%s\n", (int)(tenthmb / 100),
	    (int)(tenthmb % 100), sblock.fs_ipg, p->efs ? " EFS" : "");
	printf("super-block backups (for fsck -b #) at:");
	for (c = 0, col = 8; c < sblock.fs_ncg; c++, col++) {
		if (col == 8) {
			printf("\n");
			col = 0;
		}
		printf(" %d%s", (int)fsbtodb(&sblock, cgsblock(&sblock, c)),
		    c == sblock.fs_ncg - 1 ? "" : ",");
	}
	printf("\n");
}

void
mkfs(struct mkfsparams *p, const char *special, struct pnode *root)
{
	struct csum *cs;
	u_int8_t *sbbuf;
	int c;

	now = (int32_t)time(NULL);
	layout(&sblock, p);
	summary(special, p);
	if (Nflag)
		return;

	cgbuf = emalloc((size_t)sblock.fs_ncg * sblock.fs_cgsize);
	for (c = 0; c < sblock.fs_ncg; c++)
		initcg(c);
	zeroinodes();
	write_tree(root);

	/* Totals from the groups; the summary array mirrors cg_cs. */
	cs = emalloc((size_t)sblock.fs_cssize);
	memset(&sblock.fs_cstotal, 0, sizeof(sblock.fs_cstotal));
	for (c = 0; c < sblock.fs_ncg; c++) {
		ffs_cgrecount(&sblock, CGP(c));
		cs[c] = CGP(c)->cg_cs;
		sblock.fs_cstotal.cs_ndir += cs[c].cs_ndir;
		sblock.fs_cstotal.cs_nbfree += cs[c].cs_nbfree;
		sblock.fs_cstotal.cs_nifree += cs[c].cs_nifree;
		sblock.fs_cstotal.cs_nffree += cs[c].cs_nffree;
		wtfs(fsbtodb(&sblock, (int64_t)cgtod(&sblock, c)),
		    sblock.fs_cgsize, CGP(c));
	}
	wtfs(fsbtodb(&sblock, (int64_t)sblock.fs_csaddr), sblock.fs_cssize,
	    cs);
	free(cs);

	if (ffs_sbcheck(&sblock) != 0)
		fatal("internal error: new superblock fails its check: %s",
		    ffs_sbcheck(&sblock));
	sbbuf = emalloc((size_t)sblock.fs_sbsize);
	memcpy(sbbuf, &sblock, sizeof(sblock));
	for (c = 0; c < sblock.fs_ncg; c++)
		wtfs(fsbtodb(&sblock, (int64_t)cgsblock(&sblock, c)),
		    sblock.fs_sbsize, sbbuf);
	/* Commit point: the primary superblock makes it a file system. */
	wtfs(SBLOCK, sblock.fs_sbsize, sbbuf);
	free(sbbuf);
	free(cgbuf);
}
