/*
 * fsck_ffs: directories.
 *
 * dirscan() reads one directory block and calls id_func for each entry,
 * after checking every DIRBLKSIZ chunk: an entry whose length or name is
 * impossible ends the chunk ("DIRECTORY CORRUPTED"; the fix makes the
 * previous entry, or an empty one, cover the rest of the chunk).  A
 * block id_func changed (ALTERED) is written back.
 *
 * The rest edits directories: change an entry's inode (changeino), add
 * an entry (makeentry, growing the directory by a chunk if it is full),
 * make a directory (allocdir), find lost+found and reconnect orphans to
 * it (linkup), and fix link counts (adjust).
 *
 * Link count bookkeeping after phase 2: lncntp[ino] is link count minus
 * references found.  Adding a reference to an inode without raising its
 * link count takes one off lncntp; a new directory made here gets link
 * counts that already match its references.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

u_int32_t lfdir;
static const char lfname[] = "lost+found";

/* Is the entry at dp, with spaceleft bytes to the end of its chunk, sane? */
static int
dircheck(const struct direct *dp, int spaceleft)
{
	int i;

	if (spaceleft < 8 || dp->d_reclen < 8 || dp->d_reclen > spaceleft ||
	    (dp->d_reclen & 3) != 0)
		return (0);
	if (dp->d_ino == 0)
		return (1);
	if ((int)DIRECTSIZ(dp->d_namlen) > dp->d_reclen || dp->d_namlen == 0 ||
	    dp->d_type > 15)
		return (0);
	for (i = 0; i < dp->d_namlen; i++)
		if (dp->d_name[i] == '\0' || dp->d_name[i] == '/')
			return (0);
	return (dp->d_name[i] == '\0');
}

int
dirscan(struct inodesc *idesc)
{
	struct direct *dp, *prev;
	u_int8_t *buf;
	int blksiz, chunk, loc, next, n, dirty;

	blksiz = idesc->id_numfrags * sblock.fs_fsize;
	if (chkrange(idesc->id_blkno, idesc->id_numfrags)) {
		idesc->id_filesize -= blksiz;
		return (SKIP);
	}
	buf = emalloc(blksiz);
	getblk(idesc->id_blkno, blksiz, buf);
	dirty = 0;
	for (chunk = 0; chunk < blksiz && idesc->id_filesize > 0;
	    chunk += DIRBLKSIZ, idesc->id_filesize -= DIRBLKSIZ) {
		prev = NULL;
		for (loc = chunk; loc < chunk + DIRBLKSIZ; loc = next) {
			dp = (struct direct *)(buf + loc);
			if (!dircheck(dp, chunk + DIRBLKSIZ - loc)) {
				if (idesc->id_fix == IGNORE ||
				    dofix(idesc, "DIRECTORY CORRUPTED") == 0)
					break;
				/* The rest of the chunk becomes free space. */
				dirty = 1;
				if (prev != NULL) {
					prev->d_reclen += chunk + DIRBLKSIZ -
					    loc;
					break;
				}
				/* A whole empty chunk, which id_func sees. */
				memset(dp, 0, DIRBLKSIZ);
				dp->d_reclen = DIRBLKSIZ;
			}
			/*
			 * id_func may split this entry ("." and ".." repairs,
			 * mkentry): what it makes inside the entry is not
			 * scanned again.
			 */
			next = loc + dp->d_reclen;
			idesc->id_loc = loc;
			idesc->id_dirp = dp;
			n = (*idesc->id_func)(idesc);
			if (n & ALTERED)
				dirty = 1;
			if (n & STOP) {
				if (dirty)
					putblk(idesc->id_blkno, blksiz, buf);
				free(buf);
				return (n);
			}
			prev = dp;
		}
	}
	if (dirty)
		putblk(idesc->id_blkno, blksiz, buf);
	free(buf);
	return (idesc->id_filesize > 0 ? KEEPON : STOP);
}

/* Report problem errmesg with inode ino, found in directory cwd. */
void
fileerror(u_int32_t cwd, u_int32_t ino, const char *errmesg)
{
	struct dinode *dp;
	char pathbuf[MAXPATH + 1];

	pwarn("%s", errmesg);
	pinode(ino);
	printf("\n");
	getpathname(pathbuf, cwd, ino);
	if (ino < ROOTINO || ino >= maxino) {
		pfatal("NAME=%s\n", pathbuf);
		return;
	}
	dp = ginode(ino);
	if (ftypeok(dp))
		pfatal("%s=%s\n", (dp->di_mode & IFMT) == IFDIR ? "DIR" :
		    "FILE", pathbuf);
	else
		pfatal("NAME=%s\n", pathbuf);
}

void
direrror(u_int32_t ino, const char *errmesg)
{

	fileerror(ino, ino, errmesg);
}

/* DATA scan functions for lookups; id_fix is IGNORE for these. */
static int
findino(struct inodesc *idesc)
{
	struct direct *dirp = idesc->id_dirp;

	if (dirp->d_ino == 0)
		return (KEEPON);
	if (strcmp(dirp->d_name, idesc->id_name) == 0 &&
	    dirp->d_ino >= ROOTINO && dirp->d_ino < maxino) {
		idesc->id_parent = dirp->d_ino;
		return (STOP | FOUND);
	}
	return (KEEPON);
}

static int
findname(struct inodesc *idesc)
{
	struct direct *dirp = idesc->id_dirp;

	if (dirp->d_ino != idesc->id_parent || dirp->d_namlen == 0 ||
	    strcmp(dirp->d_name, ".") == 0 || strcmp(dirp->d_name, "..") == 0)
		return (KEEPON);
	memcpy(idesc->id_name, dirp->d_name, dirp->d_namlen + 1);
	return (STOP | FOUND);
}

static int
scandir(u_int32_t dir, struct inodesc *idesc)
{
	struct dinode *dp;

	if (dir < ROOTINO || dir >= maxino ||
	    (statemap[dir] != DSTATE && statemap[dir] != DFOUND))
		return (0);
	dp = ginode(dir);
	if ((dp->di_mode & IFMT) != IFDIR)
		return (0);
	idesc->id_type = DATA;
	idesc->id_number = dir;
	return (ckinode(dp, idesc));
}

/* The inode named name in directory dir, or 0. */
u_int32_t
lookupname(u_int32_t dir, const char *name)
{
	struct inodesc idesc;

	memset(&idesc, 0, sizeof(idesc));
	idesc.id_func = findino;
	idesc.id_name = (char *)name;
	idesc.id_fix = IGNORE;
	if ((scandir(dir, &idesc) & FOUND) == 0)
		return (0);
	return (idesc.id_parent);
}

/*
 * The path of inode ino, found in directory curdir (curdir == ino for a
 * directory), for messages: "?" marks a part that cannot be found.
 */
void
getpathname(char *namebuf, u_int32_t curdir, u_int32_t ino)
{
	struct inodesc idesc;
	struct inoinfo *inp;
	char name[MAXNAMLEN + 1], *cp;
	u_int32_t parent;
	int len, depth;

	if (ino == ROOTINO) {
		strcpy(namebuf, "/");
		return;
	}
	cp = namebuf + MAXPATH;
	*cp = '\0';
	parent = curdir != ino ? curdir : 0;
	for (depth = 0; ino != ROOTINO && depth < 64; depth++) {
		if (parent == 0) {
			/* ino is a directory: where does it hang? */
			if (ino >= maxino || (statemap[ino] != DSTATE &&
			    statemap[ino] != DFOUND))
				break;
			inp = getinoinfo(ino);
			parent = inp->i_parent;
			if (parent == 0 && inp->i_dotdot != (u_int32_t)-1)
				parent = inp->i_dotdot;
			if (parent == 0)
				parent = lookupname(ino, "..");
			if (parent == 0)
				break;
		}
		memset(&idesc, 0, sizeof(idesc));
		idesc.id_func = findname;
		idesc.id_parent = ino;
		idesc.id_name = name;
		idesc.id_fix = IGNORE;
		if ((scandir(parent, &idesc) & FOUND) == 0)
			break;
		len = strlen(name);
		if (cp - namebuf < len + 1)
			break;
		cp -= len;
		memcpy(cp, name, len);
		*--cp = '/';
		ino = parent;
		parent = 0;
	}
	if (ino != ROOTINO && cp - namebuf >= 1)
		*--cp = '?';
	memmove(namebuf, cp, strlen(cp) + 1);
}

static int
chgino(struct inodesc *idesc)
{
	struct direct *dirp = idesc->id_dirp;

	if (dirp->d_ino == 0 || strcmp(dirp->d_name, idesc->id_name) != 0)
		return (KEEPON);
	dirp->d_ino = idesc->id_parent;
	dirp->d_type = typemap[idesc->id_parent];
	return (ALTERED | STOP);
}

/* Point entry name of directory dir at newnum. */
int
changeino(u_int32_t dir, const char *name, u_int32_t newnum)
{
	struct inodesc idesc;

	memset(&idesc, 0, sizeof(idesc));
	idesc.id_func = chgino;
	idesc.id_parent = newnum;
	idesc.id_name = (char *)name;
	idesc.id_fix = IGNORE;
	return (scandir(dir, &idesc));
}

/* DATA scan: put entry id_name -> id_parent into the first room found. */
static int
mkentry(struct inodesc *idesc)
{
	struct direct *dirp = idesc->id_dirp;
	int namlen, newlen, oldlen, reclen;

	namlen = strlen(idesc->id_name);
	newlen = DIRECTSIZ(namlen);
	oldlen = dirp->d_ino != 0 ? (int)DIRECTSIZ(dirp->d_namlen) : 0;
	if (dirp->d_reclen - oldlen < newlen)
		return (KEEPON);
	reclen = dirp->d_reclen - oldlen;
	dirp->d_reclen = oldlen;
	dirp = (struct direct *)((char *)dirp + oldlen);
	memset(dirp, 0, newlen);
	dirp->d_ino = idesc->id_parent;
	dirp->d_reclen = reclen;
	dirp->d_type = typemap[idesc->id_parent];
	dirp->d_namlen = namlen;
	memcpy(dirp->d_name, idesc->id_name, namlen);
	return (ALTERED | STOP);
}

/*
 * Grow directory dir by one empty DIRBLKSIZ chunk: in place if its last
 * fragments have room, else in a new, larger fragment run (or a new
 * block).  Only direct blocks are grown.
 */
static int
expanddir(u_int32_t dir)
{
	struct dinode *dp;
	struct direct *ent;
	u_int8_t *buf;
	int64_t size;
	ufs_daddr_t old, new;
	int lbn, off, oldfrags, newfrags;

	dp = ginode(dir);
	size = dp->di_size;
	lbn = (int)lblkno(&sblock, size);
	off = (int)blkoff(&sblock, size);
	if (lbn >= NDADDR || (off != 0 && dp->di_db[lbn] == 0))
		return (0);
	oldfrags = off == 0 ? 0 : numfrags(&sblock, fragroundup(&sblock, off));
	newfrags = numfrags(&sblock, fragroundup(&sblock, off + DIRBLKSIZ));
	old = dp->di_db[lbn];
	buf = emalloc(sblock.fs_bsize);
	if (oldfrags > 0)
		getblk(old, oldfrags * sblock.fs_fsize, buf);
	ent = (struct direct *)(buf + off);
	memset(ent, 0, DIRBLKSIZ);
	ent->d_reclen = DIRBLKSIZ;
	new = old;
	if (newfrags > oldfrags) {
		if ((new = allocblk(newfrags)) == 0) {
			free(buf);
			return (0);
		}
		if (oldfrags > 0)
			freeblk(old, oldfrags);
	}
	putblk(new, newfrags * sblock.fs_fsize, buf);
	free(buf);
	dp = ginode(dir);
	dp->di_db[lbn] = new;
	dp->di_size += DIRBLKSIZ;
	dp->di_blocks += (newfrags - oldfrags) * NSPF(&sblock);
	inodirty();
	if (statemap[dir] == DSTATE || statemap[dir] == DFOUND)
		getinoinfo(dir)->i_isize = dp->di_size;
	return (1);
}

/* Enter name -> ino in directory parent. */
int
makeentry(u_int32_t parent, u_int32_t ino, const char *name)
{
	struct inodesc idesc;
	char pathbuf[MAXPATH + 1];

	if (parent < ROOTINO || parent >= maxino || ino < ROOTINO ||
	    ino >= maxino)
		return (0);
	memset(&idesc, 0, sizeof(idesc));
	idesc.id_func = mkentry;
	idesc.id_parent = ino;
	idesc.id_name = (char *)name;
	idesc.id_fix = IGNORE;
	if (scandir(parent, &idesc) & ALTERED)
		return (1);
	getpathname(pathbuf, parent, parent);
	pfatal("NO SPACE LEFT IN %s", pathbuf);
	if (preen)
		printf(" (EXPANDED)\n");
	else if (reply("EXPAND") == 0)
		return (0);
	if (expanddir(parent) == 0) {
		pfatal("SORRY. CANNOT EXPAND %s\n", pathbuf);
		resolved = 0;
		return (0);
	}
	return ((scandir(parent, &idesc) & ALTERED) != 0);
}

/*
 * Make a directory with "." and ".." (to parent) in one fragment, at
 * inode request if that is free.  After phase 2 the new directory's
 * references are all in place, so its lncntp stays 0; the parent gets
 * one more link for the new "..".
 */
u_int32_t
allocdir(u_int32_t parent, u_int32_t request, int mode)
{
	struct dirtemplate *dt;
	struct direct *ent;
	struct dinode *dp;
	u_int8_t *buf;
	u_int32_t ino;
	int off;

	ino = allocino(request, IFDIR | mode);
	if (ino == 0)
		return (0);
	buf = emalloc(sblock.fs_fsize);
	dt = (struct dirtemplate *)buf;
	dt->dot_ino = ino;
	dt->dot_reclen = 12;
	dt->dot_type = DT_DIR;
	dt->dot_namlen = 1;
	strcpy(dt->dot_name, ".");
	dt->dotdot_ino = parent;
	dt->dotdot_reclen = DIRBLKSIZ - 12;
	dt->dotdot_type = DT_DIR;
	dt->dotdot_namlen = 2;
	strcpy(dt->dotdot_name, "..");
	for (off = DIRBLKSIZ; off < sblock.fs_fsize; off += DIRBLKSIZ) {
		ent = (struct direct *)(buf + off);
		ent->d_reclen = DIRBLKSIZ;
	}
	dp = ginode(ino);
	putblk(dp->di_db[0], sblock.fs_fsize, buf);
	free(buf);
	dp = ginode(ino);
	dp->di_nlink = 2;
	inodirty();
	cacheino(dp, ino);
	getinoinfo(ino)->i_parent = parent;
	getinoinfo(ino)->i_dotdot = parent;
	if (ino == ROOTINO) {
		/* Phase 2 will count "." and "..". */
		lncntp[ino] = dp->di_nlink;
		return (ino);
	}
	if (statemap[parent] != DSTATE && statemap[parent] != DFOUND) {
		freeino(ino);
		return (0);
	}
	statemap[ino] = statemap[parent];
	lncntp[ino] = 0;
	dp = ginode(parent);
	dp->di_nlink++;
	inodirty();
	return (ino);
}

/* Find or make lost+found; 0 if there is none to use. */
static u_int32_t
getlfdir(void)
{
	struct dinode *dp;

	if (lfdir != 0)
		return (lfdir);
	lfdir = lookupname(ROOTINO, lfname);
	if (lfdir == 0) {
		pwarn("NO %s DIRECTORY", lfname);
		if (preen || reply("CREATE")) {
			lfdir = allocdir(ROOTINO, 0, 0700);
			if (lfdir != 0 && makeentry(ROOTINO, lfdir, lfname)) {
				if (preen)
					printf(" (CREATED)\n");
			} else if (lfdir != 0) {
				freeino(lfdir);
				dp = ginode(ROOTINO);
				dp->di_nlink--;
				inodirty();
				lfdir = 0;
			}
		}
		if (lfdir == 0) {
			pfatal("SORRY. CANNOT CREATE %s DIRECTORY\n\n",
			    lfname);
			resolved = 0;
			return (0);
		}
	}
	dp = ginode(lfdir);
	if ((dp->di_mode & IFMT) != IFDIR || statemap[lfdir] != DFOUND) {
		pfatal("SORRY. %s IS NOT A DIRECTORY REACHED FROM /\n\n",
		    lfname);
		resolved = 0;
		lfdir = 0;
		return (0);
	}
	return (lfdir);
}

/*
 * Reconnect orphan (a file or a directory tree nobody references) to
 * lost+found as "#inumber".  parentdir is what the orphan's ".." named.
 */
int
linkup(u_int32_t orphan, u_int32_t parentdir)
{
	struct dinode *dp;
	char tempname[16];
	int lostdir;

	dp = ginode(orphan);
	lostdir = (dp->di_mode & IFMT) == IFDIR;
	pwarn("UNREF %s", lostdir ? "DIR" : "FILE");
	pinode(orphan);
	if (preen)
		printf(" (RECONNECTED)\n");
	else if (reply("RECONNECT") == 0)
		return (0);
	if (getlfdir() == 0)
		return (0);
	snprintf(tempname, sizeof(tempname), "#%u", orphan);
	if (makeentry(lfdir, orphan, tempname) == 0) {
		pfatal("SORRY. NO SPACE IN %s DIRECTORY\n", lfname);
		resolved = 0;
		return (0);
	}
	lncntp[orphan]--;
	if (lostdir) {
		/* Its ".." now names lost+found, which gets a link. */
		if ((changeino(orphan, "..", lfdir) & ALTERED) != 0) {
			if (parentdir >= ROOTINO && parentdir < maxino)
				lncntp[parentdir]++;
		} else if (makeentry(orphan, lfdir, "..") == 0) {
			pfatal("SORRY. CANNOT MAKE '..' IN I=%u\n", orphan);
			resolved = 0;
		}
		dp = ginode(lfdir);
		dp->di_nlink++;
		inodirty();
		pwarn("DIR I=%u CONNECTED. ", orphan);
		if (parentdir != (u_int32_t)-1)
			printf("PARENT WAS I=%u\n", parentdir);
		if (preen == 0)
			printf("\n");
	}
	return (1);
}

/*
 * Phase 4: inode idesc->id_number has lcnt more links than references.
 * No references at all: reconnect it (or clear it if it is empty);
 * otherwise set the link count to the references found.
 */
void
adjust(struct inodesc *idesc, int lcnt)
{
	struct dinode *dp;
	u_int32_t ino = idesc->id_number;

	dp = ginode(ino);
	if (dp->di_nlink == lcnt) {
		if (dp->di_size == 0 && (dp->di_mode & IFMT) != IFDIR) {
			clri(idesc, "UNREF", 1);
			return;
		}
		if (linkup(ino, 0) == 0) {
			clri(idesc, "UNREF", 0);
			return;
		}
		if ((lcnt = lncntp[ino]) == 0)
			return;
		dp = ginode(ino);
	}
	pwarn("LINK COUNT %s", ino == lfdir ? lfname :
	    (dp->di_mode & IFMT) == IFDIR ? "DIR" : "FILE");
	pinode(ino);
	dp = ginode(ino);
	printf(" COUNT %d SHOULD BE %d", dp->di_nlink, dp->di_nlink - lcnt);
	if (preen) {
		if (lcnt < 0) {
			printf("\n");
			pfatal("LINK COUNT INCREASING");
		}
		printf(" (ADJUSTED)\n");
	}
	if (preen || reply("ADJUST") == 1) {
		dp = ginode(ino);
		dp->di_nlink -= lcnt;
		inodirty();
		lncntp[ino] = 0;
	}
}

/* Mark every directory reachable from a found one as found. */
void
propagate(void)
{
	struct inoinfo *inp;
	int i, change;

	do {
		change = 0;
		for (i = 0; i < inplast; i++) {
			inp = inpsort[i];
			if (inp->i_parent == 0)
				continue;
			if (statemap[inp->i_parent] == DFOUND &&
			    statemap[inp->i_number] == DSTATE) {
				statemap[inp->i_number] = DFOUND;
				change = 1;
			}
		}
	} while (change);
}
