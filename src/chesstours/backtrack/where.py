"""Tours with a property: symmetric tours, and tours that pass given squares at given moves.

A property is written as ``--where`` takes it, conditions joined by ``;``:

``symmetric``
    The tour's leaps are the same after a half turn of the board (180
    degrees): each leap ``u-v`` of the tour has its image ``u'-v'`` among the
    tour's leaps too (a closed tour's closing leap included).
``symmetric90``
    The same after a quarter turn (square boards only).
``a1=1,h8=64``
    Clues: square a1 is the tour's first square, h8 its 64th.

The test of a found tour is compiled (:mod:`chesstours.backtrack.where_kernel`).
Clues also cut the search: a clue on move 1 fixes the start, a clue on the
last move fixes the end, and a prefix that already contradicts a clue is
never searched.

Examples
--------
>>> from chesstours.board import Board
>>> board = Board(6, 6)
>>> p = parse_where("symmetric; a1=1", board, closed=True)
>>> p.image is not None, p.clues, p.first_square()
(True, ((0, 1),), 0)
>>> parse_where("symmetric90", Board(4, 6), closed=True)
Traceback (most recent call last):
...
chesstours.errors.InvalidArgument: A quarter turn maps 4x6 onto another board; symmetric90 needs a square board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..board import Board
from ..errors import InvalidArgument, InvalidSquare
from ..reading import whole_number

__all__ = ["TourProperty", "parse_where", "rotation"]


def rotation(board: Board, quarter_turns: int) -> np.ndarray:
    """The squares' images under a turn of the board by ``quarter_turns`` x 90 degrees (as an int32 array)."""
    r, c = np.divmod(np.arange(board.size), board.cols)
    if quarter_turns % 4 == 2:
        image = (board.rows - 1 - r) * board.cols + (board.cols - 1 - c)
    elif quarter_turns % 4 == 1:
        if board.rows != board.cols:
            raise InvalidArgument(f"A quarter turn maps {board} onto another board; symmetric90 needs a square board.")
        image = c * board.cols + (board.rows - 1 - r)
    else:
        image = np.arange(board.size)
    return image.astype(np.int32)


@dataclass(frozen=True)
class TourProperty:
    """What a tour must satisfy: a symmetry (``image``, a permutation of the squares) and clues.

    ``clues`` are ``(square, move number)`` pairs, move numbers from 1. Called
    with a path (an array of squares in order), it answers True or False.
    """

    text: str
    size: int
    closed: bool
    image: tuple[int, ...] | None = None
    clues: tuple[tuple[int, int], ...] = ()
    _arrays: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __call__(self, path: np.ndarray) -> bool:
        from .where_kernel import maps_onto_itself, meets_clues

        a = self._arrays
        if not a:
            a["image"] = None if self.image is None else np.array(self.image, dtype=np.int32)
            a["squares"] = np.array([s for s, _ in self.clues], dtype=np.int32)
            a["steps"] = np.array([k for _, k in self.clues], dtype=np.int64)
        path = np.ascontiguousarray(path, dtype=np.int32)
        if not path.flags.writeable:  # a Tour's path: the kernels are compiled for writable arrays
            path = path.copy()
        if self.clues and not meets_clues(path, a["squares"], a["steps"]):
            return False
        return a["image"] is None or bool(maps_onto_itself(path, a["image"], self.closed))

    def first_square(self) -> int | None:
        """The square a clue puts first, if any."""
        return next((s for s, k in self.clues if k == 1), None)

    def last_square(self) -> int | None:
        """The square a clue puts last (move number = the number of free squares), if any."""
        return next((s for s, k in self.clues if k == self.size), None)

    def contradicted_by(self, prefix: tuple[int, ...]) -> bool:
        """True when the first moves ``prefix`` already break a clue."""
        for square, k in self.clues:
            if k <= len(prefix) and prefix[k - 1] != square:
                return True
            if square in prefix[: k - 1] or (k > len(prefix) and square in prefix):
                return True
        return False


_CLUE = re.compile(r"^\s*([a-z]+\d+)\s*=\s*(\d+)\s*$", re.I)


def parse_where(text: str, board: Board, closed: bool) -> TourProperty:
    """Read a property (see the module docstring) for tours of ``board``.

    :raises InvalidArgument: for a condition it does not know, a clue off the board or on a hole, a move
        number out of range, or two clues that cannot both hold.
    """
    n = board.free_count
    image: np.ndarray | None = None
    clues: dict[int, int] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        word = part.lower()
        if word in ("symmetric", "symmetric180"):
            image = rotation(board, 2) if image is None else image
        elif word == "symmetric90":
            image = rotation(board, 1)
        else:
            for clue in part.split(","):
                m = _CLUE.match(clue)
                if not m:
                    raise InvalidArgument(f"{clue.strip()!r} is not a condition; use symmetric, symmetric90, or "
                                          "clues such as a1=1,h8=64.")
                try:
                    square = board.square(m.group(1).lower())
                except InvalidSquare as exc:
                    raise InvalidArgument(f"The clue {clue.strip()}: {exc}") from None
                step = whole_number(m.group(2), InvalidArgument, "The move of a clue")
                if not 1 <= step <= n:
                    raise InvalidArgument(f"The clue {clue.strip()} asks for move {step}; a tour of {board} has "
                                          f"moves 1 to {n}.")
                if clues.get(square, step) != step or step in clues.values() and clues.get(square) != step:
                    raise InvalidArgument(f"The clues put two squares on one move or one square on two moves "
                                          f"({clue.strip()}).")
                clues[square] = step
    if image is not None and board.holes and any(image[v] not in board.holes for v in board.holes):
        raise InvalidArgument(f"The holes of {board} are not symmetric, so no tour of it is.")
    return TourProperty(text, n, closed, None if image is None else tuple(int(v) for v in image),
                        tuple(sorted(clues.items(), key=lambda sk: sk[1])))
