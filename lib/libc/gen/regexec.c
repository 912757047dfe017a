/*
 * regexec(3): run a compiled regular expression (regprog.h) over a
 * string, for the leftmost-longest match POSIX asks for.  With
 * REG_STARTEND (4.4BSD's) the subject is string[pmatch[0].rm_so ..
 * pmatch[0].rm_eo), NUL bytes and all, and the offsets returned are
 * still from string; the text before rm_so is seen by \< \> \b \B.
 *
 * The machine backtracks: it follows one thread of the program at a
 * time and, at each SPLIT, keeps the second choice on a stack of jobs
 * to come back to; a SAVE or MARK pushes a job that puts the old value
 * back, so a thread that fails leaves the captures as they were.
 * Start positions are tried from the left.  At the first position where
 * the program matches, the search goes on through the remaining jobs
 * and keeps the longest match (first found among equals: the greedy
 * choices, which give the subexpressions their POSIX values in the
 * usual cases).
 *
 * Without back-references, whether a thread can still match depends
 * only on its instruction and position, so each (instruction, position)
 * pair is followed at most once (a bit in "visited"): the whole search
 * takes time proportional to the program's length times the string's,
 * whatever the pattern, like RE2's "bit state" matcher.  A pattern with
 * back-references is searched without that memory, and may take time
 * exponential in the string in the worst case (as in every matcher:
 * back-references make matching NP-hard); once it has a match, a
 * budget of steps bounds the search for a longer one.
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "regprog.h"

/* Largest "visited" bitmap, in bytes; a larger search goes without. */
#define VISITED_MAX	(4 * 1024 * 1024)
/* Steps allowed after the first match without "visited" (back-refs). */
#define LONGER_BUDGET	100000

struct job {
	int	 pc;		/* >= 0: go on at pc; < 0: restore slot -pc-1 */
	int	 pos;		/* the position, or the slot's old value */
};

struct machine {
	const struct prog *prog;
	const char *str;
	int	 begin, len;	/* the subject is str[begin..len) */
	int	 cflags, eflags;
	int	 nslot;		/* 2 per group (group 0 unused), 1 per loop */
	int	 nsave;		/* the slots of the groups: 2 * (nsub + 1) */
	int	*cap;		/* the slots as this thread has them */
	int	*best;		/* those of the longest match so far */
	int	 bestend;	/* -1: no match yet */
	unsigned char *visited;	/* NULL: not kept */
	long	 budget;
	struct job *jobs;
	int	 njobs, maxjobs;
	int	 nomem;
};

static int
visit(struct machine *m, int pc, int pos)
{
	unsigned long bit;

	if (m->visited == NULL)
		return 1;
	bit = (unsigned long)pc * (m->len + 1) + pos;
	if (m->visited[bit >> 3] & (1 << (bit & 7)))
		return 0;
	m->visited[bit >> 3] |= 1 << (bit & 7);
	return 1;
}

static void
push(struct machine *m, int pc, int pos)
{
	struct job *j;

	if (m->njobs == m->maxjobs) {
		m->maxjobs = m->maxjobs ? m->maxjobs * 2 : 64;
		if ((j = realloc(m->jobs, m->maxjobs * sizeof(*j))) == NULL) {
			m->nomem = 1;
			m->njobs = 0;
			return;
		}
		m->jobs = j;
	}
	m->jobs[m->njobs].pc = pc;
	m->jobs[m->njobs].pos = pos;
	m->njobs++;
}

/* Set a slot, first pushing the job that undoes it. */
static void
setslot(struct machine *m, int slot, int pos)
{
	push(m, -slot - 1, m->cap[slot]);
	m->cap[slot] = pos;
}

static int
isword(int c)
{
	return isalnum(c) || c == '_';
}

/* GNU's word edges: \< start, \> end, \b either, \B neither */
static int
wordedge(struct machine *m, int kind, int pos)
{
	int before = pos > 0 && isword((unsigned char)m->str[pos - 1]);
	int after = pos < m->len && isword((unsigned char)m->str[pos]);

	switch (kind) {
	case '<':
		return !before && after;
	case '>':
		return before && !after;
	case 'b':
		return before != after;
	}
	return before == after;
}

static int
backref(struct machine *m, int group, int pos)
{
	int so = m->cap[2 * group], eo = m->cap[2 * group + 1], i;
	const char *a, *b;

	if (so < 0 || eo < so || m->len - pos < eo - so)
		return -1;
	a = m->str + so;
	b = m->str + pos;
	for (i = 0; i < eo - so; i++)
		if (a[i] != b[i] && !((m->cflags & REG_ICASE) &&
		    tolower((unsigned char)a[i]) == tolower((unsigned char)b[i])))
			return -1;
	return pos + eo - so;
}

/* Does the instruction at pc match the byte at pos? */
static int
byte(struct machine *m, const struct inst *in, int pos)
{
	int c;

	if (pos >= m->len)
		return 0;
	c = (unsigned char)m->str[pos];
	if (in->op == I_SET)
		return (in->set[c >> 3] >> (c & 7)) & 1;
	if (m->cflags & REG_ICASE)
		c = tolower(c);
	return c == in->arg;
}

/* Run the machine from one start position; 1 if the search is over. */
static int
run(struct machine *m, int start)
{
	const struct inst *in;
	int pc, pos, newline = m->cflags & REG_NEWLINE;

	if (!visit(m, 0, start))
		return 0;
	push(m, 0, start);
	while (m->njobs > 0) {
		m->njobs--;
		pc = m->jobs[m->njobs].pc;
		pos = m->jobs[m->njobs].pos;
		if (pc < 0) {
			m->cap[-pc - 1] = pos;
			continue;
		}
		/* follow one thread until it fails */
		for (;;) {
			if (m->bestend >= 0 && m->visited == NULL &&
			    --m->budget <= 0)
				return 1;
			in = &m->prog->inst[pc];
			switch (in->op) {
			case I_CHAR:
			case I_SET:
				if (!byte(m, in, pos))
					goto fail;
				pc++, pos++;
				break;
			case I_BOL:
				if (!((pos == m->begin && !(m->eflags & REG_NOTBOL)) ||
				    (newline && pos > m->begin &&
				    m->str[pos - 1] == '\n')))
					goto fail;
				pc++;
				break;
			case I_EOL:
				if (!((pos == m->len && !(m->eflags & REG_NOTEOL)) ||
				    (newline && pos < m->len && m->str[pos] == '\n')))
					goto fail;
				pc++;
				break;
			case I_WORD:
				if (!wordedge(m, in->arg, pos))
					goto fail;
				pc++;
				break;
			case I_SAVE:
				setslot(m, in->arg, pos);
				pc++;
				break;
			case I_MARK:
				setslot(m, m->nsave + in->arg, pos);
				pc++;
				break;
			case I_CHECK:
				/* an empty iteration: no further */
				if (m->cap[m->nsave + in->arg] == pos)
					goto fail;
				pc++;
				break;
			case I_BACKREF:
				if ((pos = backref(m, in->arg, pos)) < 0)
					goto fail;
				pc++;
				break;
			case I_SPLIT:
				if (visit(m, in->y, pos))
					push(m, in->y, pos);
				pc = in->x;
				break;
			case I_JMP:
				pc = in->x;
				break;
			case I_MATCH:
				if (pos > m->bestend) {
					m->bestend = pos;
					memcpy(m->best, m->cap,
					    m->nsave * sizeof(int));
				}
				if (pos == m->len)
					return 1;	/* nothing can be longer */
				goto fail;
			}
			if (m->nomem)
				return 1;
			if (!visit(m, pc, pos))
				goto fail;
		}
	fail:
		;
	}
	return m->bestend >= 0;
}

int
regexec(const regex_t *re, const char *string, size_t nmatch,
    regmatch_t pmatch[], int eflags)
{
	const struct prog *prog = re->re_prog;
	const struct inst *first;
	struct machine m;
	unsigned long bits;
	const char *s;
	int start, i, ret;

	if (prog == NULL)
		return REG_BADPAT;
	memset(&m, 0, sizeof(m));
	m.prog = prog;
	m.str = string;
	if (eflags & REG_STARTEND) {
		if (pmatch == NULL || pmatch[0].rm_so < 0 ||
		    pmatch[0].rm_eo < pmatch[0].rm_so)
			return REG_BADPAT;
		m.begin = pmatch[0].rm_so;
		m.len = pmatch[0].rm_eo;
	} else
		m.len = strlen(string);
	m.cflags = re->re_cflags;
	m.eflags = eflags;
	m.nsave = 2 * (re->re_nsub + 1);
	m.nslot = m.nsave + prog->nloop;
	m.bestend = -1;
	m.budget = LONGER_BUDGET;
	m.cap = malloc(m.nslot * sizeof(int));
	m.best = malloc(m.nsave * sizeof(int));
	bits = (unsigned long)prog->ninst * (m.len + 1);
	if (!prog->backrefs && bits / 8 < VISITED_MAX)
		m.visited = calloc(bits / 8 + 1, 1);
	if (m.cap == NULL || m.best == NULL ||
	    (!prog->backrefs && bits / 8 < VISITED_MAX && m.visited == NULL)) {
		ret = REG_ESPACE;
		goto out;
	}
	for (i = 0; i < m.nslot; i++)
		m.cap[i] = -1;

	first = &prog->inst[0];
	for (start = m.begin; start <= m.len; start++) {
		/* a pattern that starts with a character: only where it is */
		if (first->op == I_CHAR && !(m.cflags & REG_ICASE)) {
			s = memchr(string + start, first->arg, m.len - start);
			if (s == NULL)
				break;
			start = s - string;
		}
		/* the jobs left restore the slots: -1 everywhere again */
		for (i = 0; i < m.nslot; i++)
			m.cap[i] = -1;
		m.njobs = 0;
		if (run(&m, start) || m.nomem)
			break;
		/* anchored at the beginning: only the first position can do */
		if (first->op == I_BOL && !(m.cflags & REG_NEWLINE))
			break;
	}
	if (m.nomem)
		ret = REG_ESPACE;
	else if (m.bestend < 0)
		ret = REG_NOMATCH;
	else {
		ret = 0;
		if ((re->re_cflags & REG_NOSUB) || pmatch == NULL)
			nmatch = 0;
		for (i = 0; (size_t)i < nmatch; i++) {
			if (i == 0) {
				pmatch[0].rm_so = start;
				pmatch[0].rm_eo = m.bestend;
			} else if (i <= (int)re->re_nsub && m.best[2 * i] >= 0 &&
			    m.best[2 * i + 1] >= 0) {
				pmatch[i].rm_so = m.best[2 * i];
				pmatch[i].rm_eo = m.best[2 * i + 1];
			} else
				pmatch[i].rm_so = pmatch[i].rm_eo = -1;
		}
	}
out:
	free(m.cap);
	free(m.best);
	free(m.visited);
	free(m.jobs);
	return ret;
}
