"""The step loop of the frontier sweep: states in parts, one thread a share of the parts.

The new states of a step are split by the top bits of their key's hash into
*parts* (about a million states a part, at most 64 a thread), each with its
own hash table (:mod:`chesstours.frontier.table_kernel`), and each thread
owns a contiguous run of parts. A step runs in rounds: every thread extends
the next chunk of its input into a batch and counting-sorts the batch by
hash (so the batch falls into runs, one a part); then every thread inserts
into its own parts the runs of every batch. No two threads write the same
table, so there are no locks.

Parts also bound the memory: a table is sized from the growth of the same
step one line earlier, a table that fills grows alone, the step's input is
freed array by array as it is extended, and when a step ends each table is
compacted into the next step's input and freed before the next one is. A
large step's tables start at a share of that size and grow as its input
is freed (:func:`_start_capacity`): it then holds not all its input beside
all its tables, but about as much as its tables at the end (on 8x8 closed,
some 30% less at the peak).

Counts start in one 64-bit limb a state; a carry out of it stops the sweep
(:class:`NarrowOverflow`) and the caller runs it again with two limbs; a
carry out of two stops it again (:class:`WideOverflow`), and the caller
counts modulo primes instead (``modulus``), one sweep a prime.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..errors import LimitReached, ResourceError
from . import plain
from .disk import Layers, Spilled, load
from .layout import EMPTY_KEY, MAX_SLOTS, NARROW_OVERFLOW
from .plain import States as PlainStates

if TYPE_CHECKING:
    from .plain import FrontierAllowance

#: States extended per kernel call between checks of the clock.
CHUNK = 1 << 18
#: Bits of the hash below a table's that a batch of new states is sorted by before its inserts
#: (:func:`chesstours.frontier.table_kernel.sort_batch`), so that they meet the table in order. With the table line
#: of each insert fetched ahead (:func:`chesstours.frontier.table_kernel.insert_run`), six bits insert as fast as ten,
#: and the sort scatters the batch into 64 runs a table, not 1,024: the scatter is most of the sort's time.
ORDER_BITS = 6
#: New states sorted and inserted together (a key and a count of one or two limbs, twice): 32 MiB of buffers a
#: thread, 48 with two limbs. Four times more is no faster and holds 144 MiB more.
BATCH = 1 << 20
#: A table is grown (by half) when it is this full.
LOAD = 0.75
#: How full a table that started small to spare memory grows (see :func:`_start_capacity`): the last growth of
#: such a table is sized for the states foretold, so it ends about this full, not two thirds.
SPARE_LOAD = 0.8
#: A step's tables start sized for this many times its input states when no earlier line says better.
HEADROOM = 1.0
#: Most parts a thread (about a million states a part).
PARTS_A_THREAD = 64
#: A step whose input and planned tables together pass this many bytes starts its tables smaller, and grows each
#: as it fills, while the input it has extended is freed (see :func:`_start_capacity`).
SPARE_ABOVE = 1 << 29


class NarrowOverflow(Exception):
    """A count passed 2**64 in a one-limb sweep: run it again with two limbs."""


class WideOverflow(Exception):
    """A count passed 2**128 in a two-limb sweep: count modulo primes instead."""


class OverMemory(Exception):
    """The sweep's states and tables passed its memory limit (the forecast ran low): stopped at once.

    ``step`` of ``steps``, with ``live`` states and ``held`` bytes; the caller
    says it in a sentence about its board (a :class:`~chesstours.errors.ResourceError`).
    """

    def __init__(self, step: int, steps: int, live: int, held: int, limit: int):
        super().__init__(f"{held} bytes held at step {step} of {steps}, over the limit of {limit}")
        self.step, self.steps, self.live, self.held, self.limit = step, steps, live, held, limit

    def __reduce__(self) -> tuple:
        """Pickled with its fields (a half swept in another process raises it there)."""
        return OverMemory, (self.step, self.steps, self.live, self.held, self.limit)


@dataclass
class FrontierProgress:
    """What the sweep is doing: passed to ``progress`` callbacks."""

    step: int
    steps: int
    square: int
    states: int
    max_states: int
    #: What is being done: ``"sweep"``, or for meet in the middle ``"left half"``, ``"right half"``, ``"join"``.
    phase: str = "sweep"


@dataclass
class FrontierResult:
    """The count of a sweep and what it cost."""

    count: int
    max_states: int
    peak_bytes: int
    seconds: float
    max_slots: int
    complete: bool = True
    per_length: list[int] = field(default_factory=list)
    #: States extended, over all steps (the work done).
    states_total: int = 0
    #: Threads the sweep ran on.
    threads: int = 1
    #: ``"sweep"``, or ``"meet in the middle"`` (two half sweeps and a join).
    how: str = "sweep"
    #: States on the middle frontier of each half (meet in the middle).
    halves: tuple[int, int] = (0, 0)
    #: Pairs of states tried by the join (meet in the middle).
    pairs: int = 0
    #: Most bytes of states on disk at once (with a spill folder).
    peak_disk_bytes: int = 0
    #: Passes of the join, one group of degree classes each (meet in the middle).
    join_passes: int = 0
    #: Sweeps modulo a prime whose residues made the count (0: counted directly).
    residues: int = 0
    #: States extended in plain Python (:mod:`chesstours.frontier.plain`).
    plain_states: int = 0

    @property
    def peak_memory_mb(self) -> float:
        return self.peak_bytes / 2**20


def _table(capacity: int, stride: int) -> np.ndarray:
    try:
        tab = np.zeros(stride * capacity, np.uint64)
    except MemoryError:
        raise ResourceError(
            f"The frontier sweep ran out of memory growing a table to {capacity:,} states; "
            "the count is too large for this machine."
        ) from None
    tab[0::stride] = EMPTY_KEY
    return tab


_EMPTY = np.zeros(0, np.uint64)


class _Part:
    """The table of the new states of one hash range."""

    def __init__(self, capacity: int, stride: int, spare: float = 0.0):
        self.stride = stride
        self.tab = _table(capacity, stride)
        self.fill = np.zeros(1, np.int64)
        self.start = capacity
        #: Where the table started small (see :func:`_start_capacity`): the share of its size each growth adds
        #: to its start (0: it started at its plan).
        self.spare = spare
        #: How full it grows.
        self.max_load = SPARE_LOAD if spare else LOAD

    @property
    def size(self) -> int:
        return self.tab.size // self.stride

    def grow(self, capacity: int, pbits: int, err: np.ndarray) -> None:
        from . import table_kernel as ft

        bigger = _table(capacity, self.stride)
        self.fill[0] = 0
        ft.rehash(self.tab, bigger, self.stride, pbits, self.fill, err)
        self.tab = bigger


class _Worker:
    """One thread: its input arrays, its run of tables, a batch buffer, and what it has counted.

    With ``layers`` (:class:`~chesstours.frontier.disk.Layers`) the
    inputs are files, read back one at a time, and tables that outgrow the budget
    are written out as partial tables, merged part by part when the step ends.
    """

    def __init__(self, index: int, stride: int, layers: Layers | None = None, modulus: int = 0):
        self.index = index
        self.stride = stride
        self.layers = layers
        self.modulus = np.uint64(modulus)
        self.inputs: list[tuple] = []  # (keys, lo, hi, files) still to extend
        self.parts: list[_Part] = []
        self.partial: list[list[tuple]] = []  # a part's tables written out during the step
        self.first = 0  # global index of parts[0]
        self.pbits = 0  # log2 of the number of parts, over all workers
        self.buf = [_EMPTY] * 6
        self.nbuf = np.zeros(1, np.int64)
        self.bounds = np.zeros(2, np.int64)
        self.err = np.zeros(1, np.int64)
        self.acc = np.zeros(2, np.uint64)
        self.pos = 0
        from . import kernel as fk
        from . import table_kernel as ft

        self.scratch = fk.scratch()
        self.homes = np.zeros(ft.PREFETCH_AHEAD, np.int64)  # insert_run's ring of home slots

    def size(self) -> int:
        return sum(x[0].size for x in self.inputs)

    def begin(self, per_worker: int, pbits: int, capacity: int, want: int, spare: float = 0.0) -> None:
        if self.buf[0].size != want:
            high = want if self.stride == 3 else 0  # the high limbs of a sweep in one limb are all zero: none carried
            self.buf = [np.empty(n, np.uint64) for n in (want, want, high) * 2]  # as extended, then sorted
        self.pbits = pbits
        self.first = self.index * per_worker
        self.bounds = np.zeros((1 << pbits) + 1, np.int64)
        self.parts = [_Part(capacity, self.stride, spare) for _ in range(per_worker)]
        self.partial = [[] for _ in range(per_worker)]
        self.acc[:] = 0
        self.pos = 0

    def busy(self) -> bool:
        return bool(self.inputs)

    def grow(self, st, budget: int, closed: bool, finish: bool) -> None:
        """Extend the next chunk of input into the batch and sort the batch by hash."""
        from . import kernel as fk
        from . import table_kernel as ft

        self.nbuf[0] = 0
        left = CHUNK
        while left > 0 and self.inputs:
            keys, lo, hi, files = self.inputs[0]
            if isinstance(keys, Spilled):  # read back from its files, one input at a time
                keys, lo, hi = load(keys), load(lo), load(hi)
                self.inputs[0] = (keys, lo, hi, files)
            j = min(keys.size, self.pos + left)
            i = fk.expand(keys, lo, hi, self.pos, j, st.nprev, st.choice_a, st.choice_b, st.one_end,
                          st.departs, st.keep, st.mirror, st.single, st.choice_mask,
                          st.free_need, st.label_need, st.signs, st.balance2, budget, closed, finish,
                          *self.buf[:3], self.nbuf,
                          self.acc, self.err, self.scratch)
            left -= i - self.pos
            self.pos = i
            if i < j:
                break  # the batch is full
            if i == keys.size:
                del self.inputs[0]  # extended: free it
                self._drop(files)
                self.pos = 0
        size = self.parts[0].size
        order_bits = self.pbits + min(ORDER_BITS, max(1, size.bit_length() - 2))
        ft.sort_batch(*self.buf[:3], int(self.nbuf[0]), *self.buf[3:], order_bits, self.pbits, self.bounds)
        self.bounds[-1] = self.nbuf[0]

    def put(self, workers: list[_Worker], done: float) -> None:
        """Insert into this worker's tables the new states of every batch that fall in them.

        ``done`` is the share of the step's input extended so far: a table
        that must grow is sized for what its fill so far foretells.
        """
        for k, p in enumerate(self.parts):
            g = self.first + k
            for other in workers:
                keys, lo, hi = other.buf[3:6]
                self._insert(p, keys, lo, hi, int(other.bounds[g]), int(other.bounds[g + 1]), done)

    def _insert(self, p: _Part, keys, lo, hi, i: int, nb: int, done: float) -> None:
        from . import table_kernel as ft

        # The run is sorted by hash: it must not meet a table too small for it, or its
        # states would pile up in one cluster at the front (linear probing turns quadratic).
        if p.fill[0] + (nb - i) > p.max_load * p.size:
            p.grow(self._bigger(p, nb - i, done), self.pbits, self.err)
        while True:
            i = ft.insert_run(keys, lo, hi, i, nb, p.tab, p.stride, self.pbits, p.fill, int(p.max_load * p.size),
                              self.err, self.modulus, self.homes)
            if i == nb:
                return
            p.grow(self._bigger(p, nb - i, done), self.pbits, self.err)

    @staticmethod
    def _bigger(p: _Part, coming: int, done: float) -> int:
        need = int((p.fill[0] + coming) / p.max_load) + 1
        if p.spare:  # started small to spare memory: grown by what the input extended freed, to the end foretold
            if done > 0.9:  # the states still to come are few, and most of them are in the table already
                return max(int(1.02 * need), int(p.fill[0] / done / p.max_load) + 1)
            return max(need, p.size * 9 // 8, p.start + int(p.size * p.spare))
        foretold = int(int(1.05 * p.fill[0] / max(done, 1e-3)) / LOAD) + 1
        return max(p.size * 5 // 4, need, foretold)

    def _drop(self, files) -> None:
        if files:
            assert self.layers is not None  # only layers on disk have files
            self.layers.remove(files)

    def _keep(self, arrays) -> tuple:
        """The arrays as an input: written to files when the layers live on disk."""
        if self.layers is None:
            return (*arrays, None)
        spilled, files = self.layers.write(list(arrays))
        return (*spilled, files)

    def flush(self) -> None:
        """Write every table out as a partial table and empty it (the tables outgrew their budget)."""
        from . import table_kernel as ft

        for k, p in enumerate(self.parts):
            if p.fill[0]:
                self.partial[k].append(self._keep(ft.compact(p.tab, p.stride, int(p.fill[0]))))
                size = p.size
                del p.tab  # free it before its successor is made
                p.tab = _table(size, p.stride)
                p.fill[0] = 0

    def finish(self) -> None:
        """Make each table the next step's input, freeing it before the next table is compacted."""
        from . import table_kernel as ft

        while self.parts:
            p, partial = self.parts.pop(0), self.partial.pop(0)
            for keys, lo, hi, files in partial:  # merge the part's partial tables (each sorted by hash)
                self._insert(p, load(keys), load(lo), load(hi), 0, keys.size, 1.0)
                self._drop(files)
            if p.fill[0]:
                self.inputs.append(self._keep(ft.compact(p.tab, p.stride, int(p.fill[0]))))

    def finish_all(self, nslots: int, closed: bool) -> None:
        from . import kernel as fk

        for keys, lo, hi, _ in self.inputs:
            fk.finish_all(load(keys), load(lo), load(hi), nslots, 2, closed, self.acc, self.err)

    def live(self) -> int:
        return sum(int(p.fill[0]) for p in self.parts)

    def tables(self) -> int:
        return sum(p.tab.nbytes for p in self.parts)

    def input_bytes(self) -> int:
        """Bytes of input held in memory (not those in files)."""
        return sum(a.nbytes for x in self.inputs for a in x[:3] if not isinstance(a, Spilled))

    def memory(self) -> int:
        return self.input_bytes() + self.tables() + sum(b.nbytes for b in self.buf)


def _start_capacity(capacity: int, tables: int, inputs: int) -> tuple[int, float]:
    """The capacity a step's tables start at, of the ``capacity`` planned, with ``tables`` bytes of them planned
    beside ``inputs`` bytes of input; and the share of a table's size each growth adds to that start.

    The input is freed part by part as it is extended, while the tables fill
    about as fast. Where the step's input and tables pass
    :data:`SPARE_ABOVE` bytes, its tables start at a share ``s`` of their
    plan, and a table that fills grows by that start and ``inputs / tables``
    of its size: what the input it has extended freed. Once nine tenths of
    the input is extended, a table grows to the states its fill foretells,
    :data:`SPARE_LOAD` full. Memory then stays near ``inputs + s * tables``,
    with ``s = 1.05 - inputs / tables`` (at least a quarter): about what
    the tables end above the input, instead of ``inputs + tables``. The
    cost is a few rehashes of each table, and batches half as large.
    """
    if inputs + tables <= SPARE_ABOVE:
        return capacity, 0.0
    ratio = inputs / tables
    share = max(0.25, 1.05 - ratio)
    return max(64, int(capacity * share) + 1), ratio


def _parts_a_thread(states: int, most: int = PARTS_A_THREAD) -> int:
    """Tables a thread for a step of about ``states`` new states a thread: one a million, at most ``most``."""
    n = max(1, min(most, states >> 20))
    return 1 << (n.bit_length() - 1)


def _value(acc: np.ndarray) -> int:
    return int(acc[0]) + (int(acc[1]) << 64)


def _total(workers: list[_Worker], modulus: int) -> int:
    """The tours the workers finished (modulo ``modulus`` if not 0)."""
    total = sum(_value(w.acc) for w in workers)
    return total % modulus if modulus else total


def _check_carry(workers: list[_Worker]) -> None:
    if any(w.err[0] == NARROW_OVERFLOW for w in workers):
        raise NarrowOverflow()
    if any(w.err[0] for w in workers):
        raise WideOverflow()


@dataclass
class SweepRun:
    """What :func:`run_sweep` returns: the result, and the states left on the frontier when asked for.

    ``plain``: those states as :mod:`chesstours.frontier.plain` holds them, instead of ``states``, when
    every step ran in plain Python.
    """

    result: FrontierResult
    states: list[list[np.ndarray]] = field(default_factory=list)
    plain: PlainStates | None = None


#: Bytes from which glibc maps an allocation on its own (:func:`return_freed_memory`).
MAP_FROM = 8 << 20


def return_freed_memory() -> None:
    """Have glibc map every allocation of :data:`MAP_FROM` bytes or more on its own, so that a freed table goes
    back.

    By default glibc raises that threshold as large blocks are freed, up to
    32 MiB, and then serves tables from its heap, which keeps what a step
    frees: the resident memory of a long sweep grew half as much again as its
    tables. Below the threshold an array comes from the heap, where what an
    earlier step freed is used again: a fresh mapping is zeroed page by page
    by the system. At 8 MiB rather than 1 MiB a sweep such as 6x8 open has a
    third of the page faults and spends about half as long in the system, for
    some tens of megabytes more resident; a count whose tables are larger
    (8x8 closed) holds the same.
    """
    global _RETURNED
    if _RETURNED:
        return
    _RETURNED = True
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-3, MAP_FROM)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):  # not glibc: nothing to set
        pass


_RETURNED = False


@dataclass
class _InPython:
    """The steps a sweep ran here: how far it got, the states after them, and what they cost."""

    step: int
    states: PlainStates
    total: int = 0
    max_states: int = 1
    peak: int = 0
    growth: list[float] = field(default_factory=list)
    per_length: list[int] = field(default_factory=list)
    #: The tours finished at the last step (when every step ran here).
    count: int = 0


def _run_in_python(steps: list, closed: bool, budget: int, allowance: FrontierAllowance, *, finish: bool,
                   strip: bool, line_ends, deadline: float | None, progress, phase: str, t0: float,
                   memory_limit: int | None, held: int, max_slots: int) -> _InPython:
    """Run the steps of a sweep in plain Python from the empty frontier while ``allowance`` lasts
    (:mod:`chesstours.frontier.plain`), with the time limit, memory watch and progress reports of
    :func:`run_sweep`, which goes on in the kernels from where this stops."""
    run = _InPython(0, plain.EMPTY)
    ends = set(line_ends)
    nsteps = len(steps)

    def late() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    def stop(pending: int = 0) -> bool:
        return not allowance.lasts(pending) or late()

    for t, st in enumerate(steps):
        size = len(run.states)
        if stop(size):  # the kernels are ready, or the step would take the count past its states in Python
            break
        try:
            states, finished = plain.extend(run.states, st, budget, closed, finish, look=lambda seen: stop())
        except plain.Switch:
            break
        run.total += size
        allowance.take(size)
        run.step = t + 1
        run.states = states
        run.growth.append(len(states) / max(1, size))
        run.max_states = max(run.max_states, len(states))
        now_held = (size + len(states)) * plain.STATE_BYTES
        run.peak = max(run.peak, now_held)
        if memory_limit is not None and now_held + held > memory_limit:
            raise OverMemory(t + 1, nsteps, len(states), now_held + held, memory_limit)
        if progress is not None:
            progress(FrontierProgress(t, nsteps, st.square, len(states), run.max_states, phase))
        if strip and t in ends:
            finished += plain.finish_all(states, closed)
            run.per_length.append(finished)
        if t == nsteps - 1:
            run.count = finished
    if late() and run.step < nsteps:
        raise _stopped(run.step, nsteps, len(run.states), run.max_states, run.peak, time.perf_counter() - t0,
                       max_slots, run.per_length, run.total, 1)
    return run


def _stopped(step: int, steps: int, live: int, max_states: int, peak: int, seconds: float, max_slots: int,
             per_length: list[int], total: int, threads: int) -> LimitReached:
    """The time limit, reached at ``step`` (counted from 0) of ``steps`` with ``live`` states: what was done."""
    partial = FrontierResult(0, max(max_states, live), peak, seconds, max_slots, complete=False,
                             per_length=per_length, states_total=total, threads=threads)
    return LimitReached(f"Stopped at the time limit at square {step + 1} of {steps} with {live:,} live states.",
                        partial=partial)


def run_sweep(steps, max_slots: int, closed: bool, budget: int, *, threads: int, wide: bool = False,
              deadline=None, progress=None, t0: float | None = None, line_ends=(), strip: bool = False,
              finish: bool = True, keep_states: bool = False, period: int = 0, phase: str = "sweep",
              layers: Layers | None = None, table_budget: int | None = None, modulus: int = 0,
              memory_limit: int | None = None, held: int = 0, allowance: FrontierAllowance | None = None) -> SweepRun:
    """Run the planned ``steps`` from the empty frontier on ``threads`` threads (a power of two).

    ``wide``: counts in two limbs (else one, and :class:`NarrowOverflow` on a
    carry). ``finish``: count finished tours (a whole sweep). ``keep_states``:
    return the states of the last frontier (a half of a meet in the middle).
    ``period``: the steps of a line, to size a step's tables from the growth
    of the same step one line earlier. ``layers``: keep each step's states in
    files (:mod:`chesstours.frontier.disk`), and write the tables out
    whenever they pass ``table_budget`` bytes. ``modulus`` (a prime below
    2**62, one limb): count modulo it; the counts returned are residues.
    ``memory_limit``: raise :class:`OverMemory` as soon as the states and
    tables, with ``held`` bytes kept beside them, pass it. ``allowance``:
    while it lasts (the kernels compile in another process), the steps run in
    plain Python (:mod:`chesstours.frontier.plain`; one limb, no files), and
    the kernels go on from the step where it ends.
    """
    widest = max((st.keep.size for st in steps), default=0)
    if widest > MAX_SLOTS:  # the kernels' work arrays and place values hold that many: a wider plan writes past them
        raise ValueError(f"a plan of {widest} frontier squares: at most {MAX_SLOTS} fit in a state")
    t0 = time.perf_counter() if t0 is None else t0
    max_states, peak, count, total = 1, 0, 0, 0
    per_length: list[int] = []
    growth: list[float] = []
    first, in_python, plain_total = 0, None, 0
    if allowance is not None and not wide and not modulus and layers is None and allowance.lasts():
        in_python = _run_in_python(steps, closed, budget, allowance, finish=finish, strip=strip,
                                   line_ends=line_ends, deadline=deadline, progress=progress, phase=phase, t0=t0,
                                   memory_limit=memory_limit, held=held, max_slots=max_slots)
        first, total, max_states, peak = in_python.step, in_python.total, in_python.max_states, in_python.peak
        plain_total = total
        per_length, growth = in_python.per_length, in_python.growth
        if first == len(steps):
            result = FrontierResult(in_python.count, max_states, peak, time.perf_counter() - t0, max_slots,
                                    per_length=per_length, states_total=total, threads=1, plain_states=total)
            return SweepRun(result, plain=in_python.states if keep_states else None)
        if not plain.fits_one_limb(in_python.states):
            raise NarrowOverflow()
    if allowance is not None:
        allowance.await_sweep(deadline)  # the kernels load from the cache once the other process has them there
    return_freed_memory()
    stride = 3 if wide else 2
    workers = [_Worker(k, stride, layers, modulus) for k in range(threads)]
    if in_python is None:  # the empty frontier, no ends used: one partial tour
        workers[0].inputs.append((np.zeros(1, np.uint64), np.ones(1, np.uint64), _EMPTY, None))
    else:  # the states Python reached: the kernels go on from there
        workers[0].inputs.append((*plain.to_arrays(in_python.states), _EMPTY, None))
        del in_python
    pool = ThreadPoolExecutor(threads, thread_name_prefix="chesstours-frontier") if threads > 1 else None

    def each(fn):
        if pool is None:
            fn(workers[0])
        else:
            list(pool.map(fn, workers))

    ends = set(line_ends)
    nsteps = len(steps)
    last_report = 0.0
    try:
        for t in range(first, nsteps):
            st = steps[t]
            size = sum(w.size() for w in workers)
            total += size
            ratio = growth[t - period] if period and t >= period else HEADROOM
            expect = max(1, int(size * ratio))
            want = min(BATCH, max(1 << 14, -(-size // threads) * st.choice_a.size))
            per_worker = _parts_a_thread(expect // threads, PARTS_A_THREAD if layers is None else 1024)
            nparts = per_worker * threads
            capacity = max(64, int(expect / nparts / LOAD) + 1)
            start, spare = (capacity, 0.0) if layers is not None else _start_capacity(
                capacity, capacity * nparts * stride * 8, sum(w.input_bytes() for w in workers))
            if spare:
                want = min(want, BATCH // 2)  # 16 MiB less (24 with two limbs): twice the batches
            # each thread makes its own tables: filling them with the empty key is a pass over their memory
            pbits = nparts.bit_length() - 1
            each(lambda w, n=per_worker, p=pbits, c=start, b=want, r=spare: w.begin(n, p, c, b, r))
            while any(w.busy() for w in workers):
                each(lambda w, st=st: w.grow(st, budget, closed, finish))
                done = 1.0 - sum(w.size() - w.pos for w in workers) / max(1, size)
                each(lambda w, done=done: w.put(workers, done))
                live = sum(w.live() for w in workers)
                if table_budget is not None and layers is not None and sum(w.tables() for w in workers) > table_budget:
                    each(lambda w: w.flush())
                now_held = sum(w.memory() for w in workers)
                peak = max(peak, now_held)
                if memory_limit is not None and now_held + held > memory_limit:
                    raise OverMemory(t + 1, nsteps, live, now_held + held, memory_limit)
                _check_carry(workers)
                now = time.perf_counter()
                if progress is not None and (now - last_report > 0.1):
                    last_report = now
                    progress(FrontierProgress(t, nsteps, st.square, live, max(max_states, live), phase))
                if deadline is not None and now > deadline:
                    raise _stopped(t, nsteps, live, max_states, peak, now - t0, max_slots, per_length, total,
                                   threads)
            _check_carry(workers)
            each(lambda w: w.finish())
            live = sum(w.size() for w in workers)
            growth.append(live / max(1, size))
            max_states = max(max_states, live)
            if progress is not None:
                progress(FrontierProgress(t, nsteps, st.square, live, max_states, phase))
            if strip and t in ends:
                nslots = len(st.keep)
                each(lambda w, n=nslots: w.finish_all(n, closed))
                _check_carry(workers)
                per_length.append(_total(workers, modulus))
            if t == nsteps - 1:
                count = _total(workers, modulus)
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    result = FrontierResult(count, max_states, peak, time.perf_counter() - t0, max_slots,
                            per_length=per_length, states_total=total, threads=threads,
                            plain_states=plain_total)
    return SweepRun(result, [list(x[:3]) for w in workers for x in w.inputs] if keep_states else [])


def warm() -> None:
    """Compile the sweep's kernels (or load them from the cache) for the types every count calls them with (the
    join's are :func:`chesstours.frontier.join.kernel.warm`'s).
    :func:`chesstours.runtime.compile_in_background` runs it while a count on an empty compile cache runs its
    first steps in plain Python (:class:`chesstours.frontier.plain.FrontierAllowance`), which go on in the
    kernels once they are in the cache. The strips' kernel, which no count of a whole board needs, compiles
    last and at the lowest priority (:func:`chesstours.runtime.lowest_priority`): the count runs compiled
    by then, on every core."""
    from ..board import Board
    from ..pieces import KNIGHT
    from ..runtime import lowest_priority, use_compiled_only
    from .plan import best_plan

    use_compiled_only()  # this process compiles: it runs no step in Python
    sweep = best_plan(Board(3, 4), KNIGHT)
    run_sweep(sweep.steps, sweep.max_slots, False, 2, threads=1)
    _Part(64, 2).grow(128, 0, np.zeros(1, np.int64))  # a table that fills grows
    lowest_priority()
    run_sweep(sweep.steps, sweep.max_slots, False, 2, threads=1, line_ends=sweep.line_ends, strip=True)  # strips
