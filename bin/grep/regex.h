/*
 * The regular expressions of grep (regex.c).
 */
#ifndef REGEX_H
#define REGEX_H

struct re;

struct re *recompile(const char *, int);
int	rematch(struct re *, const char *);

#endif
