/*
 * strftime(3) for the C locale, and asctime(3)/ctime(3).  Conversions:
 * %a %A %b %B %c %C %d %D %e %F %H %I %j %k %l %m %M %n %p %r %R %s %S
 * %t %T %u %w %x %X %y %Y %z %Z %%.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *const wday[] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
	"Saturday",
};
static const char *const mon[] = {
	"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December",
};

struct out {
	char	*p;
	size_t	 left;
};

static int
add(struct out *o, const char *s, size_t n)
{
	if (n >= o->left)
		return -1;
	memcpy(o->p, s, n);
	o->p += n;
	o->left -= n;
	return 0;
}

static int
addstr(struct out *o, const char *s)
{
	return add(o, s, strlen(s));
}

static int
addnum(struct out *o, const char *fmt, long v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), fmt, v);
	return addstr(o, buf);
}

static int
fmt(struct out *o, const char *f, const struct tm *tm)
{
	int r, h12;

	for (; *f != '\0'; f++) {
		if (*f != '%' || f[1] == '\0') {
			if (add(o, f, 1) < 0)
				return -1;
			continue;
		}
		h12 = tm->tm_hour % 12 == 0 ? 12 : tm->tm_hour % 12;
		switch (*++f) {
		case 'a':
			r = add(o, wday[tm->tm_wday % 7], 3);
			break;
		case 'A':
			r = addstr(o, wday[tm->tm_wday % 7]);
			break;
		case 'b':
		case 'h':
			r = add(o, mon[tm->tm_mon % 12], 3);
			break;
		case 'B':
			r = addstr(o, mon[tm->tm_mon % 12]);
			break;
		case 'c':
			r = fmt(o, "%a %b %e %H:%M:%S %Y", tm);
			break;
		case 'C':
			r = addnum(o, "%02ld", (tm->tm_year + 1900L) / 100);
			break;
		case 'd':
			r = addnum(o, "%02ld", tm->tm_mday);
			break;
		case 'D':
			r = fmt(o, "%m/%d/%y", tm);
			break;
		case 'e':
			r = addnum(o, "%2ld", tm->tm_mday);
			break;
		case 'F':
			r = fmt(o, "%Y-%m-%d", tm);
			break;
		case 'H':
			r = addnum(o, "%02ld", tm->tm_hour);
			break;
		case 'I':
			r = addnum(o, "%02ld", h12);
			break;
		case 'j':
			r = addnum(o, "%03ld", tm->tm_yday + 1);
			break;
		case 'k':
			r = addnum(o, "%2ld", tm->tm_hour);
			break;
		case 'l':
			r = addnum(o, "%2ld", h12);
			break;
		case 'm':
			r = addnum(o, "%02ld", tm->tm_mon + 1);
			break;
		case 'M':
			r = addnum(o, "%02ld", tm->tm_min);
			break;
		case 'n':
			r = add(o, "\n", 1);
			break;
		case 'p':
			r = addstr(o, tm->tm_hour < 12 ? "AM" : "PM");
			break;
		case 'r':
			r = fmt(o, "%I:%M:%S %p", tm);
			break;
		case 'R':
			r = fmt(o, "%H:%M", tm);
			break;
		case 's':
			r = addnum(o, "%ld", (long)timegm((struct tm *)tm));
			break;
		case 'S':
			r = addnum(o, "%02ld", tm->tm_sec);
			break;
		case 't':
			r = add(o, "\t", 1);
			break;
		case 'T':
		case 'X':
			r = fmt(o, "%H:%M:%S", tm);
			break;
		case 'u':
			r = addnum(o, "%ld", tm->tm_wday == 0 ? 7 : tm->tm_wday);
			break;
		case 'w':
			r = addnum(o, "%ld", tm->tm_wday);
			break;
		case 'x':
			r = fmt(o, "%m/%d/%y", tm);
			break;
		case 'y':
			r = addnum(o, "%02ld", (tm->tm_year + 1900L) % 100);
			break;
		case 'Y':
			r = addnum(o, "%ld", tm->tm_year + 1900L);
			break;
		case 'z':
			r = addstr(o, "+0000");
			break;
		case 'Z':
			r = addstr(o, "UTC");
			break;
		case '%':
			r = add(o, "%", 1);
			break;
		default:	/* unknown: copy it through */
			r = add(o, f - 1, 2);
			break;
		}
		if (r < 0)
			return -1;
	}
	return 0;
}

size_t
strftime(char *buf, size_t size, const char *format, const struct tm *tm)
{
	struct out o;

	if (size == 0)
		return 0;
	o.p = buf;
	o.left = size;
	if (fmt(&o, format, tm) < 0) {
		buf[0] = '\0';
		return 0;
	}
	*o.p = '\0';
	return o.p - buf;
}

char *
asctime(const struct tm *tm)
{
	static char buf[32];

	strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y\n", tm);
	return buf;
}

char *
ctime(const time_t *tp)
{
	return asctime(localtime(tp));
}
