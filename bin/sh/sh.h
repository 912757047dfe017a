/*
 * The shell's shared declarations.
 *
 * The shell reads a command line (input.c), splits it into tokens
 * (lex.c) and parses it into a tree of struct node (parse.c).  The tree
 * is evaluated (exec.c): words are expanded just before a command runs
 * (expand.c, glob.c, arith.c), redirections are applied (redir.c) and
 * children are forked and waited for as jobs (jobs.c); some commands
 * are built in (builtins.c, and echo, printf and test, whose sources are
 * the programs' own: bin/echo, bin/printf, bin/test, bin/pwd, bin/kill).  A command name is
 * looked up as POSIX orders it (exec.c: findcommand): special built-in,
 * function (func.c), built-in, then $PATH.  Aliases (alias.c) are
 * replaced by the lexer as it reads the command's first word.  Trees and
 * expansions live on a stack allocator (memalloc.c) that is popped after
 * each command; a function's tree is copied out of it.  Errors unwind to
 * the command loop with longjmp (error.c).
 *
 * The shell uses only POSIX interfaces, so the same sources also build
 * on the host for testing (tests/libc).
 */
#ifndef SH_H
#define SH_H

#include <setjmp.h>
#include <stddef.h>
#include <sys/types.h>

/* memalloc.c: a mark-and-release stack of memory */
struct stackmark {
	struct stackblock *block;
	char	*next;
	size_t	 nleft;
};
void	*stalloc(size_t);
char	*ststrdup(const char *);
char	*ststrndup(const char *, size_t);
void	 setstackmark(struct stackmark *);
void	 popstackmark(struct stackmark *);
void	*ckmalloc(size_t);
void	*ckrealloc(void *, size_t);
char	*savestr(const char *);

/* A growable string, in malloc'ed memory. */
struct strbuf {
	char	*s;
	size_t	 len, cap;
};
void	 sbinit(struct strbuf *);
void	 sbaddc(struct strbuf *, int);
void	 sbadd(struct strbuf *, const char *, size_t);
void	 sbaddstr(struct strbuf *, const char *);
void	 sbfree(struct strbuf *);

/* error.c: exceptions */
struct jmploc {
	jmp_buf	 jb;
};
#define EXERROR	1		/* syntax or expansion error */
#define EXINT	2		/* interrupted by SIGINT */
#define EXEXIT	3		/* exit requested from deep inside */
extern struct jmploc *handler;
extern int exception;
extern volatile int intpending;
void	 exraise(int) __attribute__((__noreturn__));
void	 sherror(const char *, ...)
	    __attribute__((__noreturn__, __format__(__printf__, 1, 2)));
void	 shwarn(const char *, ...) __attribute__((__format__(__printf__, 1, 2)));
void	 onint(void) __attribute__((__noreturn__));

/* input.c */
#define PEOF	(-1)
extern int whichprompt;		/* 1: PS1, 2: PS2 */
extern int plinno;		/* line number in the current input */
int	 pgetc(void);
void	 pungetc(void);
void	 setinputfd(int, int);
int	 setinputfile(const char *);
void	 setinputstring(const char *);
void	 popinput(void);
void	 popallinput(void);
int	 inputdepth(void);
void	 pushalias(const char *, const char *);
void	 markword(void);
int	 aliasactive(const char *);
void	 popaliases(void);

/* lex.c: tokens */
enum token {
	T_EOF, T_NL, T_SEMI, T_AMP, T_PIPE, T_ANDIF, T_ORIF, T_LPAREN,
	T_RPAREN, T_DSEMI, T_WORD, T_REDIR,
};
struct redir;
extern char *tokword;		/* T_WORD: the raw text */
extern int tokquoted;		/* T_WORD: had quoting */
extern int tokredir;		/* T_REDIR: R_* type */
extern int tokfd;		/* T_REDIR: explicit fd, or -1 */
extern int aliascheck;		/* the next word may be an alias */
enum token gettoken(void);
void	 ungettoken(void);
void	 heredocwanted(struct redir *);
void	 lexreset(void);
const char *tokname(enum token);

/* parse.c: the tree */
struct word {
	struct word *next;
	char	*text;		/* raw, quotes and $ still in it */
};
#define R_IN		1	/* <  */
#define R_OUT		2	/* >  */
#define R_CLOBBER	3	/* >| */
#define R_APPEND	4	/* >> */
#define R_RDWR		5	/* <> */
#define R_DUPIN		6	/* <& */
#define R_DUPOUT	7	/* >& */
#define R_HEREDOC	8	/* << */
#define R_HEREDOCTAB	9	/* <<- */
struct redir {
	struct redir *next;
	int	 type;
	int	 fd;		/* the descriptor redirected */
	char	*target;	/* raw word; here-document: the body */
	int	 quoted;	/* here-document: delimiter was quoted */
};
struct caseitem {
	struct caseitem *next;
	struct word *pats;
	struct node *body;
};
enum ntype {
	N_CMD, N_PIPE, N_AND, N_OR, N_SEQ, N_BG, N_NOT, N_SUBSHELL,
	N_BRACE, N_IF, N_WHILE, N_UNTIL, N_FOR, N_CASE, N_DEFUN,
};
struct node {
	enum ntype type;
	struct node *left;	/* first operand, condition, body */
	struct node *right;	/* second operand, then-part, loop body */
	struct node *els;	/* else-part */
	struct word *words;	/* command words, for-list, case subject */
	struct word *assigns;	/* leading NAME=value words */
	struct redir *redir;
	struct caseitem *cases;
	char	*var;		/* for: the variable; defun: the name */
	int	 forall;	/* for without "in": "$@" */
};
#define NEOF	((struct node *)1)	/* parsecmd: end of input */
struct node *parsecmd(void);
int	 isassignment(const char *);
int	 isname(const char *);

/* var.c */
#define V_EXPORT	0x01
extern int exitstatus;		/* $? */
extern pid_t rootpid;		/* $$ */
extern pid_t backgndpid;	/* $! */
extern char *arg0;		/* $0 */
extern int nparam;		/* $# */
extern char **params;		/* $1 ... */
extern int eflag, xflag, iflag;

/* histedit.c */
extern int Eflag;
int	 editline(int, const char *, char *, int);
int	 historycmd(int, char **);
void	 initvar(char **);
char	*lookupvar(const char *);
void	 setvar(const char *, const char *, int);
void	 setvareq(const char *, int);
void	 unsetvar(const char *);
void	 exportvar(const char *);
char	**environment(void);
void	 listvars(int);
void	 setparams(int, char **);
struct paramsave {
	int	 n;
	char	**v;
};
void	 saveparams(struct paramsave *, int, char **);
void	 restoreparams(struct paramsave *);
void	 clearunexported(void);
char	*optflags(void);

/* expand.c */
struct arglist {
	char	**v;
	int	 n, cap;
};
#define EXP_FULL	0x01	/* field splitting and pathname expansion */
#define EXP_TILDE	0x02	/* tilde expansion */
#define EXP_PATTERN	0x04	/* a case pattern: keep quoting as \ */
#define EXP_HEREDOC	0x08	/* a here-document body */
void	 expandarg(const char *, struct arglist *, int);
char	*expandword(const char *, int);
void	 arglistadd(struct arglist *, char *);
char	*cmdsubst(const char *);

/* glob.c */
int	 hasmeta(const char *);
int	 glob1(const char *, struct arglist *);

/* arith.c */
long	 arith(const char *);

/* redir.c */
#define REDIR_PUSH	0x01	/* save what is replaced, for popredir */
int	 redirect(struct redir *, int);
void	 popredir(void);
int	 redirdepth(void);
void	 unwindredir(int);
int	 privatefd(int);

/* jobs.c */
#define FORK_FG		0
#define FORK_BG		1
#define FORK_NOJOB	2	/* command substitution, here-doc writer */
struct job;
extern int jobctl;
void	 setjobctl(void);
struct job *makejob(int);
pid_t	 forkshell(struct job *, int);
int	 waitforjob(struct job *);
void	 showjobs(int);
int	 waitcmd(int, char **);
int	 fgcmd(int, char **);
int	 bgcmd(int, char **);
int	 killjobcmd(int, char **);
void	 resetsignals(void);

/* exec.c */
#define EV_EXIT		0x01	/* exit after evaluating: no fork needed */
#define EV_TESTED	0x02	/* status is tested: set -e ignores it */
extern int evalskip;		/* SKIPBREAK, SKIPCONT: unwinding a loop */
extern int skipcount;
extern int loopnest;
extern int substatus;		/* status of the last $(...), or -1 */
#define SKIPBREAK	1
#define SKIPCONT	2
#define SKIPRETURN	3	/* unwinding a function or "." file */
int	 evaltree(struct node *, int);
int	 evalstring(const char *, int);
void	 shellexec(char **, char **) __attribute__((__noreturn__));
void	 exitshell(int) __attribute__((__noreturn__));
int	 cmdloop(int);

/* builtins.c */
typedef int (*builtin_t)(int, char **);
struct builtin {
	const char *name;
	builtin_t fn;
	int	 special;	/* POSIX special built-in: found before functions */
};
const struct builtin *findbuiltin(const char *);
int	 execcmd(int, char **);
extern int dotnest;		/* "." files being read */

/* exec.c: what a command name means */
#define CMD_NOTFOUND	0
#define CMD_SPECIAL	1	/* special built-in */
#define CMD_FUNCTION	2
#define CMD_BUILTIN	3
#define CMD_PATH	4	/* a program: path is its file */
#define FC_PATH		0x01	/* search $PATH too */
#define FC_NOFUNC	0x02	/* skip functions ("command name") */
struct cmdentry {
	int	 kind;
	const struct builtin *bltin;
	struct funcdef *func;
	char	*path;		/* on the stack */
};
void	 findcommand(const char *, struct cmdentry *, int);
char	*pathsearch(const char *, int);
int	 runcommand(int, char **, int);

/* func.c: shell functions */
struct funcdef;
extern int funcnest;		/* functions being run */
void	 defunc(const char *, struct node *);
struct funcdef *findfunc(const char *);
int	 printfunc(const char *);
int	 unsetfunc(const char *);
int	 callfunc(struct funcdef *, int, char **, int);

/* show.c: the tree as shell text */
void	 showfunc(const char *, const struct node *);

/* alias.c */
const char *lookupalias(const char *);
void	 printalias(const char *, const char *);
int	 aliascmd(int, char **);
int	 unaliascmd(int, char **);

/* the programs' sources, compiled into the shell with -DSHELL */
int	 echocmd(int, char **);
int	 printfcmd(int, char **);
int	 testcmd(int, char **);
int	 pwdcmd(int, char **);
int	 killcmd(int, char **);
int	 goodpwd(const char *);		/* $PWD names "." logically */

#endif
