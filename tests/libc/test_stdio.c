/*
 * Streams on real files in a temporary directory: write and read back,
 * line input, ungetc, seeking, append and update modes, large transfers
 * that bypass the buffer, unbuffered streams, and the error and EOF
 * flags.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsd.h"
#include "harness.h"

static char dir[64], path[128];

/* The file's contents, read with the host's calls. */
static char *
contents(void)
{
	static char buf[200000];
	int fd, n;

	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static void
writeread(void)
{
	bsd_FILE *fp;
	char line[64];
	int c;

	fp = bsd_fopen(path, "w");
	CHECK(fp != NULL);
	CHECK_INT(bsd_fprintf(fp, "line %d\n", 1), 7);
	bsd_fputs("second line\nthird", fp);
	bsd_putc('!', fp);
	CHECK_STR(contents(), "");		/* still in the buffer */
	CHECK_INT(bsd_fclose(fp), 0);
	CHECK_STR(contents(), "line 1\nsecond line\nthird!");

	fp = bsd_fopen(path, "r");
	CHECK_STR(bsd_fgets(line, sizeof(line), fp), "line 1\n");
	CHECK_STR(bsd_fgets(line, 5, fp), "seco");
	CHECK_STR(bsd_fgets(line, sizeof(line), fp), "nd line\n");
	c = bsd_getc(fp);
	CHECK(c == 't');
	CHECK_INT(bsd_ungetc('T', fp), 'T');
	CHECK_STR(bsd_fgets(line, sizeof(line), fp), "Third!");
	CHECK(bsd_feof(fp));		/* the last line had no newline */
	CHECK(bsd_fgets(line, sizeof(line), fp) == NULL);
	CHECK(bsd_feof(fp));
	CHECK_INT(bsd_getc(fp), -1);
	bsd_clearerr(fp);
	CHECK(!bsd_feof(fp));
	CHECK_INT(bsd_fseek(fp, 5, 0), 0);
	CHECK_INT(bsd_getc(fp), '1');
	CHECK_INT(bsd_ftell(fp), 6);
	CHECK_INT(bsd_fseek(fp, -2, 2), 0);	/* the file is 25 bytes */
	CHECK_INT(bsd_getc(fp), 'd');
	CHECK_INT(bsd_ftell(fp), 24);
	CHECK_INT(bsd_fseek(fp, -3, 1), 0);
	CHECK_INT(bsd_ftell(fp), 21);
	CHECK_INT(bsd_getc(fp), 'i');
	bsd_fclose(fp);
}

static void
modes(void)
{
	bsd_FILE *fp;
	char *line;
	unsigned cap;
	int n;

	fp = bsd_fopen(path, "a");
	bsd_fputs("\nappended\n", fp);
	CHECK_INT(bsd_ftell(fp), 35);
	bsd_fclose(fp);
	CHECK_STR(contents(), "line 1\nsecond line\nthird!\nappended\n");

	fp = bsd_fopen(path, "r+");
	CHECK_INT(bsd_getc(fp), 'l');
	CHECK_INT(bsd_fseek(fp, 0, 1), 0);
	bsd_fputs("INE", fp);
	CHECK_INT(bsd_fseek(fp, 0, 1), 0);
	CHECK_INT(bsd_getc(fp), ' ');
	bsd_fclose(fp);
	CHECK_STR(contents(), "lINE 1\nsecond line\nthird!\nappended\n");

	fp = bsd_fopen(path, "r");
	line = NULL;
	cap = 0;
	CHECK_INT(bsd_getline(&line, &cap, fp), 7);
	CHECK_STR(line, "lINE 1\n");
	while ((n = bsd_getline(&line, &cap, fp)) > 0)
		continue;
	CHECK_INT(n, -1);
	bsd_free(line);
	/* a read-only stream refuses output */
	CHECK_INT(bsd_putc('x', fp), -1);
	CHECK(bsd_ferror(fp));
	bsd_fclose(fp);

	CHECK(bsd_fopen("/nonexistent/file", "r") == NULL);
	CHECK_INT(bsd_errno, 2);
	CHECK(bsd_fopen(path, "q") == NULL);
	CHECK_INT(bsd_errno, 22);
}

static void
large(void)
{
	static char big[100000], back[100000];
	bsd_FILE *fp;
	int i;

	for (i = 0; i < (int)sizeof(big); i++)
		big[i] = 'a' + i % 26;
	fp = bsd_fopen(path, "w+");
	CHECK_INT(bsd_fwrite("xy", 1, 2, fp), 2);
	CHECK_INT(bsd_fwrite(big, 1000, 100, fp), 100);
	CHECK_INT(bsd_fwrite("z", 1, 1, fp), 1);
	CHECK_INT(bsd_ftell(fp), 100003);
	CHECK_INT(bsd_fseek(fp, 2, 0), 0);
	CHECK_INT(bsd_fread(back, 1, sizeof(back), fp), 100000);
	CHECK(memcmp(big, back, sizeof(big)) == 0);
	CHECK_INT(bsd_fread(back, 1, 10, fp), 1);
	CHECK(back[0] == 'z');
	CHECK_INT(bsd_fread(back, 1, 10, fp), 0);
	CHECK(bsd_feof(fp));
	bsd_fclose(fp);
}

static void
unbuffered(void)
{
	bsd_FILE *fp;
	int fd;

	fd = open(path, O_WRONLY | O_TRUNC);
	fp = bsd_fdopen(fd, "w");
	CHECK_INT(bsd_setvbuf(fp, NULL, 2, 0), 0);	/* _IONBF */
	bsd_fprintf(fp, "%s-%d", "now", 5);
	CHECK_STR(contents(), "now-5");
	bsd_putc('!', fp);
	CHECK_STR(contents(), "now-5!");
	bsd_fclose(fp);

	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK_INT(bsd_dprintf(fd, "fd %d", fd), 4 + (fd > 9));
	close(fd);
	CHECK(strncmp(contents(), "fd ", 3) == 0);

	fd = open(path, O_WRONLY | O_TRUNC);
	fp = bsd_fdopen(fd, "w");
	bsd_setvbuf(fp, NULL, 1, 0);			/* _IOLBF */
	bsd_fputs("part", fp);
	CHECK_STR(contents(), "");
	bsd_fputs("ial\nnext", fp);		/* a newline flushes it all */
	CHECK_STR(contents(), "partial\nnext");
	bsd_fputs("more", fp);
	CHECK_STR(contents(), "partial\nnext");
	bsd_fclose(fp);
	CHECK_STR(contents(), "partial\nnextmore");
}

/* fscanf: a student's input loop over numbers and words in a file. */
static void
scanning(void)
{
	bsd_FILE *fp;
	char word[16];
	int a, b, sum = 0, n = 0;

	fp = bsd_fopen(path, "w");
	bsd_fputs("3 4\n  -10\nname 7 0x1f\n12abc", fp);
	bsd_fclose(fp);
	fp = bsd_fopen(path, "r");
	CHECK_INT(bsd_fscanf(fp, "%d %d", &a, &b), 2);
	CHECK_INT(a + b, 7);
	CHECK_INT(bsd_fscanf(fp, "%d", &a), 1);
	CHECK_INT(a, -10);
	CHECK_INT(bsd_fscanf(fp, "%15s %d %i", word, &a, &b), 3);
	CHECK_STR(word, "name");
	CHECK_INT(a + b, 7 + 31);
	CHECK_INT(bsd_fscanf(fp, "%d", &a), 1);	/* stops at the 'a' */
	CHECK_INT(a, 12);
	CHECK_INT(bsd_fscanf(fp, "%d", &a), 0);	/* "abc" is no number */
	CHECK_INT(bsd_getc(fp), 'a');		/* and is still there */
	CHECK_INT(bsd_fscanf(fp, "%s", word), 1);
	CHECK_STR(word, "bc");
	CHECK_INT(bsd_fscanf(fp, "%d", &a), -1);	/* EOF */
	bsd_fclose(fp);

	fp = bsd_fopen(path, "w");
	bsd_fputs("1 2 3 4 5\n", fp);
	bsd_fclose(fp);
	fp = bsd_fopen(path, "r");
	while (bsd_fscanf(fp, "%d", &a) == 1) {
		sum += a;
		n++;
	}
	CHECK_INT(n, 5);
	CHECK_INT(sum, 15);
	bsd_fclose(fp);
}

void
test_stdio(void)
{
	strcpy(dir, "/tmp/libctestXXXXXX");
	if (mkdtemp(dir) == NULL) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/file", dir);
	writeread();
	modes();
	large();
	unbuffered();
	scanning();
	unlink(path);
	rmdir(dir);
}
