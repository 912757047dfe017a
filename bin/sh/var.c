/*
 * Shell variables and parameters.
 *
 * Variables are kept in a list of "name=value" strings in malloc'ed
 * memory, each marked exported or not; the environment a command gets
 * is the exported ones (environment()).  The special parameters live
 * in globals: $? exitstatus, $$ rootpid, $! backgndpid, $0 arg0, and
 * $1... in params[0..nparam-1].  The option flags (-e, -x, -i) are here
 * too, since $- reports them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

struct var {
	struct var *next;
	char	*text;		/* "name=value" */
	int	 flags;		/* V_EXPORT */
};

static struct var *vars;

int exitstatus;
pid_t rootpid;
pid_t backgndpid = -1;
char *arg0 = "sh";
int nparam;
char **params;
int eflag, xflag, iflag;

/* Does "name=value" text belong to name (ending at '=' or NUL)? */
static int
varmatch(const char *text, const char *name)
{
	while (*name != '\0' && *name != '=' && *text == *name) {
		text++;
		name++;
	}
	return *text == '=' && (*name == '\0' || *name == '=');
}

static struct var **
findvar(const char *name)
{
	struct var **vpp;

	for (vpp = &vars; *vpp != NULL; vpp = &(*vpp)->next)
		if (varmatch((*vpp)->text, name))
			break;
	return vpp;
}

char *
lookupvar(const char *name)
{
	struct var *vp;

	if ((vp = *findvar(name)) == NULL)
		return NULL;
	return strchr(vp->text, '=') + 1;
}

/* Set from "name=value"; flags are added to the variable's. */
void
setvareq(const char *text, int flags)
{
	struct var **vpp, *vp;

	vpp = findvar(text);
	if ((vp = *vpp) != NULL) {
		free(vp->text);
		vp->text = savestr(text);
		vp->flags |= flags;
		return;
	}
	vp = ckmalloc(sizeof(*vp));
	vp->text = savestr(text);
	vp->flags = flags;
	vp->next = NULL;
	*vpp = vp;
}

void
setvar(const char *name, const char *value, int flags)
{
	size_t nlen, vlen;
	char *text;

	nlen = strlen(name);
	vlen = strlen(value);
	text = ckmalloc(nlen + vlen + 2);
	memcpy(text, name, nlen);
	text[nlen] = '=';
	memcpy(text + nlen + 1, value, vlen + 1);
	setvareq(text, flags);
	free(text);
}

void
unsetvar(const char *name)
{
	struct var **vpp, *vp;

	vpp = findvar(name);
	if ((vp = *vpp) != NULL) {
		*vpp = vp->next;
		free(vp->text);
		free(vp);
	}
}

void
exportvar(const char *name)
{
	struct var *vp;

	if ((vp = *findvar(name)) != NULL)
		vp->flags |= V_EXPORT;
	else
		setvar(name, "", V_EXPORT);
}

/* Import the environment and set the shell's defaults. */
void
initvar(char **envp)
{
	char buf[16];

	for (; *envp != NULL; envp++)
		if (strchr(*envp, '=') != NULL && **envp != '=')
			setvareq(*envp, V_EXPORT);
	if (lookupvar("PS1") == NULL)
		setvar("PS1", geteuid() == 0 ? "# " : "$ ", 0);
	if (lookupvar("PS2") == NULL)
		setvar("PS2", "> ", 0);
	if (lookupvar("IFS") == NULL)
		setvar("IFS", " \t\n", 0);
	rootpid = getpid();
	snprintf(buf, sizeof(buf), "%d", (int)getppid());
	setvar("PPID", buf, 0);
}

/* The environment for a command: the exported variables, on the stack. */
char **
environment(void)
{
	struct var *vp;
	char **env;
	int n;

	n = 0;
	for (vp = vars; vp != NULL; vp = vp->next)
		if (vp->flags & V_EXPORT)
			n++;
	env = stalloc((n + 1) * sizeof(char *));
	n = 0;
	for (vp = vars; vp != NULL; vp = vp->next)
		if (vp->flags & V_EXPORT)
			env[n++] = vp->text;
	env[n] = NULL;
	return env;
}

/* Print a value so that the shell can read it back. */
static void
printquoted(const char *s)
{
	putchar('\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
	}
	putchar('\'');
}

static int
textcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* set with no arguments, or export -p: all variables, sorted. */
void
listvars(int exported)
{
	struct var *vp;
	char **list, *eq;
	int n, i;

	n = 0;
	for (vp = vars; vp != NULL; vp = vp->next)
		n++;
	list = stalloc((n + 1) * sizeof(char *));
	n = 0;
	for (vp = vars; vp != NULL; vp = vp->next)
		if (!exported || (vp->flags & V_EXPORT))
			list[n++] = vp->text;
	qsort(list, n, sizeof(char *), textcmp);
	for (i = 0; i < n; i++) {
		eq = strchr(list[i], '=');
		if (exported)
			fputs("export ", stdout);
		fwrite(list[i], 1, eq - list[i] + 1, stdout);
		printquoted(eq + 1);
		putchar('\n');
	}
}

/* Replace the positional parameters with copies of argv[0..argc-1]. */
void
setparams(int argc, char **argv)
{
	char **np;
	int i;

	np = ckmalloc((argc + 1) * sizeof(char *));
	for (i = 0; i < argc; i++)
		np[i] = savestr(argv[i]);
	np[argc] = NULL;
	for (i = 0; i < nparam; i++)
		free(params[i]);
	free(params);
	params = np;
	nparam = argc;
}

/*
 * A function call: keep the caller's positional parameters in ps and
 * set copies of argv[0..argc-1]; restoreparams puts the caller's back.
 */
void
saveparams(struct paramsave *ps, int argc, char **argv)
{
	ps->n = nparam;
	ps->v = params;
	params = NULL;
	nparam = 0;
	setparams(argc, argv);
}

void
restoreparams(struct paramsave *ps)
{
	int i;

	for (i = 0; i < nparam; i++)
		free(params[i]);
	free(params);
	params = ps->v;
	nparam = ps->n;
}

/* A script run in a child starts with the exported variables only. */
void
clearunexported(void)
{
	struct var **vpp, *vp;

	for (vpp = &vars; (vp = *vpp) != NULL;) {
		if (!(vp->flags & V_EXPORT) && !varmatch(vp->text, "PS1") &&
		    !varmatch(vp->text, "PS2") && !varmatch(vp->text, "IFS")) {
			*vpp = vp->next;
			free(vp->text);
			free(vp);
		} else
			vpp = &vp->next;
	}
}

/* $-: the option letters in effect. */
char *
optflags(void)
{
	static char buf[8];
	char *p;

	p = buf;
	if (Eflag)
		*p++ = 'E';
	if (eflag)
		*p++ = 'e';
	if (iflag)
		*p++ = 'i';
	if (xflag)
		*p++ = 'x';
	*p = '\0';
	return buf;
}
