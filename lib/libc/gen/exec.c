/*
 * The exec(3) family over execve(2).  execvp and execlp search $PATH for
 * a name without a slash, and run a file the kernel refuses with ENOEXEC
 * as a shell script, as 4.4BSD's libc does.
 */
#include <errno.h>
#include <paths.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXARGS	256	/* arguments execl and friends accept */

int
execv(const char *path, char *const *argv)
{
	return execve(path, argv, environ);
}

static void
execsh(const char *path, char *const *argv)
{
	char *nargv[MAXARGS + 2];
	int i;

	nargv[0] = "sh";
	nargv[1] = (char *)path;
	for (i = 1; argv[0] != NULL && argv[i] != NULL && i < MAXARGS; i++)
		nargv[i + 1] = argv[i];
	nargv[i + 1] = NULL;
	execve(_PATH_BSHELL, nargv, environ);
}

int
execvp(const char *name, char *const *argv)
{
	const char *path, *p, *end;
	char buf[1024];
	size_t dirlen, namelen;
	int eacces;

	if (*name == '\0') {
		errno = ENOENT;
		return -1;
	}
	if (strchr(name, '/') != NULL) {
		execve(name, argv, environ);
		if (errno == ENOEXEC)
			execsh(name, argv);
		return -1;
	}
	if ((path = getenv("PATH")) == NULL)
		path = _PATH_DEFPATH;
	namelen = strlen(name);
	eacces = 0;
	for (p = path;; p = end + 1) {
		if ((end = strchr(p, ':')) == NULL)
			end = p + strlen(p);
		dirlen = end - p;
		if (dirlen == 0) {		/* an empty element is "." */
			p = ".";
			dirlen = 1;
		}
		if (dirlen + namelen + 2 <= sizeof(buf)) {
			memcpy(buf, p, dirlen);
			buf[dirlen] = '/';
			memcpy(buf + dirlen + 1, name, namelen + 1);
			execve(buf, argv, environ);
			if (errno == ENOEXEC) {
				execsh(buf, argv);
				return -1;
			}
			if (errno == EACCES)
				eacces = 1;
			else if (errno != ENOENT && errno != ENOTDIR)
				return -1;
		}
		if (*end == '\0')
			break;
	}
	errno = eacces ? EACCES : ENOENT;
	return -1;
}

/* Collect the variable argument list of execl and friends into argv. */
static int
collect(char **argv, const char *arg0, va_list ap)
{
	int n;

	argv[0] = (char *)arg0;
	for (n = 1; argv[n - 1] != NULL; n++) {
		if (n > MAXARGS) {
			errno = E2BIG;
			return -1;
		}
		argv[n] = va_arg(ap, char *);
	}
	return n;
}

int
execl(const char *path, const char *arg0, ...)
{
	char *argv[MAXARGS + 1];
	va_list ap;
	int n;

	va_start(ap, arg0);
	n = collect(argv, arg0, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	return execve(path, argv, environ);
}

int
execle(const char *path, const char *arg0, ...)
{
	char *argv[MAXARGS + 1];
	char **envp;
	va_list ap;
	int n;

	va_start(ap, arg0);
	n = collect(argv, arg0, ap);
	envp = va_arg(ap, char **);
	va_end(ap);
	if (n < 0)
		return -1;
	return execve(path, argv, envp);
}

int
execlp(const char *name, const char *arg0, ...)
{
	char *argv[MAXARGS + 1];
	va_list ap;
	int n;

	va_start(ap, arg0);
	n = collect(argv, arg0, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	return execvp(name, argv);
}
