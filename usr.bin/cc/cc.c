/*
 * cc: the C compiler of the guest, a driver around the Tiny C Compiler's
 * library (libtcc).
 *
 * This program is not built with our libc: it is linked on the host
 * "gcc -m32 -static" against Debian's i386 libtcc.a and glibc, so it is
 * a Linux binary, and the guest kernel runs it through its Linux
 * compatibility layer (compat/linux).  What it produces is ours: it
 * compiles against the headers in /usr/include (the project's libc and
 * sys/ headers) and /usr/lib/tcc/include (the compiler's own stdarg.h,
 * stddef.h, ...), and links /usr/lib/crt0.o, the objects, the -l
 * libraries, /usr/lib/libc.a and /usr/lib/libgcc.a (64-bit division and
 * the like) into a static ELF for our kernel.
 *
 *	cc [-c | -E] [-o file] [-Idir] [-Dname[=value]] [-Uname] [-Ldir]
 *	   [-llib] [-g] [-O[n]] [-w] [-Wwarning] [-v] [--sysroot=dir] file ...
 *
 * Files ending in .c are compiled; .o and .a files are passed to the
 * link.  Without -c or -E the result is linked into -o's file (a.out);
 * with -c each .c becomes a .o in the current directory (or -o's file,
 * for one source); -E writes the preprocessed source to the standard
 * output (or -o's file).  Errors come from tcc, "file.c:LINE: error: ...",
 * and the exit status is 1.  --sysroot=dir puts dir in front of /usr/...,
 * so that the same binary can build guest programs on the host (tests).
 *
 * A write that fails (a full disk) is an error too, "cc: file: No space
 * left on device", and the file is removed.  tcc writes its output through
 * stdio and ignores what fwrite, fputc and fclose answer (tccelf.c,
 * tcc_write_elf_file), so the Makefile links cc with -Wl,--wrap for those
 * three: tcc's calls come to the wrappers below, which keep the first
 * error for the driver to report.
 */
#include <errno.h>
#include <libtcc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TCCDIR	"/usr/lib/tcc"		/* {B}: tcc's own files */
#define INCDIR	"/usr/include"
#define LIBDIR	"/usr/lib"

static const char *sysroot = "";	/* --sysroot */
static int wrerror;			/* errno of tcc's first failed write */

enum mode { LINK, COMPILE, PREPROCESS };

struct args {
	enum mode mode;
	const char *out;		/* -o */
	int verbose;			/* -v: say what is done */
	char *opts;			/* -D -U -I -g -w -W..., for tcc_set_options */
	const char **files;		/* inputs, in order */
	int nfiles;
	const char **libs;		/* -l, in order, relative to files */
	int *libpos;			/* index in files the -l came after */
	int nlibs;
	const char **libdirs;		/* -L */
	int nlibdirs;
};

/* The real stdio calls, and tcc's calls to them (ld --wrap). */
size_t	__real_fwrite(const void *, size_t, size_t, FILE *);
int	__real_fputc(int, FILE *);
int	__real_fclose(FILE *);

size_t
__wrap_fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	size_t done = __real_fwrite(p, size, n, f);

	if (done < n && wrerror == 0)
		wrerror = errno;
	return done;
}

int
__wrap_fputc(int c, FILE *f)
{
	int r = __real_fputc(c, f);

	if (r == EOF && wrerror == 0)
		wrerror = errno;
	return r;
}

/* A stream that failed earlier (its error flag), or fails its last flush. */
int
__wrap_fclose(FILE *f)
{
	int failed = ferror(f), r = __real_fclose(f);

	if (r == EOF && wrerror == 0)
		wrerror = errno;
	else if (failed && wrerror == 0)
		wrerror = EIO;
	return failed ? EOF : r;
}

/*
 * Did tcc write file whole?  If not, say why and remove what is there, so
 * that nothing half written looks like an object or a program; the next
 * file starts with no error.
 */
static int
written(const char *file)
{
	if (wrerror == 0)
		return 1;
	fprintf(stderr, "cc: %s: %s\n", file, strerror(wrerror));
	unlink(file);
	wrerror = 0;
	return 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: cc [-c | -E] [-o file] [-Idir] [-Dname[=value]] "
	    "[-Uname] [-Ldir] [-llib] [-g] [-O] file ...\n");
	exit(1);
}

static void *
xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL) {
		fprintf(stderr, "cc: out of memory\n");
		exit(1);
	}
	return p;
}

/* Append " OPT" (or " OPTARG") to the options handed to tcc. */
static void
addopt(struct args *a, const char *opt, const char *arg)
{
	size_t n = strlen(a->opts) + strlen(opt) + (arg ? strlen(arg) : 0) + 2;
	char *s = xmalloc(n);

	snprintf(s, n, "%s %s%s", a->opts, opt, arg ? arg : "");
	free(a->opts);
	a->opts = s;
}

/* The argument of -X: the rest of this word, or the next word. */
static const char *
optarg_of(char **argv, int *i)
{
	if (argv[*i][2] != '\0')
		return argv[*i] + 2;
	if (argv[*i + 1] == NULL)
		usage();
	return argv[++*i];
}

static void
parse(int argc, char **argv, struct args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	a->opts = strdup("");
	a->files = xmalloc(argc * sizeof(char *));
	a->libs = xmalloc(argc * sizeof(char *));
	a->libpos = xmalloc(argc * sizeof(int));
	a->libdirs = xmalloc(argc * sizeof(char *));
	for (i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (w[0] != '-' || w[1] == '\0') {
			a->files[a->nfiles++] = w;
			continue;
		}
		switch (w[1]) {
		case 'c':
			a->mode = COMPILE;
			break;
		case 'E':
			a->mode = PREPROCESS;
			break;
		case 'o':
			a->out = optarg_of(argv, &i);
			break;
		case 'I':
		case 'D':
		case 'U':
			/* tcc_set_options splits at blanks: keep the value whole */
			addopt(a, (char[]){ '-', w[1], '\0' }, optarg_of(argv, &i));
			break;
		case 'L':
			a->libdirs[a->nlibdirs++] = optarg_of(argv, &i);
			break;
		case 'l':
			a->libpos[a->nlibs] = a->nfiles;
			a->libs[a->nlibs++] = optarg_of(argv, &i);
			break;
		case 'g':
		case 'w':
		case 'W':
			addopt(a, w, NULL);
			break;
		case 'O':			/* tcc does not optimize */
			break;
		case 'v':
			a->verbose = 1;
			break;
		case '-':
			if (strncmp(w, "--sysroot=", 10) == 0) {
				sysroot = w + 10;
				break;
			}
			fprintf(stderr, "cc: unknown option %s\n", w);
			usage();
		case 's':
			if (strcmp(w, "-static") == 0)	/* always static */
				break;
			/* FALLTHROUGH */
		default:
			fprintf(stderr, "cc: unknown option %s\n", w);
			usage();
		}
	}
	if (a->nfiles == 0)
		usage();
}

/* A file of the system, under --sysroot. */
static const char *
sys(const char *path)
{
	size_t n = strlen(sysroot) + strlen(path) + 1;
	char *s = xmalloc(n);

	snprintf(s, n, "%s%s", sysroot, path);
	return s;
}

static int
is_source(const char *f)
{
	size_t n = strlen(f);

	return n > 2 && strcmp(f + n - 2, ".c") == 0;
}

/* "dir/name.c" -> "name.o" */
static char *
object_name(const char *src)
{
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	size_t n = strlen(base);
	char *o = xmalloc(n + 1);

	memcpy(o, base, n + 1);
	o[n - 1] = 'o';
	return o;
}

/* A compilation context set up for our system's headers and libraries. */
static TCCState *
newstate(struct args *a, int type)
{
	TCCState *s = tcc_new();
	int i;

	if (s == NULL) {
		fprintf(stderr, "cc: tcc_new failed\n");
		exit(1);
	}
	tcc_set_lib_path(s, sys(TCCDIR));
	tcc_set_options(s, "-nostdinc -nostdlib -static");
	tcc_set_options(s, a->opts);
	tcc_add_sysinclude_path(s, sys(TCCDIR "/include"));
	tcc_add_sysinclude_path(s, sys(INCDIR));
	for (i = 0; i < a->nlibdirs; i++)
		tcc_add_library_path(s, a->libdirs[i]);
	tcc_add_library_path(s, sys(LIBDIR));
	tcc_set_output_type(s, type);
	return s;
}

static int
addfile(struct args *a, TCCState *s, const char *f)
{
	if (a->verbose)
		fprintf(stderr, "cc: %s\n", f);
	return tcc_add_file(s, f);
}

/* cc -E: each source preprocessed to the standard output, or to -o's file. */
static int
preprocess(struct args *a)
{
	int i, status = 0;

	if (a->out && freopen(a->out, "w", stdout) == NULL) {
		perror(a->out);
		return 1;
	}
	for (i = 0; i < a->nfiles; i++) {
		TCCState *s = newstate(a, TCC_OUTPUT_PREPROCESS);

		if (addfile(a, s, a->files[i]) < 0)
			status = 1;
		tcc_delete(s);
	}
	/* tcc wrote with fputs and fprintf too: the stream's flag says all */
	if (fflush(stdout) == EOF && wrerror == 0)
		wrerror = errno;
	if (ferror(stdout) && wrerror == 0)
		wrerror = EIO;
	if (wrerror != 0) {
		if (a->out)
			written(a->out);
		else
			fprintf(stderr, "cc: standard output: %s\n",
			    strerror(wrerror));
		status = 1;
	}
	return status;
}

/* cc -c: one object per source. */
static int
compile(struct args *a)
{
	int i, status = 0, nsrc = 0;

	for (i = 0; i < a->nfiles; i++)
		nsrc += is_source(a->files[i]);
	if (a->out && nsrc > 1) {
		fprintf(stderr, "cc: -o with -c and more than one source\n");
		return 1;
	}
	for (i = 0; i < a->nfiles; i++) {
		const char *src = a->files[i];
		char *obj;
		TCCState *s;

		if (!is_source(src))
			continue;	/* objects and libraries: nothing to do */
		obj = a->out ? strdup(a->out) : object_name(src);
		s = newstate(a, TCC_OUTPUT_OBJ);
		if (addfile(a, s, src) < 0 || tcc_output_file(s, obj) < 0 ||
		    !written(obj)) {
			unlink(obj);
			status = 1;
		}
		tcc_delete(s);
		free(obj);
	}
	return status;
}

/* cc: compile the sources in memory and link everything with crt0 and libc. */
static int
linkall(struct args *a)
{
	const char *out = a->out ? a->out : "a.out";
	TCCState *s = newstate(a, TCC_OUTPUT_EXE);
	int i, l = 0, status = 0;

	if (addfile(a, s, sys(LIBDIR "/crt0.o")) < 0)
		status = 1;
	for (i = 0; i <= a->nfiles && status == 0; i++) {
		for (; l < a->nlibs && a->libpos[l] == i; l++) {
			if (a->verbose)
				fprintf(stderr, "cc: -l%s\n", a->libs[l]);
			if (tcc_add_library(s, a->libs[l]) < 0) {
				fprintf(stderr, "cc: cannot find -l%s\n", a->libs[l]);
				status = 1;
			}
		}
		if (i < a->nfiles && addfile(a, s, a->files[i]) < 0)
			status = 1;
	}
	if (status == 0 && (addfile(a, s, sys(LIBDIR "/libc.a")) < 0 ||
	    addfile(a, s, sys(LIBDIR "/libgcc.a")) < 0))
		status = 1;
	if (status == 0 && (tcc_output_file(s, out) < 0 || !written(out))) {
		unlink(out);
		status = 1;
	}
	tcc_delete(s);
	return status;
}

int
main(int argc, char **argv)
{
	struct args a;

	parse(argc, argv, &a);
	switch (a.mode) {
	case PREPROCESS:
		return preprocess(&a);
	case COMPILE:
		return compile(&a);
	default:
		return linkall(&a);
	}
}
