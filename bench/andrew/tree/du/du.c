/*
 * du: disk usage of file hierarchies.
 *	du [-a | -s] [-k] [file ...]
 * For each directory, the blocks used by it and everything under it, in
 * 512-byte blocks (1K blocks with -k).  -a also lists files; -s lists
 * only the totals of the operands.  A file with several links is counted
 * once.  Symbolic links are not followed.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int aflag, kflag, sflag;
static int rval;

static void
usage(void)
{
	fprintf(stderr, "usage: du [-a | -s] [-k] [file ...]\n");
	exit(1);
}

/* The (device, inode) pairs of files with several links already seen. */
static struct seen {
	dev_t	 dev;
	ino_t	 ino;
} *seen;
static size_t nseen, seencap;

static int
counted(struct stat *st)
{
	size_t i;

	for (i = 0; i < nseen; i++)
		if (seen[i].dev == st->st_dev && seen[i].ino == st->st_ino)
			return 1;
	if (nseen == seencap) {
		seencap = seencap == 0 ? 64 : seencap * 2;
		if ((seen = realloc(seen, seencap * sizeof(*seen))) == NULL)
			err(1, NULL);
	}
	seen[nseen].dev = st->st_dev;
	seen[nseen].ino = st->st_ino;
	nseen++;
	return 0;
}

static void
show(long long blocks, const char *path)
{
	printf("%lld\t%s\n", kflag ? (blocks + 1) / 2 : blocks, path);
}

/* Blocks under path; prints as it goes. */
static long long
du(const char *path, int top)
{
	struct dirent *dp;
	struct stat st;
	long long total;
	char *sub;
	DIR *dir;

	if (lstat(path, &st) < 0) {
		warn("%s", path);
		rval = 1;
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (st.st_nlink > 1 && counted(&st))
			return 0;
		if (aflag || top)
			show(st.st_blocks, path);
		return st.st_blocks;
	}
	total = st.st_blocks;
	if ((dir = opendir(path)) == NULL) {
		warn("%s", path);
		rval = 1;
	} else {
		while ((dp = readdir(dir)) != NULL) {
			if (strcmp(dp->d_name, ".") == 0 ||
			    strcmp(dp->d_name, "..") == 0)
				continue;
			sub = malloc(strlen(path) + strlen(dp->d_name) + 2);
			if (sub == NULL)
				err(1, NULL);
			sprintf(sub, "%s/%s", path, dp->d_name);
			total += du(sub, 0);
			free(sub);
		}
		closedir(dir);
	}
	if (!sflag || top)
		show(total, path);
	return total;
}

int
main(int argc, char *argv[])
{
	int ch;

	while ((ch = getopt(argc, argv, "aks")) != -1) {
		switch (ch) {
		case 'a':
			aflag = 1;
			break;
		case 'k':
			kflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		default:
			usage();
		}
	}
	if (aflag && sflag)
		usage();
	argv += optind;
	if (*argv == NULL)
		du(".", 1);
	for (; *argv != NULL; argv++)
		du(*argv, 1);
	return rval;
}
