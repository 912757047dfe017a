/*
 * oo1: Cattell's object-operations benchmark OO1 (thesis 7.6) on libdb.
 * What oo1.c (the command, opening and closing the database), load.c
 * (making it, its sizes and its check) and ops.c (the three tests)
 * share.
 *
 * The database is a directory holding the four relations of table 7-4
 * and the transaction manager's log:
 *
 *	part		B-tree: part id -> the part (type, x, y, build date)
 *	connect_forward	B-tree: (from id, connection) -> filler
 *	connect_backward B-tree: (to id, connection) -> filler
 *	connector	fixed-length records: connection c is record c
 *			(from, to, type, length)
 *
 * Ids and connection numbers are keys as 4 big-endian bytes, so a
 * B-tree holds a part's connections together in connection order and a
 * cursor set at (id, 0) finds the first of them.  Parts are numbered 1 ..
 * nparts; part i's three connections at load are 3i - 2 .. 3i, and an
 * insert appends a part and its three connections, so the connector file
 * always holds exactly 3 * nparts records.
 *
 * Every entry takes the bytes table 7-4 gives it (63, 43, 43 and 96),
 * so the files have the thesis' sizes: the thesis' B-tree spent 28
 * bytes of each entry on overhead, ours spends 6 (a 4-byte entry header
 * and a 2-byte slot), and the records carry filler for the difference.
 */
#ifndef _OO1_H_
#define _OO1_H_

#include <sys/types.h>

#include "lib/libdb/db.h"

/* Table 7-4's entry sizes, overhead included. */
#define PART_ENTRY	63
#define CONN_ENTRY	43
#define CONNECTOR_ENTRY	96
#define BT_OVERHEAD	6	/* our leaf entry header and its slot */

#define PARTLEN		(PART_ENTRY - BT_OVERHEAD - 4)	/* key: the id */
#define CONNLEN		(CONN_ENTRY - BT_OVERHEAD - 8)	/* key: id, conn */
#define CONNECTORLEN	CONNECTOR_ENTRY	/* no per-record overhead */

#define TYPELEN		10	/* OO1's type string[10] */
#define NCONN		3	/* connections from each part */
#define HOPS		7	/* traverse: depth first, 7 hops deep */
#define TRAVERSED	3280	/* ... visiting 1 + 3 + ... + 3^7 parts */
#define LOOKUPS		1000
#define INSERTS		100
#define XYMAX		100000	/* x and y are 0 .. XYMAX - 1 */

/* A part: PARTLEN bytes of it are the B-tree's record. */
struct part {
	u_int32_t id;
	int32_t	  x, y;
	u_int32_t build;	/* build date, seconds since 1970 */
	char	  type[TYPELEN];
	char	  filler[PARTLEN - 26];
};

/* A connection: record c of the connector file. */
struct connector {
	u_int32_t from, to;
	u_int32_t length;
	char	  type[TYPELEN];
	char	  filler[CONNECTORLEN - 22];
};

/* The open database: the relations by the file names in the header. */
struct oo1 {
	const char *dir;
	struct tp_env *env;	/* the tests run in transactions; else NULL */
	struct btree *part, *fwd, *bwd;
	struct recno *conn;
	u_int32_t nparts;
};

/* The relations, in table 7-4's order: relname[REL_*] is the file. */
#define REL_PART	0
#define REL_FORWARD	1
#define REL_BACKWARD	2
#define REL_CONNECTOR	3
#define NREL		4
extern const char *const relname[NREL];

/* oo1.c */
void	 idkey(u_int32_t, u_int8_t *);
u_int32_t keyid(const void *);
void	 connkey(u_int32_t, u_int32_t, u_int8_t *);
u_int32_t rnd(u_int32_t);
void	 seed(u_int32_t);
u_int32_t pickto(u_int32_t, u_int32_t);
void	 mkpart(struct part *, u_int32_t);
void	 mkconnector(struct connector *, u_int32_t, u_int32_t);
long long now_us(void);
int	 opendb(struct oo1 *, int);
int	 closedb(struct oo1 *);
void	 iocount(struct oo1 *, u_int64_t *, u_int64_t *);

/* load.c */
int	 load(const char *, u_int32_t);
int	 sizes(const char *);
int	 check(const char *);

/* ops.c */
int	 lookup(const char *);
int	 traverse(const char *, int);
int	 insert(const char *);

#endif
