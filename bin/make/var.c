/*
 * Variables and their expansion.
 *
 * Three sources, the later winning: the environment, the makefile, the
 * command line (NAME=value arguments, which the makefile cannot change).
 * Values are stored unexpanded ("=") or expanded once (":="); a
 * reference is expanded when it is used:
 *	$(NAME) ${NAME} $N	the value (N one character)
 *	$(NAME:.c=.o)		the value with each word's suffix .c made .o
 *	$$			a dollar sign
 *	$@ $< $^ $* $?		while a target is made: the target, its first
 *				prerequisite, all of them, the target less its
 *				suffix, the prerequisites newer than it
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "make.h"

struct var {
	char	*name, *value;
	int	cmdline;
	struct var *next;
};

static struct var *vars;
static const char *loc_target = "", *loc_first = "", *loc_all = "",
    *loc_stem = "", *loc_newer = "";

static struct var *
lookup(const char *name)
{
	struct var *v;

	for (v = vars; v != NULL; v = v->next)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

void
var_set(const char *name, const char *value, int cmdline)
{
	struct var *v = lookup(name);

	if (v == NULL) {
		v = emalloc(sizeof(*v));
		v->name = estrdup(name);
		v->value = NULL;
		v->cmdline = 0;
		v->next = vars;
		vars = v;
	} else if (v->cmdline && !cmdline)
		return;			/* the command line wins */
	free(v->value);
	v->value = estrdup(value);
	v->cmdline |= cmdline;
}

const char *
var_get(const char *name)
{
	struct var *v = lookup(name);

	if (v != NULL)
		return v->value;
	return getenv(name);
}

void
set_local(const char *target, const char *first, const char *all,
    const char *stem, const char *newer)
{
	loc_target = target;
	loc_first = first;
	loc_all = all;
	loc_stem = stem;
	loc_newer = newer;
}

/* A growing output buffer. */
struct buf {
	char	*s;
	size_t	len, cap;
};

static void
put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (b->s == NULL) {
			fprintf(stderr, "make: out of memory\n");
			exit(2);
		}
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* $(NAME:from=to): replace the suffix "from" of each word by "to". */
static void
put_subst(struct buf *b, const char *value, const char *from, const char *to)
{
	size_t fl = strlen(from);
	const char *p = value, *w;
	int first = 1;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		for (w = p; *p != '\0' && *p != ' ' && *p != '\t'; p++)
			continue;
		if (!first)
			put(b, " ", 1);
		first = 0;
		if ((size_t)(p - w) >= fl && strncmp(p - fl, from, fl) == 0) {
			put(b, w, p - w - fl);
			put(b, to, strlen(to));
		} else
			put(b, w, p - w);
	}
}

/* The value of a reference's inside, "NAME" or "NAME:from=to", expanded. */
static void
put_ref(struct buf *b, const char *ref)
{
	char *name = expand(ref), *colon, *eq, *value;
	const char *v;

	colon = strchr(name, ':');
	eq = colon ? strchr(colon, '=') : NULL;
	if (eq != NULL)
		*colon = *eq = '\0';
	if (strcmp(name, "@") == 0)
		v = loc_target;
	else if (strcmp(name, "<") == 0)
		v = loc_first;
	else if (strcmp(name, "^") == 0)
		v = loc_all;
	else if (strcmp(name, "*") == 0)
		v = loc_stem;
	else if (strcmp(name, "?") == 0)
		v = loc_newer;
	else
		v = var_get(name);
	value = expand(v ? v : "");
	if (eq != NULL)
		put_subst(b, value, colon + 1, eq + 1);
	else
		put(b, value, strlen(value));
	free(value);
	free(name);
}

char *
expand(const char *s)
{
	struct buf b = { NULL, 0, 0 };
	const char *p, *end;
	char *ref;
	int depth;

	put(&b, "", 0);
	for (p = s; *p != '\0'; p++) {
		if (*p != '$') {
			put(&b, p, 1);
			continue;
		}
		p++;
		if (*p == '\0')
			break;
		if (*p == '$') {
			put(&b, "$", 1);
		} else if (*p == '(' || *p == '{') {
			char open = *p, close = *p == '(' ? ')' : '}';

			depth = 1;
			for (end = p + 1; *end != '\0'; end++) {
				if (*end == open)
					depth++;
				else if (*end == close && --depth == 0)
					break;
			}
			ref = emalloc(end - p);
			memcpy(ref, p + 1, end - p - 1);
			ref[end - p - 1] = '\0';
			put_ref(&b, ref);
			free(ref);
			if (*end == '\0')
				break;
			p = end;
		} else {
			char one[2] = { *p, '\0' };

			put_ref(&b, one);
		}
	}
	return b.s;
}
