/*
 * ls: list directory contents, one entry per line, sorted by name.
 *	ls [-1adilR] [file ...]
 * -a: include entries whose names begin with a dot.
 * -d: list directories themselves, not their contents.
 * -i: print each file's inode number.
 * -l: long format: mode, links, owner, group, size, modification time.
 * -R: list subdirectories recursively.
 * -1: one entry per line (always the case here).
 *
 * The operands are listed files first, then directories, each group
 * sorted; a directory's contents follow a "name:" line when there is
 * more than one operand or -R is given.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct entry {
	char	*name;		/* as printed */
	char	*path;		/* for lstat and recursion */
	struct stat st;
};

static int aflag, dflag, iflag, lflag, Rflag;
static int rval;
static time_t now;

static int
entcmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
	    ((const struct entry *)b)->name);
}

static const char *
username(uid_t uid)
{
	static char buf[16];
	static uid_t lastuid = (uid_t)-1;
	static char lastname[32];
	struct passwd *pw;

	if (uid == lastuid)
		return lastname;
	if ((pw = getpwuid(uid)) == NULL) {
		snprintf(buf, sizeof(buf), "%u", (unsigned)uid);
		return buf;
	}
	lastuid = uid;
	snprintf(lastname, sizeof(lastname), "%s", pw->pw_name);
	return lastname;
}

static const char *
groupname(gid_t gid)
{
	static char buf[16];
	static gid_t lastgid = (gid_t)-1;
	static char lastname[32];
	struct group *gr;

	if (gid == lastgid)
		return lastname;
	if ((gr = getgrgid(gid)) == NULL) {
		snprintf(buf, sizeof(buf), "%u", (unsigned)gid);
		return buf;
	}
	lastgid = gid;
	snprintf(lastname, sizeof(lastname), "%s", gr->gr_name);
	return lastname;
}

/* "drwxr-xr-x", with the set-id and sticky bits folded in as BSD does. */
static void
modestr(mode_t mode, char *p)
{
	static const char types[] = "?pc?d?b?-?l?s???";

	p[0] = types[(mode & S_IFMT) >> 12];
	p[1] = mode & S_IRUSR ? 'r' : '-';
	p[2] = mode & S_IWUSR ? 'w' : '-';
	p[3] = mode & S_ISUID ? (mode & S_IXUSR ? 's' : 'S') :
	    (mode & S_IXUSR ? 'x' : '-');
	p[4] = mode & S_IRGRP ? 'r' : '-';
	p[5] = mode & S_IWGRP ? 'w' : '-';
	p[6] = mode & S_ISGID ? (mode & S_IXGRP ? 's' : 'S') :
	    (mode & S_IXGRP ? 'x' : '-');
	p[7] = mode & S_IROTH ? 'r' : '-';
	p[8] = mode & S_IWOTH ? 'w' : '-';
	p[9] = mode & S_ISVTX ? (mode & S_IXOTH ? 't' : 'T') :
	    (mode & S_IXOTH ? 'x' : '-');
	p[10] = '\0';
}

static void
printlong(struct entry *e)
{
	char mode[11], date[32], target[PATH_MAX];
	struct tm *tm;
	time_t t;
	ssize_t n;

	modestr(e->st.st_mode, mode);
	t = e->st.st_mtime;
	tm = localtime(&t);
	/* Six months old or from the future: the year instead of the time. */
	if (t + 6L * 30 * 24 * 3600 < now || t > now + 3600)
		strftime(date, sizeof(date), "%b %e  %Y", tm);
	else
		strftime(date, sizeof(date), "%b %e %H:%M", tm);
	printf("%s %3u %-8s %-8s ", mode, (unsigned)e->st.st_nlink,
	    username(e->st.st_uid), groupname(e->st.st_gid));
	if (S_ISCHR(e->st.st_mode) || S_ISBLK(e->st.st_mode))
		printf("%3u, %3u ", (unsigned)major(e->st.st_rdev),
		    (unsigned)minor(e->st.st_rdev));
	else
		printf("%8lld ", (long long)e->st.st_size);
	printf("%s %s", date, e->name);
	if (S_ISLNK(e->st.st_mode) &&
	    (n = readlink(e->path, target, sizeof(target) - 1)) >= 0) {
		target[n] = '\0';
		printf(" -> %s", target);
	}
	putchar('\n');
}

static void
printentries(struct entry *ents, int n, int total)
{
	long long blocks;
	int i;

	if (lflag && total) {
		blocks = 0;
		for (i = 0; i < n; i++)
			blocks += ents[i].st.st_blocks;
		printf("total %lld\n", blocks);
	}
	for (i = 0; i < n; i++) {
		if (iflag)
			printf("%7lu ", (unsigned long)ents[i].st.st_ino);
		if (lflag)
			printlong(&ents[i]);
		else
			printf("%s\n", ents[i].name);
	}
}

static char *
joinpath(const char *dir, const char *name)
{
	size_t dl;
	char *p;

	dl = strlen(dir);
	if ((p = malloc(dl + strlen(name) + 2)) == NULL)
		err(1, NULL);
	strcpy(p, dir);
	if (dl > 0 && dir[dl - 1] != '/')
		p[dl++] = '/';
	strcpy(p + dl, name);
	return p;
}

static void
listdir(const char *path, int header, int first)
{
	struct entry *ents;
	struct dirent *dp;
	int n, cap, i;
	DIR *dir;

	if (header)
		printf("%s%s:\n", first ? "" : "\n", path);
	if ((dir = opendir(path)) == NULL) {
		warn("%s", path);
		rval = 1;
		return;
	}
	ents = NULL;
	n = cap = 0;
	while ((dp = readdir(dir)) != NULL) {
		if (dp->d_name[0] == '.' && !aflag)
			continue;
		if (n == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			if ((ents = realloc(ents, cap * sizeof(*ents))) == NULL)
				err(1, NULL);
		}
		ents[n].name = strdup(dp->d_name);
		ents[n].path = joinpath(path, dp->d_name);
		if (ents[n].name == NULL)
			err(1, NULL);
		if ((lflag || Rflag || iflag) &&
		    lstat(ents[n].path, &ents[n].st) < 0) {
			warn("%s", ents[n].path);
			rval = 1;
			free(ents[n].name);
			free(ents[n].path);
			continue;
		}
		if (!(lflag || Rflag || iflag))
			ents[n].st.st_ino = dp->d_fileno;
		n++;
	}
	closedir(dir);
	qsort(ents, n, sizeof(*ents), entcmp);
	printentries(ents, n, 1);
	for (i = 0; i < n; i++) {
		if (Rflag && S_ISDIR(ents[i].st.st_mode) &&
		    strcmp(ents[i].name, ".") != 0 &&
		    strcmp(ents[i].name, "..") != 0)
			listdir(ents[i].path, 1, 0);
		free(ents[i].name);
		free(ents[i].path);
	}
	free(ents);
}

int
main(int argc, char *argv[])
{
	struct entry *files, *dirs;
	int ch, nfiles, ndirs, i, nargs;
	struct stat st;

	while ((ch = getopt(argc, argv, "1adilR")) != -1) {
		switch (ch) {
		case '1':
			break;
		case 'a':
			aflag = 1;
			break;
		case 'd':
			dflag = 1;
			break;
		case 'i':
			iflag = 1;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'R':
			Rflag = 1;
			break;
		default:
			fprintf(stderr, "usage: ls [-1adilR] [file ...]\n");
			exit(1);
		}
	}
	argc -= optind;
	argv += optind;
	now = time(NULL);
	if (argc == 0) {
		static char *dot[] = { ".", NULL };

		argv = dot;
		argc = 1;
	}
	nargs = argc;
	files = calloc(argc, sizeof(*files));
	dirs = calloc(argc, sizeof(*dirs));
	if (files == NULL || dirs == NULL)
		err(1, NULL);
	nfiles = ndirs = 0;
	for (i = 0; i < argc; i++) {
		/* Operands are followed if they are symbolic links, except -l. */
		if ((lflag || dflag ? lstat(argv[i], &st) :
		    stat(argv[i], &st)) < 0 &&
		    lstat(argv[i], &st) < 0) {
			warn("%s", argv[i]);
			rval = 1;
			continue;
		}
		if (S_ISDIR(st.st_mode) && !dflag) {
			dirs[ndirs].name = dirs[ndirs].path = argv[i];
			dirs[ndirs++].st = st;
		} else {
			files[nfiles].name = files[nfiles].path = argv[i];
			files[nfiles++].st = st;
		}
	}
	qsort(files, nfiles, sizeof(*files), entcmp);
	qsort(dirs, ndirs, sizeof(*dirs), entcmp);
	printentries(files, nfiles, 0);
	for (i = 0; i < ndirs; i++)
		listdir(dirs[i].path, nargs > 1, i == 0 && nfiles == 0);
	if (fflush(stdout) == EOF)
		rval = 1;
	return rval;
}
