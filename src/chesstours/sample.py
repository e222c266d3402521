"""Uniformly random tours, and exact statistics of all tours: :func:`sample_tours` and :func:`tour_statistics`.

Both read the tables of a frontier sweep (:mod:`chesstours.frontier.sampling`):
every step's states and moves, with the number of ways each state completes.
A uniform rank below the number of tours, followed through the tables, names
one tour, so every tour is drawn with exactly the same probability; the
partial tours reaching a state times the completions of its moves give the
number of tours that use each move of the piece, without listing one tour.

The tours are the sequences :func:`~chesstours.count_tours` counts as
*directed*: an open tour is drawn with its direction (from ``start`` where
one is given), a closed tour starts on ``start`` (else on a1 or the first free
square, or it ends on ``end`` where only that is given) and is walked one way
or the other.

Examples
--------
>>> tours = sample_tours("5x5", 3, start="a1", seed=1)
>>> [t.names()[0] for t in tours], all(t.is_valid() for t in tours)
(['a1', 'a1', 'a1'], True)
>>> stats = tour_statistics("5x6", closed=True)
>>> stats.undirected, sum(stats.edges.values()) == 30 * stats.undirected
(8, True)
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import policy
from .arguments import check_limits, check_seed, prepare_query, query_json
from .board import Board, Holes
from .errors import InvalidArgument, NoTour, ResourceError
from .existence.reasons import obstruction
from .pieces import KNIGHT, Leaper
from .runtime import memory_limit
from .settings import SAMPLE_SECONDS_A_STATE, SAMPLE_STATE_BYTES, SAMPLE_STATES_A_LINE
from .settings import SAMPLE_TOUR_BYTES as TOUR_BYTES
from .settings import SAMPLE_TOUR_SQUARE_BYTES as TOUR_SQUARE_BYTES
from .tour import Tour
from .units import about_duration, format_bytes

__all__ = ["sample_tours", "tour_statistics", "TourStatistics", "SampleForecast", "forecast_tables", "saved_tables",
           "clear_saved_tables"]


@dataclass(frozen=True)
class SampleForecast:
    """What building the tables of a question is expected to cost (good to an order of magnitude): its
    ``states`` over all steps, their ``memory_bytes`` and the ``seconds`` of one core; ``refusal``: why it is
    not built here, or None."""

    states: float
    memory_bytes: float
    seconds: float
    frontier_squares: int
    refusal: str | None = None

    def lines(self) -> list[str]:
        """The forecast in sentences, for ``--plan``."""
        out = ["method: frontier tables (every step's states kept, a walk through them a tour)",
               f"frontier squares: {self.frontier_squares}",
               f"states kept: about {self.states:.1e}",
               f"memory: about {format_bytes(self.memory_bytes)}",
               f"time to build: {about_duration(self.seconds)} (one core); each tour drawn after that is a "
               "walk of a few moves a square"]
        if self.refusal is not None:
            out.append(f"refused: {self.refusal}")
        return out

    def to_dict(self) -> dict:
        return {"method": "frontier tables", "frontier_squares": self.frontier_squares, "states": self.states,
                "memory_bytes": self.memory_bytes, "seconds": self.seconds, "refusal": self.refusal}


def _sweep_squares(closed: bool, s: int | None, e: int | None) -> tuple[int | None, int | None]:
    from .frontier.sweep import given_squares

    return given_squares(closed, s, e)


def forecast_tables(board: Board | str, start: int | str | None = None, end: int | str | None = None,
                    closed: bool = False, piece: Leaper | str = KNIGHT, *, holes: Holes = ()) -> SampleForecast:
    """What building the tables of :func:`sample_tours` and :func:`tour_statistics` would cost here, planned
    without building them."""
    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    return _forecast(board, piece, closed, s, e)


def _forecast(board: Board, piece: Leaper, closed: bool, s: int | None, e: int | None) -> SampleForecast:
    from .frontier.sweep import estimate, refusal

    if board.free_count == 1:
        return SampleForecast(1.0, 0.0, 0.0, 0)
    reason = obstruction(board, piece, s, e, closed)
    if reason is not None:  # nothing to build
        return SampleForecast(0.0, 0.0, 0.0, 0, reason.reason)
    fs, fe = _sweep_squares(closed, s, e)
    why = refusal(board, piece, fs, fe, closed)
    if why is not None:
        return SampleForecast(float("inf"), float("inf"), float("inf"), 0, why)
    guess = estimate(board, piece, fs, fe, closed, workers=1)
    lines = max(board.rows, board.cols)
    states = guess.states * SAMPLE_STATES_A_LINE * lines
    need = states * SAMPLE_STATE_BYTES
    allowed = memory_limit()
    why = None
    if need > allowed:
        why = (f"The tables of {board} would hold about {states:.0e} states ({format_bytes(need)}), more than "
               f"the {format_bytes(allowed)} a job may use here; sample a smaller board.")
    return SampleForecast(states, need, states * SAMPLE_SECONDS_A_STATE, guess.slots, why)


def _version() -> str:
    """The installed chesstours' version: tables saved by another may order their moves otherwise, and a seed
    draws the tours of the tables it walks."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chesstours")
    except PackageNotFoundError:
        return "0+unknown"


def _check_seed(seed: object) -> int:
    seed = check_seed(seed)
    if seed < 0:
        raise InvalidArgument(f"The seed of the draws is a whole number, 0 or more, not {seed}.")
    return seed


def _check_n(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise InvalidArgument(f"The number of tours to draw is a whole number, 0 or more, not {n!r}.")
    return int(n)


def _turns(board: Board, closed: bool, s: int | None, e: int | None) -> int:
    """The directed tours of each tour the sweep counts: 2 where the direction is free, else 1."""
    if board.free_count == 1:
        return 1
    if closed:
        return 1 if s is not None and e is not None else 2
    return 2 if s is None and e is None else 1


@dataclass
class _Question:
    """One question of :func:`sample_tours` or :func:`tour_statistics`, parsed and checked."""

    board: Board
    piece: Leaper
    closed: bool
    s: int | None
    e: int | None
    deadline: float | None
    progress: Callable | None

    def check(self) -> None:
        """Refuse a question with no tour by theory, or whose tables would not fit here."""
        if self.board.free_count == 1:
            if self.closed:
                raise NoTour(f"A closed tour of {self.board} needs more than one square.", "theorem")
            return
        reason = obstruction(self.board, self.piece, self.s, self.e, self.closed)
        if reason is not None:
            raise reason
        why = _forecast(self.board, self.piece, self.closed, self.s, self.e).refusal
        if why is not None:
            raise InvalidArgument(why)

    def layers(self):
        from .frontier.sampling import build_layers

        fs, fe = _sweep_squares(self.closed, self.s, self.e)
        if self.closed and fs is not None and fe is not None:
            from .frontier.plan import neighbours

            if fe not in neighbours(self.board, self.piece)[fs]:
                raise NoTour(f"No closed tour goes from {self.board.name(fs)} to {self.board.name(fe)}: a closed "
                             "tour's last square leaps back to its first, and these two are not a move apart.",
                             "theorem")
        try:
            return build_layers(self.board, self.piece, self.closed, fs, fe, deadline=self.deadline,
                                progress=self.progress)
        except MemoryError:
            raise ResourceError(f"The tables of {self.board} did not fit in this machine's memory; sample a "
                                "smaller board.") from None

    def words(self) -> str:
        """The question in words, as the saved tables say it (``chesstours cache``)."""
        ends = "".join(f" {w} {self.board.name(v)}" for w, v in (("from", self.s), ("to", self.e)) if v is not None)
        kind = "closed tours" if self.closed else "open tours"
        return f"{self.board}, {self.piece.name} ({self.piece.a},{self.piece.b}), {kind}{ends}"

    def saved(self) -> str | None:
        """The file of this question's tables in the tables cache, or None where there is no cache folder."""
        from .frontier.sampling import TABLES_FORMAT
        from .runtime import tables_cache_dir

        folder = tables_cache_dir()
        if folder is None:
            return None
        fs, fe = _sweep_squares(self.closed, self.s, self.e)
        key = json.dumps([TABLES_FORMAT, _version(), self.board.rows, self.board.cols, sorted(self.board.holes),
                          [self.piece.a, self.piece.b], self.closed, fs, fe])
        digest = hashlib.sha256(key.encode()).hexdigest()[:20]
        return os.path.join(folder, f"{self.board.rows}x{self.board.cols}-{digest}.npz")

    def tables(self, cache: bool):
        """The walk's tables: from the tables cache where ``cache`` allows and they are there, else built (and
        then saved there, where a folder can be written: one that cannot is no cache)."""
        from .frontier.sampling import load_tables, save_tables, tables

        path = self.saved() if cache else None
        if path is not None and os.path.exists(path):
            found = load_tables(path)
            if found is not None:
                return found
        tabs = tables(self.layers())
        if path is not None and tabs.count and tabs.weight.dtype != object:
            try:
                save_tables(tabs, path, self.words())
            except OSError:
                pass  # a cache that cannot be written is no cache
        return tabs

    def none_found(self) -> NoTour:
        ends = []
        if self.s is not None:
            ends.append(f"from {self.board.name(self.s)}")
        if self.e is not None:
            ends.append(f"to {self.board.name(self.e)}")
        kind = "closed tour" if self.closed else "tour"
        where = f" {' '.join(ends)}" if ends else ""
        return NoTour(f"No {kind} of the {self.piece.name} on {self.board}{where}: the frontier count found none.",
                      "exhaustive")


def _question(board, start, end, closed, piece, holes, time_limit, progress) -> _Question:
    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    check_limits(time_limit)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    q = _Question(board, piece, bool(closed), s, e, deadline, progress)
    q.check()
    return q


def sample_tours(
    board: Board | str,
    n: int,
    *,
    seed: int = 0,
    closed: bool = False,
    start: int | str | None = None,
    end: int | str | None = None,
    holes: Holes = (),
    piece: Leaper | str = KNIGHT,
    time_limit: float | None = None,
    progress: Callable | None = None,
    cache: bool = True,
) -> list[Tour]:
    """Draw ``n`` tours of ``piece`` over ``board``, each tour equally likely.

    Parameters
    ----------
    board : Board, str or (rows, cols)
        The board, as for :func:`~chesstours.find_tour`.
    n : int
        Tours to draw: independent draws, with replacement (a tour may come twice).
    seed : int
        Seed of the draws (a :func:`numpy.random.default_rng`): the same seed
        draws the same tours.
    time_limit : float, optional
        Seconds for building the tables; :class:`~chesstours.errors.LimitReached` when they run out.
    progress : callable, optional
        Called with a :class:`~chesstours.frontier.FrontierProgress` after each step of the tables.
    closed : bool
        Closed tours: from ``start`` (else from a1 or the first free square, or to
        ``end`` where only that is given), walked either way; with both ends, the
        closed tours whose last square is ``end``.
    start : int or str, optional
        First square of the tours. The tours drawn from are the directed tours
        :func:`~chesstours.count_tours` counts: open tours with their direction.
    end : int or str, optional
        Last square of the tours.
    holes : iterable of int or str, optional
        Squares removed from the board.
    piece : Leaper or str
        The leaper (default the knight).
    cache : bool
        Keep the tables in the user's cache folder (:func:`~chesstours.runtime.tables_cache_dir`) and read them
        from there the next time the same question is asked: the next draws start at once. False: build
        them here and keep nothing.

    Returns
    -------
    list of Tour
        Validated; ``tour.stats`` holds ``rank`` (the tour's number among all
        of them, in the tables' order) and ``tours`` (how many there are).

    Raises
    ------
    NoTour
        The board has no such tour.
    InvalidArgument
        Bad input, or the tables would not fit in memory here
        (:func:`forecast_tables` says what they cost).
    LimitReached
        ``time_limit`` ran out while the tables were built.

    Notes
    -----
    The tables are those of a frontier count (:mod:`chesstours.frontier.sampling`),
    so a question is sampled where the frontier method counts it in one sweep.
    """
    n = _check_n(n)
    seed = _check_seed(seed)
    q = _question(board, start, end, closed, piece, holes, time_limit, progress)
    need = n * (q.board.free_count * TOUR_SQUARE_BYTES + TOUR_BYTES)
    if need > memory_limit():
        raise InvalidArgument(f"{n:,} tours of {q.board} would take about {format_bytes(need)} of memory, more than "
                              f"the {format_bytes(memory_limit())} a job may use here; draw fewer at a time.")
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    if q.board.free_count == 1:
        v = int(q.board.free_squares[0])
        return [Tour(q.board, q.piece, np.array([v], np.int32), False, "frontier sample",
                     {"rank": 0, "tours": 1}).validated() for _ in range(n)]
    from .frontier.sampling import draw, paths, ranks

    tabs = q.tables(cache)
    if tabs.count == 0:
        raise q.none_found()
    turns = _turns(q.board, q.closed, q.s, q.e)
    total = turns * tabs.count
    picks = ranks(rng, total, n)
    which = picks // turns
    turn = (picks % turns).astype(np.int64)
    chosen = draw(tabs, which)
    if q.closed:
        first = q.s if q.s is not None else (q.e if q.e is not None else policy.default_start(q.board))
        away = q.e if q.s is not None and q.e is not None else -1
        out = paths(tabs, chosen, q.board.size, q.board.free_count, first, away, turn)
        if q.s is None and q.e is not None:
            out = np.roll(out, -1, axis=1)  # from the square after the end, so that the tour ends there
    else:
        out = paths(tabs, chosen, q.board.size, q.board.free_count, -1 if q.s is None else q.s,
                    -1 if q.e is None else q.e, turn)
    seconds = time.perf_counter() - t0
    return [Tour(q.board, q.piece, out[k], q.closed, "frontier sample",
                 {"rank": int(picks[k]), "tours": total, "seconds": seconds}).validated() for k in range(n)]


def saved_tables() -> list[tuple[str, str, int]]:
    """The tables in the tables cache: ``(file, question in words, bytes)`` for each."""
    from .frontier.sampling import saved_question
    from .runtime import tables_cache_dir

    folder = tables_cache_dir()
    if folder is None:
        return []
    out = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".npz"):
            out.append((path, saved_question(path) or "(unreadable)", os.path.getsize(path)))
    return out


def clear_saved_tables() -> int:
    """Remove every table of the tables cache; the bytes freed."""
    freed = 0
    for path, _, size in saved_tables():
        try:
            os.remove(path)
            freed += size
        except OSError:
            pass
    return freed


@dataclass
class TourStatistics:
    """Exact statistics of every tour of a question (:func:`tour_statistics`).

    ``undirected`` and ``directed`` count the tours as
    :func:`~chesstours.count_tours` does; ``edges[(u, v)]`` (``u < v``) is
    the number of tours (undirected: paths or cycles) that take the move
    between squares ``u`` and ``v``; ``starts[v]`` and ``ends[v]``, for open
    tours, the number of directed tours that start and that end on ``v``.
    """

    board: Board
    piece: Leaper
    closed: bool
    start: int | None
    end: int | None
    undirected: int
    directed: int
    edges: dict[tuple[int, int], int]
    starts: dict[int, int]
    ends: dict[int, int]
    seconds: float
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready dict (``chesstours stats --json``): every number an exact integer."""
        name = self.board.name
        out = {**query_json(self.board, self.piece, self.closed, self.start, self.end),
               "undirected": self.undirected, "directed": self.directed,
               "edges": [{"squares": [name(u), name(v)], "tours": n} for (u, v), n in sorted(self.edges.items())]}
        if not self.closed:
            out["starts"] = {name(v): n for v, n in sorted(self.starts.items())}
            out["ends"] = {name(v): n for v, n in sorted(self.ends.items())}
        out["seconds"] = round(self.seconds, 6)
        return out


def tour_statistics(
    board: Board | str,
    *,
    closed: bool = False,
    start: int | str | None = None,
    end: int | str | None = None,
    holes: Holes = (),
    piece: Leaper | str = KNIGHT,
    time_limit: float | None = None,
    progress: Callable | None = None,
) -> TourStatistics:
    """Count, over every tour at once, the tours that take each move and (open tours) that start on each square.

    Parameters are those of :func:`sample_tours`. Each closed tour takes as
    many moves as the board has squares, each open tour one fewer, so the
    edge counts add up to that many times ``undirected``; the starts add up
    to ``directed``.

    Raises
    ------
    NoTour, InvalidArgument, LimitReached
        As for :func:`sample_tours`.
    """
    q = _question(board, start, end, closed, piece, holes, time_limit, progress)
    t0 = time.perf_counter()
    b = q.board
    if b.free_count == 1:
        v = int(b.free_squares[0])
        return TourStatistics(b, q.piece, False, q.s, q.e, 1, 1, {}, {v: 1}, {v: 1}, time.perf_counter() - t0)
    from .frontier.sampling import completions, edge_tours

    layers = q.layers()
    counts = completions(layers)
    count = int(counts[0][0])
    if count == 0:
        raise q.none_found()
    edges = edge_tours(layers, counts)
    directed = _turns(b, q.closed, q.s, q.e) * count
    starts: dict[int, int] = {}
    finishes: dict[int, int] = {}
    if not q.closed:
        through = {int(v): 0 for v in b.free_squares}
        for (u, v), k in edges.items():
            through[u] += k
            through[v] += k
        # every path passes through every square: twice, less once where it ends there
        ends = {v: 2 * count - k for v, k in through.items()}
        others = {v: 0 if v in (q.s, q.e) else k for v, k in ends.items()}  # the ends that were not given
        if q.s is not None:  # every directed tour starts there, and ends on its other end
            starts = {v: count if v == q.s else 0 for v in through}
            finishes = {v: count if v == q.e else 0 for v in through} if q.e is not None else others
        elif q.e is not None:  # each ends there, so it starts on its other end
            starts, finishes = others, {v: count if v == q.e else 0 for v in through}
        else:  # each path both ways: as many tours end on a square as start there
            starts, finishes = ends, dict(ends)
    return TourStatistics(b, q.piece, q.closed, q.s, q.e, count, directed, edges, starts, finishes,
                          time.perf_counter() - t0, {"states": layers.states, "moves": layers.moves})
