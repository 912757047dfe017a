/*
 * The interactive shell's line editor and history (set -E, on by default
 * when the shell reads a terminal; 4.4BSD's sh had libedit for this).
 *
 * While a line is edited the terminal is out of canonical mode and does
 * not echo (tcsetattr); ISIG stays on, so ^C still interrupts the read
 * and abandons the line as before.  Keys, as emacs and every Unix shell:
 *
 *	Left Right ^B ^F	move		^A Home  ^E End	  line ends
 *	Backspace ^H		erase left	^D	erase under (EOF if empty)
 *	^K			kill to end	^U	kill to start
 *	^W			kill word	^L	redraw
 *	Up Down ^P ^N		history		Tab	complete a file name
 *
 * The line is redrawn after a change: carriage return, prompt, text,
 * erase to the end of the screen line, cursor back to its place (ANSI
 * sequences every terminal emulator knows).  History keeps the last
 * HISTSIZE lines; `history` lists them, and a word "!!", "!N", "!-N" or
 * "!prefix" at the start of a line is replaced by that line (as csh and
 * bash; "! cmd", with a space, is still the negation of a pipeline).
 */
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "sh.h"

#define HISTSIZE	100
#define CTRL(c)		((c) & 0x1f)

int Eflag;			/* set -E: edit lines (interactive) */

static char *hist[HISTSIZE];
static int nhist;		/* lines ever entered: the last is nhist */

struct line {
	char	*buf;
	int	 size;		/* room, including the NUL */
	int	 len, pos;	/* text length, cursor */
	const char *prompt;
};

static void
out(const char *s, int n)
{
	while (n > 0) {
		int k = write(2, s, n);

		if (k <= 0)
			return;
		s += k;
		n -= k;
	}
}

static void
outs(const char *s)
{
	out(s, strlen(s));
}

/* Prompt and text again, the rest of the screen line erased, the cursor placed. */
static void
redraw(struct line *l)
{
	char seq[16];

	outs("\r");
	outs(l->prompt);
	out(l->buf, l->len);
	outs("\033[K");
	if (l->len > l->pos) {
		snprintf(seq, sizeof(seq), "\033[%dD", l->len - l->pos);
		outs(seq);
	}
}

static void
insert(struct line *l, const char *s, int n)
{
	if (l->len + n >= l->size - 1)
		n = l->size - 2 - l->len;	/* room for '\n' and NUL */
	if (n <= 0)
		return;
	memmove(l->buf + l->pos + n, l->buf + l->pos, l->len - l->pos);
	memcpy(l->buf + l->pos, s, n);
	l->len += n;
	l->pos += n;
	if (l->pos == l->len)
		out(s, n);			/* typing at the end: just echo */
	else
		redraw(l);
}

static void
delete(struct line *l, int from, int to)
{
	if (from < 0)
		from = 0;
	if (to > l->len)
		to = l->len;
	if (from >= to)
		return;
	memmove(l->buf + from, l->buf + to, l->len - to);
	l->len -= to - from;
	l->pos = from;
	redraw(l);
}

static void
replace(struct line *l, const char *s)
{
	int n = strlen(s);

	if (n > l->size - 2)
		n = l->size - 2;
	memcpy(l->buf, s, n);
	l->len = l->pos = n;
	redraw(l);
}

/* History line i (1 = the oldest kept), or NULL. */
static const char *
histline(int i)
{
	if (i < 1 || i > nhist || i <= nhist - HISTSIZE)
		return NULL;
	return hist[(i - 1) % HISTSIZE];
}

static void
histadd(const char *s)
{
	int n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	if (n == 0 || (histline(nhist) != NULL &&
	    strncmp(histline(nhist), s, n) == 0 && histline(nhist)[n] == '\0'))
		return;
	nhist++;
	free(hist[(nhist - 1) % HISTSIZE]);
	hist[(nhist - 1) % HISTSIZE] = ckmalloc(n + 1);
	memcpy(hist[(nhist - 1) % HISTSIZE], s, n);
	hist[(nhist - 1) % HISTSIZE][n] = '\0';
}

/* history: the kept lines, numbered as !N names them. */
int
historycmd(int argc, char **argv)
{
	int i;

	(void)argc;
	(void)argv;
	for (i = nhist - HISTSIZE + 1; i <= nhist; i++)
		if (histline(i) != NULL)
			printf("%5d  %s\n", i, histline(i));
	return 0;
}

/*
 * A line starting with a history reference, rewritten in place (and
 * shown); 0, or -1 with a message if the reference names no line.
 */
static int
histexpand(char *buf, int size)
{
	const char *h = NULL, *rest;
	char *end, tmp[1024];
	int i, n;

	if (buf[0] != '!' || buf[1] == ' ' || buf[1] == '\t' || buf[1] == '\n' ||
	    buf[1] == '=' || buf[1] == '(')
		return 0;
	if (buf[1] == '!') {
		h = histline(nhist);
		rest = buf + 2;
	} else if ((buf[1] >= '0' && buf[1] <= '9') || buf[1] == '-') {
		n = strtol(buf + 1, &end, 10);
		h = histline(n < 0 ? nhist + 1 + n : n);
		rest = end;
	} else {
		for (n = 1; buf[n] && buf[n] != ' ' && buf[n] != '\n'; n++)
			continue;
		for (i = nhist; i > nhist - HISTSIZE && i >= 1; i--)
			if (strncmp(histline(i), buf + 1, n - 1) == 0) {
				h = histline(i);
				break;
			}
		rest = buf + n;
	}
	if (h == NULL) {
		for (n = 0; buf[n] && buf[n] != ' ' && buf[n] != '\n'; n++)
			continue;
		fprintf(stderr, "sh: %.*s: event not found\n", n, buf);
		return -1;
	}
	if (snprintf(tmp, sizeof(tmp), "%s%s", h, rest) >= size ||
	    strlen(tmp) >= sizeof(tmp) - 1)
		return -1;
	strcpy(buf, tmp);
	outs(buf);			/* as csh: the line that runs */
	return 0;
}

/* --- completion --- */

/* The length two strings share at their start. */
static int
common(const char *a, const char *b)
{
	int n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

struct matches {
	char	 best[256];	/* what every match starts with */
	int	 n;
	int	 isdir;		/* the only match is a directory */
	char	 list[1024];	/* the first few, for showing */
};

static void
match(struct matches *m, const char *name, const char *dir, int wantdir)
{
	char path[512];
	struct stat st;
	int isdir;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	isdir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	if (wantdir && !isdir && access(path, X_OK) != 0)
		return;
	if (m->n++ == 0) {
		strncpy(m->best, name, sizeof(m->best) - 1);
		m->isdir = isdir;
	} else
		m->best[common(m->best, name)] = '\0';
	if (strlen(m->list) + strlen(name) + 3 < sizeof(m->list)) {
		strcat(m->list, name);
		strcat(m->list, isdir ? "/  " : "  ");
	}
}

/* The entries of dir starting with prefix. */
static void
scan(struct matches *m, const char *dir, const char *prefix, int cmd)
{
	struct dirent *d;
	DIR *dp;
	int n = strlen(prefix);

	if ((dp = opendir(*dir ? dir : "/")) == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if (strncmp(d->d_name, prefix, n) != 0 ||
		    (d->d_name[0] == '.' && prefix[0] != '.') ||
		    strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		match(m, d->d_name, *dir ? dir : "/", cmd);
	}
	closedir(dp);
}

/*
 * Tab: complete the word before the cursor as a file name (the first
 * word without a '/': a command on PATH); several matches: as far as they
 * agree, and a second Tab lists them.
 */
static void
complete(struct line *l, int again)
{
	struct matches m;
	char word[256], dir[256], path[512];
	const char *slash, *p, *colon;
	int start, n, cmd;

	for (start = l->pos; start > 0 && l->buf[start - 1] != ' ' &&
	    l->buf[start - 1] != '\t'; start--)
		continue;
	n = l->pos - start;
	if (n >= (int)sizeof(word))
		return;
	memcpy(word, l->buf + start, n);
	word[n] = '\0';
	for (p = l->buf; p < l->buf + start && (*p == ' ' || *p == '\t'); p++)
		continue;
	cmd = p == l->buf + start && strchr(word, '/') == NULL;
	memset(&m, 0, sizeof(m));
	if ((slash = strrchr(word, '/')) != NULL) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - word), word);
		scan(&m, dir, slash + 1, 0);
	} else if (cmd) {
		for (p = lookupvar("PATH") ? lookupvar("PATH") : ""; *p; p = colon + 1) {
			colon = strchr(p, ':');
			if (colon == NULL)
				colon = p + strlen(p);
			snprintf(path, sizeof(path), "%.*s", (int)(colon - p), p);
			scan(&m, *path ? path : ".", word, 1);
			if (*colon == '\0')
				break;
		}
	} else
		scan(&m, ".", word, 0);
	slash = slash ? slash + 1 : word;
	n = strlen(slash);
	if (m.n == 0) {
		outs("\a");
		return;
	}
	if ((int)strlen(m.best) > n || m.n == 1) {
		insert(l, m.best + n, strlen(m.best) - n);
		if (m.n == 1)
			insert(l, m.isdir ? "/" : " ", 1);
		return;
	}
	if (!again) {
		outs("\a");
		return;
	}
	outs("\r\n");
	outs(m.list);
	outs("\r\n");
	redraw(l);
}

/* --- the editor --- */

static int
readc(int fd, char *c)
{
	return read(fd, c, 1);
}

/*
 * Read one line from the terminal fd, editing it; the line and its '\n'
 * go to buf.  Returns its length, 0 at end of file, -1 with errno set if
 * the read failed (EINTR: ^C).
 */
int
editline(int fd, const char *prompt, char *buf, int size)
{
	struct termios saved, raw;
	struct line l = { buf, size, 0, 0, prompt };
	int n, histpos = nhist + 1, tabs = 0, result = -1;
	char c, seq[2], *draft = NULL;

	if (tcgetattr(fd, &saved) < 0) {
		outs(prompt);
		return read(fd, buf, size);
	}
	raw = saved;
	raw.c_lflag &= ~(ICANON | ECHO | IEXTEN);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(fd, TCSANOW, &raw);
	outs(prompt);
	for (;;) {
		if ((n = readc(fd, &c)) <= 0) {
			if (n == 0)
				result = 0;
			break;
		}
		tabs = c == '\t' ? tabs + 1 : 0;
		if (c == '\r' || c == '\n') {
			outs("\r\n");
			buf[l.len] = '\n';
			buf[l.len + 1] = '\0';
			result = l.len + 1;
			break;
		}
		switch (c) {
		case CTRL('A'):
			l.pos = 0;
			redraw(&l);
			break;
		case CTRL('E'):
			l.pos = l.len;
			redraw(&l);
			break;
		case CTRL('B'):
			if (l.pos > 0)
				l.pos--, redraw(&l);
			break;
		case CTRL('F'):
			if (l.pos < l.len)
				l.pos++, redraw(&l);
			break;
		case CTRL('H'):
		case 0x7f:
			delete(&l, l.pos - 1, l.pos);
			break;
		case CTRL('D'):
			if (l.len == 0) {
				result = 0;
				goto done;
			}
			delete(&l, l.pos, l.pos + 1);
			break;
		case CTRL('K'):
			delete(&l, l.pos, l.len);
			break;
		case CTRL('U'):
			delete(&l, 0, l.pos);
			break;
		case CTRL('W'):
			for (n = l.pos; n > 0 && buf[n - 1] == ' '; n--)
				continue;
			while (n > 0 && buf[n - 1] != ' ')
				n--;
			delete(&l, n, l.pos);
			break;
		case CTRL('L'):
			outs("\033[H\033[2J");
			redraw(&l);
			break;
		case '\t':
			complete(&l, tabs > 1);
			break;
		case CTRL('P'):
		case CTRL('N'):
			c = c == CTRL('P') ? 'A' : 'B';
			goto arrow;
		case '\033':
			if (readc(fd, &seq[0]) <= 0 || readc(fd, &seq[1]) <= 0)
				break;
			if (seq[0] != '[' && seq[0] != 'O')
				break;
			c = seq[1];
			if (c >= '0' && c <= '9') {	/* ESC [ 1 ~ and the like */
				char tilde;

				if (readc(fd, &tilde) <= 0)
					break;
				c = c == '1' || c == '7' ? 'H' : c == '4' || c == '8' ?
				    'F' : c == '3' ? 'X' : 0;
			}
		arrow:
			switch (c) {
			case 'A':		/* up: an older line */
			case 'B':		/* down: a newer one, then the draft */
				n = histpos + (c == 'A' ? -1 : 1);
				if (c == 'A' && histline(n) == NULL)
					break;
				if (c == 'B' && n > nhist + 1)
					break;
				if (histpos == nhist + 1) {
					free(draft);
					buf[l.len] = '\0';
					draft = strdup(buf);
				}
				histpos = n;
				replace(&l, n == nhist + 1 ? (draft ? draft : "") :
				    histline(n));
				break;
			case 'C':
				if (l.pos < l.len)
					l.pos++, redraw(&l);
				break;
			case 'D':
				if (l.pos > 0)
					l.pos--, redraw(&l);
				break;
			case 'H':
				l.pos = 0, redraw(&l);
				break;
			case 'F':
				l.pos = l.len, redraw(&l);
				break;
			case 'X':
				delete(&l, l.pos, l.pos + 1);
				break;
			}
			break;
		default:
			if ((unsigned char)c >= ' ')
				insert(&l, &c, 1);
			break;
		}
	}
done:
	n = errno;
	tcsetattr(fd, TCSANOW, &saved);
	errno = n;
	free(draft);
	if (result > 0) {
		if (histexpand(buf, size) < 0) {
			buf[0] = '\n';
			buf[1] = '\0';
			result = 1;
		} else
			result = strlen(buf);
		histadd(buf);
	}
	return result;
}
