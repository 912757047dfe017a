/*
 * Intrusive lists, as 4.4BSD's <sys/queue.h>: LIST (doubly linked, head
 * pointer only) and TAILQ (doubly linked with a tail pointer).
 */
#ifndef _KERN_QUEUE_H_
#define _KERN_QUEUE_H_

#define LIST_HEAD(name, type)	struct name { struct type *lh_first; }
#define LIST_ENTRY(type)	struct { struct type *le_next, **le_prev; }
#define LIST_FIRST(h)		((h)->lh_first)
#define LIST_NEXT(e, f)		((e)->f.le_next)
#define LIST_EMPTY(h)		((h)->lh_first == NULL)
#define LIST_INIT(h)		((h)->lh_first = NULL)
#define LIST_FOREACH(v, h, f)	for ((v) = (h)->lh_first; (v); (v) = (v)->f.le_next)
#define LIST_INSERT_HEAD(h, e, f) do {					\
	if (((e)->f.le_next = (h)->lh_first) != NULL)			\
		(h)->lh_first->f.le_prev = &(e)->f.le_next;		\
	(h)->lh_first = (e);						\
	(e)->f.le_prev = &(h)->lh_first;				\
} while (0)
#define LIST_REMOVE(e, f) do {						\
	if ((e)->f.le_next != NULL)					\
		(e)->f.le_next->f.le_prev = (e)->f.le_prev;		\
	*(e)->f.le_prev = (e)->f.le_next;				\
	(e)->f.le_prev = NULL;						\
} while (0)

#define TAILQ_HEAD(name, type)	struct name { struct type *tqh_first, **tqh_last; }
#define TAILQ_ENTRY(type)	struct { struct type *tqe_next, **tqe_prev; }
#define TAILQ_FIRST(h)		((h)->tqh_first)
#define TAILQ_NEXT(e, f)	((e)->f.tqe_next)
#define TAILQ_EMPTY(h)		((h)->tqh_first == NULL)
#define TAILQ_INIT(h) do {						\
	(h)->tqh_first = NULL;						\
	(h)->tqh_last = &(h)->tqh_first;				\
} while (0)
#define TAILQ_FOREACH(v, h, f)	for ((v) = (h)->tqh_first; (v); (v) = (v)->f.tqe_next)
#define TAILQ_INSERT_HEAD(h, e, f) do {					\
	if (((e)->f.tqe_next = (h)->tqh_first) != NULL)			\
		(h)->tqh_first->f.tqe_prev = &(e)->f.tqe_next;		\
	else								\
		(h)->tqh_last = &(e)->f.tqe_next;			\
	(h)->tqh_first = (e);						\
	(e)->f.tqe_prev = &(h)->tqh_first;				\
} while (0)
#define TAILQ_INSERT_TAIL(h, e, f) do {					\
	(e)->f.tqe_next = NULL;						\
	(e)->f.tqe_prev = (h)->tqh_last;				\
	*(h)->tqh_last = (e);						\
	(h)->tqh_last = &(e)->f.tqe_next;				\
} while (0)
#define TAILQ_INSERT_BEFORE(le, e, f) do {				\
	(e)->f.tqe_prev = (le)->f.tqe_prev;				\
	(e)->f.tqe_next = (le);						\
	*(le)->f.tqe_prev = (e);					\
	(le)->f.tqe_prev = &(e)->f.tqe_next;				\
} while (0)
#define TAILQ_REMOVE(h, e, f) do {					\
	if ((e)->f.tqe_next != NULL)					\
		(e)->f.tqe_next->f.tqe_prev = (e)->f.tqe_prev;		\
	else								\
		(h)->tqh_last = (e)->f.tqe_prev;			\
	*(e)->f.tqe_prev = (e)->f.tqe_next;				\
} while (0)

#endif
