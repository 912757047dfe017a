/*
 * regcomp/regexec against the host's C library: for each pattern and
 * subject, both must agree on whether it matches and on the offsets of
 * the match and of every subexpression; for malformed patterns, both
 * must refuse (the error numbers differ between the two).  Then what
 * the host cannot be compared on: flags, messages, and time.
 */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "bsd.h"
#include "harness.h"

#define E	BSD_REG_EXTENDED
#define I	BSD_REG_ICASE
#define NL	BSD_REG_NEWLINE

static const struct {
	const char *pat;
	int	 flags;
	const char *subject;
} cases[] = {
	/* basic */
	{ "abc", 0, "xxabcxx" }, { "abc", 0, "ab" }, { "a.c", 0, "a-c" },
	{ "", 0, "abc" }, { "^ab", 0, "abab" }, { "ab$", 0, "abab" },
	{ "^$", 0, "" }, { "a^b", 0, "a^b" }, { "a$b", 0, "a$b" },
	{ "*a", 0, "x*a" }, { "^*a", 0, "*a" }, { "\\(*a\\)", 0, "*a" },
	{ "a*", 0, "baaa" }, { "ba*", 0, "baaac" }, { "x*y", 0, "xxxy" },
	{ "a\\{2\\}", 0, "aaaa" }, { "a\\{2,\\}", 0, "aaaab" },
	{ "a\\{1,3\\}", 0, "aaaaa" }, { "a\\{0\\}b", 0, "ab" },
	{ "\\(ab\\)*c", 0, "ababc" }, { "\\(a\\)\\(b\\)\\(c\\)", 0, "abc" },
	{ "\\(a*\\)b\\1", 0, "aabaa" }, { "\\(.\\)\\1", 0, "abccd" },
	{ "\\(a\\|b\\)*c", 0, "abac" }, { "a\\+", 0, "caaa" },
	{ "ab\\?c", 0, "ac" }, { "\\.", 0, "a.b" }, { "a\\*", 0, "a*" },
	{ "[abc]", 0, "xxb" }, { "[^abc]", 0, "abcd" }, { "[]a]", 0, "]" },
	{ "[^]a]", 0, "]ab" }, { "[a-]", 0, "-" }, { "[a-c]*", 0, "abcd" },
	{ "[[:digit:]]\\+", 0, "ab123c" }, { "[[:alpha:][:digit:]]*", 0, "a1!" },
	{ "[[:space:]]", 0, "a b" }, { "[[:upper:]]", I, "abc" },
	{ "[[.a.]]", 0, "a" }, { "[[=b=]]", 0, "b" }, { "[\\]", 0, "\\" },
	{ "ABC", I, "xabcx" }, { "\\(a\\)\\1", I, "aA" },
	{ "\\(\\(a\\)b\\)*", 0, "ababab" }, { "\\(a*\\)*", 0, "aa" },
	{ "\\(a*\\)\\+", 0, "b" }, { "\\(\\)", 0, "x" },
	/* extended */
	{ "a|ab", E, "abc" }, { "ab|a", E, "abc" }, { "(a|ab)(c|bcd)", E, "abcd" },
	{ "a+", E, "baaa" }, { "a?b", E, "b" }, { "(ab)+", E, "xababx" },
	{ "a{2,3}", E, "aaaa" }, { "(a)(b)?", E, "a" },
	{ "((a)|b)+", E, "ab" }, { "^(x|y)$", E, "y" }, { "a|^b", E, "cb" },
	{ "x(a*)(a*)y", E, "xaaay" }, { "(.*)-(.*)", E, "a-b-c" },
	{ "a)", E, "a)" }, { "[0-9]+\\.[0-9]*", E, "pi 3.14!" },
	{ "(wee|week)(knights|night)", E, "weeknights" },
	{ "\\(", E, "(" }, { "a{1}{2}", E, "aa" }, { "()", E, "" },
	{ "(a|b|c|d)*", E, "abcdx" }, { "(a*)+$", E, "aab" },
	/* GNU's word operators, which glibc has too */
	{ "\\<b", 0, "ab b" }, { "b\\>", 0, "ba b" }, { "\\bx", 0, "axx x" },
	{ "a\\B", 0, "a ab" }, { "\\w\\+", 0, "  foo_1 " },
	{ "\\W\\+", 0, "ab, c" }, { "\\s", 0, "a\tb" }, { "\\S\\+", 0, " xy " },
	{ "\\<(a|b)\\>", E, "ca a" },
	/* newline */
	{ "^b", NL, "a\nb" }, { "a$", NL, "a\nb" }, { "a.b", NL, "a\nb" },
	{ "a[^x]b", NL, "a\nb" }, { "^b", 0, "a\nb" }, { "a.b", 0, "a\nb" },
};

static const struct {
	const char *pat;
	int	 flags;
} bad[] = {
	{ "a\\", 0 }, { "[abc", 0 }, { "\\(a", 0 }, { "a\\)", 0 },
	{ "a\\{1", 0 }, { "a\\{2,1\\}", 0 }, { "\\1", 0 }, { "[[:nope:]]", 0 },
	{ "[z-a]", 0 }, { "(a", E }, { "*a", E }, { "a{1", E },
	{ "a{3,2}", E }, { "\\(a\\)\\2", 0 }, { "[[.a", 0 },
};

static int
hostflags(int f)
{
	return ((f & E) ? REG_EXTENDED : 0) | ((f & I) ? REG_ICASE : 0) |
	    ((f & NL) ? REG_NEWLINE : 0);
}

void
test_regex(void)
{
	char what[200], got[200], want[200];
	bsd_regex_t ours;
	bsd_regmatch_t om[10];
	regex_t theirs;
	regmatch_t tm[10];
	unsigned i, j;
	int ro, rt, oflags;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(what, sizeof(what), "/%s/%d on \"%s\"", cases[i].pat,
		    cases[i].flags, cases[i].subject);
		if (regcomp(&theirs, cases[i].pat, hostflags(cases[i].flags))) {
			CHECK_STR("the host refuses", what);
			continue;
		}
		if (bsd_regcomp(&ours, cases[i].pat, cases[i].flags) != 0) {
			CHECK_STR("we refuse", what);
			regfree(&theirs);
			continue;
		}
		CHECK_INT(ours.re_nsub, theirs.re_nsub);
		rt = regexec(&theirs, cases[i].subject, 10, tm, 0);
		ro = bsd_regexec(&ours, cases[i].subject, 10, om, 0);
		got[0] = want[0] = '\0';
		snprintf(got, sizeof(got), "%s: %s", what,
		    ro == 0 ? "match" : "none");
		snprintf(want, sizeof(want), "%s: %s", what,
		    rt == 0 ? "match" : "none");
		for (j = 0; rt == 0 && ro == 0 && j <= theirs.re_nsub; j++) {
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
			    " %d-%d", om[j].rm_so, om[j].rm_eo);
			snprintf(want + strlen(want), sizeof(want) - strlen(want),
			    " %d-%d", (int)tm[j].rm_so, (int)tm[j].rm_eo);
		}
		CHECK_STR(got, want);
		bsd_regfree(&ours);
		regfree(&theirs);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		oflags = bad[i].flags;
		ro = bsd_regcomp(&ours, bad[i].pat, oflags);
		rt = regcomp(&theirs, bad[i].pat, hostflags(oflags));
		snprintf(what, sizeof(what), "/%s/ refused: %s %s", bad[i].pat,
		    ro ? "yes" : "no", rt ? "yes" : "no");
		snprintf(want, sizeof(want), "/%s/ refused: yes yes", bad[i].pat);
		CHECK_STR(what, want);
		if (ro == 0)
			bsd_regfree(&ours);
		if (rt == 0)
			regfree(&theirs);
	}

	/* STARTEND: a NUL inside, offsets from the string, ^ at rm_so */
	CHECK_INT(bsd_regcomp(&ours, "^b.c", 0), 0);
	om[0].rm_so = 1;
	om[0].rm_eo = 5;
	CHECK_INT(bsd_regexec(&ours, "ab\0cd", 1, om, BSD_REG_STARTEND), 0);
	CHECK_INT(om[0].rm_so, 1);
	CHECK_INT(om[0].rm_eo, 4);
	om[0].rm_so = 1;
	om[0].rm_eo = 5;
	CHECK_INT(bsd_regexec(&ours, "ab\0cd", 1, om,
	    BSD_REG_STARTEND | BSD_REG_NOTBOL), BSD_REG_NOMATCH);
	bsd_regfree(&ours);
	CHECK_INT(bsd_regcomp(&ours, "\\<b", 0), 0);
	om[0].rm_so = 1;
	om[0].rm_eo = 2;
	CHECK_INT(bsd_regexec(&ours, "ab", 1, om, BSD_REG_STARTEND),
	    BSD_REG_NOMATCH);		/* the a before rm_so is seen */
	bsd_regfree(&ours);

	/* NOTBOL, NOSUB, regerror */
	CHECK_INT(bsd_regcomp(&ours, "^a", 0), 0);
	CHECK_INT(bsd_regexec(&ours, "ab", 0, NULL, BSD_REG_NOTBOL),
	    BSD_REG_NOMATCH);
	bsd_regfree(&ours);
	CHECK_INT(bsd_regcomp(&ours, "b$", BSD_REG_NOSUB), 0);
	CHECK_INT(bsd_regexec(&ours, "ab", 0, NULL, 0), 0);
	CHECK_INT(bsd_regexec(&ours, "ab", 0, NULL, BSD_REG_NOTEOL),
	    BSD_REG_NOMATCH);
	bsd_regfree(&ours);
	CHECK_INT(bsd_regerror(BSD_REG_EBRACK, NULL, got, sizeof(got)),
	    strlen("brackets ([ ]) not balanced") + 1);
	CHECK_STR(got, "brackets ([ ]) not balanced");
	CHECK_INT(bsd_regerror(BSD_REG_EBRACK, NULL, got, 5), 28);
	CHECK_STR(got, "brac");

	/* nested repetitions fail in time linear in the subject */
	{
		static char run[100001];

		memset(run, 'a', sizeof(run) - 1);
		run[sizeof(run) - 2] = 'b';
		CHECK_INT(bsd_regcomp(&ours, "\\(a*\\)*\\(b*\\)*c", 0), 0);
		CHECK_INT(bsd_regexec(&ours, run, 0, NULL, 0), BSD_REG_NOMATCH);
		bsd_regfree(&ours);
		CHECK_INT(bsd_regcomp(&ours, "(a|aa)*b", BSD_REG_EXTENDED), 0);
		CHECK_INT(bsd_regexec(&ours, run, 1, om, 0), 0);
		CHECK_INT(om[0].rm_so, 0);
		CHECK_INT(om[0].rm_eo, 100000);
		bsd_regfree(&ours);
	}

	/* a program too long to be reasonable is refused, not built */
	CHECK_INT(bsd_regcomp(&ours, "(a{255}){255}", BSD_REG_EXTENDED),
	    BSD_REG_ESPACE);

	/* a long subject does not exhaust the stack */
	{
		static char line[20001];

		memset(line, 'a', sizeof(line) - 1);
		CHECK_INT(bsd_regcomp(&ours, "a*b\\|a.*", 0), 0);
		CHECK_INT(bsd_regexec(&ours, line, 1, om, 0), 0);
		CHECK_INT(om[0].rm_eo, 20000);
		bsd_regfree(&ours);
	}
}
