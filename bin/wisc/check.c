/*
 * wisc check: every file of every relation against what the generator
 * makes (gen.c), so a test can see that a load is right and that an
 * update changed one tuple and no more.  For each relation:
 *
 *	tuples		missing (a unique2 of the load that is not there),
 *			extra (one that was not loaded), changed (there,
 *			but not as loaded)
 *	each index	entries that name a tuple as loaded, wrong ones
 *			(that do not), and missing (loaded tuples with no
 *			entry)
 *
 * and last "wisc check: as loaded" or "wisc check: N differences".
 */
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/wisc/wisc.h"

struct count {
	u_int32_t entries, good;
};

/* Count an index's entries, and those naming a tuple as loaded. */
static int
check_index(struct btree *bt, const u_int32_t *u1, u_int32_t size,
    int hundred, struct count *c)
{
	struct scan s;
	u_int32_t k, u2;
	int rv;

	memset(c, 0, sizeof(*c));
	if (scan_open(&s, bt, 0, UINT32_MAX) < 0)
		return -1;
	while ((rv = scan_index(&s, &k, &u2)) == 1) {
		c->entries++;
		if (u2 < size && (hundred ? u1[u2] % 100 : u1[u2]) == k)
			c->good++;
	}
	scan_close(&s);
	return rv;
}

static int
check_rel(struct wisc *w, int r, u_int32_t *diffs)
{
	struct rel *rl = &w->rel[r];
	u_int32_t size = rl->ntup, *u1, n = 0, seen = 0, extra = 0, changed = 0;
	struct count ci, ch;
	struct tuple t, e;
	struct scan s;
	int rv = -1;

	if ((u1 = genrel(r, w->n)) == NULL ||
	    rel_open(w, r, F_ALL, 0) < 0 ||
	    scan_open(&s, rl->bt, 0, UINT32_MAX) < 0)
		goto out;
	while ((rv = scan_tuple(&s, &t)) == 1) {
		n++;
		if (t.unique2 >= size) {
			extra++;
			continue;
		}
		seen++;
		mktuple(&e, u1[t.unique2], t.unique2);
		if (memcmp(&e, &t, TUPLEN) != 0)
			changed++;
	}
	scan_close(&s);
	if (rv < 0 || check_index(rl->u1, u1, size, 0, &ci) < 0 ||
	    check_index(rl->h, u1, size, 1, &ch) < 0) {
		rv = -1;
		goto out;
	}
	printf("wisc check %s: %u tuples (%u missing, %u extra, %u changed); "
	    "unique1 index %u entries (%u wrong, %u missing); "
	    "hundred index %u entries (%u wrong, %u missing)\n",
	    rl->name, n, size - seen, extra, changed,
	    ci.entries, ci.entries - ci.good, size - ci.good,
	    ch.entries, ch.entries - ch.good, size - ch.good);
	*diffs += size - seen + extra + changed + ci.entries - ci.good +
	    size - ci.good + ch.entries - ch.good + size - ch.good;
	rv = rel_close(w, r);
out:
	free(u1);
	return rv;
}

int
check(struct wisc *w)
{
	u_int32_t diffs = 0;
	int r;

	for (r = 0; r < NREL; r++)
		if (check_rel(w, r, &diffs) < 0)
			return -1;
	if (diffs == 0)
		printf("wisc check: as loaded\n");
	else
		printf("wisc check: %u differences\n", diffs);
	return 0;
}
