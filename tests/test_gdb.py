"""GDB against the running kernel: a breakpoint in a file-system
operation during a shell command, and the helpers a student uses there."""
import pexpect

from tests.guest import free_port, gdb_batch


def test_breakpoint_in_ufs_mkdir_and_helpers(guests):
    port = free_port()
    g = guests.boot(gdb_port=port)
    gdb = gdb_batch(port, "gdb_helpers.py", "break ufs_mkdir", "continue", "ps",
                    "bufq", "kbt 1", "kbt 4242", "vnode dvp", "inode dvp->v_data",
                    "bt 3")
    # The breakpoint is set before "continue"; typed input waits in
    # QEMU's serial buffer while the machine is stopped.
    gdb.expect("Breakpoint 1 at")
    g.send("mkdir /tmp/fromgdb\n")
    gdb.expect(pexpect.EOF)
    out = gdb.before
    assert "Breakpoint 1, ufs_mkdir" in out, out
    assert "mkdir*" in out            # ps marks the running process
    assert " init" in out and "SSLEEP" in out
    # kbt: init asleep in wait4, from the registers swtch saved
    assert "pid 1 (init), SSLEEP, wchan wait" in out, out
    kbt = out[out.index("pid 1 (init)"):]
    assert kbt.index("tsleep") < kbt.index("sys_wait4") < kbt.index(
        "syscall"), kbt
    assert "kern/kern_exit.c:" in kbt
    assert "kbt: no process 4242" in out
    assert "LOCKED" in out and "LRU" in out and "EMPTY" in out
    assert "VDIR" in out and "ops ffs" in out   # /tmp's vnode
    assert "mode 0o41777" in out       # /tmp's inode: sticky dir
    assert "sys_mkdir" in out          # the backtrace
    g.expect(r"# ")
    assert g.ok("ls -d /tmp/fromgdb").strip() == "/tmp/fromgdb"


def test_kernel_fault_panics_with_frame_and_backtrace(guests):
    """GDB breaks the root vnode's operation table; the next path lookup
    faults in the kernel, which must print the trap frame and a symbolic
    backtrace, then (panic=poweroff) power off."""
    port = free_port()
    g = guests.boot(gdb_port=port, kargs="panic=poweroff")
    gdb = gdb_batch(port, None, "set var rootvnode->v_op = (void *)0x10")
    gdb.expect(pexpect.EOF)
    g.send("ls /\n")
    g.expect("system halted")
    log = g.child.before
    assert "trap 14 (page fault)" in log, log
    assert "eip 0x" in log and "esp 0x" in log
    assert "backtrace:" in log
    assert "namei+0x" in log          # the caller, by name
    assert "panic: kernel mode trap 14" in log
    g.expect(pexpect.EOF)             # powered off


def test_the_kernels_printf_formats_as_libcs(guests):
    """The kernel's snprintf, called from GDB at a breakpoint, formats as
    libc's printf does (one engine, kern/subr_format.c): precision and
    width from arguments (%.*s, %*d), flags, sizes; a conversion it does
    not know is printed loudly."""
    port = free_port()
    g = guests.boot(gdb_port=port)
    fmt = "[%.*s|%*d|%-4u|%+d|%05x|%llu|%hhd|%#o|%y]"
    gdb = gdb_batch(
        port, None, "break ufs_mkdir", "continue",
        "set var $m = (char *)malloc(512, 0x100)",
        f'set var {{char[{len(fmt) + 1}]}}$m = "{fmt}"',
        'set var {char[7]}($m + 128) = "abcdef"',
        "set var $n = (int)snprintf($m + 256, 200, $m, 3, $m + 128, 4, 42, 7, 5, "
        "0xbeef, 12345678901LL, 300, 8)",
        "printf \"out=<%s> n=%d\\n\", $m + 256, $n")
    gdb.expect("Breakpoint 1 at")
    g.send("mkdir /tmp/fromgdb\n")
    gdb.expect(pexpect.EOF)
    want = "[abc|  42|7   |+5|0beef|12345678901|44|010|%!y]"
    assert f"out=<{want}> n={len(want)}" in gdb.before, gdb.before
