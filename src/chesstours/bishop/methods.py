"""How the bishop's functions choose: their methods, what ``auto`` tries in turn, and which counts they refuse.

The bishop puzzle's part of the package's method policy, in the style of
:mod:`chesstours.policy`, which publishes these names (the algorithm
families sit below the policy, so the bishop's functions cannot ask it).

:func:`~chesstours.solve_bishop` has three methods. ``backtrack`` is the
complete search in the Delphi program's move order, with random restarts
beside it past :data:`~chesstours.bishop.search.FIRST_ALONE` steps
(:func:`chesstours.bishop.search.first_route`). ``construct`` is the billiard
path with its loops switched in (:mod:`chesstours.bishop.construct`): linear
time, on whole boards with both sides even, from a corner to the opposite
corner. ``auto`` answers from the theory when it can
(:func:`~chesstours.bishop.solve.bishop_obstruction`); then lets the search
in the Delphi program's order run alone for its first
:data:`~chesstours.bishop.search.FIRST_ALONE` steps, so that the route is the
first in that order wherever the search meets one that soon (every board
with both sides even of at most 120 squares but 10 x 10 and 12 x 10, and
many narrow ones beyond); then builds one where the construction applies;
else goes on with the restarts, as ``backtrack``.

A count without a time or node limit on a board of more than
:data:`ESTIMATE_ABOVE_SQUARES` squares is estimated first (Knuth's random
probes of the search tree, :meth:`~chesstours.bishop.search.BishopSearch.estimate`),
and refused with the estimate when it would take longer than
:data:`MAX_UNLIMITED_SECONDS`; a limit lets it run as far as it gets.

Examples
--------
>>> BISHOP_METHODS
('auto', 'backtrack', 'construct')
>>> check_method("billiard")
Traceback (most recent call last):
...
chesstours.errors.InvalidArgument: Unknown method 'billiard'; use one of auto, backtrack, construct.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, get_args

from ..board import Board
from ..errors import InvalidArgument
from ..settings import BISHOP_ESTIMATE_ABOVE_SQUARES as ESTIMATE_ABOVE_SQUARES
from ..settings import BISHOP_ESTIMATE_PROBES as ESTIMATE_PROBES
from ..settings import BISHOP_STEPS_PER_SECOND as STEPS_PER_SECOND
from ..settings import MAX_UNLIMITED_SECONDS
from ..units import about_duration

if TYPE_CHECKING:
    from .search import BishopSearch

__all__ = ["BishopMethod", "BISHOP_METHODS", "BISHOP_METHOD_HELP", "STEPS_PER_SECOND", "ESTIMATE_ABOVE_SQUARES",
           "ESTIMATE_PROBES", "MAX_UNLIMITED_SECONDS", "check_method", "count_refusal"]

#: How :func:`~chesstours.solve_bishop` may look for a route.
BishopMethod = Literal["auto", "backtrack", "construct"]
BISHOP_METHODS: tuple[BishopMethod, ...] = get_args(BishopMethod)

#: What each method of :func:`~chesstours.solve_bishop` does, for the command line's help.
BISHOP_METHOD_HELP: dict[str, str] = {
    "auto": "the theory first; the search in the Delphi program's order for its first million steps (the first "
            "route in that order); then the billiard construction where it applies; else random restarts beside "
            "the search",
    "backtrack": "the complete search in the Delphi program's order, random restarts beside it past a million "
                 "steps: it finds a route whenever one exists, or proves there is none",
    "construct": "the billiard path with its loops switched in: linear time, on whole boards with both sides even, "
                 "from a corner to the opposite corner",
}



def check_method(method: str) -> None:
    """:raises InvalidArgument: for a method :func:`~chesstours.solve_bishop` does not know."""
    if method not in BISHOP_METHODS:
        raise InvalidArgument(f"Unknown method {method!r}; use one of {', '.join(BISHOP_METHODS)}.")


def count_refusal(board: Board, search: BishopSearch) -> str | None:
    """The sentence that refuses counting every route of ``search`` without a limit, or None.

    Only boards of more than :data:`ESTIMATE_ABOVE_SQUARES` free squares are
    estimated; a count estimated to take longer than
    :data:`MAX_UNLIMITED_SECONDS` is refused.
    """
    if board.free_count <= ESTIMATE_ABOVE_SQUARES:
        return None
    steps, _ = search.estimate(ESTIMATE_PROBES)
    seconds = steps / STEPS_PER_SECOND
    if seconds <= MAX_UNLIMITED_SECONDS:
        return None
    return (f"Counting every bishop route of {board} would take about {steps:.1e} steps of exhaustive search "
            f"(Knuth's estimate from {ESTIMATE_PROBES:,} random descents), {about_duration(seconds)} here; "
            f"give a time limit to count as far as it gets.")
