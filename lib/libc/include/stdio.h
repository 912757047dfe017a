/*
 * Buffered streams, in the shape of 4.4BSD stdio but smaller.
 *
 * A stream is either reading or writing at any moment (__SRD or __SWR);
 * switching direction goes through fflush/fseek as ISO C requires.
 * While reading, _p points at the next unread byte and _r counts the
 * bytes left in the buffer.  While writing, _p points at the next free
 * byte and _w counts the free bytes left.  The buffer is allocated on
 * first use; stderr is unbuffered, a stream on a terminal is line
 * buffered, everything else is fully buffered.
 */
#ifndef _STDIO_H_
#define _STDIO_H_

#include <sys/types.h>
#include <stdarg.h>

#define BUFSIZ		1024
#define EOF		(-1)
#define FOPEN_MAX	20
#define FILENAME_MAX	1024
#define L_tmpnam	1024

#ifndef SEEK_SET
#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2
#endif

typedef off_t fpos_t;

typedef struct __sFILE {
	unsigned char *_p;	/* current position in the buffer */
	int	_r;		/* read space left */
	int	_w;		/* write space left */
	int	_flags;		/* __S* below; 0 means the slot is free */
	int	_fd;
	unsigned char *_bf;	/* the buffer */
	int	_bsize;		/* its size */
	unsigned char _nbuf[1];	/* one-byte buffer for unbuffered streams */
} FILE;

#define __SLBF	0x0001		/* line buffered */
#define __SNBF	0x0002		/* unbuffered */
#define __SRD	0x0004		/* reading now */
#define __SWR	0x0008		/* writing now */
#define __SRW	0x0010		/* opened for reading and writing */
#define __SEOF	0x0020		/* end of file seen */
#define __SERR	0x0040		/* error seen */
#define __SMBF	0x0080		/* _bf came from malloc */
#define __SRDOK	0x0100		/* opened for reading */
#define __SWROK	0x0200		/* opened for writing */
#define __SBUFCHK 0x0400	/* buffering mode has been decided */

extern FILE __sF[];
#define stdin	(&__sF[0])
#define stdout	(&__sF[1])
#define stderr	(&__sF[2])

#define _IOFBF	0
#define _IOLBF	1
#define _IONBF	2

void	 clearerr(FILE *);
int	 dprintf(int, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
int	 fclose(FILE *);
FILE	*fdopen(int, const char *);
int	 feof(FILE *);
int	 ferror(FILE *);
int	 fflush(FILE *);
int	 fgetc(FILE *);
int	 fgetpos(FILE *, fpos_t *);
char	*fgets(char *, int, FILE *);
int	 fileno(FILE *);
FILE	*fopen(const char *, const char *);
int	 fprintf(FILE *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
int	 fputc(int, FILE *);
int	 fputs(const char *, FILE *);
size_t	 fread(void *, size_t, size_t, FILE *);
FILE	*freopen(const char *, const char *, FILE *);
int	 fseek(FILE *, long, int);
int	 fseeko(FILE *, off_t, int);
int	 fsetpos(FILE *, const fpos_t *);
long	 ftell(FILE *);
off_t	 ftello(FILE *);
size_t	 fwrite(const void *, size_t, size_t, FILE *);
int	 getc(FILE *);
int	 getchar(void);
ssize_t	 getline(char **, size_t *, FILE *);
void	 perror(const char *);
int	 printf(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
int	 putc(int, FILE *);
int	 putchar(int);
int	 puts(const char *);
int	 remove(const char *);
int	 rename(const char *, const char *);
void	 rewind(FILE *);
void	 setbuf(FILE *, char *);
int	 setvbuf(FILE *, char *, int, size_t);
int	 snprintf(char *, size_t, const char *, ...)
	    __attribute__((__format__(__printf__, 3, 4)));
int	 sprintf(char *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
int	 sscanf(const char *, const char *, ...);
int	 fscanf(FILE *, const char *, ...);
int	 scanf(const char *, ...);
int	 ungetc(int, FILE *);
int	 vdprintf(int, const char *, va_list);
int	 vfprintf(FILE *, const char *, va_list);
int	 vprintf(const char *, va_list);
int	 vsnprintf(char *, size_t, const char *, va_list);
int	 vsprintf(char *, const char *, va_list);
int	 vsscanf(const char *, const char *, va_list);
int	 vfscanf(FILE *, const char *, va_list);

/* Internal to stdio. */
int	 __srefill(FILE *);
int	 __swsetup(FILE *);
int	 __sflush(FILE *);
FILE	*__sfp(void);
int	 __sflags(const char *, int *);
int	 __format(void (*)(void *, const char *, size_t), void *,
	    const char *, va_list);

#endif
