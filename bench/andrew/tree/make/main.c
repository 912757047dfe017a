/*
 * make: maintain program dependencies.
 *	make [-ikns] [-f makefile] [-j 1] [name=value ...] [target ...]
 * -f: read this makefile ("-": the standard input); more than one may be
 *     given.  Without -f: "makefile", else "Makefile".
 * -i: ignore the exit status of every command.
 * -k: after a failure, go on making what does not depend on it.
 * -n: print the commands that would run, run none.
 * -s: do not echo the commands.
 * -j: jobs at a time; this make runs one, so only -j 1 is accepted.
 * name=value sets a variable that the makefile cannot change.  Without a
 * target, the first target of the makefile is made.
 *
 * Built in, before the makefile is read (4.4BSD's sys.mk, smaller):
 *	.SUFFIXES: .o .c
 *	.c.o:	$(CC) $(CFLAGS) -c $<
 *	.c:	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<
 * with CC=cc and CFLAGS=-O.
 *
 * Exit status, as BSD make's: 0 when everything is up to date or was
 * made; 1 when a command failed (at once, or at the end with -k); 2 for a
 * bad option or makefile, or a target it does not know how to make.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "make.h"

int nflag, kflag, sflag, iflag;

void *
emalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL) {
		fprintf(stderr, "make: out of memory\n");
		exit(2);
	}
	return p;
}

char *
estrdup(const char *s)
{
	char *p = emalloc(strlen(s) + 1);

	strcpy(p, s);
	return p;
}

void
sl_add(struct strlist *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = realloc(l->v, l->cap * sizeof(char *));
		if (l->v == NULL) {
			fprintf(stderr, "make: out of memory\n");
			exit(2);
		}
	}
	l->v[l->n++] = estrdup(s);
}

int
sl_has(const struct strlist *l, const char *s)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return 1;
	return 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: make [-ikns] [-f makefile] [-j 1] "
	    "[name=value ...] [target ...]\n");
	exit(2);
}

static void
builtin_rules(void)
{
	struct gnode *gn;

	var_set("CC", "cc", 0);
	var_set("CFLAGS", "-O", 0);
	var_set("MAKE", "make", 0);
	sl_add(&suffixes, ".o");
	sl_add(&suffixes, ".c");
	gn = gn_find(".c.o", 1);
	gn->has_cmds = -1;
	sl_add(&gn->cmds, "$(CC) $(CFLAGS) -c $<");
	gn = gn_find(".c", 1);
	gn->has_cmds = -1;
	sl_add(&gn->cmds, "$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<");
}

int
main(int argc, char *argv[])
{
	struct strlist files = { 0 }, goals = { 0 };
	int ch, i, status = 0;

	while ((ch = getopt(argc, argv, "f:ij:kns")) != -1) {
		switch (ch) {
		case 'f':
			sl_add(&files, optarg);
			break;
		case 'i':
			iflag = 1;
			break;
		case 'j':
			if (atoi(optarg) != 1) {
				fprintf(stderr, "make: only -j 1: commands run one at a time\n");
				exit(2);
			}
			break;
		case 'k':
			kflag = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		default:
			usage();
		}
	}
	builtin_rules();
	for (i = optind; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (eq != NULL) {
			char *name = estrdup(argv[i]);

			name[eq - argv[i]] = '\0';
			var_set(name, eq + 1, 1);
			free(name);
		} else
			sl_add(&goals, argv[i]);
	}
	if (files.n == 0) {
		if (access("makefile", F_OK) == 0)
			sl_add(&files, "makefile");
		else if (access("Makefile", F_OK) == 0)
			sl_add(&files, "Makefile");
	}
	for (i = 0; i < files.n; i++)
		if (parse_file(files.v[i]) < 0) {
			fprintf(stderr, "make: cannot open %s\n", files.v[i]);
			exit(2);
		}
	if (goals.n == 0) {
		if (first_target == NULL) {
			fprintf(stderr, "make: no target to make.\n");
			exit(2);
		}
		sl_add(&goals, first_target->name);
	}
	for (i = 0; i < goals.n; i++) {
		struct gnode *gn = gn_find(goals.v[i], 1);
		int ran;

		if (make_target(goals.v[i]) != 0) {
			printf("`%s' not remade because of errors.\n", goals.v[i]);
			status = 1;
			continue;
		}
		ran = gn->remade;
		if (!ran && !nflag)
			printf("`%s' is up to date.\n", goals.v[i]);
	}
	fflush(stdout);
	return status;
}
