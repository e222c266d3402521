"""Uniformly random tours and the statistics of every tour: ``/api/sample`` and ``/api/stats``.

Parameters and JSON are those of the command line, as :mod:`.tours` does for tours:

==============================================  =====================================================
``/api/sample?board=5x6&seed=7``                ``chesstours sample 5x6 -n 1 --seed 7 --format json``
``/api/stats?board=5x5``                        ``chesstours stats 5x5 --json``
``/api/stats?board=5x5&heat=true``              the same, with the heat map's SVG as ``heat_svg``
``/api/stats?board=5x5&format=svg``             the picture of ``chesstours stats 5x5 -o heat.svg``
==============================================  =====================================================

Both read the tables of a frontier sweep, built for each request and kept nowhere (the server leaves its
user's cache folder alone). They are built only where they are quick here: on boards the server counts
(:attr:`~chesstours.web.limits.Limits.count_squares`), where the plan's forecast fits in the count's time
limit and in :data:`TABLES_MEMORY`; the tables are built in the slow lane, under the count's time limit.
Elsewhere the JSON answer is still **200**: ``{"found": false, "reason", "proof", "how"}``, as ``/api/tour``
answers when there is no tour (``proof`` is ``"limit"`` for a refusal or a time limit that ran out). A
picture that cannot be drawn is an error: **400** refused, **404** no tour, **504** out of time.
"""

from __future__ import annotations

import functools
from enum import Enum
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ...arguments import check_limits
from ...board import Board
from ...pieces import Leaper, parse_piece
from .. import service
from ..limits import OverLimit, json_answer
from .state import accepts_gzip, client_gone
from .state import lanes_of as _lanes
from .state import limits_of as _limits
from .tours import MEDIA_TYPES, BoardQ, ClosedQ, EndQ, HolesQ, PieceQ, StartQ, TimeQ

router = APIRouter(prefix="/api", tags=["sample"])

#: Bytes the tables of one request may be forecast to hold: above it, the question is refused before they are built.
TABLES_MEMORY = 1 << 30

#: The largest seed taken: one a page's script holds exactly (2**53 - 1).
MAX_SEED = (1 << 53) - 1


class HeatFormat(str, Enum):
    """What ``/api/stats`` answers with: the statistics' JSON, or the heat map."""

    json = "json"
    svg = "svg"
    png = "png"


async def _refusal(request: Request, b: Board, p: Leaper, start: str | None, end: str | None, closed: bool,
                   seconds: float) -> str | None:
    """Why this server does not build the tables of the question, or None: the board's size first, then the
    plan's forecast (made in the quick lane)."""
    limits = _limits(request)
    try:
        limits.check_count_board(b)
    except OverLimit as exc:
        return str(exc).replace("counts tours", "counts, samples and weighs tours", 1)
    return await _lanes(request).quick.run(service.tables_refusal, b, p, start, end, closed, seconds, TABLES_MEMORY)


def _question(request: Request, board: str, holes: str, piece: str, start: str | None, end: str | None,
              time_limit: float | None):
    limits = _limits(request)
    b = Board.parse(board.strip(), holes)
    limits.check_tour_board(b)  # read no larger board than a tour's
    seconds = limits.time_limit(time_limit, limits.count_seconds)
    check_limits(seconds, None)  # a time limit that is no positive number is refused with the library's sentence
    return b, parse_piece(piece), start or None, end or None, seconds


@router.get("/sample", summary="Draw a uniformly random tour")
async def get_sample(
    request: Request,
    board: BoardQ,
    start: StartQ = None,
    end: EndQ = None,
    closed: ClosedQ = False,
    piece: PieceQ = "knight",
    holes: HolesQ = "",
    seed: Annotated[int, Query(description="Seed of the draw: the same seed draws the same tour.", ge=0,
                               le=MAX_SEED)] = 0,
    time_limit: TimeQ = None,
) -> dict:
    """One tour drawn uniformly from every tour of the question, as ``chesstours sample BOARD -n 1 --seed SEED
    --format json`` prints it, with ``seed``; ``stats`` holds its ``rank`` among the ``tours``.

    Where the tables are not quick to build here (the board is larger than the server counts, or the plan's
    forecast outlasts the time limit or its memory), or the time limit ran out, or no tour exists, the answer is
    still **200**: ``{"found": false, "reason", "proof", "how"}`` (a tour's JSON has no ``found``).
    """
    b, p, start, end, seconds = _question(request, board, holes, piece, start, end, time_limit)
    reason = await _refusal(request, b, p, start, end, closed, seconds)
    if reason is not None:
        return service.refused(b, start, end, closed, reason)

    draw = functools.partial(service.tables_answer, service.sample, b, p, start, end, closed, seed, seconds)
    return await _lanes(request).count(json_answer(draw, accepts_gzip(request)), seconds, gone=client_gone(request))


@router.get("/stats", summary="Statistics of every tour, and their heat map", response_model=None,
            responses={200: {"content": {"image/svg+xml": {}, "image/png": {}},
                             "description": "The statistics' JSON, or the heat map (format=svg or png)."}})
async def get_stats(
    request: Request,
    board: BoardQ,
    start: StartQ = None,
    end: EndQ = None,
    closed: ClosedQ = False,
    piece: PieceQ = "knight",
    holes: HolesQ = "",
    heat: Annotated[bool, Query(description="JSON: add the heat map's SVG as heat_svg.")] = False,
    format: Annotated[HeatFormat, Query(description="json, or the heat map: svg or png.")] = HeatFormat.json,
    time_limit: TimeQ = None,
) -> dict | Response:
    """The exact statistics of every tour, as ``chesstours stats BOARD --json`` prints them: the tours through
    each move (``edges``), and for open tours those that start (``starts``) and end (``ends``) on each square.

    With ``format=svg`` or ``png``, the heat map of ``chesstours stats BOARD -o heat.svg``. Where the JSON
    cannot be given (as ``/api/sample``: not quick here, out of time, no tour) it is **200** with
    ``{"found": false, "reason", "proof", "how"}``; a heat map that cannot be drawn is **400** (refused here),
    **404** (no tour) or **504** (out of time).
    """
    b, p, start, end, seconds = _question(request, board, holes, piece, start, end, time_limit)
    reason = await _refusal(request, b, p, start, end, closed, seconds)
    if format is not HeatFormat.json:
        if reason is not None:
            raise OverLimit(reason)
        data = await _lanes(request).count(
            functools.partial(service.heat_picture, b, p, start, end, closed, seconds, format.value), seconds,
            gone=client_gone(request))
        return Response(data, media_type=MEDIA_TYPES[format.value])
    if reason is not None:
        return service.refused(b, start, end, closed, reason)

    weigh = functools.partial(service.tables_answer, service.statistics, b, p, start, end, closed, seconds, heat)
    return await _lanes(request).count(json_answer(weigh, accepts_gzip(request)), seconds, gone=client_gone(request))
