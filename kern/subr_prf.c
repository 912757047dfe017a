/*
 * Kernel printf and panic.  The formatter is libc's (kern/subr_format.c,
 * compiled into both): printf hands it the console, snprintf a buffer,
 * and a kernel format means what it means in a program.
 */
#include "kern/systm.h"
#include "kern/i386/cpu.h"

/* The console: every byte to cnputc. */
static void
conput(void *arg, const char *s, size_t n)
{
	while (n-- > 0)
		cnputc(*s++);
}

/* A buffer: what fits, the count of what would have. */
struct strsink {
	char	*buf;
	size_t	 size;
	size_t	 len;
};

static void
strput(void *arg, const char *s, size_t n)
{
	struct strsink *ss = arg;

	for (; n > 0; n--, s++, ss->len++)
		if (ss->len + 1 < ss->size)
			ss->buf[ss->len] = *s;
}

void
vprintf(const char *fmt, va_list ap)
{
	int s = splhigh();

	__format(conput, NULL, fmt, ap);
	splx(s);
}

void
printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

int
vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct strsink ss = { buf, size, 0 };

	__format(strput, &ss, fmt, ap);
	if (size > 0)
		buf[ss.len < size ? ss.len : size - 1] = '\0';
	return ss.len;
}

int
snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/*
 * Symbolic backtrace: follow the %ebp chain of the kernel stack.  Each
 * frame holds the caller's %ebp and the return address above it.
 */
void
backtrace(u_int32_t ebp)
{
	int depth;

	printf("backtrace:\n");
	for (depth = 0; depth < 16 && ebp >= KERNBASE_VA; depth++) {
		u_int32_t *frame = (u_int32_t *)ebp;
		u_int32_t ret = frame[1], off;
		const char *name = ksym_lookup(ret, &off);

		printf("  0x%08x %s+0x%x\n", ret, name ? name : "?", off);
		ebp = frame[0];
	}
}

static int panicking;

void
panic(const char *fmt, ...)
{
	va_list ap;
	u_int32_t ebp;

	cli();
	printf("panic: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!panicking++) {
		__asm volatile("movl %%ebp, %0" : "=r"(ebp));
		backtrace(ebp);
	}
	printf("system halted\n");
	/* "panic=poweroff" on the command line lets tests see QEMU exit. */
	if (getkarg("panic") && strcmp(getkarg("panic"), "poweroff") == 0)
		cpu_powerdown();
	for (;;)
		halt();
}
