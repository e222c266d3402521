"""The search made visible: ``GET /api/trace``.

The first events of a search -- each move, each move given up, each step
back -- as the library's trace records them
(:func:`chesstours.trace.trace_search`, ``chesstours trace``), for
the page to step through move by move. ``/api/trace?board=5x5&start=a1&steps=50``
returns the events that ``chesstours trace 5x5 --start a1 --steps 50`` prints,
as JSON. The number of events and the board are limited; a trace that runs
out of time returns what it traced (``stopped: "time"``).
"""

from __future__ import annotations

import functools
from enum import Enum
from typing import Annotated

from fastapi import APIRouter, Query, Request

from ... import policy
from ...board import Board
from ...pieces import parse_piece
from ...trace import TRACE_METHODS
from .. import service
from ..limits import json_answer
from .state import accepts_gzip, client_gone
from .state import lanes_of as _lanes
from .state import limits_of as _limits

router = APIRouter(prefix="/api", tags=["trace"])

TraceMethod = Enum("TraceMethod", {m: m for m in TRACE_METHODS}, type=str)  # type: ignore[misc]
TraceOrder = Enum("TraceOrder", {o: o for o in policy.ORDERS}, type=str)  # type: ignore[misc]
Tiebreak = Enum("Tiebreak", {t: t for t in policy.TIEBREAKS}, type=str)  # type: ignore[misc]
_BACKTRACK, _LIST_ORDER, _TIEBREAK = TraceMethod("backtrack"), TraceOrder(policy.LIST_ORDER), Tiebreak(policy.DEFAULT_TIEBREAK)



@router.get("/trace", summary="A search, move by move")
async def get_trace(
    request: Request,
    board: Annotated[str, Query(description="Board size: ROWSxCOLS such as 5x5, or one number.", examples=["5x5"],
                                max_length=32)],
    start: Annotated[str, Query(description="First square, such as a1.", max_length=16)],
    end: Annotated[str | None, Query(description="Last square.", max_length=16)] = None,
    closed: Annotated[bool, Query(description="Closed tours: the last square leaps back to the first.")] = False,
    piece: Annotated[str, Query(description="knight, camel, zebra, giraffe, or a leap A,B.", max_length=32)]
    = "knight",
    holes: Annotated[str, Query(description="Squares removed from the board, comma-separated: d4,e5.",
                                max_length=2048)] = "",
    method: Annotated[TraceMethod, Query(description="backtrack: the exhaustive search, step by step; warnsdorff: "
                                                     "Warnsdorff's rule, with each open square's onward moves.")]
    = _BACKTRACK,
    order: Annotated[TraceOrder, Query(description="Backtracking move order (fixed: the same order at every "
                                                   "square, as classic programs take it; or warnsdorff).")]
    = _LIST_ORDER,
    tiebreak: Annotated[Tiebreak, Query(description="Warnsdorff tie-break.")] = _TIEBREAK,
    seed: Annotated[int, Query(description="Seed of the random tie-break.")] = 0,
    steps: Annotated[int, Query(description="Return the first N events (moves, skipped moves, steps back).")]
    = 200,
    time_limit: Annotated[float | None, Query(description="Stop after this many seconds (at most the server's "
                                                          "limit); the events so far are returned.")] = None,
) -> dict:
    """``{"board", "piece", "start", "method", "events": [...], "complete", "stopped"}``.

    Each event has ``kind`` (``start``, ``move``, ``skip``, ``back``, ``tour``,
    ``stuck``, ``done``), ``step`` (the move number), ``square``, ``path`` (the
    squares after it), ``candidates`` (the moves not yet tried, each with its
    Warnsdorff ``weight``: its onward moves), ``culprit`` and ``reason`` for a
    skipped move, and ``text``: the event in words.
    """
    limits = _limits(request)
    b = Board.parse(board.strip(), holes)
    limits.check_trace(b, steps)
    p = parse_piece(piece)
    seconds = limits.time_limit(time_limit, limits.search_seconds)
    # A trace is heavy: it goes to the slow lane at once, whose one try keeps what its time allows.
    run = functools.partial(service.trace, b, p, start, end or None, closed, method.value, order.value,
                            tiebreak.value, seed, steps, keep_partial=True)
    return await _lanes(request).search(json_answer(run, accepts_gzip(request)), seconds, heavy=True,
                                        gone=client_gone(request))
