/*
 * The printf engine: every flag, width, precision and size, checked
 * against the output ISO C specifies; snprintf truncation and return
 * values; sscanf.
 */
#include <limits.h>
#include <string.h>

#include "bsd.h"
#include "harness.h"

static char buf[256];

#define T(want, ...) do {						\
	int n_ = bsd_snprintf(buf, sizeof(buf), __VA_ARGS__);		\
	CHECK_STR(buf, want);						\
	CHECK_INT(n_, (int)strlen(want));				\
} while (0)

static void
integers(void)
{
	T("42", "%d", 42);
	T("-42", "%d", -42);
	T("0", "%d", 0);
	T("-2147483648", "%d", INT_MIN);
	T("2147483647", "%i", INT_MAX);
	T("4294967295", "%u", 4294967295U);
	T("ff", "%x", 255);
	T("FF", "%X", 255);
	T("777", "%o", 0777);
	T("0x1f", "%#x", 31);
	T("0X1F", "%#X", 31);
	T("0", "%#x", 0);
	T("017", "%#o", 15);
	T("0", "%#o", 0);
	T("   42", "%5d", 42);
	T("42   |", "%-5d|", 42);
	T("00042", "%05d", 42);
	T("-0042", "%05d", -42);
	T("+42", "%+d", 42);
	T(" 42", "% d", 42);
	T("-42", "%+d", -42);
	T("  042", "%5.3d", 42);
	T("00042", "%.5d", 42);
	T("", "%.0d", 0);
	T("     |", "%5.0d|", 0);
	T("   42", "%05.2d", 42);		/* precision turns off the 0 flag */
	T("   42", "%*d", 5, 42);
	T("42   ", "%*d", -5, 42);
	T("00042", "%.*d", 5, 42);
	T("0x0000ff", "%#08x", 255);
	T("9223372036854775807", "%lld", LLONG_MAX);
	T("-9223372036854775808", "%lld", LLONG_MIN);
	T("18446744073709551615", "%llu", ULLONG_MAX);
	T("ffffffffffffffff", "%llx", ULLONG_MAX);
	T("1234567890123", "%qd", 1234567890123LL);
	T("-1", "%ld", -1L);
	T("4294967295", "%lu", ULONG_MAX);
	T("123", "%zu", (unsigned)123);
	T("-1", "%hd", 65535);
	T("65535", "%hu", -1);
	T("-1", "%hhd", 255);
	T("255", "%hhu", -1);
	T("42", "%u", 42);
	T("+0", "%+d", 0);
}

static void
strings(void)
{
	T("hello", "%s", "hello");
	T("  abc", "%5s", "abc");
	T("abc  |", "%-5s|", "abc");
	T("ab", "%.2s", "abc");
	T("   ab", "%5.2s", "abc");
	T("(null)", "%s", (char *)0);
	T("x", "%c", 'x');
	T("  x", "%3c", 'x');
	T("x  |", "%-3c|", 'x');
	T("100%", "%d%%", 100);
	T("a b 12", "%s %c %d", "a", 'b', 12);
	T("0x1000", "%p", (void *)0x1000);
	T("0x0", "%p", (void *)0);
	T("[%!y]", "[%y]");		/* unknown conversions said loudly */
	T("tail%", "tail%");
	T("abc", "%s%s%s", "a", "b", "c");
}

static void
truncation(void)
{
	char small[8];
	int n;

	memset(small, 'Z', sizeof(small));
	n = bsd_snprintf(small, 5, "%s", "abcdefgh");
	CHECK_INT(n, 8);
	CHECK_STR(small, "abcd");
	CHECK(small[5] == 'Z');
	n = bsd_snprintf(small, 0, "%d", 12345);
	CHECK_INT(n, 5);
	CHECK(small[0] == 'a');
	n = bsd_snprintf(small, 1, "%d", 12345);
	CHECK_INT(n, 5);
	CHECK_STR(small, "");
	n = bsd_sprintf(buf, "%d-%s", 7, "x");
	CHECK_INT(n, 3);
	CHECK_STR(buf, "7-x");
}

static void
scanning(void)
{
	int a, b, n;
	unsigned u;
	long l;
	long long ll;
	char s1[32], s2[32], c;

	CHECK_INT(bsd_sscanf("12 34", "%d %d", &a, &b), 2);
	CHECK_INT(a, 12);
	CHECK_INT(b, 34);
	CHECK_INT(bsd_sscanf("  -7xyz", "%d%s", &a, s1), 2);
	CHECK_INT(a, -7);
	CHECK_STR(s1, "xyz");
	CHECK_INT(bsd_sscanf("ff 0x10", "%x %x", &u, &a), 2);
	CHECK_INT(u, 255);
	CHECK_INT(a, 16);
	CHECK_INT(bsd_sscanf("hello world", "%s %s", s1, s2), 2);
	CHECK_STR(s1, "hello");
	CHECK_STR(s2, "world");
	CHECK_INT(bsd_sscanf("abc", "%c", &c), 1);
	CHECK(c == 'a');
	CHECK_INT(bsd_sscanf("12345", "%3d%d", &a, &b), 2);
	CHECK_INT(a, 123);
	CHECK_INT(b, 45);
	CHECK_INT(bsd_sscanf("x=5", "x=%d", &a), 1);
	CHECK_INT(a, 5);
	CHECK_INT(bsd_sscanf("y=5", "x=%d", &a), 0);
	CHECK_INT(bsd_sscanf("", "%d", &a), -1);
	CHECK_INT(bsd_sscanf("abc", "%d", &a), 0);
	CHECK_INT(bsd_sscanf("7 8", "%*d %d", &a), 1);
	CHECK_INT(a, 8);
	CHECK_INT(bsd_sscanf("100000", "%ld", &l), 1);
	CHECK_INT(l, 100000);
	CHECK_INT(bsd_sscanf("-9000000000", "%lld", &ll), 1);
	CHECK_INT(ll, -9000000000LL);
	CHECK_INT(bsd_sscanf("root:x:0", "%[^:]:%[^:]:%d", s1, s2, &a), 3);
	CHECK_STR(s1, "root");
	CHECK_STR(s2, "x");
	CHECK_INT(a, 0);
	CHECK_INT(bsd_sscanf("42 rest", "%d%n", &a, &n), 1);
	CHECK_INT(n, 2);
	CHECK_INT(bsd_sscanf("010", "%i", &a), 1);
	CHECK_INT(a, 8);
	CHECK_INT(bsd_sscanf("4294967295", "%u", &u), 1);
	CHECK(u == 4294967295U);
}

void
test_printf(void)
{
	integers();
	strings();
	truncation();
	scanning();
}
