/*
 * Built-in commands: the ones that must change the shell itself (cd,
 * exit, export, set, ...), run in the shell process.
 *	.  :  break  cd  continue  eval  exec  exit  export  jobs  read
 *	set  shift  umask  unset  wait
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

static int
truecmd(int argc, char **argv)
{
	return 0;
}

static int
cdcmd(int argc, char **argv)
{
	char buf[PATH_MAX], *dir, *old;
	int print;

	print = 0;
	if (argc > 1)
		dir = argv[1];
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
	if (chdir(dir) < 0) {
		shwarn("cd: %s: %s", dir, strerror(errno));
		return 1;
	}
	if ((old = lookupvar("PWD")) != NULL) {
		old = ststrdup(old);
		setvar("OLDPWD", old, 0);
	}
	if (getcwd(buf, sizeof(buf)) != NULL) {
		setvar("PWD", buf, 0);
		if (print)
			printf("%s\n", buf);
	}
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

static int
unsetcmd(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "-v") != 0)
			unsetvar(argv[i]);
	return 0;
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

/* The file a "." command reads: a name without a slash is looked up in $PATH. */
static char *
findfile(const char *name)
{
	struct stat st;
	const char *path, *p, *end;
	char *full;
	size_t dirlen;

	if (strchr(name, '/') != NULL)
		return (char *)name;
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
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
			return full;
		if (*end == '\0')
			break;
	}
	return (char *)name;
}

static int
dotcmd(int argc, char **argv)
{
	char **oparams, *file;
	int onparam, i, status;

	if (argc < 2) {
		shwarn(".: usage: . file [arg ...]");
		return 2;
	}
	file = findfile(argv[1]);
	if (setinputfile(file) < 0)
		sherror(".: cannot open %s: %s", argv[1], strerror(errno));
	oparams = NULL;
	onparam = nparam;
	if (argc > 2) {
		oparams = ckmalloc((nparam + 1) * sizeof(char *));
		for (i = 0; i < nparam; i++)
			oparams[i] = savestr(params[i]);
		setparams(argc - 2, argv + 2);
	}
	status = cmdloop(0);
	popinput();
	if (oparams != NULL) {
		setparams(onparam, oparams);
		for (i = 0; i < onparam; i++)
			free(oparams[i]);
		free(oparams);
	}
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

static const struct {
	const char *name;
	builtin_t fn;
} builtins[] = {
	{ ".", dotcmd },
	{ ":", truecmd },
	{ "bg", bgcmd },
	{ "break", skipcmd },
	{ "cd", cdcmd },
	{ "continue", skipcmd },
	{ "eval", evalcmd },
	{ "exec", execcmd },
	{ "exit", exitcmd },
	{ "export", exportcmd },
	{ "fg", fgcmd },
	{ "history", historycmd },
	{ "jobs", jobscmd },
	{ "kill", killcmd },
	{ "read", readcmd },
	{ "set", setcmd },
	{ "shift", shiftcmd },
	{ "umask", umaskcmd },
	{ "unset", unsetcmd },
	{ "wait", waitcmd },
};

builtin_t
findbuiltin(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(builtins[i].name, name) == 0)
			return builtins[i].fn;
	return NULL;
}
