/*
 * find: walk file hierarchies, evaluating an expression for each file.
 *	find path ... [expression]
 * Primaries:
 *	-name pattern	the last component matches the shell pattern
 *	-type c		the file is of type c: f d l b c p s
 *	-newer file	modified more recently than file
 *	-print		print the path; true
 *	-exec utility [argument ...] ;
 *			run utility ({} is the path); true if it exits 0
 *	-prune		do not descend into this directory; true
 * Operators, by decreasing precedence: ( expression ), ! expression,
 * expression [-a] expression, expression -o expression.
 * Without -print or -exec, every file for which the expression is true
 * is printed.  Symbolic links are not followed.
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <err.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum op { P_NAME, P_TYPE, P_NEWER, P_PRINT, P_EXEC, P_PRUNE, P_TRUE,
	O_NOT, O_AND, O_OR };

struct expr {
	enum op	 op;
	struct expr *left, *right;
	char	*arg;		/* -name pattern, -type letter */
	char	**argv;		/* -exec: the command, {} to replace */
	time_t	 mtime;		/* -newer */
};

static char **args;		/* expression arguments not yet parsed */
static int needprint = 1;	/* no -print or -exec: print true files */
static int pruned;		/* -prune was true for this file */
static int rval;

static void
usage(void)
{
	fprintf(stderr, "usage: find path ... [expression]\n");
	exit(1);
}

static struct expr *
mkexpr(enum op op, struct expr *left, struct expr *right)
{
	struct expr *e;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		err(1, NULL);
	e->op = op;
	e->left = left;
	e->right = right;
	return e;
}

static char *
operand(const char *primary)
{
	if (*args == NULL)
		errx(1, "%s: requires additional arguments", primary);
	return *args++;
}

static struct expr *orexpr(void);

static struct expr *
primary(void)
{
	struct stat st;
	struct expr *e;
	char *p;
	int n;

	if ((p = *args) == NULL)
		errx(1, "expression expected");
	args++;
	if (strcmp(p, "(") == 0) {
		e = orexpr();
		if (*args == NULL || strcmp(*args, ")") != 0)
			errx(1, "(: missing closing ')'");
		args++;
		return e;
	}
	if (strcmp(p, "!") == 0)
		return mkexpr(O_NOT, primary(), NULL);
	if (strcmp(p, "-name") == 0) {
		e = mkexpr(P_NAME, NULL, NULL);
		e->arg = operand(p);
	} else if (strcmp(p, "-type") == 0) {
		e = mkexpr(P_TYPE, NULL, NULL);
		e->arg = operand(p);
		if (strlen(e->arg) != 1 || strchr("fdlbcps", *e->arg) == NULL)
			errx(1, "-type: %s: unknown type", e->arg);
	} else if (strcmp(p, "-newer") == 0) {
		e = mkexpr(P_NEWER, NULL, NULL);
		e->arg = operand(p);
		if (stat(e->arg, &st) < 0)
			err(1, "%s", e->arg);
		e->mtime = st.st_mtime;
	} else if (strcmp(p, "-print") == 0) {
		e = mkexpr(P_PRINT, NULL, NULL);
		needprint = 0;
	} else if (strcmp(p, "-prune") == 0)
		e = mkexpr(P_PRUNE, NULL, NULL);
	else if (strcmp(p, "-exec") == 0) {
		e = mkexpr(P_EXEC, NULL, NULL);
		e->argv = args;
		for (n = 0; args[n] != NULL && strcmp(args[n], ";") != 0; n++)
			continue;
		if (args[n] == NULL || n == 0)
			errx(1, "-exec: no terminating \";\"");
		args[n] = NULL;
		args += n + 1;
		needprint = 0;
	} else
		errx(1, "%s: unknown primary or operator", p);
	return e;
}

static struct expr *
andexpr(void)
{
	struct expr *e;

	e = primary();
	while (*args != NULL && strcmp(*args, "-o") != 0 &&
	    strcmp(*args, ")") != 0) {
		if (strcmp(*args, "-a") == 0)
			args++;
		e = mkexpr(O_AND, e, primary());
	}
	return e;
}

static struct expr *
orexpr(void)
{
	struct expr *e;

	e = andexpr();
	while (*args != NULL && strcmp(*args, "-o") == 0) {
		args++;
		e = mkexpr(O_OR, e, andexpr());
	}
	return e;
}

static int
runexec(char **argv, const char *path)
{
	char **nargv;
	pid_t pid;
	int n, i, status;

	for (n = 0; argv[n] != NULL; n++)
		continue;
	if ((nargv = calloc(n + 1, sizeof(char *))) == NULL)
		err(1, NULL);
	for (i = 0; i < n; i++)
		nargv[i] = strcmp(argv[i], "{}") == 0 ? (char *)path : argv[i];
	fflush(stdout);
	switch (pid = fork()) {
	case -1:
		err(1, "fork");
	case 0:
		execvp(nargv[0], nargv);
		warn("%s", nargv[0]);
		_exit(1);
	}
	free(nargv);
	if (waitpid(pid, &status, 0) < 0)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int
typeis(mode_t mode, int c)
{
	switch (c) {
	case 'f':
		return S_ISREG(mode);
	case 'd':
		return S_ISDIR(mode);
	case 'l':
		return S_ISLNK(mode);
	case 'b':
		return S_ISBLK(mode);
	case 'c':
		return S_ISCHR(mode);
	case 'p':
		return S_ISFIFO(mode);
	default:
		return S_ISSOCK(mode);
	}
}

static int
eval(struct expr *e, const char *path, struct stat *st)
{
	const char *base;

	switch (e->op) {
	case P_NAME:
		base = strrchr(path, '/');
		base = base != NULL && base[1] != '\0' ? base + 1 : path;
		return fnmatch(e->arg, base, 0) == 0;
	case P_TYPE:
		return typeis(st->st_mode, *e->arg);
	case P_NEWER:
		return st->st_mtime > e->mtime;
	case P_PRINT:
		printf("%s\n", path);
		return 1;
	case P_EXEC:
		return runexec(e->argv, path);
	case P_PRUNE:
		pruned = 1;
		return 1;
	case P_TRUE:
		return 1;
	case O_NOT:
		return !eval(e->left, path, st);
	case O_AND:
		return eval(e->left, path, st) && eval(e->right, path, st);
	case O_OR:
		return eval(e->left, path, st) || eval(e->right, path, st);
	}
	return 0;
}

static void
walk(const char *path, struct expr *e)
{
	struct dirent *dp;
	struct stat st;
	char *sub;
	size_t len;
	DIR *dir;

	if (lstat(path, &st) < 0) {
		warn("%s", path);
		rval = 1;
		return;
	}
	pruned = 0;
	if (eval(e, path, &st) && needprint)
		printf("%s\n", path);
	if (!S_ISDIR(st.st_mode) || pruned)
		return;
	if ((dir = opendir(path)) == NULL) {
		warn("%s", path);
		rval = 1;
		return;
	}
	len = strlen(path);
	while ((dp = readdir(dir)) != NULL) {
		if (strcmp(dp->d_name, ".") == 0 || strcmp(dp->d_name, "..") == 0)
			continue;
		if ((sub = malloc(len + strlen(dp->d_name) + 2)) == NULL)
			err(1, NULL);
		if (len > 0 && path[len - 1] == '/')
			sprintf(sub, "%s%s", path, dp->d_name);
		else
			sprintf(sub, "%s/%s", path, dp->d_name);
		walk(sub, e);
		free(sub);
	}
	closedir(dir);
}

int
main(int argc, char *argv[])
{
	struct expr *e;
	int npaths, i;

	if (argc < 2)
		usage();
	for (npaths = 1; npaths < argc; npaths++) {
		if (argv[npaths][0] == '-' || strcmp(argv[npaths], "!") == 0 ||
		    strcmp(argv[npaths], "(") == 0)
			break;
	}
	if (npaths == 1)
		usage();
	args = argv + npaths;
	e = *args != NULL ? orexpr() : mkexpr(P_TRUE, NULL, NULL);
	if (*args != NULL)
		errx(1, "%s: unexpected", *args);
	for (i = 1; i < npaths; i++)
		walk(argv[i], e);
	if (fflush(stdout) == EOF)
		rval = 1;
	return rval;
}
