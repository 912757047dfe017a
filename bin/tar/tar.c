/*
 * tar: tape archiver, in the POSIX ustar format.
 *
 *	tar -c [-v] [-f archive] [-C dir] file ...
 *	tar -t [-v] [-f archive]
 *	tar -x [-v] [-f archive] [-C dir] [file ...]
 *
 * The first argument may omit its '-' (tar cvf a.tar dir).  The archive
 * is standard input or output when it is '-' or not given.
 *
 * An archive is a sequence of 512-byte blocks: for each member a header
 * block (name, mode, owner, size, mtime, type, link target, checksum)
 * followed by its data rounded up to whole blocks, and two zero blocks
 * at the end; the whole is written in records of 20 blocks.  Members
 * are regular files, directories, symbolic links and hard links (a
 * file's second name is archived as a link to its first).
 *
 * Reading, it also takes the long names other tars write where ustar's
 * 100 + 155 bytes are not enough: GNU's ././@LongLink members ('L' for
 * the next member's name, 'K' for its link target) and POSIX pax
 * extended headers ('x': path and linkpath; a global 'g' is skipped).
 *
 * Extract refuses a name with a ".." component (it could write outside
 * the directory) and strips a leading '/'.  It restores modes and
 * modification times, and owners when run by root; directories get
 * theirs at the end, after the files in them are written.
 */
#include <sys/stat.h>
#include <sys/time.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK	512
#define RECORD	(20 * BLOCK)
#define NAMEMAX	1024		/* a member's name or link target, with its NUL */
#define PAXMAX	(64 * 1024)	/* a pax extended header's records */

/* The ustar header; numbers are octal text. */
struct header {
	char	name[100];
	char	mode[8];
	char	uid[8];
	char	gid[8];
	char	size[12];
	char	mtime[12];
	char	chksum[8];
	char	typeflag;
	char	linkname[100];
	char	magic[6];	/* "ustar" and a NUL */
	char	version[2];	/* "00" */
	char	uname[32];
	char	gname[32];
	char	devmajor[8];
	char	devminor[8];
	char	prefix[155];	/* the name is prefix/name */
	char	pad[12];
};

static int vflag, status;
static int afd;			/* the archive */
static FILE *vout;		/* where -v writes */
static char rec[RECORD];	/* the record being written */
static int recfill;
static long long apos;		/* blocks read so far, for messages */
static struct stat ast;		/* the archive file, not to be archived */

/* directories whose mode and time are set at the end of extract */
struct dirfix {
	char	*name;
	mode_t	 mode;
	time_t	 mtime;
	struct dirfix *next;
};
static struct dirfix *dirfixes;

/* files with more than one link, by inode: later names become links */
struct linked {
	dev_t	 dev;
	ino_t	 ino;
	char	*name;		/* its name in the archive */
	struct linked *next;
};
static struct linked *linked;

static void
usage(void)
{
	fprintf(stderr, "usage: tar -c [-v] [-f archive] [-C dir] file ...\n"
	    "       tar -t [-v] [-f archive]\n"
	    "       tar -x [-v] [-f archive] [-C dir] [file ...]\n");
	exit(1);
}

/* --- blocks --- */

static void
writeblock(const void *b)
{
	ssize_t n;
	int off;

	memcpy(rec + recfill, b, BLOCK);
	recfill += BLOCK;
	if (recfill < RECORD)
		return;
	for (off = 0; off < RECORD; off += n)
		if ((n = write(afd, rec + off, RECORD - off)) <= 0)
			err(1, "write to archive");
	recfill = 0;
}

/* Read one block; 0 at the end of the archive file. */
static int
readblock(void *b)
{
	ssize_t n;
	int got;

	for (got = 0; got < BLOCK; got += n) {
		if ((n = read(afd, (char *)b + got, BLOCK - got)) < 0)
			err(1, "read from archive");
		if (n == 0) {
			if (got > 0)
				errx(1, "archive ends in the middle of a block");
			return 0;
		}
	}
	apos++;
	return 1;
}

static void
octal(char *field, int width, unsigned long long v)
{
	char buf[32];

	/* width - 1 digits and a NUL */
	snprintf(buf, sizeof(buf), "%0*llo", width - 1, v);
	memcpy(field, buf, width);
}

/* An octal field's value; -1 if it holds something else. */
static long long
number(const char *field, int width)
{
	long long v = 0;
	int i = 0;

	while (i < width && field[i] == ' ')
		i++;
	for (; i < width && field[i] >= '0' && field[i] <= '7'; i++)
		v = v * 8 + (field[i] - '0');
	if (i < width && field[i] != '\0' && field[i] != ' ')
		return -1;
	return v;
}

static unsigned
checksum(const struct header *h)
{
	const unsigned char *p = (const unsigned char *)h;
	unsigned sum = 0;
	int i;

	for (i = 0; i < BLOCK; i++)
		sum += (i >= 148 && i < 156) ? ' ' : p[i];
	return sum;
}

/* --- create --- */

/* Put name in the header, split into prefix/name if long; 0 if too long. */
static int
setname(struct header *h, const char *name)
{
	size_t len = strlen(name);
	const char *slash;

	if (len <= sizeof(h->name)) {
		memcpy(h->name, name, len);
		return 1;
	}
	/* the last slash that leaves a name of at most 100 bytes */
	for (slash = name + len - sizeof(h->name) - 1; *slash != '\0'; slash++)
		if (*slash == '/' && slash > name)
			break;
	if (*slash == '\0' || (size_t)(slash - name) > sizeof(h->prefix) ||
	    strlen(slash + 1) == 0)
		return 0;
	memcpy(h->prefix, name, slash - name);
	memcpy(h->name, slash + 1, strlen(slash + 1));
	return 1;
}

/*
 * A file with several links: the first name archived carries the data,
 * each later one is a '1' member naming it.  0 if a name is too long.
 */
static int
hardlink(struct header *h, struct stat *st, const char *arcname)
{
	struct linked *l;

	for (l = linked; l != NULL; l = l->next)
		if (l->dev == st->st_dev && l->ino == st->st_ino)
			break;
	if (l == NULL) {
		if ((l = malloc(sizeof(*l))) == NULL ||
		    (l->name = strdup(arcname)) == NULL)
			errx(1, "out of memory");
		l->dev = st->st_dev;
		l->ino = st->st_ino;
		l->next = linked;
		linked = l;
		return 1;
	}
	if (strlen(l->name) > sizeof(h->linkname)) {
		warnx("%s: link target %s too long for the archive", arcname,
		    l->name);
		return 0;
	}
	h->typeflag = '1';
	memcpy(h->linkname, l->name, strlen(l->name));
	octal(h->size, sizeof(h->size), 0);
	return 1;
}

static void
addfile(const char *path)
{
	struct header h;
	struct stat st;
	struct passwd *pw;
	struct group *gr;
	char buf[BLOCK], *arcname;
	const char *p;
	long long left;
	ssize_t n;
	int fd = -1;

	if (lstat(path, &st) < 0) {
		warn("%s", path);
		status = 1;
		return;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) &&
	    !S_ISLNK(st.st_mode)) {
		warnx("%s: not a file, directory or link: not archived", path);
		status = 1;
		return;
	}
	if (st.st_dev == ast.st_dev && st.st_ino == ast.st_ino) {
		warnx("%s: is the archive itself: not archived", path);
		return;
	}
	if (S_ISREG(st.st_mode) && (fd = open(path, O_RDONLY)) < 0) {
		warn("%s", path);
		status = 1;
		return;
	}
	/* the name in the archive: no leading slash, a slash after a directory */
	for (p = path; p[0] == '/' && p[1] != '\0'; p++)
		;
	if ((arcname = malloc(strlen(p) + 2)) == NULL)
		errx(1, "out of memory");
	strcpy(arcname, p);
	if (S_ISDIR(st.st_mode) && arcname[strlen(arcname) - 1] != '/')
		strcat(arcname, "/");

	memset(&h, 0, sizeof(h));
	if (!setname(&h, arcname)) {
		warnx("%s: name too long for the archive", path);
		status = 1;
		goto out;
	}
	octal(h.mode, sizeof(h.mode), st.st_mode & 07777);
	octal(h.uid, sizeof(h.uid), st.st_uid);
	octal(h.gid, sizeof(h.gid), st.st_gid);
	octal(h.size, sizeof(h.size), S_ISREG(st.st_mode) ? st.st_size : 0);
	octal(h.mtime, sizeof(h.mtime), st.st_mtime);
	memcpy(h.magic, "ustar", 6);
	memcpy(h.version, "00", 2);
	if ((pw = getpwuid(st.st_uid)) != NULL)
		strncpy(h.uname, pw->pw_name, sizeof(h.uname) - 1);
	if ((gr = getgrgid(st.st_gid)) != NULL)
		strncpy(h.gname, gr->gr_name, sizeof(h.gname) - 1);
	h.typeflag = S_ISREG(st.st_mode) ? '0' : S_ISDIR(st.st_mode) ? '5' : '2';
	if (S_ISREG(st.st_mode) && st.st_nlink > 1 && !hardlink(&h, &st, arcname)) {
		status = 1;
		goto out;
	}
	if (S_ISLNK(st.st_mode)) {
		n = readlink(path, h.linkname, sizeof(h.linkname));
		if (n < 0 || n == sizeof(h.linkname)) {
			warnx("%s: cannot read the link or it is too long", path);
			status = 1;
			goto out;
		}
	}
	octal(h.chksum, 7, checksum(&h));
	h.chksum[7] = ' ';
	writeblock(&h);
	if (vflag)
		fprintf(vout, "%s\n", arcname);

	if (h.typeflag == '0') {
		/* exactly st_size bytes, even if the file changes meanwhile */
		for (left = st.st_size; left > 0; left -= BLOCK) {
			memset(buf, 0, BLOCK);
			n = read(fd, buf, left < BLOCK ? left : BLOCK);
			if (n < 0) {
				warn("%s", path);
				status = 1;
			}
			writeblock(buf);
		}
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent *e;
		char *sub;
		DIR *d;

		if ((d = opendir(path)) == NULL) {
			warn("%s", path);
			status = 1;
			goto out;
		}
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			if ((sub = malloc(strlen(path) + strlen(e->d_name) + 2)) ==
			    NULL)
				errx(1, "out of memory");
			sprintf(sub, "%s%s%s", path,
			    path[strlen(path) - 1] == '/' ? "" : "/", e->d_name);
			addfile(sub);
			free(sub);
		}
		closedir(d);
	}
out:
	if (fd >= 0)
		close(fd);
	free(arcname);
}

static void
create(char **files)
{
	char zero[BLOCK];

	memset(zero, 0, sizeof(zero));
	for (; *files != NULL; files++)
		addfile(*files);
	writeblock(zero);
	writeblock(zero);
	while (recfill != 0)
		writeblock(zero);
}

/* --- list and extract --- */

static char longlink[NAMEMAX];	/* the next member's long link target */

static void data(struct header *, int, const char *);

/* The data of a member that only names the next one (GNU's 'L' or 'K'),
 * into buf (NAMEMAX bytes). */
static void
readlong(struct header *h, char *buf)
{
	char block[BLOCK];
	long long size = number(h->size, sizeof(h->size)), off;

	if (size <= 0 || size >= NAMEMAX)
		errx(1, "a long name of %lld bytes at block %lld: more than %d",
		    size, apos - 1, NAMEMAX - 1);
	for (off = 0; off < size; off += BLOCK) {
		if (!readblock(block))
			errx(1, "unexpected end of archive in a long name");
		memcpy(buf + off, block, size - off < BLOCK ? size - off : BLOCK);
	}
	buf[size] = '\0';
}

/*
 * A pax extended header ('x'): records "LEN key=value\n"; path and
 * linkpath go into name and longlink, the others are ignored.
 */
static void
readpax(struct header *h, char *name)
{
	long long size = number(h->size, sizeof(h->size)), off;
	char *buf, *p, *end, *eq;
	long len;

	if (size < 0 || size > PAXMAX)
		errx(1, "a pax header of %lld bytes at block %lld: more than %d",
		    size, apos - 1, PAXMAX);
	if ((buf = malloc(size + BLOCK)) == NULL)
		errx(1, "out of memory");
	for (off = 0; off < size; off += BLOCK)
		if (!readblock(buf + off))
			errx(1, "unexpected end of archive in a pax header");
	for (p = buf, end = buf + size; p < end; p += len) {
		len = strtol(p, &eq, 10);
		if (len <= 0 || len > end - p || *eq != ' ' || p[len - 1] != '\n')
			errx(1, "a bad pax header record at block %lld", apos);
		p[len - 1] = '\0';
		if (strncmp(eq + 1, "path=", 5) == 0)
			snprintf(name, NAMEMAX, "%s", eq + 6);
		else if (strncmp(eq + 1, "linkpath=", 9) == 0)
			snprintf(longlink, NAMEMAX, "%s", eq + 10);
	}
	free(buf);
}

/* The member's link target: a long one read before it, or its header's. */
static const char *
linktarget(struct header *h)
{
	static char t[sizeof(h->linkname) + 1];

	if (longlink[0] != '\0')
		return longlink;
	memcpy(t, h->linkname, sizeof(h->linkname));
	return t;
}

/* The next member's header and its name (NAMEMAX bytes); 0 at the end
 * of the archive. */
static int
nextheader(struct header *h, char *name)
{
	static int warned;
	char longname[NAMEMAX], *p;

	longname[0] = longlink[0] = '\0';
	for (;;) {
		if (!readblock(h)) {
			if (apos == 0)
				errx(1, "the archive is empty");
			warnx("the archive has no end-of-archive blocks");
			status = 1;
			return 0;
		}
		if (h->name[0] == '\0' && number(h->size, sizeof(h->size)) <= 0 &&
		    checksum(h) == 8 * ' ')
			return 0;	/* a zero block: the end */
		if (number(h->chksum, sizeof(h->chksum)) != (long long)checksum(h))
			errx(1, apos == 1 ? "this does not look like a tar archive" :
			    "bad header checksum at block %lld", apos - 1);
		if (h->typeflag == 'L' || h->typeflag == 'K')
			readlong(h, h->typeflag == 'L' ? longname : longlink);
		else if (h->typeflag == 'x')
			readpax(h, longname);
		else if (h->typeflag == 'g')
			data(h, -1, "a pax global header");
		else
			break;
	}
	if (longname[0] != '\0')
		memcpy(name, longname, NAMEMAX);
	else if (h->prefix[0] != '\0' && memcmp(h->magic, "ustar", 5) == 0)
		snprintf(name, NAMEMAX, "%.155s/%.100s", h->prefix, h->name);
	else
		snprintf(name, NAMEMAX, "%.100s", h->name);
	if (name[0] == '/') {
		if (!warned)
			warnx("removing leading '/' from member names");
		warned = 1;
		for (p = name; *p == '/'; p++)
			;
		memmove(name, p, strlen(p) + 1);
	}
	return 1;
}

/* Skip or copy (to fd, if not -1) a member's data. */
static void
data(struct header *h, int fd, const char *name)
{
	char buf[BLOCK];
	long long left;

	left = number(h->size, sizeof(h->size));
	if (h->typeflag == '1' || h->typeflag == '2' || h->typeflag == '5')
		left = 0;
	for (; left > 0; left -= BLOCK) {
		if (!readblock(buf))
			errx(1, "unexpected end of archive in %s", name);
		if (fd >= 0 && write(fd, buf, left < BLOCK ? left : BLOCK) < 0) {
			warn("%s", name);
			status = 1;
			fd = -1;
		}
	}
}

static void
listone(struct header *h, const char *name)
{
	static const char types[] = "-hlcbdp";
	char mode[11];
	const char *bits = "rwxrwxrwx";
	long long m = number(h->mode, sizeof(h->mode));
	time_t t = number(h->mtime, sizeof(h->mtime));
	struct tm *tm;
	int i;

	if (!vflag) {
		printf("%s\n", name);
		return;
	}
	mode[0] = h->typeflag >= '1' && h->typeflag <= '6' ?
	    types[h->typeflag - '0'] : '-';
	for (i = 0; i < 9; i++)
		mode[i + 1] = (m >> (8 - i)) & 1 ? bits[i] : '-';
	mode[10] = '\0';
	tm = gmtime(&t);
	printf("%s %s/%s %8lld %04d-%02d-%02d %02d:%02d %s",
	    mode, h->uname[0] ? h->uname : "?", h->gname[0] ? h->gname : "?",
	    number(h->size, sizeof(h->size)), tm->tm_year + 1900,
	    tm->tm_mon + 1, tm->tm_mday, tm->tm_hour, tm->tm_min, name);
	if (h->typeflag == '1')
		printf(" link to %s", linktarget(h));
	if (h->typeflag == '2')
		printf(" -> %s", linktarget(h));
	putchar('\n');
}

static void
list(void)
{
	struct header h;
	char name[NAMEMAX];

	while (nextheader(&h, name)) {
		listone(&h, name);
		data(&h, -1, name);
	}
}

/* Has the name a ".." component? */
static int
dotdot(const char *name)
{
	const char *p;

	for (p = name; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == name || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return 1;
	return 0;
}

/* Make the directories leading to name, as mkdir -p would. */
static void
parents(const char *name)
{
	char path[NAMEMAX], *p;

	snprintf(path, sizeof(path), "%s", name);
	for (p = path + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST)
			warn("%s", path);
		*p = '/';
	}
}

static int
wanted(const char *name, char **files)
{
	size_t len;

	if (*files == NULL)
		return 1;
	for (; *files != NULL; files++) {
		len = strlen(*files);
		while (len > 1 && (*files)[len - 1] == '/')
			len--;
		if (strncmp(name, *files, len) == 0 &&
		    (name[len] == '\0' || name[len] == '/'))
			return 1;
	}
	return 0;
}

static void
settimes(const char *name, time_t t)
{
	struct timeval tv[2];

	tv[0].tv_sec = tv[1].tv_sec = t;
	tv[0].tv_usec = tv[1].tv_usec = 0;
	if (utimes(name, tv) < 0)
		warn("%s: cannot set its time", name);
}

static void
extractone(struct header *h, char *name)
{
	struct dirfix *df;
	mode_t mode = number(h->mode, sizeof(h->mode)) & 07777;
	time_t mtime = number(h->mtime, sizeof(h->mtime));
	const char *target = linktarget(h);
	size_t len;
	int fd;

	len = strlen(name);
	while (len > 1 && name[len - 1] == '/')
		name[--len] = '\0';
	if (len == 0 || strcmp(name, ".") == 0) {
		data(h, -1, name);
		return;
	}
	if (vflag)
		fprintf(vout, "%s\n", name);
	parents(name);
	switch (h->typeflag) {
	case '5':
		if (mkdir(name, 0700) < 0 && errno != EEXIST) {
			warn("%s", name);
			status = 1;
			return;
		}
		if ((df = malloc(sizeof(*df))) == NULL ||
		    (df->name = strdup(name)) == NULL)
			errx(1, "out of memory");
		df->mode = mode;
		df->mtime = mtime;
		df->next = dirfixes;
		dirfixes = df;
		return;
	case '2':
	case '1':
		unlink(name);
		if ((h->typeflag == '2' ? symlink(target, name) :
		    link(target, name)) < 0) {
			warn("%s", name);
			status = 1;
		}
		return;
	case '0':
	case '\0':
	case '7':
		unlink(name);
		if ((fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) {
			warn("%s", name);
			status = 1;
			data(h, -1, name);
			return;
		}
		data(h, fd, name);
		if (geteuid() == 0)
			fchown(fd, number(h->uid, 8), number(h->gid, 8));
		if (fchmod(fd, mode) < 0)
			warn("%s: cannot set its mode", name);
		close(fd);
		settimes(name, mtime);
		return;
	default:
		warnx("%s: unsupported member type '%c': skipped", name,
		    h->typeflag);
		status = 1;
		data(h, -1, name);
	}
}

static void
extract(char **files)
{
	struct header h;
	struct dirfix *df;
	char name[NAMEMAX];

	while (nextheader(&h, name)) {
		if (dotdot(name)) {
			warnx("%s: a name with '..' in it: not extracted", name);
			status = 1;
			data(&h, -1, name);
			continue;
		}
		if (!wanted(name, files)) {
			data(&h, -1, name);
			continue;
		}
		extractone(&h, name);
	}
	for (df = dirfixes; df != NULL; df = df->next) {
		if (chmod(df->name, df->mode) < 0)
			warn("%s: cannot set its mode", df->name);
		settimes(df->name, df->mtime);
	}
}

int
main(int argc, char *argv[])
{
	char *archive = "-", *dir = NULL, *first;
	int ch, mode = 0;

	/* the old form: the first argument's letters without a '-' */
	if (argc > 1 && argv[1][0] != '-') {
		if ((first = malloc(strlen(argv[1]) + 2)) == NULL)
			errx(1, "out of memory");
		sprintf(first, "-%s", argv[1]);
		argv[1] = first;
	}
	while ((ch = getopt(argc, argv, "ctxvf:C:")) != -1) {
		switch (ch) {
		case 'c':
		case 't':
		case 'x':
			if (mode != 0 && mode != ch)
				usage();
			mode = ch;
			break;
		case 'v':
			vflag = 1;
			break;
		case 'f':
			archive = optarg;
			break;
		case 'C':
			dir = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (mode == 0 || (mode == 'c' && argc == 0) || (mode == 't' && argc > 0))
		usage();
	vout = stdout;
	if (strcmp(archive, "-") == 0) {
		afd = mode == 'c' ? 1 : 0;
		if (mode == 'c')
			vout = stderr;
	} else if ((afd = mode == 'c' ?
	    open(archive, O_WRONLY | O_CREAT | O_TRUNC, 0666) :
	    open(archive, O_RDONLY)) < 0)
		err(1, "%s", archive);
	if (fstat(afd, &ast) < 0 || !S_ISREG(ast.st_mode))
		memset(&ast, 0, sizeof(ast));
	if (dir != NULL && chdir(dir) < 0)
		err(1, "%s", dir);
	if (mode == 'c')
		create(argv);
	else if (mode == 't')
		list();
	else
		extract(argv);
	fflush(stdout);
	return status;
}
