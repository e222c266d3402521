"""Errors raised by chesstours.

Every error a user can cause is a :class:`ChessToursError` whose message is one
sentence a person can act on. The command line prints that sentence on stderr
and exits with status 2 (status 1 for :class:`NoTour`, which is an answer, not
a mistake).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ChessToursError",
    "InvalidBoard",
    "InvalidSquare",
    "InvalidPiece",
    "InvalidArgument",
    "NoTour",
    "LimitReached",
]


class ChessToursError(Exception):
    """Base class of every error chesstours raises on purpose."""


class InvalidBoard(ChessToursError, ValueError):
    """A board description that does not describe a board (``"0x5"``, ``"8x"``)."""


class InvalidSquare(ChessToursError, ValueError):
    """A square name or index that is not on the board, or is a hole."""


class InvalidPiece(ChessToursError, ValueError):
    """A piece that is not a leaper chesstours understands (``"0,0"``)."""


class InvalidArgument(ChessToursError, ValueError):
    """Any other argument out of range: a negative limit, an unknown method."""


class NoTour(ChessToursError):
    """No tour exists, or the chosen method found none.

    ``reason`` is the sentence to show; ``proof`` says how it is known
    (``"theorem"``, ``"colour"``, ``"connectivity"``, ``"exhaustive"``) or
    ``"heuristic"`` when only a heuristic failed and a tour may still exist.
    """

    def __init__(self, reason: str, proof: str = "exhaustive", nodes: int = 0):
        super().__init__(reason)
        self.reason = reason
        self.proof = proof
        self.nodes = nodes


class LimitReached(ChessToursError):
    """A time or node limit ran out before the search could answer.

    ``partial`` holds whatever was found so far (a count, a list of tours).
    """

    def __init__(self, message: str, partial: Any = None):
        super().__init__(message)
        self.partial = partial
