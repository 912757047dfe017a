"""GDB command for kernel transactions (lfs/lfs_txn*.c, lfs/lfs_txnlock.c).

    txn             every transaction: id, state, process, dirty pages,
                    its locks (file, page or size, shared or exclusive,
                    held or waited for) and whom it waits for

The waits-for edges are the deadlock detector's (lfs_txnlock.c): a waiting
request waits for every other transaction that holds, or asked first for,
a lock its mode conflicts with, unless that lock is weak (a reader's that
may not write the file: it blocks no one).  Set a breakpoint on txn_lock's tsleep, or
on txn_incycle, and run "txn" to see the graph a deadlock is found in.
"""
import gdb

STATES = {1: "running", 2: "committing", 3: "forcing", 4: "committed",
          5: "aborted"}
MODES = {1: "S", 2: "X"}
TXN_SIZE = 0x7fffffff
TXL_CREATED, TXL_WEAK = 0x01, 0x04


def tailq(head, field):
    """The elements of a LIST or TAILQ, given its head and link field."""
    e = head["lh_first"] if "lh_first" in [f.name for f in head.type.fields()] \
        else head["tqh_first"]
    while int(e):
        yield e
        link = e[field]
        e = link["le_next"] if "le_next" in [f.name for f in link.type.fields()] \
            else link["tqe_next"]


def obj_name(o) -> str:
    vp = o["o_vp"]
    ino = "?"
    if int(vp["v_data"]):
        ino = int(vp["v_data"].cast(gdb.lookup_type("struct inode").pointer())
                  ["i_number"])
    lbn = int(o["o_lbn"])
    return f"ino {ino} " + ("size" if lbn == TXN_SIZE else f"page {lbn}")


def blocks(l, t, mode: int) -> bool:
    """Does lock or request l stand in the way of t's asking for mode?"""
    return (int(l["l_txn"]) != int(t) and not int(l["l_flags"]) & TXL_WEAK
            and (int(l["l_mode"]) == 2 or mode == 2))


def waits_for(t) -> list[int]:
    """The ids of the transactions t's request waits for."""
    req = t["t_wait"]
    if not int(req):
        return []
    o, mode, out = req["l_obj"], int(req["l_mode"]), []
    for l in tailq(o["o_granted"], "l_olink"):
        if blocks(l, t, mode):
            out.append(int(l["l_txn"]["t_id"]))
    for l in tailq(o["o_waiting"], "l_wlink"):
        if int(l) == int(req):
            break
        if blocks(l, t, mode):
            out.append(int(l["l_txn"]["t_id"]))
    return out


class Txn(gdb.Command):
    """txn: the transactions, their locks, and who waits for whom."""

    def __init__(self):
        super().__init__("txn", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        head = gdb.parse_and_eval("txn_all")
        n = 0
        for t in tailq(head, "t_all"):
            n += 1
            p = t["t_proc"]
            flags = " implicit" if int(t["t_flags"]) & 1 else ""
            print(f"txn {int(t['t_id'])}: {STATES.get(int(t['t_state']), '?')}"
                  f"{flags}, pid {int(p['p_pid'])} "
                  f"{p['p_comm'].string()}, {int(t['t_ndirty'])} dirty pages")
            for l in tailq(t["t_locks"], "l_tlink"):
                how = "held" if int(l["l_granted"]) else "WAITS FOR"
                extra = " (made by it)" if int(l["l_flags"]) & TXL_CREATED \
                    else ""
                if int(l["l_flags"]) & TXL_WEAK:
                    extra += " (weak: blocks no one)"
                if int(l["l_obj"]["o_lbn"]) == TXN_SIZE:
                    extra += f" (size before: {int(l['l_oldsize'])})"
                print(f"  {how:>9} {MODES.get(int(l['l_mode']), '?')} "
                      f"{obj_name(l['l_obj'])}{extra}")
            w = waits_for(t)
            if w:
                print(f"  waits for txn {', '.join(map(str, w))}")
        if n == 0:
            print("no transactions")


Txn()
