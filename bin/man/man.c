/*
 * man: show the manual's pages.
 *	man [-w] [section] name ...
 *	man -k keyword ...
 * The pages are catpages, /usr/share/man/catN/NAME.0, formatted on the
 * host at build time (share/man, Debian's mandoc).  Without a section,
 * the sections are searched in the order 1, 8, 2, 3: a command before the
 * system call or library function of the same name, as in 4.4BSD.  When the standard output
 * is a terminal the pages go through more(1), else they are copied as
 * they are (more's exit status counts).
 * -w: print the pages' paths instead.
 * -k: print the lines of the whatis file (every page's NAME line) that
 *     hold a keyword, in any case, as apropos(1) does.
 * Exit status 1 if a page or keyword is not found, or for a bad option.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MANDIR	"/usr/share/man"
static const char *sections[] = { "1", "8", "2", "3" };

static void
usage(void)
{
	fprintf(stderr, "usage: man [-w] [section] name ...\n"
	    "       man -k keyword ...\n");
	exit(1);
}

/* The catpage of name in sect into path; 1 if it exists. */
static int
lookup(const char *sect, const char *name, char *path, size_t len)
{
	struct stat st;

	snprintf(path, len, "%s/cat%s/%s.0", MANDIR, sect, name);
	return strchr(name, '/') == NULL && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode);
}

/* Does line hold word, ignoring case? */
static int
holds(const char *line, const char *word)
{
	size_t i, n = strlen(word);

	for (; *line != '\0'; line++) {
		for (i = 0; i < n && line[i] != '\0' &&
		    tolower((unsigned char)line[i]) ==
		    tolower((unsigned char)word[i]); i++)
			;
		if (i == n)
			return 1;
	}
	return 0;
}

static int
apropos(int argc, char *argv[])
{
	char line[512];
	FILE *fp;
	int i, rval = 0, found;

	if ((fp = fopen(MANDIR "/whatis", "r")) == NULL) {
		perror(MANDIR "/whatis");
		return 1;
	}
	for (i = 0; i < argc; i++) {
		found = 0;
		rewind(fp);
		while (fgets(line, sizeof(line), fp) != NULL)
			if (holds(line, argv[i])) {
				fputs(line, stdout);
				found = 1;
			}
		if (!found) {
			fprintf(stderr, "%s: nothing appropriate\n", argv[i]);
			rval = 1;
		}
	}
	fclose(fp);
	return rval;
}

/* Copy a page to the standard output. */
static int
cat(const char *path)
{
	char buf[4096];
	FILE *fp;
	size_t n;

	if ((fp = fopen(path, "r")) == NULL) {
		perror(path);
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(fp);
	return 0;
}

int
main(int argc, char *argv[])
{
	char **pages, path[256];
	const char *sect = NULL;
	int ch, kflag = 0, wflag = 0, rval = 0, npages = 0, i, s, ok, status;
	pid_t pid;

	while ((ch = getopt(argc, argv, "kw")) != -1) {
		switch (ch) {
		case 'k':
			kflag = 1;
			break;
		case 'w':
			wflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0 || (kflag && wflag))
		usage();
	if (kflag)
		return apropos(argc, argv);
	if (argc > 1 && isdigit((unsigned char)argv[0][0])) {
		sect = argv[0];
		argc--;
		argv++;
	}
	if ((pages = malloc((argc + 2) * sizeof(*pages))) == NULL) {
		perror("man");
		return 1;
	}
	pages[npages++] = "more";
	for (i = 0; i < argc; i++) {
		ok = 0;
		if (sect != NULL)
			ok = lookup(sect, argv[i], path, sizeof(path));
		for (s = 0; sect == NULL && !ok &&
		    s < (int)(sizeof(sections) / sizeof(sections[0])); s++)
			ok = lookup(sections[s], argv[i], path, sizeof(path));
		if (!ok) {
			if (sect != NULL)
				fprintf(stderr, "No entry for %s in section %s "
				    "of the manual\n", argv[i], sect);
			else
				fprintf(stderr, "No manual entry for %s\n",
				    argv[i]);
			rval = 1;
		} else if (wflag)
			printf("%s\n", path);
		else if ((pages[npages++] = strdup(path)) == NULL) {
			perror("man");
			return 1;
		}
	}
	if (wflag || npages == 1)
		return rval;
	fflush(stdout);
	if (isatty(STDOUT_FILENO)) {
		pages[npages] = NULL;
		if ((pid = fork()) == 0) {
			execv("/bin/more", pages);
			perror("/bin/more");
			_exit(127);
		}
		if (pid > 0 && waitpid(pid, &status, 0) == pid)
			return rval || !WIFEXITED(status) ||
			    WEXITSTATUS(status) != 0;
	}
	for (i = 1; i < npages; i++)
		rval |= cat(pages[i]);
	return rval;
}
