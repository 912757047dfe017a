/*
 * Our libc's functions as the host test sees them: every symbol carries
 * a bsd_ prefix (see the Makefile).  The types are spelled with host
 * types of the same size (i386: int, long and pointers are 32 bits;
 * off_t is 64 bits); a FILE is opaque here.
 */
#ifndef BSD_H
#define BSD_H

#include <stdarg.h>

typedef struct bsd_FILE bsd_FILE;
typedef long long bsd_off_t;

/* <fnmatch.h> flags, which differ from the host's */
#define BSD_FNM_NOMATCH	1
#define BSD_FNM_NOESCAPE	0x01
#define BSD_FNM_PATHNAME	0x02
#define BSD_FNM_PERIOD	0x04
#define BSD_FNM_CASEFOLD	0x10

/* <regex.h> */
#define BSD_REG_EXTENDED	0001
#define BSD_REG_ICASE	0002
#define BSD_REG_NOSUB	0004
#define BSD_REG_NEWLINE	0010
#define BSD_REG_NOTBOL	0001
#define BSD_REG_NOTEOL	0002
#define BSD_REG_STARTEND	0004
#define BSD_REG_NOMATCH	1
#define BSD_REG_EBRACK	7
#define BSD_REG_ESPACE	12
typedef struct {
	unsigned re_nsub;
	int	 re_cflags;
	void	*re_prog;
} bsd_regex_t;
typedef struct {
	int	 rm_so, rm_eo;
} bsd_regmatch_t;

struct bsd_tm {
	int	tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year;
	int	tm_wday, tm_yday, tm_isdst;
	long	tm_gmtoff;
	char	*tm_zone;
};

extern int bsd_errno;
extern char **bsd_environ;
extern const char *bsd___progname;
extern char *bsd_optarg;
extern int bsd_optind, bsd_opterr, bsd_optopt, bsd_optreset;
extern const char *const bsd_sys_siglist[32];

/* stdio */
int	bsd_snprintf(char *, unsigned, const char *, ...);
int	bsd_sprintf(char *, const char *, ...);
int	bsd_vsnprintf(char *, unsigned, const char *, va_list);
int	bsd_fprintf(bsd_FILE *, const char *, ...);
int	bsd_dprintf(int, const char *, ...);
int	bsd_sscanf(const char *, const char *, ...);
int	bsd_fscanf(bsd_FILE *, const char *, ...);
bsd_FILE *bsd_fopen(const char *, const char *);
bsd_FILE *bsd_fdopen(int, const char *);
int	bsd_fclose(bsd_FILE *);
int	bsd_fflush(bsd_FILE *);
int	bsd_getc(bsd_FILE *);
int	bsd_putc(int, bsd_FILE *);
int	bsd_ungetc(int, bsd_FILE *);
char	*bsd_fgets(char *, int, bsd_FILE *);
int	bsd_getline(char **, unsigned *, bsd_FILE *);
int	bsd_fputs(const char *, bsd_FILE *);
unsigned bsd_fread(void *, unsigned, unsigned, bsd_FILE *);
unsigned bsd_fwrite(const void *, unsigned, unsigned, bsd_FILE *);
int	bsd_fseek(bsd_FILE *, long, int);
long	bsd_ftell(bsd_FILE *);
int	bsd_feof(bsd_FILE *);
int	bsd_ferror(bsd_FILE *);
void	bsd_clearerr(bsd_FILE *);
int	bsd_setvbuf(bsd_FILE *, char *, int, unsigned);

/* string */
void	*bsd_memcpy(void *, const void *, unsigned);
void	*bsd_memmove(void *, const void *, unsigned);
void	*bsd_memset(void *, int, unsigned);
int	bsd_memcmp(const void *, const void *, unsigned);
void	*bsd_memchr(const void *, int, unsigned);
unsigned bsd_strlen(const char *);
char	*bsd_strcpy(char *, const char *);
char	*bsd_strncpy(char *, const char *, unsigned);
char	*bsd_strcat(char *, const char *);
char	*bsd_strncat(char *, const char *, unsigned);
int	bsd_strcmp(const char *, const char *);
int	bsd_strncmp(const char *, const char *, unsigned);
char	*bsd_strchr(const char *, int);
char	*bsd_strrchr(const char *, int);
char	*bsd_strstr(const char *, const char *);
unsigned bsd_strspn(const char *, const char *);
unsigned bsd_strcspn(const char *, const char *);
char	*bsd_strpbrk(const char *, const char *);
char	*bsd_strdup(const char *);
char	*bsd_strndup(const char *, unsigned);
unsigned bsd_strlcpy(char *, const char *, unsigned);
unsigned bsd_strlcat(char *, const char *, unsigned);
char	*bsd_strsep(char **, const char *);
char	*bsd_strtok(char *, const char *);
int	bsd_strcasecmp(const char *, const char *);
char	*bsd_strerror(int);
char	*bsd_strsignal(int);

/* stdlib */
void	*bsd_malloc(unsigned);
void	*bsd_calloc(unsigned, unsigned);
void	*bsd_realloc(void *, unsigned);
void	bsd_free(void *);
long	bsd_strtol(const char *, char **, int);
unsigned long bsd_strtoul(const char *, char **, int);
long long bsd_strtoll(const char *, char **, int);
unsigned long long bsd_strtoull(const char *, char **, int);
int	bsd_atoi(const char *);
void	bsd_qsort(void *, unsigned, unsigned, int (*)(const void *, const void *));
void	*bsd_bsearch(const void *, const void *, unsigned, unsigned,
	    int (*)(const void *, const void *));
char	*bsd_getenv(const char *);
int	bsd_setenv(const char *, const char *, int);
int	bsd_unsetenv(const char *);
int	bsd_putenv(char *);
int	bsd_atexit(void (*)(void));

/* gen */
int	bsd_isdigit(int), bsd_isalpha(int), bsd_isspace(int), bsd_isupper(int);
int	bsd_isxdigit(int), bsd_ispunct(int), bsd_isprint(int);
int	bsd_toupper(int), bsd_tolower(int);
int	bsd_getopt(int, char *const *, const char *);
int	bsd_fnmatch(const char *, const char *, int);
int	bsd_regcomp(bsd_regex_t *, const char *, int);
int	bsd_regexec(const bsd_regex_t *, const char *, unsigned,
	    bsd_regmatch_t *, int);
unsigned bsd_regerror(int, const bsd_regex_t *, char *, unsigned);
void	bsd_regfree(bsd_regex_t *);
struct bsd_tm *bsd_gmtime(const long *);
long	bsd_timegm(struct bsd_tm *);
unsigned bsd_strftime(char *, unsigned, const char *, const struct bsd_tm *);
char	*bsd_ctime(const long *);
const char *bsd_getprogname(void);

#endif
