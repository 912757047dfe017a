"""GDB commands for BSD-LFS (loaded by the generated .gdbinit after
gdb_helpers.py; doc/lfs-recovery.md walks through them).

    lfs-disk [PATH]             the disk image the disk commands read (the
                                launcher sets it to the sd1 it serves); no
                                PATH: show it
    lfs-sb [EXPR]               a superblock: EXPR a struct lfs * or struct
                                dlfs * (in core); without, every mounted LFS
    lfs-segsum DADDR            the partial segment whose summary is block DADDR
    lfs-segsum seg N            every partial segment of segment N
    lfs-segsum *EXPR            a summary in kernel memory (a struct segsum *)
    lfs-ifile INUM [FS]         an inode's IFILE entry: version, daddr, nextfree
    lfs-seguse SEGNO [FS]       a segment's SEGUSE entry

The output has dumplfs's `name<TAB>value' shape, so a student can put the
two side by side.  lfs-ifile and lfs-seguse read what the kernel sees
when they can, and say where their answer came from:

    (in core)                         the ifile block in the buffer cache
    (disk, the kernel's ifile inode)  the block the in-core ifile inode
                                      points to, read from the image
    (disk, checkpoint serial S)       through the image's newest checkpoint

The kernel's LFS is FS if given (a struct lfs * expression), else the
selected frame's local `fs' (in lfs_mount, the lfs_rfw_* functions, the
segment writer), else the first mounted LFS.  Pure memory reads: no
kernel function is called, so they are safe at any breakpoint.
"""
from __future__ import annotations

import os
import struct

import gdb

# GDB sources this file as a script: the commands that load it
# (qemu/launch.py's gdb_helper_commands, in the generated .gdbinit) put
# the top of the tree on GDB's sys.path first.
from qemu import lfsdisk
from qemu.lfsdisk import LfsError

B_INVAL = 0x00002000
disk_path: str | None = None


# -- reading the kernel ---------------------------------------------------
def read_bytes(addr: int, n: int) -> bytes:
    return gdb.selected_inferior().read_memory(addr, n).tobytes()


def evaluate(expr: str) -> gdb.Value:
    """expr's value; an argument that -O2 left <optimized out> by now is
    taken at its entry (NAME@entry), with a note saying so."""
    val = gdb.parse_and_eval(expr)
    if not val.is_optimized_out:
        return val
    if expr.strip().isidentifier():
        try:
            entry = gdb.parse_and_eval(f"{expr.strip()}@entry")
            if not entry.is_optimized_out:
                print(f"({expr} is <optimized out> here: using {expr}@entry, "
                      "its value when the function was called)")
                return entry
        except gdb.error:
            pass
    raise LfsError(f"{expr} is <optimized out> here (the kernel is built "
                   "with -O2); try a nearby line or an expression that is "
                   "not")


def pointer_to(expr: str, tags: tuple[str, ...]) -> tuple[str, int]:
    """Evaluate expr as a pointer to (or an object of) one of the struct
    tags; return (tag, address)."""
    val = evaluate(expr)
    t = val.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_STRUCT:
        val, t = val.address, val.address.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_PTR:
        tag = t.target().strip_typedefs().tag
        if tag in tags:
            if int(val) == 0:
                raise LfsError(f"{expr} is a null pointer")
            return tag, int(val)
    want = " or ".join(f"struct {x} *" for x in tags)
    raise LfsError(f"{expr} has type {val.type}, not {want}")


def kernel_started() -> bool:
    """Is the kernel's memory there to read?  Not while QEMU waits for
    GDB (make qemu-gdb): the kernel is not loaded and paging is off."""
    try:
        int(gdb.parse_and_eval("mountlist")["tqh_first"])
        return True
    except gdb.MemoryError:
        return False


def mounted_lfs() -> list[tuple[str, gdb.Value]]:
    """(mount point, struct lfs *) of each LFS on the kernel's mountlist;
    none before the kernel has started."""
    out = []
    if not kernel_started():
        return out
    mp = gdb.parse_and_eval("mountlist")["tqh_first"]
    while int(mp):
        if cstring(mp["mnt_op"]["vfs_name"]) == "lfs" and int(mp["mnt_data"]):
            ump = mp["mnt_data"].cast(gdb.lookup_type("struct ufsmount")
                                      .pointer())
            fs = ump["um_u"]["lfs"]        # um_lfs, a macro GDB cannot see
            out.append((cstring(mp["mnt_stat"]["f_mntonname"]), fs))
        mp = mp["mnt_list"]["tqe_next"]
    return out


def cstring(val: gdb.Value) -> str:
    try:
        return val.string()
    except (gdb.error, UnicodeDecodeError):
        return "?"


def frame_fs() -> gdb.Value | None:
    """The selected frame's `fs' if it is a struct lfs *.  At -O2 an
    argument is often <optimized out> once the function is under way;
    its value at entry (fs@entry) still names the same file system."""
    for expr in ("fs", "fs@entry"):
        try:
            val = gdb.parse_and_eval(expr)
            t = val.type.strip_typedefs()
            if not val.is_optimized_out and t.code == gdb.TYPE_CODE_PTR \
                    and t.target().strip_typedefs().tag == "lfs" and int(val):
                return val
        except (gdb.error, RuntimeError):
            continue
    return None


def kernel_fs(expr: str | None) -> gdb.Value | None:
    """The kernel's struct lfs * to use (see the top of the file)."""
    if expr:
        _, addr = pointer_to(expr, ("lfs",))
        return gdb.Value(addr).cast(gdb.lookup_type("struct lfs").pointer())
    fs = frame_fs()
    if fs is not None:
        return fs
    mounted = mounted_lfs()
    return mounted[0][1] if mounted else None


def dlfs_of(fs: gdb.Value) -> lfsdisk.Dlfs:
    return lfsdisk.Dlfs(read_bytes(int(fs["lfs_dlfs"].address),
                                   lfsdisk.DLFS_SIZE))


def incore(vp: gdb.Value, lbn: int) -> gdb.Value | None:
    """The buffer of (vp, lbn), found as incore() in kern/vfs_bio.c does:
    its hash chain, then vnode, logical block and not B_INVAL."""
    table = gdb.parse_and_eval("bufhashtbl")
    mask = int(gdb.parse_and_eval("bufhash"))
    bp = table[(((int(vp) & 0xffffffff) >> 6) + lbn) & mask]["lh_first"]
    while int(bp):
        if int(bp["b_vp"]) == int(vp) and int(bp["b_lblkno"]) == lbn and \
                not int(bp["b_flags"]) & B_INVAL:
            return bp
        bp = bp["b_hash"]["le_next"]
    return None


def ifile_bytes(fs_expr: str | None, lbn: int, off: int, size: int
                ) -> tuple[bytes, str]:
    """size bytes at off in ifile block lbn, and where they came from."""
    fs = kernel_fs(fs_expr)
    ivp = fs["lfs_ivnode"] if fs is not None else None
    if ivp is not None and int(ivp):
        bp = incore(ivp, lbn)
        if bp is not None:
            return (read_bytes(int(bp["b_data"]) + off, size),
                    f"(in core, buf {int(bp):#x})")
        ip = ivp["v_data"].cast(gdb.lookup_type("struct inode").pointer())
        if lbn < lfsdisk.NDADDR:
            daddr = int(ip["i_din"]["di_db"][lbn])
            if daddr > 0:
                img = open_image()
                try:
                    return (img.block(daddr)[off:off + size],
                            f"(disk block {daddr}, the kernel's ifile inode)")
                finally:
                    img.close()
    img = open_image()
    try:
        blk, daddr = img.ifile_block(lbn)
        return (blk[off:off + size],
                f"(disk block {daddr}, checkpoint serial {img.fs.serial})")
    finally:
        img.close()


def params(fs_expr: str | None) -> lfsdisk.Dlfs:
    """The file system's parameters: from the kernel's, else the disk's."""
    fs = kernel_fs(fs_expr)
    if fs is not None:
        return dlfs_of(fs)
    img = open_image()
    try:
        return img.fs
    finally:
        img.close()


def open_image() -> lfsdisk.Image:
    if disk_path is None:
        raise LfsError("no disk image: say lfs-disk PATH (the sd1 image "
                       "QEMU is given)")
    return lfsdisk.Image(disk_path)


# -- printing -------------------------------------------------------------
def print_sb(d: lfsdisk.Dlfs, title: str, incore_copy: bool) -> None:
    print(f"superblock\t{title}")
    for name in ("magic", "version", "size", "ssize", "nseg", "dsize",
                 "bsize", "sumsize", "inopb", "ifpb", "sepb", "cleansz",
                 "segtabsz", "minfree", "minfreeseg"):
        v = getattr(d, name)
        print(f"{name}\t{v:x}" if name == "magic" else f"{name}\t{v}")
    print("sboffs\t" + " ".join(str(a) for a in d.sboffs))
    for name in ("serial", "tstamp", "idaddr", "free", "bfree", "avail",
                 "nfiles", "curseg", "offset", "nextseg", "ccurseg", "coffset",
                 "cnextseg", "lastpseg",
                 "clean", "ckpidx"):
        print(f"{name}\t{getattr(d, name)}")
    print(f"fsmnt\t{d.fsmnt_str()}")
    if not incore_copy:
        print(f"cksum\t{'ok' if d.cksum_ok() else 'BAD'}")


def runs(lbns: list[int], daddr: int | None) -> str:
    """A FINFO's blocks as dumplfs prints them: lbn@daddr, or runs."""
    out, i = [], 0
    while i < len(lbns):
        j = i + 1
        while j < len(lbns) and lbns[j] == lbns[j - 1] + 1:
            j += 1
        lb = str(lbns[i]) if j - i == 1 else f"{lbns[i]}-{lbns[j - 1]}"
        if daddr is None:
            out.append(lb)
        else:
            ad = (str(daddr + i) if j - i == 1 else
                  f"{daddr + i}-{daddr + j - 1}")
            out.append(f"{lb}@{ad}")
        i = j
    return " ".join(out)


def print_summary(ss: lfsdisk.Summary, where: str, daddr: int | None,
                  ckpserial: int | None, datasum_ok: bool | None) -> None:
    after = (" (after the checkpoint)" if ckpserial is not None and
             ss.serial > ckpserial else "")
    if ss.magic != lfsdisk.SS_MAGIC:
        print(f"pseg\t{where}: not a summary (magic {ss.magic:#x}"
              f"{', a zero block: the end of a log' if not ss.magic else ''})")
        return
    print(f"pseg\t{where} serial {ss.serial} create {ss.create} flags "
          f"{ss.flagstr} nblocks {ss.nblocks} next {ss.next} ninos "
          f"{ss.ninos}{after}")
    print("magic\tok")
    print(f"sumsum\t{'ok' if ss.sumsum_ok else 'BAD'}")
    print(f"nfinfo\t{ss.nfinfo}")
    b = None if daddr is None else daddr + 1
    for fi in ss.finfos:
        print(f"finfo\tino {fi.ino} version {fi.version} nblocks "
              f"{len(fi.lbns)} lastlength {fi.lastlength}: "
              f"{runs(fi.lbns, b)}")
        if b is not None:
            b += len(fi.lbns)
    for d in ss.deltas:
        print(f"delta\tino {d.ino} version {d.version} lbn {d.lbn} "
              f"bytes {d.off}-{d.off + d.len - 1} size {d.size}")
    for ia in ss.inoaddrs:
        print(f"inoblock\t{ia}")
    if ss.problem is not None:
        print(f"check\tBAD: {ss.problem}")
    if datasum_ok is None:
        print("datasum\tnot checked (needs the blocks on the disk)")
    else:
        print(f"datasum\t{'ok' if datasum_ok else 'BAD'}")


# -- the commands ---------------------------------------------------------
class LfsCommand(gdb.Command):
    """Base: a usage line, and errors as one message, never a traceback."""
    name = ""
    usage = ""

    def __init__(self):
        super().__init__(self.name, gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        try:
            self.run(gdb.string_to_argv(arg))
        except LfsError as e:
            print(f"{self.name}: {e}")
        except (gdb.error, gdb.MemoryError, ValueError, struct.error,
                OSError) as e:
            print(f"{self.name}: {e}\nusage: {self.usage}")

    def run(self, argv: list[str]) -> None:
        raise NotImplementedError


class LfsDisk(LfsCommand):
    """lfs-disk [PATH]: the disk image the LFS commands read."""
    name, usage = "lfs-disk", "lfs-disk [PATH]"

    def run(self, argv):
        global disk_path
        if len(argv) > 1:
            raise LfsError(f"one path, please\nusage: {self.usage}")
        if argv:
            disk_path = os.path.abspath(os.path.expanduser(argv[0]))
        if disk_path is None:
            print("lfs-disk: no image set")
            return
        try:
            img = lfsdisk.Image(disk_path)
        except LfsError as e:
            print(f"lfs-disk: {disk_path}: no LFS there yet ({e})")
            return
        print(f"lfs-disk: {disk_path}: LFS of {img.fs.nseg} segments, "
              f"checkpoint serial {img.fs.serial}")
        img.close()


class LfsSb(LfsCommand):
    """lfs-sb [EXPR]: an in-core superblock, or every mounted LFS's."""
    name, usage = "lfs-sb", "lfs-sb [struct lfs * or struct dlfs * EXPR]"

    def run(self, argv):
        if argv:
            expr = " ".join(argv)
            tag, addr = pointer_to(expr, ("lfs", "dlfs"))
            d = lfsdisk.Dlfs(read_bytes(addr, lfsdisk.DLFS_SIZE))
            print_sb(d, f"struct {tag} at {addr:#x} (in core)", True)
            if tag == "lfs":
                self.extras(gdb.Value(addr).cast(
                    gdb.lookup_type("struct lfs").pointer()))
            return
        mounted = mounted_lfs()
        if not mounted:
            hint = " (this frame has an fs: lfs-sb fs)" if frame_fs() else ""
            if not kernel_started():
                hint = " (the kernel has not started yet)"
            print(f"lfs-sb: no LFS is mounted{hint}")
            return
        for path, fs in mounted:
            print_sb(dlfs_of(fs), f"{path}: struct lfs at {int(fs):#x} "
                     "(in core)", True)
            self.extras(fs)

    @staticmethod
    def extras(fs: gdb.Value) -> None:
        """The in-core state that is not in struct dlfs."""
        for name in ("lfs_nclean", "lfs_ndirty", "lfs_ckpserial",
                     "lfs_dirops", "lfs_writer", "lfs_nlocked"):
            print(f"{name}\t{int(fs[name])}")
        print(f"lfs_ivnode\t{int(fs['lfs_ivnode']):#x}")
        print(f"lfs_seglock\t{int(fs['lfs_seglock']['lk_holder']):#x}")


class LfsSegsum(LfsCommand):
    """lfs-segsum DADDR | seg N | *EXPR: partial segment summaries."""
    name = "lfs-segsum"
    usage = "lfs-segsum DADDR | lfs-segsum seg N | lfs-segsum *EXPR"

    def run(self, argv):
        if not argv:
            raise LfsError(f"which summary?\nusage: {self.usage}")
        if argv[0].startswith("*"):
            self.inmemory(" ".join(argv)[1:])
            return
        img = open_image()
        try:
            if argv[0] == "seg" and len(argv) == 2:
                self.segment(img, number(argv[1], "a segment number"))
            elif len(argv) == 1:
                p = img.pseg(number(argv[0], "a block address"))
                print_summary(p.ss, str(p.daddr), p.daddr, img.fs.serial,
                              p.datasum_ok)
            else:
                raise LfsError(f"usage: {self.usage}")
        finally:
            img.close()

    @staticmethod
    def inmemory(expr: str) -> None:
        """A summary in kernel memory, and where the disk has it if it is
        in the log after the image's checkpoint (at the roll-forward's
        accept line, daddr may be <optimized out>: this finds it)."""
        _, addr = pointer_to(expr, ("segsum",))
        d = params(None)
        ss = lfsdisk.parse_summary(d, read_bytes(addr, d.sumsize))
        where, daddr, datasum_ok, ckp = f"(in memory at {addr:#x})", None, \
            None, None
        if disk_path is not None and ss.problem is None:
            img = open_image()
            try:
                ckp = img.fs.serial
                for p in img.after_checkpoint():
                    if (p.ss.serial, p.ss.sumsum) == (ss.serial, ss.sumsum):
                        where = f"{p.daddr} {where}"
                        daddr, datasum_ok = p.daddr, p.datasum_ok
            finally:
                img.close()
        print_summary(ss, where, daddr, ckp, datasum_ok)

    @staticmethod
    def segment(img: lfsdisk.Image, sn: int) -> None:
        psegs, end = img.segment(sn)
        print(f"log\tsegment {sn}")
        for p in psegs:
            print_summary(p.ss, str(p.daddr), p.daddr, img.fs.serial,
                          p.datasum_ok)
        print(end)
        print(f"psegs\t{len(psegs)}")


class LfsIfile(LfsCommand):
    """lfs-ifile INUM [FS]: an inode's entry in the inode map."""
    name, usage = "lfs-ifile", "lfs-ifile INUM [struct lfs * EXPR]"

    def run(self, argv):
        if len(argv) not in (1, 2):
            raise LfsError(f"usage: {self.usage}")
        ino = number(argv[0], "an inode number")
        fsx = argv[1] if len(argv) == 2 else None
        d = params(fsx)
        raw, src = ifile_bytes(fsx, d.ifile_lbn(ino),
                               (ino % d.ifpb) * lfsdisk.IFILE.size,
                               lfsdisk.IFILE.size)
        if len(raw) < lfsdisk.IFILE.size:
            raise LfsError(f"inode {ino} is past the ifile")
        version, daddr, nextfree = lfsdisk.IFILE.unpack(raw)
        state = "free" if daddr == 0 else (
            "allocated, not written yet" if daddr == 0xffffffff else
            f"in block {daddr}")
        print(f"inomap\t{ino} version {version} daddr {daddr} nextfree "
              f"{nextfree} ({state}) {src}")


class LfsSeguse(LfsCommand):
    """lfs-seguse SEGNO [FS]: a segment's line of the usage table."""
    name, usage = "lfs-seguse", "lfs-seguse SEGNO [struct lfs * EXPR]"

    def run(self, argv):
        if len(argv) not in (1, 2):
            raise LfsError(f"usage: {self.usage}")
        sn = number(argv[0], "a segment number")
        fsx = argv[1] if len(argv) == 2 else None
        d = params(fsx)
        if sn >= d.nseg:
            raise LfsError(f"segment {sn} does not exist (0..{d.nseg - 1})")
        raw, src = ifile_bytes(fsx, d.seguse_lbn(sn),
                               (sn % d.sepb) * lfsdisk.SEGUSE.size,
                               lfsdisk.SEGUSE.size)
        nbytes, lastmod, nsums, ninos, flags = lfsdisk.SEGUSE.unpack(raw)
        print(f"segment\t{sn} {lfsdisk.seguse_words(flags)} nbytes {nbytes} "
              f"nsums {nsums} ninos {ninos} lastmod {lastmod} {src}")
        print(f"flags\t{flags:#x} "
              f"{lfsdisk.flagnames(flags, lfsdisk.SEGUSE_FLAGS, 'clean', '|')}")


def number(text: str, what: str) -> int:
    try:
        n = int(evaluate(text))
    except gdb.error:
        raise LfsError(f"{text!r} is not {what}") from None
    if n < 0:
        raise LfsError(f"{text} is negative: not {what}")
    return n


LfsDisk()
LfsSb()
LfsSegsum()
LfsIfile()
LfsSeguse()
