/*
 * linuxraw: the terminal's ioctls, poll, pipe2, getcwd, prctl, uname;
 * unknown calls.
 */
#include "linuxraw.h"

/* --- term: the terminal's ioctls, poll, getcwd, prctl, uname ------------- */

/* The kernel's struct termios, which TCGETS fills (not glibc's). */
struct kernel_termios {
	unsigned c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line, c_cc[19];
};

void
t_term(const char *dir)
{
	struct kernel_termios t, orig, back;
	struct winsize ws, ows;
	struct pollfd pfd[2];
	struct utsname u;
	char buf[256], name[16];
	long tty = open("/dev/tty", O_RDWR), fd, r;
	int p[2];

	check("open /dev/tty", tty >= 0, errno);
	expect("TCGETS on the terminal",
	    sys(NR_ioctl, tty, TCGETS, (long)&orig, 0, 0), 0);
	check("... Linux's bits: ICANON, ECHO, ISIG, ICRNL, ONLCR",
	    (orig.c_lflag & (ICANON | ECHO | ISIG)) == (ICANON | ECHO | ISIG) &&
	    (orig.c_iflag & ICRNL) && (orig.c_oflag & (OPOST | ONLCR)) ==
	    (OPOST | ONLCR), orig.c_lflag);
	check("... Linux's indices: VINTR ^C, VERASE DEL, VEOF ^D, VMIN 1",
	    orig.c_cc[VINTR] == 3 && orig.c_cc[VERASE] == 0x7f &&
	    orig.c_cc[VEOF] == 4 && orig.c_cc[VMIN] == 1, orig.c_cc[VINTR]);
	t = orig;
	t.c_lflag &= ~(ICANON | ECHO);
	expect("TCSETS: raw", sys(NR_ioctl, tty, TCSETS, (long)&t, 0, 0), 0);
	sys(NR_ioctl, tty, TCGETS, (long)&back, 0, 0);
	check("... TCGETS says so", !(back.c_lflag & (ICANON | ECHO)) &&
	    (back.c_lflag & ISIG), back.c_lflag);
	expect("TCSETSW: back as it was",
	    sys(NR_ioctl, tty, TCSETSW, (long)&orig, 0, 0), 0);
	sys(NR_ioctl, tty, TCGETS, (long)&back, 0, 0);
	check("... every field as it was", memcmp(&back, &orig,
	    sizeof(orig)) == 0, back.c_lflag);
	sys(NR_ioctl, tty, TIOCGWINSZ, (long)&ows, 0, 0);
	ws.ws_row = 30;
	ws.ws_col = 100;
	ws.ws_xpixel = ws.ws_ypixel = 0;
	expect("TIOCSWINSZ", sys(NR_ioctl, tty, TIOCSWINSZ, (long)&ws, 0, 0), 0);
	memset(&ws, 0, sizeof(ws));
	expect("TIOCGWINSZ", sys(NR_ioctl, tty, TIOCGWINSZ, (long)&ws, 0, 0), 0);
	check("... 30 x 100", ws.ws_row == 30 && ws.ws_col == 100, ws.ws_row);
	sys(NR_ioctl, tty, TIOCSWINSZ, (long)&ows, 0, 0);
	expect("TCGETS to an unwritable address: EFAULT",
	    sys(NR_ioctl, tty, TCGETS, (long)KERNADDR, 0, 0), -EFAULT);
	expect("an unknown ioctl on the terminal: ENOTTY",
	    sys(NR_ioctl, tty, 0x541b, (long)&r, 0, 0), -ENOTTY);
	fd = open("/etc/passwd", O_RDONLY);
	expect("TCGETS on a file: ENOTTY",
	    sys(NR_ioctl, fd, TCGETS, (long)&t, 0, 0), -ENOTTY);
	close(fd);
	fd = open("/dev/null", O_RDWR);
	expect("TCGETS on /dev/null: ENOTTY",
	    sys(NR_ioctl, fd, TCGETS, (long)&t, 0, 0), -ENOTTY);
	close(fd);
	expect("TCGETS on a descriptor not open: EBADF",
	    sys(NR_ioctl, 99, TCGETS, (long)&t, 0, 0), -EBADF);

	check("pipe (glibc: pipe2)", pipe(p) == 0, errno);
	pfd[0].fd = p[0];
	pfd[0].events = POLLIN;
	pfd[1].fd = tty;
	pfd[1].events = POLLOUT;
	expect("poll: the terminal can be written, the pipe is empty",
	    sys(NR_poll, (long)pfd, 2, 50, 0, 0), 1);
	check("... revents", pfd[0].revents == 0 && pfd[1].revents == POLLOUT,
	    pfd[1].revents);
	write(p[1], "x", 1);
	expect("poll: the pipe has a byte", sys(NR_poll, (long)pfd, 1, 10000, 0,
	    0), 1);
	close(p[0]);
	close(p[1]);
	close(tty);
	expect("pipe2 with O_CLOEXEC|O_NONBLOCK",
	    sys(NR_pipe2, (long)p, O_CLOEXEC | O_NONBLOCK, 0, 0, 0), 0);
	check("... both ends close-on-exec and non-blocking",
	    fcntl(p[0], F_GETFD) == FD_CLOEXEC && fcntl(p[1], F_GETFD) ==
	    FD_CLOEXEC && (fcntl(p[0], F_GETFL) & O_NONBLOCK), errno);
	check("... an empty read: EAGAIN", read(p[0], buf, 1) == -1 &&
	    errno == EAGAIN, errno);
	close(p[0]);
	close(p[1]);
	expect("pipe2 with an unknown flag: EINVAL",
	    sys(NR_pipe2, (long)p, O_APPEND, 0, 0, 0), -EINVAL);
	expect("pipe2 to an unwritable address: EFAULT",
	    sys(NR_pipe2, (long)KERNADDR, 0, 0, 0, 0), -EFAULT);

	expect("getcwd into one byte: ERANGE",
	    sys(NR_getcwd, (long)buf, 1, 0, 0, 0), -ERANGE);
	r = sys(NR_getcwd, (long)buf, sizeof(buf), 0, 0, 0);
	check("getcwd: the directory and its length with the NUL",
	    r == (long)strlen(dir) + 1 && strcmp(buf, dir) == 0, r);
	expect("getcwd to an unwritable address: EFAULT",
	    sys(NR_getcwd, (long)KERNADDR, sizeof(buf), 0, 0, 0), -EFAULT);
	expect("prctl PR_SET_NAME",
	    sys(NR_prctl, PR_SET_NAME, (long)"rawname", 0, 0, 0), 0);
	memset(name, 0, sizeof(name));
	sys(NR_prctl, PR_GET_NAME, (long)name, 0, 0, 0);
	check("... PR_GET_NAME gives it back", strcmp(name, "rawname") == 0, 0);
	expect("prctl of an unknown option: EINVAL",
	    sys(NR_prctl, 9999, 0, 0, 0, 0), -EINVAL);
	check("uname: our machine", uname(&u) == 0 &&
	    strcmp(u.machine, "i386") == 0 && u.sysname[0] != '\0', errno);
}

/* --- nosys: calls the layer does not know -------------------------------- */

void
t_nosys(void)
{
	expect("an unknown call (449): ENOSYS", sys(449, 0, 0, 0, 0, 0),
	    -ENOSYS);
	expect("... again: ENOSYS", sys(449, 1, 2, 3, 4, 5), -ENOSYS);
	expect("a number past the table (100000): ENOSYS",
	    sys(100000, 0, 0, 0, 0, 0), -ENOSYS);
	expect("a negative number: ENOSYS", sys(-1, 0, 0, 0, 0, 0), -ENOSYS);
}
