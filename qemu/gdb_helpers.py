"""GDB commands for looking inside the kernel (loaded by the generated .gdbinit).

    ps              the process table: pid, state, wait channel, name
    kbt PID         a sleeping process's kernel stack, from where swtch left it
    bufq            the buffer-cache free queues and their counts
    vnode ADDR      a vnode: type, references, lock, mount, dirty buffers
    inode ADDR      a UFS inode: number, mode, size, links, block pointers
    break-at NAME   a breakpoint on the source line marked /* GDB: NAME */
    break-at        every such marker, and where it is

Each reads kernel data structures through GDB's Python API, so it works at
any breakpoint, including in the middle of recovery.

A walk-through (doc/*.md) names the places it stops at by marker, never by
line number, so the place moves with the code: break-at reads the kernel's
sources, finds the one line whose comment begins "GDB: NAME", and sets the
breakpoint there.  A marker is only worth having on a line the compiler
keeps: in a file the Makefile builds -Og, or in a function of its own.
"""
import os
import re

import gdb

STATES = ["SFREE", "SIDL", "SRUN", "SSLEEP", "SSTOP", "SZOMB"]
QUEUES = ["LOCKED", "LRU", "AGE", "EMPTY"]
VTYPES = ["VNON", "VREG", "VDIR", "VBLK", "VCHR", "VLNK", "VSOCK", "VFIFO",
          "VBAD"]


def cstr(val) -> str:
    try:
        return val.string()
    except gdb.error:
        return "?"


def symbol_at(addr: int) -> str:
    if addr == 0:
        return "-"
    try:
        block = gdb.block_for_pc(addr)
        if block is not None and block.function is not None:
            return block.function.name
    except RuntimeError:
        pass
    sym = gdb.execute(f"info symbol {addr:#x}", to_string=True).split()
    return sym[0] if sym and not sym[0].startswith("No") else f"{addr:#x}"


def procs():
    """(proc, state) for each slot of the process table in use."""
    table = gdb.parse_and_eval("proc")
    for i in range(table.type.sizeof // table[0].type.sizeof):
        stat = int(table[i]["p_stat"])
        if stat != 0:
            yield table[i], stat


class Ps(gdb.Command):
    """ps: list the process table."""

    def __init__(self):
        super().__init__("ps", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        cur = int(gdb.parse_and_eval("curproc"))
        print(f"{'PID':>5} {'PPID':>5} {'STAT':<7} {'WCHAN':<10} COMMAND")
        for p, stat in procs():
            pptr = p["p_pptr"]
            ppid = int(pptr["p_pid"]) if int(pptr) else 0
            wmesg = cstr(p["p_wmesg"]) if int(p["p_wchan"]) else ""
            mark = "*" if int(p.address) == cur else " "
            print(f"{int(p['p_pid']):>5} {ppid:>5} {STATES[stat]:<7}"
                  f" {wmesg:<10} {cstr(p['p_comm'])}{mark}")


def kernel_frames(eip: int, ebp: int, depth: int = 32):
    """(pc, source line) up the frame-pointer chain (the kernel is built
    -fno-omit-frame-pointer): [ebp] is the caller's ebp, [ebp+4] the
    return address.  Stops at the first frame off the kernel's stack."""
    inf = gdb.selected_inferior()
    frames = [eip]
    while ebp and len(frames) < depth:
        try:
            raw = bytes(inf.read_memory(ebp, 8))
        except gdb.MemoryError:
            break
        next_ebp = int.from_bytes(raw[:4], "little")
        ret = int.from_bytes(raw[4:], "little")
        if ret == 0:
            break
        frames.append(ret)
        if next_ebp <= ebp:             # the chain must climb the stack
            break
        ebp = next_ebp
    for pc in frames:
        sal = gdb.find_pc_line(pc - 1 if pc != eip else pc)
        where = (f"{os.path.relpath(sal.symtab.filename, TOP)}:{sal.line}"
                 if sal.symtab is not None else "")
        yield pc, symbol_at(pc), where


class Kbt(gdb.Command):
    """kbt PID: the kernel stack of a process that is not running (asleep in
tsleep, say), from the registers swtch saved.  kbt: every sleeping one."""

    def __init__(self):
        super().__init__("kbt", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        cur = int(gdb.parse_and_eval("curproc"))
        want = arg.strip()
        if want and not want.isdigit():
            raise gdb.GdbError("usage: kbt [PID]")
        shown = 0
        for p, stat in procs():
            if want and int(p["p_pid"]) != int(want):
                continue
            if not want and not int(p["p_wchan"]):
                continue
            shown += 1
            wmesg = cstr(p["p_wmesg"]) if int(p["p_wchan"]) else "-"
            print(f"pid {int(p['p_pid'])} ({cstr(p['p_comm'])}), "
                  f"{STATES[stat]}, wchan {wmesg}")
            if int(p.address) == cur:
                print("  running now: use bt")
                continue
            ctx = p["p_ctx"]
            if not int(ctx):
                print("  no saved context")
                continue
            for k, (pc, name, where) in enumerate(
                    kernel_frames(int(ctx["eip"]), int(ctx["ebp"]))):
                print(f"  #{k:<2} {pc:#010x} {name:<24} {where}")
        if want and not shown:
            raise gdb.GdbError(f"kbt: no process {want}")


class Bufq(gdb.Command):
    """bufq: the buffer-cache queues (LOCKED, LRU, AGE, EMPTY) and counts."""

    def __init__(self):
        super().__init__("bufq", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        counts = gdb.parse_and_eval("bqcount")
        queues = gdb.parse_and_eval("bufqueues")
        print(f"nbuf {int(gdb.parse_and_eval('nbuf'))}, bufspace "
              f"{int(gdb.parse_and_eval('bufspace'))} of "
              f"{int(gdb.parse_and_eval('maxbufspace'))} bytes, "
              f"locked_queue_count {int(gdb.parse_and_eval('locked_queue_count'))}")
        verbose = arg.strip() == "-v"
        for q, name in enumerate(QUEUES):
            print(f"{name:<7} {int(counts[q]):>6}")
            if not verbose or name == "EMPTY":
                continue
            bp = queues[q]["tqh_first"]
            shown = 0
            while int(bp) and shown < 20:
                print(f"    buf {int(bp):#x} vp {int(bp['b_vp']):#x} "
                      f"lblkno {int(bp['b_lblkno'])} blkno "
                      f"{int(bp['b_blkno'])} size {int(bp['b_bcount'])} "
                      f"flags {int(bp['b_flags']):#x}")
                bp = bp["b_freelist"]["tqe_next"]
                shown += 1


class Vnode(gdb.Command):
    """vnode ADDR: print a vnode."""

    def __init__(self):
        super().__init__("vnode", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        vp = gdb.parse_and_eval(f"(struct vnode *)({arg})")
        t = int(vp["v_type"])
        dirty = 0
        bp = vp["v_dirtyblkhd"]["lh_first"]
        while int(bp):
            dirty += 1
            bp = bp["b_vnbufs"]["le_next"]
        print(f"vnode {int(vp):#x}: {VTYPES[t] if t < len(VTYPES) else t}, "
              f"usecount {int(vp['v_usecount'])}, "
              f"{'locked' if int(vp['v_lock']['lk_holder']) else 'unlocked'}, "
              f"flags {int(vp['v_flag']):#x}")
        print(f"  ops {cstr(vp['v_op']['vop_name']) if int(vp['v_op']) else '-'}"
              f", mount {int(vp['v_mount']):#x}, data {int(vp['v_data']):#x}, "
              f"dirty buffers {dirty}, writes in progress "
              f"{int(vp['v_numoutput'])}")


class Inode(gdb.Command):
    """inode ADDR: print a UFS inode (an address, or a vnode's v_data)."""

    def __init__(self):
        super().__init__("inode", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        ip = gdb.parse_and_eval(f"(struct inode *)({arg})")
        d = ip["i_din"]
        print(f"inode {int(ip['i_number'])} at {int(ip):#x}: mode "
              f"{int(d['di_mode']):#o}, nlink {int(d['di_nlink'])}, size "
              f"{int(d['di_size'])}, blocks {int(d['di_blocks'])}, uid "
              f"{int(d['di_uid'])}, flags {int(ip['i_flag']):#x}")
        db = [int(d["di_db"][i]) for i in range(12)]
        ib = [int(d["di_ib"][i]) for i in range(3)]
        print(f"  db {db}")
        print(f"  ib {ib}")


# The top of the tree: GDB runs this file as a script, with __file__ set.
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL_DIRS = ("kern", "ufs", "ffs", "lfs", "compat", "conf")
MARKER = re.compile(r"/\*\s*GDB:\s*([a-z][a-z0-9-]*)")
NEAR = 3        # lines after a marker GDB may move its breakpoint to


def markers() -> dict[str, list[tuple[str, int]]]:
    """Each marker name in the kernel's sources and where it is: (file
    relative to the top of the tree, line)."""
    found: dict[str, list[tuple[str, int]]] = {}
    for d in KERNEL_DIRS:
        for root, _, files in os.walk(os.path.join(TOP, d)):
            for f in sorted(files):
                if not f.endswith(".c"):
                    continue
                path = os.path.join(root, f)
                with open(path, encoding="utf-8", errors="replace") as src:
                    for n, line in enumerate(src, 1):
                        m = MARKER.search(line)
                        if m:
                            found.setdefault(m.group(1), []).append(
                                (os.path.relpath(path, TOP), n))
    return found


class BreakAt(gdb.Command):
    """break-at NAME: a breakpoint on the line marked /* GDB: NAME */.
break-at: list the markers."""

    def __init__(self):
        super().__init__("break-at", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        name = arg.strip()
        found = markers()
        if not name:
            for n in sorted(found):
                for f, line in found[n]:
                    print(f"{n:<12} {f}:{line}")
            return
        where = found.get(name, [])
        if len(where) != 1:
            known = ", ".join(sorted(found)) or "none"
            raise gdb.GdbError(
                f"break-at: no marker /* GDB: {name} */ (markers: {known})"
                if not where else f"break-at: /* GDB: {name} */ is in "
                + " and ".join(f"{f}:{n}" for f, n in where) + ": rename one")
        path, line = where[0]
        gdb.execute(f"break {path}:{line}")
        self.check(gdb.breakpoints()[-1], path, line)

    @staticmethod
    def check(bp: gdb.Breakpoint, path: str, line: int) -> None:
        """Say so if GDB put the breakpoint away from the marker: the
        compiler left no code there."""
        for loc in getattr(bp, "locations", []):
            if loc.source is None:
                continue
            at = loc.source[1]
            if not line <= at <= line + NEAR:
                print(f"break-at: warning: the compiler left no code near "
                      f"{path}:{line}; GDB stops at line {at} instead")


Ps()
Kbt()
Bufq()
Vnode()
Inode()
BreakAt()
