/*
 * Conversions (strtol and friends, with their errno and end pointer),
 * qsort and bsearch on random data, and the environment.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bsd.h"
#include "harness.h"

#define ERANGE	34
#define EINVAL	22

static void
conversions(void)
{
	char *end;

	CHECK_INT(bsd_strtol("123", &end, 10), 123);
	CHECK(*end == '\0');
	CHECK_INT(bsd_strtol("  -42abc", &end, 10), -42);
	CHECK_STR(end, "abc");
	CHECK_INT(bsd_strtol("0x1F", &end, 0), 31);
	CHECK_INT(bsd_strtol("0x1F", &end, 16), 31);
	CHECK_INT(bsd_strtol("017", &end, 0), 15);
	CHECK_INT(bsd_strtol("z", &end, 36), 35);
	CHECK_INT(bsd_strtol("+7", &end, 10), 7);
	CHECK_INT(bsd_strtol("0x", &end, 16), 0);
	CHECK_STR(end, "x");		/* "0" parsed, the x is not hex */
	CHECK_INT(bsd_strtol("xyz", &end, 10), 0);
	CHECK_STR(end, "xyz");		/* no digits: end is the start */
	CHECK_INT(bsd_strtol("-", &end, 10), 0);
	CHECK_STR(end, "-");

	bsd_errno = 0;
	CHECK_INT(bsd_strtol("2147483647", NULL, 10), LONG_MAX);
	CHECK_INT(bsd_errno, 0);
	CHECK_INT(bsd_strtol("2147483648", NULL, 10), LONG_MAX);
	CHECK_INT(bsd_errno, ERANGE);
	bsd_errno = 0;
	CHECK_INT(bsd_strtol("-2147483648", NULL, 10), LONG_MIN);
	CHECK_INT(bsd_errno, 0);
	CHECK_INT(bsd_strtol("-2147483649", NULL, 10), LONG_MIN);
	CHECK_INT(bsd_errno, ERANGE);
	bsd_errno = 0;
	CHECK_INT(bsd_strtoul("4294967295", NULL, 10), 4294967295UL);
	CHECK_INT(bsd_errno, 0);
	CHECK_INT(bsd_strtoul("4294967296", NULL, 10), ULONG_MAX);
	CHECK_INT(bsd_errno, ERANGE);
	bsd_errno = 0;
	CHECK_INT(bsd_strtoul("-1", NULL, 10), 4294967295UL);
	CHECK_INT(bsd_errno, 0);
	CHECK_INT(bsd_strtoll("9223372036854775807", NULL, 10), LLONG_MAX);
	CHECK_INT(bsd_errno, 0);
	CHECK_INT(bsd_strtoll("-9223372036854775808", NULL, 10), LLONG_MIN);
	CHECK_INT(bsd_errno, 0);
	CHECK_INT(bsd_strtoll("9223372036854775808", NULL, 10), LLONG_MAX);
	CHECK_INT(bsd_errno, ERANGE);
	bsd_errno = 0;
	CHECK(bsd_strtoull("18446744073709551615", NULL, 10) == ULLONG_MAX);
	CHECK_INT(bsd_errno, 0);
	CHECK(bsd_strtoull("18446744073709551616", NULL, 10) == ULLONG_MAX);
	CHECK_INT(bsd_errno, ERANGE);
	bsd_errno = 0;
	CHECK(bsd_strtoull("ffffffffffff", NULL, 16) == 0xffffffffffffULL);
	CHECK_INT(bsd_strtol("10", &end, 1), 0);
	CHECK_INT(bsd_errno, EINVAL);
	CHECK_INT(bsd_atoi("  99 bottles"), 99);
	CHECK_INT(bsd_atoi("-5"), -5);
}

static int
intcmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

struct rec {
	char	name[6];
	short	key;
};

static int
reccmp(const void *a, const void *b)
{
	return ((const struct rec *)a)->key - ((const struct rec *)b)->key;
}

static void
sorting(void)
{
	static int a[5000], b[5000];
	static struct rec r[300];
	int n, i, trial, sorted, key, *hit;

	srand(1);
	for (trial = 0; trial < 40; trial++) {
		n = trial < 20 ? trial : rand() % 5000;
		for (i = 0; i < n; i++)
			a[i] = b[i] = trial % 3 == 0 ? rand() % 10 : rand();
		if (trial % 7 == 6)	/* already sorted input */
			qsort(a, n, sizeof(int), intcmp);
		memcpy(b, a, n * sizeof(int));
		bsd_qsort(a, n, sizeof(int), intcmp);
		qsort(b, n, sizeof(int), intcmp);
		CHECK(memcmp(a, b, n * sizeof(int)) == 0);
	}
	for (i = 0; i < 300; i++) {
		r[i].key = (i * 7919) % 300;
		memcpy(r[i].name, "recXX", 6);
	}
	bsd_qsort(r, 300, sizeof(r[0]), reccmp);
	for (sorted = 1, i = 1; i < 300; i++)
		if (r[i - 1].key > r[i].key)
			sorted = 0;
	CHECK(sorted);

	for (i = 0; i < 1000; i++)
		a[i] = i * 2;
	for (key = -1; key < 2001; key++) {
		hit = bsd_bsearch(&key, a, 1000, sizeof(int), intcmp);
		if (key >= 0 && key < 2000 && key % 2 == 0)
			CHECK(hit == &a[key / 2]);
		else
			CHECK(hit == NULL);
	}
}

static void
environment(void)
{
	static char *initial[] = { "HOME=/root", "PATH=/bin", NULL };
	static char put[] = "PUT=yes";

	bsd_environ = initial;
	CHECK_STR(bsd_getenv("HOME"), "/root");
	CHECK(bsd_getenv("HOM") == NULL);
	CHECK(bsd_getenv("NONE") == NULL);
	CHECK_INT(bsd_setenv("HOME", "/", 0), 0);
	CHECK_STR(bsd_getenv("HOME"), "/root");
	CHECK_INT(bsd_setenv("HOME", "/", 1), 0);
	CHECK_STR(bsd_getenv("HOME"), "/");
	CHECK_INT(bsd_setenv("NEW", "v", 1), 0);
	CHECK_STR(bsd_getenv("NEW"), "v");
	CHECK_STR(bsd_getenv("PATH"), "/bin");
	CHECK_INT(bsd_putenv(put), 0);
	CHECK_STR(bsd_getenv("PUT"), "yes");
	put[4] = 'Y';				/* putenv keeps the string */
	CHECK_STR(bsd_getenv("PUT"), "Yes");
	CHECK_INT(bsd_unsetenv("HOME"), 0);
	CHECK(bsd_getenv("HOME") == NULL);
	CHECK_STR(bsd_getenv("NEW"), "v");
	CHECK_INT(bsd_setenv("A=B", "v", 1), -1);
	CHECK_INT(bsd_errno, EINVAL);
	bsd_environ = NULL;
	CHECK(bsd_getenv("PATH") == NULL);
	CHECK_INT(bsd_setenv("ONLY", "1", 1), 0);
	CHECK_STR(bsd_getenv("ONLY"), "1");
	CHECK(bsd_environ[1] == NULL);
}

void
test_stdlib(void)
{
	conversions();
	sorting();
	environment();
}
