/*
 * sed: the stream editor.
 *
 *	sed [-En] [-i[suffix]] script [file ...]
 *	sed [-En] [-i[suffix]] [-e script] ... [-f script_file] ... [file ...]
 *
 * -i edits each file in place (keeping the old one as file+suffix if a
 * suffix is given); the files are then separate streams.
 *
 * The script is compiled first into an array of commands, each with up
 * to two addresses (a line number, $ or /re/) and its arguments; '{'
 * knows where its '}' is and b and t know their label's index.  Then
 * each input line is read into the pattern space and the commands run
 * over it in order; at the end of the script the pattern space is
 * written (unless -n) and the text queued by a and r is written
 * after it.  Input is read one line ahead, so that $ knows the last
 * line of the last file.
 *
 * main.c reads the options and the script's text, compile.c makes
 * the commands of it, process.c runs them over the input.
 *
 * Regular expressions are libc's (regcomp(3)): basic, or extended with
 * -E; \n in one stands for a newline, and an empty one for the last one
 * used.  They are matched with REG_STARTEND over the pattern space's
 * length, so a NUL byte in a line is a character like any other.
 */
#include <ctype.h>
#include <err.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

int nflag, rflags;
const char *inplace;

static void
usage(void)
{
	fprintf(stderr, "usage: sed [-En] [-i[suffix]] script [file ...]\n"
	    "       sed [-En] [-i[suffix]] [-e script] ... [-f script_file] ..."
	    " [file ...]\n");
	exit(1);
}

void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL)
		err(1, "out of memory");
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xrealloc(NULL, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
sadd(struct str *d, const char *s, size_t n)
{
	if (d->len + n + 1 > d->cap) {
		d->cap = (d->len + n + 1) * 2;
		d->s = xrealloc(d->s, d->cap);
	}
	memcpy(d->s + d->len, s, n);
	d->len += n;
	d->s[d->len] = '\0';
}

void
sset(struct str *d, const char *s, size_t n)
{
	d->len = 0;
	sadd(d, s, n);
}

static void
addscript(struct str *s, const char *text, size_t n)
{
	sadd(s, text, n);
	sadd(s, "\n", 1);
}

int
main(int argc, char *argv[])
{
	static char *stdinonly[] = { "-", NULL };
	struct str all = { NULL, 0, 0 };
	char buf[4096];
	FILE *fp;
	size_t n;
	int ch, have = 0, i, j;

	/*
	 * -i[suffix], GNU's form (the suffix joined to it), taken out of
	 * the arguments before getopt sees them.
	 */
	for (i = j = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				argv[j++] = argv[i++];
			break;
		}
		if (strncmp(argv[i], "-i", 2) == 0)
			inplace = argv[i] + 2;
		else
			argv[j++] = argv[i];
	}
	argc = j;
	argv[argc] = NULL;
	while ((ch = getopt(argc, argv, "Ee:f:nr")) != -1) {
		switch (ch) {
		case 'E':
		case 'r':
			rflags = REG_EXTENDED;
			break;
		case 'e':
			addscript(&all, optarg, strlen(optarg));
			have = 1;
			break;
		case 'f':
			if ((fp = fopen(optarg, "r")) == NULL)
				err(1, "%s", optarg);
			while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
				sadd(&all, buf, n);
			sadd(&all, "\n", 1);
			fclose(fp);
			have = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!have) {
		if (argc == 0)
			usage();
		addscript(&all, argv[0], strlen(argv[0]));
		argc--;
		argv++;
	}
	compile(all.s);
	process(argc > 0 ? argv : stdinonly);
}
