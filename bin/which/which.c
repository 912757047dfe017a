/*
 * which: where in $PATH each command is found.
 *	which name ...
 * A name with a slash is itself.  Exit status 1 if any is not found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int
found(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

int
main(int argc, char *argv[])
{
	const char *path = getenv("PATH"), *dir, *end;
	char full[1024];
	int i, rval = 0, ok;
	size_t n;

	if (argc < 2) {
		fprintf(stderr, "usage: which name ...\n");
		return 1;
	}
	if (path == NULL)
		path = "/bin:/usr/bin";
	for (i = 1; i < argc; i++) {
		ok = 0;
		if (strchr(argv[i], '/') != NULL)
			ok = found(argv[i]) && printf("%s\n", argv[i]);
		for (dir = path; !ok && dir != NULL; dir = *end ? end + 1 : NULL) {
			if ((end = strchr(dir, ':')) == NULL)
				end = dir + strlen(dir);
			n = end - dir;
			snprintf(full, sizeof(full), "%.*s/%s", (int)(n ? n : 1),
			    n ? dir : ".", argv[i]);
			if (found(full))
				ok = printf("%s\n", full) > 0;
		}
		if (!ok) {
			fprintf(stderr, "which: %s: not found\n", argv[i]);
			rval = 1;
		}
	}
	return rval;
}
