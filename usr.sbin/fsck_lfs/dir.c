/*
 * Pass 4: the name space (fsck_ffs's phases 2-4 for an LFS).
 *
 * Directories are read breadth-first from the root (ROOTINO).  In every
 * DIRBLKSIZ chunk the entries must be well formed (d_reclen a multiple
 * of 4, at least DIRECTSIZ(d_namlen), inside the chunk); the first two
 * must be "." (itself) and ".." (the directory that names it); every
 * entry must name an allocated inode, and a directory only once.  The
 * root's "ifile" must name inode 1 (lfs_cleanerd opens it by name).
 * Then every allocated inode must have been reached, and its di_nlink
 * must be the number of entries naming it (a directory: its entry, its
 * ".", and the ".." of each subdirectory).
 *
 * Repairs (-y): entries naming free or bad inodes are removed (merged
 * into the entry before, or emptied if first in the chunk); a malformed
 * chunk is cut at the bad entry; unreachable inodes are linked into
 * lost+found as "#ino" (a directory's ".." then names lost+found), or
 * freed if there is no lost+found; link counts are set.  Changed
 * directory blocks become dirty blocks for write.c; lost+found grows by
 * direct blocks only.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/lfs.h"
#include "fsck_lfs.h"

#define DIRHDR	8			/* d_ino, d_reclen, d_type, d_namlen */

static u_int32_t *queue;		/* directories to read */
static u_int32_t qhead, qtail;
static u_int32_t lfino;			/* lost+found, 0 if none */
static int ifentry_seen;		/* the root's "ifile" entry */

static int
isdirty(const u_int8_t *buf)
{
	struct dirtyblk *db;

	for (db = dirtyblks; db != NULL; db = db->db_next)
		if (db->db_data == buf)
			return (1);
	return (0);
}

/* The n entries names[i] -> inums[i] fill an empty chunk. */
static void
putents(u_int8_t *chunk, const char **names, const u_int32_t *inums, int n)
{
	struct direct *dp = NULL;
	u_int32_t off;
	int i;

	for (i = 0, off = 0; i < n; i++) {
		dp = (struct direct *)(chunk + off);
		dp->d_ino = inums[i];
		dp->d_type = inums[i] == LFS_IFILE_INUM ? DT_REG : DT_DIR;
		dp->d_namlen = strlen(names[i]);
		memcpy(dp->d_name, names[i], dp->d_namlen + 1);
		dp->d_reclen = DIRECTSIZ(dp->d_namlen);
		off += dp->d_reclen;
	}
	if (dp != NULL)
		dp->d_reclen += DIRBLKSIZ - off;
}

/*
 * A new block lbn of directory ino, placed by write.c: empty chunks, the
 * first holding the n entries names[i] -> inums[i] (".", ".." ...).
 */
static u_int8_t *
newdirblk(u_int32_t ino, int32_t lbn, const char **names,
    const u_int32_t *inums, int n)
{
	u_int8_t *buf = emalloc(fs.dlfs_bsize);
	u_int32_t off;

	for (off = 0; off < fs.dlfs_bsize; off += DIRBLKSIZ)
		((struct direct *)(buf + off))->d_reclen = DIRBLKSIZ;
	putents(buf, names, inums, n);
	inos[ino].is_di.di_blocks += 1 << fs.dlfs_fsbtodb;
	mkdirty(ino, lbn, LFS_UNUSED_DADDR, buf);
	return (buf);
}

/* The first block of directory ino in parent: ".", "..", the root's "ifile". */
static u_int8_t *
firstdirblk(u_int32_t ino, u_int32_t parent)
{
	static const char *names[] = { ".", "..", "ifile" };
	u_int32_t inums[] = { ino, parent, LFS_IFILE_INUM };

	return (newdirblk(ino, 0, names, inums, ino == ROOTINO ? 3 : 2));
}

/* Make inode ino an empty directory in parent (its entry there apart). */
static void
mkdirino(u_int32_t ino, u_int32_t parent, u_int16_t perm)
{
	struct inoinfo *ip = &inos[ino];
	struct dinode *dp = &ip->is_di;

	if (fs.dlfs_free == ino)
		fs.dlfs_free = ifentry(ino)->if_nextfree;
	memset(dp, 0, sizeof(*dp));
	dp->di_mode = IFDIR | perm;
	dp->di_nlink = 2;
	dp->di_size = fs.dlfs_bsize;
	dp->di_atime = dp->di_mtime = dp->di_ctime = (int32_t)now;
	dp->di_gen = ifentry(ino)->if_version;
	dp->di_inumber = ino;
	ip->is_state = IS_ALLOC;
	ip->is_flags = IF_DIRTY;
	ip->is_nentries = 0;
	firstdirblk(ino, parent);
}

/* dirblocks's walk: the address of each data block. */
static int
diraddr(u_int32_t ino, int32_t lbn, u_int32_t *ptr, void *arg)
{
	u_int32_t *addr = arg;

	if (lbn >= 0 && (u_int64_t)lbn * fs.dlfs_bsize <
	    inos[ino].is_di.di_size)
		addr[lbn] = *ptr;
	return (0);
}

/* The block addresses of directory ino (0: a hole), and how many. */
static u_int32_t *
dirblocks(u_int32_t ino, u_int32_t *np)
{
	struct dinode *dp = &inos[ino].is_di;
	u_int32_t *addr, n;

	n = (dp->di_size + fs.dlfs_bsize - 1) >> fs.dlfs_bshift;
	if (n > fs.dlfs_size)
		n = 0;
	addr = emalloc((n + 1) * sizeof(*addr));
	walkfile(ino, dp, diraddr, addr);
	*np = n;
	return (addr);
}

/* Remove the entry at off of a chunk (prev: the one before, or -1). */
static void
rmentry(u_int8_t *chunk, int prev, int off)
{
	struct direct *dp = (struct direct *)(chunk + off);

	if (prev >= 0)
		((struct direct *)(chunk + prev))->d_reclen += dp->d_reclen;
	else
		dp->d_ino = 0;
}

static int
isname(const struct direct *dp, const char *name)
{

	return (dp->d_namlen == strlen(name) &&
	    memcmp(dp->d_name, name, dp->d_namlen) == 0);
}

/*
 * Directory ino has no "." and "..": put them in its first chunk if a
 * repair emptied it (a chunk cut at its first entry), else report.
 */
static void
dotdirs(u_int32_t ino, u_int32_t daddr)
{
	static const char *names[] = { ".", ".." };
	struct inoinfo *ip = &inos[ino];
	struct direct *dp;
	u_int32_t inums[2];
	u_int8_t *buf;

	buf = yflag ? fileblk(ino, 0, daddr) : NULL;
	dp = (struct direct *)buf;
	if (buf == NULL || dp->d_ino != 0 || dp->d_reclen != DIRBLKSIZ) {
		problem(NOFIX, "directory %u: no '.' and '..'", ino);
		if (buf != NULL && !isdirty(buf))
			free(buf);
		return;
	}
	problem(FIX, "directory %u: no '.' and '..'", ino);
	inums[0] = ino;
	inums[1] = ip->is_parent;
	putents(buf, names, inums, 2);
	mkdirty(ino, 0, daddr, buf);
	ip->is_nentries++;
	inos[ip->is_parent].is_nentries++;
}

/* Entry dp becomes name -> ino, in its place (a directory's). */
static void
setname(struct direct *dp, const char *name, u_int32_t ino)
{

	dp->d_ino = ino;
	dp->d_type = DT_DIR;
	dp->d_namlen = strlen(name);
	memcpy(dp->d_name, name, dp->d_namlen + 1);
}

/*
 * One entry of directory ino, at index k of the directory: ENT_KEPT,
 * ENT_REMOVED, or ENT_CHANGED if it was repaired in place (its block
 * must then be written, like a removal's).
 */
#define ENT_KEPT	0
#define ENT_REMOVED	1
#define ENT_CHANGED	2
static int
entry(u_int32_t ino, struct direct *dp, u_int32_t k, int orphan)
{
	struct inoinfo *ip = &inos[ino], *tp;
	u_int32_t t = dp->d_ino;
	int res = ENT_KEPT;

	/* A name in the place of "." or ".." gives way (reconnected later). */
	if (k == 0) {
		if (!isname(dp, ".")) {
			if (problem(FIX, "directory %u: first entry is not "
			    "'.'", ino)) {
				setname(dp, ".", t = ino);
				res = ENT_CHANGED;
			}
		} else if (t != ino && problem(FIX, "directory %u: '.' "
		    "names %u", ino, t)) {
			dp->d_ino = t = ino;
			res = ENT_CHANGED;
		}
	} else if (k == 1) {
		if (!isname(dp, "..")) {
			if (problem(FIX, "directory %u: second entry is not "
			    "'..'", ino)) {
				setname(dp, "..", t = ip->is_parent);
				res = ENT_CHANGED;
			}
		} else if (t != ip->is_parent && !(orphan && !yflag) &&
		    problem(FIX, "directory %u: '..' names %u, its "
		    "parent is %u", ino, t, ip->is_parent)) {
			dp->d_ino = t = ip->is_parent;
			res = ENT_CHANGED;
		}
	} else if (isname(dp, ".") || isname(dp, "..")) {
		return (problem(FIX, "directory %u: a second '%s' entry", ino,
		    dp->d_namlen == 1 ? "." : "..") ? ENT_REMOVED : ENT_KEPT);
	}
	if (t >= nent || inos[t].is_state != IS_ALLOC ||
	    (t == LFS_IFILE_INUM && (ino != ROOTINO || !isname(dp,
	    "ifile")))) {
		if (k > 1)
			return (problem(FIX, "directory %u: entry '%.*s' "
			    "names %s inode %u", ino, dp->d_namlen,
			    dp->d_name, t >= nent ? "out-of-range" :
			    inos[t].is_state == IS_BAD ? "bad" :
			    t == LFS_IFILE_INUM ? "the ifile's" : "free",
			    t) ? ENT_REMOVED : ENT_KEPT);
		return (res);
	}
	tp = &inos[t];
	tp->is_nentries++;
	if (ino == ROOTINO && isname(dp, "ifile")) {
		ifentry_seen = 1;
		if (t != LFS_IFILE_INUM)
			problem(NOFIX, "the root's 'ifile' names inode %u", t);
	}
	if (k <= 1 || (tp->is_di.di_mode & IFMT) != IFDIR)
		return (res);
	if (ino == ROOTINO && isname(dp, "lost+found"))
		lfino = t;
	if (tp->is_flags & IF_REACHED) {
		if (problem(FIX, "directory %u: entry '%.*s' is a second "
		    "link to directory %u", ino, dp->d_namlen, dp->d_name, t)) {
			tp->is_nentries--;
			return (ENT_REMOVED);
		}
	} else {
		tp->is_flags |= IF_REACHED;
		tp->is_parent = ino;
		queue[qtail++] = t;
	}
	return (res);
}

/* One DIRBLKSIZ chunk; 1 if it was changed. */
static int
chunk(u_int32_t ino, u_int8_t *c, u_int32_t *k, int32_t lbn, int coff,
    int orphan)
{
	struct direct *dp;
	int off, prev, next, changed = 0;

	for (off = 0, prev = -1; off < DIRBLKSIZ; ) {
		dp = (struct direct *)(c + off);
		if (dp->d_reclen < DIRHDR || dp->d_reclen % 4 != 0 ||
		    off + dp->d_reclen > DIRBLKSIZ ||
		    (dp->d_ino != 0 && (dp->d_reclen <
		    DIRECTSIZ(dp->d_namlen) ||
		    memchr(dp->d_name, '\0', dp->d_namlen) != NULL ||
		    memchr(dp->d_name, '/', dp->d_namlen) != NULL))) {
			if (problem(lbn < NDADDR, "directory %u: bad entry "
			    "at lbn %d offset %d", ino, lbn, coff + off)) {
				dp->d_reclen = DIRBLKSIZ - off;
				dp->d_ino = 0;
				changed = 1;
			}
			break;
		}
		if (dp->d_ino != 0 || *k < 2) {
			int r;

			(*k)++;
			r = entry(ino, dp, *k - 1, orphan);
			changed |= r == ENT_CHANGED;
			if (r == ENT_REMOVED) {
				next = off + dp->d_reclen;
				rmentry(c, prev, off);
				changed = 1;
				if (prev < 0)
					prev = off;
				off = next;	/* prev, if any, grew over it */
				continue;
			}
		}
		prev = off;
		off += dp->d_reclen;
	}
	return (changed);
}

/* Read directory ino's entries (orphan: reached from no directory). */
static void
scandir(u_int32_t ino, int orphan)
{
	struct dinode *dp = &inos[ino].is_di;
	u_int32_t *addr, n, k, lbn, off, len;
	u_int8_t *buf;
	int changed;

	addr = dirblocks(ino, &n);
	if (n == 0 && problem(FIX, "directory %u: size 0", ino)) {
		dp->di_size = fs.dlfs_bsize;
		n = 1;
	}
	for (lbn = 0, k = 0; lbn < n; lbn++) {
		if (addr[lbn] == LFS_UNUSED_DADDR && dirtyblk(ino, lbn) == NULL) {
			if (lbn >= NDADDR || !problem(FIX, "directory %u: a "
			    "hole at lbn %u: a new block", ino, lbn))
				continue;
			buf = lbn == 0 ? firstdirblk(ino, inos[ino].is_parent) :
			    newdirblk(ino, lbn, NULL, NULL, 0);
		} else if ((buf = fileblk(ino, lbn, addr[lbn])) == NULL) {
			problem(NOFIX, "directory %u: lbn %u at %u "
			    "unreadable", ino, lbn, addr[lbn]);
			continue;
		}
		len = dp->di_size - (u_int64_t)lbn * fs.dlfs_bsize;
		if (len > fs.dlfs_bsize)
			len = fs.dlfs_bsize;
		changed = 0;
		for (off = 0; off + DIRBLKSIZ <= len; off += DIRBLKSIZ)
			changed |= chunk(ino, buf + off, &k, lbn, off, orphan);
		if (changed)
			mkdirty(ino, lbn, addr[lbn], buf);
		else if (!isdirty(buf))
			free(buf);
	}
	if (k < 2)
		dotdirs(ino, n > 0 ? addr[0] : LFS_UNUSED_DADDR);
	free(addr);
}

/* Read the queued directories. */
static void
drain(int orphan)
{

	while (qhead < qtail)
		scandir(queue[qhead++], orphan);
}

/*
 * A new entry name -> ino in directory dir; 0 if it has no room and
 * cannot grow (direct blocks only).
 */
static int
dirlink(u_int32_t dir, u_int32_t ino, const char *name)
{
	struct inoinfo *lp = &inos[dir];
	struct direct *dp, *np;
	u_int32_t *addr, n, lbn, off, need, namlen;
	u_int8_t *buf;

	namlen = strlen(name);
	need = DIRECTSIZ(namlen);
	addr = dirblocks(dir, &n);
	for (lbn = 0; lbn < n && lbn < NDADDR; lbn++) {
		if ((buf = fileblk(dir, lbn, addr[lbn])) == NULL)
			continue;
		for (off = 0; off < fs.dlfs_bsize; ) {
			dp = (struct direct *)(buf + off);
			if (dp->d_reclen < DIRHDR)
				break;
			if (dp->d_ino == 0 && dp->d_reclen >= need)
				np = dp;
			else if (dp->d_ino != 0 && dp->d_reclen >=
			    DIRECTSIZ(dp->d_namlen) + need) {
				np = (struct direct *)((u_int8_t *)dp +
				    DIRECTSIZ(dp->d_namlen));
				np->d_reclen = dp->d_reclen -
				    DIRECTSIZ(dp->d_namlen);
				dp->d_reclen = DIRECTSIZ(dp->d_namlen);
			} else {
				off += dp->d_reclen;
				continue;
			}
			np->d_ino = ino;
			np->d_type = IFTODT(inos[ino].is_di.di_mode);
			np->d_namlen = namlen;
			memcpy(np->d_name, name, namlen + 1);
			mkdirty(dir, lbn, addr[lbn], buf);
			free(addr);
			return (1);
		}
		if (!isdirty(buf))
			free(buf);
	}
	free(addr);
	if (n >= NDADDR || lp->is_di.di_size % fs.dlfs_bsize != 0)
		return (0);
	newdirblk(dir, n, NULL, NULL, 0);
	lp->is_di.di_size += fs.dlfs_bsize;
	return (dirlink(dir, ino, name));
}

/* A new entry "#ino" in lost+found. */
static int
linkin(u_int32_t ino)
{
	char name[16];

	snprintf(name, sizeof(name), "#%u", ino);
	return (dirlink(lfino, ino, name));
}

/*
 * Lost+found, made in the root for what must be reconnected when the
 * root has none (its old one is reconnected into it, if found); 0 if
 * no inode is free or the root has no room.
 */
static u_int32_t
mklostfound(void)
{
	u_int32_t ino;

	for (ino = ROOTINO + 1; ino < nent; ino++)
		if (inos[ino].is_state == IS_FREE && ino != LFS_IFILE_INUM)
			break;
	if (ino == nent)
		return (0);
	mkdirino(ino, ROOTINO, 0700);
	if (!dirlink(ROOTINO, ino, "lost+found")) {
		inos[ino].is_state = IS_FREE;
		return (0);
	}
	inos[ino].is_nentries = 2;		/* its entry and its "." */
	inos[ino].is_flags |= IF_REACHED;
	inos[ino].is_parent = ROOTINO;
	inos[ROOTINO].is_nentries++;		/* its ".." */
	return (ino);
}



/* An allocated inode no directory names: to lost+found, or freed. */
static void
reconnect(u_int32_t ino, int isdir)
{
	struct inoinfo *ip = &inos[ino];

	/* Unlinked while open, freed when the kernel lets it go. */
	if (ip->is_di.di_nlink == 0) {
		if (fs.dlfs_clean == 0 && !yflag)
			note("inode %u: unlinked, not freed yet (mounted)",
			    ino);
		else if (problem(FIX, "inode %u: link count 0 but "
		    "allocated", ino))
			freeino(ino);
		return;
	}
	if (!problem(FIX, "inode %u: %s not reachable from the root", ino,
	    isdir ? "directory" : "file")) {
		if (isdir) {		/* -n: its contents are not lost */
			ip->is_flags |= IF_REACHED;
			ip->is_parent = lfino;
			queue[qtail++] = ino;
			drain(1);
		}
		return;
	}
	if (lfino == 0)
		lfino = mklostfound();
	if (lfino == 0 || !linkin(ino)) {
		freeino(ino);
		return;
	}
	ip->is_nentries++;
	if (isdir) {
		ip->is_flags |= IF_REACHED;
		ip->is_parent = lfino;
		queue[qtail++] = ino;
		drain(1);
	}
}

void
pass4(void)
{
	struct inoinfo *ip;
	u_int32_t ino;
	int isdir;

	queue = emalloc(nent * sizeof(*queue));
	qhead = qtail = 0;
	lfino = 0;
	ifentry_seen = 0;
	ip = &inos[ROOTINO];
	if (nent <= ROOTINO || ip->is_state != IS_ALLOC ||
	    (ip->is_di.di_mode & IFMT) != IFDIR) {
		/* What it held is reconnected to a new lost+found. */
		if (nent <= ROOTINO || !problem(FIX, "the root (inode %u) is "
		    "not a directory: a new, empty one", ROOTINO)) {
			free(queue);
			return;
		}
		mkdirino(ROOTINO, ROOTINO, 0755);
	}
	ip->is_flags |= IF_REACHED;
	ip->is_parent = ROOTINO;
	queue[qtail++] = ROOTINO;
	drain(0);
	if (!ifentry_seen && problem(FIX, "the root has no 'ifile' entry") &&
	    dirlink(ROOTINO, LFS_IFILE_INUM, "ifile"))
		inos[LFS_IFILE_INUM].is_nentries++;
	for (isdir = 1; isdir >= 0; isdir--)
		for (ino = ROOTINO + 1; ino < nent; ino++) {
			ip = &inos[ino];
			if (ip->is_state != IS_ALLOC ||
			    ((ip->is_di.di_mode & IFMT) == IFDIR) != isdir)
				continue;
			if (isdir ? !(ip->is_flags & IF_REACHED) :
			    ip->is_nentries == 0)
				reconnect(ino, isdir);
		}
	for (ino = LFS_IFILE_INUM; ino < nent; ino++) {
		ip = &inos[ino];
		/* No entries: reported above as unreachable already. */
		if (ip->is_state != IS_ALLOC || ip->is_nentries == 0 ||
		    ip->is_di.di_nlink == ip->is_nentries)
			continue;
		if (problem(FIX, "inode %u: link count %d, %d directory "
		    "entr%s", ino, ip->is_di.di_nlink, ip->is_nentries,
		    ip->is_nentries == 1 ? "y" : "ies")) {
			ip->is_di.di_nlink = ip->is_nentries;
			ip->is_flags |= IF_DIRTY;
		}
	}
	free(queue);
}
