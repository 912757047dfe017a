/*
 * Phase 2 - Check Pathnames (thesis table 6-2: sort directories by disk
 * address, traverse them in that order, validate ".", record "..",
 * validate the entries, recursively verify "..").
 *
 * The root must be an allocated directory.  Then every directory's
 * entries are read: the first must be "." (itself), the second ".."; an
 * entry naming an inode out of range, unallocated, or marked for
 * clearing in phase 1 is removed; an entry's d_type must match its
 * inode.  Each valid entry takes one off lncntp of the inode it names
 * and, for a directory, records the directory it was found in as its
 * parent.  Finally each directory's ".." is checked against that parent.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

#define MINDIRSIZE	((int)sizeof(struct dirtemplate))

/* Write a "." or ".." entry for inode ino at dirp, reclen bytes long. */
static void
setdot(struct direct *dirp, const char *name, u_int32_t ino, int reclen)
{

	memset(dirp, 0, DIRECTSIZ(strlen(name)));
	dirp->d_ino = ino;
	dirp->d_reclen = reclen;
	dirp->d_type = DT_DIR;
	dirp->d_namlen = strlen(name);
	strcpy(dirp->d_name, name);
}

/* The first entry of a directory: ".". */
static int
checkdot(struct inodesc *idesc, struct direct **dirpp)
{
	struct direct *dirp = *dirpp;
	int entrysize, n, ret = 0;

	if (dirp->d_ino != 0 && strcmp(dirp->d_name, ".") == 0) {
		if (dirp->d_ino != idesc->id_number) {
			direrror(idesc->id_number, "BAD INODE NUMBER FOR '.'");
			dirp->d_ino = idesc->id_number;
			if (reply("FIX") == 1)
				ret |= ALTERED;
		}
		if (dirp->d_type != DT_DIR) {
			direrror(idesc->id_number, "BAD TYPE VALUE FOR '.'");
			dirp->d_type = DT_DIR;
			if (reply("FIX") == 1)
				ret |= ALTERED;
		}
		return (ret);
	}
	direrror(idesc->id_number, "MISSING '.'");
	entrysize = DIRECTSIZ(1);
	/* Another name gives way: what it named is reconnected (pass 4). */
	if (dirp->d_ino != 0 && strcmp(dirp->d_name, "..") != 0)
		pfatal("FIRST ENTRY IN DIRECTORY CONTAINS %s I=%u\n",
		    dirp->d_name, dirp->d_ino);
	if (dirp->d_reclen < entrysize) {
		pfatal("CANNOT FIX, INSUFFICIENT SPACE TO ADD '.'\n");
		resolved = 0;
	} else if (dirp->d_reclen < 2 * entrysize) {
		/* No room for anything after ".": it takes the slot. */
		setdot(dirp, ".", idesc->id_number, dirp->d_reclen);
		if (reply("FIX") == 1)
			ret |= ALTERED;
	} else {
		/* "." here, and the rest becomes an empty second entry. */
		n = dirp->d_reclen - entrysize;
		setdot(dirp, ".", idesc->id_number, entrysize);
		idesc->id_entryno++;
		lncntp[idesc->id_number]--;
		dirp = (struct direct *)((char *)dirp + entrysize);
		memset(dirp, 0, n);
		dirp->d_reclen = n;
		*dirpp = dirp;
		if (reply("FIX") == 1)
			ret |= ALTERED;
	}
	return (ret);
}

/*
 * The second entry of a directory: "..", pointing at the parent.
 * Returns 1 if the entry at *dirpp still needs the checks every entry
 * gets (it is ".." or, unsplit, "."), 0 if it has been dealt with.
 */
static int
checkdotdot(struct inodesc *idesc, struct direct **dirpp, int *retp)
{
	struct direct *dirp = *dirpp;
	struct inoinfo *inp;
	int entrysize, n;

	inp = getinoinfo(idesc->id_number);
	entrysize = DIRECTSIZ(2);
	if (idesc->id_entryno == 0) {
		/* This is "."; if it has room for ".." after it, split. */
		n = DIRECTSIZ(dirp->d_namlen);
		if (dirp->d_reclen < n + entrysize)
			return (1);
		entrysize = dirp->d_reclen - n;
		dirp->d_reclen = n;
		idesc->id_entryno++;
		lncntp[dirp->d_ino]--;
		dirp = (struct direct *)((char *)dirp + n);
		memset(dirp, 0, entrysize);
		dirp->d_reclen = entrysize;
		*dirpp = dirp;
		entrysize = DIRECTSIZ(2);
	}
	if (dirp->d_ino != 0 && strcmp(dirp->d_name, "..") == 0) {
		inp->i_dotdot = dirp->d_ino;
		if (dirp->d_type != DT_DIR) {
			direrror(idesc->id_number, "BAD TYPE VALUE FOR '..'");
			dirp->d_type = DT_DIR;
			if (reply("FIX") == 1)
				*retp |= ALTERED;
		}
		return (1);
	}
	fileerror(inp->i_parent, idesc->id_number, "MISSING '..'");
	/* Another name gives way: what it named is reconnected (pass 4). */
	if (dirp->d_ino != 0 && strcmp(dirp->d_name, ".") != 0) {
		pfatal("SECOND ENTRY IN DIRECTORY CONTAINS %s I=%u\n",
		    dirp->d_name, dirp->d_ino);
		dirp->d_ino = 0;
	}
	if (dirp->d_reclen < entrysize) {
		pfatal("CANNOT FIX, INSUFFICIENT SPACE TO ADD '..'\n");
		inp->i_dotdot = (u_int32_t)-1;
		resolved = 0;
	} else if (inp->i_parent != 0) {
		/* We know the parent, so fix now. */
		inp->i_dotdot = inp->i_parent;
		setdot(dirp, "..", inp->i_parent, dirp->d_reclen);
		if (reply("FIX") == 1)
			*retp |= ALTERED;
	}
	/* Else the parent is not known yet: pass2's last loop adds "..". */
	idesc->id_entryno++;
	if (dirp->d_ino != 0)
		lncntp[dirp->d_ino]--;
	return (0);
}

/*
 * DATA scan of one directory entry.  id_entryno counts the entries seen
 * so far: 0 for ".", 1 for "..".
 */
static int
pass2check(struct inodesc *idesc)
{
	struct direct *dirp = idesc->id_dirp;
	struct inoinfo *inp;
	struct dinode *dp;
	const char *errmsg;
	char pathbuf[MAXPATH + 1], namebuf[MAXPATH + 1];
	int n, ret = 0;

	/*
	 * "." and ".." belong in the first chunk.  If a repair ended that
	 * chunk early, the entries after it are ordinary ones, and the last
	 * loop of pass2 puts ".." back after ".".
	 */
	if (idesc->id_entryno <= 1 &&
	    idesc->id_dirsize - idesc->id_filesize >= DIRBLKSIZ)
		idesc->id_entryno = 2;
	if (idesc->id_entryno == 0)
		ret |= checkdot(idesc, &dirp);
	if (idesc->id_entryno <= 1 && checkdotdot(idesc, &dirp, &ret) == 0)
		return (ret | KEEPON);
	if (dirp->d_ino == 0)
		return (ret | KEEPON);
	if (dirp->d_namlen <= 2 && dirp->d_name[0] == '.' &&
	    idesc->id_entryno >= 2) {
		if (dirp->d_namlen == 1 || dirp->d_name[1] == '.') {
			direrror(idesc->id_number, dirp->d_namlen == 1 ?
			    "EXTRA '.' ENTRY" : "EXTRA '..' ENTRY");
			dirp->d_ino = 0;
			if (reply("FIX") == 1)
				ret |= ALTERED;
			return (ret | KEEPON);
		}
	}
	idesc->id_entryno++;
	n = 0;
	if (dirp->d_ino >= maxino || dirp->d_ino < ROOTINO) {
		/* A bad "..": pass2's last loop or phase 3 repoints it. */
		if (idesc->id_entryno <= 2)
			return (ret | KEEPON);
		fileerror(idesc->id_number, dirp->d_ino, "I OUT OF RANGE");
		n = reply("REMOVE");
	} else {
again:
		switch (statemap[dirp->d_ino]) {
		case USTATE:
			if (idesc->id_entryno <= 2)
				break;
			fileerror(idesc->id_number, dirp->d_ino,
			    "UNALLOCATED");
			n = reply("REMOVE");
			break;

		case DCLEAR:
		case FCLEAR:
			if (idesc->id_entryno <= 2)
				break;
			dp = ginode(dirp->d_ino);
			if (statemap[dirp->d_ino] == FCLEAR ||
			    dp->di_size != 0)
				errmsg = "DUP/BAD";
			else if (!preen)
				errmsg = "ZERO LENGTH DIRECTORY";
			else {
				n = 1;
				break;
			}
			fileerror(idesc->id_number, dirp->d_ino, errmsg);
			if ((n = reply("REMOVE")) == 1)
				break;
			/* Kept: treat it as an ordinary inode after all. */
			dp = ginode(dirp->d_ino);
			statemap[dirp->d_ino] =
			    (dp->di_mode & IFMT) == IFDIR ? DSTATE : FSTATE;
			lncntp[dirp->d_ino] = dp->di_nlink;
			goto again;

		case DSTATE:
			if (statemap[idesc->id_number] == DFOUND)
				statemap[dirp->d_ino] = DFOUND;
			/* FALLTHROUGH */
		case DFOUND:
			inp = getinoinfo(dirp->d_ino);
			if (inp->i_parent != 0 && idesc->id_entryno > 2) {
				getpathname(pathbuf, idesc->id_number,
				    idesc->id_number);
				getpathname(namebuf, dirp->d_ino, dirp->d_ino);
				pwarn("%s %s %s\n", pathbuf,
				    "IS AN EXTRANEOUS HARD LINK TO DIRECTORY",
				    namebuf);
				if (preen)
					printf(" (IGNORED)\n");
				else if ((n = reply("REMOVE")) == 1)
					break;
			}
			if (idesc->id_entryno > 2)
				inp->i_parent = idesc->id_number;
			/* FALLTHROUGH */
		case FSTATE:
			if (dirp->d_type != typemap[dirp->d_ino]) {
				fileerror(idesc->id_number, dirp->d_ino,
				    "BAD TYPE VALUE");
				dirp->d_type = typemap[dirp->d_ino];
				if (reply("FIX") == 1)
					ret |= ALTERED;
			}
			lncntp[dirp->d_ino]--;
			break;

		default:
			errexit("BAD STATE %d FOR INODE I=%u",
			    statemap[dirp->d_ino], dirp->d_ino);
		}
	}
	if (n == 0)
		return (ret | KEEPON);
	dirp->d_ino = 0;
	return (ret | KEEPON | ALTERED);
}

static int
blksort(const void *a, const void *b)
{
	const struct inoinfo *x = *(struct inoinfo * const *)a;
	const struct inoinfo *y = *(struct inoinfo * const *)b;

	return (x->i_blks[0] < y->i_blks[0] ? -1 :
	    x->i_blks[0] > y->i_blks[0]);
}

/* The root must exist and be a directory before anything is walked. */
static void
checkroot(void)
{
	struct dinode *dp;

	switch (statemap[ROOTINO]) {
	case USTATE:
		pfatal("ROOT INODE UNALLOCATED");
		if (reply("ALLOCATE") == 0)
			errexit("CANNOT CONTINUE WITHOUT A ROOT");
		if (allocdir(ROOTINO, ROOTINO, 0755) != ROOTINO)
			errexit("CANNOT ALLOCATE ROOT INODE");
		break;
	case DCLEAR:
		pfatal("DUPS/BAD IN ROOT INODE");
		if (reply("REALLOCATE")) {
			freeino(ROOTINO);
			if (allocdir(ROOTINO, ROOTINO, 0755) != ROOTINO)
				errexit("CANNOT ALLOCATE ROOT INODE");
			break;
		}
		if (reply("CONTINUE") == 0)
			errexit("Program terminated");
		break;
	case FSTATE:
	case FCLEAR:
		pfatal("ROOT INODE NOT DIRECTORY");
		if (reply("REALLOCATE")) {
			freeino(ROOTINO);
			if (allocdir(ROOTINO, ROOTINO, 0755) != ROOTINO)
				errexit("CANNOT ALLOCATE ROOT INODE");
			break;
		}
		if (reply("FIX") == 0)
			errexit("Program terminated");
		dp = ginode(ROOTINO);
		dp->di_mode = (dp->di_mode & ~IFMT) | IFDIR;
		inodirty();
		cacheino(dp, ROOTINO);
		break;
	case DSTATE:
		break;
	default:
		errexit("BAD STATE %d FOR ROOT INODE", statemap[ROOTINO]);
	}
	statemap[ROOTINO] = DFOUND;
}

void
pass2(void)
{
	struct inodesc curino;
	struct inoinfo *inp;
	struct dinode dino, *dp;
	char pathbuf[MAXPATH + 1];
	int i;

	checkroot();
	qsort(inpsort, inplast, sizeof(*inpsort), blksort);
	memset(&curino, 0, sizeof(curino));
	curino.id_type = DATA;
	curino.id_func = pass2check;
	for (i = 0; i < inplast; i++) {
		inp = inpsort[i];
		/*
		 * A directory phase 4 will clear (bad or duplicate blocks)
		 * is not read: its entries are no references, or the
		 * files and the parent they name would keep counts for a
		 * directory that is gone.  Its subdirectories are then
		 * reconnected in phase 3, its files in phase 4.
		 */
		if (inp->i_isize == 0 || statemap[inp->i_number] == DCLEAR)
			continue;
		if (inp->i_isize < MINDIRSIZE) {
			direrror(inp->i_number, "DIRECTORY TOO SHORT");
			inp->i_isize = DIRBLKSIZ;
			if (reply("FIX") == 1) {
				dp = ginode(inp->i_number);
				dp->di_size = inp->i_isize;
				inodirty();
			}
		} else if ((inp->i_isize & (DIRBLKSIZ - 1)) != 0) {
			getpathname(pathbuf, inp->i_number, inp->i_number);
			pwarn("DIRECTORY %s: LENGTH %lld NOT MULTIPLE OF %d",
			    pathbuf, (long long)inp->i_isize, DIRBLKSIZ);
			if (preen)
				printf(" (ADJUSTED)\n");
			inp->i_isize = roundup(inp->i_isize, DIRBLKSIZ);
			if (preen || reply("ADJUST") == 1) {
				dp = ginode(inp->i_number);
				dp->di_size = inp->i_isize;
				inodirty();
			}
		}
		memset(&dino, 0, sizeof(dino));
		dino.di_mode = IFDIR;
		dino.di_size = inp->i_isize;
		memcpy(dino.di_db, inp->i_blks, NDADDR * sizeof(ufs_daddr_t));
		memcpy(dino.di_ib, inp->i_blks + NDADDR,
		    NIADDR * sizeof(ufs_daddr_t));
		curino.id_number = inp->i_number;
		curino.id_parent = inp->i_parent;
		(void)ckinode(&dino, &curino);
	}

	/* Parents are known now: check every "..". */
	for (i = 0; i < inplast; i++) {
		inp = inpsort[i];
		if (inp->i_parent == 0 || inp->i_isize == 0 ||
		    statemap[inp->i_number] == DCLEAR)
			continue;
		if (statemap[inp->i_parent] == DFOUND &&
		    statemap[inp->i_number] == DSTATE)
			statemap[inp->i_number] = DFOUND;
		if (inp->i_dotdot == inp->i_parent ||
		    inp->i_dotdot == (u_int32_t)-1)
			continue;
		if (inp->i_dotdot == 0) {
			inp->i_dotdot = inp->i_parent;
			fileerror(inp->i_parent, inp->i_number,
			    "MISSING '..'");
			if (reply("FIX") == 0)
				continue;
			(void)makeentry(inp->i_number, inp->i_parent, "..");
			lncntp[inp->i_parent]--;
			continue;
		}
		fileerror(inp->i_parent, inp->i_number,
		    "BAD INODE NUMBER FOR '..'");
		if (reply("FIX") == 0)
			continue;
		if (inp->i_dotdot >= ROOTINO && inp->i_dotdot < maxino)
			lncntp[inp->i_dotdot]++;
		lncntp[inp->i_parent]--;
		inp->i_dotdot = inp->i_parent;
		(void)changeino(inp->i_number, "..", inp->i_parent);
	}
	propagate();
}
