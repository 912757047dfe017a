/*
 * Built-in commands: the ones that must change the shell itself (cd,
 * exit, export, set, ...), run in the shell process, and the common
 * small programs that 4.4BSD's sh also built in so that a script does
 * not fork for them (echo, printf, test, [, pwd, kill: the programs' own
 * sources, compiled into the shell).
 *	.  :  [  alias  bg  break  cd  command  continue  echo  eval  exec
 *	exit  export  fg  history  jobs  kill  printf  pwd  read  return
 *	set  shift  test  type  umask  unalias  unset  wait
 * POSIX's special built-ins (. : break continue eval exec exit export
 * return set shift unset) are found before functions; the others after.
 * A built-in's output goes through stdio; evalcommand flushes it before
 * undoing the command's redirections.
 */
#include <sys/stat.h>
#include <errno.h>
#include <limits.h>
#include <paths.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

int dotnest;

static int
truecmd(int argc, char **argv)
{
	return 0;
}

/*
 * The logical name of dir, seen from the directory named pwd: dir
 * appended to pwd unless it is absolute, then "." and ".." taken out by
 * the names alone (so /tmp/link/.. is /tmp even when link is a symbolic
 * link to elsewhere).  On the stack.
 */
static char *
logicalpath(const char *pwd, const char *dir)
{
	char *path, *out, *comp, *o;
	size_t len;

	len = strlen(pwd) + strlen(dir) + 2;
	path = stalloc(len);
	out = stalloc(len + 1);
	if (dir[0] == '/')
		strcpy(path, dir);
	else
		sprintf(path, "%s/%s", pwd, dir);
	o = out;
	for (comp = strtok(path, "/"); comp != NULL; comp = strtok(NULL, "/")) {
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			while (o > out && *--o != '/')
				continue;	/* drop the last component */
			continue;
		}
		*o++ = '/';
		strcpy(o, comp);
		o += strlen(comp);
	}
	if (o == out)
		*o++ = '/';
	*o = '\0';
	return out;
}

/*
 * $CDPATH (POSIX): a relative name that does not begin with . or .. is
 * looked for in each directory of the list (an empty entry is the
 * current directory); the first place where it names a directory is
 * the one.  NULL: none (cd takes the name as it is).  *said: the entry
 * was not the current directory, so cd prints where it went.
 */
static char *
cdpath(const char *dir, int *said)
{
	static char buf[PATH_MAX];
	const char *p = lookupvar("CDPATH"), *e;
	struct stat st;
	size_t n;

	if (p == NULL || dir[0] == '/' || strcmp(dir, ".") == 0 ||
	    strcmp(dir, "..") == 0 || strncmp(dir, "./", 2) == 0 ||
	    strncmp(dir, "../", 3) == 0)
		return NULL;
	for (;; p = e + 1) {
		e = strchr(p, ':');
		n = e != NULL ? (size_t)(e - p) : strlen(p);
		if (n == 0)
			snprintf(buf, sizeof(buf), "%s", dir);
		else
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, dir);
		if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) {
			*said = n != 0;
			return buf;
		}
		if (e == NULL)
			return NULL;
	}
}

/*
 * cd [-L | -P] [dir | -]: change the working directory and set $PWD
 * and $OLDPWD.  -L (the default) follows the name as typed: $PWD keeps
 * the symbolic links it went through and ".." goes back up the name.
 * -P (or no usable $PWD) goes by the directory itself: $PWD is the
 * physical name, from getcwd.  A relative name is looked for along
 * $CDPATH (cdpath).
 */
static int
cdcmd(int argc, char **argv)
{
	char buf[PATH_MAX], *dir, *typed, *old, *target, *found;
	int i, print, physical;

	print = physical = 0;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strspn(argv[i] + 1, "LP") != strlen(argv[i] + 1)) {
			shwarn("cd: usage: cd [-L | -P] [dir | -]");
			return 2;
		}
		physical = argv[i][strlen(argv[i]) - 1] == 'P';
	}
	if (i < argc)
		dir = argv[i];
	else if ((dir = lookupvar("HOME")) == NULL || *dir == '\0') {
		shwarn("cd: HOME not set");
		return 1;
	}
	if (strcmp(dir, "-") == 0) {
		if ((dir = lookupvar("OLDPWD")) == NULL) {
			shwarn("cd: OLDPWD not set");
			return 1;
		}
		print = 1;
	}
	typed = dir;
	if ((found = cdpath(dir, &print)) != NULL)
		dir = found;
	old = lookupvar("PWD");
	if (!goodpwd(old))
		old = NULL;
	target = dir;
	if (!physical && (old != NULL || dir[0] == '/'))
		target = logicalpath(old != NULL ? old : "/", dir);
	if (chdir(target) < 0) {
		shwarn("cd: %s: %s", typed, strerror(errno));
		return 1;
	}
	if (old != NULL)
		setvar("OLDPWD", ststrdup(old), 0);
	/* exported, so that a program's pwd -L sees it too */
	if (target != dir)
		setvar("PWD", target, V_EXPORT);
	else if (getcwd(buf, sizeof(buf)) != NULL)
		setvar("PWD", buf, V_EXPORT);
	if (print)
		printf("%s\n", lookupvar("PWD"));
	return 0;
}

static int
exitcmd(int argc, char **argv)
{
	exitshell(argc > 1 ? atoi(argv[1]) & 0xff : exitstatus);
}

static int
exportcmd(int argc, char **argv)
{
	int i;

	if (argc == 1 || (argc == 2 && strcmp(argv[1], "-p") == 0)) {
		listvars(1);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (strchr(argv[i], '=') != NULL) {
			if (!isassignment(argv[i])) {
				shwarn("export: %s: bad variable name", argv[i]);
				return 1;
			}
			setvareq(argv[i], V_EXPORT);
		} else if (isname(argv[i]))
			exportvar(argv[i]);
		else {
			shwarn("export: %s: bad variable name", argv[i]);
			return 1;
		}
	}
	return 0;
}

/* unset [-fv] name ...: variables, or with -f functions. */
static int
unsetcmd(int argc, char **argv)
{
	int i, fflag;

	fflag = 0;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-f") == 0)
			fflag = 1;
		else if (strcmp(argv[i], "-v") == 0)
			fflag = 0;
		else {
			shwarn("unset: usage: unset [-f | -v] name ...");
			return 2;
		}
	}
	for (; i < argc; i++) {
		if (fflag)
			unsetfunc(argv[i]);
		else
			unsetvar(argv[i]);
	}
	return 0;
}

/* return [n]: end the function (or "." file) with status n, or $?. */
static int
returncmd(int argc, char **argv)
{
	int n;

	n = argc > 1 ? atoi(argv[1]) & 0xff : exitstatus;
	if (funcnest == 0 && dotnest == 0) {
		shwarn("return: not in a function");
		return 1;
	}
	evalskip = SKIPRETURN;
	return n;
}

/* Say what name is; verbose: as type does, else as command -v. */
static int
describe(const char *name, int verbose)
{
	static const char *const keywords[] = { "!", "{", "}", "case", "do",
	    "done", "elif", "else", "esac", "fi", "for", "if", "in", "then",
	    "until", "while", NULL };
	struct cmdentry ce;
	const char *value;
	int i;

	for (i = 0; keywords[i] != NULL; i++) {
		if (strcmp(name, keywords[i]) == 0) {
			if (verbose)
				printf("%s is a shell keyword\n", name);
			else
				printf("%s\n", name);
			return 0;
		}
	}
	if ((value = lookupalias(name)) != NULL) {
		if (verbose)
			printf("%s is an alias for %s\n", name, value);
		else
			printalias("alias ", name);
		return 0;
	}
	findcommand(name, &ce, FC_PATH);
	switch (ce.kind) {
	case CMD_SPECIAL:
	case CMD_BUILTIN:
	case CMD_FUNCTION:
		if (!verbose)
			printf("%s\n", name);
		else if (ce.kind == CMD_FUNCTION) {
			printf("%s is a function\n", name);
			printfunc(name);
		}
		else
			printf("%s is a %sshell builtin\n", name,
			    ce.kind == CMD_SPECIAL ? "special " : "");
		return 0;
	case CMD_PATH:
		if (verbose)
			printf("%s is %s\n", name, ce.path);
		else
			printf("%s\n", ce.path);
		return 0;
	}
	if (verbose)
		shwarn("%s: not found", name);
	return 127;
}

/* type name ...: what each name would run. */
static int
typecmd(int argc, char **argv)
{
	int i, status;

	i = 1;
	if (argc > 1 && strcmp(argv[1], "--") == 0)
		i++;
	if (i == argc || (i == 1 && argv[1][0] == '-')) {
		shwarn("type: usage: type name ...");
		return 2;
	}
	status = 0;
	for (; i < argc; i++)
		if (describe(argv[i], 1) != 0)
			status = 127;
	return status;
}

/*
 * command [-p] name [arg ...]: run a built-in or program, never a
 * function; command -v name, -V name: say what name is (one line).
 * -p searches the default $PATH.
 */
static int
commandcmd(int argc, char **argv)
{
	int i, vflag, pflag;

	vflag = pflag = 0;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-v") == 0)
			vflag = 1;
		else if (strcmp(argv[i], "-V") == 0)
			vflag = 2;
		else if (strcmp(argv[i], "-p") == 0)
			pflag = 1;
		else {
			shwarn("command: usage: command [-p] [-v | -V] name "
			    "[arg ...]");
			return 2;
		}
	}
	if (i == argc)
		return vflag ? 2 : 0;
	if (vflag)
		return describe(argv[i], vflag == 2);
	return runcommand(argc - i, argv + i, pflag);
}

static int
setcmd(int argc, char **argv)
{
	int i, on;
	char *p;

	if (argc == 1) {
		listvars(0);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		p = argv[i];
		if (strcmp(p, "--") == 0) {
			i++;
			break;
		}
		if ((*p != '-' && *p != '+') || p[1] == '\0')
			break;
		on = *p == '-';
		for (p++; *p != '\0'; p++) {
			if (*p == 'E')
				Eflag = on;
			else if (*p == 'e')
				eflag = on;
			else if (*p == 'x')
				xflag = on;
			else {
				shwarn("set: %c: bad option", *p);
				return 2;
			}
		}
	}
	if (i < argc || strcmp(argv[i - 1], "--") == 0)
		setparams(argc - i, argv + i);
	return 0;
}

static int
shiftcmd(int argc, char **argv)
{
	int n;

	n = argc > 1 ? atoi(argv[1]) : 1;
	if (n < 0 || n > nparam) {
		shwarn("shift: can't shift that many");
		return 1;
	}
	setparams(nparam - n, params + n);
	return 0;
}

/* break [n] and continue [n] */
static int
skipcmd(int argc, char **argv)
{
	int n;

	n = argc > 1 ? atoi(argv[1]) : 1;
	if (n <= 0) {
		shwarn("%s: bad count", argv[0]);
		return 1;
	}
	if (loopnest == 0)
		return 0;
	evalskip = argv[0][0] == 'b' ? SKIPBREAK : SKIPCONT;
	skipcount = n < loopnest ? n : loopnest;
	return 0;
}

static int
evalcmd(int argc, char **argv)
{
	struct strbuf sb;
	char *s;
	int i;

	if (argc < 2)
		return 0;
	sbinit(&sb);
	for (i = 1; i < argc; i++) {
		if (i > 1)
			sbaddc(&sb, ' ');
		sbaddstr(&sb, argv[i]);
	}
	s = ststrdup(sb.s);
	sbfree(&sb);
	return evalstring(s, 0);
}

/* exec cmd args: replace the shell (the redirections are done already). */
int
execcmd(int argc, char **argv)
{
	if (argc > 1) {
		iflag = 0;
		resetsignals();
		shellexec(argv + 1, environment());
	}
	return 0;
}

static int
dotcmd(int argc, char **argv)
{
	struct paramsave ps;
	char *file;
	int status;

	if (argc < 2) {
		shwarn(".: usage: . file [arg ...]");
		return 2;
	}
	if ((file = pathsearch(argv[1], 0)) == NULL)
		file = argv[1];
	if (setinputfile(file) < 0)
		sherror(".: cannot open %s: %s", argv[1], strerror(errno));
	if (argc > 2)
		saveparams(&ps, argc - 2, argv + 2);
	dotnest++;
	status = cmdloop(0);
	dotnest--;
	if (evalskip == SKIPRETURN)
		evalskip = 0;		/* the file's return */
	popinput();
	if (argc > 2)
		restoreparams(&ps);
	return status;
}

/*
 * read [-r] name ...: one line of standard input, split by $IFS; each
 * name takes a field and the last name takes the rest of the line.
 * Without -r a backslash escapes the next character (it is then never a
 * separator) and backslash-newline continues the line.  The line is
 * read a byte at a time so that no input after it is consumed.
 */
static int
readcmd(int argc, char **argv)
{
	struct strbuf line, esc;
	const char *ifs;
	size_t i, start, end;
	int raw, arg, n, status;
	char c;

	raw = argc > 1 && strcmp(argv[1], "-r") == 0;
	arg = raw ? 2 : 1;
	if (arg >= argc) {
		shwarn("read: usage: read [-r] name ...");
		return 2;
	}
	if ((ifs = lookupvar("IFS")) == NULL)
		ifs = " \t\n";
	sbinit(&line);
	sbinit(&esc);
	status = 1;
	for (;;) {
		if ((n = read(0, &c, 1)) < 0 && errno == EINTR) {
			if (intpending) {
				intpending = 0;
				onint();
			}
			continue;
		}
		if (n <= 0)
			break;
		status = 0;
		if (c == '\n')
			break;
		if (c == '\\' && !raw) {
			if (read(0, &c, 1) != 1)
				break;
			if (c == '\n')
				continue;
			sbaddc(&line, c);
			sbaddc(&esc, 1);
			continue;
		}
		sbaddc(&line, c);
		sbaddc(&esc, 0);
	}

#define ISSEP(k)	(!esc.s[k] && strchr(ifs, line.s[k]) != NULL)
#define ISBLANK(k)	(ISSEP(k) && strchr(" \t\n", line.s[k]) != NULL)
	i = 0;
	for (; arg < argc; arg++) {
		while (i < line.len && ISBLANK(i))
			i++;
		start = i;
		if (arg == argc - 1) {
			end = line.len;
			while (end > start && ISBLANK(end - 1))
				end--;
		} else {
			while (i < line.len && !ISSEP(i))
				i++;
			end = i;
			if (i < line.len)
				i++;	/* the separator */
		}
		setvar(argv[arg], ststrndup(line.s + start, end - start), 0);
	}
#undef ISSEP
#undef ISBLANK
	sbfree(&line);
	sbfree(&esc);
	return status;
}

static int
umaskcmd(int argc, char **argv)
{
	mode_t mask;
	char *end;

	if (argc < 2) {
		mask = umask(0);
		umask(mask);
		printf("%04o\n", (unsigned)mask);
		return 0;
	}
	mask = strtol(argv[1], &end, 8);
	if (*end != '\0' || *argv[1] == '\0') {
		shwarn("umask: %s: bad mask", argv[1]);
		return 1;
	}
	umask(mask);
	return 0;
}

static int
jobscmd(int argc, char **argv)
{
	showjobs(1);
	return 0;
}

static const struct builtin builtins[] = {
	{ ".", dotcmd, 1 },
	{ ":", truecmd, 1 },
	{ "[", testcmd, 0 },
	{ "alias", aliascmd, 0 },
	{ "bg", bgcmd, 0 },
	{ "break", skipcmd, 1 },
	{ "cd", cdcmd, 0 },
	{ "command", commandcmd, 0 },
	{ "continue", skipcmd, 1 },
	{ "echo", echocmd, 0 },
	{ "eval", evalcmd, 1 },
	{ "exec", execcmd, 1 },
	{ "exit", exitcmd, 1 },
	{ "export", exportcmd, 1 },
	{ "fg", fgcmd, 0 },
	{ "history", historycmd, 0 },
	{ "jobs", jobscmd, 0 },
	{ "kill", killjobcmd, 0 },
	{ "printf", printfcmd, 0 },
	{ "pwd", pwdcmd, 0 },
	{ "read", readcmd, 0 },
	{ "return", returncmd, 1 },
	{ "set", setcmd, 1 },
	{ "shift", shiftcmd, 1 },
	{ "test", testcmd, 0 },
	{ "type", typecmd, 0 },
	{ "umask", umaskcmd, 0 },
	{ "unalias", unaliascmd, 0 },
	{ "unset", unsetcmd, 1 },
	{ "wait", waitcmd, 0 },
};

const struct builtin *
findbuiltin(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(builtins[i].name, name) == 0)
			return &builtins[i];
	return NULL;
}
