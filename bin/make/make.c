/*
 * Making a target: depth first through its prerequisites, then its
 * commands if it is out of date.
 *
 * A target is out of date when it does not exist, is .PHONY, or a
 * prerequisite is newer than it (modification times to the nanosecond)
 * or was just remade.  A target without commands of its own takes them
 * from a suffix rule: for "x.o", the first suffix S in the .SUFFIXES
 * list with a rule "S.o" and a file "xS" that exists (or a target "xS"
 * that can be made); "xS" becomes its first prerequisite, $<.  A target
 * with no known suffix may use a single-suffix rule, ".c" for "x" from
 * "x.c".
 *
 * Commands run one at a time, each through "sh -c" (or directly when
 * the shell would have nothing to do), echoed first unless
 * they start with @ (or -s); a leading - ignores the command's status;
 * with -n they are only echoed, except those starting with + or naming
 * $(MAKE) (a sub-make, which is then given -n too).
 * A failed command prints "*** Error code N"; make then stops with
 * status 1, or with -k goes on with the targets that do not depend on
 * the failed one and exits 1 at the end.
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "make.h"

static void
stop(void)
{
	char dir[1024];

	printf("\nStop.\n");
	if (getcwd(dir, sizeof(dir)) != NULL)
		printf("make: stopped in %s\n", dir);
	fflush(stdout);
	exit(1);
}

/* The file's modification time; 0 (and -1 returned) if there is none. */
static int
file_mtime(const char *name, struct timespec *ts)
{
	struct stat st;

	if (stat(name, &st) < 0) {
		ts->tv_sec = ts->tv_nsec = 0;
		return -1;
	}
	*ts = st.st_mtimespec;
	return 0;
}

static int
newer(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec ||
	    (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

static const char *
suffix_of(const char *name)
{
	const char *best = NULL;
	int i;
	size_t n = strlen(name);

	for (i = 0; i < suffixes.n; i++) {
		size_t sl = strlen(suffixes.v[i]);

		if (sl < n && strcmp(name + n - sl, suffixes.v[i]) == 0 &&
		    (best == NULL || sl > strlen(best)))
			best = suffixes.v[i];
	}
	return best;
}

/* Can the file be had: it exists, or some rule makes it. */
static int
can_make(const char *name)
{
	struct stat st;
	struct gnode *gn;

	if (stat(name, &st) == 0)
		return 1;
	gn = gn_find(name, 0);
	return gn != NULL && (gn->has_cmds || gn->prereqs.n > 0);
}

/*
 * Find the suffix rule for gn; returns its node and sets *src to the
 * implied source file and *stem to the name less its suffix.
 */
static struct gnode *
suffix_rule(struct gnode *gn, char **src, char **stem)
{
	const char *ts = suffix_of(gn->name);
	size_t base = strlen(gn->name) - (ts ? strlen(ts) : 0);
	char rname[128];
	struct gnode *r;
	int i;

	for (i = 0; i < suffixes.n; i++) {
		const char *ss = suffixes.v[i];

		if (strlen(ss) + (ts ? strlen(ts) : 0) >= sizeof(rname))
			continue;
		snprintf(rname, sizeof(rname), "%s%s", ss, ts ? ts : "");
		if ((r = gn_find(rname, 0)) == NULL || !r->has_cmds)
			continue;
		*stem = emalloc(base + 1);
		memcpy(*stem, gn->name, base);
		(*stem)[base] = '\0';
		*src = emalloc(base + strlen(ss) + 1);
		sprintf(*src, "%s%s", *stem, ss);
		if (can_make(*src))
			return r;
		free(*src);
		free(*stem);
	}
	return NULL;
}

/*
 * Run one command line; returns its exit status.  As in BSD make, a line
 * with nothing for the shell to do (no metacharacter, no quote) is split
 * at blanks and run directly: one process fewer per compile.
 */
static int
run(const char *cmd)
{
	char *words[64], *copy, *w;
	pid_t pid;
	int status, n = 0;

	fflush(stdout);
	if ((pid = fork()) < 0) {
		perror("make: fork");
		return 1;
	}
	if (pid == 0) {
		if (strpbrk(cmd, "#=|^(){};&<>*?[]:$`'\"\\\n~") == NULL) {
			copy = estrdup(cmd);
			for (w = strtok(copy, " \t"); w != NULL && n < 63;
			    w = strtok(NULL, " \t"))
				words[n++] = w;
			words[n] = NULL;
			if (n > 0 && n < 63 && strcmp(words[0], "cd") != 0) {
				execvp(words[0], words);
				fprintf(stderr, "make: %s: %s\n", words[0],
				    strerror(errno));
				_exit(127);
			}
		}
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		perror("make: /bin/sh");
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Run gn's commands (cmds); returns 0, or 1 if one failed. */
static int
run_commands(struct gnode *gn, struct strlist *cmds)
{
	int i, status;

	for (i = 0; i < cmds->n; i++) {
		char *line = expand(cmds->v[i]), *c = line;
		int silent = sflag, ignore = iflag, always = 0;

		/* a line that runs $(MAKE) runs even with -n, which it passes on */
		if (strstr(cmds->v[i], "$(MAKE)") || strstr(cmds->v[i], "${MAKE}"))
			always = 1;

		for (;; c++) {
			if (*c == '@')
				silent = 1;
			else if (*c == '-')
				ignore = 1;
			else if (*c == '+')
				always = 1;
			else if (*c != ' ' && *c != '\t')
				break;
		}
		if (!silent || nflag) {
			printf("%s\n", c);
			fflush(stdout);
		}
		if (nflag && !always) {
			free(line);
			continue;
		}
		status = *c ? run(c) : 0;
		free(line);
		if (status == 0)
			continue;
		printf("*** Error code %d%s\n", status, ignore ? " (ignored)" :
		    kflag ? " (continuing)" : "");
		fflush(stdout);
		if (ignore)
			continue;
		if (!kflag)
			stop();
		(void)gn;
		return 1;
	}
	return 0;
}

/* The words of a list joined by blanks, each once. */
static char *
join(struct strlist *l, int from)
{
	size_t n = 1;
	char *s;
	int i, j;

	for (i = from; i < l->n; i++)
		n += strlen(l->v[i]) + 1;
	s = emalloc(n);
	s[0] = '\0';
	for (i = from; i < l->n; i++) {
		for (j = from; j < i; j++)
			if (strcmp(l->v[i], l->v[j]) == 0)
				break;
		if (j < i)
			continue;
		if (s[0] != '\0')
			strcat(s, " ");
		strcat(s, l->v[i]);
	}
	return s;
}

/* Make a target; returns 0 when it is up to date, 1 when it failed. */
int
make_target(const char *name)
{
	struct gnode *gn = gn_find(name, 1), *rule = NULL;
	struct strlist all = { 0 }, newerl = { 0 };
	struct strlist *cmds = &gn->cmds;
	char *src = NULL, *stem = NULL, *a, *nw;
	struct timespec mt;
	int i, failed = 0, exists, outdated, remade_prereq = 0;

	switch (gn->state) {
	case MADE:
		return 0;
	case FAILED:
		return 1;
	case BEING_MADE:
		fprintf(stderr, "make: circular dependency on %s dropped\n", name);
		return 0;
	}
	gn->state = BEING_MADE;
	if (!gn->has_cmds && (rule = suffix_rule(gn, &src, &stem)) != NULL) {
		cmds = &rule->cmds;
		sl_add(&all, src);
	}
	for (i = 0; i < gn->prereqs.n; i++)
		sl_add(&all, gn->prereqs.v[i]);

	for (i = 0; i < all.n; i++)
		if (make_target(all.v[i]) != 0)
			failed = 1;
	if (failed) {
		gn->state = FAILED;
		return 1;
	}

	exists = file_mtime(gn->name, &gn->mtime) == 0;
	outdated = !exists || gn->phony;
	for (i = 0; i < all.n; i++) {
		struct gnode *p = gn_find(all.v[i], 0);

		if (p == NULL)
			continue;
		if (p->remade || (exists && newer(&p->mtime, &gn->mtime))) {
			remade_prereq = 1;
			sl_add(&newerl, all.v[i]);
		}
	}
	outdated |= remade_prereq;
	if (!outdated) {
		gn->state = MADE;
		return 0;
	}
	if (cmds->n == 0) {
		if (!exists && all.n == 0 && !gn->phony) {
			printf("make: don't know how to make %s.%s\n", gn->name,
			    kflag ? " (continuing)" : " Stop");
			fflush(stdout);
			if (!kflag)
				exit(2);
			gn->state = FAILED;
			return 1;
		}
		/* nothing to run: a source file, or a list of others */
		gn->remade = remade_prereq || !exists;
		gn->state = MADE;
		return 0;
	}

	a = join(&all, 0);
	nw = join(&newerl, 0);
	if (stem == NULL) {
		const char *s = suffix_of(gn->name);
		size_t n = strlen(gn->name) - (s ? strlen(s) : 0);

		stem = emalloc(n + 1);
		memcpy(stem, gn->name, n);
		stem[n] = '\0';
	}
	set_local(gn->name, all.n ? all.v[0] : "", a, stem, nw);
	failed = run_commands(gn, cmds);
	set_local("", "", "", "", "");
	free(a);
	free(nw);
	free(stem);
	free(src);
	if (failed) {
		gn->state = FAILED;
		return 1;
	}
	gn->remade = 1;
	if (file_mtime(gn->name, &mt) == 0)
		gn->mtime = mt;
	gn->state = MADE;
	return 0;
}
