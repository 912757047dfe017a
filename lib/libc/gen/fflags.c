/*
 * File flags as words, for ls -o and chflags (FreeBSD's fflagstostr and
 * strtofflags): this system has one, "txn" (UF_TXN, transaction
 * protection on BSD-LFS); "notxn" clears it.
 */
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name;
	u_int32_t flag;
} fflags[] = {
	{ "txn", UF_TXN },
};
#define NFFLAGS	(sizeof(fflags) / sizeof(fflags[0]))

/* "txn", or "-" when none is set; a static buffer. */
char *
fflagstostr(u_int32_t flags)
{
	static char buf[64];
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < NFFLAGS; i++)
		if (flags & fflags[i].flag) {
			if (buf[0])
				strcat(buf, ",");
			strcat(buf, fflags[i].name);
		}
	if (buf[0] == '\0')
		strcpy(buf, "-");
	return buf;
}

/*
 * A comma-separated list ("txn", "notxn") into the flags to set and to
 * clear.  0, or -1 with *stringp at the word it does not know.
 */
int
strtofflags(char **stringp, u_int32_t *setp, u_int32_t *clrp)
{
	char *s = *stringp, *word;
	unsigned i;
	int no;

	*setp = *clrp = 0;
	while ((word = strsep(&s, ",")) != NULL) {
		no = strncmp(word, "no", 2) == 0;
		for (i = 0; i < NFFLAGS; i++)
			if (strcmp(word + (no ? 2 : 0), fflags[i].name) == 0)
				break;
		if (i == NFFLAGS) {
			*stringp = word;
			return -1;
		}
		if (no)
			*clrp |= fflags[i].flag;
		else
			*setp |= fflags[i].flag;
	}
	return 0;
}
