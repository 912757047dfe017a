/*
 * ctype against the host's C locale, getopt's option scanning, fnmatch's
 * patterns, getprogname.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsd.h"
#include "harness.h"

static void
ctypes(void)
{
	int c, ok;

	ok = 1;
	for (c = -1; c < 256; c++) {
		if (!!bsd_isdigit(c) != !!isdigit(c) ||
		    !!bsd_isalpha(c) != !!isalpha(c) ||
		    !!bsd_isspace(c) != !!isspace(c) ||
		    !!bsd_isupper(c) != !!isupper(c) ||
		    !!bsd_isxdigit(c) != !!isxdigit(c) ||
		    !!bsd_ispunct(c) != !!ispunct(c) ||
		    !!bsd_isprint(c) != !!isprint(c) ||
		    bsd_toupper(c) != toupper(c) || bsd_tolower(c) != tolower(c))
			ok = 0;
	}
	CHECK(ok);
}

/* Run getopt over argv and return the options and arguments it saw. */
static char *
scan(int argc, char **argv, const char *opts)
{
	static char out[128];
	int ch;

	out[0] = '\0';
	bsd_optind = 1;
	bsd_optreset = 1;
	bsd_opterr = 0;
	while ((ch = bsd_getopt(argc, argv, opts)) != -1) {
		size_t n = strlen(out);

		out[n] = ch;
		out[n + 1] = '\0';
		if (ch != '?' && ch != ':' && bsd_optarg != NULL &&
		    strchr(opts, ch)[1] == ':') {
			strcat(out, "=");
			strcat(out, bsd_optarg);
		}
		strcat(out, ",");
	}
	sprintf(out + strlen(out), "optind=%d", bsd_optind);
	return out;
}

static void
options(void)
{
	char *a1[] = { "p", "-a", "-bc", "file", NULL };
	char *a2[] = { "p", "-ofile", "-o", "next", "-a", "--", "-b", NULL };
	char *a3[] = { "p", "-x", "-a", NULL };
	char *a4[] = { "p", "-o", NULL };
	char *a5[] = { "p", "-", "x", NULL };
	char *a6[] = { "p", NULL };

	CHECK_STR(scan(4, a1, "abc"), "a,b,c,optind=3");
	CHECK_STR(scan(7, a2, "abo:"), "o=file,o=next,a,optind=6");
	CHECK_STR(scan(3, a3, "a"), "?,a,optind=3");
	CHECK(bsd_optopt == 'x' || bsd_optopt == 'a');
	CHECK_STR(scan(2, a4, "o:"), "?,optind=2");
	CHECK_STR(scan(2, a4, ":o:"), ":,optind=2");
	CHECK_STR(scan(3, a5, "a"), "optind=1");
	CHECK_STR(scan(1, a6, "a"), "optind=1");
}

static void
patterns(void)
{
	CHECK_INT(bsd_fnmatch("*.c", "main.c", 0), 0);
	CHECK_INT(bsd_fnmatch("*.c", "main.h", 0), BSD_FNM_NOMATCH);
	CHECK_INT(bsd_fnmatch("*", "", 0), 0);
	CHECK_INT(bsd_fnmatch("?", "", 0), BSD_FNM_NOMATCH);
	CHECK_INT(bsd_fnmatch("a?c", "abc", 0), 0);
	CHECK_INT(bsd_fnmatch("[a-c]x", "bx", 0), 0);
	CHECK_INT(bsd_fnmatch("[!a-c]x", "bx", 0), BSD_FNM_NOMATCH);
	CHECK_INT(bsd_fnmatch("[^a-c]x", "dx", 0), 0);
	CHECK_INT(bsd_fnmatch("[]]", "]", 0), 0);
	CHECK_INT(bsd_fnmatch("[a-]", "-", 0), 0);
	CHECK_INT(bsd_fnmatch("\\*", "*", 0), 0);
	CHECK_INT(bsd_fnmatch("\\*", "a", 0), BSD_FNM_NOMATCH);
	CHECK_INT(bsd_fnmatch("\\*", "\\*", BSD_FNM_NOESCAPE), 0);
	CHECK_INT(bsd_fnmatch("*a*b*c", "xxaxxbxxc", 0), 0);
	CHECK_INT(bsd_fnmatch("*a*b*c", "xxaxxcxxb", 0), BSD_FNM_NOMATCH);
	CHECK_INT(bsd_fnmatch("*", ".hidden", BSD_FNM_PERIOD), BSD_FNM_NOMATCH);
	CHECK_INT(bsd_fnmatch(".*", ".hidden", BSD_FNM_PERIOD), 0);
	CHECK_INT(bsd_fnmatch("*", "a/b", BSD_FNM_PATHNAME), BSD_FNM_NOMATCH);
	CHECK_INT(bsd_fnmatch("*/*", "a/b", BSD_FNM_PATHNAME), 0);
	CHECK_INT(bsd_fnmatch("*", "a/b", 0), 0);
	CHECK_INT(bsd_fnmatch("[", "[", 0), 0);
	CHECK_INT(bsd_fnmatch("A*", "abc", BSD_FNM_CASEFOLD), 0);
	CHECK_INT(bsd_fnmatch("**x", "abx", 0), 0);
}

void
test_misc(void)
{
	ctypes();
	options();
	patterns();
	bsd___progname = "/bin/ls";
	CHECK_STR(bsd_getprogname(), "ls");
}
