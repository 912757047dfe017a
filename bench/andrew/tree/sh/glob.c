/*
 * Pathname expansion.  The pattern comes from expand.c with quoted
 * characters escaped by backslashes.  It is matched one path component
 * at a time: a component without pattern characters is taken as it is,
 * one with them is matched against the entries of the directory so far
 * with fnmatch.  A leading '.' must be matched explicitly.  The matches
 * of one pattern are sorted.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

/* Does s have an unescaped * ? or [ ? */
int
hasmeta(const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\' && s[1] != '\0')
			s++;
		else if (*s == '*' || *s == '?' || *s == '[')
			return 1;
	}
	return 0;
}

static void
unescape(struct strbuf *sb, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n)
			i++;
		sbaddc(sb, s[i]);
	}
}

/* Match pat (the rest of the pattern) under the directory path. */
static void
globdir(struct strbuf *path, const char *pat, struct arglist *out)
{
	struct stat st;
	struct dirent *dp;
	const char *slash, *rest;
	char *comp;
	size_t len;
	DIR *dir;

	slash = strchr(pat, '/');
	rest = slash;
	if (rest != NULL)
		while (*rest == '/')
			rest++;
	len = path->len;
	comp = ststrndup(pat, slash != NULL ? (size_t)(slash - pat) : strlen(pat));
	if (!hasmeta(comp)) {
		unescape(path, comp, strlen(comp));
		if (rest != NULL && *rest != '\0') {
			sbaddc(path, '/');
			globdir(path, rest, out);
		} else if (lstat(path->s, &st) == 0) {
			if (rest != NULL)
				sbaddc(path, '/');
			arglistadd(out, ststrdup(path->s));
		}
		path->len = len;
		path->s[len] = '\0';
		return;
	}
	if ((dir = opendir(len > 0 ? path->s : ".")) == NULL)
		return;
	while ((dp = readdir(dir)) != NULL) {
		if (dp->d_name[0] == '.' && comp[0] != '.')
			continue;
		if (fnmatch(comp, dp->d_name, 0) != 0)
			continue;
		sbaddstr(path, dp->d_name);
		if (rest != NULL && *rest != '\0') {
			sbaddc(path, '/');
			globdir(path, rest, out);
		} else if (rest == NULL)
			arglistadd(out, ststrdup(path->s));
		else if (stat(path->s, &st) == 0 && S_ISDIR(st.st_mode)) {
			sbaddc(path, '/');	/* a trailing / wants a directory */
			arglistadd(out, ststrdup(path->s));
		}
		path->len = len;
		path->s[len] = '\0';
	}
	closedir(dir);
}

static int
strpcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append the sorted matches of pattern to out; return how many. */
int
glob1(const char *pattern, struct arglist *out)
{
	struct strbuf path;
	int start;

	start = out->n;
	sbinit(&path);
	if (*pattern == '/') {
		sbaddc(&path, '/');
		while (*pattern == '/')
			pattern++;
	}
	globdir(&path, pattern, out);
	sbfree(&path);
	qsort(out->v + start, out->n - start, sizeof(char *), strpcmp);
	return out->n - start;
}
