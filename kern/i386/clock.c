/*
 * Time: the 8254 PIT interrupts hz = 100 times a second (hardclock) for
 * scheduling and sleep timeouts.  Timestamps come from the CPU's time
 * stamp counter, calibrated against the PIT at boot: microsecond
 * resolution (the disk counters need it) and correct even while
 * interrupts are off, which an interpolated tick count is not.  The time
 * of day is the CMOS clock read at boot plus the time since.
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
static int slice;

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

/*
 * TSC cycles per millisecond, measured against PIT channel 2 counting
 * down 10 ms with its gate on and its speaker off.
 */
static u_int32_t tsc_per_ms;
static u_int64_t tsc_boot;
/*
 * Microseconds per TSC cycle as a 32.32 fixed-point fraction, so that
 * uptime_us, called at every system call's entry and exit for the CPU
 * times, multiplies instead of calling libgcc's 64-bit division (a tenth
 * of the CPU a transaction-heavy TPC-B run used, under TCG).
 */
static u_int32_t us_per_tsc32;

static void
tsc_calibrate(void)
{
	u_int32_t count = PIT_HZ / 100;
	u_int64_t t0, t1;

	outb(0x61, (inb(0x61) & ~0x02) | 0x01);	/* gate on, speaker off */
	outb(PIT_MODE, 0xb0);			/* channel 2, one-shot */
	outb(0x42, count & 0xff);
	outb(0x42, count >> 8);
	t0 = rdtsc();
	while (!(inb(0x61) & 0x20))		/* OUT2 goes high at zero */
		continue;
	t1 = rdtsc();
	tsc_per_ms = (t1 - t0) / 10;
	if (tsc_per_ms <= 1000)
		tsc_per_ms = 1001;	/* a TSC under 1 MHz: none to speak of */
	us_per_tsc32 = ((1000ULL << 32) + tsc_per_ms / 2) / tsc_per_ms;
	tsc_boot = t0;
}

/* Microseconds since boot: cycles times us_per_tsc32, shifted back. */
u_int64_t
uptime_us(void)
{
	u_int64_t c = rdtsc() - tsc_boot;

	return (c >> 32) * us_per_tsc32 +
	    (((c & 0xffffffffULL) * us_per_tsc32) >> 32);
}

void
clock_init(void)
{
	tsc_calibrate();
	pit_reload = PIT_HZ / hz;
	outb(PIT_MODE, 0x34);		/* channel 0, lo/hi, rate generator */
	outb(PIT_CH0, pit_reload & 0xff);
	outb(PIT_CH0, pit_reload >> 8);
	boottime = rtc_read();
	pic_unmask(0);			/* trap() calls hardclock directly */
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

/* The clock interrupt: count, time slices (CPU time: kern_resource.c). */
void
hardclock(struct trapframe *tf)
{
	struct proc *p = curproc;

	ticks++;
	if (p != NULL) {
		if (++slice >= TIMESLICE) {
			slice = 0;
			want_resched = 1;
		}
	}
	sleep_timeouts();
	outb(0x20, 0x20);		/* EOI */
}
