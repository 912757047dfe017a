/*
 * The environment: getenv, setenv, unsetenv, putenv over environ, the
 * NULL-terminated array of "name=value" strings crt0 received.  The
 * first change copies the array to malloc'ed memory so it can grow;
 * strings that setenv replaces are not freed (callers may still hold
 * them, as with 4.4BSD's libc).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char **ownenv;	/* environ, once it is ours to realloc */

/* Find name (of length len) in environ; return its index or -1. */
static int
findenv(const char *name, size_t len)
{
	int i;

	if (environ == NULL)
		return -1;
	for (i = 0; environ[i] != NULL; i++)
		if (strncmp(environ[i], name, len) == 0 &&
		    environ[i][len] == '=')
			return i;
	return -1;
}

char *
getenv(const char *name)
{
	int i;

	if ((i = findenv(name, strlen(name))) < 0)
		return NULL;
	return environ[i] + strlen(name) + 1;
}

/* Put string in place of entry i, or append it when i is -1. */
static int
install(char *string, int i)
{
	char **nenv;
	int n;

	if (i >= 0) {
		environ[i] = string;
		return 0;
	}
	for (n = 0; environ != NULL && environ[n] != NULL; n++)
		continue;
	if (environ == ownenv)
		nenv = realloc(ownenv, (n + 2) * sizeof(char *));
	else if ((nenv = malloc((n + 2) * sizeof(char *))) != NULL && n > 0)
		memcpy(nenv, environ, n * sizeof(char *));
	if (nenv == NULL)
		return -1;
	nenv[n] = string;
	nenv[n + 1] = NULL;
	environ = ownenv = nenv;
	return 0;
}

static int
badname(const char *name)
{
	if (name == NULL || *name == '\0' || strchr(name, '=') != NULL) {
		errno = EINVAL;
		return 1;
	}
	return 0;
}

int
setenv(const char *name, const char *value, int overwrite)
{
	size_t nlen, vlen;
	char *s;
	int i;

	if (badname(name))
		return -1;
	nlen = strlen(name);
	i = findenv(name, nlen);
	if (i >= 0 && !overwrite)
		return 0;
	vlen = strlen(value);
	if ((s = malloc(nlen + vlen + 2)) == NULL)
		return -1;
	memcpy(s, name, nlen);
	s[nlen] = '=';
	memcpy(s + nlen + 1, value, vlen + 1);
	if (install(s, i) < 0) {
		free(s);
		return -1;
	}
	return 0;
}

int
putenv(char *string)
{
	char *eq;

	if ((eq = strchr(string, '=')) == NULL || eq == string) {
		errno = EINVAL;
		return -1;
	}
	return install(string, findenv(string, eq - string));
}

int
unsetenv(const char *name)
{
	size_t len;
	int i;

	if (badname(name))
		return -1;
	len = strlen(name);
	while ((i = findenv(name, len)) >= 0)
		for (; environ[i] != NULL; i++)
			environ[i] = environ[i + 1];
	return 0;
}
