/*
 * Reading a makefile.
 *
 * A logical line (a backslash at the end of a line joins it to the next;
 * a # starts a comment) is one of:
 *	NAME = value	(also :=, +=, ?=)	a variable assignment
 *	targets: prerequisites [; command]	a rule
 *	<tab>command				a command of the last rule
 * A rule's targets and prerequisites are expanded when it is read.  A
 * target named by several rules collects all their prerequisites; only
 * one of them may have commands.  Special targets: .SUFFIXES (its
 * prerequisites are added to the suffix list; with none, the list is
 * emptied), .PHONY (targets that are never files).  A target ".c.o" made
 * of two known suffixes is a suffix rule: how to make a .o from a .c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "make.h"

#define NBUCKET	256

static struct gnode *table[NBUCKET];
struct gnode *first_target;		/* the default goal */
struct strlist suffixes;

static const char *fname;		/* for messages */
static int lineno;

static unsigned
hash(const char *s)
{
	unsigned h = 0;

	while (*s)
		h = h * 31 + (unsigned char)*s++;
	return h % NBUCKET;
}

struct gnode *
gn_find(const char *name, int create)
{
	struct gnode *gn;
	unsigned h = hash(name);

	for (gn = table[h]; gn != NULL; gn = gn->next)
		if (strcmp(gn->name, name) == 0)
			return gn;
	if (!create)
		return NULL;
	gn = emalloc(sizeof(*gn));
	memset(gn, 0, sizeof(*gn));
	gn->name = estrdup(name);
	gn->next = table[h];
	table[h] = gn;
	return gn;
}

static void
parse_error(const char *msg)
{
	fprintf(stderr, "make: \"%s\" line %d: %s\n", fname, lineno, msg);
	exit(2);
}

/* Read one logical line; NULL at the end.  *cmd: it began with a tab. */
static char *
getline_joined(FILE *f, int *cmd)
{
	static char *buf;
	static size_t cap;
	size_t len = 0;
	int c, start = 1;

	*cmd = 0;
	for (;;) {
		c = getc(f);
		if (c == EOF && len == 0 && start)
			return NULL;
		if (len + 2 > cap) {
			cap = cap ? cap * 2 : 256;
			if ((buf = realloc(buf, cap)) == NULL)
				parse_error("out of memory");
		}
		if (start && c == '\t' && len == 0)
			*cmd = 1;
		start = 0;
		if (c == EOF || c == '\n') {
			lineno++;
			if (len > 0 && buf[len - 1] == '\\' && c != EOF) {
				/* join: the backslash, newline and the next
				 * line's leading blanks become one space */
				buf[len - 1] = ' ';
				while ((c = getc(f)) == ' ' || c == '\t')
					continue;
				if (c != EOF)
					ungetc(c, f);
				continue;
			}
			buf[len] = '\0';
			return buf;
		}
		buf[len++] = c;
	}
}

/* Cut a # comment (not in a command line, where the shell sees it). */
static void
strip_comment(char *s)
{
	char *p;

	for (p = s; *p; p++)
		if (*p == '#' && (p == s || p[-1] != '\\')) {
			*p = '\0';
			return;
		}
}

static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Split an expanded word list; calls fn for each word. */
static void
each_word(char *s, void (*fn)(const char *, void *), void *arg)
{
	char *w;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			return;
		for (w = s; *s != '\0' && *s != ' ' && *s != '\t'; s++)
			continue;
		if (*s != '\0')
			*s++ = '\0';
		fn(w, arg);
	}
}

static void
add_word(const char *w, void *arg)
{
	sl_add(arg, w);
}

static int
assignment(char *line)
{
	char *eq = strchr(line, '='), *name, *value, op = '=';
	char *colon = strchr(line, ':');
	char *old, *both;

	if (eq == NULL || (colon != NULL && colon < eq - 1))
		return 0;
	if (eq > line && (eq[-1] == ':' || eq[-1] == '+' || eq[-1] == '?')) {
		op = eq[-1];
		eq[-1] = '\0';
	}
	*eq = '\0';
	name = trim(line);
	value = trim(eq + 1);
	if (*name == '\0' || strpbrk(name, " \t") != NULL)
		parse_error("bad variable name");
	switch (op) {
	case ':':
		value = expand(value);
		var_set(name, value, 0);
		free(value);
		break;
	case '+':
		old = (char *)var_get(name);
		if (old == NULL || *old == '\0') {
			var_set(name, value, 0);
			break;
		}
		both = emalloc(strlen(old) + strlen(value) + 2);
		sprintf(both, "%s %s", old, value);
		var_set(name, both, 0);
		free(both);
		break;
	case '?':
		if (var_get(name) == NULL)
			var_set(name, value, 0);
		break;
	default:
		var_set(name, value, 0);
	}
	return 1;
}

static void command(const char *);

static struct strlist cur;		/* the targets of the last rule */
static int rule_serial;			/* which rule that was */

static void
rule(char *line)
{
	char *colon = strchr(line, ':'), *semi, *tl, *pl;
	struct strlist targets = { 0 }, prereqs = { 0 };
	int i, j;

	semi = strchr(colon, ';');
	if (semi != NULL)
		*semi++ = '\0';
	*colon = '\0';
	tl = expand(line);
	pl = expand(colon + 1);
	each_word(tl, add_word, &targets);
	each_word(pl, add_word, &prereqs);
	if (targets.n == 0)
		parse_error("rule without a target");
	cur.n = 0;
	rule_serial++;
	for (i = 0; i < targets.n; i++) {
		const char *t = targets.v[i];
		struct gnode *gn;

		if (strcmp(t, ".SUFFIXES") == 0) {
			if (prereqs.n == 0)
				suffixes.n = 0;
			for (j = 0; j < prereqs.n; j++)
				if (!sl_has(&suffixes, prereqs.v[j]))
					sl_add(&suffixes, prereqs.v[j]);
			continue;
		}
		if (strcmp(t, ".PHONY") == 0) {
			for (j = 0; j < prereqs.n; j++)
				gn_find(prereqs.v[j], 1)->phony = 1;
			continue;
		}
		gn = gn_find(t, 1);
		if (first_target == NULL && t[0] != '.')
			first_target = gn;
		for (j = 0; j < prereqs.n; j++)
			sl_add(&gn->prereqs, prereqs.v[j]);
		sl_add(&cur, t);
	}
	if (semi != NULL) {
		semi = trim(semi);
		if (*semi != '\0')
			command(semi);
	}
	free(tl);
	free(pl);
}

/* A command of the current rule's targets; a later rule's commands replace an earlier one's. */
static void
command(const char *line)
{
	int i;

	if (cur.n == 0)
		parse_error("a command outside a rule");
	for (i = 0; i < cur.n; i++) {
		struct gnode *gn = gn_find(cur.v[i], 1);

		if (gn->has_cmds != rule_serial) {
			if (gn->has_cmds > 0)
				fprintf(stderr, "make: \"%s\" line %d: "
				    "new commands for %s replace the old\n",
				    fname, lineno, gn->name);
			gn->cmds.n = 0;
			gn->has_cmds = rule_serial;
		}
		sl_add(&gn->cmds, line);
	}
}

int
parse_file(const char *path)
{
	FILE *f;
	char *line, *s;
	int cmd;

	if (strcmp(path, "-") == 0)
		f = stdin;
	else if ((f = fopen(path, "r")) == NULL)
		return -1;
	fname = path;
	lineno = 0;
	while ((line = getline_joined(f, &cmd)) != NULL) {
		if (cmd) {
			s = line + 1;
			if (*trim(s) != '\0' && *s != '#')
				command(s);
			continue;
		}
		strip_comment(line);
		s = trim(line);
		if (*s == '\0')
			continue;
		if (assignment(s))
			cur.n = 0;
		else if (strchr(s, ':') != NULL)
			rule(s);
		else
			parse_error("need an operator");
	}
	if (f != stdin)
		fclose(f);
	return 0;
}
