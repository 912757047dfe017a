/*
 * mv: move (rename) files.
 *	mv source target
 *	mv source ... directory
 * A move within a file system is a rename(2).  Across file systems
 * (EXDEV), mv does what 4.4BSD's does: "cp -PRp source target" and then
 * "rm -rf source".
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: mv source target\n"
	    "       mv source ... directory\n");
	exit(1);
}

/* Run a helper and return its exit status. */
static int
run(char *const argv[])
{
	pid_t pid;
	int status;

	switch (pid = fork()) {
	case -1:
		warn("fork");
		return 1;
	case 0:
		execv(argv[0], argv);
		warn("%s", argv[0]);
		_exit(1);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int
move(char *from, char *to)
{
	char *cp[] = { "/bin/cp", "-PRp", from, to, NULL };
	char *rm[] = { "/bin/rm", "-rf", from, NULL };

	if (rename(from, to) == 0)
		return 0;
	if (errno != EXDEV) {
		warn("rename %s to %s", from, to);
		return 1;
	}
	if (run(cp) != 0)
		return 1;
	return run(rm);
}

int
main(int argc, char *argv[])
{
	struct stat st;
	char *target, *base, *to;
	int i, rval;

	if (getopt(argc, argv, "") != -1)
		usage();
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage();
	target = argv[argc - 1];
	if (stat(target, &st) < 0 || !S_ISDIR(st.st_mode)) {
		if (argc > 2)
			usage();
		return move(argv[0], target);
	}
	rval = 0;
	for (i = 0; i < argc - 1; i++) {
		base = strrchr(argv[i], '/');
		base = base != NULL ? base + 1 : argv[i];
		if ((to = malloc(strlen(target) + strlen(base) + 2)) == NULL)
			err(1, NULL);
		sprintf(to, "%s/%s", target, base);
		rval |= move(argv[i], to);
		free(to);
	}
	return rval;
}
