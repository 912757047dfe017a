/*
 * sed: the commands over the input.
 *
 * Input is read one line ahead, so that $ knows the last line of the
 * last file.  Each cycle reads a line into the pattern space, runs the
 * commands over it, writes it (unless -n) and then the text that a and
 * r queued.
 */
#include <sys/stat.h>
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

static regex_t *lastre;

static struct str ps, hs;	/* pattern space, hold space */
static long lineno;
static int sflag;		/* a substitution since the last line or t */

static char **files;
static FILE *infp;
static const char *inname;
static struct str ahead;	/* the next input line */
static int haveahead, status;

/* text queued by a and r for the end of the cycle */
struct append {
	int	 isfile;
	char	*text;
};
static struct append *appends;
static int nappends, maxappends;

static FILE *outfp;		/* stdout, or with -i the file's new text */
static char *editing, *newtext;	/* -i: the file and its new text's name */

static void quit(void) __attribute__((__noreturn__));

/* --- input --- */

/* Read the next line of the files into ahead; 0 at the end of them. */
static int
readahead(void)
{
	static char *buf;
	static size_t cap;
	ssize_t n;

	for (;;) {
		if (infp == NULL) {
			if (*files == NULL)
				return 0;
			inname = *files++;
			if (strcmp(inname, "-") == 0)
				infp = stdin;
			else if ((infp = fopen(inname, "r")) == NULL) {
				warn("%s", inname);
				status = 1;
				continue;
			}
		}
		if ((n = getline(&buf, &cap, infp)) > 0) {
			if (buf[n - 1] == '\n')
				n--;
			sset(&ahead, buf, n);
			return 1;
		}
		if (ferror(infp)) {
			warn("%s", inname);
			status = 1;
		}
		if (infp != stdin)
			fclose(infp);
		infp = NULL;
	}
}

/* The next line into the pattern space (or after it); 0 if none. */
static int
nextline(int append)
{
	if (!haveahead)
		return 0;
	if (append)
		sadd(&ps, "\n", 1);
	else
		ps.len = 0;
	sadd(&ps, ahead.s, ahead.len);
	lineno++;
	haveahead = readahead();
	return 1;
}

/* --- running it --- */

static void
out(FILE *fp, const char *s, size_t n)
{
	fwrite(s, 1, n, fp);
	putc('\n', fp);
}

/*
 * The l command: the pattern space as it is, visibly (POSIX): \\ and
 * C's escapes, other bytes that do not print as three octal digits, a
 * newline as \n; lines folded before LWIDTH columns with a \ at the end,
 * and a $ at the very end.
 */
#define LWIDTH	70

static void
list(FILE *fp, const char *s, size_t n)
{
	static const char esc[] = "\\\\\aa\bb\ff\nn\rr\tt\vv";
	char buf[8];
	const char *e;
	size_t i;
	int col = 0, w;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch != '\0' && (e = strchr(esc, ch)) != NULL &&
		    (e - esc) % 2 == 0)
			w = snprintf(buf, sizeof(buf), "\\%c", e[1]);
		else if (isprint(ch))
			w = snprintf(buf, sizeof(buf), "%c", ch);
		else
			w = snprintf(buf, sizeof(buf), "\\%03o", ch);
		if (col + w >= LWIDTH) {
			fputs("\\\n", fp);
			col = 0;
		}
		fputs(buf, fp);
		col += w;
	}
	fputs("$\n", fp);
}

static void
queue(int isfile, char *text)
{
	if (nappends == maxappends) {
		maxappends = maxappends ? maxappends * 2 : 8;
		appends = xrealloc(appends, maxappends * sizeof(*appends));
	}
	appends[nappends].isfile = isfile;
	appends[nappends].text = text;
	nappends++;
}

static void
flushappends(void)
{
	char buf[4096];
	FILE *fp;
	size_t n;
	int i;

	for (i = 0; i < nappends; i++) {
		if (!appends[i].isfile) {
			fputs(appends[i].text, outfp);
			continue;
		}
		/* r of a file that cannot be read adds nothing (POSIX) */
		if ((fp = fopen(appends[i].text, "r")) == NULL)
			continue;
		while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
			fwrite(buf, 1, n, outfp);
		fclose(fp);
	}
	nappends = 0;
}

/*
 * Match re (NULL: the last one used) against the pattern space from
 * byte from to its end, NUL bytes included; m[0..nm) get offsets from
 * the start of the pattern space.
 */
static int
matchre(regex_t *re, size_t from, size_t nm, regmatch_t *m)
{
	regmatch_t whole[10];

	if (re == NULL) {
		if (lastre == NULL)
			errx(1, "no previous regular expression");
		re = lastre;
	}
	lastre = re;
	if (nm == 0) {
		m = whole;
		nm = 1;
	}
	m[0].rm_so = from;
	m[0].rm_eo = ps.len;
	return regexec(re, ps.s, nm, m,
	    REG_STARTEND | (from > 0 ? REG_NOTBOL : 0)) == 0;
}

static int
matchaddr(struct addr *a)
{
	switch (a->type) {
	case A_LINE:
		return lineno == a->line;
	case A_LAST:
		return !haveahead;
	case A_RE:
		return matchre(a->re, 0, 0, NULL);
	}
	return 1;
}

static int
selected(struct cmd *c)
{
	int r;

	if (c->a1.type == A_NONE)
		r = 1;
	else if (c->a2.type == A_NONE)
		r = matchaddr(&c->a1);
	else if (c->inrange) {
		r = 1;
		if (c->a2.type == A_LINE ? lineno >= c->a2.line :
		    matchaddr(&c->a2))
			c->inrange = 0;
	} else if ((r = matchaddr(&c->a1)) != 0) {
		/* a line-number end at or before this line: one line only */
		c->inrange = c->a2.type != A_LINE || c->a2.line > lineno;
		if (c->a2.type == A_LAST && !haveahead)
			c->inrange = 0;
	}
	return r != c->negate;
}

/* Append the replacement for one match to d (m: offsets in base). */
static void
replace(struct str *d, const char *repl, const char *base, regmatch_t *m,
    size_t nsub)
{
	const char *p;
	int n;

	for (p = repl; *p != '\0'; p++) {
		if (*p == '&') {
			sadd(d, base + m[0].rm_so, m[0].rm_eo - m[0].rm_so);
		} else if (*p == '\\' && p[1] >= '0' && p[1] <= '9') {
			n = *++p - '0';
			if ((size_t)n > nsub)
				errx(1, "\\%d not defined in the RE", n);
			if (m[n].rm_so >= 0)
				sadd(d, base + m[n].rm_so,
				    m[n].rm_eo - m[n].rm_so);
		} else if (*p == '\\' && p[1] != '\0') {
			sadd(d, ++p, 1);
		} else
			sadd(d, p, 1);
	}
}

static int
substitute(struct cmd *c)
{
	static struct str res;
	regmatch_t m[10];
	size_t pos = 0, so, eo, lastend = (size_t)-1;
	int count = 0, did = 0;

	res.len = 0;
	sadd(&res, "", 0);
	while (pos <= ps.len && matchre(c->re, pos, 10, m)) {
		so = m[0].rm_so;
		eo = m[0].rm_eo;
		/* an empty match right after the last match does not count */
		if (so == eo && so == lastend) {
			if (so >= ps.len)
				break;
			sadd(&res, ps.s + pos, so + 1 - pos);
			pos = so + 1;
			continue;
		}
		count++;
		sadd(&res, ps.s + pos, so - pos);
		if (count >= (c->nth ? c->nth : 1)) {
			replace(&res, c->repl, ps.s, m, lastre->re_nsub);
			did = 1;
		} else
			sadd(&res, ps.s + so, eo - so);
		lastend = pos = eo;
		if (did && !c->global)
			break;
		if (so == eo) {
			/* an empty match: the next character stays as it is */
			if (pos >= ps.len)
				break;
			sadd(&res, ps.s + pos, 1);
			pos++;
		}
	}
	if (!did)
		return 0;
	sadd(&res, ps.s + pos, ps.len - pos);
	sset(&ps, res.s, res.len);
	if (c->print)
		out(outfp, ps.s, ps.len);
	if (c->wf != NULL)
		out(c->wf->fp, ps.s, ps.len);
	return 1;
}

/* -i: the new text takes the file's name (and mode); a backup keeps the old */
static void
endedit(void)
{
	struct stat st;
	char *backup;

	if (fclose(outfp) != 0 || stat(editing, &st) < 0 ||
	    chmod(newtext, st.st_mode & 07777) < 0) {
		warn("%s", editing);
		status = 1;
	} else {
		if (*inplace != '\0') {
			backup = xrealloc(NULL, strlen(editing) + strlen(inplace) + 1);
			sprintf(backup, "%s%s", editing, inplace);
			if (rename(editing, backup) < 0)
				err(1, "%s", backup);
			free(backup);
		}
		if (rename(newtext, editing) < 0)
			err(1, "%s", editing);
	}
	free(newtext);
	editing = NULL;
	outfp = stdout;
}

static void
quit(void)
{
	struct wfile *w;

	if (editing != NULL)
		endedit();
	fflush(stdout);
	for (w = wfiles; w != NULL; w = w->next)
		if (w->fp != stdout)
			fclose(w->fp);
	exit(status);
}

/* The end of a cycle: write the pattern space and the queued text. */
static void
endcycle(int print)
{
	if (print && !nflag)
		out(outfp, ps.s, ps.len);
	flushappends();
}

static void
run(void)
{
	struct cmd *c;
	char *nl;
	int pc, i, again = 0;
	struct str t;

	for (;;) {
		if (!again && !nextline(0))
			break;
		again = 0;
		sflag = 0;
		for (pc = 0; pc < ncmds; pc++) {
			c = &cmds[pc];
			if (c->code == '}' || c->code == ':')
				continue;
			if (!selected(c)) {
				if (c->code == '{')
					pc = c->target - 1;
				continue;
			}
			switch (c->code) {
			case '{':
				break;
			case '=':
				fprintf(outfp, "%ld\n", lineno);
				break;
			case 'a':
				queue(0, c->text);
				break;
			case 'r':
				queue(1, c->text);
				break;
			case 'i':
				fputs(c->text, outfp);
				break;
			case 'c':
				/* a range is changed into one copy, at its end */
				if (c->a2.type == A_NONE || !c->inrange ||
				    c->negate)
					fputs(c->text, outfp);
				goto delete;
			case 'b':
				pc = c->target - 1;
				break;
			case 't':
				if (sflag) {
					sflag = 0;
					pc = c->target - 1;
				}
				break;
			case 'd':
			delete:
				endcycle(0);
				goto next;
			case 'D':
				if ((nl = memchr(ps.s, '\n', ps.len)) == NULL)
					goto delete;
				i = nl + 1 - ps.s;
				memmove(ps.s, nl + 1, ps.len - i + 1);
				ps.len -= i;
				endcycle(0);
				again = 1;
				goto next;
			case 'g':
				sset(&ps, hs.s ? hs.s : "", hs.len);
				break;
			case 'G':
				sadd(&ps, "\n", 1);
				sadd(&ps, hs.s ? hs.s : "", hs.len);
				break;
			case 'h':
				sset(&hs, ps.s, ps.len);
				break;
			case 'H':
				sadd(&hs, "\n", 1);
				sadd(&hs, ps.s, ps.len);
				break;
			case 'x':
				t = ps;
				ps = hs;
				hs = t;
				if (ps.s == NULL)
					sset(&ps, "", 0);
				break;
			case 'n':
				if (!haveahead)
					goto end;
				endcycle(1);
				nextline(0);
				break;
			case 'N':
				if (!haveahead)
					goto end;
				flushappends();
				nextline(1);
				break;
			case 'l':
				list(outfp, ps.s, ps.len);
				break;
			case 'p':
				out(outfp, ps.s, ps.len);
				break;
			case 'P':
				nl = memchr(ps.s, '\n', ps.len);
				out(outfp, ps.s, nl ? (size_t)(nl - ps.s) : ps.len);
				break;
			case 'q':
				endcycle(1);
				quit();
				break;
			case 's':
				if (substitute(c))
					sflag = 1;
				break;
			case 'w':
				out(c->wf->fp, ps.s, ps.len);
				break;
			case 'y':
				for (i = 0; (size_t)i < ps.len; i++)
					ps.s[i] = c->map[(unsigned char)ps.s[i]];
				break;
			}
		}
	end:
		endcycle(1);
		if (pc < ncmds && !haveahead)
			break;
	next:
		;
	}
}

/*
 * Without -i the files are one stream to the standard output; with it
 * each is a stream of its own (its own line numbers and $), written to
 * a new file that then takes its name.
 */
void
process(char **names)
{
	static char *one[2];
	struct stat st;
	int i;

	outfp = stdout;
	if (inplace == NULL) {
		files = names;
		haveahead = readahead();
		run();
		quit();
	}
	for (; *names != NULL; names++) {
		if (strcmp(*names, "-") == 0)
			errx(1, "-i needs files, not the standard input");
		if (stat(*names, &st) < 0 || !S_ISREG(st.st_mode)) {
			if (S_ISDIR(st.st_mode))
				errno = EISDIR;
			warn("%s", *names);
			status = 1;
			continue;
		}
		editing = *names;
		newtext = xrealloc(NULL, strlen(editing) + 16);
		sprintf(newtext, "%s.sed%d", editing, (int)getpid());
		if ((outfp = fopen(newtext, "w")) == NULL)
			err(1, "%s", newtext);
		one[0] = editing;
		files = one;
		lineno = 0;
		for (i = 0; i < ncmds; i++)
			cmds[i].inrange = 0;
		haveahead = readahead();
		run();
		endedit();
	}
	quit();
}
