/*
 * Time: the 8254 PIT interrupts hz = 100 times a second (hardclock), and
 * the time of day is the CMOS clock read at boot plus the time since.
 * Between ticks, microtime() interpolates with the PIT's counter, so
 * timestamps have microsecond resolution (the disk counters need it).
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"
#include <sys/time.h>

#define PIT_HZ		1193182
#define PIT_CH0		0x40
#define PIT_MODE	0x43
#define TIMESLICE	(hz / 10)	/* ticks a process runs before yielding */

int hz = 100;
volatile u_int32_t ticks;
static u_int32_t pit_reload;
static time_t boottime;			/* seconds since 1970 at boot */
static u_int32_t slice;

static int
bcd(int v)
{
	return (v & 0xf) + (v >> 4) * 10;
}

static int
cmos(int reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

/* Read the CMOS clock (UTC, as QEMU keeps it). */
static time_t
rtc_read(void)
{
	static const int mdays[] = { 0, 31, 59, 90, 120, 151, 181, 212, 243,
	    273, 304, 334 };
	int sec, min, hour, day, mon, year, binary;
	long days;

	while (cmos(0x0a) & 0x80)	/* update in progress */
		continue;
	binary = cmos(0x0b) & 0x04;
	sec = cmos(0x00);
	min = cmos(0x02);
	hour = cmos(0x04);
	day = cmos(0x07);
	mon = cmos(0x08);
	year = cmos(0x09);
	if (!binary) {
		sec = bcd(sec);
		min = bcd(min);
		hour = bcd(hour);
		day = bcd(day);
		mon = bcd(mon);
		year = bcd(year);
	}
	year += year < 70 ? 2000 : 1900;
	days = (year - 1970) * 365 + (year - 1969) / 4 + mdays[mon - 1] +
	    day - 1;
	if (mon > 2 && year % 4 == 0)
		days++;
	return days * 86400 + hour * 3600 + min * 60 + sec;
}

void
clock_init(void)
{
	pit_reload = PIT_HZ / hz;
	outb(PIT_MODE, 0x34);		/* channel 0, lo/hi, rate generator */
	outb(PIT_CH0, pit_reload & 0xff);
	outb(PIT_CH0, pit_reload >> 8);
	boottime = rtc_read();
	pic_unmask(0);			/* trap() calls hardclock directly */
}

/*
 * Microseconds since boot: ticks plus the part of the current tick the
 * PIT has counted down.  If the counter wrapped but the tick interrupt is
 * still pending (interrupts off), count the missing tick.
 */
u_int64_t
uptime_us(void)
{
	u_int32_t t, count, us;
	int s = splhigh(), pending;

	outb(PIT_MODE, 0x00);		/* latch channel 0 */
	count = inb(PIT_CH0);
	count |= inb(PIT_CH0) << 8;
	t = ticks;
	outb(0x20, 0x0a);		/* read the PIC's IRR */
	pending = inb(0x20) & 1;
	splx(s);
	us = (pit_reload - count) * 1000000ull / PIT_HZ;
	if (pending && count > pit_reload / 2)
		t++;
	return (u_int64_t)t * (1000000 / hz) + us;
}

void
microtime(struct timeval *tv)
{
	u_int64_t us = uptime_us();

	tv->tv_sec = boottime + us / 1000000;
	tv->tv_usec = us % 1000000;
}

void
settime(time_t sec)
{
	boottime = sec - uptime_us() / 1000000;
}

void
delay(int us)
{
	u_int64_t end = uptime_us() + us;

	while (uptime_us() < end)
		continue;
}

/* The clock interrupt: count, charge the running process, time slices. */
void
hardclock(struct trapframe *tf)
{
	struct proc *p = curproc;

	ticks++;
	if (p != NULL) {
		if (USERMODE(tf))
			p->p_uticks++;
		else
			p->p_sticks++;
		if (++slice >= TIMESLICE) {
			slice = 0;
			want_resched = 1;
		}
	}
	sleep_timeouts();
	outb(0x20, 0x20);		/* EOI */
}
