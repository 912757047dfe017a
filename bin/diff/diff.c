/*
 * diff: compare two files line by line.
 *
 *	diff [-q] [-u | -U n] file1 file2
 *	diff [-qr] [-u | -U n] dir1 dir2
 *
 * Output is the normal format (1,2c3 with < and > lines) or, with -u,
 * the unified format with 3 (or n) lines of context.  -q only says
 * whether the files differ.  A file with a NUL byte in it is binary:
 * only "Binary files ... differ" is said of it.  Two directories are
 * compared name by name, and with -r their subdirectories of the same
 * name too.  Exit status: 0 no
 * differences, 1 some, 2 trouble.
 *
 * The shortest edit script comes from Myers's O(ND) algorithm in its
 * linear-space form ("An O(ND) Difference Algorithm and Its
 * Variations", 1986): find the middle of an optimal path by searching
 * forward from the start and backward from the end at once, then solve
 * the two halves the same way.  Each line is hashed once so that most
 * comparisons are of two integers.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct line {
	const char *s;
	int	 len;		/* with its newline, if it has one */
	unsigned hash;
};

struct file {
	const char *name;
	char	*data;
	size_t	 size;
	time_t	 mtime;
	struct line *lines;
	int	 n;
	char	*changed;	/* changed[i]: line i is deleted or inserted */
	int	 binary;
};

static int qflag, rflag, uflag, context = 3;
static struct file A, B;
static int *vf, *vr;		/* Myers's V arrays, forward and reverse */

static void
usage(void)
{
	fprintf(stderr, "usage: diff [-q] [-u | -U n] file1 file2\n"
	    "       diff [-qr] [-u | -U n] dir1 dir2\n");
	exit(2);
}

static void *
xmalloc(size_t n)
{
	void *p;

	if ((p = calloc(1, n ? n : 1)) == NULL)
		errx(2, "out of memory");
	return p;
}

/* Read a file whole and cut it into lines; 0 on trouble (reported). */
static int
readfile(struct file *f, const char *name)
{
	struct stat st;
	size_t cap = 65536;
	ssize_t n;
	char *p, *end;
	int fd, i;

	memset(f, 0, sizeof(*f));
	f->name = name;
	if (strcmp(name, "-") == 0) {
		fd = 0;
		f->mtime = time(NULL);
	} else if ((fd = open(name, O_RDONLY)) < 0) {
		warn("%s", name);
		return 0;
	}
	if (fd != 0 && fstat(fd, &st) == 0)
		f->mtime = st.st_mtime;
	f->data = xmalloc(cap);
	while ((n = read(fd, f->data + f->size, cap - f->size)) > 0) {
		f->size += n;
		if (f->size == cap) {
			cap *= 2;
			if ((f->data = realloc(f->data, cap)) == NULL)
				errx(2, "out of memory");
		}
	}
	if (n < 0) {
		warn("%s", name);
		return 0;
	}
	if (fd != 0)
		close(fd);
	f->binary = memchr(f->data, '\0', f->size) != NULL;
	for (p = f->data, end = p + f->size; p < end; p++)
		if (*p == '\n')
			f->n++;
	if (f->size > 0 && end[-1] != '\n')
		f->n++;
	f->lines = xmalloc((f->n + 1) * sizeof(struct line));
	f->changed = xmalloc(f->n + 1);
	for (i = 0, p = f->data; i < f->n; i++) {
		struct line *l = &f->lines[i];

		l->s = p;
		l->hash = 5381;
		while (p < end && *p != '\n')
			l->hash = l->hash * 33 + (unsigned char)*p++;
		if (p < end)
			p++;
		else
			l->hash ^= 0x9e3779b9;	/* no newline: a different line */
		l->len = p - l->s;
	}
	return 1;
}

static int
same(int i, int j)
{
	struct line *a = &A.lines[i], *b = &B.lines[j];

	return a->hash == b->hash && a->len == b->len &&
	    memcmp(a->s, b->s, a->len) == 0;
}

/*
 * The middle of an optimal path from (a0, b0) through n lines of A and
 * m of B: a point (*sx, *sy), relative to (a0, b0), that some shortest
 * edit script passes through.  vr holds the reverse search in reversed
 * coordinates (x from the end of A, y from the end of B).
 */
static void
middle(int a0, int n, int b0, int m, int *sx, int *sy)
{
	int delta = n - m, odd = delta & 1, max = (n + m + 1) / 2;
	int off = max + 1, d, k, x, y;

	vf[off + 1] = 0;
	vr[off + 1] = 0;
	for (d = 0; d <= max; d++) {
		for (k = -d; k <= d; k += 2) {
			if (k == -d || (k != d && vf[off + k - 1] < vf[off + k + 1]))
				x = vf[off + k + 1];
			else
				x = vf[off + k - 1] + 1;
			y = x - k;
			while (x < n && y < m && same(a0 + x, b0 + y))
				x++, y++;
			vf[off + k] = x;
			if (odd && delta - k >= -(d - 1) && delta - k <= d - 1 &&
			    x + vr[off + delta - k] >= n) {
				*sx = x;
				*sy = y;
				return;
			}
		}
		for (k = -d; k <= d; k += 2) {
			if (k == -d || (k != d && vr[off + k - 1] < vr[off + k + 1]))
				x = vr[off + k + 1];
			else
				x = vr[off + k - 1] + 1;
			y = x - k;
			while (x < n && y < m &&
			    same(a0 + n - 1 - x, b0 + m - 1 - y))
				x++, y++;
			vr[off + k] = x;
			if (!odd && delta - k >= -d && delta - k <= d &&
			    x + vf[off + delta - k] >= n) {
				*sx = n - x;
				*sy = m - y;
				return;
			}
		}
	}
	*sx = n;		/* not reached: the searches always meet */
	*sy = m;
}

/* Mark the lines of A[a0..a0+n) and B[b0..b0+m) an edit script changes. */
static void
compare(int a0, int n, int b0, int m)
{
	int sx, sy, i;

	while (n > 0 && m > 0 && same(a0, b0))
		a0++, b0++, n--, m--;
	while (n > 0 && m > 0 && same(a0 + n - 1, b0 + m - 1))
		n--, m--;
	if (n == 0 || m == 0) {
		for (i = 0; i < n; i++)
			A.changed[a0 + i] = 1;
		for (i = 0; i < m; i++)
			B.changed[b0 + i] = 1;
		return;
	}
	middle(a0, n, b0, m, &sx, &sy);
	if ((sx == 0 && sy == 0) || (sx == n && sy == m)) {
		/* cannot happen after the trimming above; never loop */
		for (i = 0; i < n; i++)
			A.changed[a0 + i] = 1;
		for (i = 0; i < m; i++)
			B.changed[b0 + i] = 1;
		return;
	}
	compare(a0, sx, b0, sy);
	compare(a0 + sx, n - sx, b0 + sy, m - sy);
}

/* --- output --- */

static void
putline(const char *prefix, struct line *l)
{
	fputs(prefix, stdout);
	fwrite(l->s, 1, l->len, stdout);
	if (l->len == 0 || l->s[l->len - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", stdout);
}

static void
range(int from, int to)		/* lines from..to, 1-based */
{
	if (to <= from)
		printf("%d", to < from ? from - 1 : from);
	else
		printf("%d,%d", from, to);
}

/* A change: lines [i, i1) of A become lines [j, j1) of B. */
struct change {
	int	 i, i1, j, j1;
};

/* The changes marked by compare(), in order; returns how many. */
static int
changes(struct change **cp)
{
	struct change *c = xmalloc((A.n + B.n + 1) * sizeof(*c));
	int i = 0, j = 0, n = 0;

	while (i < A.n || j < B.n) {
		if (i < A.n && j < B.n && !A.changed[i] && !B.changed[j]) {
			i++, j++;
			continue;
		}
		c[n].i = i;
		c[n].j = j;
		while (i < A.n && A.changed[i])
			i++;
		while (j < B.n && B.changed[j])
			j++;
		c[n].i1 = i;
		c[n].j1 = j;
		n++;
	}
	*cp = c;
	return n;
}

static void
normal(struct change *c, int n)
{
	int k, l;

	for (k = 0; k < n; k++, c++) {
		if (c->i1 == c->i)
			printf("%da", c->i);
		else {
			range(c->i + 1, c->i1);
			putchar(c->j1 == c->j ? 'd' : 'c');
		}
		if (c->j1 == c->j)
			printf("%d\n", c->j);
		else {
			range(c->j + 1, c->j1);
			putchar('\n');
		}
		for (l = c->i; l < c->i1; l++)
			putline("< ", &A.lines[l]);
		if (c->i1 > c->i && c->j1 > c->j)
			puts("---");
		for (l = c->j; l < c->j1; l++)
			putline("> ", &B.lines[l]);
	}
}

static void
uheader(const char *sign, struct file *f)
{
	char *t = ctime(&f->mtime);

	printf("%s %s\t%.*s\n", sign, f->name, (int)strlen(t) - 1, t);
}

static void
urange(int start, int count)	/* start: 0-based first line */
{
	if (count == 1)
		printf("%d", start + 1);
	else
		printf("%d,%d", count == 0 ? start : start + 1, count);
}

/*
 * Hunks: each change with context lines around it; changes closer
 * than twice the context share a hunk.
 */
static void
unified(struct change *c, int n)
{
	int k, last, hi, hj, ei, ej, i, j;

	uheader("---", &A);
	uheader("+++", &B);
	for (k = 0; k < n; k = last + 1) {
		for (last = k; last + 1 < n &&
		    c[last + 1].i - c[last].i1 <= 2 * context; last++)
			;
		hi = c[k].i > context ? c[k].i - context : 0;
		hj = c[k].j - (c[k].i - hi);
		ei = c[last].i1 + context < A.n ? c[last].i1 + context : A.n;
		ej = c[last].j1 + (ei - c[last].i1);
		printf("@@ -");
		urange(hi, ei - hi);
		printf(" +");
		urange(hj, ej - hj);
		printf(" @@\n");
		for (i = hi, j = hj; i < ei || j < ej; ) {
			if (i < ei && A.changed[i])
				putline("-", &A.lines[i++]);
			else if (j < ej && B.changed[j])
				putline("+", &B.lines[j++]);
			else {
				putline(" ", &A.lines[i]);
				i++, j++;
			}
		}
	}
}

/* Compare two files; the exit status they give. */
static int
difffiles(const char *n1, const char *n2)
{
	struct change *c;
	int i, n, differ;

	if (!readfile(&A, n1) || !readfile(&B, n2))
		return 2;
	differ = A.size != B.size || memcmp(A.data, B.data, A.size) != 0;
	if (differ && (qflag || A.binary || B.binary)) {
		printf("%s %s and %s differ\n", qflag && !A.binary && !B.binary ?
		    "Files" : "Binary files", n1, n2);
	} else if (differ) {
		vf = xmalloc((A.n + B.n + 4) * sizeof(int));
		vr = xmalloc((A.n + B.n + 4) * sizeof(int));
		compare(0, A.n, 0, B.n);
		n = changes(&c);
		if (uflag)
			unified(c, n);
		else
			normal(c, n);
		free(c);
		free(vf);
		free(vr);
	}
	for (i = 0; i < 2; i++) {
		struct file *f = i ? &B : &A;

		free(f->data);
		free(f->lines);
		free(f->changed);
	}
	return differ;
}

static int
isdir(const char *name)
{
	struct stat st;

	return stat(name, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *
join(const char *dir, const char *name)
{
	char *p = xmalloc(strlen(dir) + strlen(name) + 2);

	sprintf(p, "%s/%s", dir, name);
	return p;
}

static int
cmpname(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names in a directory, without . and .. */
static char **
names(const char *dir, int *n)
{
	struct dirent *e;
	char **v = NULL;
	DIR *d;
	int cap = 0;

	*n = 0;
	if ((d = opendir(dir)) == NULL) {
		warn("%s", dir);
		return NULL;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			if ((v = realloc(v, cap * sizeof(*v))) == NULL)
				errx(2, "out of memory");
		}
		v[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(v, *n, sizeof(*v), cmpname);
	return v;
}

static int
diffdirs(const char *d1, const char *d2)
{
	char **v1, **v2, *p1, *p2;
	int n1, n2, i = 0, j = 0, c, r, status = 0;

	v1 = names(d1, &n1);
	v2 = names(d2, &n2);
	if (v1 == NULL || v2 == NULL)
		return 2;
	while (i < n1 || j < n2) {
		c = i >= n1 ? 1 : j >= n2 ? -1 : strcmp(v1[i], v2[j]);
		if (c != 0) {
			printf("Only in %s: %s\n", c < 0 ? d1 : d2,
			    c < 0 ? v1[i++] : v2[j++]);
			if (status == 0)
				status = 1;
			continue;
		}
		p1 = join(d1, v1[i++]);
		p2 = join(d2, v2[j++]);
		if (isdir(p1) && isdir(p2)) {
			if (!rflag)
				printf("Common subdirectories: %s and %s\n",
				    p1, p2);
			else if ((r = diffdirs(p1, p2)) > status)
				status = r;
		}
		else if (isdir(p1) || isdir(p2)) {
			printf("File %s is a %s while file %s is a %s\n", p1,
			    isdir(p1) ? "directory" : "regular file", p2,
			    isdir(p2) ? "directory" : "regular file");
			if (status == 0)
				status = 1;
		} else {
			fflush(stdout);
			if (!qflag) {
				/* a header, only when they differ */
				if (!readfile(&A, p1) || !readfile(&B, p2))
					r = 2;
				else
					r = A.size != B.size ||
					    memcmp(A.data, B.data, A.size) != 0;
				free(A.data);
				free(B.data);
				free(A.lines);
				free(B.lines);
				free(A.changed);
				free(B.changed);
				if (r == 1 && !A.binary && !B.binary)
					printf("diff %s%s%s %s\n",
					    rflag ? "-r " : "", uflag ? "-u " : "",
					    p1, p2);
				if (r == 1)
					r = difffiles(p1, p2);
			} else
				r = difffiles(p1, p2);
			if (r > status)
				status = r;
		}
		free(p1);
		free(p2);
	}
	return status;
}

int
main(int argc, char *argv[])
{
	char *end, *other;
	const char *base;
	int ch, d1, d2, r;

	while ((ch = getopt(argc, argv, "qruU:")) != -1) {
		switch (ch) {
		case 'q':
			qflag = 1;
			break;
		case 'r':
			rflag = 1;
			break;
		case 'u':
			uflag = 1;
			break;
		case 'U':
			uflag = 1;
			context = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || context < 0)
				errx(2, "bad context length: %s", optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage();
	d1 = isdir(argv[0]);
	d2 = isdir(argv[1]);
	if (d1 && d2)
		r = diffdirs(argv[0], argv[1]);
	else if (d1 || d2) {
		/* diff file dir: the file of the same name in dir */
		base = strrchr(argv[d1 ? 1 : 0], '/');
		base = base ? base + 1 : argv[d1 ? 1 : 0];
		other = join(argv[d1 ? 0 : 1], base);
		r = d1 ? difffiles(other, argv[1]) : difffiles(argv[0], other);
	} else
		r = difffiles(argv[0], argv[1]);
	fflush(stdout);
	return r;
}
