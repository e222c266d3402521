"""The step loop of the frontier sweep, and the engine each step runs in.

Each step extends the states of the frontier into parts, one thread a share
of them (:mod:`chesstours.frontier.parts`), and between rounds checks the
clock, the memory and the carries, and reports its progress; the last
step's states are counted (a whole board) or kept (a half of a meet in the
middle). A count's first steps may run in plain Python while its kernels
compile (:class:`FrontierAllowance`, :mod:`chesstours.frontier.plain`), the
kernels going on from the step where it ends.

Counts start in one 64-bit limb a state; a carry out of it stops the sweep
(:class:`NarrowOverflow`) and the caller runs it again with two limbs; a
carry out of two stops it again (:class:`WideOverflow`), and the caller
counts modulo primes instead (``modulus``), one sweep a prime.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ..errors import LimitReached
from ..runtime import (
    COMPILE_WAIT,
    Compiling,
    Warm,
    await_compiled,
    cache_key,
    compile_in_background,
    compile_unless_cached,
    compiled_below,
    in_cache_folder,
    stop_compiling,
)
from ..settings import FRONTIER_JOIN_COMPILES_AFTER as PLAIN_STATES
from ..settings import FRONTIER_PLAIN_CACHED_UP_TO as PLAIN_CACHED_UP_TO
from ..settings import FRONTIER_PLAIN_EXTENDED as PLAIN_EXTENDED
from ..settings import FRONTIER_PLAIN_FORECAST as PLAIN_FORECAST
from ..settings import FRONTIER_PLAIN_ONLY_EXTENDED as PLAIN_ONLY_EXTENDED
from . import plain
from .disk import Layers
from .layout import MAX_SLOTS
from .parts import (  # noqa: F401  (NarrowOverflow and WideOverflow: the sweep's own errors)
    BATCH,
    HEADROOM,
    LOAD,
    NO_STATES,
    PARTS_A_THREAD,
    NarrowOverflow,
    Part,
    WideOverflow,
    Worker,
    check_carry,
    parts_a_thread,
    return_freed_memory,
    start_capacity,
    total_count,
)
from .plain import States as PlainStates


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


@dataclass
class SweepRun:
    """What :func:`run_sweep` returns: the result, and the states left on the frontier when asked for.

    ``plain``: those states as :mod:`chesstours.frontier.plain` holds them, instead of ``states``, when
    every step ran in plain Python.
    """

    result: FrontierResult
    states: list[list[np.ndarray]] = field(default_factory=list)
    plain: PlainStates | None = None




# -- the allowance: the first steps in plain Python while the kernels compile ------------------------------------------------------------------------------------------------

def sweep_kernels_cached() -> bool:
    """Whether the kernels every sweep runs are all in numba's cache folder (:func:`~chesstours.runtime.cache_key`).
    It imports the sweep's kernels, and numba, but loads none of them."""
    from . import kernel as fk
    from . import table_kernel as ft

    return all(in_cache_folder(*cache_key(k))
               for k in (fk.expand, ft.sort_batch, ft.insert_run, ft.compact_into, ft.rehash))


@dataclass
class FrontierAllowance:
    """A frontier count's steps in plain Python: to its end where it is small, else while its kernels compile in
    other processes.

    Made by :func:`allowance`, only where this process has loaded none of
    the kernels, and, for a count past :data:`PLAIN_ONLY_EXTENDED`, where
    the sweep's kernels are not in the compile cache and a process to
    compile them could be started (:func:`chesstours.runtime.compile_in_background`
    runs :func:`chesstours.frontier.run.warm`). The count runs here while
    :meth:`lasts`: until the sweep's kernels are in the cache (it never
    waits idle for them). Once it has extended :data:`PLAIN_STATES` states
    here, or stops lasting, the modules of ``then`` (the join's kernels of a
    meet in the middle) start compiling too, unless they are in the cache: a
    small count that ends here never compiles them.
    """

    #: The process compiling the sweep's kernels; None where the whole count runs here (:data:`PLAIN_ONLY_EXTENDED`).
    compiling: Compiling | None
    #: ``(warm, key)``: compiled by ``warm`` once the count leaves Python, unless the kernel whose cache key
    #: ``key()`` gives (:func:`~chesstours.runtime.cache_key`; asked only then) is cached.
    then: list[tuple[Warm, Callable[[], tuple[str, str]]]] = field(default_factory=list)
    #: States extended here.
    states: int = 0
    later: list[Compiling] = field(default_factory=list)
    stopped: bool = False

    def take(self, states: int) -> None:
        """Record ``states`` extended here."""
        self.states += states

    def lasts(self, pending: int = 0) -> bool:
        """Whether the count goes on in plain Python for ``pending`` states more."""
        if self.compiling is None:
            return True
        if not self.stopped and (self.compiling.poll() is not None or sweep_kernels_cached()):
            self.stopped = True
        if self.then and (self.stopped or self.states + pending > PLAIN_STATES):
            for warm, key in self.then:
                process = compile_unless_cached(warm, key())
                if process is not None:
                    self.later.append(process)
            self.then = []
        return not self.stopped

    def await_sweep(self, deadline: float | None) -> None:
        """Wait for the sweep's kernels to be in the cache (at most :data:`~chesstours.runtime.COMPILE_WAIT`
        seconds, and until ``deadline``); if that process fails, they compile here."""
        until = time.perf_counter() + COMPILE_WAIT
        if deadline is not None:
            until = min(until, deadline)
        while self.compiling is not None and self.compiling.poll() is None and not sweep_kernels_cached() \
                and time.perf_counter() < until:
            time.sleep(0.02)

    def await_later(self, deadline: float | None) -> None:
        """Wait for the kernels of ``then`` (see :func:`~chesstours.runtime.await_compiled`)."""
        for process in self.later:
            await_compiled(process, deadline)

    def close(self) -> None:
        """Stop the compiling processes if the count ends first (they leave nothing half-written)."""
        for process in [self.compiling, *self.later]:
            if process is not None:
                stop_compiling(process)


def runs_wholly_here(forecast: float, extended: float) -> bool:
    """Whether a count whose widest step is forecast at ``forecast`` states, and which is forecast to extend
    ``extended`` states in all, runs here to its end, without loading the kernels (see :func:`allowance`)."""
    return (not compiled_below(0, 0, "chesstours.frontier.kernel") and _small(forecast, extended)
            and not (extended > PLAIN_CACHED_UP_TO and _all_cached(None)))


def _all_cached(then: list[tuple[Warm, Callable[[], tuple[str, str]]]] | None) -> bool:
    """Whether the sweep's kernels, and those of ``then`` (the join's), are all in the compile cache."""
    return sweep_kernels_cached() and all(in_cache_folder(*key()) for _, key in then or [])


def _small(forecast: float, extended: float) -> bool:
    """Whether a count so forecast is small enough to run here to its end: loading the kernels would take longer."""
    return forecast <= PLAIN_FORECAST and extended <= PLAIN_ONLY_EXTENDED


def allowance(forecast: float, then: list[tuple[Warm, Callable[[], tuple[str, str]]]] | None = None,
              extended: float = 0.0, sweep: Warm | None = None) -> FrontierAllowance | None:
    """A :class:`FrontierAllowance` for a count starting now whose widest step is forecast at ``forecast``
    states, or None: its kernels run from the start. ``then``: as the allowance's; ``extended``: the states
    the whole count is forecast to extend, which for a meet in the middle (``then`` given) may be at most
    :data:`PLAIN_EXTENDED`; a count within :data:`PLAIN_ONLY_EXTENDED` runs here to its end. ``sweep``: what
    compiles the sweep's kernels in another process (:func:`~chesstours.runtime.compile_in_background`)."""
    if compiled_below(0, 0, "chesstours.frontier.kernel"):
        return None  # loaded here already, or this process runs compiled code only
    if extended > PLAIN_CACHED_UP_TO and _all_cached(then):
        return None  # loading the kernels from the cache is quicker than the steps here
    if _small(forecast, extended):
        return FrontierAllowance(None)
    large = forecast > PLAIN_FORECAST or (bool(then) and extended > PLAIN_EXTENDED)
    if large or sweep_kernels_cached():
        return None  # a large count, or the kernels are cached
    process = None if sweep is None else compile_in_background(sweep)
    return None if process is None else FrontierAllowance(process, then=list(then or []))



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
    workers = [Worker(k, stride, layers, modulus) for k in range(threads)]
    if in_python is None:  # the empty frontier, no ends used: one partial tour
        workers[0].inputs.append((np.zeros(1, np.uint64), np.ones(1, np.uint64), NO_STATES, None))
    else:  # the states Python reached: the kernels go on from there
        workers[0].inputs.append((*plain.to_arrays(in_python.states), NO_STATES, None))
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
            per_worker = parts_a_thread(expect // threads, PARTS_A_THREAD if layers is None else 1024)
            nparts = per_worker * threads
            capacity = max(64, int(expect / nparts / LOAD) + 1)
            start, spare = (capacity, 0.0) if layers is not None else start_capacity(
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
                check_carry(workers)
                now = time.perf_counter()
                if progress is not None and (now - last_report > 0.1):
                    last_report = now
                    progress(FrontierProgress(t, nsteps, st.square, live, max(max_states, live), phase))
                if deadline is not None and now > deadline:
                    raise _stopped(t, nsteps, live, max_states, peak, now - t0, max_slots, per_length, total,
                                   threads)
            check_carry(workers)
            each(lambda w: w.finish())
            live = sum(w.size() for w in workers)
            growth.append(live / max(1, size))
            max_states = max(max_states, live)
            if progress is not None:
                progress(FrontierProgress(t, nsteps, st.square, live, max_states, phase))
            if strip and t in ends:
                nslots = len(st.keep)
                each(lambda w, n=nslots: w.finish_all(n, closed))
                check_carry(workers)
                per_length.append(total_count(workers, modulus))
            if t == nsteps - 1:
                count = total_count(workers, modulus)
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
    first steps in plain Python (:class:`chesstours.frontier.run.FrontierAllowance`), which go on in the
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
    Part(64, 2).grow(128, 0, np.zeros(1, np.int64))  # a table that fills grows
    lowest_priority()
    run_sweep(sweep.steps, sweep.max_slots, False, 2, threads=1, line_ends=sweep.line_ends, strip=True)  # strips
