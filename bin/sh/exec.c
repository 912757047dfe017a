/*
 * Evaluation of the parse tree.
 *
 * evaltree walks a tree and returns its exit status (also left in
 * exitstatus, $?).  A simple command is expanded, then run as a built-in
 * in the shell or forked and exec'ed; a pipeline forks one child per
 * command, joined by pipes, as one job; a subshell or background job
 * forks a child that evaluates its part of the tree and exits.  With
 * EV_EXIT the shell is going to exit after this command anyway (it is a
 * child already), so an external command is exec'ed without a fork.
 *
 * break and continue unwind loops through evalskip and skipcount;
 * return unwinds a function's body (or a "." file) the same way.
 * With set -e, a failing command whose status is not being tested (as
 * it is in an if or while condition, or before && or ||) ends the shell.
 */
#include <sys/stat.h>
#include <errno.h>
#include <fnmatch.h>
#include <paths.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

int evalskip;
int substatus;		/* status of the last $(...), or -1 */
int skipcount;
int loopnest;

static int evalcommand(struct node *, int);

void
exitshell(int status)
{
	fflush(stdout);
	fflush(stderr);
	_exit(status);
}

/*
 * A break or continue is unwinding.  Returns 1 if the current loop must
 * stop, 0 if it goes on with its next iteration.
 */
static int
skiploop(void)
{
	if (evalskip == SKIPRETURN)
		return 1;
	if (--skipcount > 0)
		return 1;		/* for an outer loop */
	if (evalskip == SKIPCONT) {
		evalskip = 0;
		return 0;
	}
	evalskip = 0;
	return 1;
}

static int
evalloop(struct node *n)
{
	int status, s;

	status = 0;
	loopnest++;
	for (;;) {
		s = evaltree(n->left, EV_TESTED);
		if (evalskip) {
			if (skiploop())
				break;
			continue;
		}
		if ((s == 0) == (n->type == N_UNTIL))
			break;
		status = evaltree(n->right, 0);
		if (evalskip && skiploop())
			break;
	}
	loopnest--;
	return status;
}

static int
evalfor(struct node *n)
{
	struct arglist al;
	struct word *w;
	int i, status;

	al.v = NULL;
	al.n = al.cap = 0;
	if (n->forall)
		for (i = 0; i < nparam; i++)
			arglistadd(&al, params[i]);
	for (w = n->words; w != NULL; w = w->next)
		expandarg(w->text, &al, EXP_FULL | EXP_TILDE);
	status = 0;
	loopnest++;
	for (i = 0; i < al.n; i++) {
		setvar(n->var, al.v[i], 0);
		status = evaltree(n->right, 0);
		if (evalskip && skiploop())
			break;
	}
	loopnest--;
	return status;
}

static int
evalcase(struct node *n, int flags)
{
	struct caseitem *ci;
	struct word *pat;
	char *subject;

	subject = expandword(n->words->text, EXP_TILDE);
	for (ci = n->cases; ci != NULL; ci = ci->next)
		for (pat = ci->pats; pat != NULL; pat = pat->next)
			if (fnmatch(expandword(pat->text,
			    EXP_PATTERN | EXP_TILDE), subject, 0) == 0)
				return evaltree(ci->body, flags);
	return 0;
}

static int
evalsubshell(struct node *n, int flags)
{
	struct job *jp;

	if (!(flags & EV_EXIT)) {
		jp = makejob(1);
		if (forkshell(jp, FORK_FG) != 0)
			return waitforjob(jp);
	}
	if (redirect(n->redir, 0) < 0)
		exitshell(1);
	evaltree(n->left, EV_EXIT);
	exitshell(exitstatus);
}

static int
evalbg(struct node *n)
{
	if (forkshell(makejob(1), FORK_BG) == 0)
		evaltree(n->left, EV_EXIT);
	return 0;
}

static int
evalpipe(struct node *n)
{
	struct node *lp, *cmd;
	struct job *jp;
	int pip[2], prevfd, nprocs, last;

	nprocs = 1;
	for (lp = n; lp->type == N_PIPE; lp = lp->right)
		nprocs++;
	jp = makejob(nprocs);
	prevfd = -1;
	for (lp = n;; lp = lp->right) {
		last = lp->type != N_PIPE;
		cmd = last ? lp : lp->left;
		if (!last && pipe(pip) < 0) {
			if (prevfd >= 0)
				close(prevfd);
			shwarn("cannot create pipe: %s", strerror(errno));
			waitforjob(jp);
			return 1;
		}
		if (forkshell(jp, FORK_FG) == 0) {
			if (prevfd >= 0) {
				dup2(prevfd, 0);
				close(prevfd);
			}
			if (!last) {
				close(pip[0]);
				if (pip[1] != 1) {
					dup2(pip[1], 1);
					close(pip[1]);
				}
			}
			evaltree(cmd, EV_EXIT);
		}
		if (prevfd >= 0)
			close(prevfd);
		if (last)
			break;
		close(pip[1]);
		prevfd = pip[0];
	}
	return waitforjob(jp);
}

/* Commands evaluated in the shell itself, with their redirections. */
static int
evalcompound(struct node *n, int flags)
{
	int status;

	if (redirect(n->redir, REDIR_PUSH) < 0) {
		popredir();
		return 1;
	}
	flags &= ~EV_EXIT;
	switch (n->type) {
	case N_BRACE:
		status = evaltree(n->left, flags);
		break;
	case N_IF:
		status = evaltree(n->left, EV_TESTED);
		if (evalskip)
			break;
		if (status == 0)
			status = evaltree(n->right, flags);
		else if (n->els != NULL)
			status = evaltree(n->els, flags);
		else
			status = 0;
		break;
	case N_WHILE:
	case N_UNTIL:
		status = evalloop(n);
		break;
	case N_FOR:
		status = evalfor(n);
		break;
	default:
		status = evalcase(n, flags);
		break;
	}
	fflush(stdout);
	popredir();
	return status;
}

int
evaltree(struct node *n, int flags)
{
	int status;

	if (intpending) {
		intpending = 0;
		onint();
	}
	if (n == NULL)
		status = 0;
	else switch (n->type) {
	case N_SEQ:
		evaltree(n->left, flags & ~EV_EXIT);
		status = evalskip ? exitstatus : evaltree(n->right, flags);
		break;
	case N_AND:
	case N_OR:
		status = evaltree(n->left, (flags & ~EV_EXIT) | EV_TESTED);
		if (!evalskip && (status == 0) == (n->type == N_AND))
			status = evaltree(n->right, flags);
		break;
	case N_NOT:
		status = !evaltree(n->left, (flags & ~EV_EXIT) | EV_TESTED);
		break;
	case N_BG:
		status = evalbg(n);
		break;
	case N_PIPE:
		status = evalpipe(n);
		break;
	case N_CMD:
		status = evalcommand(n, flags);
		break;
	case N_SUBSHELL:
		status = evalsubshell(n, flags);
		break;
	case N_DEFUN:
		defunc(n->var, n->left);
		status = 0;
		break;
	default:
		status = evalcompound(n, flags);
		break;
	}
	exitstatus = status;
	if (eflag && status != 0 && !(flags & EV_TESTED) && n != NULL &&
	    (n->type == N_CMD || n->type == N_PIPE || n->type == N_SUBSHELL))
		exitshell(status);
	if (flags & EV_EXIT)
		exitshell(status);
	return status;
}

/* A file execve refused as not a program: run it as a script, here. */
static void
runscript(char *path, char **argv)
{
	int argc;

	for (argc = 0; argv[argc] != NULL; argc++)
		continue;
	clearunexported();
	setparams(argc > 0 ? argc - 1 : 0, argv + 1);
	arg0 = savestr(path);
	eflag = xflag = 0;
	loopnest = evalskip = 0;
	if (setinputfile(path) < 0) {
		shwarn("cannot open %s: %s", path, strerror(errno));
		exitshell(126);
	}
	exitshell(cmdloop(0));
}

/*
 * Exec argv[0], searching $PATH if it has no slash.  Does not return:
 * if nothing could be run, says why and exits with 127 (not found) or
 * 126 (found but not runnable).
 */
void
shellexec(char **argv, char **envp)
{
	const char *path, *p, *end;
	struct strbuf full;
	int e;

	if (strchr(argv[0], '/') != NULL) {
		execve(argv[0], argv, envp);
		if (errno == ENOEXEC)
			runscript(argv[0], argv);
		e = errno;
	} else {
		if ((path = lookupvar("PATH")) == NULL)
			path = _PATH_DEFPATH;
		e = ENOENT;
		sbinit(&full);
		for (p = path;; p = end + 1) {
			if ((end = strchr(p, ':')) == NULL)
				end = p + strlen(p);
			full.len = 0;
			if (end == p)
				sbaddc(&full, '.');
			else
				sbadd(&full, p, end - p);
			sbaddc(&full, '/');
			sbaddstr(&full, argv[0]);
			execve(full.s, argv, envp);
			if (errno == ENOEXEC)
				runscript(full.s, argv);
			if (errno != ENOENT && errno != ENOTDIR)
				e = errno;
			if (*end == '\0')
				break;
		}
	}
	if (e == ENOENT || e == ENOTDIR) {
		shwarn("%s: not found", argv[0]);
		exitshell(127);
	}
	shwarn("%s: %s", argv[0], strerror(e));
	exitshell(126);
}

/*
 * The file that name stands for in $PATH: a regular file, executable if
 * exec is set (a program), readable otherwise (a "." file).  A name with
 * a slash is not searched for, only checked.  Returns a string on the
 * stack, or NULL.
 */
char *
pathsearch(const char *name, int exec)
{
	struct stat st;
	const char *path, *p, *end;
	char *full;
	size_t dirlen;

	if (strchr(name, '/') != NULL)
		return stat(name, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(name, exec ? X_OK : R_OK) == 0 ? ststrdup(name) : NULL;
	if ((path = lookupvar("PATH")) == NULL)
		path = _PATH_DEFPATH;
	for (p = path;; p = end + 1) {
		if ((end = strchr(p, ':')) == NULL)
			end = p + strlen(p);
		dirlen = end - p;
		full = stalloc(dirlen + strlen(name) + 3);
		if (dirlen == 0)
			strcpy(full, ".");
		else {
			memcpy(full, p, dirlen);
			full[dirlen] = '\0';
		}
		strcat(full, "/");
		strcat(full, name);
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(full, exec ? X_OK : R_OK) == 0)
			return full;
		if (*end == '\0')
			break;
	}
	return NULL;
}

/*
 * What a command name means, in POSIX's order (2.9.1.1): a special
 * built-in, a function, a built-in, a program in $PATH (looked up only
 * with FC_PATH: to run one, shellexec searches anyway).
 */
void
findcommand(const char *name, struct cmdentry *ce, int flags)
{
	const struct builtin *b;

	memset(ce, 0, sizeof(*ce));
	b = strchr(name, '/') == NULL ? findbuiltin(name) : NULL;
	if (b != NULL && b->special) {
		ce->kind = CMD_SPECIAL;
		ce->bltin = b;
	} else if (!(flags & FC_NOFUNC) && (ce->func = findfunc(name)) != NULL)
		ce->kind = CMD_FUNCTION;
	else if (b != NULL) {
		ce->kind = CMD_BUILTIN;
		ce->bltin = b;
	} else if ((flags & FC_PATH) && (ce->path = pathsearch(name, 1)) != NULL)
		ce->kind = CMD_PATH;
}

/*
 * Run a built-in or a program, not a function: "command [-p] name
 * args".  With defpath the program is looked for in the default $PATH
 * (set in the child only).  The command's redirections are in place
 * already.
 */
int
runcommand(int argc, char **argv, int defpath)
{
	struct cmdentry ce;
	struct job *jp;

	findcommand(argv[0], &ce, FC_NOFUNC);
	if (ce.bltin != NULL && ce.bltin->fn != execcmd)
		return ce.bltin->fn(argc, argv);
	jp = makejob(1);
	if (forkshell(jp, FORK_FG) == 0) {
		if (defpath)
			setvar("PATH", _PATH_DEFPATH, 0);
		shellexec(argv, environment());
	}
	return waitforjob(jp);
}

static void
trace(struct arglist *assigns, struct arglist *args)
{
	int i;

	fputs("+", stderr);
	for (i = 0; i < assigns->n; i++)
		fprintf(stderr, " %s", assigns->v[i]);
	for (i = 0; i < args->n; i++)
		fprintf(stderr, " %s", args->v[i]);
	fputs("\n", stderr);
}

static int
evalcommand(struct node *n, int flags)
{
	struct arglist args, assigns;
	struct stackmark smark;
	struct word *w;
	struct job *jp;
	struct cmdentry ce;
	char *eq, *val, *text;
	size_t len;
	int i, status;

	setstackmark(&smark);
	args.v = assigns.v = NULL;
	args.n = args.cap = assigns.n = assigns.cap = 0;
	substatus = -1;		/* a command substitution may set it */
	for (w = n->assigns; w != NULL; w = w->next) {
		eq = strchr(w->text, '=');
		val = expandword(eq + 1, EXP_TILDE);
		len = eq - w->text + 1;		/* "NAME=" */
		text = stalloc(len + strlen(val) + 1);
		memcpy(text, w->text, len);
		strcpy(text + len, val);
		arglistadd(&assigns, text);
	}
	for (w = n->words; w != NULL; w = w->next)
		expandarg(w->text, &args, EXP_FULL | EXP_TILDE);
	if (xflag && (args.n > 0 || assigns.n > 0))
		trace(&assigns, &args);

	if (args.n == 0) {
		/* Only assignments and redirections: the last $(...) counts. */
		status = substatus >= 0 ? substatus : 0;
		if (n->redir != NULL) {
			if (redirect(n->redir, REDIR_PUSH) < 0)
				status = 1;
			popredir();
		}
		for (i = 0; i < assigns.n; i++)
			setvareq(assigns.v[i], 0);
		goto out;
	}
	arglistadd(&args, NULL);
	args.n--;

	findcommand(args.v[0], &ce, 0);
	if (ce.kind == CMD_FUNCTION) {
		if (redirect(n->redir, REDIR_PUSH) < 0)
			status = 1;
		else {
			for (i = 0; i < assigns.n; i++)
				setvareq(assigns.v[i], 0);
			status = callfunc(ce.func, args.n, args.v, flags);
		}
		fflush(stdout);
		popredir();
		goto out;
	}
	if (ce.bltin != NULL) {
		if (ce.bltin->fn == execcmd) {
			/* exec: the redirections stay */
			if (redirect(n->redir, 0) < 0) {
				status = 1;
				goto out;
			}
			for (i = 0; i < assigns.n; i++)
				setvareq(assigns.v[i], V_EXPORT);
			status = execcmd(args.n, args.v);
			goto out;
		}
		if (redirect(n->redir, REDIR_PUSH) < 0)
			status = 1;
		else {
			for (i = 0; i < assigns.n; i++)
				setvareq(assigns.v[i], 0);
			status = ce.bltin->fn(args.n, args.v);
		}
		fflush(stdout);
		popredir();
		goto out;
	}

	if (!(flags & EV_EXIT)) {
		jp = makejob(1);
		if (forkshell(jp, FORK_FG) != 0) {
			status = waitforjob(jp);
			goto out;
		}
	}
	/* In the child, or in a shell about to exit: become the command. */
	if (redirect(n->redir, 0) < 0)
		exitshell(1);
	for (i = 0; i < assigns.n; i++)
		setvareq(assigns.v[i], V_EXPORT);
	shellexec(args.v, environment());
out:
	popstackmark(&smark);
	return status;
}

/* Parse and run the commands in a string: sh -c, eval, $(...). */
int
evalstring(const char *s, int flags)
{
	struct stackmark smark;
	struct node *n;

	setinputstring(s);
	setstackmark(&smark);
	while ((n = parsecmd()) != NEOF) {
		if (n != NULL)
			evaltree(n, 0);
		popstackmark(&smark);
		if (evalskip)
			break;
	}
	popinput();
	if (flags & EV_EXIT)
		exitshell(exitstatus);
	return exitstatus;
}

/*
 * Read and run commands until the input ends.  The top-level loop of an
 * interactive shell survives errors and interrupts: it drops the rest of
 * the command, undoes redirections and inputs, and prompts again.  A
 * nested loop (".") passes errors up; a non-interactive shell exits.
 */
int
cmdloop(int top)
{
	struct jmploc jmploc, *volatile saved;
	struct stackmark smark;
	volatile int rdepth;
	struct node *n;

	saved = handler;
	rdepth = redirdepth();
	setstackmark(&smark);
	if (setjmp(jmploc.jb)) {
		if (exception == EXEXIT || !iflag)
			exitshell(exitstatus);
		if (!top) {
			handler = saved;
			exraise(exception);
		}
		popallinput();
		unwindredir(rdepth);
		lexreset();
		evalskip = 0;
		loopnest = 0;
		dotnest = 0;
		popstackmark(&smark);
	}
	handler = &jmploc;
	for (;;) {
		n = parsecmd();
		if (n == NEOF) {
			if (top && inputdepth() > 1) {
				popinput();	/* a profile is done */
				continue;
			}
			break;
		}
		intpending = 0;		/* a ^C before this line is spent */
		if (n != NULL)
			evaltree(n, 0);
		popstackmark(&smark);
		if (evalskip == SKIPRETURN && !top)
			break;		/* return in a "." file */
		evalskip = 0;
	}
	handler = saved;
	return exitstatus;
}
