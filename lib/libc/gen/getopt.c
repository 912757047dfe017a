/*
 * getopt(3), as in 4.4BSD: options are single letters grouped after one
 * '-'; "--" ends them; a letter followed by ':' in optstring takes an
 * argument, either the rest of the word or the next word.  Errors print
 * "prog: illegal option -- c" unless opterr is 0 or optstring starts
 * with ':'; then '?' (or ':' for a missing argument) is returned.
 * Setting optreset to 1 restarts the scan (with optind = 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char	*optarg;
int	 optind = 1, opterr = 1, optopt, optreset;

int
getopt(int argc, char *const *argv, const char *optstring)
{
	static const char *place = "";	/* the rest of the current word */
	const char *oli;

	if (optreset || *place == '\0') {
		optreset = 0;
		if (optind >= argc || *(place = argv[optind]) != '-' ||
		    place[1] == '\0') {
			place = "";
			return -1;
		}
		if (place[1] == '-' && place[2] == '\0') {
			optind++;
			place = "";
			return -1;
		}
		place++;
	}
	optopt = *place++;
	if (optopt == ':' || (oli = strchr(optstring, optopt)) == NULL) {
		if (*place == '\0')
			optind++;
		if (opterr && *optstring != ':')
			fprintf(stderr, "%s: illegal option -- %c\n",
			    getprogname(), optopt);
		return '?';
	}
	if (oli[1] != ':') {
		optarg = NULL;
		if (*place == '\0')
			optind++;
		return optopt;
	}
	if (*place != '\0')
		optarg = (char *)place;
	else if (++optind < argc)
		optarg = argv[optind];
	else {
		place = "";
		if (*optstring == ':')
			return ':';
		if (opterr)
			fprintf(stderr, "%s: option requires an argument -- %c\n",
			    getprogname(), optopt);
		return '?';
	}
	place = "";
	optind++;
	return optopt;
}
