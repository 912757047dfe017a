"""Timing model of a 1992 SCSI disk, as a pure function of request times.

This module is the drive model of qemu/drive.py (the nbdkit plugin) without any
nbdkit, sleeping or file I/O, so that host tests can run it on a virtual clock.
Every equation cites its section of qemu/DRIVE.md ("E5" = equation E5, "P7" =
pitfall P7), where the parameters' sources and the equations are written out.

Time is an integer number of nanoseconds on CLOCK_MONOTONIC (E3, pitfall P7);
the spindle angle is (t - phase_ns) mod T_rev, so a request's rotational latency
depends on the absolute time it reaches the drive, exactly as on a real platter.

Public API:
    profile_names() -> list[str]
    get_profile(name, ctrl_ms=None) -> Profile
    make_drive(profile, phase_ns=0) -> Drive   (Drive.submit(op, lba, nsect, t) -> Result)
    scsi_identity(profile, image_sectors) -> Identity
    geometry_for_sectors(sectors) -> (cyls, heads, secs)
    SeekCurve.ms(d), mean_seek_ms(curve, cylinders)

Source tags ([T92], [RW94], [HEC], [TH99], [SEQ], [SIMH], [BSD], [SUN]) are listed
under Sources in qemu/DRIVE.md: [T92] is the thesis, [RW94] Ruemmler and Wilkes, "An
introduction to disk drive modeling", IEEE Computer 1994. "(i)" marks an inference,
never a published number.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Optional

SECTOR = 512
NS_PER_MS = 1_000_000
NS_PER_S = 1_000_000_000


def ms_to_ns(ms: float) -> int:
    return int(round(ms * NS_PER_MS))


# --------------------------------------------------------------------------------------
# Profiles
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeekCurve:
    """[RW94] seek curve, E4: S(0)=0, a + b*sqrt(d) for 1 <= d < d0, c + e*d beyond."""

    d0: int
    a_ms: float
    b_ms: float
    c_ms: float
    e_ms: float

    def ms(self, d: int) -> float:
        if d <= 0:
            return 0.0
        if d < self.d0:
            return self.a_ms + self.b_ms * math.sqrt(d)
        return self.c_ms + self.e_ms * d


def mean_seek_ms(curve: SeekCurve, cylinders: int) -> float:
    """Mean seek time over uniformly random (from, to) cylinder pairs, exact.

    P(distance = d) = 2(C - d)/C^2 for d >= 1 (and 1/C for d = 0, which costs nothing).
    """
    c = cylinders
    return sum(2.0 * (c - d) / (c * c) * curve.ms(d) for d in range(1, c))


@dataclass(frozen=True)
class Identity:
    """What QEMU's scsi-hd reports (DRIVE.md, "What QEMU shows the guest")."""

    vendor: str
    product: str
    cyls: int
    heads: int
    secs: int
    rotation_rate: int  # VPD page B1; 1 = non-rotating medium
    scsi_version: int
    ver: Optional[str] = None  # INQUIRY revision, when a source gives one


@dataclass(frozen=True)
class Mechanism:
    """Parameters of the mechanical model (E1 - E8)."""

    rpm: float
    sectors_per_track: int  # N_s
    tracks_per_cylinder: int  # H
    physical_cylinders: int  # seek table size (the arm can reach every cylinder)
    seek: SeekCurve
    head_switch_ms: float
    track_skew: int  # k_t, sectors
    cylinder_skew: int  # k_c, total skew across a cylinder boundary, sectors (E2)
    ctrl_ms: float  # controller overhead per command (E6)
    bus_bytes_per_s: int  # host bus rate (E6)
    buffer_bytes: int  # read-ahead track buffer (E7)
    read_fence_bytes: int  # reconnect to the bus once this much is buffered (E6)


@dataclass(frozen=True)
class MeanAccess:
    """Level-1 model (E9 (1)): a constant random access time plus a sequential rate."""

    random_access_ms: float  # one random 4 KB access, all included
    sequential_ms_per_4k: float  # each 4 KB that follows the previous request on disk


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    sectors: Optional[int]  # exact image size in sectors; None = any size (profile "none")
    identity: Optional[Identity]  # None = derived from the image size
    mechanism: Optional[Mechanism] = None
    mean_access: Optional[MeanAccess] = None
    inferred: tuple[str, ...] = ()  # fields whose values are inferences (i), not sources

    @property
    def timed(self) -> bool:
        return self.mechanism is not None or self.mean_access is not None


HP97560 = Profile(
    name="hp97560",
    description="HP 97560 (thesis SD97560, ch. 7): [RW94] mechanism, [T92] host side",
    sectors=2_647_080,  # 1935 exported cyls x 1368 sectors [SEQ]; = [TH99] 1355 MB formatted
    identity=Identity(
        vendor="HP",  # INQUIRY vendor [SEQ]
        product="97560",  # INQUIRY product [SEQ]
        cyls=1935,  # exported cylinders, 1933 + 2 reserved [SEQ]
        heads=19,  # data heads [T92] Table 7-1, [HEC], [TH99]
        secs=72,  # 512-byte sectors per track [HEC], [TH99]; [T92] "track size 36 KB"
        rotation_rate=4002,  # rpm [TH99], [RW94] via [HEC]
        scsi_version=2,  # the drive is SCSI-2 [TH99]
    ),
    mechanism=Mechanism(
        rpm=4002,  # [TH99] (v), [RW94] via [HEC]; [T92] rounds to 15.0 ms per rotation
        sectors_per_track=72,  # [HEC], [TH99]; 72 x 512 B = [T92] 36 KB track
        tracks_per_cylinder=19,  # [T92] Table 7-1 "cylinder size 19 tracks"
        physical_cylinders=1962,  # [T92] Table 7-1 "disk size 1962 cylinders"
        seek=SeekCurve(
            d0=383, a_ms=3.24, b_ms=0.400, c_ms=8.00, e_ms=0.008  # [RW94] via [HEC] (E4)
        ),
        head_switch_ms=1.6,  # [RW94] via [HEC]
        track_skew=8,  # [T92] Table 7-1, [HEC]
        cylinder_skew=18,  # [RW94] via [HEC]; [T92] 8 track + 10 cylinder = 18 total
        ctrl_ms=2.2,  # [RW94] via [HEC]; [T92] says 1.0 ms: override with ctrl_ms=1.0
        bus_bytes_per_s=1_600_000,  # [T92] Table 7-1: asynchronous SCSI-I, 1.6 MB/s
        buffer_bytes=128 * 1024,  # [T92] "track buffer 128 KB", [HEC], [TH99]
        read_fence_bytes=64 * 1024,  # [HEC] "read fence 64 KB"; meaning per E6 is (i)
    ),
    inferred=("read_fence semantics (E6)", "read-ahead policy (E7)", "no sparing map"),
)

RZ55 = Profile(
    name="rz55",
    description="DEC RZ55 (thesis ch. 5, DECstation 5000/200): geometry sourced, "
    "mechanism INFERRED (no RZ55 spec found, qemu/DRIVE.md \"DEC RZ55\")",
    sectors=648_437,  # RZ55_LBN [SIMH]; "300 megabyte" in [T92] 5.3
    identity=Identity(
        vendor="DEC",  # [SIMH]
        product="RZ55",  # [SIMH]
        cyls=1224,  # [SIMH], NetBSD pmax disktab [BSD]
        heads=15,  # [SIMH], [BSD]
        secs=36,  # [SIMH], [BSD]
        rotation_rate=3600,  # (i): Micropolis 1558 has this geometry at 3600 rpm [SUN]
        scsi_version=1,  # SCSI-1 (ANSI version 1) [SIMH]
        ver="0900",  # INQUIRY revision [SIMH]
    ),
    mechanism=Mechanism(
        rpm=3600,  # (i) [SUN] Micropolis 1558, same physical geometry
        sectors_per_track=36,  # [SIMH]; presented geometry taken as physical (i)
        tracks_per_cylinder=15,  # [SIMH]
        physical_cylinders=1224,  # [SIMH]
        # (i) fitted to seek(1) = 4.0, mean 16.0, full stroke 35.0 ms, figures typical of
        # 1989 5.25-inch 300-700 MB drives (e.g. NEC D5862: 4/16/40 ms); not the RZ55's
        seek=SeekCurve(
            d0=245, a_ms=3.44, b_ms=0.56, c_ms=6.495, e_ms=0.02331  # (i), see above
        ),
        head_switch_ms=1.5,  # (i)
        track_skew=4,  # (i) = ceil(1.5 ms head switch / 0.463 ms sector time)
        cylinder_skew=9,  # (i) = ceil(4.0 ms seek(1) / 0.463 ms sector time)
        ctrl_ms=1.0,  # (i) same as [T92]'s figure for the HP drive
        bus_bytes_per_s=1_500_000,  # (i) asynchronous SCSI, like [T92]'s 1.6 MB/s
        buffer_bytes=64 * 1024,  # (i)
        read_fence_bytes=32 * 1024,  # (i)
    ),
    inferred=(
        "rotation_rate", "rpm", "seek", "head_switch_ms", "track_skew", "cylinder_skew",
        "ctrl_ms", "bus_bytes_per_s", "buffer_bytes", "read_fence_bytes",
    ),
)

M2361A = Profile(
    name="m2361a",
    description="Fujitsu Eagle M2361A (thesis ch. 4): mean random access 28.3 ms, "
    "sequential 1.99 ms per 4 KB, which is all ch. 4 used",
    sectors=842 * 20 * 64,  # 1,077,760: 4.3BSD disktab geometry [BSD] with 64 spt (i)
    identity=Identity(
        vendor="FUJITSU",  # (i) SMD drive, no SCSI identity existed
        product="M2361A",  # [T92] ch. 4 footnote 3
        cyls=842,  # [BSD] etc.vax/disktab 4.18
        heads=20,  # [BSD]
        secs=64,  # [BSD] lists 64 or 68 by controller; 64 chosen (i)
        rotation_rate=3600,  # (i) disktab's default; not given for the 2361
        scsi_version=2,  # (i)
    ),
    mean_access=MeanAccess(
        random_access_ms=28.3,  # [T92] 4.4.1: "random access time ... 28.3 ms"
        sequential_ms_per_4k=1.99,  # [T92] 4.5: "sequential speed (1.99 ms per 4 KB block)"
    ),
    inferred=("identity", "secs", "rotation_rate"),
)

NONE = Profile(
    name="none",
    description="no delay at all (fast functional tests); any image size",
    sectors=None,
    identity=None,  # see scsi_identity(): vendor BSDTEACH, product RAMDISK
)

PROFILES: dict[str, Profile] = {p.name: p for p in (HP97560, RZ55, M2361A, NONE)}


def profile_names() -> list[str]:
    return list(PROFILES)


def get_profile(name: str, ctrl_ms: Optional[float] = None) -> Profile:
    """Look a profile up; ctrl_ms overrides the controller overhead (2.2 vs 1.0 ms: qemu/DRIVE.md, "HP 97560")."""
    try:
        prof = PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown drive profile {name!r}; known: {', '.join(PROFILES)}")
    if ctrl_ms is not None:
        if prof.mechanism is None:
            raise ValueError(f"profile {name} has no controller overhead to override")
        mech = dataclasses.replace(prof.mechanism, ctrl_ms=float(ctrl_ms))
        prof = dataclasses.replace(prof, mechanism=mech)
    return prof


def geometry_for_sectors(sectors: int) -> tuple[int, int, int]:
    """A plausible (cyls, heads, secs) with cyls*heads*secs <= sectors, for profile none.

    Uses the classic 63 sectors/track, 16 heads (255 beyond 504 MB) translation, so
    the guest sees familiar numbers; QEMU's limits are 65535/255/255 (DRIVE.md, "What QEMU shows the guest").
    """
    if sectors <= 0:
        raise ValueError("image must hold at least one sector")
    secs = min(63, sectors)
    heads = 16 if sectors <= 65535 * 16 * 63 else 255
    heads = max(1, min(heads, sectors // secs))
    cyls = max(1, min(65535, sectors // (heads * secs)))
    return cyls, heads, secs


def scsi_identity(profile: Profile, image_sectors: int) -> Identity:
    """The scsi-hd identity for a disk: the profile's, or one derived from the size."""
    if profile.identity is not None:
        return profile.identity
    cyls, heads, secs = geometry_for_sectors(image_sectors)
    # Untimed disks announce themselves as such, so a boot log never passes one off
    # as a 1992 drive; rotation_rate=1 means "non-rotating medium" in VPD page B1.
    return Identity(vendor="BSDTEACH", product="RAMDISK", cyls=cyls, heads=heads,
                    secs=secs, rotation_rate=1, scsi_version=2)


# --------------------------------------------------------------------------------------
# Drives
# --------------------------------------------------------------------------------------


@dataclass
class Result:
    """When one request started and completed (ns), and how the buffer served it."""

    t_start: int
    t_done: int
    kind: str  # "miss" | "partial" | "hit" | "write" | "none" | "random" | "sequential"


class Drive:
    """Common interface: one arm, first-come first-served (E8, pitfall P4)."""

    def __init__(self) -> None:
        self.t_free = 0  # completion time of the previous request

    def submit(self, op: str, lba: int, nsect: int, t_arrival: int) -> Result:
        """Serve a read ('r') or write ('w') of nsect sectors arriving at t_arrival."""
        raise NotImplementedError

    def flush(self, t_arrival: int) -> Result:
        # No write cache: SYNCHRONIZE CACHE has nothing to do (pitfall P5).
        t = max(t_arrival, self.t_free)
        return Result(t, t, "none")


class NullDrive(Drive):
    """Profile none: every request completes the moment it arrives."""

    def submit(self, op: str, lba: int, nsect: int, t_arrival: int) -> Result:
        return Result(t_arrival, t_arrival, "none")


class MeanAccessDrive(Drive):
    """E9 level (1): what thesis ch. 4 assumed for the Fujitsu M2361A."""

    def __init__(self, mean: MeanAccess) -> None:
        super().__init__()
        self.per_sector_ns = ms_to_ns(mean.sequential_ms_per_4k) / 8  # 8 sectors in 4 KB
        # A random 4 KB access costs random_access_ms in total, its transfer included.
        self.position_ns = ms_to_ns(mean.random_access_ms) - ms_to_ns(mean.sequential_ms_per_4k)
        self.next_lba = -1

    def submit(self, op: str, lba: int, nsect: int, t_arrival: int) -> Result:
        t_start = max(t_arrival, self.t_free)
        sequential = lba == self.next_lba
        t_done = t_start + int(round(nsect * self.per_sector_ns))
        if not sequential:
            t_done += self.position_ns
        self.next_lba = lba + nsect
        self.t_free = t_done
        return Result(t_start, t_done, "sequential" if sequential else "random")


# A media segment: sectors [lba0, lba0+count) of one track, passing under the head
# from t0 on; slot0 is the physical slot of lba0 (E2). Sector j of the segment is
# under the head from t0 + S(slot0+j) - S(slot0) to t0 + S(slot0+j+1) - S(slot0),
# with S(x) = x*T_rev // N_s (integer ns, so angles never drift: P7).
Segment = tuple[int, int, int, int]
# A piece of a request's data: (count, first_done, last_done), done times linear in j.
Piece = tuple[int, int, int]


class _Stream:
    """The head reading sequentially from lba_from on, starting at t_ready (E5, E7).

    It reads whole tracks; `limit` is where read-ahead stops because the buffer is full.
    Segments are generated lazily, so a stream costs only the tracks someone asks about.
    """

    __slots__ = ("d", "lba_from", "limit", "segs", "_next_lba", "_t_ready", "_track")

    def __init__(self, drive: "MechanicalDrive", t_ready: int, lba_from: int, limit: int):
        self.d = drive
        self.lba_from = lba_from
        self.limit = limit
        self.segs: list[Segment] = []
        self._next_lba = lba_from
        self._t_ready = t_ready  # the head is on lba_from's track, settled, at this time
        self._track = lba_from // drive.N

    def _extend(self, lba_end: int) -> None:
        """Generate segments up to lba_end, track by track (the loop of E5)."""
        d = self.d
        while self._next_lba < lba_end:
            track = self._next_lba // d.N
            if track != self._track:  # head or cylinder switch
                self._t_ready += d.position_ns(self._track, track)
                self._track = track
            s = self._next_lba % d.N
            slot = (s + d.track_offset(track)) % d.N
            t0 = self._t_ready + d.rot_wait_ns(self._t_ready, slot)
            count = d.N - s
            self.segs.append((self._next_lba, count, t0, slot))
            self._t_ready = t0 + d.S(slot + count) - d.S(slot)
            self._next_lba += count

    def _seg_of(self, lba: int) -> Segment:
        self._extend(lba + 1)
        for seg in reversed(self.segs):
            if seg[0] <= lba:
                return seg
        raise ValueError("sector before the stream's start")

    def start(self, lba: int) -> int:
        """Time sector lba begins to pass under the head."""
        lba0, _, t0, slot0 = self._seg_of(lba)
        return t0 + self.d.S(slot0 + lba - lba0) - self.d.S(slot0)

    def done(self, lba: int) -> int:
        """Time sector lba has passed under the head, i.e. is in the buffer."""
        lba0, _, t0, slot0 = self._seg_of(lba)
        return t0 + self.d.S(slot0 + lba - lba0 + 1) - self.d.S(slot0)

    def stop_time(self) -> int:
        """When read-ahead reaches `limit` and stops (buffer full)."""
        return self.done(self.limit - 1)

    def clipped(self, a: int, b: int) -> list[Segment]:
        """The segments of sectors [a, b), clipped to that range."""
        self._extend(b)
        out = []
        for lba0, count, t0, slot0 in self.segs:
            lo, hi = max(a, lba0), min(b, lba0 + count)
            if lo < hi:
                out.append((lo, hi - lo, t0 + self.d.S(slot0 + lo - lba0) - self.d.S(slot0),
                            slot0 + lo - lba0))
        return out

    def pieces(self, a: int, b: int) -> list[Piece]:
        """Done times of sectors [a, b) as linear pieces, one per track."""
        S = self.d.S
        return [(count, t0 + S(slot + 1) - S(slot), t0 + S(slot + count) - S(slot))
                for _, count, t0, slot in self.clipped(a, b)]

    def done_by(self, t: int) -> int:
        """First LBA not yet in the buffer at time t (never beyond limit)."""
        d = self.d
        while self._next_lba < self.limit and self._t_ready <= t:
            self._extend(self._next_lba + 1)
        got = self.lba_from
        for lba0, count, t0, slot0 in self.segs:
            if t < t0:
                break
            # m sectors are done when S(slot0+m) - S(slot0) <= t - t0, solved for m
            y = t - t0 + d.S(slot0)
            m = min(count, ((y + 1) * d.N - 1) // d.T - slot0)
            got = lba0 + max(0, m)
            if m < count:
                break
        return min(got, self.limit)

    def track_at(self, t: int) -> int:
        """Track under the head at time t: that of the last sector read by then."""
        return (max(self.done_by(t), self.lba_from + 1) - 1) // self.d.N


class MechanicalDrive(Drive):
    """Levels (2)-(6) of E9: seek, rotation, switches and skews, controller, bus, buffer."""

    def __init__(self, mech: Mechanism, phase_ns: int = 0, arm_track: int = 0) -> None:
        super().__init__()
        self.m = mech
        self.N = mech.sectors_per_track
        self.H = mech.tracks_per_cylinder
        self.T = int(round(60 * NS_PER_S / mech.rpm))  # T_rev in ns (E3)
        self.phase_ns = phase_ns
        self.ctrl_ns = ms_to_ns(mech.ctrl_ms)
        self.head_switch_ns = ms_to_ns(mech.head_switch_ms)
        self.seek_table = [ms_to_ns(mech.seek.ms(d)) for d in range(mech.physical_cylinders + 1)]
        # bus time per sector; integer division keeps 1.6 MB/s exact (320 us)
        self.bus_sector_ns = SECTOR * NS_PER_S // mech.bus_bytes_per_s
        self.buf_sectors = mech.buffer_bytes // SECTOR
        self.fence_sectors = max(1, mech.read_fence_bytes // SECTOR)
        self._skew_per_cyl = mech.cylinder_skew - mech.track_skew
        # Buffer state (E7): sectors [lo, hi) are in the buffer for sure; a stream,
        # if any, is reading on from hi (stream.lba_from == hi). Without a stream the
        # arm rests on arm_track.
        self.lo = 0
        self.hi = 0
        self.stream: Optional[_Stream] = None
        self.arm_track = arm_track

    # -- geometry and mechanics -------------------------------------------------------

    def S(self, slot: int) -> int:
        """Angle (ns after the index) where physical slot `slot` begins (may be >= N)."""
        return slot * self.T // self.N

    def track_offset(self, track: int) -> int:
        """off(c, h) of E2 with track = c*H + h: k_t per track, k_c - k_t more per cylinder."""
        return (track * self.m.track_skew + (track // self.H) * self._skew_per_cyl) % self.N

    def rot_wait_ns(self, t: int, slot: int) -> int:
        """wait(t, a) of E3: time until slot `slot` comes under the head."""
        return (self.S(slot) - (t - self.phase_ns)) % self.T

    def position_ns(self, from_track: int, to_track: int) -> int:
        """Seek and/or head switch (E4); DiskSim's max(seek, head switch) when both."""
        c0, h0 = divmod(from_track, self.H)
        c1, h1 = divmod(to_track, self.H)
        if c0 == c1:
            return 0 if h0 == h1 else self.head_switch_ns
        seek = self.seek_table[abs(c1 - c0)]
        return seek if h0 == h1 else max(seek, self.head_switch_ns)

    def seek_ms(self, d: int) -> float:
        return self.seek_table[d] / NS_PER_MS

    def media_span(self, t_ready: int, lba: int, nsect: int) -> tuple[int, int]:
        """(first sector starts, last sector done) for one uninterrupted media transfer
        with the head settled on lba's track at t_ready (E5). Does not change state."""
        st = _Stream(self, t_ready, lba, lba + nsect)
        return st.start(lba), st.done(lba + nsect - 1)

    # -- requests ---------------------------------------------------------------------

    def submit(self, op: str, lba: int, nsect: int, t_arrival: int) -> Result:
        t_start = max(t_arrival, self.t_free)  # FCFS, E8
        if op == "r":
            t_done, kind = self._read(lba, nsect, t_start)
        else:
            t_done, kind = self._write(lba, nsect, t_start), "write"
        self.t_free = t_done
        return Result(t_start, t_done, kind)

    def _abort_stream(self, t: int) -> None:
        """The arm is needed elsewhere: keep what is buffered by t, note the head's track."""
        st = self.stream
        if st is not None:
            self.hi = st.done_by(t)
            self.arm_track = st.track_at(t)
            self.stream = None

    def _start_stream(self, t: int, from_track: int, lba: int, limit: int) -> _Stream:
        t_ready = t + self.position_ns(from_track, lba // self.N)
        self.hi = lba
        self.stream = _Stream(self, t_ready, lba, limit)
        return self.stream

    def _bus_done(self, t_cmd: int, pieces: list[Piece], n: int) -> int:
        """Reconnect at the read fence, then stream without overtaking the media (E6)."""
        b = self.bus_sector_ns
        fence = min(n, self.fence_sectors)
        t_bus = t_cmd
        seen = 0
        for count, first, last in pieces:
            if seen + count >= fence:
                j = fence - seen - 1  # the fence sector's index within this piece
                t_bus = max(t_cmd, first + (last - first) * j // max(1, count - 1))
                break
            seen += count
        for count, first, last in pieces:
            # sector j leaves at max(previous, done_j) + b; done_j is linear in j,
            # so the binding constraint is at one end of the piece
            t_bus = max(t_bus + count * b, first + count * b, last + b)
        return t_bus

    def _read(self, lba: int, n: int, t_start: int) -> tuple[int, str]:
        t_cmd = t_start + self.ctrl_ns
        end = lba + n
        # read ahead from the last requested sector until the buffer holds a full
        # buffer of read-ahead (E7); older data, the request's included, is evicted
        new_limit = end + self.buf_sectors
        st = self.stream
        pieces: list[Piece] = []
        if st is not None and self.lo <= lba <= st.limit:
            # in the read-ahead window: no seek, no fresh rotational wait (E7)
            if self.hi > lba:
                pieces.append((min(end, self.hi) - lba, t_cmd, t_cmd))
            if st.stop_time() >= t_cmd:  # still reading: it simply reads on
                st.limit = max(st.limit, new_limit)
                if end > self.hi:
                    pieces += st.pieces(max(lba, self.hi), end)
            else:  # it stopped with a full buffer; restart from where it stopped
                stopped_at = st.limit
                if end > self.hi:
                    pieces += st.pieces(max(lba, self.hi), min(end, stopped_at))
                if new_limit > stopped_at:
                    fresh = self._start_stream(t_cmd, (stopped_at - 1) // self.N,
                                               stopped_at, new_limit)
                    if end > stopped_at:
                        pieces += fresh.pieces(stopped_at, end)
            kind = "hit" if all(last <= t_cmd for _, _, last in pieces) else "partial"
        else:
            self._abort_stream(t_cmd)
            if self.lo <= lba < self.hi:  # the start is buffered, the rest is not
                if end <= self.hi:
                    return t_cmd + n * self.bus_sector_ns, "hit"
                pieces.append((self.hi - lba, t_cmd, t_cmd))
                fresh = self._start_stream(t_cmd, self.arm_track, self.hi, new_limit)
                pieces += fresh.pieces(fresh.lba_from, end)
                kind = "partial"
            else:
                self.lo = lba
                fresh = self._start_stream(t_cmd, self.arm_track, lba, new_limit)
                pieces = fresh.pieces(lba, end)
                kind = "miss"
        self.lo = max(self.lo, new_limit - self.buf_sectors)
        return self._bus_done(t_cmd, pieces, n), kind

    def _write(self, lba: int, n: int, t_start: int) -> int:
        """No write cache: status after the last sector is on the platter (E6).

        The data crosses the bus while the arm moves; the media may write a sector only
        once the bus has delivered it (producer/consumer interlock, [WQ]); where it would
        overtake the bus it starts whole revolutions later instead (i).
        """
        t_cmd = t_start + self.ctrl_ns
        self._abort_stream(t_cmd)
        end = lba + n
        if self.lo < end and lba < self.hi:  # a write invalidates what it overwrites
            self.hi = lba if lba > self.lo else self.lo
        st = _Stream(self, t_cmd + self.position_ns(self.arm_track, lba // self.N), lba, end)
        b = self.bus_sector_ns
        late = 0  # how far the media would run ahead of the bus, worst sector
        for lba0, count, _, _ in st.clipped(lba, end):
            for j in (lba0, lba0 + count - 1):  # start_j - bus_j is linear in j
                late = max(late, t_cmd + (j - lba + 1) * b - st.start(j))
        revolutions = -(-late // self.T)  # ceil
        self.arm_track = (end - 1) // self.N
        return st.done(end - 1) + revolutions * self.T


def make_drive(profile: Profile, phase_ns: int = 0) -> Drive:
    """The model for a profile. phase_ns sets where the platter's index is at t=0."""
    if profile.mechanism is not None:
        return MechanicalDrive(profile.mechanism, phase_ns=phase_ns)
    if profile.mean_access is not None:
        return MeanAccessDrive(profile.mean_access)
    return NullDrive()
