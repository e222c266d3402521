"""The frontier count of a board or a strip: choose the plan (one sweep or two halves), check its size,
run it, and carry a count past 64 or 128 bits by more limbs or by residues.

The method is explained in :mod:`chesstours.frontier`.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from ..board import Board
from ..errors import InvalidArgument, ResourceError
from ..pieces import KNIGHT, Leaper
from ..runtime import worker_count
from ..settings import CUT_A_PAIR_EARLIER_FROM, HALVES_FROM_LINES
from ..settings import FRONTIER_EXTENDED_CLOSED as EXTENDED_CLOSED
from ..settings import FRONTIER_EXTENDED_OPEN as EXTENDED_OPEN
from ..settings import FRONTIER_MIRRORED_MEMORY as MIRRORED_MEMORY
from ..settings import FRONTIER_MIRRORED_WORK as MIRRORED_WORK
from ..settings import FRONTIER_PEAK_BYTES as PEAK_BYTES
from ..units import about_duration, format_bytes
from .disk import Layers, disk_needed
from .join.halves import Halves, count_by_halves, join_kernel_key, plan_halves, warm_join
from .layout import MAX_MIDDLE, MAX_SLOTS
from .plan import PLANNED_SLOTS, Fixed, FrontierTooWide, Sweep, best_plan, line_orders, neighbours, symmetric
from .residues import count_bound, from_residues, moduli_for
from .run import (
    FrontierAllowance,
    FrontierProgress,
    FrontierResult,
    NarrowOverflow,
    OverMemory,
    WideOverflow,
    run_sweep,
    warm,
)
from .run import allowance as run_allowance

__all__ = ["FrontierProgress", "FrontierResult", "FrontierEstimate", "count_strip", "estimate", "estimate_states",
           "estimate_extended", "estimate_seconds", "frontier_count", "choose_halves", "refusal", "thread_count"]


def _quick_slots(board: Board, piece: Leaper) -> int:
    """The frontier of a short piece of the board without holes: a bound found without planning the whole sweep."""
    return _short_slots(*sorted((board.rows, board.cols)), piece)


@functools.lru_cache(maxsize=64)
def _short_slots(w: int, n: int, piece: Leaper) -> int:
    """:func:`_quick_slots` of a board ``w`` by ``n``, planned once (a count's checks and forecasts ask it four
    times)."""
    short = Board(w, min(n, 3 * w + 4 * piece.b + 4))
    try:
        return best_plan(short, piece, None, None, True).max_slots if w <= 64 else w
    except FrontierTooWide as exc:  # wider than any state: what the plan reached is enough to refuse it
        return exc.slots


def estimate_states(slots: int, closed: bool = True) -> float:
    """A rough upper estimate of the most live states for a frontier of ``slots`` squares.

    Fitted to knight sweeps: closed tours of 6x7 (12 slots, 0.26 million) and
    8x8 (16 slots, 161 million on the middle frontier of a meet in the
    middle); open tours of 6x6 (12 slots, 2.7 million) and 7x7 (14 slots, 43
    million on the middle frontier). Past 14 slots open counts grow faster:
    the halves of 8x8 open (16 slots) measured at shorter cuts, 394 million
    states after 4 lines and 172 million from the far end after 6, grow by
    the closed halves' factors (20 and 14 a line) to some 8 billion at the
    balanced cut, which is 14 times more a slot past 14.
    """
    s = min(slots, 200) - 12  # beyond any memory, and within the range of a float
    if closed:
        return 2.6e5 * 5.0**s
    return 2.7e6 * 4.0 ** min(s, 2) * 14.0 ** max(0, s - 2)


def estimate_extended(board: Board, widest: float, closed: bool) -> float:
    """A rough forecast of the states a count by halves extends in all, over every step (the work of the count),
    from ``widest``, the forecast of its widest step (:func:`estimate_states`).

    :func:`estimate_states` reads the width alone; the states of every step
    grow with the lines before them too. Fitted to knight counts by halves:
    over the widest step's forecast, 5xL open extends 0.12, 0.62, 1.8, 2.7,
    6.4, 6.7 and 12.8 times as much for L = 5, 7, 8, 9, 10, 11, 12; 6xL
    closed 0.15, 0.63, 1.7, 5.8 and 9.6 times for L = 6 to 10; 5xL closed
    6.8 to 25 times for L = 10 to 14. ``0.2 k**2`` (open) and ``0.35 k**2``
    (closed), ``k = L - w + 1``, follow them within a factor of two from
    three lines longer than wide, and run up to three times high on shorter
    boards; on boards of four lines swept whole it runs 1.4 to 2.3 times high
    (4x9, 4x16 open). It decides whether a count runs wholly in plain Python
    (:data:`~chesstours.frontier.run.PLAIN_ONLY_EXTENDED`), and whether one
    on an empty compile cache starts compiled
    (:data:`~chesstours.frontier.run.PLAIN_EXTENDED`).
    """
    w, n = sorted((board.rows, board.cols))
    k = n - w + 1
    return widest * (EXTENDED_CLOSED if closed else EXTENDED_OPEN) * k * k


def choose_halves(board: Board, piece: Leaper, closed: bool, start: int | None = None,
                  end: int | None = None, fixed: Fixed | None = None,
                  classes: Mapping[int, int] | None = None, mirror: bool = True,
                  in_classes: bool = False) -> Halves | None:
    """The halves of a meet in the middle for this count, or None where a plain sweep is the way.

    ``classes``, ``mirror``: see :func:`~chesstours.frontier.join.plan_halves`; a
    ``ValueError`` if a square cannot take a class. ``in_classes``: the halves
    of a count split on classes (:mod:`chesstours.frontier.split`), as with
    ``classes``: cut at the end of a line, where more squares of the middle
    frontier can take a class (8x8: 6 a pair earlier).

    The cut falls after ``(lines + b) // 2`` lines for a leaper reaching
    ``b`` lines: the right half also adds the middle frontier, about ``b``
    lines of squares, so this balances the halves. On lines of
    :data:`CUT_A_PAIR_EARLIER_FROM` squares or more, where the halves fold
    their mirror pairs, it falls one pair of squares before the end of that
    line instead: the left half's last two steps are the widest of the count,
    and the right half adds those two squares for less. 8x8 closed: after 5
    lines, 80.8 and 9.3 million states on the middle frontier (folded), 288
    million extended, 7.9 billion pairs joined; a pair earlier, 51.0 and
    13.1 million, 211 million extended, 14.2 billion pairs, and the count is
    quicker; two pairs earlier, 28.0 and 50.2 million, and slower again. On
    lines of 6 (6x6 and 6x8 open) the end of the line stays quickest. A count
    split on classes is cut at the end of the line.
    """
    lines = line_orders(board, piece)["greedy"]
    width = max(len(line) for line in lines)
    if len(lines) < HALVES_FROM_LINES or width < HALVES_FROM_LINES:
        return None
    cut = (len(lines) + piece.b) // 2
    split = sum(len(line) for line in lines[:cut])
    early = len(lines[cut - 1]) >= CUT_A_PAIR_EARLIER_FROM and not (classes or in_classes)
    for at in ([split - 2, split] if early else [split]):
        try:
            halves = plan_halves(board, piece, closed, at, start, end, fixed, mirror=mirror)
        except ValueError:
            continue
        if len(halves.middle) > MAX_MIDDLE or halves.max_slots > MAX_SLOTS:
            continue
        if at < split and not halves.left.steps[-1].mirror.size:
            continue  # the halves would not fold (see plan_halves), or the cut splits a pair
        split = at
        break
    else:
        return None
    # a ValueError here: classes on squares that cannot take them
    return plan_halves(board, piece, closed, split, start, end, fixed, classes, mirror) if classes else halves


def estimate_seconds(slots: int, closed: bool, threads: int, mirrored: bool = True) -> float:
    """A rough estimate of the seconds a count with a frontier of ``slots`` squares takes on ``threads`` threads.

    About 1.7 microseconds of one core for each state of the widest step of
    the whole board, the mirror pairs counted twice (fitted to 8x8 closed,
    7x7 open and 6x8 open), where the count keeps one state of each mirror pair;
    without ``mirrored`` (a closed count through a given square, a part of a
    split count), each state takes ``1 / MIRRORED_WORK`` times as long.
    """
    return estimate_states(slots, closed) * 1.7e-6 / max(1, threads) / (1.0 if mirrored else MIRRORED_WORK)


@dataclass(frozen=True)
class FrontierEstimate:
    """A rough forecast of a frontier count (good to an order of magnitude).

    ``slots``: the widest frontier; ``states``: the most live states;
    ``memory_bytes`` / ``disk_bytes``: their peak in memory, or on disk with a
    spill folder; ``seconds`` on ``threads`` threads; ``halves``: whether the
    count meets in the middle; ``mirrored``: whether it keeps one state of
    each mirror pair (the memory and seconds are then that count's).
    """

    slots: int
    states: float
    memory_bytes: float
    disk_bytes: float
    seconds: float
    threads: int
    halves: bool
    mirrored: bool = False
    #: Lines a knight's board has beyond its width (the frontier's side): the forecast reads the width alone and
    #: runs low on boards longer than wide (:data:`LONGER_RUNS_LOW`). 0 for other leapers, whose counts run far
    #: below the forecast.
    longer_by: int = 0

    @property
    def runs_low(self) -> bool:
        """Whether the board is long enough for the forecast to run low (:data:`LONGER_RUNS_LOW`)."""
        return self.longer_by >= LONGER_RUNS_LOW


#: Lines beyond the width from which the forecast runs low: measured from 5x5 to 5x16, 6x6 to 6x12 and 7x7 to
#: 7x10 (knight, open and closed), boards two or more lines longer than wide took up to 15 times the forecast
#: time and 20 times its memory, and boards less long than that within about 3 times of it.
LONGER_RUNS_LOW = 2
#: What a plan says of a forecast that runs low (:attr:`FrontierEstimate.runs_low`).
RUNS_LOW_CAVEAT = ("the forecast reads the frontier's width alone, as for a board about as long as wide; boards two "
                   "or more lines longer have taken up to 15 times as long and 20 times the memory (the count stops "
                   "at the memory limit; a time limit bounds the time)")


def given_squares(closed: bool, start: int | None, end: int | None) -> tuple[int | None, int | None]:
    """The squares a count is asked to run from and to, as the sweep takes them: a cycle passes through every
    square, so a closed count through one square alone is the whole board's, which folds mirror pairs (unfolded,
    it would take 1.6 to 1.8 times as long)."""
    if closed and (start is None) != (end is None):
        return None, None
    return start, end


def estimate(board: Board, piece: Leaper, start: int | None = None, end: int | None = None, closed: bool = False,
             workers: int | None = None) -> FrontierEstimate:
    """What :func:`frontier_count` is expected to need for this count (planning only: nothing is counted)."""
    start, end = given_squares(closed, start, end)
    threads = thread_count(workers)
    if board.free_count == 1:
        return FrontierEstimate(0, 1.0, 0.0, 0.0, 0.0, threads, False)
    slots, halves = _shape(board, piece, start, end, closed)
    states = estimate_states(slots, closed)
    mirrored = symmetric(board, start, end)
    seconds = estimate_seconds(slots, closed, threads, _works_as_folded(board, start, end, closed, mirrored))
    return FrontierEstimate(slots, states, _memory(states, mirrored), disk_needed(states), seconds, threads, halves,
                            mirrored, abs(board.rows - board.cols) if piece == KNIGHT else 0)


@functools.lru_cache(maxsize=64)
def _shape(board: Board, piece: Leaper, start: int | None, end: int | None, closed: bool) -> tuple[int, bool]:
    """The frontier squares of a count's best plan, and whether it meets in the middle: planned once for the
    forecasts a command makes of one count (its policy asks twice, on one thread and on every core)."""
    slots = _quick_slots(board, piece)
    if slots > MAX_SLOTS:
        return slots, False
    return best_plan(board, piece, start, end, closed).max_slots, choose_halves(board, piece, closed, start, end) is not None


def _works_as_folded(board: Board, start: int | None, end: int | None, closed: bool, mirrored: bool) -> bool:
    """Whether a count takes the time of a folded one: ``mirrored``, or what breaks the mirror (holes, an open
    tour's given end) cuts the states as much as the mirror would.

    Measured against the same board's folded count (wall time, two cores): an
    open count with a start given took 0.37 to 0.54 of it (6x6, 6x7, 6x8, 5x9),
    with both ends given 0.10 to 0.16 (6x8); a hole 0.24 to 1.6 (6x6 without b1:
    0.52; 6x7, 6x8, 5x9 open; 6x8 and 7x8 closed, 0.6 and 0.8). A closed count
    through a given edge is most of the cycles, unfolded: 1.6 to 1.8 times it
    (7x8, measured through a given square, which folds: :func:`given_squares`),
    which :data:`MIRRORED_WORK` stands for.
    """
    return mirrored or bool(board.holes) or (not closed and (start is not None or end is not None))


def refusal(board: Board, piece: Leaper, start: int | None = None, end: int | None = None,
            closed: bool = False, memory_limit: int | None = None, spill_dir=None,
            max_seconds: float | None = None, workers: int | None = None) -> str | None:
    """Why :func:`frontier_count` would refuse this count (frontier too wide, too much memory), or None.

    With ``max_seconds``, also a count estimated to take longer.
    """
    if board.free_count == 1:
        return None
    start, end = given_squares(closed, start, end)
    try:
        mirrored = symmetric(board, start, end)
        _check_size(board, _quick_slots(board, piece), closed, memory_limit, spill_dir, mirrored)
        slots = best_plan(board, piece, start, end, closed).max_slots
        _check_size(board, slots, closed, memory_limit, spill_dir, mirrored)
        seconds = estimate_seconds(slots, closed, thread_count(workers),
                                   _works_as_folded(board, start, end, closed, mirrored))
        if max_seconds is not None and seconds > max_seconds:
            return (f"Counting tours of {board} by the frontier method would take {about_duration(seconds)} here; "
                    "give a time limit to try anyway.")
    except InvalidArgument as exc:
        return str(exc)
    return None


def frontier_count(
    board: Board,
    piece: Leaper,
    closed: bool = False,
    start: int | None = None,
    end: int | None = None,
    *,
    deadline: float | None = None,
    progress: Callable[[FrontierProgress], None] | None = None,
    memory_limit: int | None = None,
    workers: int | None = None,
    halves: bool | None = None,
    spill_dir: str | os.PathLike | None = None,
    table_budget: int | None = None,
    fixed: Fixed | None = None,
    classes: Mapping[int, int] | None = None,
    mirror: bool = True,
) -> FrontierResult:
    """Count the Hamiltonian cycles (``closed``) or paths of the leaper graph.

    Open tours are counted undirected: paths, with ``start`` and ``end`` as
    their ends when given (either may be given alone). Closed tours are
    cycles; with both ``start`` and ``end``, the cycles using the edge between
    them. ``halves``: meet in the middle (True), one sweep (False), or the
    one that fits the board (None: halves for boards of five lines and more).

    ``spill_dir``: keep the states of each step in files there
    (:mod:`chesstours.frontier.disk`) rather than in memory, with at
    most ``table_budget`` bytes of tables (default: half of
    ``memory_limit``); the count is then refused only when the disk there is
    too small.

    ``fixed``: ``{square: neighbours}``, count only the tours whose edges at
    each such square go to those neighbours (one part of a split count,
    :mod:`chesstours.frontier.split`).
    ``classes``: ``{square: edges}``, count only the tours that give each such
    square of the middle frontier of the meet in the middle that many edges
    in its left half (a class of a split count; see
    :func:`~chesstours.frontier.join.plan_halves`).

    ``mirror``: where the count is symmetric under the board's reflection
    (no ends given, nothing fixed, no class, holes that the reflection keeps),
    keep one state of each mirror pair (see
    :func:`~chesstours.frontier.plan.plan`): about half the states, the work
    and the join. False: every state, as a part of a split count has them.

    Raises
    ------
    InvalidArgument
        The frontier is too wide for 64-bit states, the estimated states
        would not fit in ``memory_limit`` bytes (or on the disk of
        ``spill_dir``), or ``halves=True`` on a board that cannot be cut.
        A part (``fixed`` or ``classes``) is not held to the whole board's
        estimate, only watched as it counts.
    LimitReached
        ``deadline`` (a :func:`time.perf_counter` value) passed; ``partial``
        holds a :class:`FrontierResult` with ``complete=False``.
    ResourceError
        The states and tables passed ``memory_limit`` while counting (the
        forecast, which reads the frontier's width alone, ran low): the count
        stops at once rather than crowd the machine.
    """
    t0 = time.perf_counter()
    start, end = given_squares(closed, start, end)
    n = board.free_count
    if n == 1:
        return FrontierResult(0 if closed else 1, 1, 0, time.perf_counter() - t0, 0, states_total=1)
    if closed and start is not None and end is not None and end not in neighbours(board, piece, fixed)[start]:
        return FrontierResult(0, 1, 0, time.perf_counter() - t0, 0, states_total=1)  # no edge start-end to use
    mirrored = mirror and symmetric(board, start, end, fixed, classes)
    # A part of a split count (fixed edges or classes) holds a share of the whole board's states: the forecast,
    # which reads the board's width, says nothing of it (the split planned each part's own), so only the watch
    # while counting holds a part to ``memory_limit``.
    part = bool(fixed or classes)
    forecast_limit = None if part else memory_limit
    _check_size(board, _quick_slots(board, piece), closed, forecast_limit, spill_dir, mirrored)
    budget = 2 - len({x for x in (start, end) if x is not None})
    try:
        cut = None if halves is False else choose_halves(board, piece, closed, start, end, fixed, classes, mirror)
    except ValueError as exc:  # classes on squares that cannot take them
        raise InvalidArgument(f"Cannot count a class of the tours of {board}: {exc}.") from None
    if (halves or classes) and cut is None:
        raise InvalidArgument(f"{board} is too small or too narrow to count by meet in the middle.")
    with _layers(spill_dir) as layers, _guarded(board, part), \
            _allowance(board, piece, closed, spill_dir, cut is not None) as allowance:
        tables = _table_budget(layers, table_budget, memory_limit)
        if cut is not None:
            _check_size(board, len(cut.middle), closed, forecast_limit, spill_dir, mirrored)
            try:
                result = count_by_halves(board, piece, closed, cut, budget=budget, threads=thread_count(workers),
                                         deadline=deadline, progress=progress, t0=t0, layers=layers,
                                         table_budget=tables,
                                         index_budget=None if memory_limit is None else memory_limit // 4,
                                         memory_limit=memory_limit, allowance=allowance)
                return _disk(result, layers)
            except NarrowOverflow:
                if classes:
                    raise ResourceError(f"A class of the tours of {board} counts past 2**64 in a half; "
                                        "count it whole, or split it on edges.") from None
                pass  # a half counts past 2**64: the whole sweep carries two limbs
        sweep = best_plan(board, piece, start, end, closed, fixed, mirror)
        _check_size(board, sweep.max_slots, closed, forecast_limit, spill_dir, mirrored)
        result = _run(sweep, closed, budget, deadline, progress, t0, strip=False, workers=workers, layers=layers,
                      degrees=_degrees(board, piece, fixed), table_budget=tables, memory_limit=memory_limit,
                      allowance=allowance)
        return _disk(result, layers)


def count_strip(
    rows: int,
    length: int,
    piece: Leaper,
    closed: bool = True,
    *,
    deadline: float | None = None,
    progress: Callable[[FrontierProgress], None] | None = None,
    memory_limit: int | None = None,
    workers: int | None = None,
    spill_dir: str | os.PathLike | None = None,
    table_budget: int | None = None,
) -> FrontierResult:
    """Count the tours of every ``rows x k`` board, ``k = 1 .. length``, in one sweep.

    ``per_length[k - 1]`` is the count for ``rows x k`` (cycles, or
    undirected paths when ``closed`` is False). ``spill_dir`` and
    ``table_budget`` as for :func:`frontier_count`.
    """
    t0 = time.perf_counter()
    board = Board(rows, max(length, rows))
    try:
        sweep = best_plan(board, piece, None, None, closed, whole=False, deadline=deadline)
    except FrontierTooWide as exc:  # refused below, naming the board, as any frontier too wide for a state
        _check_size(board, exc.slots, closed, memory_limit, spill_dir, mirrored=True)
        raise
    _check_size(board, sweep.max_slots, closed, memory_limit, spill_dir, mirrored=True)
    with _layers(spill_dir) as layers, _guarded(board), _allowance(board, piece, closed, spill_dir) as allowance:
        result = _run(sweep, closed, 2, deadline, progress, t0, strip=True, workers=workers, layers=layers,
                      degrees=_degrees(board, piece), table_budget=_table_budget(layers, table_budget, memory_limit),
                      memory_limit=memory_limit, allowance=allowance)
    result.per_length = result.per_length[:length]
    if rows == 1:
        result.per_length[0] = 0 if closed else 1
    return _disk(result, layers)


@contextlib.contextmanager
def _guarded(board: Board, part: bool = False) -> Iterator[None]:
    """Say in a sentence about ``board`` that a sweep (of a ``part`` of a split count) outgrew its memory limit
    (:class:`OverMemory`)."""
    try:
        yield
    except OverMemory as exc:
        if part:
            raise ResourceError(
                f"A part of the count of the tours of {board} by the frontier method outgrew the "
                f"{format_bytes(exc.limit)} of memory a worker has (more than the split planned) with "
                f"{exc.live:,} live states and stopped; split on more squares (--split-on) for smaller parts, or run "
                "fewer workers (--jobs) for more memory each."
            ) from None
        raise ResourceError(
            f"Counting tours of {board} by the frontier method outgrew the {format_bytes(exc.limit)} of memory "
            f"allowed (more than its forecast) with {exc.live:,} live states and stopped; a spill folder "
            "(--spill-dir) would keep its states on disk, and a count in parts (--jobs, --cluster) needs less in "
            "each part."
        ) from None


def _layers(spill_dir) -> Layers | contextlib.nullcontext:
    return Layers(spill_dir) if spill_dir is not None else contextlib.nullcontext()


@contextlib.contextmanager
def _allowance(board: Board, piece: Leaper, closed: bool, spill_dir,
               halves: bool = False) -> Iterator[FrontierAllowance | None]:
    """On an empty compile cache, a small count's first steps in plain Python while its kernels compile in
    another process (:mod:`chesstours.frontier.plain`; not with a spill folder, whose steps are files), and the
    join's too for a meet in the middle (``halves``) that outlasts them; the processes are stopped when the count
    ends first."""
    then = [(warm_join, join_kernel_key)] if halves else []
    forecast = estimate_states(_quick_slots(board, piece), closed)
    extended = estimate_extended(board, forecast, closed)
    allowance = run_allowance(forecast, then, extended, sweep=warm) if spill_dir is None else None
    try:
        yield allowance
    finally:
        if allowance is not None:
            allowance.close()


def _table_budget(layers: Layers | None, table_budget: int | None, memory_limit: int | None) -> int | None:
    if layers is None:
        return None
    if table_budget is not None:
        return table_budget
    return None if memory_limit is None else memory_limit // 2


def _disk(result: FrontierResult, layers: Layers | None) -> FrontierResult:
    if layers is not None:
        result.peak_disk_bytes = layers.peak_bytes
    return result


def _memory(states: float, mirrored: bool) -> float:
    """The bytes at the peak of a count with ``states`` live states, folded by the mirror or not."""
    return states * PEAK_BYTES * (MIRRORED_MEMORY if mirrored else 1.0)


def _check_size(board: Board, slots: int, closed: bool, memory_limit: int | None, spill_dir=None,
                mirrored: bool = False) -> None:
    states = estimate_states(slots, closed)
    need = _memory(states, mirrored)
    if slots > PLANNED_SLOTS:  # planning stopped: the frontier is wider still
        raise InvalidArgument(
            f"Counting tours of {board} by the frontier method needs a frontier of more than {PLANNED_SLOTS} "
            f"squares; the frontier method's states hold at most {MAX_SLOTS}."
        )
    if slots > MAX_SLOTS:
        raise InvalidArgument(
            f"Counting tours of {board} by the frontier method needs a frontier of {slots} squares "
            f"(about {states:.0e} states, {format_bytes(need)}); at most {MAX_SLOTS} fit in a state."
        )
    if spill_dir is not None:
        disk = disk_needed(states)
        try:
            free = shutil.disk_usage(spill_dir).free
        except OSError:
            free = None  # the folder is made later; Layers says what is wrong with it
        if free is not None and disk > free:
            raise InvalidArgument(
                f"Counting tours of {board} by the frontier method would keep about {states:.0e} states on "
                f"disk ({format_bytes(disk)}), more than the {format_bytes(free)} free in {spill_dir}."
            )
        return
    if memory_limit is not None and need > memory_limit:
        raise InvalidArgument(
            f"Counting tours of {board} by the frontier method would need about {states:.0e} states "
            f"({format_bytes(need)}), more than the {format_bytes(memory_limit)} allowed; with a spill folder (--spill-dir) "
            f"they would take about {format_bytes(disk_needed(states))} of disk instead, and a count in parts "
            "(--jobs, --cluster) needs less in each part."
        )


def thread_count(workers: int | None = None) -> int:
    """Threads of a sweep: ``workers`` (default: one a core), rounded down to a power of two, at most 8.

    The tables are split into parts by hash, an equal share of the parts a thread.
    """
    n = min(8, worker_count(workers))
    return 1 << (n.bit_length() - 1)


def _degrees(board: Board, piece: Leaper, fixed: Fixed | None = None) -> list[int]:
    return [len(x) for x in neighbours(board, piece, fixed).values()]


def _run(sweep: Sweep, closed: bool, budget: int, deadline, progress, t0, strip: bool, degrees: list[int],
         workers: int | None = None, layers: Layers | None = None, table_budget: int | None = None,
         memory_limit: int | None = None, allowance: FrontierAllowance | None = None) -> FrontierResult:
    """Run a whole-board sweep: one limb a count, then two if a count outgrows it, then one sweep a prime
    (the first steps of the first in plain Python while ``allowance`` lasts)."""
    period = len(sweep.order) // max(1, len(sweep.line_ends))

    def run(wide=False, modulus=0, phase="sweep"):
        return run_sweep(sweep.steps, sweep.max_slots, closed, budget, threads=thread_count(workers), wide=wide,
                         deadline=deadline, progress=progress, t0=t0, line_ends=sweep.line_ends, strip=strip,
                         period=period, layers=layers, table_budget=table_budget, modulus=modulus,
                         phase=phase, memory_limit=memory_limit, allowance=allowance).result

    try:
        try:
            return run()
        except NarrowOverflow:
            return run(wide=True)
    except WideOverflow:
        pass
    moduli = moduli_for(count_bound(degrees, closed))
    runs = [run(modulus=p, phase=f"residue {i + 1} of {len(moduli)}") for i, p in enumerate(moduli)]
    result = runs[-1]
    result.count = from_residues([(r.count, p) for r, p in zip(runs, moduli)])
    result.per_length = [from_residues([(r.per_length[k], p) for r, p in zip(runs, moduli)])
                         for k in range(len(result.per_length))]
    result.states_total = sum(r.states_total for r in runs)
    result.peak_bytes = max(r.peak_bytes for r in runs)
    result.residues = len(moduli)
    return result
