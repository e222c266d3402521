"""A tour of your own, checked: ``POST /api/check``.

The body is a tour as ``chesstours check FILE`` reads it -- moves (``a1 c2 e1 ...``), the
numbered grid that ``chesstours tour --format grid`` prints, or the JSON of
``--format json`` -- read by the same parser (:meth:`chesstours.Tour.parse`). The answer
says whether it is valid, and if not, the first thing wrong and where, with the squares
read so that the page can draw them. The body is bounded (``Limits.check_bytes``, refused
with 413 beyond it by the app) and so is the board (``Limits.tour_squares``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from ...board import Board
from ...errors import ChessToursError
from ...pieces import parse_piece
from ...tour import Tour, first_problem
from ..limits import OverLimit, json_answer
from .state import lanes_of as _lanes
from .state import limits_of as _limits

router = APIRouter(prefix="/api", tags=["check"])

#: What the schema shows as the body: a tour is text.
_BODY = {"requestBody": {"required": True, "content": {"text/plain": {
    "schema": {"type": "string"},
    "example": "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3"}}}}


@router.post("/check", summary="Check a tour of your own", openapi_extra=_BODY)
async def post_check(
    request: Request,
    board: Annotated[str | None, Query(description="Board of a moves text, such as 8x8 (default: the smallest "
                                                   "board holding every square; a grid or JSON names its own).",
                                       max_length=32)] = None,
    piece: Annotated[str | None, Query(description="The leaper: knight, camel, zebra, giraffe or A,B (default: "
                                                   "knight, or the JSON's).", max_length=32)] = None,
    holes: Annotated[str, Query(description="Squares removed from the board, comma-separated: d4,e5.",
                                max_length=2048)] = "",
    closed: Annotated[bool | None, Query(description="The tour must be closed (default: open, or the JSON's "
                                                     "own flag).")] = None,
) -> dict:
    """``{"valid", "problem", "step", "tour", "summary"}``: what ``chesstours check`` says of the body.

    ``valid`` is true or false; ``problem`` the first thing wrong, in the command line's
    words (null when valid); ``step`` the index in ``tour.path`` of the square where it goes
    wrong (null when no one square is to blame: squares missing, or a text that is no tour);
    ``tour`` the tour as read (the JSON of ``chesstours tour --format json``; null when the
    text cannot be read as squares); ``summary`` the command line's line. A text that is not
    a tour is an answer too (``valid: false``); a board or piece given wrongly is **400**.
    """
    limits = _limits(request)
    raw = await request.body()
    # The parameters are checked before the text: a board or piece given wrongly is the request's fault (400).
    if piece is not None:
        parse_piece(piece)
    if board is not None:
        board = board.strip()
        limits.check_tour_board(Board.parse(board, holes))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _invalid("The tour is not text (UTF-8): give it as moves (a1 c2 ...), a numbered grid or JSON.")
    return await _lanes(request).quick.run(json_answer(lambda: check(text, board, piece, holes, closed, limits)))


def check(text: str, board: str | None, piece: str | None, holes: str, closed: bool | None, limits) -> dict:
    """Read ``text`` as ``chesstours check`` does and check it (in a worker thread: a tour is O(N))."""
    try:
        tour = Tour.parse(text, board=board, holes=holes, piece=piece, closed=closed)
    except ChessToursError as exc:
        return _invalid(str(exc))
    if tour.board.size > limits.tour_squares:  # before the check, which keeps a bitmap of the board
        raise OverLimit(f"This server checks tours of boards of at most {limits.tour_squares:,} squares and "
                        f"{tour.board.rows}x{tour.board.cols} has {tour.board.size:,}; chesstours check FILE "
                        f"has no such limit.")
    found = first_problem(tour.board, tour.piece, tour.path, tour.closed)
    data = tour.to_dict()
    data.pop("stats")
    data.pop("method")
    if found is not None:
        problem, step = found
        if step is not None and not 0 <= step < len(tour):
            step = len(tour) - 1  # the closing leap: its far end is the last square
        return {"valid": False, "problem": problem, "step": step, "tour": data,
                "summary": f"invalid: {problem}"}
    kind = "closed" if tour.closed else "open"
    reentrant = "" if tour.closed or not tour.is_reentrant() else " (its ends are one move apart: it can be closed)"
    summary = (f"valid: {kind} {tour.piece.name}'s tour of {tour.board}, {len(tour)} squares, "
               f"from {tour.board.name(tour.start)} to {tour.board.name(tour.end)}{reentrant}")
    return {"valid": True, "problem": None, "step": None, "tour": data, "summary": summary}


def _invalid(problem: str) -> dict:
    return {"valid": False, "problem": problem, "step": None, "tour": None, "summary": f"invalid: {problem}"}
