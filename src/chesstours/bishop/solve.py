"""The bishop puzzle's api: find, list and count routes, or the route with the fewest slides.

The puzzle and the methods are explained in :mod:`chesstours.bishop`; how
``solve_bishop`` chooses among them, and which counts are refused, in
:mod:`chesstours.bishop.methods`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..arguments import check_limits
from ..board import Board, Holes
from ..errors import InvalidArgument, LimitReached, NoTour
from ..runtime import PlainAllowance, plain_allowance
from ..status import Status
from .methods import BishopMethod, check_method, count_refusal
from .route import COLOUR_NAMES, BishopRoute, resolve_end
from .theory import bishop_obstruction

__all__ = ["solve_bishop", "iter_bishop_routes", "count_bishop_routes", "BishopCount", "bishop_obstruction"]

#: Steps per kernel call between checks of the clock (a few hundredths of a second).
_CHUNK = 1 << 18


@dataclass
class BishopCount:
    """An exact count of bishop routes (or, when ``complete`` is False, what was counted before a stop)."""

    board: Board
    start: int
    end: str
    end_square: int
    count: int
    nodes: int
    seconds: float
    complete: bool = True
    method: str = "backtrack"
    slides: int | None = None
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready dict (the CLI's ``bishop --count --json``)."""
        b = self.board
        out = {
            "board": f"{b.rows}x{b.cols}",
            "holes": b.names(sorted(b.holes)),
            "start": b.name(self.start),
            "end": self.end,
            "end_square": None if self.end_square < 0 else b.name(self.end_square),
            "count": self.count,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "complete": self.complete,
            "method": self.method,
        }
        if self.slides is not None:
            out["slides"] = self.slides
        out.update(self.extra)
        return out


def _prepare(board, start, end, holes) -> tuple[Board, int, str, int]:
    board = Board.parse(board, holes)
    s = board.square(start)
    if isinstance(end, str):
        end = end.strip()
        rule = end.lower() if end.lower() in ("opposite", "any") else end
    else:
        rule = board.name(board.square(end))
    e = resolve_end(board, s, rule)
    if e >= 0 and rule not in ("opposite", "any"):
        rule = board.name(e)
    return board, s, rule, e


def _run(search, deadline, node_limit, stop_at_route: bool, progress=None) -> str:
    """Run ``search`` in chunks; return "found", "exhausted", "time" or "nodes".

    The clock is read before every chunk, so a search that finds routes in quick
    succession stops at the deadline too.
    """
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            return "time"
        budget = _CHUNK
        if node_limit is not None:
            budget = min(budget, node_limit - search.nodes)
            if budget <= 0:
                return "nodes"
        status = search.run(budget, stop_at_route=stop_at_route)
        if progress is not None:
            progress(search)
        if status != Status.BUDGET:
            return status


def _route(board, search, rule, method, stats) -> BishopRoute:
    route = BishopRoute(board, search.steps(), rule, False, method, stats)
    route.validate()
    return route


def _constructed(board, s, rule, nodes, t0) -> BishopRoute | None:
    """The route of the billiard construction, checked; None when it cannot join the loops."""
    from .construct import construct_route

    built = construct_route(board, s)
    if built is None:
        return None
    steps, stats = built
    route = BishopRoute(board, steps, rule, False, "construct",
                        {"nodes": nodes, "seconds": time.perf_counter() - t0, **stats})
    route.validate()
    return route


def _searches(board: Board) -> PlainAllowance | None:
    """Where a query's searches run: plain Python first on a small board (the kernels are not
    loaded then), else the compiled kernels, loaded before the clock starts."""
    from .search import load_kernels

    plain = plain_allowance(board.size, kernels="chesstours.bishop.kernel")
    if plain is None:
        load_kernels()
    return plain


def _fewest_slides(board, s, e, rule, deadline, node_limit, plain) -> BishopRoute:
    """A route with the fewest slides (the first in move order among them), with its proof.

    Branch and bound: the search keeps each route it finds and goes on only
    for routes with fewer slides, cutting a branch when its slides plus the
    lines its unvisited squares need reach the best so far. When it is
    exhausted no route with fewer slides is left. Raises NoTour, or
    LimitReached with the best route so far (unproven) as ``partial``.
    """
    from .search import BishopSearch

    search = BishopSearch(board, s, e, minimize=True, plain=plain)
    status = _run(search, deadline, node_limit, False)
    steps = search.best_steps()
    best = BishopRoute(board, steps, rule, False, "shortest", {"nodes": search.nodes}) if steps.size else None
    if best is not None:
        best.validate()
    if status != Status.EXHAUSTED:
        what = ("before finding a route" if best is None else
                f"with a route of {best.slide_count} slides, not yet proved the fewest")
        exc = _limit(status, search.nodes, what)
        exc.partial, exc.nodes = best, search.nodes  # type: ignore[attr-defined]
        raise exc
    if best is None:
        raise NoTour(_no_route(board, s, e, search.nodes), proof="exhaustive", nodes=search.nodes)
    lower = search.lines_needed()
    k = best.slide_count
    if k == 0:
        proof = "the start is the only square to visit"
    elif k == lower:
        proof = f"the squares to visit lie on no fewer than {_lines(lower)}, one per slide at most"
    else:
        proof = (f"a branch-and-bound search of every route found none with fewer than {k} slides "
                 f"(the squares to visit need at least {_lines(lower)})")
    best.stats.update({"slides": k, "lower_bound": lower, "proof": proof})
    return best


def _lines(n: int) -> str:
    return f"{n} diagonal line{'' if n == 1 else 's'}"


def _no_route(board: Board, s: int, e: int, nodes: int) -> str:
    to = "" if e < 0 else f" to {board.name(e)}"
    colour = COLOUR_NAMES[board.colour(s)]
    return (f"No bishop route from {board.name(s)}{to} visits every {colour} square of "
            f"{board}: an exhaustive search of {nodes:,} steps found none.")


def _limit(status: str, nodes: int, what: str) -> LimitReached:
    which = "time" if status == Status.TIME else "node"
    return LimitReached(f"Stopped at the {which} limit after {nodes:,} steps {what}.",
                        partial={"nodes": nodes})


# -- find --------------------------------------------------------------------


def solve_bishop(
    board: Board | str,
    start: int | str = "a1",
    end: str | int = "opposite",
    shortest: bool = False,
    *,
    holes: Holes = (),
    method: BishopMethod = "auto",
    time_limit: float | None = None,
    node_limit: int | None = None,
) -> BishopRoute:
    """Return one bishop route; raise :class:`NoTour` if there is none.

    Parameters
    ----------
    board : Board or str
        A :class:`Board` or a size such as ``"8x8"``.
    start : int or str, optional
        First square, a name such as ``"a1"`` or an index.
    end : str or int, optional
        ``"opposite"``, ``"any"`` or a square. ``"opposite"``: the square opposite the start
        through the centre (the far corner from a corner; it needs rows + columns even).
        ``"any"``: stop as soon as every square of the start's colour is visited, as the Delphi
        program does. A square name: end there.
    shortest : bool, optional
        Return a route with the fewest slides, the first in the Delphi program's
        move order; ``stats["proof"]`` says why none has fewer.
    holes : iterable of int or str, optional
        Squares no route may use: names or indices, or one string such as ``"d4,e5"``.
    method : str, optional
        ``"auto"``, ``"backtrack"`` or ``"construct"``. ``backtrack``: the search in the Delphi
        program's move order, with random restarts beside it on large boards; ``construct``: the
        billiard construction (:mod:`chesstours.bishop.construct`), on whole boards with both
        sides even, from a corner to the opposite corner; ``auto``: the first route in the
        Delphi program's order when the search meets one within its first
        :data:`~chesstours.bishop.search.FIRST_ALONE` steps, else the construction where it
        applies, else the restarts (:mod:`chesstours.bishop.methods`). ``route.method`` says
        which answered: ``"backtrack"``, ``"restarts"`` or ``"construct"``.
    time_limit : float, optional
        Seconds; :class:`LimitReached` when they run out.
    node_limit : int, optional
        Most steps of the search; :class:`LimitReached` when they run out.

    Returns
    -------
    BishopRoute
        Validated; ``stats`` holds ``nodes`` (the search's steps) and
        ``seconds``; a constructed route adds ``loops`` and ``switches``.

    Raises
    ------
    NoTour
        No route exists (``proof``: ``"theory"`` or ``"exhaustive"``).
    LimitReached
        The time or node limit ran out first.
    InvalidArgument
        The end square has another colour than the start, a limit is not
        positive, or the construction does not apply (or cannot join the
        board's loops: 6 x 6).
    InvalidBoard
        ``board`` does not describe a board.
    InvalidSquare
        The start, the end or a hole is not on the board, or the start or end is a hole.

    Examples
    --------
    >>> solve_bishop("10x12").method, solve_bishop("12x12").method
    ('backtrack', 'construct')
    >>> route = solve_bishop("32x34"); route.method, route.step_count
    ('construct', 1023)
    """
    from .search import FIRST_ALONE, BishopSearch, first_route

    board, s, rule, e = _prepare(board, start, end, holes)
    check_limits(time_limit, node_limit)
    check_method(method)
    if shortest and method == "construct":
        raise InvalidArgument("The construction builds one route, not one with the fewest slides: ask for "
                              "shortest or for the construction, not both.")
    plain = _searches(board)
    if method == "construct":
        from . import construct  # numba loads with it: only when the construction is asked for or needed

        construct.load_kernels()
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    reason = bishop_obstruction(board, s, e)
    if reason is not None:
        raise reason
    if shortest:
        route = _fewest_slides(board, s, e, rule, deadline, node_limit, plain)
        route.stats["seconds"] = time.perf_counter() - t0
        return route
    if method == "construct":
        refusal = construct.construction_refusal(board, s, e)
        if refusal is not None:
            raise InvalidArgument(refusal)
        built = _constructed(board, s, rule, 0, t0)
        if built is None:
            raise InvalidArgument(f"The construction cannot join the billiard loops of {board} into one route; "
                                  f"the search (method backtrack) decides whether there is one.")
        return built
    search = BishopSearch(board, s, e, plain=plain)
    if method == "auto":
        # The first route in the Delphi program's order when the search meets one soon; else the construction
        # where it applies. (The search alone for FIRST_ALONE steps is how first_route begins in any case.)
        status = _run(search, deadline, FIRST_ALONE if node_limit is None else min(FIRST_ALONE, node_limit), True)
        if status == Status.FOUND:
            return _route(board, search, rule, "backtrack", {"nodes": search.nodes,
                                                             "seconds": time.perf_counter() - t0})
        if status == Status.NODES and search.nodes == FIRST_ALONE:
            from . import construct

            if construct.construction_refusal(board, s, e) is None:
                built = _constructed(board, s, rule, search.nodes, t0)
                if built is not None:
                    return built
    # Whatever is left -- no route yet, none proved, a limit reached -- the search with restarts settles.
    search, found, nodes, restarts = first_route(board, s, e, deadline, node_limit, main=search, plain=plain)
    if found == Status.FOUND:
        stats = {"nodes": nodes, "seconds": time.perf_counter() - t0}
        if restarts:
            stats["restarts"] = restarts
        return _route(board, search, rule, "backtrack" if not restarts else "restarts", stats)
    if found == Status.EXHAUSTED:
        raise NoTour(_no_route(board, s, e, nodes), proof="exhaustive", nodes=nodes)
    raise _limit(found, nodes, "without finding a route")


# -- iterate -----------------------------------------------------------------


def iter_bishop_routes(
    board: Board | str,
    start: int | str = "a1",
    end: str | int = "opposite",
    shortest: bool = False,
    *,
    holes: Holes = (),
    time_limit: float | None = None,
) -> Iterator[BishopRoute]:
    """Yield every route, lazily, in the Delphi program's move order, each one validated.

    With ``shortest``, only the routes with the fewest slides. Raises
    :class:`LimitReached` when ``time_limit`` runs out.

    >>> [r.slides_text() for r in iter_bishop_routes("2x6")]
    ['a1-b2-c1-d2-e1-f2']
    >>> sum(1 for _ in iter_bishop_routes("6x8")), sum(1 for _ in iter_bishop_routes("6x8", shortest=True))
    (8, 1)
    """
    from .search import BishopSearch

    board, s, rule, e = _prepare(board, start, end, holes)
    check_limits(time_limit, None)
    plain = _searches(board)
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    if bishop_obstruction(board, s, e) is not None:
        return
    slides = None
    if shortest:
        try:
            slides = _fewest_slides(board, s, e, rule, deadline, None, plain).slide_count
        except NoTour:
            return
    search = BishopSearch(board, s, e, max_slides=slides, plain=plain)
    method = "shortest" if shortest else "backtrack"
    while True:
        status = _run(search, deadline, None, True)
        if status == Status.FOUND:
            yield _route(board, search, rule, method, {"nodes": search.nodes})
        elif status == Status.EXHAUSTED:
            return
        else:
            raise LimitReached("The time limit ran out while listing routes.",
                               partial={"nodes": search.nodes})


# -- count -------------------------------------------------------------------


def count_bishop_routes(
    board: Board | str,
    start: int | str = "a1",
    end: str | int = "opposite",
    shortest: bool = False,
    *,
    holes: Holes = (),
    time_limit: float | None = None,
    node_limit: int | None = None,
    progress: Callable[[BishopCount], None] | None = None,
) -> BishopCount:
    """Count routes exactly (with ``shortest``: the routes with the fewest slides).

    On a time or node limit, :class:`LimitReached` is raised with the partial
    :class:`BishopCount` (``complete=False``) in its ``partial`` attribute; on
    Ctrl-C the KeyboardInterrupt carries it the same way. ``progress`` is
    called after every chunk of a quarter of a million steps.

    Without a time or node limit, a count that Knuth's estimate of the search
    says would take more than an hour is refused before it starts
    (:func:`chesstours.bishop.methods.count_refusal`): 10x10 counts in about
    13 s, 12x12 would take days. A limit lets any count run as far as it gets.

    :raises InvalidArgument: when the count is refused, with the estimate.

    >>> count_bishop_routes("12x12")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    chesstours.errors.InvalidArgument: Counting every bishop route of 12x12 would take about ...e+12 steps ...
    """
    from .search import BishopSearch

    board, s, rule, e = _prepare(board, start, end, holes)
    check_limits(time_limit, node_limit)
    plain = _searches(board)
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    reason = bishop_obstruction(board, s, e)
    if reason is not None:
        return BishopCount(board, s, rule, e, 0, 0, time.perf_counter() - t0, method="theory",
                           extra={"reason": reason.reason})
    if not shortest and time_limit is None and node_limit is None:
        refusal = count_refusal(board, BishopSearch(board, s, e))
        if refusal is not None:
            raise InvalidArgument(refusal)
    slides, extra, spent = None, {}, 0
    if shortest:
        try:
            best = _fewest_slides(board, s, e, rule, deadline, node_limit, plain)
        except NoTour as exc:
            return BishopCount(board, s, rule, e, 0, exc.nodes, time.perf_counter() - t0)
        except LimitReached as exc:
            nodes = getattr(exc, "nodes", 0)
            seconds = time.perf_counter() - t0
            exc.partial = BishopCount(board, s, rule, e, 0, nodes, seconds, False, "shortest")
            raise
        slides, spent = best.slide_count, best.stats["nodes"]
        extra = {"lower_bound": best.stats["lower_bound"], "proof": best.stats["proof"]}
    search = BishopSearch(board, s, e, max_slides=slides, plain=plain)

    def partial(complete: bool) -> BishopCount:
        return BishopCount(board, s, rule, e, search.count, spent + search.nodes, time.perf_counter() - t0,
                           complete, "shortest" if shortest else "backtrack", slides, dict(extra))

    report = None if progress is None else (lambda _search: progress(partial(False)))
    try:
        left = None if node_limit is None else node_limit - spent
        status = _run(search, deadline, left, False, report)
    except KeyboardInterrupt as exc:
        exc.partial = partial(False)  # type: ignore[attr-defined]
        raise
    if status != Status.EXHAUSTED:
        found = partial(False)
        raise LimitReached(f"Stopped at the {'time' if status == 'time' else 'node'} limit after "
                           f"{found.nodes:,} steps; {found.count:,} routes so far.", partial=found)
    return partial(True)
