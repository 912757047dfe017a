/*
 * The relations of the Wisconsin benchmark (table 7-6), as DeWitt's
 * generator defines them, and wisc load.
 *
 * unique2 numbers a relation's tuples in order (0 .. n-1) and is the key
 * of its clustered index; unique1 is a random permutation of the same
 * numbers, and every other attribute is derived from unique1: two, four,
 * ... tenthous are unique1 modulo 2, 4, ... 10000; odd100 and even100 are
 * the odd numbers 1-99 and the even numbers 2-100; string4 is one of four
 * strings (so that the projection of query 18 is 1% of the relation).
 * stringu1 and stringu2 are 52 characters, 'x' but for three letters at
 * positions 1, 27 and 52 that spell unique1 (unique2) in base 26, as the
 * 1983 relations' strings ("AxxxxxxxxxxxxxxxxxxxxxxxxxBxxxxxxxxxxxxxxxxxxxxxxxxC").
 *
 * The permutations come from a fixed seed per relation, so a load is the
 * same every time and check.c can regenerate what it should find.
 * BPRIME is the first tenth of TENKTUP2 (DeWitt: "SELECT * FROM TENKTUP2
 * WHERE unique2 < 1000"), ONEKTUP a tenth of the size with its own
 * permutation.
 *
 * A load builds each B-tree bottom up in key order (bt_load) with its
 * pages filled to -f percent: the thesis' package left in-order B-trees
 * partly empty (table 7-4), and 65% gives about its 8.5 MB (8,496 KB).
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bin/wisc/wisc.h"

_Static_assert(sizeof(struct tuple) == TUPLEN, "a tuple is 208 bytes");

static const u_int32_t seed[NREL] = { 3, 1, 2, 2 };

u_int32_t
relsize(int r, u_int32_t n)
{
	return r == TENKTUP1 || r == TENKTUP2 ? n : n / 10;
}

/* xorshift32: the same numbers on every machine. */
static u_int32_t
rnd(u_int32_t *s)
{
	u_int32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/*
 * unique1 of each tuple of relation r (n: TENKTUP1's size), by unique2:
 * a Fisher-Yates shuffle of 0 .. size-1 (BPRIME: the first tenth of
 * TENKTUP2's).  The caller frees it.
 */
u_int32_t *
genrel(int r, u_int32_t n)
{
	u_int32_t size = r == BPRIME ? n : relsize(r, n), i, j, t;
	u_int32_t s = 0x9e3779b9u * seed[r], *v;

	if ((v = malloc(size * sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < size; i++)
		v[i] = i;
	for (i = size - 1; i > 0; i--) {
		j = rnd(&s) % (i + 1);
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
	return v;
}

static void
strunique(char *s, u_int32_t v)
{
	memset(s, 'x', STRLEN);
	s[0] = (char)('A' + v / (26 * 26) % 26);
	s[26] = (char)('A' + v / 26 % 26);
	s[STRLEN - 1] = (char)('A' + v % 26);
}

void
mktuple(struct tuple *t, u_int32_t unique1, u_int32_t unique2)
{
	static const char four[] = "AHOV";

	t->unique1 = unique1;
	t->unique2 = unique2;
	t->two = unique1 % 2;
	t->four = unique1 % 4;
	t->ten = unique1 % 10;
	t->twenty = unique1 % 20;
	t->hundred = unique1 % 100;
	t->thousand = unique1 % 1000;
	t->twothous = unique1 % 2000;
	t->fivethous = unique1 % 5000;
	t->tenthous = unique1 % 10000;
	t->odd100 = unique1 % 50 * 2 + 1;
	t->even100 = unique1 % 50 * 2 + 2;
	strunique(t->stringu1, unique1);
	strunique(t->stringu2, unique2);
	memset(t->string4, 'x', STRLEN);
	t->string4[0] = t->string4[26] = t->string4[STRLEN - 1] =
	    four[unique1 % 4];
}

/* bt_load's source for one of a relation's three files. */
struct source {
	int	  file;		/* F_TUPLES, F_U1 or F_H */
	u_int32_t next, size;
	const u_int32_t *u1;	/* unique1 by unique2 */
	u_int32_t *order;	/* F_U1, F_H: unique2s in the file's order */
	u_int8_t  key[8];
	u_int8_t  data[4];
	struct tuple t;
};

static int
nextentry(void *arg, DBT *key, DBT *data)
{
	struct source *s = arg;
	u_int32_t u2;

	if (s->next == s->size)
		return DB_NOTFOUND;
	u2 = s->file == F_TUPLES ? s->next : s->order[s->next];
	s->next++;
	key->data = s->key;
	switch (s->file) {
	case F_TUPLES:
		mktuple(&s->t, s->u1[u2], u2);
		bekey(u2, s->key);
		key->size = 4;
		data->data = &s->t;
		data->size = TUPLEN;
		break;
	case F_U1:
		bekey(s->u1[u2], s->key);
		bekey(u2, s->data);
		key->size = 4;
		data->data = s->data;
		data->size = 4;
		break;
	default:
		bekey(s->u1[u2] % 100, s->key);
		bekey(u2, s->key + 4);
		key->size = 8;
		data->data = s->data;
		data->size = 0;
	}
	return 0;
}

/* qsort of unique2s by their unique1 (F_U1) or hundred (F_H). */
static const u_int32_t *sort_u1;

static int
by_u1(const void *a, const void *b)
{
	u_int32_t x = sort_u1[*(const u_int32_t *)a];
	u_int32_t y = sort_u1[*(const u_int32_t *)b];

	return x < y ? -1 : x > y;
}

static int
by_hundred(const void *a, const void *b)
{
	u_int32_t x = *(const u_int32_t *)a, y = *(const u_int32_t *)b;
	u_int32_t hx = sort_u1[x] % 100, hy = sort_u1[y] % 100;

	if (hx != hy)
		return hx < hy ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Make one B-tree of relation r and say its size. */
static int
mkfile(const char *dir, int r, int file, const u_int32_t *u1,
    u_int32_t size, u_int32_t fill, u_int64_t *total)
{
	struct btreeinfo bi;
	struct source s;
	struct btree *bt;
	char path[1024];
	u_int32_t i, pages;
	int rv;

	memset(&s, 0, sizeof(s));
	s.file = file;
	s.size = size;
	s.u1 = u1;
	if (file != F_TUPLES) {
		if ((s.order = malloc(size * sizeof(*s.order))) == NULL)
			return -1;
		for (i = 0; i < size; i++)
			s.order[i] = i;
		sort_u1 = u1;
		qsort(s.order, size, sizeof(*s.order),
		    file == F_U1 ? by_u1 : by_hundred);
	}
	relpath(path, sizeof(path), dir, r, file);
	memset(&bi, 0, sizeof(bi));
	bi.psize = PSIZE;
	bi.cache = CACHEKB * 1024 / PSIZE;
	bi.fill = fill;
	rv = -1;
	if ((bt = bt_open(path, O_RDWR | O_CREAT | O_EXCL, 0644, &bi,
	    NULL)) != NULL) {
		rv = bt_load(bt, nextentry, &s);
		pages = bt_npages(bt);
		if (bt_close(bt) < 0)
			rv = -1;
	}
	free(s.order);
	if (rv < 0) {
		fprintf(stderr, "wisc: %s: %s\n", path, strerror(errno));
		return -1;
	}
	printf("wisc: %s: %u entries in %u pages (%u KB)\n",
	    strrchr(path, '/') + 1, size, pages, pages * (PSIZE / 1024));
	*total += pages;
	return 0;
}

int
load(const char *dir, u_int32_t n, u_int32_t fill)
{
	static const int files[] = { F_TUPLES, F_U1, F_H };
	char path[1024];
	u_int64_t total = 0;
	u_int32_t *u1;
	FILE *f;
	int r, i, rv;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "wisc: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/params", dir);
	if ((f = fopen(path, "w")) == NULL ||
	    fprintf(f, "tuples %u fill %u\n", n, fill) < 0 || fclose(f) != 0) {
		fprintf(stderr, "wisc: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (r = 0; r < NREL; r++) {
		if ((u1 = genrel(r, n)) == NULL)
			return -1;
		rv = 0;
		for (i = 0; i < 3 && rv == 0; i++)
			rv = mkfile(dir, r, files[i], u1, relsize(r, n), fill,
			    &total);
		free(u1);
		if (rv < 0)
			return -1;
	}
	sync();
	printf("wisc: loaded %u tuples, %llu pages (%llu KB)\n",
	    2 * n + 2 * (n / 10), (unsigned long long)total,
	    (unsigned long long)total * (PSIZE / 1024));
	return 0;
}
