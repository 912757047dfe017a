/*
 * Kernel printf and panic.  One formatter (kvprintf) serves printf to the
 * console and snprintf to a buffer.  Formats: %d %i %u %x %X %o %c %s %p
 * %%, with flags '-', '0', widths, and the 'l' and 'll' size modifiers.
 */
#include "kern/systm.h"
#include "kern/i386/cpu.h"

struct outbuf {
	char	*buf;		/* NULL: console */
	size_t	 size;
	size_t	 len;
};

static void
kputc(struct outbuf *ob, int c)
{
	if (ob->buf == NULL)
		cnputc(c);
	else if (ob->len + 1 < ob->size)
		ob->buf[ob->len] = c;
	ob->len++;
}

static void
kputnum(struct outbuf *ob, u_int64_t v, int base, int upper, int neg,
    int width, int zero, int left)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, pad;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v != 0);
	if (neg)
		tmp[n++] = '-';
	pad = width - n;
	if (!left && zero && neg) {
		kputc(ob, '-');
		n--;
	}
	while (!left && pad-- > 0)
		kputc(ob, zero ? '0' : ' ');
	while (n > 0)
		kputc(ob, tmp[--n]);
	while (left && pad-- > 0)
		kputc(ob, ' ');
}

static void
kvprintf(struct outbuf *ob, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		int width = 0, zero = 0, left = 0, lng = 0;
		u_int64_t u;
		int64_t s;
		const char *str;
		int len;

		if (*fmt != '%') {
			kputc(ob, *fmt);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-')
				left = 1;
			else if (*fmt == '0')
				zero = 1;
			else
				break;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + *fmt++ - '0';
		while (*fmt == 'l') {
			lng++;
			fmt++;
		}
		switch (*fmt) {
		case 'd':
		case 'i':
			s = lng >= 2 ? va_arg(ap, int64_t) : va_arg(ap, long);
			kputnum(ob, s < 0 ? -s : s, 10, 0, s < 0, width, zero,
			    left);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			u = lng >= 2 ? va_arg(ap, u_int64_t) :
			    va_arg(ap, unsigned long);
			kputnum(ob, u, *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16,
			    *fmt == 'X', 0, width, zero, left);
			break;
		case 'p':
			kputc(ob, '0');
			kputc(ob, 'x');
			kputnum(ob, (u_int32_t)va_arg(ap, void *), 16, 0, 0,
			    8, 1, 0);
			break;
		case 'c':
			kputc(ob, va_arg(ap, int));
			break;
		case 's':
			str = va_arg(ap, const char *);
			if (str == NULL)
				str = "(null)";
			len = strlen(str);
			while (!left && width-- > len)
				kputc(ob, ' ');
			while (*str)
				kputc(ob, *str++);
			while (left && width-- > len)
				kputc(ob, ' ');
			break;
		case '%':
			kputc(ob, '%');
			break;
		case '\0':
			return;
		default:
			kputc(ob, '%');
			kputc(ob, *fmt);
		}
	}
}

void
vprintf(const char *fmt, va_list ap)
{
	struct outbuf ob = { NULL, 0, 0 };
	int s = splhigh();

	kvprintf(&ob, fmt, ap);
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
	struct outbuf ob = { buf, size, 0 };

	kvprintf(&ob, fmt, ap);
	if (size > 0)
		buf[ob.len < size ? ob.len : size - 1] = '\0';
	return ob.len;
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

		printf("  %p %s+0x%x\n", (void *)ret, name ? name : "?", off);
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
