/*
 * od: dump files in octal, hexadecimal or as characters.
 *	od [-bcox] [file ...]
 * -b: bytes in octal.
 * -c: bytes as characters (C escapes for \0 \a \b \f \n \r \t \v,
 *     octal for the rest).
 * -o: two-byte words in octal (the default).
 * -x: two-byte words in hexadecimal.
 * Each line shows 16 bytes after their offset (octal); with several
 * options, each format gets its own line.  Lines repeating the one
 * before are shown as a single "*".  The files are dumped as one stream.
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE	16

static char formats[8];		/* the options, in order */
static int nformats;
static int rval;

static void
usage(void)
{
	fprintf(stderr, "usage: od [-bcox] [file ...]\n");
	exit(1);
}

static void
showchar(unsigned char c)
{
	static const char esc[] = "\0\a\b\f\n\r\t\v";
	static const char name[] = "0abfnrtv";
	const char *p;

	if (c >= ' ' && c < 0177)
		printf("   %c", c);
	else if (c != 0 && (p = strchr(esc + 1, c)) != NULL)
		printf("  \\%c", name[p - esc]);
	else if (c == 0)
		printf("  \\0");
	else
		printf(" %03o", c);
}

static void
showline(unsigned long off, const unsigned char *b, int n)
{
	int f, i;

	for (f = 0; f < nformats; f++) {
		if (f == 0)
			printf("%07lo", off);
		else
			printf("       ");
		switch (formats[f]) {
		case 'b':
			for (i = 0; i < n; i++)
				printf(" %03o", b[i]);
			break;
		case 'c':
			for (i = 0; i < n; i++)
				showchar(b[i]);
			break;
		case 'o':
		case 'x':
			for (i = 0; i < n; i += 2)	/* little-endian words */
				printf(formats[f] == 'o' ? " %06o" : " %04x",
				    b[i] | (i + 1 < n ? b[i + 1] << 8 : 0));
			break;
		}
		putchar('\n');
	}
}

/*
 * Fill up to LINE bytes from the files in turn; 0 at the end.  The files
 * are read INBUF bytes at a time: a read(2) per 16-byte line made a
 * 6 MB dump take 393,216 system calls.
 */
#define INBUF	8192

static int
fill(unsigned char *b, char ***files, int *fd)
{
	static unsigned char in[INBUF];
	static int inlen, inpos;
	int n, r;

	n = 0;
	while (n < LINE) {
		if (inpos < inlen) {
			r = inlen - inpos < LINE - n ? inlen - inpos : LINE - n;
			memcpy(b + n, in + inpos, r);
			inpos += r;
			n += r;
			continue;
		}
		if (*fd < 0) {
			if (**files == NULL)
				break;
			if (strcmp(**files, "-") == 0)
				*fd = 0;
			else if ((*fd = open(**files, O_RDONLY)) < 0) {
				warn("%s", **files);
				rval = 1;
				(*files)++;
				continue;
			}
		}
		if ((r = read(*fd, in, INBUF)) <= 0) {
			if (r < 0) {
				warn("%s", **files);
				rval = 1;
			}
			if (*fd != 0)
				close(*fd);
			*fd = -1;
			(*files)++;
			continue;
		}
		inlen = r;
		inpos = 0;
	}
	return n;
}

int
main(int argc, char *argv[])
{
	static char *stdinonly[] = { "-", NULL };
	unsigned char cur[LINE], prev[LINE];
	unsigned long off;
	char **files;
	int ch, n, fd, havelast, starred;

	while ((ch = getopt(argc, argv, "bcox")) != -1) {
		switch (ch) {
		case 'b':
		case 'c':
		case 'o':
		case 'x':
			if (nformats < (int)sizeof(formats) &&
			    strchr(formats, ch) == NULL)
				formats[nformats++] = ch;
			break;
		default:
			usage();
		}
	}
	if (nformats == 0)
		formats[nformats++] = 'o';
	files = argv[optind] != NULL ? argv + optind : stdinonly;
	fd = -1;
	off = 0;
	havelast = starred = 0;
	while ((n = fill(cur, &files, &fd)) > 0) {
		if (havelast && n == LINE && memcmp(cur, prev, LINE) == 0) {
			if (!starred)
				printf("*\n");
			starred = 1;
		} else {
			showline(off, cur, n);
			starred = 0;
		}
		memcpy(prev, cur, n);
		havelast = n == LINE;
		off += n;
	}
	printf("%07lo\n", off);
	return rval;
}
