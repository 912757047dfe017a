/*
 * The compiled form of a regular expression, made by regcomp.c and run
 * by regexec.c: a program for a backtracking machine, in the manner of
 * Thompson's and Pike's.  Each instruction either matches at the
 * current position and goes on to the next instruction, or fails; SPLIT
 * tries x first and, if that fails, y, which is how alternation and
 * repetition are made (greedy: x is the longer way).
 *
 *	e1|e2	SPLIT L1 L2; L1: e1; JMP L3; L2: e2; L3:
 *	e*	L1: SPLIT L2 L3; L2: MARK k; e; CHECK k; JMP L1; L3:
 *	e{2,3}	e; e; SPLIT L1 L2; L1: e; L2:
 *	\(e\)	SAVE 2n; e; SAVE 2n+1
 *
 * MARK and CHECK keep a loop from taking an empty iteration for ever.
 */
#ifndef _REGPROG_H_
#define _REGPROG_H_

enum { I_CHAR, I_SET, I_BOL, I_EOL, I_WORD, I_SAVE, I_SPLIT, I_JMP,
	I_BACKREF, I_MARK, I_CHECK, I_MATCH };

struct inst {
	int	 op;
	int	 arg;		/* CHAR: byte; SAVE: slot; BACKREF: group;
				   MARK, CHECK: loop number; WORD: < > b B */
	int	 x, y;		/* SPLIT: first and second choice; JMP: x */
	unsigned char set[32];	/* SET: bit c set if byte c is in it */
};

struct prog {
	struct inst *inst;
	int	 ninst;
	int	 nloop;		/* MARK registers */
	int	 backrefs;	/* it has a back-reference */
};

/* A program longer than this is refused (REG_ESPACE): a{255}{255}... */
#define REG_MAXINST	30000

#endif
