/*
 * atoi, atol, atoll: strtol without error reporting.
 */
#include <stdlib.h>

int
atoi(const char *s)
{
	return (int)strtol(s, NULL, 10);
}

long
atol(const char *s)
{
	return strtol(s, NULL, 10);
}

long long
atoll(const char *s)
{
	return strtoll(s, NULL, 10);
}
