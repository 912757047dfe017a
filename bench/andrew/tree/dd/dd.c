/*
 * dd: copy and convert a file, block by block.
 *	dd [if=file] [of=file] [bs=n] [ibs=n] [obs=n] [count=n] [skip=n]
 *	   [seek=n] [conv=notrunc]
 * Sizes take a suffix: b (512), k (1024), m (1048576), w (2), or a
 * product "2x512".  With bs=, each input block is written as it was
 * read; otherwise input (ibs, default 512) is regrouped into output
 * blocks of obs bytes (default 512).  count counts input blocks, skip
 * input blocks to skip, seek output blocks to skip.  conv=notrunc keeps
 * the output file's old contents beyond what is written.
 *
 * At the end, as in 4.4BSD, a summary on standard error:
 *	N+M records in / N+M records out (full + partial blocks)
 *	B bytes transferred in S secs (R bytes/sec)
 */
#include <sys/time.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long in_full, in_part, out_full, out_part;
static unsigned long long bytes;
static struct timeval start;

static void
usage(void)
{
	fprintf(stderr, "usage: dd [if=file] [of=file] [bs=n] [ibs=n] "
	    "[obs=n] [count=n] [skip=n] [seek=n] [conv=notrunc]\n");
	exit(1);
}

/* A size: a number with an optional suffix, or a product a x b. */
static unsigned long long
size(const char *arg)
{
	unsigned long long n;
	char *end;

	n = strtoull(arg, &end, 10);
	if (end == arg)
		errx(1, "%s: illegal numeric value", arg);
	switch (*end) {
	case 'b':
		n *= 512;
		end++;
		break;
	case 'k':
		n *= 1024;
		end++;
		break;
	case 'm':
		n *= 1024 * 1024;
		end++;
		break;
	case 'w':
		n *= 2;
		end++;
		break;
	}
	if (*end == 'x')
		return n * size(end + 1);
	if (*end != '\0')
		errx(1, "%s: illegal numeric value", arg);
	return n;
}

static void
summary(void)
{
	struct timeval now;
	unsigned long long usecs;

	gettimeofday(&now, NULL);
	usecs = (now.tv_sec - start.tv_sec) * 1000000ULL +
	    (now.tv_usec - start.tv_usec);
	if (usecs == 0)
		usecs = 1;
	fprintf(stderr, "%lu+%lu records in\n%lu+%lu records out\n",
	    in_full, in_part, out_full, out_part);
	fprintf(stderr, "%llu bytes transferred in %llu.%06llu secs "
	    "(%llu bytes/sec)\n", bytes, usecs / 1000000, usecs % 1000000,
	    bytes * 1000000 / usecs);
}

static void
output(int fd, const char *buf, size_t n, size_t obs)
{
	ssize_t w;
	size_t off;

	for (off = 0; off < n; off += w) {
		if ((w = write(fd, buf + off, n - off)) < 0) {
			if (errno == EINTR) {
				w = 0;
				continue;
			}
			warn("write");
			summary();
			exit(1);
		}
	}
	if (n == obs)
		out_full++;
	else
		out_part++;
	bytes += n;
}

int
main(int argc, char *argv[])
{
	const char *infile, *outfile, *val;
	unsigned long long ibs, obs, count, skip, seek, blocks;
	char *ibuf, *obuf;
	size_t olen;
	ssize_t n;
	int i, in, out, bsset, notrunc;

	infile = outfile = NULL;
	ibs = obs = 512;
	count = (unsigned long long)-1;
	skip = seek = 0;
	bsset = notrunc = 0;
	for (i = 1; i < argc; i++) {
		if ((val = strchr(argv[i], '=')) == NULL)
			usage();
		val++;
		if (strncmp(argv[i], "if=", 3) == 0)
			infile = val;
		else if (strncmp(argv[i], "of=", 3) == 0)
			outfile = val;
		else if (strncmp(argv[i], "bs=", 3) == 0) {
			ibs = obs = size(val);
			bsset = 1;
		} else if (strncmp(argv[i], "ibs=", 4) == 0)
			ibs = size(val);
		else if (strncmp(argv[i], "obs=", 4) == 0)
			obs = size(val);
		else if (strncmp(argv[i], "count=", 6) == 0)
			count = size(val);
		else if (strncmp(argv[i], "skip=", 5) == 0)
			skip = size(val);
		else if (strncmp(argv[i], "seek=", 5) == 0)
			seek = size(val);
		else if (strcmp(argv[i], "conv=notrunc") == 0)
			notrunc = 1;
		else
			usage();
	}
	if (ibs == 0 || obs == 0 || ibs > 64 * 1024 * 1024 ||
	    obs > 64 * 1024 * 1024)
		errx(1, "block size out of range");
	in = 0;
	if (infile != NULL && (in = open(infile, O_RDONLY)) < 0)
		err(1, "%s", infile);
	out = 1;
	if (outfile != NULL && (out = open(outfile, O_WRONLY | O_CREAT |
	    (notrunc || seek > 0 ? 0 : O_TRUNC), 0666)) < 0)
		err(1, "%s", outfile);
	if ((ibuf = malloc(ibs)) == NULL || (obuf = malloc(obs)) == NULL)
		err(1, NULL);
	gettimeofday(&start, NULL);
	if (skip > 0 && lseek(in, (off_t)(skip * ibs), SEEK_CUR) < 0) {
		for (blocks = 0; blocks < skip; blocks++)	/* a pipe */
			if (read(in, ibuf, ibs) <= 0)
				break;
	}
	if (seek > 0) {
		if (lseek(out, (off_t)(seek * obs), SEEK_CUR) < 0)
			err(1, "%s", outfile != NULL ? outfile : "stdout");
		if (!notrunc)
			ftruncate(out, (off_t)(seek * obs));
	}
	olen = 0;
	for (blocks = 0; blocks < count; blocks++) {
		do
			n = read(in, ibuf, ibs);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			warn("%s", infile != NULL ? infile : "stdin");
			summary();
			exit(1);
		}
		if (n == 0)
			break;
		if ((size_t)n == ibs)
			in_full++;
		else
			in_part++;
		if (bsset) {
			output(out, ibuf, n, obs);
			continue;
		}
		for (i = 0; i < n;) {		/* regroup into obs blocks */
			size_t k = obs - olen < (size_t)(n - i) ?
			    obs - olen : (size_t)(n - i);

			memcpy(obuf + olen, ibuf + i, k);
			olen += k;
			i += k;
			if (olen == obs) {
				output(out, obuf, olen, obs);
				olen = 0;
			}
		}
	}
	if (olen > 0)
		output(out, obuf, olen, obs);
	if (out != 1 && close(out) < 0)
		err(1, "%s", outfile);
	summary();
	return 0;
}
