/*
 * String and memory functions, each compared with the host's C library
 * on the same inputs (the results must agree in sign), plus the BSD
 * extras the host may lack.
 */
#include <stdlib.h>
#include <string.h>

#include "bsd.h"
#include "harness.h"

static int
sign(int x)
{
	return x < 0 ? -1 : x > 0;
}

static void
compare(void)
{
	static const char *w[] = { "", "a", "b", "ab", "abc", "abd", "\xff",
	    "A", "hello", "hell", "hello!" };
	int i, j, n;

	for (i = 0; i < 11; i++) {
		CHECK_INT(bsd_strlen(w[i]), strlen(w[i]));
		for (j = 0; j < 11; j++) {
			CHECK_INT(sign(bsd_strcmp(w[i], w[j])),
			    sign(strcmp(w[i], w[j])));
			for (n = 0; n < 4; n++)
				CHECK_INT(sign(bsd_strncmp(w[i], w[j], n)),
				    sign(strncmp(w[i], w[j], n)));
			CHECK_INT(sign(bsd_memcmp(w[i], w[j],
			    strlen(w[i]) < strlen(w[j]) ? strlen(w[i]) :
			    strlen(w[j]))), sign(memcmp(w[i], w[j],
			    strlen(w[i]) < strlen(w[j]) ? strlen(w[i]) :
			    strlen(w[j]))));
		}
	}
	CHECK_INT(bsd_strcasecmp("HeLLo", "hello"), 0);
	CHECK(bsd_strcasecmp("a", "B") < 0);
}

static void
search(void)
{
	const char *s = "hello, world";

	CHECK(bsd_strchr(s, 'o') == s + 4);
	CHECK(bsd_strrchr(s, 'o') == s + 8);
	CHECK(bsd_strchr(s, 'z') == NULL);
	CHECK(bsd_strchr(s, '\0') == s + 12);
	CHECK(bsd_strstr(s, "world") == s + 7);
	CHECK(bsd_strstr(s, "") == s);
	CHECK(bsd_strstr(s, "worlds") == NULL);
	CHECK_INT(bsd_strspn(s, "hel"), 4);
	CHECK_INT(bsd_strcspn(s, ", "), 5);
	CHECK(bsd_strpbrk(s, "wd") == s + 7);
	CHECK(bsd_memchr(s, 'w', 12) == s + 7);
	CHECK(bsd_memchr(s, 'w', 7) == NULL);
}

static void
copy(void)
{
	char buf[64], big[300], ref[300];
	char *p, *q;
	int i, off, len;

	CHECK_STR(bsd_strcpy(buf, "abc"), "abc");
	CHECK_STR(bsd_strcat(buf, "def"), "abcdef");
	CHECK_STR(bsd_strncat(buf, "ghijk", 2), "abcdefgh");
	memset(buf, 'x', sizeof(buf));
	bsd_strncpy(buf, "ab", 5);
	CHECK(memcmp(buf, "ab\0\0\0x", 6) == 0);
	CHECK_INT(bsd_strlcpy(buf, "hello", 3), 5);
	CHECK_STR(buf, "he");
	bsd_strlcpy(buf, "ab", sizeof(buf));
	CHECK_INT(bsd_strlcat(buf, "cdef", 5), 6);
	CHECK_STR(buf, "abcd");
	p = bsd_strdup("dup me");
	CHECK_STR(p, "dup me");
	q = bsd_strndup("dup me", 3);
	CHECK_STR(q, "dup");
	bsd_free(p);
	bsd_free(q);

	/* memmove in both directions, aligned and not, against memmove */
	for (off = 0; off < 8; off++) {
		for (len = 0; len < 40; len += 7) {
			for (i = 0; i < 300; i++)
				big[i] = ref[i] = i;
			bsd_memmove(big + 100 + off, big + 100, len);
			memmove(ref + 100 + off, ref + 100, len);
			CHECK(memcmp(big, ref, 300) == 0);
			bsd_memmove(big + 100, big + 100 + off, len);
			memmove(ref + 100, ref + 100 + off, len);
			CHECK(memcmp(big, ref, 300) == 0);
			bsd_memcpy(big + 3, big + 200 + off, len);
			memcpy(ref + 3, ref + 200 + off, len);
			CHECK(memcmp(big, ref, 300) == 0);
		}
	}
	bsd_memset(big, 7, 100);
	CHECK(big[0] == 7 && big[99] == 7 && big[100] == 100);
}

static void
split(void)
{
	char buf[64], *p, *tok;

	strcpy(buf, "a::b:c");
	p = buf;
	CHECK_STR(bsd_strsep(&p, ":"), "a");
	CHECK_STR(bsd_strsep(&p, ":"), "");
	CHECK_STR(bsd_strsep(&p, ":"), "b");
	CHECK_STR(bsd_strsep(&p, ":"), "c");
	CHECK(p == NULL);
	CHECK(bsd_strsep(&p, ":") == NULL);

	strcpy(buf, "  one two\tthree ");
	tok = bsd_strtok(buf, " \t");
	CHECK_STR(tok, "one");
	CHECK_STR(bsd_strtok(NULL, " \t"), "two");
	CHECK_STR(bsd_strtok(NULL, " \t"), "three");
	CHECK(bsd_strtok(NULL, " \t") == NULL);
}

static void
messages(void)
{
	CHECK_STR(bsd_strerror(2), "No such file or directory");
	CHECK_STR(bsd_strerror(35), "Resource temporarily unavailable");
	CHECK_STR(bsd_strerror(79), "Inappropriate file type or format");
	CHECK_STR(bsd_strerror(500), "Unknown error: 500");
	CHECK_STR(bsd_strsignal(2), "Interrupt");
	CHECK_STR(bsd_strsignal(11), "Segmentation fault");
	CHECK_STR(bsd_strsignal(99), "Unknown signal: 99");
}

void
test_string(void)
{
	compare();
	search();
	copy();
	split();
	messages();
}
