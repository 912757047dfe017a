/*
 * Writing files into the new file system: the root directory, lost+found
 * and the tree of -D/-P (regular files, directories, symbolic links and
 * device nodes).
 *
 * A file is written front to back, one logical block at a time.  Each
 * block gets its disk space when it is written (a fragment run for the
 * last block of a file shorter than NDADDR blocks, as the kernel's
 * allocator would leave it), and its pointer is set in the inode or, past
 * NDADDR, in the single, double or triple indirect block that maps it;
 * indirect blocks are allocated the first time a pointer goes into them.
 * Indirect blocks are written through a one-block cache per level, so
 * the disk is always up to date.  The inode is written last.
 *
 * Blocks of zeros in a sparse host file are left as holes (the last
 * block excepted, as the kernel always allocates a file's last block).
 */
#if defined(HOSTBUILD) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE		/* glibc: SEEK_DATA, to skip holes fast */
#endif
#include <sys/types.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "newfs.h"

#define NLOSTFOUND	2	/* blocks preallocated in lost+found */

/* A file being written. */
struct fileout {
	struct	dinode di;
	u_int32_t ino;
	int	cg;			/* group to take blocks from */
	ufs_daddr_t ibaddr[NIADDR];	/* cached indirect block, by depth */
	ufs_daddr_t *ibbuf[NIADDR];
};

/* A directory's contents being built in memory. */
struct dirbuf {
	u_int8_t *buf;
	int32_t	size;			/* bytes, a multiple of DIRBLKSIZ */
	int32_t	last;			/* offset of the last entry */
};

static void	writedir(struct pnode *, u_int32_t, u_int32_t, int);

static void
fileinit(struct fileout *fo, u_int32_t ino, int mode, struct pnode *pn)
{
	int i;

	memset(fo, 0, sizeof(*fo));
	fo->ino = ino;
	fo->cg = ino_to_cg(&sblock, ino);
	fo->di.di_mode = mode;
	fo->di.di_nlink = 1;
	fo->di.di_uid = pn != NULL ? pn->uid : 0;
	fo->di.di_gid = pn != NULL ? pn->gid : 0;
	fo->di.di_atime = fo->di.di_mtime = fo->di.di_ctime =
	    pn != NULL && pn->mtime != 0 ? pn->mtime : now;
	for (i = 0; i < NIADDR; i++)
		fo->ibbuf[i] = emalloc(sblock.fs_bsize);
}

static void
filedone(struct fileout *fo)
{
	int i;

	iput(fo->ino, &fo->di);
	for (i = 0; i < NIADDR; i++)
		free(fo->ibbuf[i]);
}

/* The indirect block at addr, for depth d of the tree. */
static ufs_daddr_t *
getib(struct fileout *fo, int d, ufs_daddr_t addr)
{

	if (fo->ibaddr[d] != addr) {
		rdfs(fsbtodb(&sblock, (int64_t)addr), sblock.fs_bsize,
		    fo->ibbuf[d]);
		fo->ibaddr[d] = addr;
	}
	return (fo->ibbuf[d]);
}

/* A new, zeroed indirect block for depth d; it becomes the cached one. */
static ufs_daddr_t
newib(struct fileout *fo, int d)
{
	ufs_daddr_t addr;

	addr = balloc(fo->cg, sblock.fs_frag);
	fo->cg = dtog(&sblock, addr);
	memset(fo->ibbuf[d], 0, sblock.fs_bsize);
	wtfs(fsbtodb(&sblock, (int64_t)addr), sblock.fs_bsize, fo->ibbuf[d]);
	fo->ibaddr[d] = addr;
	fo->di.di_blocks += NSPB(&sblock);
	return (addr);
}

/*
 * Record that logical block lbn of the file is at fragment blkno.  Past
 * the direct blocks, find which indirect tree maps lbn (single: NINDIR
 * blocks, double: NINDIR^2, triple: NINDIR^3) and walk down it.
 */
static void
setptr(struct fileout *fo, int64_t lbn, ufs_daddr_t blkno)
{
	ufs_daddr_t *ib, *parent;
	int64_t span;
	int level, d, idx, pidx;

	if (lbn < NDADDR) {
		fo->di.di_db[lbn] = blkno;
		return;
	}
	lbn -= NDADDR;
	span = 1;			/* blocks mapped by one top entry */
	for (level = 0; level < NIADDR; level++) {
		if (lbn < span * NINDIR(&sblock))
			break;
		lbn -= span * NINDIR(&sblock);
		span *= NINDIR(&sblock);
	}
	if (level == NIADDR)
		fatal("internal error: block %lld beyond triple indirect",
		    (long long)lbn);
	if (fo->di.di_ib[level] == 0)
		fo->di.di_ib[level] = newib(fo, 0);
	ib = getib(fo, 0, fo->di.di_ib[level]);
	for (d = 0; span > 1; d++) {
		idx = (int)(lbn / span);
		lbn %= span;
		span /= NINDIR(&sblock);
		if (ib[idx] == 0) {
			parent = ib;
			pidx = idx;
			parent[pidx] = newib(fo, d + 1);
			wtfs(fsbtodb(&sblock, (int64_t)fo->ibaddr[d]),
			    sblock.fs_bsize, parent);
		}
		ib = getib(fo, d + 1, ib[idx]);
	}
	ib[lbn] = blkno;
	wtfs(fsbtodb(&sblock, (int64_t)fo->ibaddr[d]), sblock.fs_bsize, ib);
}

/*
 * Write logical block lbn of a file whose final size is di_size: len
 * bytes of data at buf, the rest of the space it gets zero.
 */
static void
putblock(struct fileout *fo, int64_t lbn, const void *buf, int len)
{
	static u_int8_t *blk;
	ufs_daddr_t blkno;
	int size, nfrags;

	if (blk == NULL)
		blk = emalloc(sblock.fs_bsize);
	size = sblksize(&sblock, fo->di.di_size, lbn);
	nfrags = numfrags(&sblock, size);
	blkno = balloc(fo->cg, nfrags);
	fo->cg = dtog(&sblock, blkno);
	memset(blk, 0, size);
	memcpy(blk, buf, len);
	wtfs(fsbtodb(&sblock, (int64_t)blkno), size, blk);
	fo->di.di_blocks += nfrags * NSPF(&sblock);
	setptr(fo, lbn, blkno);
}

/* Write a file whose contents are in memory. */
static void
putdata(struct fileout *fo, const u_int8_t *data, int64_t size)
{
	int64_t lbn, off;
	int len;

	fo->di.di_size = size;
	for (lbn = 0, off = 0; off < size; lbn++, off += sblock.fs_bsize) {
		len = size - off < sblock.fs_bsize ?
		    (int)(size - off) : sblock.fs_bsize;
		putblock(fo, lbn, data + off, len);
	}
}

static int
allzero(const u_int8_t *p, int n)
{

	while (n-- > 0)
		if (*p++ != 0)
			return (0);
	return (1);
}

/* Copy host file src into inode fo. */
static void
putfile(struct fileout *fo, const char *src)
{
	struct stat st;
	u_int8_t *buf;
	int64_t lbn, nblks, size;
	int fd, len, sparse, n, got;

	if ((fd = open(src, O_RDONLY)) < 0 || fstat(fd, &st) < 0)
		fatal("%s: cannot read", src);
	size = st.st_size;
	if (size > sblock.fs_maxfilesize)
		fatal("%s: too large for this block size", src);
	fo->di.di_size = size;
	sparse = (int64_t)st.st_blocks * 512 < size;
	buf = emalloc(sblock.fs_bsize);
	nblks = howmany(size, sblock.fs_bsize);
	for (lbn = 0; lbn < nblks; lbn++) {
#ifdef SEEK_DATA
		/* Jump over the holes of a sparse file without reading. */
		if (sparse && lbn < nblks - 1) {
			off_t next;

			next = lseek(fd, (off_t)lblktosize(&sblock, lbn),
			    SEEK_DATA);
			if (next < 0 && errno == ENXIO)
				lbn = nblks - 1;	/* only holes left */
			else if (next > 0 &&
			    lblkno(&sblock, (int64_t)next) > lbn)
				lbn = lblkno(&sblock, (int64_t)next) < nblks ?
				    lblkno(&sblock, (int64_t)next) : nblks - 1;
		}
#endif
		len = size - lblktosize(&sblock, lbn) < sblock.fs_bsize ?
		    (int)(size - lblktosize(&sblock, lbn)) : sblock.fs_bsize;
		if (lseek(fd, (off_t)lblktosize(&sblock, lbn), SEEK_SET) < 0)
			fatal("%s: seek error", src);
		for (got = 0; got < len; got += n)
			if ((n = read(fd, buf + got, len - got)) <= 0)
				fatal("%s: read error", src);
		if (sparse && lbn < nblks - 1 && allzero(buf, len))
			continue;
		putblock(fo, lbn, buf, len);
	}
	free(buf);
	close(fd);
}

/* Start a directory: "." and ".." in the first chunk. */
static void
dirinit(struct dirbuf *db)
{

	memset(db, 0, sizeof(*db));
}

static void
direnter(struct dirbuf *db, const char *name, u_int32_t ino, int type)
{
	struct direct *dp;
	int namlen, need, used, off, chunkend;

	namlen = strlen(name);
	if (namlen > MAXNAMLEN)
		fatal("%s: name too long", name);
	need = DIRECTSIZ(namlen);
	if (db->size > 0) {
		dp = (struct direct *)(db->buf + db->last);
		used = DIRECTSIZ(dp->d_namlen);
		chunkend = (db->last / DIRBLKSIZ + 1) * DIRBLKSIZ;
		if (db->last + used + need <= chunkend) {
			dp->d_reclen = used;
			off = db->last + used;
			goto place;
		}
	}
	/* A new chunk: entries never cross a DIRBLKSIZ boundary. */
	db->buf = realloc(db->buf, db->size + DIRBLKSIZ);
	if (db->buf == NULL)
		fatal("out of memory");
	memset(db->buf + db->size, 0, DIRBLKSIZ);
	off = db->size;
	db->size += DIRBLKSIZ;
	chunkend = db->size;
place:
	dp = (struct direct *)(db->buf + off);
	dp->d_ino = ino;
	dp->d_reclen = chunkend - off;
	dp->d_type = type;
	dp->d_namlen = namlen;
	/* The name and its NUL padding: what follows the 8-byte header. */
	memset(dp->d_name, 0, DIRECTSIZ(namlen) - 8);
	memcpy(dp->d_name, name, namlen);
	db->last = off;
}

/* Pad a directory with empty chunks up to size bytes (lost+found). */
static void
dirpad(struct dirbuf *db, int32_t size)
{
	struct direct *dp;

	while (db->size < size) {
		db->buf = realloc(db->buf, db->size + DIRBLKSIZ);
		if (db->buf == NULL)
			fatal("out of memory");
		memset(db->buf + db->size, 0, DIRBLKSIZ);
		dp = (struct direct *)(db->buf + db->size);
		dp->d_reclen = DIRBLKSIZ;
		db->size += DIRBLKSIZ;
	}
}

static void
writelink(struct fileout *fo, const char *target)
{
	int len;

	len = strlen(target);
	if (len < sblock.fs_maxsymlinklen) {
		/* Fast symlink: the target lives in the block pointers. */
		memcpy((char *)fo->di.di_shortlink, target, len);
		fo->di.di_size = len;
	} else
		putdata(fo, (const u_int8_t *)target, len);
}

/*
 * Write directory pn as inode ino with parent parent, and everything
 * below it.  The root also gets lost+found, made here with NLOSTFOUND
 * empty blocks so that fsck_ffs can reconnect files without allocating.
 */
static void
writedir(struct pnode *pn, u_int32_t ino, u_int32_t parent, int isroot)
{
	struct fileout fo;
	struct dirbuf db;
	struct pnode *cp;
	u_int32_t cino;
	int nsubdirs;

	dirinit(&db);
	direnter(&db, ".", ino, DT_DIR);
	direnter(&db, "..", parent, DT_DIR);
	nsubdirs = 0;
	if (isroot) {
		struct dirbuf lf;

		fileinit(&fo, LOSTFOUNDINO, IFDIR | 0700, NULL);
		dirinit(&lf);
		direnter(&lf, ".", LOSTFOUNDINO, DT_DIR);
		direnter(&lf, "..", ROOTINO, DT_DIR);
		dirpad(&lf, NLOSTFOUND * sblock.fs_bsize);
		fo.di.di_nlink = 2;
		putdata(&fo, lf.buf, lf.size);
		filedone(&fo);
		free(lf.buf);
		direnter(&db, "lost+found", LOSTFOUNDINO, DT_DIR);
		nsubdirs++;
	}
	for (cp = pn->child; cp != NULL; cp = cp->next) {
		if (isroot && strcmp(cp->name, "lost+found") == 0)
			fatal("/lost+found: made by newfs itself; remove it "
			    "from the proto file");
		if (cp->type == IFREG) {
			/* All names of a hard-linked file share one inode. */
			struct pnode *pp;

			pp = cp->primary != NULL ? cp->primary : cp;
			if (pp->ino == 0) {
				pp->ino = ialloc(ino_to_cg(&sblock, ino), 0);
				fileinit(&fo, pp->ino, IFREG | pp->perm, pp);
				fo.di.di_nlink = pp->nlink;
				if (pp->src != NULL)
					putfile(&fo, pp->src);
				filedone(&fo);
			}
			direnter(&db, cp->name, pp->ino, DT_REG);
			continue;
		}
		cino = ialloc(ino_to_cg(&sblock, ino), cp->type == IFDIR);
		switch (cp->type) {
		case IFDIR:
			writedir(cp, cino, ino, 0);
			nsubdirs++;
			break;
		case IFLNK:
			fileinit(&fo, cino, IFLNK | cp->perm, cp);
			writelink(&fo, cp->target);
			filedone(&fo);
			break;
		case IFCHR:
		case IFBLK:
			fileinit(&fo, cino, cp->type | cp->perm, cp);
			fo.di.di_rdev = cp->rdev;
			filedone(&fo);
			break;
		default:
			fatal("internal error: node type %o", cp->type);
		}
		direnter(&db, cp->name, cino, IFTODT(cp->type));
	}
	fileinit(&fo, ino, IFDIR | pn->perm, pn);
	fo.di.di_nlink = 2 + nsubdirs;
	putdata(&fo, db.buf, db.size);
	filedone(&fo);
	free(db.buf);
}

/* Write the root directory (with lost+found) and the tree below it. */
void
write_tree(struct pnode *root)
{

	ialloc_at(ROOTINO, 1);
	ialloc_at(LOSTFOUNDINO, 1);
	writedir(root, ROOTINO, ROOTINO, 1);
}
