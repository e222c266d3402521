"""Leapers: pieces that jump a fixed (a, b) offset, and their move tables.

An (a, b)-leaper moves ``a`` squares along one axis and ``b`` along the other, in
any of the (up to) eight directions. The knight is the (1, 2)-leaper; the camel
(1, 3), zebra (2, 3) and giraffe (1, 4) are its classic cousins (Knuth, "Leaper
graphs", Math. Gazette 78, 1994).

The move table of a piece on a board is an ``int32[N, K]`` array: row ``v`` lists
the squares reachable from ``v`` in the fixed move order below, padded with -1.
Holes have no moves and are never a destination. Every engine works on this
table, so every engine works for every leaper and every board shape.

The move order is the one of the Warnsdorff algorithm of a 2011 student research
dossier (TIPE) on the knight's tour:
for the knight, (row, col) offsets (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1),
(-1, -2), (1, -2), (2, -1) -- clockwise, starting up and to the right.

Examples
--------
>>> from chesstours.board import Board
>>> table = move_table(Board(3, 3), KNIGHT)
>>> table.shape
(9, 8)
>>> [Board(3, 3).name(v) for v in table[0] if v >= 0]
['b3', 'c2']
>>> int((table[4] >= 0).sum())  # the centre of 3x3 has no move
0
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .board import Board
from .errors import InvalidPiece
from .reading import quoted, shown, whole_number

__all__ = [
    "Leaper",
    "KNIGHT",
    "CAMEL",
    "ZEBRA",
    "GIRAFFE",
    "NAMED_PIECES",
    "piece_names",
    "parse_piece",
    "move_table",
    "degrees",
]

_NAMES = {
    (0, 1): "wazir",
    (1, 1): "ferz",
    (0, 2): "dabbaba",
    (1, 2): "knight",
    (2, 2): "alfil",
    (0, 3): "threeleaper",
    (1, 3): "camel",
    (2, 3): "zebra",
    (3, 3): "tripper",
    (1, 4): "giraffe",
    (3, 4): "antelope",
}


#: Longest leap accepted: longer than any board's side, short enough for 32-bit arithmetic.
MAX_LEAP = 2**31 - 1


@dataclass(frozen=True)
class Leaper:
    """An (a, b)-leaper with ``0 <= a <= b`` and ``b >= 1``.

    The order of ``a`` and ``b`` does not matter: ``Leaper(2, 1) == KNIGHT``.

    :raises InvalidPiece: if the leap is (0, 0) or negative.
    """

    a: int
    b: int

    def __post_init__(self) -> None:
        a, b = self.a, self.b
        for x in (a, b):
            if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
                raise InvalidPiece(f"A leap is two whole numbers such as 1,2, not {a!r},{b!r}.")
        a, b = int(a), int(b)
        if a < 0 or b < 0:
            raise InvalidPiece(f"A leap is two non-negative numbers, not {shown(a)},{shown(b)}.")
        if a > b:
            a, b = b, a
        if b == 0:
            raise InvalidPiece("A (0,0) leap does not move; a leaper needs a leap such as 1,2.")
        if b > MAX_LEAP:
            raise InvalidPiece(f"A leap is at most {MAX_LEAP:,} squares long (a longer one leaves every board), "
                               f"not {shown(b)}.")
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    @property
    def name(self) -> str:
        """Traditional name (``"knight"``) or ``"(a,b)-leaper"``."""
        return _NAMES.get((self.a, self.b), f"({self.a},{self.b})-leaper")

    @property
    def leap(self) -> tuple[int, int]:
        """``(a, b)``."""
        return (self.a, self.b)

    def offsets(self) -> list[tuple[int, int]]:
        """The distinct (row, col) offsets, in the fixed move order.

        >>> KNIGHT.offsets()[:3]
        [(2, 1), (1, 2), (-1, 2)]
        >>> len(Leaper(0, 1).offsets()), len(Leaper(1, 1).offsets())
        (4, 4)
        """
        a, b = self.a, self.b
        ordered = [(b, a), (a, b), (-a, b), (-b, a), (-b, -a), (-a, -b), (a, -b), (b, -a)]
        seen: list[tuple[int, int]] = []
        for off in ordered:
            if off not in seen:
                seen.append(off)
        return seen

    def is_move(self, dr: int, dc: int) -> bool:
        """True when a step of ``dr`` rows and ``dc`` columns is one leap."""
        dr, dc = abs(dr), abs(dc)
        return (dr, dc) in ((self.a, self.b), (self.b, self.a))

    def spec(self) -> dict:
        """JSON-ready description: ``{"name": "knight", "leap": [1, 2]}``."""
        return {"name": self.name, "leap": [self.a, self.b]}

    def __str__(self) -> str:
        return self.name


KNIGHT = Leaper(1, 2)
CAMEL = Leaper(1, 3)
ZEBRA = Leaper(2, 3)
GIRAFFE = Leaper(1, 4)

#: Pieces known by name on the command line.
NAMED_PIECES = {"knight": KNIGHT, "camel": CAMEL, "zebra": ZEBRA, "giraffe": GIRAFFE}
for _leap, _name in _NAMES.items():
    NAMED_PIECES.setdefault(_name, Leaper(*_leap))



def piece_names() -> list[str]:
    """Every name :func:`parse_piece` knows, shortest leap first: what help, errors and completion list.

    >>> piece_names()[:4]
    ['wazir', 'ferz', 'dabbaba', 'knight']
    """
    return sorted(NAMED_PIECES, key=lambda name: (NAMED_PIECES[name].b, NAMED_PIECES[name].a))


_LEAP_RE = re.compile(r"^\s*\(?\s*(-?\d+)\s*[,/:x ]\s*(-?\d+)\s*\)?\s*$")


def parse_piece(text: str | Leaper | tuple[int, int]) -> Leaper:
    """Parse ``"knight"``, ``"zebra"``, ``"1,2"`` or ``"(2,3)"`` into a :class:`Leaper`.

    :raises InvalidPiece: if it names no leaper.

    >>> parse_piece("camel"), parse_piece("2,3"), parse_piece("(1, 4)")
    (Leaper(a=1, b=3), Leaper(a=2, b=3), Leaper(a=1, b=4))
    """
    if isinstance(text, Leaper):
        return text
    if isinstance(text, tuple) and len(text) == 2:
        return Leaper(*text)
    if not isinstance(text, str):
        raise InvalidPiece(f"A piece is a Leaper, a name such as 'knight', a leap such as '1,2' or (1, 2), not "
                           f"{type(text).__name__} {quoted(repr(text))}.")
    key = text.strip().lower()
    if key in NAMED_PIECES:
        return NAMED_PIECES[key]
    m = _LEAP_RE.match(key)
    if not m:
        names = ", ".join(piece_names())
        raise InvalidPiece(f"{quoted(str(text))} is not a piece; use {names}, or a leap such as 1,2.")
    return Leaper(whole_number(m.group(1), InvalidPiece, "A leap"), whole_number(m.group(2), InvalidPiece, "A leap"))


@lru_cache(maxsize=64)
def move_table(board: Board, piece: Leaper = KNIGHT) -> np.ndarray:
    """Return the ``int32[N, K]`` move table of ``piece`` on ``board``, padded with -1.

    Row ``v`` lists, in the fixed move order, the squares one leap from ``v`` that
    are on the board and not holes; rows of holes are all -1. The array is
    read-only and cached.
    """
    offsets = piece.offsets()
    n = board.size
    r, c = np.divmod(np.arange(n, dtype=np.int64), board.cols)
    hole = board.hole_mask
    table = np.full((n, len(offsets)), -1, dtype=np.int32)
    filled = np.zeros(n, dtype=np.int64)  # moves written so far in each row: the -1 padding stays at the end
    for dr, dc in offsets:
        if abs(dr) >= board.rows or abs(dc) >= board.cols:
            continue  # a leap longer than the board lands nowhere (and would overflow the arithmetic)
        tr, tc = r + dr, c + dc
        ok = (tr >= 0) & (tr < board.rows) & (tc >= 0) & (tc < board.cols) & ~hole
        target = tr * board.cols + tc
        ok[ok] &= ~hole[target[ok]]
        rows = np.flatnonzero(ok)
        table[rows, filled[rows]] = target[rows]
        filled[rows] += 1
    table.flags.writeable = False
    return table


def degrees(table: np.ndarray) -> np.ndarray:
    """Number of moves from each square (``int32[N]``)."""
    return (table >= 0).sum(axis=1).astype(np.int32)
