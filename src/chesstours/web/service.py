"""The calls the web api makes into the library, one function per question.

Each function takes parsed arguments, calls the public api and returns the
JSON the command line prints for the same question; it runs in a worker
thread or process (see :mod:`chesstours.web.limits`) and raises the library's errors,
which the app turns into HTTP answers. Nothing here searches: the searching
is the library's. The functions and their arguments pickle, for the slow
lane's worker processes (:mod:`chesstours.web.workers`).
"""

from __future__ import annotations

import json
import threading
import time
import zlib
from collections import OrderedDict

from .. import policy
from ..arguments import check_limits, prepare_query
from ..bishop.route import resolve_end
from ..bishop.solve import bishop_obstruction, count_bishop_routes, iter_bishop_routes, solve_bishop
from ..board import Board
from ..complete import complete_tour, parse_path
from ..count import count_tours
from ..errors import ChessToursError, GaveUp, InvalidArgument, LimitReached, NoTour
from ..exists import Existence, tour_exists
from ..find import find_tour
from ..pieces import Leaper, move_table
from ..runtime import use_compiled_only
from ..trace import trace_search
from ..units import about_duration, format_bytes
from .limits import OverLimit

__all__ = ["bishop", "bishop_count", "bishop_routes", "board_moves", "count", "count_plan", "existence", "heat_picture",
           "no_route", "no_tour", "or_no_route", "refused", "sample", "statistics", "tables_answer",
           "tables_refusal", "tour", "tour_or_none", "trace", "warm_up", "NO_TOUR_HOW"]


def tour(
    board: Board,
    piece: Leaper,
    start: str | None,
    end: str | None,
    closed: bool,
    method: policy.FindMethod,
    tiebreak: policy.Tiebreak | None,
    seed: int,
    order: policy.Order,
    played: str | None,
    time_limit: float,
) -> dict:
    """One tour, as ``chesstours tour ... --format json`` prints it.

    With ``played`` (comma-separated squares), a tour that begins with those
    moves (:func:`~chesstours.complete_tour`). Its picture is drawn apart
    (:mod:`chesstours.web.drawing`).
    """
    if played is None:
        found = find_tour(board, start, end, closed, piece, method, tiebreak=tiebreak, seed=seed, order=order,
                          time_limit=time_limit)
    else:
        path = parse_path(board, played)
        if start is not None and board.square(start) != path[0]:
            raise InvalidArgument(
                f"The played path starts on {board.name(path[0])}, not on the start square {start.strip()}."
            )
        if method == "warnsdorff":
            raise InvalidArgument("A played path is finished by backtracking; use the method auto or backtrack.")
        found = complete_tour(board, path, end, closed, piece, order=order, time_limit=time_limit)
    return found.to_dict()



NO_TOUR_HOW = {
    "colour": "Counting the squares of each colour rules it out: a knight's move always changes colour.",
    "connectivity": "Some square cannot be reached, or the board falls apart into pieces a knight cannot join.",
    "theorem": "A theorem settles it: mathematicians proved which boards have tours.",
    "exhaustive": "Every possible path was tried, and none visits every square.",
    "heuristic": "The method chosen (Warnsdorff's rule, a quick rule of thumb) ran into a dead end; a tour may still "
                 "exist: the method auto or backtracking finds one whenever there is one.",
}


def no_tour(exc: NoTour | GaveUp, board: Board, start: str | None, end: str | None, closed: bool) -> dict:
    """The answer of ``/api/tour`` when it finds no tour: an answer (200), not an error.

    ``found`` is false, ``reason`` the sentence ``chesstours tour`` prints, ``proof`` how it is known
    (``colour``, ``connectivity``, ``theorem``, ``exhaustive``; ``heuristic`` when the method chosen gave up,
    which does not mean that none exists) and ``how`` that proof in plain words.
    """
    def named(square: str | None) -> str | None:  # "A1 " -> "a1", as the library names it
        return None if square is None else board.name(board.square(square))

    return {"found": False, "board": board.spec(), "start": named(start), "end": named(end), "closed": closed,
            "reason": exc.reason, "proof": exc.proof, "how": NO_TOUR_HOW.get(exc.proof, ""), "nodes": exc.nodes}


def tour_or_none(board: Board, piece: Leaper, start: str | None, end: str | None, closed: bool,
                 method: policy.FindMethod, tiebreak: policy.Tiebreak | None, seed: int, order: policy.Order,
                 prefix: str | None, seconds: float) -> dict:
    """:func:`tour`, or the answer that there is none (:func:`no_tour`)."""
    try:
        return tour(board, piece, start, end, closed, method, tiebreak, seed, order, prefix, seconds)
    except (NoTour, GaveUp) as exc:
        return no_tour(exc, board, start, end, closed)


def count(
    board: Board,
    piece: Leaper,
    start: str | None,
    end: str | None,
    closed: bool,
    time_limit: float,
    workers: int,
) -> dict:
    """Exact counts, as ``chesstours count ... --json`` prints them.

    The count is planned by :func:`chesstours.policy.plan_count` with this
    server's time limit as the longest it may be expected to take: a count
    planned to outlast it is refused before it starts (:class:`OverLimit`).
    """
    check_limits(time_limit, None)
    board, piece, s, e = prepare_query(board, start, end, piece)
    plan = _count_plan(board, piece, s, e, closed, time_limit, workers)
    refusal = _refusal(plan, board, time_limit)
    if refusal is not None:
        raise OverLimit(refusal)
    method: policy.CountMethod = "frontier" if plan.method == "frontier" else \
        "backtrack" if plan.method == "backtrack" else "auto"
    return count_tours(board, s, e, closed, piece, method, time_limit=time_limit, workers=workers).to_dict()


def count_plan(
    board: Board,
    piece: Leaper,
    start: str | None,
    end: str | None,
    closed: bool,
    time_limit: float,
    workers: int,
) -> dict:
    """Would :func:`count` count this here? ``{"countable", "reason", "seconds", "method"}``, without counting.

    ``reason`` is the sentence :func:`count` would refuse with (null when it would count), ``seconds``
    the plan's estimate where it has one, ``method`` the method planned.
    """
    check_limits(time_limit, None)
    board, piece, s, e = prepare_query(board, start, end, piece)
    plan = _count_plan(board, piece, s, e, closed, time_limit, workers)
    refusal = _refusal(plan, board, time_limit)
    return {"countable": refusal is None, "reason": refusal, "seconds": plan.seconds,
            "method": plan.method if refusal is None else None}


def _count_plan(board: Board, piece: Leaper, s: int | None, e: int | None, closed: bool, time_limit: float,
                workers: int) -> policy.Plan:
    return policy.plan_count(board, piece, s, e, closed, "auto", time_limit=time_limit, workers=workers,
                             refuse_above=time_limit)


def _refusal(plan: policy.Plan, board: Board, time_limit: float) -> str | None:
    """Why a count of ``plan`` is refused here, or None when it may run."""
    if plan.refusal is None:
        return None
    if plan.seconds is not None and plan.seconds > time_limit:
        return (f"Counting the tours of {board} would take {about_duration(plan.seconds)} here, more than "
                f"this server's {time_limit:g}-second limit; the command line has none "
                f"(chesstours count {board.rows}x{board.cols}).")
    return plan.refusal


def existence(
    board: Board,
    piece: Leaper,
    start: str | None,
    end: str | None,
    closed: bool,
    time_limit: float,
) -> dict:
    """Does a tour exist, and how is it known? What ``chesstours exists ... --certificate --json`` prints.

    The answer is :func:`~chesstours.tour_exists`'s, with a tour as its
    certificate whenever the answer is yes.

    :raises LimitReached: when ``time_limit`` runs out before an answer (its
        ``partial`` is the unknown :class:`~chesstours.Existence`), so that the
        question can be asked again with more time.
    """
    found = tour_exists(board, start, end, closed, piece, certificate=True, time_limit=time_limit)
    if found.answer is None:
        raise LimitReached(found.reason, partial=found)
    return found.to_dict()


def unknown(exc: LimitReached) -> dict:
    """The answer of :func:`existence` when the time ran out first: ``exists`` is null."""
    if isinstance(exc.partial, Existence):
        return exc.partial.to_dict()
    return {"exists": None, "proof": "limit", "reason": f"Unknown: {exc}", "tour": None}


#: Move tables kept as JSON, the last asked for last (a few hundred kilobytes each at most).
BOARD_ANSWERS = 16
_board_answers: OrderedDict[tuple[Board, Leaper], tuple[bytes, bytes]] = OrderedDict()
_board_answers_lock = threading.Lock()


def board_moves_json(board: Board, piece: Leaper, gzipped: bool = False) -> bytes:
    """:func:`board_moves` as JSON, or (``gzipped``) that JSON compressed with gzip; the last
    :data:`BOARD_ANSWERS` boards asked for are kept both ways (:func:`known_board_moves`), so a flood of
    one board costs one answer, and no compression each time."""
    known = known_board_moves(board, piece, gzipped)
    if known is not None:
        return known
    body = json.dumps(board_moves(board, piece), separators=(",", ":")).encode()
    compressor = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    both = body, compressor.compress(body) + compressor.flush()
    with _board_answers_lock:
        _board_answers[board, piece] = both
        while len(_board_answers) > BOARD_ANSWERS:
            _board_answers.popitem(last=False)
    return both[gzipped]


def known_board_moves(board: Board, piece: Leaper, gzipped: bool = False) -> bytes | None:
    """What :func:`board_moves_json` answered for ``board`` and ``piece``, if it is still kept; else None.
    Made for the event loop: it looks up, and builds nothing."""
    with _board_answers_lock:
        both = _board_answers.get((board, piece))
        if both is None:
            return None
        _board_answers.move_to_end((board, piece))
        return both[gzipped]


def board_moves(board: Board, piece: Leaper) -> dict:
    """The board and its move table: what the page needs to let a player move.

    ``moves[v]`` lists the squares one leap from square ``v`` (``v = row * cols
    + col``, row 0 is rank 1), holes excluded; ``names[v]`` is the name of ``v``.
    """
    table = move_table(board, piece)
    return {
        "board": board.spec(),
        "piece": piece.spec(),
        "names": board.names(range(board.size)),
        "moves": [[int(u) for u in row if u >= 0] for row in table],
    }


def warm_up(compiled_only: bool = False) -> None:
    """Load the compiled kernels (from numba's cache, or compile them) before the first visitor needs them.

    Small queries start in plain Python and would not load them, so the kernels are loaded outright;
    with ``compiled_only`` (a server in a process of its own, or a worker process of its slow lane),
    small queries then run compiled too.
    """
    # The library's own functions, not this module's names for them: a test that stands in for a search
    # through this module leaves the warm-up alone.
    from ..backtrack.search import load_kernels
    from ..bishop.search import load_kernels as load_bishop_kernels
    from ..count import count_tours, estimate_count
    from ..find import find_tour
    from ..sample import tour_statistics

    load_kernels()
    load_bishop_kernels()
    try:
        find_tour("6x6", closed=True, method="backtrack", time_limit=60)
        find_tour("5x5", method="warnsdorff")
        estimate_count("5x5")
        count_tours("5x5", start="a1", workers=1)
        tour_statistics("3x4")  # the kernels of the frontier's tables (random tours, statistics)
        if compiled_only:
            # From here on, every search and walk runs compiled (the construction's loops are loaded by the
            # tour after): plain Python would hold the interpreter lock that the event loop needs.
            use_compiled_only()
            find_tour("5x5", method="warnsdorff")
            find_tour("10x10", end="a2", method="construct")
    except ChessToursError:  # pragma: no cover - a warm-up never fails a server
        pass


# -- the bishop puzzle -------------------------------------------------------------


def bishop(board: Board, start: str, end: str, shortest: bool, time_limit: float, method: str = "auto") -> dict:
    """One bishop route, as ``chesstours bishop BOARD ... --method METHOD --format json`` prints it.

    :raises NoTour: when no route exists; :raises LimitReached: when ``time_limit`` runs out
        (with ``shortest``, its ``partial`` is the route with the fewest slides found so far).
    """
    return solve_bishop(board, start, end, shortest, method=method, time_limit=time_limit).to_dict()  # type: ignore[arg-type]


def bishop_routes(board: Board, start: str, end: str, shortest: bool, limit: int, time_limit: float,
                  keep_partial: bool = True) -> dict:
    """Up to ``limit`` bishop routes in the Delphi program's move order (``chesstours bishop ... --limit K --format json``).

    Returns ``{"board", "start", "end", "routes": [route, ...], "listed", "complete"}``;
    ``complete`` is true when no other route exists, false when there are more
    (or the time ran out after some were listed: ``stopped`` then says so).

    :raises NoTour: when there is no route; :raises LimitReached: when the time runs out before the
        first (or at all, without ``keep_partial``).
    """
    routes: list[dict] = []
    complete, stopped = True, None
    try:
        for route in iter_bishop_routes(board, start, end, shortest, time_limit=time_limit):
            if len(routes) == limit:
                complete = False
                break
            routes.append(route.to_dict())
    except LimitReached as exc:
        if not routes or not keep_partial:
            raise
        complete, stopped = False, f"{exc} ({len(routes)} listed)"
    if not routes:
        s = board.square(start)
        e = resolve_end(board, s, end)
        reason = bishop_obstruction(board, s, e)
        if reason is not None:
            raise reason
        raise NoTour(f"No bishop route from {board.name(s)} visits every square of its colour on {board}: an "
                     f"exhaustive search found none.", proof="exhaustive")
    first = routes[0]
    return {"board": first["board"], "start": first["start"], "end": first["end"], "routes": routes,
            "listed": len(routes), "complete": complete, "stopped": stopped}


def bishop_count(board: Board, start: str, end: str, shortest: bool, time_limit: float) -> dict:
    """Exact count of bishop routes, as ``chesstours bishop ... --count --json`` prints it.

    :raises LimitReached: when ``time_limit`` runs out; its ``partial`` is what was counted.
    """
    return count_bishop_routes(board, start, end, shortest, time_limit=time_limit).to_dict()


# -- the search trace ----------------------------------------------------------------


def trace(
    board: Board,
    piece: Leaper,
    start: str,
    end: str | None,
    closed: bool,
    method: str,
    order: policy.Order,
    tiebreak: policy.Tiebreak,
    seed: int,
    steps: int,
    time_limit: float,
    keep_partial: bool = True,
) -> dict:
    """The first ``steps`` events of a search, as :func:`~chesstours.trace.trace_search` records them.

    Returns ``{"board", "piece", "start", "end", "closed", "method", "order",
    "tiebreak", "events": [event, ...], "complete", "stopped"}``; each event is
    :meth:`TraceEvent.to_dict`. ``complete`` is true when the search ended
    within the events returned; ``stopped`` is ``"steps"`` or ``"time"`` when
    it was cut short there (the time limit keeps what was traced so far, or,
    without ``keep_partial``, raises :class:`LimitReached` so that the trace can
    be made again with more time in the slow lane).
    """
    check_limits(time_limit, None)
    deadline = time.perf_counter() + time_limit
    events = trace_search(board, start, end, closed, piece, method, order=order, tiebreak=tiebreak, seed=seed)
    shown: list[dict] = []
    stopped = None
    for event in events:
        if len(shown) == steps:
            stopped = "steps"
            break
        shown.append(event.to_dict(board))
        if time.perf_counter() > deadline:
            if not keep_partial:
                raise LimitReached(f"The trace took longer than {time_limit:g} s.")
            stopped = "time"
            break
    return {
        "board": board.spec(),
        "piece": piece.spec(),
        "start": shown[0]["square"],
        "end": end.strip() if end else None,
        "closed": closed,
        "method": method,
        "order": order if method == "backtrack" else None,
        "tiebreak": tiebreak if method == "warnsdorff" else None,
        "events": shown,
        "complete": stopped is None,
        "stopped": stopped,
    }


# -- random tours and statistics of all tours -----------------------------------------


def tables_refusal(board: Board, piece: Leaper, start: str | None, end: str | None, closed: bool, seconds: float,
                   memory: int) -> str | None:
    """Why the frontier tables of a question (:func:`~chesstours.sample.forecast_tables`) are not built here,
    or None where they may be.

    They are refused where the library refuses them and where the plan's forecast is over ``seconds`` or
    ``memory`` bytes. A question with no tour by theory is not refused here: the library answers it at once,
    with how it is known (:class:`~chesstours.errors.NoTour`).
    """
    from ..sample import forecast_tables

    plan = forecast_tables(board, start, end, closed, piece)
    if plan.refusal is not None:
        return None if plan.states == 0 else plan.refusal
    if plan.seconds > seconds or plan.memory_bytes > memory:
        return (f"The tables of every tour of {board} would take {about_duration(plan.seconds)} and about "
                f"{format_bytes(plan.memory_bytes)} to build, more than this server's {seconds:g} seconds and "
                f"{format_bytes(memory)}; the command line has no such limit "
                f"(chesstours sample or stats {board.rows}x{board.cols}{' --closed' if closed else ''}).")
    return None


def sample(board: Board, piece: Leaper, start: str | None, end: str | None, closed: bool, seed: int,
           time_limit: float) -> dict:
    """One uniformly random tour, as ``chesstours sample BOARD -n 1 --seed SEED --format json`` prints it.

    The tables are built for this request and not kept (``cache=False``): a server does not fill its user's
    cache folder with the tables of every question asked of it.
    """
    from ..sample import sample_tours

    found = sample_tours(board, 1, seed=seed, closed=closed, start=start, end=end, piece=piece,
                         time_limit=time_limit, cache=False)[0]
    return {**found.to_dict(), "seed": seed}


def statistics(board: Board, piece: Leaper, start: str | None, end: str | None, closed: bool, time_limit: float,
               heat: bool = False) -> dict:
    """The statistics of every tour, as ``chesstours stats BOARD --json`` prints them; with ``heat``, also the
    heat map of ``chesstours stats -o heat.svg`` as the text ``heat_svg``."""
    from ..render.heat import heat_map
    from ..sample import tour_statistics

    stats = tour_statistics(board, closed=closed, start=start, end=end, piece=piece, time_limit=time_limit)
    out = stats.to_dict()
    if heat:
        out["heat_svg"] = heat_map(stats, "svg").decode()
    return out


def heat_picture(board: Board, piece: Leaper, start: str | None, end: str | None, closed: bool, time_limit: float,
                 fmt: str) -> bytes:
    """The heat map of every tour (``chesstours stats -o heat.svg``), as ``svg`` or ``png`` bytes."""
    from ..render.heat import heat_map
    from ..sample import tour_statistics

    stats = tour_statistics(board, closed=closed, start=start, end=end, piece=piece, time_limit=time_limit)
    return heat_map(stats, fmt)


def no_route(exc: NoTour, board: Board, start: str, end: str) -> dict:
    """The answer when no bishop route exists: an answer (200), not an error, as ``/api/tour``'s "no tour" is.

    ``found`` is false, ``reason`` the sentence ``chesstours bishop`` prints, ``proof`` how it is known and
    ``how`` that proof in plain words.
    """
    return {"found": False, "board": board.spec(), "start": start, "end": end, "reason": exc.reason,
            "proof": exc.proof, "how": NO_TOUR_HOW.get(exc.proof, ""), "nodes": exc.nodes}


def or_no_route(fn, board: Board, start: str, end: str, *args, **kwargs) -> dict:
    """``fn(*args, **kwargs)``, or :func:`no_route` where it raises :class:`NoTour` (it pickles when ``fn``
    does, for the slow lane's processes)."""
    try:
        return fn(*args, **kwargs)
    except NoTour as exc:
        return no_route(exc, board, start, end)


def refused(board: Board, start: str | None, end: str | None, closed: bool, reason: str) -> dict:
    """The answer of a question whose tables are not built here: an answer (200), not an error."""
    return {"found": False, "board": board.spec(), "start": start, "end": end, "closed": closed, "reason": reason,
            "proof": "limit", "how": "Not worked out here: this server builds the tables of every tour only "
                                     "where that is quick.", "nodes": 0}


def tables_answer(fn, board: Board, piece: Leaper, start: str | None, end: str | None, closed: bool,
                  *args) -> dict:
    """``fn(board, piece, start, end, closed, *args)`` (:func:`sample` or :func:`statistics`), or the answer
    that there is no tour, or that the time limit ran out first; it pickles, for the slow lane's processes."""
    try:
        return fn(board, piece, start, end, closed, *args)
    except (NoTour, GaveUp) as exc:
        return no_tour(exc, board, start, end, closed)
    except LimitReached as exc:
        return refused(board, start, end, closed, str(exc))
