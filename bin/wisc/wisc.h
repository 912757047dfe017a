/*
 * wisc: the Wisconsin benchmark [BITT83, DEWI91] as thesis 7.7 ran it, on
 * the record library (lib/libdb).  What gen.c (the relations), rel.c
 * (reaching them), query.c (the 32 queries), update.c (queries 26-32 and
 * putting the database back), check.c and wisc.c (the commands) share.
 *
 * The database is a directory.  Each relation (ONEKTUP, TENKTUP1,
 * TENKTUP2, BPRIME) is three B-trees of 8 KB pages, as the thesis' were:
 *
 *	NAME		the tuples, keyed by unique2: the clustered index
 *	NAME.u1		unique1 -> unique2: the non-clustered index on unique1
 *	NAME.h		(hundred, unique2), no record: the non-unique,
 *			non-clustered index on hundred (table 7-6)
 *
 * Keys are big-endian, so the B-trees' order is the numbers'.  params
 * holds the scale; tmp is the temporary relation of the last query.
 * Every B-tree has a page cache of 64 KB (thesis 7.7: "64 kilobytes per
 * B-Tree"), and a query leaves what it wrote to the kernel (no fsync),
 * as a data manager does with a temporary relation.
 */
#ifndef _WISC_H_
#define _WISC_H_

#include <sys/types.h>

#include "lib/libdb/db.h"

#define PSIZE		8192		/* B-tree pages */
#define CACHEKB		64		/* page cache per B-tree */
#define JOINKB		64		/* a nested-loop join's outer block */
#define STRLEN		52		/* stringu1, stringu2, string4 */
#define NTUPLES		10000		/* TENKTUP1 and TENKTUP2 */
#define MINTUPLES	1000
#define MAXTUPLES	17500		/* three letters of 26 number them */

/* A tuple: 13 integers and three 52-character strings (table 7-6). */
struct tuple {
	u_int32_t unique1;	/* 0 .. n-1 in random order */
	u_int32_t unique2;	/* 0 .. n-1 in order: the clustered key */
	u_int32_t two, four, ten, twenty, hundred, thousand, twothous,
		  fivethous, tenthous;	/* unique1 mod 2, 4, ... 10000 */
	u_int32_t odd100;	/* 1, 3, ... 99 */
	u_int32_t even100;	/* 2, 4, ... 100 */
	char	  stringu1[STRLEN];	/* from unique1 */
	char	  stringu2[STRLEN];	/* from unique2 */
	char	  string4[STRLEN];	/* four values, from unique1 */
};
#define TUPLEN		208

enum { ONEKTUP, TENKTUP1, TENKTUP2, BPRIME, NREL };

/* A relation's files, those that are open (NULL: not). */
struct rel {
	const char *name;
	u_int32_t ntup;		/* tuples as loaded */
	struct btree *bt;	/* tuples by unique2 */
	struct btree *u1;	/* unique1 -> unique2 */
	struct btree *h;	/* (hundred, unique2) */
};

#define F_TUPLES	0x01	/* rel_open: which files */
#define F_U1		0x02
#define F_H		0x04
#define F_ALL		(F_TUPLES | F_U1 | F_H)

/* The open database. */
struct wisc {
	const char *dir;
	u_int32_t n;		/* tuples of TENKTUP1 and TENKTUP2 */
	struct rel rel[NREL];
	struct btree *tmp;	/* the query's temporary relation */
	u_int64_t pgreads;	/* pages the closed B-trees read */
	u_int64_t pgwrites;	/* ... and wrote */
};

/* What a query found: its result's rows and the figure it checks by. */
struct result {
	u_int64_t rows;
	u_int64_t sum1, sum2;	/* unique1 and unique2 of the first relation */
	u_int64_t value;	/* an aggregate: the sum over its groups */
	int	  isagg;	/* value is meant, not sum1 and sum2 */
};

/* A query of table 7-7. */
struct query {
	int	 num;
	const char *type;	/* selection, join, ... */
	const char *sel;	/* selectivity, or group size */
	const char *index;	/* none, clustered, non-clustered */
	const char *what;	/* its definition */
	int	(*run)(struct wisc *, const struct query *, struct result *);
};

/* The constants of the queries, scaled to n (DeWitt's are for 10,000). */
#define ONEPCT(n)	((n) / 100)			/* 0 .. 99 */
#define TENLO(n)	((n) * 792 / NTUPLES)		/* 792 .. 1791 */
#define TENPCT(n)	((n) / 10)
#define SINGLE(n)	((n) * 2001 / NTUPLES)		/* unique2 = 2001 */
#define OLDKEY(n)	((n) * 1491 / NTUPLES)		/* 1491 */
#define NEWKEY(n)	((n) + 1)			/* 10001 */

/* gen.c */
u_int32_t relsize(int, u_int32_t);
u_int32_t *genrel(int, u_int32_t);
void	 mktuple(struct tuple *, u_int32_t, u_int32_t);
int	 load(const char *, u_int32_t, u_int32_t);

/* rel.c */
extern const char *const relname[NREL];
void	 bekey(u_int32_t, u_int8_t *);
void	 relpath(char *, size_t, const char *, int, int);
u_int32_t getbe(const void *);
int	 db_open(struct wisc *, const char *);
int	 rel_open(struct wisc *, int, int, int);
int	 rel_close(struct wisc *, int);
int	 db_close(struct wisc *);
int	 get_u2(struct rel *, u_int32_t, struct tuple *);
int	 get_u1(struct rel *, u_int32_t, struct tuple *);
int	 put_tuple(struct rel *, const struct tuple *, int);
int	 del_tuple(struct rel *, u_int32_t);
int	 u1_put(struct rel *, u_int32_t, u_int32_t);
int	 u1_del(struct rel *, u_int32_t);
int	 h_put(struct rel *, u_int32_t, u_int32_t);
int	 h_del(struct rel *, u_int32_t, u_int32_t);

struct scan {
	struct btcursor *c;
	int	  flags;		/* the next bt_cget's */
	u_int32_t lo, hi;	/* first and last key, inclusive */
};
int	 scan_open(struct scan *, struct btree *, u_int32_t, u_int32_t);
int	 scan_tuple(struct scan *, struct tuple *);
int	 scan_index(struct scan *, u_int32_t *, u_int32_t *);
void	 scan_close(struct scan *);

int	 tmp_create(struct wisc *);
int	 tmp_put(struct wisc *, const void *, size_t, const void *, size_t);
int	 tmp_close(struct wisc *);

/* query.c, update.c */
extern const struct query queries[];
extern const int nqueries;
int	 q_update(struct wisc *, const struct query *, struct result *);
int	 setup(struct wisc *, int);

/* check.c */
int	 check(struct wisc *);

#endif
