/*
 * Aliases: alias name=value, alias [name ...], unalias [-a] name ...
 *
 * The table is a list of names and values in malloc'ed memory.  The
 * replacement itself happens in the lexer (lex.c), when it reads a word
 * where a command name may come: a definition takes effect from the next
 * command line read, not on the line that makes it, as in every shell
 * that parses a line before it runs it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh.h"

struct alias {
	struct alias *next;
	char	*name;
	char	*value;
};

static struct alias *aliases;

static struct alias **
findalias(const char *name, size_t len)
{
	struct alias **app;

	for (app = &aliases; *app != NULL; app = &(*app)->next)
		if (strncmp((*app)->name, name, len) == 0 &&
		    (*app)->name[len] == '\0')
			break;
	return app;
}

const char *
lookupalias(const char *name)
{
	struct alias *ap;

	if ((ap = *findalias(name, strlen(name))) == NULL)
		return NULL;
	return ap->value;
}

/* name=value: the name is up to the first '='. */
static void
setalias(const char *def)
{
	struct alias **app, *ap;
	const char *eq;

	eq = strchr(def, '=');
	app = findalias(def, eq - def);
	if ((ap = *app) == NULL) {
		ap = ckmalloc(sizeof(*ap));
		ap->name = ckmalloc(eq - def + 1);
		memcpy(ap->name, def, eq - def);
		ap->name[eq - def] = '\0';
		ap->next = NULL;
		*app = ap;
	} else
		free(ap->value);
	ap->value = savestr(eq + 1);
}

/*
 * prefix name='value', quoted so that the shell can read it back (alias
 * prints it with no prefix, command -v with "alias ").
 */
void
printalias(const char *prefix, const char *name)
{
	const char *s;

	printf("%s%s='", prefix, name);
	for (s = lookupalias(name); *s != '\0'; s++) {
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
	}
	printf("'\n");
}

static int
aliascmp(const void *a, const void *b)
{
	return strcmp((*(struct alias *const *)a)->name,
	    (*(struct alias *const *)b)->name);
}

int
aliascmd(int argc, char **argv)
{
	struct alias *ap, **list;
	int i, n, status;

	if (argc > 1 && argv[1][0] == '-' && strcmp(argv[1], "--") != 0) {
		shwarn("alias: usage: alias [name[=value] ...]");
		return 2;
	}
	if (argc == 1) {
		/* all of them, sorted by name */
		n = 0;
		for (ap = aliases; ap != NULL; ap = ap->next)
			n++;
		list = stalloc((n + 1) * sizeof(*list));
		n = 0;
		for (ap = aliases; ap != NULL; ap = ap->next)
			list[n++] = ap;
		qsort(list, n, sizeof(*list), aliascmp);
		for (i = 0; i < n; i++)
			printalias("", list[i]->name);
		return 0;
	}
	status = 0;
	for (i = 1; i < argc; i++) {
		if (i == 1 && strcmp(argv[i], "--") == 0)
			continue;
		if (strchr(argv[i], '=') != NULL && argv[i][0] != '=')
			setalias(argv[i]);
		else if (lookupalias(argv[i]) != NULL)
			printalias("", argv[i]);
		else {
			shwarn("alias: %s: not found", argv[i]);
			status = 1;
		}
	}
	return status;
}

static void
freealias(struct alias **app)
{
	struct alias *ap;

	ap = *app;
	*app = ap->next;
	free(ap->name);
	free(ap->value);
	free(ap);
}

int
unaliascmd(int argc, char **argv)
{
	struct alias **app;
	int i, status;

	if (argc == 2 && strcmp(argv[1], "-a") == 0) {
		while (aliases != NULL)
			freealias(&aliases);
		return 0;
	}
	i = 1;
	if (argc > 1 && strcmp(argv[1], "--") == 0)
		i++;
	if (i >= argc || (i == 1 && argv[1][0] == '-')) {
		shwarn("unalias: usage: unalias -a | name ...");
		return 2;
	}
	status = 0;
	for (; i < argc; i++) {
		app = findalias(argv[i], strlen(argv[i]));
		if (*app == NULL) {
			shwarn("unalias: %s: not found", argv[i]);
			status = 1;
		} else
			freealias(app);
	}
	return status;
}
