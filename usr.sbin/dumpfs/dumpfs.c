/*
 * dumpfs: print an FFS/EFS file system's superblock and cylinder groups,
 * as 4.4BSD's dumpfs, one `name<TAB>value' per line so that tests and
 * people can grep it.
 *
 *	dumpfs [-s] special		superblock, then (without -s) the
 *					summary array and every group: its
 *					counts, free-run summary, and the
 *					used inodes and free fragments as
 *					ranges
 *	dumpfs -i inum special		one inode: mode, links, size,
 *					blocks, block pointers, then the
 *					file's layout on disk (below)
 *
 * The layout shows clustering (maxcontig, EFS) at a glance: one line
 * per run of data blocks that are logically consecutive and physically
 * contiguous (each fs_frag fragments after the one before), in logical
 * order through the direct pointers and the single, double and triple
 * indirect trees, each indirect block read from the disk:
 *
 *	run	lbn 0-11	frag 1240-1287	12 blocks
 *	indir	level 1	frag 1288
 *	run	lbn 12-40	frag 1292-1407	29 blocks
 *	runs	2	blocks 41	longest 29
 *
 * The fragments of a short file's last block count as a block; they
 * join the run before them only if they follow it on the disk.  An
 * indirect block is printed after the run that was open when the walk
 * reached it, so that a run that goes on past it stays one line; level
 * 2 and 3 are the tops of the double and triple trees.
 *
 * A superblock that fails ffs_sbcheck is printed with the reason, but
 * the groups are not walked: their addresses could not be trusted.
 */
#include <sys/types.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/fs.h"
#include "lib/fsutil/dinode.h"

static union {
	struct	fs fs;
	u_int8_t buf[SBSIZE];
} sbu;
#define sblock	sbu.fs

static int fd;

/* The run of data blocks being built by dumpfs -i, and the totals. */
static struct {
	int64_t	lbn;		/* first logical block */
	ufs_daddr_t frag;	/* its first fragment */
	int64_t	nblk;		/* blocks so far, 0 = no run open */
	ufs_daddr_t next;	/* fragment that would extend it */
	int64_t	nruns, total, longest;
} run;

/* Indirect blocks reached while a run is open, printed after it. */
static struct indir {
	int	level;
	ufs_daddr_t frag;
} *pend;
static int npend, maxpend;

static void
usage(void)
{

	fprintf(stderr, "usage: dumpfs [-s] special\n"
	    "       dumpfs -i inumber special\n");
	exit(1);
}

/* Read size bytes at fragment-aligned byte offset off; 0 on error. */
static int
bread(int64_t off, void *buf, int size)
{

	if (lseek(fd, (off_t)off, SEEK_SET) < 0 ||
	    read(fd, buf, size) != size)
		return (0);
	return (1);
}

static void
dumpsb(void)
{
	struct fs *fs = &sblock;

	printf("magic\t%x\n", fs->fs_magic);
	printf("time\t%d\n", fs->fs_time);
	printf("id\t%x %x\n", fs->fs_id[0], fs->fs_id[1]);
	printf("ncg\t%d\n", fs->fs_ncg);
	printf("size\t%d\n", fs->fs_size);
	printf("dsize\t%d\n", fs->fs_dsize);
	printf("bsize\t%d\n", fs->fs_bsize);
	printf("fsize\t%d\n", fs->fs_fsize);
	printf("frag\t%d\n", fs->fs_frag);
	printf("shift\t%d\n", fs->fs_bshift);
	printf("fshift\t%d\n", fs->fs_fshift);
	printf("fragshift\t%d\n", fs->fs_fragshift);
	printf("fsbtodb\t%d\n", fs->fs_fsbtodb);
	printf("bmask\t%x\n", (u_int32_t)fs->fs_bmask);
	printf("fmask\t%x\n", (u_int32_t)fs->fs_fmask);
	printf("sbsize\t%d\n", fs->fs_sbsize);
	printf("cgsize\t%d\n", fs->fs_cgsize);
	printf("minfree\t%d%%\n", fs->fs_minfree);
	printf("optim\t%s\n", fs->fs_optim == FS_OPTSPACE ? "space" :
	    fs->fs_optim == FS_OPTTIME ? "time" : "unknown");
	printf("rotdelay\t%dms\n", fs->fs_rotdelay);
	printf("rps\t%d\n", fs->fs_rps);
	printf("maxcontig\t%d\n", fs->fs_maxcontig);
	printf("contigsumsize\t%d\n", fs->fs_contigsumsize);
	printf("maxbpg\t%d\n", fs->fs_maxbpg);
	printf("flags\t%s\n", (fs->fs_flags & FS_EFS) ? "EFS" : "none");
	printf("clean\t%d\n", fs->fs_clean);
	printf("nsect\t%d\n", fs->fs_nsect);
	printf("ntrak\t%d\n", fs->fs_ntrak);
	printf("spc\t%d\n", fs->fs_spc);
	printf("ncyl\t%d\n", fs->fs_ncyl);
	printf("cpg\t%d\n", fs->fs_cpg);
	printf("ipg\t%d\n", fs->fs_ipg);
	printf("fpg\t%d\n", fs->fs_fpg);
	printf("sblkno\t%d\n", fs->fs_sblkno);
	printf("cblkno\t%d\n", fs->fs_cblkno);
	printf("iblkno\t%d\n", fs->fs_iblkno);
	printf("dblkno\t%d\n", fs->fs_dblkno);
	printf("csaddr\t%d\n", fs->fs_csaddr);
	printf("cssize\t%d\n", fs->fs_cssize);
	printf("nindir\t%d\n", fs->fs_nindir);
	printf("inopb\t%d\n", fs->fs_inopb);
	printf("maxfilesize\t%lld\n", (long long)fs->fs_maxfilesize);
	printf("maxsymlinklen\t%d\n", fs->fs_maxsymlinklen);
	printf("cgrotor\t%d\n", fs->fs_cgrotor);
	printf("fsmnt\t%s\n", fs->fs_fsmnt[MAXMNTLEN - 1] == '\0' ?
	    fs->fs_fsmnt : "(unterminated)");
	printf("nbfree\t%d\n", fs->fs_cstotal.cs_nbfree);
	printf("ndir\t%d\n", fs->fs_cstotal.cs_ndir);
	printf("nifree\t%d\n", fs->fs_cstotal.cs_nifree);
	printf("nffree\t%d\n", fs->fs_cstotal.cs_nffree);
}

/* Print the set (or clear, if want == 0) bits of map[0..n) as ranges. */
static void
pbits(const char *name, const u_int8_t *map, int32_t n, int want)
{
	int32_t i, j, count;

	printf("%s\t", name);
	count = 0;
	for (i = 0; i < n; i++) {
		if ((isset(map, i) != 0) != want)
			continue;
		for (j = i; j + 1 < n && (isset(map, j + 1) != 0) == want; j++)
			;
		printf("%s%d", count++ ? ", " : "", i);
		if (j > i)
			printf("-%d", j);
		i = j;
	}
	printf("\n");
}

static void
dumpcsum(void)
{
	struct csum *cs;
	int c;

	cs = malloc(sblock.fs_cssize);
	if (cs == NULL || !bread((int64_t)sblock.fs_csaddr * sblock.fs_fsize,
	    cs, sblock.fs_cssize)) {
		printf("cs\tunreadable\n");
		free(cs);
		return;
	}
	printf("cs[].cs_(nbfree,ndir,nifree,nffree):");
	for (c = 0; c < sblock.fs_ncg; c++)
		printf("%s(%d,%d,%d,%d)", c % 4 == 0 ? "\n\t" : " ",
		    cs[c].cs_nbfree, cs[c].cs_ndir, cs[c].cs_nifree,
		    cs[c].cs_nffree);
	printf("\n");
	free(cs);
}

static int
dumpcg(int c, struct cg *cgp)
{
	const char *why;
	int i;

	printf("\ncg %d:\n", c);
	if (!bread((int64_t)cgtod(&sblock, c) * sblock.fs_fsize, cgp,
	    sblock.fs_cgsize)) {
		printf("unreadable\n");
		return (1);
	}
	printf("magic\t%x\n", cgp->cg_magic);
	printf("time\t%d\n", cgp->cg_time);
	printf("cgx\t%d\n", cgp->cg_cgx);
	printf("ncyl\t%d\n", cgp->cg_ncyl);
	printf("niblk\t%d\n", cgp->cg_niblk);
	printf("ndblk\t%d\n", cgp->cg_ndblk);
	printf("nbfree\t%d\n", cgp->cg_cs.cs_nbfree);
	printf("ndir\t%d\n", cgp->cg_cs.cs_ndir);
	printf("nifree\t%d\n", cgp->cg_cs.cs_nifree);
	printf("nffree\t%d\n", cgp->cg_cs.cs_nffree);
	printf("rotor\t%d\n", cgp->cg_rotor);
	printf("irotor\t%d\n", cgp->cg_irotor);
	printf("frotor\t%d\n", cgp->cg_frotor);
	if ((why = ffs_cgcheck(&sblock, cgp, c)) != NULL) {
		printf("bad\t%s\n", why);
		return (1);
	}
	printf("frsum\t");
	for (i = 1; i < sblock.fs_frag; i++)
		printf("%s%d", i > 1 ? " " : "", cgp->cg_frsum[i]);
	printf("\n");
	if (sblock.fs_contigsumsize > 0) {
		printf("clustersum\t");
		for (i = 1; i <= sblock.fs_contigsumsize; i++)
			printf("%s%d", i > 1 ? " " : "",
			    cg_clustersum(cgp)[i]);
		printf("\n");
	}
	pbits("iused", cg_inosused(cgp), cgp->cg_niblk, 1);
	pbits("free", cg_blksfree(cgp), cgp->cg_ndblk, 1);
	return (0);
}

/* Print the open run, if any, and count it; then the indirect blocks. */
static void
endrun(void)
{
	int i;

	if (run.nblk > 0) {
		printf("run\tlbn %lld-%lld\tfrag %d-%d\t%lld blocks\n",
		    (long long)run.lbn, (long long)(run.lbn + run.nblk - 1),
		    run.frag, run.next - 1, (long long)run.nblk);
		run.nruns++;
		run.total += run.nblk;
		if (run.nblk > run.longest)
			run.longest = run.nblk;
		run.nblk = 0;
	}
	for (i = 0; i < npend; i++)
		printf("indir\tlevel %d\tfrag %d\n", pend[i].level,
		    pend[i].frag);
	npend = 0;
}

/* Note the indirect block at frag; 0 if out of memory. */
static int
addindir(int level, ufs_daddr_t frag)
{
	struct indir *p;

	if (npend == maxpend) {
		maxpend = maxpend ? 2 * maxpend : 16;
		if ((p = realloc(pend, maxpend * sizeof(*p))) == NULL)
			return (0);
		pend = p;
	}
	pend[npend].level = level;
	pend[npend].frag = frag;
	npend++;
	if (run.nblk == 0)
		endrun();
	return (1);
}

/*
 * The next logical block, lbn, is nfrags fragments at frag (0: a hole).
 * The walk is in logical order and a hole ends the open run, so a block
 * extends the run if it follows it on the disk.
 */
static void
addblock(int64_t lbn, ufs_daddr_t frag, int nfrags)
{

	if (frag == 0) {
		endrun();
		return;
	}
	if (run.nblk == 0 || frag != run.next) {
		endrun();
		run.lbn = lbn;
		run.frag = frag;
	}
	run.nblk++;
	run.next = frag + nfrags;
}

/*
 * Walk the indirect block at frag, of the given level (1 maps data
 * blocks), which maps the file from logical block lbn on; stop at the
 * file's last block nblks - 1.  buf holds a block for each level.
 */
static int
walkindir(int level, ufs_daddr_t frag, int64_t lbn, int64_t nblks,
    ufs_daddr_t *buf[])
{
	ufs_daddr_t *bap;
	int64_t span;
	int i, j, bad;

	if (!addindir(level, frag)) {
		fprintf(stderr, "dumpfs: out of memory\n");
		return (1);
	}
	bap = buf[level - 1];
	if (frag < 0 || frag > sblock.fs_size - sblock.fs_frag ||
	    !bread((int64_t)frag * sblock.fs_fsize, bap, sblock.fs_bsize)) {
		printf("bad\tindirect block at frag %d unreadable\n", frag);
		return (1);
	}
	for (span = 1, j = 1; j < level; j++)
		span *= NINDIR(&sblock);
	bad = 0;
	for (i = 0; i < NINDIR(&sblock) && lbn < nblks; i++, lbn += span) {
		if (level == 1)
			addblock(lbn, bap[i], sblock.fs_frag);
		else if (bap[i] == 0)
			endrun();
		else
			bad |= walkindir(level - 1, bap[i], lbn, nblks, buf);
	}
	return (bad);
}

/* The file's data blocks as contiguous runs, and its indirect blocks. */
static int
dumpruns(const struct dinode *dp)
{
	ufs_daddr_t *buf[NIADDR];
	int64_t lbn, nblks, span;
	int i, bad;

	memset(&run, 0, sizeof(run));
	nblks = howmany(dp->di_size, (u_int64_t)sblock.fs_bsize);
	for (lbn = 0; lbn < NDADDR && lbn < nblks; lbn++)
		addblock(lbn, dp->di_db[lbn], numfrags(&sblock,
		    sblksize(&sblock, dp->di_size, lbn)));
	for (i = 0; i < NIADDR; i++)
		if ((buf[i] = malloc(sblock.fs_bsize)) == NULL) {
			fprintf(stderr, "dumpfs: out of memory\n");
			return (1);
		}
	bad = 0;
	for (i = 0, span = NINDIR(&sblock); i < NIADDR && lbn < nblks;
	    i++, lbn += span, span *= NINDIR(&sblock)) {
		if (dp->di_ib[i] == 0)
			endrun();
		else
			bad |= walkindir(i + 1, dp->di_ib[i], lbn, nblks, buf);
	}
	endrun();
	for (i = 0; i < NIADDR; i++)
		free(buf[i]);
	printf("runs\t%lld\tblocks %lld\tlongest %lld\n",
	    (long long)run.nruns, (long long)run.total,
	    (long long)run.longest);
	return (bad);
}

static int
dumpino(u_int32_t ino)
{
	struct dinode di;
	u_int8_t *frag;
	int32_t off;

	if (ino >= (u_int32_t)(sblock.fs_ncg * sblock.fs_ipg)) {
		fprintf(stderr, "dumpfs: inode %u out of range\n", ino);
		return (1);
	}
	/* The whole fragment: a raw device reads only whole sectors. */
	off = ino_to_fsbo(&sblock, ino) * (int32_t)sizeof(di);
	if ((frag = malloc(sblock.fs_fsize)) == NULL ||
	    !bread(((int64_t)ino_to_fsba(&sblock, ino) + off /
	    sblock.fs_fsize) * sblock.fs_fsize, frag, sblock.fs_fsize)) {
		fprintf(stderr, "dumpfs: cannot read inode %u\n", ino);
		free(frag);
		return (1);
	}
	memcpy(&di, frag + off % sblock.fs_fsize, sizeof(di));
	free(frag);
	printf("inode\t%u\n", ino);
	return (fs_printdinode(&di, sblock.fs_maxsymlinklen) ? dumpruns(&di) :
	    0);
}

int
main(int argc, char *argv[])
{
	struct cg *cgp;
	const char *why;
	char *end;
	long inum;
	int ch, sflag, iflag, c, bad;

	sflag = iflag = 0;
	inum = 0;
	while ((ch = getopt(argc, argv, "si:")) != -1) {
		switch (ch) {
		case 's':
			sflag = 1;
			break;
		case 'i':
			iflag = 1;
			inum = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || inum < 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	if ((fd = open(argv[optind], O_RDONLY)) < 0) {
		fprintf(stderr, "dumpfs: %s: cannot open\n", argv[optind]);
		return (1);
	}
	if (!bread(SBOFF, sbu.buf, SBSIZE)) {
		fprintf(stderr, "dumpfs: %s: cannot read superblock\n",
		    argv[optind]);
		return (1);
	}
	why = ffs_sbcheck(&sblock);
	if (iflag) {
		if (why != NULL) {
			fprintf(stderr, "dumpfs: %s: bad superblock: %s\n",
			    argv[optind], why);
			return (1);
		}
		return (dumpino((u_int32_t)inum));
	}
	dumpsb();
	if (why != NULL) {
		printf("bad\t%s\n", why);
		return (1);
	}
	if (sflag)
		return (0);
	dumpcsum();
	if ((cgp = malloc(sblock.fs_cgsize)) == NULL) {
		fprintf(stderr, "dumpfs: out of memory\n");
		return (1);
	}
	bad = 0;
	for (c = 0; c < sblock.fs_ncg; c++)
		bad |= dumpcg(c, cgp);
	free(cgp);
	return (bad);
}
