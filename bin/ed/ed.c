/*
 * ed: the line editor.
 *	ed [-s] [-p prompt] [file]
 *
 * The buffer is an array of lines, numbered from 1; "." is the current
 * line and "$" the last.  A command is [address[,address]]command[args].
 * Addresses: N, ., $, /re/ and ?re? (next or previous line matching),
 * 'x (a mark set by k), each followed by +N or -N; "," alone is 1,$ and
 * ";" is .,$.
 *
 *	(.)a  (.)i  (.,.)c	append, insert, change: text lines follow,
 *				ended by a line holding only "."
 *	(.,.)d			delete
 *	(.,.)p  (.,.)n  (.,.)l	print (n: with numbers, l: showing tabs and $)
 *	(.,.)s/re/new/[g]	substitute (& in new: the match; \& and \/ literal)
 *	(.,.+1)j		join
 *	(.,.)m A  (.,.)t A	move, copy after line A
 *	(1,$)g/re/cmd  v/re/cmd	run cmd (one of the above) on each (non-)matching line
 *	(.)k x			mark
 *	u			undo the last change
 *	(1,$)w [file]  (.)r file  e file  f [file]	write, read, edit, file name
 *	($)=			line number
 *	q  Q			quit (q refuses once with unsaved changes)
 *	h  H			explain the last "?" (H: always)
 *	P			prompt on and off
 *	newline			print the next line
 *
 * Regular expressions are POSIX basic ones (<re.h>, over regcomp(3)).
 * An empty pattern reuses the last one.  Errors print "?".
 */
#include <ctype.h>
#include <re.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXLINE	4096

static char **buf;			/* buf[1..nlines] */
static int nlines, cap, cur;
static char **ubuf;			/* the buffer before the last change */
static int unlines, ucur, have_undo;
static int dirty, warned, sflag, verbose, prompt_on;
static const char *prompt = "*";
static char fname[1024];
static const char *errmsg = "";
static struct re *lastre;
static int marks[26];

static char cmdline[MAXLINE];
static const char *cp;			/* parse position in cmdline */

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL) {
		fprintf(stderr, "ed: out of memory\n");
		exit(2);
	}
	return p;
}

static char *
xstrdup(const char *s)
{
	char *p = xrealloc(NULL, strlen(s) + 1);

	strcpy(p, s);
	return p;
}

/* Lines are never freed: the undo copy may still point at them. */
static void
insert_line(int after, const char *text)
{
	if (nlines + 2 > cap) {
		cap = cap ? cap * 2 : 64;
		buf = xrealloc(buf, cap * sizeof(char *));
	}
	memmove(&buf[after + 2], &buf[after + 1],
	    (nlines - after) * sizeof(char *));
	buf[after + 1] = xstrdup(text);
	nlines++;
}

static void
delete_lines(int from, int to)
{
	int i;

	memmove(&buf[from], &buf[to + 1], (nlines - to) * sizeof(char *));
	nlines -= to - from + 1;
	for (i = 0; i < 26; i++)
		if (marks[i] >= from)
			marks[i] = marks[i] > to ? marks[i] - (to - from + 1) : 0;
}

static int in_global;			/* g's commands share one undo */

static void
save_undo(void)
{
	if (in_global)
		return;
	ubuf = xrealloc(ubuf, (nlines + 2) * sizeof(char *));
	memcpy(ubuf, buf, (nlines + 1) * sizeof(char *));
	unlines = nlines;
	ucur = cur;
	have_undo = 1;
}

static void
undo(void)
{
	char **tb = buf;
	int tn = nlines, tc = cur, tcap = cap;

	buf = ubuf;
	nlines = unlines;
	cur = ucur;
	cap = unlines + 2;
	ubuf = tb;
	unlines = tn;
	ucur = tc;
	(void)tcap;
	dirty = 1;
}

/* Read a file after line `after'; returns bytes read or -1. */
static long
read_file(const char *name, int after)
{
	FILE *f = fopen(name, "r");
	char line[MAXLINE];
	long bytes = 0;
	size_t n;

	if (f == NULL) {
		errmsg = strerror(errno);	/* ed's words: the system's */
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		n = strlen(line);
		bytes += n;
		if (n > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		insert_line(after++, line);
	}
	fclose(f);
	cur = after;
	return bytes;
}

static long
write_file(const char *name, int from, int to)
{
	FILE *f = fopen(name, "w");
	long bytes = 0;
	int i;

	if (f == NULL) {
		errmsg = "cannot open output file";
		return -1;
	}
	for (i = from; i <= to && i > 0; i++) {
		fprintf(f, "%s\n", buf[i]);
		bytes += strlen(buf[i]) + 1;
	}
	if (fclose(f) != 0) {
		errmsg = "write error";
		return -1;
	}
	return bytes;
}

/* Read a delimited pattern at cp; NULL on error.  Empty: the last one. */
static struct re *
pattern(char delim)
{
	char pat[MAXLINE];
	int n = 0;

	while (*cp != delim && *cp != '\0' && *cp != '\n') {
		if (*cp == '\\' && cp[1] == delim)
			cp++;
		else if (*cp == '\\' && cp[1] != '\0')
			pat[n++] = *cp++;
		pat[n++] = *cp++;
	}
	pat[n] = '\0';
	if (*cp == delim)
		cp++;
	if (n == 0) {
		if (lastre == NULL)
			errmsg = "no previous pattern";
		return lastre;
	}
	if ((lastre = recompile(pat, 0)) == NULL)
		errmsg = "bad pattern";
	return lastre;
}

/* One address at cp; -1 if none, -2 on error. */
static int
address(void)
{
	int a = -1, n, i;
	struct re *re;
	char d;

	while (*cp == ' ')
		cp++;
	if (isdigit((unsigned char)*cp)) {
		a = strtol(cp, (char **)&cp, 10);
	} else if (*cp == '.') {
		a = cur;
		cp++;
	} else if (*cp == '$') {
		a = nlines;
		cp++;
	} else if (*cp == '\'' && islower((unsigned char)cp[1])) {
		a = marks[cp[1] - 'a'];
		cp += 2;
		if (a == 0) {
			errmsg = "mark not set";
			return -2;
		}
	} else if (*cp == '/' || *cp == '?') {
		d = *cp++;
		if ((re = pattern(d)) == NULL)
			return -2;
		for (i = 1; i <= nlines; i++) {
			n = d == '/' ? (cur + i - 1) % nlines + 1 :
			    (cur - i + nlines - 1) % nlines + 1;
			if (rematch(re, buf[n])) {
				a = n;
				break;
			}
		}
		if (a < 0) {
			errmsg = "no match";
			return -2;
		}
	}
	while (*cp == '+' || *cp == '-') {
		int sign = *cp++ == '+' ? 1 : -1;

		if (a < 0)
			a = cur;
		n = isdigit((unsigned char)*cp) ? strtol(cp, (char **)&cp, 10) : 1;
		a += sign * n;
	}
	if (a > nlines || a < -1 || (a < 0 && a != -1)) {
		errmsg = "invalid address";
		return -2;
	}
	return a;
}

/* Parse the addresses; returns how many were given, -1 on error. */
static int
addresses(int *a1, int *a2)
{
	int a, n = 0;

	*a1 = *a2 = cur;
	if (*cp == ',' || *cp == ';') {
		*a1 = *cp == ',' ? 1 : cur;
		*a2 = nlines;
		cp++;
		n = 2;
		if ((a = address()) == -2)
			return -1;
		if (a >= 0)
			*a2 = a;
		return n;
	}
	if ((a = address()) == -2)
		return -1;
	if (a < 0)
		return 0;
	*a1 = *a2 = a;
	n = 1;
	while (*cp == ',' || *cp == ';') {
		if (*cp++ == ';')
			cur = *a2;
		if ((a = address()) == -2)
			return -1;
		*a1 = *a2;
		*a2 = a < 0 ? nlines : a;
		n = 2;
	}
	return n;
}

/* Text lines for a, i, c, up to a line holding ".". */
static void
input_text(int after)
{
	char line[MAXLINE];
	size_t n;

	while (fgets(line, sizeof(line), stdin) != NULL) {
		n = strlen(line);
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (strcmp(line, ".") == 0)
			break;
		insert_line(after++, line);
		dirty = 1;
	}
	cur = after;
}

static void
print_line(int i, char how)
{
	const char *s;

	if (how == 'n')
		printf("%d\t", i);
	if (how != 'l') {
		printf("%s\n", buf[i]);
		return;
	}
	for (s = buf[i]; *s; s++) {
		if (*s == '\t')
			printf("\\t");
		else if (*s == '\\')
			printf("\\\\");
		else if (!isprint((unsigned char)*s))
			printf("\\%03o", (unsigned char)*s);
		else
			putchar(*s);
	}
	printf("$\n");
}

/* s/re/new/[g]: returns 1 if some line changed, 0 if none, -1 on error. */
static int
substitute(int a1, int a2)
{
	char delim = *cp, repl[MAXLINE], out[MAXLINE * 2];
	struct re *re;
	int i, n = 0, gflag = 0, any = 0;
	const char *from, *so, *eo, *r;

	if (delim == '\0' || delim == ' ' || delim == '\n') {
		errmsg = "bad delimiter";
		return -1;
	}
	cp++;
	if ((re = pattern(delim)) == NULL)
		return -1;
	while (*cp != delim && *cp != '\0' && *cp != '\n') {
		if (*cp == '\\' && (cp[1] == delim || cp[1] == '&')) {
			repl[n++] = cp[1] == '&' ? '\001' : cp[1];
			cp += 2;
			continue;
		}
		repl[n++] = *cp++;
	}
	repl[n] = '\0';
	if (*cp == delim)
		cp++;
	if (*cp == 'g') {
		gflag = 1;
		cp++;
	}
	for (i = a1; i <= a2; i++) {
		size_t o = 0;
		int changed = 0;

		from = buf[i];
		while (*from != '\0' || !changed) {
			if (!reexec(re, buf[i], from, &so, &eo))
				break;
			memcpy(out + o, from, so - from);
			o += so - from;
			for (r = repl; *r; r++) {
				if (*r == '&') {
					memcpy(out + o, so, eo - so);
					o += eo - so;
				} else
					out[o++] = *r == '\001' ? '&' : *r;
			}
			changed = 1;
			if (eo == so) {		/* empty match: step over a char */
				if (*eo == '\0') {
					from = eo;
					break;
				}
				out[o++] = *eo++;
			}
			from = eo;
			if (!gflag || o > MAXLINE)
				break;
		}
		if (!changed)
			continue;
		strcpy(out + o, from);
		if (!any)
			save_undo();
		buf[i] = xstrdup(out);
		cur = i;
		any = dirty = 1;
	}
	if (!any)
		errmsg = "no match";
	return any;
}

static int command(int global);

/*
 * g/re/cmd and v/re/cmd: note the selected lines first (by their text
 * pointers, which survive other lines moving), then run cmd on each one
 * still in the buffer.
 */
static int
global(int a1, int a2, int want)
{
	char rest[MAXLINE], **sel;
	struct re *re;
	int i, j, nsel = 0, delim = *cp, r = 0;

	if (delim == '\0' || delim == '\n') {
		errmsg = "bad delimiter";
		return -1;
	}
	cp++;
	if ((re = pattern(delim)) == NULL)
		return -1;
	strcpy(rest, *cp && *cp != '\n' ? cp : "p\n");
	sel = xrealloc(NULL, (a2 - a1 + 2) * sizeof(char *));
	for (i = a1; i <= a2; i++)
		if (rematch(re, buf[i]) == want)
			sel[nsel++] = buf[i];
	save_undo();
	in_global = 1;
	for (j = 0; j < nsel && r == 0; j++) {
		for (i = 1; i <= nlines && buf[i] != sel[j]; i++)
			continue;
		if (i > nlines)
			continue;		/* gone */
		cur = i;
		strcpy(cmdline, rest);
		cp = cmdline;
		if (command(1) < 0)
			r = -1;
	}
	in_global = 0;
	free(sel);
	return r;
}

/* Run the command at cp; returns -1 for an error, 1 to quit. */
static int
command(int inglobal)
{
	int a1, a2, n, a3, i;
	char c, arg[1024];
	long bytes;

	if ((n = addresses(&a1, &a2)) < 0)
		return -1;
	while (*cp == ' ')
		cp++;
	c = *cp ? *cp++ : '\n';
	if (strchr("cdjlmnpst", c) != NULL &&
	    (a1 < 1 || a2 > nlines || a1 > a2)) {
		errmsg = "invalid address";
		return -1;
	}
	/* the argument: the rest of the line, less blanks */
	while (*cp == ' ')
		cp++;
	strncpy(arg, cp, sizeof(arg) - 1);
	arg[sizeof(arg) - 1] = '\0';
	arg[strcspn(arg, "\n")] = '\0';
	switch (c) {
	case '\n':
		if (n == 0)
			a2 = cur + 1;
		if (a2 < 1 || a2 > nlines) {
			errmsg = "invalid address";
			return -1;
		}
		cur = a2;
		print_line(cur, 'p');
		return 0;
	case 'a':
	case 'i':
	case 'c':
		if (inglobal) {
			errmsg = "not in g";
			return -1;
		}
		save_undo();
		if (c == 'c') {
			if (a1 < 1) {
				errmsg = "invalid address";
				return -1;
			}
			delete_lines(a1, a2);
			a2 = a1 - 1;
		} else if (c == 'i')
			a2 = a2 > 0 ? a2 - 1 : 0;
		input_text(a2);
		return 0;
	case 'd':
		save_undo();
		delete_lines(a1, a2);
		cur = a1 <= nlines ? a1 : nlines;
		dirty = 1;
		return 0;
	case 'p':
	case 'n':
	case 'l':
		for (i = a1; i <= a2; i++)
			print_line(i, c);
		cur = a2;
		return 0;
	case 's':
		return substitute(a1, a2) < 0 ? -1 : 0;
	case 'j':
		if (n < 2)
			a2 = a1 + 1;
		if (a2 > nlines) {
			errmsg = "invalid address";
			return -1;
		}
		if (a1 == a2)
			return 0;
		{
			size_t len = 1;
			char *joined;

			for (i = a1; i <= a2; i++)
				len += strlen(buf[i]);
			joined = xrealloc(NULL, len);
			joined[0] = '\0';
			for (i = a1; i <= a2; i++)
				strcat(joined, buf[i]);
			save_undo();
			delete_lines(a1 + 1, a2);
			buf[a1] = joined;
		}
		cur = a1;
		dirty = 1;
		return 0;
	case 'm':
	case 't':
		if ((a3 = address()) < 0 || (c == 'm' && a3 >= a1 && a3 < a2)) {
			errmsg = "invalid destination";
			return -1;
		}
		save_undo();
		{
			int cnt = a2 - a1 + 1;
			char **tmp = xrealloc(NULL, cnt * sizeof(char *));

			memcpy(tmp, &buf[a1], cnt * sizeof(char *));
			if (c == 'm') {
				delete_lines(a1, a2);
				if (a3 > a2)
					a3 -= cnt;
			}
			for (i = 0; i < cnt; i++)
				insert_line(a3 + i, tmp[i]);
			cur = a3 + cnt;
			free(tmp);
		}
		dirty = 1;
		return 0;
	case 'g':
	case 'v':
		if (inglobal) {
			errmsg = "nested g";
			return -1;
		}
		if (n == 0) {
			a1 = 1;
			a2 = nlines;
		}
		return global(a1, a2, c == 'g');
	case 'k':
		if (!islower((unsigned char)arg[0]) || a2 < 1) {
			errmsg = "bad mark";
			return -1;
		}
		marks[arg[0] - 'a'] = a2;
		return 0;
	case 'u':
		if (!have_undo) {
			errmsg = "nothing to undo";
			return -1;
		}
		undo();
		return 0;
	case 'w':
	case 'r':
	case 'e':
	case 'E':
	case 'f':
		if (arg[0] != '\0') {
			if (c != 'r' || fname[0] == '\0')
				strncpy(fname, arg, sizeof(fname) - 1);
		} else if (c != 'f' && fname[0] == '\0') {
			errmsg = "no current file name";
			return -1;
		}
		if (c == 'f') {
			printf("%s\n", fname);
			return 0;
		}
		if (c == 'w') {
			if (n == 0) {
				a1 = nlines ? 1 : 0;
				a2 = nlines;
			}
			if ((bytes = write_file(arg[0] ? arg : fname, a1, a2)) < 0)
				return -1;
			if (n == 0 || (a1 == 1 && a2 == nlines))
				dirty = 0;
		} else {
			if (c == 'e' && dirty && !warned) {
				warned = 1;
				errmsg = "warning: buffer modified";
				return -1;
			}
			save_undo();
			if (c != 'r') {
				nlines = cur = 0;
				memset(marks, 0, sizeof(marks));
				a2 = 0;
			} else if (n == 0)
				a2 = nlines;
			if ((bytes = read_file(arg[0] ? arg : fname, a2)) < 0)
				return -1;
			dirty = c == 'r';
		}
		if (!sflag)
			printf("%ld\n", bytes);
		return 0;
	case '=':
		printf("%d\n", n ? a2 : nlines);
		return 0;
	case 'P':
		prompt_on = !prompt_on;
		return 0;
	case 'h':
	case 'H':
		if (c == 'H')
			verbose = !verbose;
		if (*errmsg)
			printf("%s\n", errmsg);
		return 0;
	case 'q':
	case 'Q':
		if (c == 'q' && dirty && !warned) {
			warned = 1;
			errmsg = "warning: buffer modified";
			return -1;
		}
		return 1;
	default:
		errmsg = "unknown command";
		return -1;
	}
}

int
main(int argc, char *argv[])
{
	int ch, r;

	while ((ch = getopt(argc, argv, "p:s")) != -1) {
		switch (ch) {
		case 'p':
			prompt = optarg;
			prompt_on = 1;
			break;
		case 's':
			sflag = 1;
			break;
		default:
			fprintf(stderr, "usage: ed [-s] [-p prompt] [file]\n");
			exit(2);
		}
	}
	buf = xrealloc(NULL, 64 * sizeof(char *));
	cap = 64;
	if (optind < argc) {
		long bytes;

		strncpy(fname, argv[optind], sizeof(fname) - 1);
		if ((bytes = read_file(fname, 0)) < 0)
			printf("%s: %s\n", fname, errmsg);
		else if (!sflag)
			printf("%ld\n", bytes);
	}
	for (;;) {
		if (prompt_on) {
			printf("%s", prompt);
		}
		fflush(stdout);
		if (fgets(cmdline, sizeof(cmdline), stdin) == NULL) {
			if (dirty && !warned) {
				warned = 1;
				printf("?\n");
				continue;
			}
			break;
		}
		cp = cmdline;
		r = command(0);
		if (r == 1)
			break;
		if (r < 0) {
			printf("?\n");
			if (verbose)
				printf("%s\n", errmsg);
		} else
			warned = 0;
	}
	return 0;
}
