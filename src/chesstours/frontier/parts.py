"""A step's new states in parts, one thread a share of the parts, each part a hash table of one hash range.

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
"""

from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np

from ..errors import ResourceError
from .disk import Layers, Spilled, load
from .layout import EMPTY_KEY, NARROW_OVERFLOW

__all__ = ["NarrowOverflow", "WideOverflow", "Part", "Worker", "NO_STATES", "start_capacity", "parts_a_thread", "total_count", "check_carry",
           "return_freed_memory", "CHUNK", "ORDER_BITS", "BATCH", "LOAD", "SPARE_LOAD", "HEADROOM", "PARTS_A_THREAD",
           "SPARE_ABOVE", "MAP_FROM"]

class NarrowOverflow(Exception):
    """A count passed 2**64 in a one-limb sweep: run it again with two limbs."""


class WideOverflow(Exception):
    """A count passed 2**128 in a two-limb sweep: count modulo primes instead."""


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
#: How full a table that started small to spare memory grows (see :func:`start_capacity`): the last growth of
#: such a table is sized for the states foretold, so it ends about this full, not two thirds.
SPARE_LOAD = 0.8
#: A step's tables start sized for this many times its input states when no earlier line says better.
HEADROOM = 1.0
#: Most parts a thread (about a million states a part).
PARTS_A_THREAD = 64
#: A step whose input and planned tables together pass this many bytes starts its tables smaller, and grows each
#: as it fills, while the input it has extended is freed (see :func:`start_capacity`).
SPARE_ABOVE = 1 << 29



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


NO_STATES = np.zeros(0, np.uint64)


class Part:
    """The table of the new states of one hash range."""

    def __init__(self, capacity: int, stride: int, spare: float = 0.0):
        self.stride = stride
        self.tab = _table(capacity, stride)
        self.fill = np.zeros(1, np.int64)
        self.start = capacity
        #: Where the table started small (see :func:`start_capacity`): the share of its size each growth adds
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


class Worker:
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
        self.parts: list[Part] = []
        self.partial: list[list[tuple]] = []  # a part's tables written out during the step
        self.first = 0  # global index of parts[0]
        self.pbits = 0  # log2 of the number of parts, over all workers
        self.buf = [NO_STATES] * 6
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
        self.parts = [Part(capacity, self.stride, spare) for _ in range(per_worker)]
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

    def put(self, workers: list[Worker], done: float) -> None:
        """Insert into this worker's tables the new states of every batch that fall in them.

        ``done`` is the share of the step's input extended so far: a table
        that must grow is sized for what its fill so far foretells.
        """
        for k, p in enumerate(self.parts):
            g = self.first + k
            for other in workers:
                keys, lo, hi = other.buf[3:6]
                self._insert(p, keys, lo, hi, int(other.bounds[g]), int(other.bounds[g + 1]), done)

    def _insert(self, p: Part, keys, lo, hi, i: int, nb: int, done: float) -> None:
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
    def _bigger(p: Part, coming: int, done: float) -> int:
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


def start_capacity(capacity: int, tables: int, inputs: int) -> tuple[int, float]:
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


def parts_a_thread(states: int, most: int = PARTS_A_THREAD) -> int:
    """Tables a thread for a step of about ``states`` new states a thread: one a million, at most ``most``."""
    n = max(1, min(most, states >> 20))
    return 1 << (n.bit_length() - 1)


def _value(acc: np.ndarray) -> int:
    return int(acc[0]) + (int(acc[1]) << 64)


def total_count(workers: list[Worker], modulus: int) -> int:
    """The tours the workers finished (modulo ``modulus`` if not 0)."""
    total = sum(_value(w.acc) for w in workers)
    return total % modulus if modulus else total


def check_carry(workers: list[Worker]) -> None:
    if any(w.err[0] == NARROW_OVERFLOW for w in workers):
        raise NarrowOverflow()
    if any(w.err[0] for w in workers):
        raise WideOverflow()



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
