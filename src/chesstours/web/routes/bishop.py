"""The bishop puzzle of a Delphi program: ``GET /api/bishop``.

Parameters and JSON are those of the command line, as :mod:`.tours` does for tours:

==========================================  ===============================================
``/api/bishop?board=8x8``                   ``chesstours bishop 8x8 --format json``
``/api/bishop?board=8x8&shortest=true``     ``chesstours bishop 8x8 --shortest --format json``
``/api/bishop?board=8x8&count=true``        ``chesstours bishop 8x8 --count --json``
``/api/bishop?board=8x8&limit=3``           the first three routes (``--limit 3``), in one object
``/api/bishop?board=20x20&method=construct``  ``chesstours bishop 20x20 --method construct --format json``
==========================================  ===============================================

Every search has the server's time limit; boards are limited in size (counts
more strictly). No route is an answer, as no tour is for ``/api/tour``: **200** with
``{"found": false, "reason", "proof", "how"}`` (a route's JSON has no ``found``);
**504** when the time ran out (``partial``: the count so far, or the route
with the fewest slides found so far).
"""

from __future__ import annotations

import functools
from enum import Enum
from typing import Annotated

from fastapi import APIRouter, Query, Request

from ... import policy
from ...board import Board
from ...errors import InvalidArgument
from .. import service
from ..limits import json_answer
from .state import accepts_gzip, client_gone, cost_keys
from .state import lanes_of as _lanes
from .state import limits_of as _limits

router = APIRouter(prefix="/api", tags=["bishop"])


BishopMethod = Enum("BishopMethod", {m: m for m in policy.BISHOP_METHODS}, type=str)  # type: ignore[misc]
_AUTO = BishopMethod("auto")


@router.get("/bishop", summary="The bishop puzzle: a route, a few, or their count")
async def get_bishop(
    request: Request,
    board: Annotated[str, Query(description="Board size: ROWSxCOLS such as 8x8, or one number.", examples=["8x8"],
                                max_length=32)],
    start: Annotated[str, Query(description="First square.", max_length=16)] = "a1",
    end: Annotated[str, Query(description="opposite: the square opposite the start (the far corner); any: stop "
                                          "once every square of the colour is visited, as the puzzle's original "
                                          "Delphi program does; or a square.", max_length=16)] = "opposite",
    shortest: Annotated[bool, Query(description="Fewest slides: one such route, proved the fewest (with count "
                                                "or limit: all of them).")] = False,
    count: Annotated[bool, Query(description="Count the routes exactly.")] = False,
    limit: Annotated[int | None, Query(description="List at most this many routes, in the move order of the "
                                                   "puzzle's original Delphi program.")] = None,
    method: Annotated[BishopMethod, Query(description=policy.describe(policy.BISHOP_METHOD_HELP))] = _AUTO,
    holes: Annotated[str, Query(description="Squares removed from the board, comma-separated: d4,e5.",
                                max_length=2048)] = "",
    time_limit: Annotated[float | None, Query(description="Stop after this many seconds (at most the server's "
                                                          "limit).")] = None,
) -> dict:
    """A bishop route that enters each square at most once per diagonal direction and visits every
    square of the start's colour, as ``chesstours bishop BOARD ... --format json`` prints it.

    With ``count``, the exact number of routes (``--count --json``); with ``limit``,
    ``{"routes": [...], "listed", "complete"}``. Where no route exists, **200** with ``{"found": false,
    "reason", "proof", "how"}``.
    """
    limits = _limits(request)
    b = Board.parse(board.strip(), holes)
    if count and limit is not None:
        raise InvalidArgument("Choose count or limit, not both.")
    if method.value != "auto" and (count or limit is not None):
        raise InvalidArgument(f"method chooses how one route is found; count and limit search every route "
                              f"(drop method={method.value}).")
    if limit is not None and not 1 <= limit <= limits.bishop_routes:
        raise InvalidArgument(f"limit must be from 1 to {limits.bishop_routes} here, not {limit}.")
    limits.check_bishop_board(b, count=count)
    start = start.strip() or "a1"
    end = end.strip() or "opposite"
    gone, compress = client_gone(request), accepts_gzip(request)

    def answer(fn, **kwargs):  # no route is an answer, not an error: service.or_no_route, which pickles
        return json_answer(functools.partial(service.or_no_route, fn, b, start, end, **kwargs), compress)

    if count:
        seconds = limits.time_limit(time_limit, limits.count_seconds)
        return await _lanes(request).count(
            answer(functools.partial(service.bishop_count, b, start, end, shortest, seconds)), seconds, gone=gone)
    cap = limits.time_limit(time_limit, limits.search_seconds)
    if limit is not None:
        # The quick lane's short budget must not cut a listing short: there, running out of time
        # moves the listing on to the slow lane, whose try (the last) keeps what it found.
        listing = functools.partial(service.bishop_routes, b, start, end, shortest, limit)
        return await _lanes(request).search(answer(listing, keep_partial=False), cap, keys=cost_keys(request),
                                            gone=gone, final=answer(listing, keep_partial=True))
    return await _lanes(request).search(answer(functools.partial(service.bishop, b, start, end, shortest,
                                                                 method=method.value)),
                                        cap, keys=cost_keys(request), gone=gone)
