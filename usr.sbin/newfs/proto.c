/*
 * The tree newfs copies into a new file system, built in memory first.
 *
 * copytree (-D dir) reads a host directory the way xv6's mkfs does:
 * regular files, directories and symbolic links, permissions kept, owner
 * and group 0.  Other file types are skipped with a warning.  Names of
 * one host file (hard links) stay names of one inode: the first name
 * seen is the primary node, the others point at it.  Entries are kept
 * sorted by name so that the same tree always gives the same image.
 *
 * applyproto (-P protofile) then edits the tree.  One line per entry,
 * `#' starts a comment:
 *
 *	path type mode uid gid [major minor]
 *
 *	d	a directory: created if missing, else mode and owner set
 *	f	an existing file: only mode and owner set
 *	c, b	a character or block device node, created or replaced
 *
 * for example `/dev/console c 0600 0 0 0 0'.  The mode is octal.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/fs.h"
#include "newfs.h"

#define MAXPATH	1024

/* Host files with more than one name, to find their other names. */
struct hostlink {
	dev_t	 dev;
	ino_t	 ino;
	struct	pnode *pn;
	struct	hostlink *next;
};
static struct hostlink *hostlinks;

struct pnode *
newnode(const char *name, int type, int perm)
{
	struct pnode *pn;

	pn = emalloc(sizeof(*pn));
	pn->name = estrdup(name);
	pn->type = type;
	pn->perm = perm & 07777;
	pn->nlink = 1;
	return (pn);
}

/* Insert pn into directory dir, keeping the entries sorted by name. */
static void
insert(struct pnode *dir, struct pnode *pn)
{
	struct pnode **pp;

	for (pp = &dir->child; *pp != NULL; pp = &(*pp)->next)
		if (strcmp((*pp)->name, pn->name) > 0)
			break;
	pn->next = *pp;
	*pp = pn;
}

static struct pnode *
child(struct pnode *dir, const char *name)
{
	struct pnode *pn;

	for (pn = dir->child; pn != NULL; pn = pn->next)
		if (strcmp(pn->name, name) == 0)
			return (pn);
	return (NULL);
}

/* pn is a name of a host file with several: join it to the others. */
static void
hardlink(struct pnode *pn, const struct stat *st)
{
	struct hostlink *hl;

	for (hl = hostlinks; hl != NULL; hl = hl->next) {
		if (hl->dev == st->st_dev && hl->ino == st->st_ino) {
			pn->primary = hl->pn;
			hl->pn->nlink++;
			return;
		}
	}
	hl = emalloc(sizeof(*hl));
	hl->dev = st->st_dev;
	hl->ino = st->st_ino;
	hl->pn = pn;
	hl->next = hostlinks;
	hostlinks = hl;
}

void
copytree(struct pnode *dir, const char *hostdir)
{
	DIR *d;
	struct dirent *de;
	struct stat st;
	struct pnode *pn;
	char path[MAXPATH], target[MAXPATH];
	int n;

	if ((d = opendir(hostdir)) == NULL)
		fatal("%s: cannot open directory", hostdir);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (dir->name[0] == '\0' &&
		    strcmp(de->d_name, "lost+found") == 0) {
			fprintf(stderr, "%s: %s/lost+found skipped: newfs "
			    "makes its own\n", progname, hostdir);
			continue;
		}
		if (snprintf(path, sizeof(path), "%s/%s", hostdir,
		    de->d_name) >= (int)sizeof(path))
			fatal("%s/%s: path too long", hostdir, de->d_name);
		if (lstat(path, &st) < 0)
			fatal("%s: cannot stat", path);
		if (S_ISDIR(st.st_mode)) {
			pn = newnode(de->d_name, IFDIR, st.st_mode);
			copytree(pn, path);
		} else if (S_ISREG(st.st_mode)) {
			pn = newnode(de->d_name, IFREG, st.st_mode);
			pn->src = estrdup(path);
			if (st.st_nlink > 1)
				hardlink(pn, &st);
		} else if (S_ISLNK(st.st_mode)) {
			n = readlink(path, target, sizeof(target) - 1);
			if (n < 0)
				fatal("%s: cannot read link", path);
			target[n] = '\0';
			pn = newnode(de->d_name, IFLNK, st.st_mode);
			pn->target = estrdup(target);
		} else {
			fprintf(stderr, "%s: %s: not a file, directory or "
			    "symlink, skipped\n", progname, path);
			continue;
		}
		pn->mtime = (int32_t)st.st_mtime;
		insert(dir, pn);
	}
	closedir(d);
}

/*
 * Find path in the tree.  Returns the node or NULL; *parentp gets the
 * directory that holds (or would hold) the last component, and *lastp
 * that component, or *parentp is NULL if an earlier component is
 * missing or not a directory.
 */
static struct pnode *
lookup(struct pnode *root, char *path, struct pnode **parentp, char **lastp)
{
	struct pnode *dir, *pn;
	char *comp, *slash;

	dir = root;
	pn = root;
	*lastp = "";
	comp = path;
	while (*comp == '/')
		comp++;
	while (*comp != '\0') {
		if ((slash = strchr(comp, '/')) != NULL)
			*slash = '\0';
		if (pn == NULL || pn->type != IFDIR) {
			*parentp = NULL;
			return (NULL);
		}
		dir = pn;
		*lastp = comp;
		pn = child(dir, comp);
		if (slash == NULL)
			break;
		comp = slash + 1;
		while (*comp == '/')
			comp++;
	}
	*parentp = dir;
	return (pn);
}

static void
setattr(struct pnode *pn, int perm, long uid, long gid)
{

	pn->perm = perm & 07777;
	pn->uid = (u_int32_t)uid;
	pn->gid = (u_int32_t)gid;
}

void
applyproto(struct pnode *root, const char *file)
{
	FILE *fp;
	struct pnode *pn, *parent, **pp;
	char line[MAXPATH + 128], path[MAXPATH], type[8], *last;
	long mode, uid, gid, maj, min;
	int lineno, n;

	if ((fp = fopen(file, "r")) == NULL)
		fatal("%s: cannot open", file);
	for (lineno = 1; fgets(line, sizeof(line), fp) != NULL; lineno++) {
		if ((last = strchr(line, '#')) != NULL)
			*last = '\0';
		n = sscanf(line, "%1023s %7s %lo %ld %ld %ld %ld", path, type,
		    &mode, &uid, &gid, &maj, &min);
		if (n <= 0)
			continue;		/* blank or comment */
		if (n < 5 || type[1] != '\0' || path[0] != '/')
			fatal("%s:%d: want `/path type mode uid gid "
			    "[major minor]'", file, lineno);
		pn = lookup(root, path, &parent, &last);
		if (parent == NULL)
			fatal("%s:%d: %s: parent directory missing", file,
			    lineno, path);
		switch (type[0]) {
		case 'd':
			if (pn == NULL) {
				pn = newnode(last, IFDIR, 0);
				insert(parent, pn);
			} else if (pn->type != IFDIR)
				fatal("%s:%d: %s: exists and is not a "
				    "directory", file, lineno, path);
			setattr(pn, (int)mode, uid, gid);
			break;
		case 'f':
			if (pn == NULL)
				fatal("%s:%d: %s: no such file", file, lineno,
				    path);
			setattr(pn->primary != NULL ? pn->primary : pn,
			    (int)mode, uid, gid);
			break;
		case 'c':
		case 'b':
			if (n != 7 || maj < 0 || maj > 255 || min < 0 ||
			    min > 255)
				fatal("%s:%d: a device needs major and minor "
				    "numbers 0..255", file, lineno);
			if (pn != NULL) {
				if (pn->type == IFDIR || pn->nlink > 1 ||
				    pn->primary != NULL)
					fatal("%s:%d: %s: is a directory or a "
					    "hard link", file, lineno, path);
				for (pp = &parent->child; *pp != pn;
				    pp = &(*pp)->next)
					;
				*pp = pn->next;
			}
			pn = newnode(last, type[0] == 'c' ? IFCHR : IFBLK, 0);
			/* The guest's dev_t: major << 8 | minor. */
			pn->rdev = (u_int32_t)(maj << 8 | min);
			setattr(pn, (int)mode, uid, gid);
			insert(parent, pn);
			break;
		default:
			fatal("%s:%d: unknown type `%s' (want d, f, c or b)",
			    file, lineno, type);
		}
	}
	fclose(fp);
}
