"""Endpoints for tours: ``/api/tour``, ``/api/count``, ``/api/countable``, ``/api/exists``, ``/api/board``,
``/api/info``.

Parameters and JSON are those of the command line: ``/api/tour?board=8x8&start=a1&closed=true``
returns what ``chesstours tour 8x8 --start a1 --closed --format json`` prints, and
``/api/count`` what ``chesstours count ... --json`` prints.
"""

from __future__ import annotations

import functools
from enum import Enum
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ... import __version__, policy
from ...board import Board
from ...errors import LimitReached
from ...pieces import NAMED_PIECES, parse_piece, piece_names
from ...render.picture import check_request
from .. import drawing, service
from ..limits import OverLimit, json_answer
from .state import accepts_gzip, client_gone, cost_keys
from .state import lanes_of as _lanes
from .state import limits_of as _limits

router = APIRouter(prefix="/api", tags=["tours"])

Method = Enum("Method", {m: m for m in policy.FIND_METHODS}, type=str)  # type: ignore[misc]
Tiebreak = Enum("Tiebreak", {t: t for t in policy.TIEBREAKS}, type=str)  # type: ignore[misc]
Order = Enum("Order", {o: o for o in policy.ORDERS}, type=str)  # type: ignore[misc]
_AUTO, _FIND_ORDER = Method("auto"), Order(policy.FIND_ORDER)


class Format(str, Enum):
    """What ``/api/tour`` answers with: the tour's JSON, or a picture of it."""

    json = "json"
    svg = "svg"
    png = "png"
    gif = "gif"


#: The media type of each picture format.
MEDIA_TYPES = {"svg": "image/svg+xml", "png": "image/png", "gif": "image/gif"}

BoardQ = Annotated[str, Query(description="Board size: ROWSxCOLS such as 8x8 or 5x6, or one number (8 means 8x8).",
                              examples=["8x8"], max_length=32)]
StartQ = Annotated[str | None, Query(description="First square, such as a1.", max_length=16)]
EndQ = Annotated[str | None, Query(description="Last square.", max_length=16)]
ClosedQ = Annotated[bool, Query(description="Closed tours: the last square leaps back to the first.")]
PieceQ = Annotated[str, Query(description=f"{', '.join(piece_names())}, or a leap A,B such as 2,3.", max_length=32)]
HolesQ = Annotated[str, Query(description="Squares removed from the board, comma-separated: d4,e5.")]
TimeQ = Annotated[float | None, Query(description="Stop after this many seconds (at most the server's limit).")]

#: How each kind of proof that no tour exists reads to someone new to tours: the first line the page shows,
#: before the library's own sentence (``reason``) gives the particulars.
def _board(request: Request, board: str, holes: str, interactive: bool = True) -> Board:
    b = Board.parse(board.strip(), holes)
    if interactive:
        _limits(request).check_tour_board(b)
    return b


def _end(start: str | None, end: str | None) -> tuple[str | None, str | None]:
    """Empty strings (an unset field of a form) mean "not given"."""
    return (start or None), (end or None)


@router.get("/tour", summary="Find one tour", response_model=None,
            responses={200: {"content": {media: {} for media in MEDIA_TYPES.values()},
                             "description": "The tour's JSON, or its picture (format=svg, png or gif)."}})
async def get_tour(
    request: Request,
    board: BoardQ,
    start: StartQ = None,
    end: EndQ = None,
    closed: ClosedQ = False,
    piece: PieceQ = "knight",
    holes: HolesQ = "",
    method: Annotated[Method, Query(description=policy.describe(policy.FIND_METHOD_HELP))] = _AUTO,
    tiebreak: Annotated[Tiebreak | None, Query(description="Warnsdorff tie-break (default: roth; auto tries "
                                                              "several).")] = None,
    seed: Annotated[int, Query(description="Seed of the random tie-break.")] = 0,
    order: Annotated[Order, Query(description="Backtracking move order.")] = _FIND_ORDER,
    prefix: Annotated[str | None, Query(description="Moves already played, comma-separated (a1,b3,c5): the tour "
                                                       "must begin with them (solve from here).")] = None,
    time_limit: TimeQ = None,
    format: Annotated[Format, Query(description="json, or a picture: svg, png, or gif (animated).")] = Format.json,
    numbers: Annotated[bool, Query(description="Pictures: the step number in each square.")] = False,
    size: Annotated[int | None, Query(description="Pictures: the longer side in pixels (64 to 4096).")] = None,
    fps: Annotated[float | None, Query(description="Animations: moves a second (default 8).")] = None,
    animate: Annotated[bool, Query(description="svg: an animated picture (a gif always is).")] = False,
) -> dict | Response:
    """One tour, validated, as ``chesstours tour BOARD ... --format json`` prints it.

    With ``format=svg``, ``png`` or ``gif``, the picture that ``chesstours tour BOARD ...
    -o tour.svg`` draws (an animated GIF only of boards small enough here).

    When no tour exists (or the chosen heuristic gave up), the JSON answer is still **200**:
    ``{"found": false, "reason", "proof", "how", ...}`` (a tour's JSON has no ``found``): ``reason``
    is the command line's sentence, ``proof`` how it is known, ``how`` that in plain words. A
    picture of no tour cannot be drawn: with ``format=svg``, ``png`` or ``gif`` that answer is
    **404** with ``detail`` (the reason) and ``proof``. **504** when the time limit ran out.
    """
    b = _board(request, board, holes)
    p = parse_piece(piece)
    start, end = _end(start, end)
    limit = _limits(request).time_limit(time_limit, _limits(request).search_seconds)

    picture = None
    if format is not Format.json:
        _limits(request).check_picture(format.value, b)
        check_request(format.value, b, size, fps, animate)  # before any search
        picture = {"fmt": format.value, "numbers": numbers, "size": size, "fps": fps, "animate": animate,
                   "memory": _limits(request).picture_memory}

    # search(seconds): the tour's JSON (for a picture, no tour is a 404), or the answer that there is none; it
    # pickles, for the slow lane's processes.
    query = (b, p, start, end, closed, method.value, tiebreak.value if tiebreak else None, seed, order.value,
             prefix or None)
    heavy = method.value == "backtrack"
    if picture is None:
        answer = functools.partial(service.tour_or_none, *query)
        return await _lanes(request).search(json_answer(answer, accepts_gzip(request)), limit, heavy=heavy,
                                            keys=cost_keys(request), gone=client_gone(request))
    search = functools.partial(service.tour, *query)
    # The picture is drawn in the drawing process, its wait bounded by the picture lane: a cheap
    # search never waits behind it, and its memory is not the server's.
    data = await _lanes(request).search_and_draw(search, lambda found, seconds: drawing.draw(found, picture, seconds), limit,
                                                 heavy=heavy, keys=cost_keys(request), gone=client_gone(request))
    return Response(data, media_type=MEDIA_TYPES[format.value])


@router.get("/count", summary="Count tours exactly")
async def get_count(
    request: Request,
    board: BoardQ,
    start: StartQ = None,
    end: EndQ = None,
    closed: ClosedQ = False,
    piece: PieceQ = "knight",
    holes: HolesQ = "",
    time_limit: TimeQ = None,
) -> dict:
    """Exact counts, as ``chesstours count BOARD ... --json`` prints them.

    Counts are exhaustive searches: boards above the server's size limit, and
    counts whose estimated search outlasts the time limit, are refused at once
    (**400**); a count that still runs out of time answers **504** with what was
    counted so far in ``partial``. **503** when the server is busy with other counts.
    """
    limits = _limits(request)
    b = _board(request, board, holes, interactive=False)
    limits.check_count_board(b)
    p = parse_piece(piece)
    start, end = _end(start, end)
    limit = limits.time_limit(time_limit, limits.count_seconds)
    return await _lanes(request).count(
        json_answer(functools.partial(service.count, b, p, start, end, closed, limit, limits.count_workers),
                    accepts_gzip(request)), limit, gone=client_gone(request))


@router.get("/countable", summary="Would /api/count count this here?")
async def get_countable(
    request: Request,
    board: BoardQ,
    start: StartQ = None,
    end: EndQ = None,
    closed: ClosedQ = False,
    piece: PieceQ = "knight",
    holes: HolesQ = "",
    time_limit: TimeQ = None,
) -> dict:
    """``{"countable", "reason", "seconds", "method"}``: whether ``/api/count`` with the same parameters
    would count, planned as it plans, without counting.

    ``reason`` is the sentence ``/api/count`` would refuse with (**400**): the board is larger than
    this server counts, or the count's estimated search outlasts the time limit (``seconds`` is the
    estimate). Always **200** for a board that can be read: a refusal is an answer here, so that a
    page can say why before it asks.
    """
    limits = _limits(request)
    b = _board(request, board, holes, interactive=False)
    try:
        limits.check_count_board(b)
    except OverLimit as exc:
        return {"countable": False, "reason": str(exc), "seconds": None, "method": None}
    p = parse_piece(piece)
    start, end = _end(start, end)
    limit = limits.time_limit(time_limit, limits.count_seconds)
    return await _lanes(request).quick.run(
        json_answer(lambda: service.count_plan(b, p, start, end, closed, limit, limits.count_workers)))


@router.get("/exists", summary="Does a tour exist?")
async def get_exists(
    request: Request,
    board: BoardQ,
    start: StartQ = None,
    end: EndQ = None,
    closed: ClosedQ = False,
    piece: PieceQ = "knight",
    holes: HolesQ = "",
    time_limit: TimeQ = None,
) -> dict:
    """``{"exists": true | false | null, "proof", "reason", "tour"}``.

    ``proof`` says how the answer is known: ``tour`` (``tour`` lists one),
    ``colour``, ``connectivity``, ``theorem`` or ``exhaustive``; ``exists`` is
    null when the time limit ran out first.
    """
    b = _board(request, board, holes)
    p = parse_piece(piece)
    start, end = _end(start, end)
    limit = _limits(request).time_limit(time_limit, _limits(request).search_seconds)
    try:
        return await _lanes(request).search(
            json_answer(functools.partial(service.existence, b, p, start, end, closed), accepts_gzip(request)), limit,
            keys=cost_keys(request), gone=client_gone(request))
    except LimitReached as exc:
        return service.unknown(exc)


@router.get("/board", summary="A board and its move table")
async def get_board(request: Request, board: BoardQ, piece: PieceQ = "knight", holes: HolesQ = "") -> Response:
    """The squares' names and, for each square, the squares one leap away (holes excluded).

    Square ``v`` is ``row * cols + col``, row 0 being rank 1: the page uses this to
    let a player move. Made in the quick lane; the last few boards' answers are kept, and sent again
    without a thread.
    """
    b, p = _board(request, board, holes), parse_piece(piece)
    gzipped = accepts_gzip(request)
    body = service.known_board_moves(b, p, gzipped)
    if body is None:
        body = await _lanes(request).quick.run(service.board_moves_json, b, p, gzipped)
    # Compressed once, where it was made: the app's GZipMiddleware passes it on as it is.
    headers = {"content-encoding": "gzip", "vary": "Accept-Encoding"} if gzipped else None
    return Response(body, media_type="application/json", headers=headers)


@router.get("/info", summary="Version, choices and limits of this server")
async def get_info(request: Request) -> dict:
    """What the page needs to build its form: pieces (every named piece, shortest leap first, with its leap),
    methods, limits, and which parts are available."""
    limits = _limits(request)
    return {
        "version": __version__,
        "pieces": {name: list(NAMED_PIECES[name].leap) for name in piece_names()},
        "methods": list(policy.FIND_METHODS),
        "tiebreaks": list(policy.TIEBREAKS),
        "orders": list(policy.ORDERS),
        "limits": {
            "tour_squares": limits.tour_squares,
            "count_squares": limits.count_squares,
            "search_seconds": limits.search_seconds,
            "count_seconds": limits.count_seconds,
            "query_chars": limits.query_chars,
            "check_bytes": limits.check_bytes,
            "bishop_squares": limits.bishop_squares,
            "bishop_count_squares": limits.bishop_count_squares,
            "trace_squares": limits.trace_squares,
            "trace_steps": limits.trace_steps,
            "gif_squares": limits.gif_squares,
        },
        "features": request.app.state.features,
        "lanes": _lanes(request).state(),
    }
