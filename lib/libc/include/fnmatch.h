/*
 * fnmatch(3): shell pattern matching with * ? [...] and backslash.
 */
#ifndef _FNMATCH_H_
#define _FNMATCH_H_

#define FNM_NOMATCH	1
#define FNM_NOESCAPE	0x01	/* backslash is an ordinary character */
#define FNM_PATHNAME	0x02	/* a slash must be matched by a slash */
#define FNM_PERIOD	0x04	/* a leading period must be matched by a period */
#define FNM_CASEFOLD	0x10	/* ignore case */

int	fnmatch(const char *, const char *, int);

#endif
