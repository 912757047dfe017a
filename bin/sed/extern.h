/*
 * sed's parts: main.c (the options and the script's text), compile.c
 * (the script into an array of commands), process.c (the commands over
 * the input).
 */

struct str {
	char	*s;
	size_t	 len, cap;
};

enum { A_NONE, A_LINE, A_LAST, A_RE };

struct addr {
	int	 type;
	long	 line;
	regex_t	*re;		/* NULL: the last regular expression used */
};

struct wfile {
	char	*name;
	FILE	*fp;
	struct wfile *next;
};

struct cmd {
	struct addr a1, a2;
	int	 negate;	/* ! */
	int	 inrange;	/* between a1 and a2 */
	char	 code;
	char	*text;		/* a i c: the text; b t :: label; r: file */
	int	 target;	/* { : after its }; b t: the label's command */
	/* s */
	regex_t	*re;
	char	*repl;
	int	 global, print, nth;
	struct wfile *wf;	/* s///w, w */
	/* y */
	unsigned char map[256];
};

extern struct cmd *cmds;	/* the script, compiled */
extern int ncmds;
extern struct wfile *wfiles;	/* the files of w and s///w */
extern int nflag;		/* -n: no automatic printing */
extern int rflags;		/* regcomp's flags: -E */
extern const char *inplace;	/* -i: the backup's suffix ("" for none) */

void	 compile(const char *);
void	 process(char **) __attribute__((__noreturn__));

void	*xrealloc(void *, size_t);
char	*xstrndup(const char *, size_t);
void	 sadd(struct str *, const char *, size_t);
void	 sset(struct str *, const char *, size_t);
