"""Boards: rectangles of squares, possibly with holes.

A square is a plain ``int`` ``v = r * cols + c`` where ``r = 0`` is rank 1 (the
bottom row) and ``c = 0`` is file ``a``. Names are algebraic: files ``a`` .. ``z``
then ``aa``, ``ab``, ... (spreadsheet style), ranks ``1`` .. ``rows``. ``a1`` is a
dark square, as on a chessboard.

A hole is a square that no tour may use; a board with holes is still a
:class:`Board`.

Examples
--------
>>> b = Board.parse("8x8")
>>> b.square("c2"), b.name(10)
(10, 'c2')
>>> Board(3, 30).name(29)
'ad1'
>>> Board.parse("5x6", holes="a1,c3").free_count
28
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable

import numpy as np

from .errors import InvalidBoard, InvalidSquare
from .reading import quoted, shown, whole_number

__all__ = ["Board", "Holes", "Square", "file_name", "parse_file", "grid_lines", "number_grid", "MAX_SQUARES", "MAX_SIDE"]

#: Holes as the api takes them: square names or indices, or one string such as ``"d4,e5"``.
Holes = Iterable[int | str] | str
#: A square as the api takes it: its index ``r * cols + c`` or its name (``"c2"``).
Square = int | str

#: Largest board side accepted: squares are int32 throughout.
MAX_SIDE = 1_000_000
#: Largest number of squares on one board (int32 square indices).
MAX_SQUARES = 2**31 - 1
#: Boards of at most this many squares keep a table of their squares' names (:meth:`Board.names`).
NAMED_SQUARES = 4096

_SIZE_RE = re.compile(r"^\s*(\d+)\s*(?:[x×X*]\s*(\d+)\s*)?$")
_SQUARE_RE = re.compile(r"^\s*([a-zA-Z]+)\s*(\d+)\s*$")


def file_name(c: int) -> str:
    """Return the letters of file ``c`` (0 -> ``a``, 25 -> ``z``, 26 -> ``aa``).

    >>> [file_name(c) for c in (0, 7, 25, 26, 27, 701, 702)]
    ['a', 'h', 'z', 'aa', 'ab', 'zz', 'aaa']
    """
    letters = []
    c += 1
    while c > 0:
        c, rest = divmod(c - 1, 26)
        letters.append(chr(ord("a") + rest))
    return "".join(reversed(letters))


def parse_file(letters: str) -> int:
    """Return the file index of ``letters`` (``a`` -> 0, ``aa`` -> 26).

    >>> parse_file("a"), parse_file("z"), parse_file("aa"), parse_file("AD")
    (0, 25, 26, 29)
    """
    c = 0
    for ch in letters.lower():
        c = c * 26 + (ord(ch) - ord("a") + 1)
    return c - 1


@dataclass(frozen=True, init=False)
class Board:
    """A ``rows`` x ``cols`` board; ``holes`` are squares no tour may use.

    Parameters
    ----------
    rows : int
        Number of ranks, numbered from 1 at the bottom.
    cols : int
        Number of files, lettered from a at the left.
    holes : iterable of int or str, optional
        Squares removed from the board: indices or names, or one string such as ``"d4,e5"``.

    Raises
    ------
    InvalidBoard
        If a side is not a positive integer or the board is too large.
    InvalidSquare
        If a hole is not on the board.
    """

    rows: int
    cols: int
    holes: frozenset[int]

    def __init__(self, rows: int, cols: int, holes: Holes = ()) -> None:
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        for side, what in ((self.rows, "rows"), (self.cols, "columns")):
            if isinstance(side, bool) or not isinstance(side, (int, np.integer)):
                raise InvalidBoard(f"The number of {what} must be a whole number, not {side!r}.")
            if side < 1:
                raise InvalidBoard(
                    f"A board needs at least one row and one column, not {shown(self.rows)}x{shown(self.cols)}."
                )
            if side > MAX_SIDE:
                raise InvalidBoard(f"A board side may be at most {MAX_SIDE:,} squares, not {shown(side)}.")
        object.__setattr__(self, "rows", int(self.rows))
        object.__setattr__(self, "cols", int(self.cols))
        if self.rows * self.cols > MAX_SQUARES:
            raise InvalidBoard(
                f"{self.rows}x{self.cols} has {self.rows * self.cols:,} squares; "
                f"at most {MAX_SQUARES:,} are supported."
            )
        if isinstance(holes, str):
            holes = [h for h in re.split(r"[,\s]+", holes) if h]
        object.__setattr__(self, "holes", frozenset(self._square_of(h) for h in holes))
        if len(self.holes) == self.size:
            raise InvalidBoard("Every square of the board is a hole; there is nothing to tour.")

    # -- construction --------------------------------------------------------

    @classmethod
    def parse(cls, text: "str | Board", holes: Holes = ()) -> "Board":
        """Parse ``"8x8"`` (rows x columns) or ``"8"`` (8x8).

        :raises InvalidBoard: if ``text`` is not a board size.

        >>> Board.parse("8"), Board.parse("3x4"), Board.parse(" 5 X 6 ")
        (Board(8x8), Board(3x4), Board(5x6))
        """
        if isinstance(holes, np.ndarray):
            holes = holes.ravel().tolist()
        if isinstance(text, Board):
            return text if not holes else cls(text.rows, text.cols, holes)
        m = _SIZE_RE.match(str(text))
        if not m:
            raise InvalidBoard(
                f"{quoted(str(text))} is not a board size; write ROWSxCOLS such as 8x8, or one number such as 8."
            )
        rows = whole_number(m.group(1), InvalidBoard, "A board side")
        cols = whole_number(m.group(2), InvalidBoard, "A board side") if m.group(2) is not None else rows
        return cls(rows, cols, holes)

    # -- squares -------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of squares, holes included."""
        return self.rows * self.cols

    @property
    def free_count(self) -> int:
        """Number of squares a tour must visit (holes excluded)."""
        return self.size - len(self.holes)

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        return (self.rows, self.cols)

    def index(self, row: int, col: int) -> int:
        """Return the square at 0-based ``row`` (rank - 1) and ``col`` (file)."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise InvalidSquare(f"Row {row}, column {col} is not on the {self.rows}x{self.cols} board.")
        return row * self.cols + col

    def row(self, v: int) -> int:
        """Row of square ``v`` (0 is rank 1)."""
        return v // self.cols

    def col(self, v: int) -> int:
        """Column of square ``v`` (0 is file a)."""
        return v % self.cols

    def name(self, v: int) -> str:
        """Algebraic name of square ``v``, such as ``"c2"``."""
        r, c = divmod(int(v), self.cols)
        return f"{file_name(c)}{r + 1}"

    def names(self, squares: Iterable[int]) -> list[str]:
        """Algebraic names of many squares: from a table of every square's name on a board of at most
        :data:`NAMED_SQUARES` squares (a listing names thousands of tours of one board, and looking names up
        is quicker than building them with numpy for every tour), vectorised on larger ones."""
        if self.size <= NAMED_SQUARES:
            table = self._square_names
            listed = np.asarray(squares, dtype=np.int64).tolist() if isinstance(squares, np.ndarray) else squares
            return [table[v] for v in listed]
        squares = np.asarray(squares if isinstance(squares, (np.ndarray, list, tuple)) else list(squares),
                             dtype=np.int64)
        if squares.size == 0:
            return []
        # Only the files and ranks the squares use are named: a few holes of a board a million
        # columns wide name a few files, not a million.
        files, in_files = np.unique(squares % self.cols, return_inverse=True)
        ranks, in_ranks = np.unique(squares // self.cols, return_inverse=True)
        file_names = np.array([file_name(c) for c in files.tolist()], dtype=object)
        rank_names = np.array([str(r + 1) for r in ranks.tolist()], dtype=object)
        return list(file_names[in_files.reshape(-1)] + rank_names[in_ranks.reshape(-1)])

    def _square_of(self, s: int | str) -> int:
        if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
            v = int(s)
            if not 0 <= v < self.size:
                raise InvalidSquare(f"Square {shown(v)} is not on the {self.rows}x{self.cols} board.")
            return v
        text = str(s)
        m = _SQUARE_RE.match(text)
        if not m:
            raise InvalidSquare(f"{quoted(text)} is not a square name; write a file and a rank such as a1 or c3.")
        c, r = parse_file(m.group(1)), whole_number(m.group(2), InvalidSquare, "A rank") - 1
        if not (0 <= c < self.cols and 0 <= r < self.rows):
            raise InvalidSquare(
                f"{text.strip()} is not on the {self.rows}x{self.cols} board "
                f"(files a-{file_name(self.cols - 1)}, ranks 1-{self.rows})."
            )
        return r * self.cols + c

    def square(self, s: int | str) -> int:
        """Return the index of square ``s`` (a name such as ``"c2"`` or an index).

        :raises InvalidSquare: if it is not on the board or is a hole.
        """
        v = self._square_of(s)
        if v in self.holes:
            raise InvalidSquare(f"{self.name(v)} is a hole on this board; a tour cannot use it.")
        return v

    def colour(self, v: int) -> int:
        """0 for a dark square (the colour of a1), 1 for a light one."""
        r, c = divmod(int(v), self.cols)
        return (r + c) & 1

    @cached_property
    def _square_names(self) -> tuple[str, ...]:
        """The name of every square, in order (boards of at most :data:`NAMED_SQUARES` squares)."""
        files = [file_name(c) for c in range(self.cols)]
        return tuple(f"{f}{r + 1}" for r in range(self.rows) for f in files)

    @cached_property
    def colour_counts(self) -> tuple[int, int]:
        """``(dark, light)``: free squares of a1's colour and of the other colour."""
        if not self.holes:  # a whole board: a1's colour has the extra square of an odd board
            return (self.size + 1) // 2, self.size // 2
        r, c = np.divmod(self.free_squares.astype(np.int64), self.cols)
        light = int(np.count_nonzero((r + c) & 1))
        return self.free_count - light, light

    def is_hole(self, v: int) -> bool:
        """True when square ``v`` is a hole."""
        return v in self.holes

    @cached_property
    def hole_mask(self) -> np.ndarray:
        """Boolean array of length :attr:`size`, True on holes."""
        mask = np.zeros(self.size, dtype=np.bool_)
        if self.holes:
            mask[np.fromiter(self.holes, dtype=np.int64)] = True
        mask.flags.writeable = False
        return mask

    @cached_property
    def free_squares(self) -> np.ndarray:
        """Sorted int32 array of the squares a tour must visit."""
        out = np.flatnonzero(~self.hole_mask).astype(np.int32)
        out.flags.writeable = False
        return out

    def corners(self) -> list[int]:
        """The four corner squares (fewer on a one-row or one-column board)."""
        r, c = self.rows - 1, self.cols - 1
        return sorted({0, c, r * self.cols, r * self.cols + c})

    def symmetries(self) -> np.ndarray:
        """The board's symmetries that map holes to holes, as an int array ``[S, size]``.

        Row ``k`` maps square ``v`` to ``perm[k, v]``. The identity is row 0. A
        rectangle has 4 symmetries, a square 8 (fewer when holes break them).
        """
        R, C = self.rows, self.cols
        r, c = np.divmod(np.arange(self.size, dtype=np.int64), C)
        maps = [
            (r, c, C),
            (r, C - 1 - c, C),
            (R - 1 - r, c, C),
            (R - 1 - r, C - 1 - c, C),
        ]
        if R == C:
            maps += [(c, r, C), (c, C - 1 - r, C), (R - 1 - c, r, C), (R - 1 - c, C - 1 - r, C)]
        perms = [nr * width + nc for nr, nc, width in maps]
        mask = self.hole_mask
        keep = [p for p in perms if np.array_equal(mask[p], mask)]
        return np.array(keep, dtype=np.int64)

    # -- text ----------------------------------------------------------------

    def spec(self) -> dict:
        """JSON-ready description: ``{"rows": R, "cols": C, "holes": ["d4", ...]}``."""
        return {"rows": self.rows, "cols": self.cols, "holes": self.names(sorted(self.holes))}

    @classmethod
    def from_spec(cls, spec: dict | str) -> "Board":
        """Inverse of :meth:`spec`; also accepts a size string such as ``"8x8"``."""
        if isinstance(spec, str):
            return cls.parse(spec)
        if not isinstance(spec, dict):
            raise InvalidBoard(f"A board is a size such as '8x8' or {{'rows': R, 'cols': C}}, not "
                               f"{type(spec).__name__} {str(spec)[:40]}.")
        try:
            return cls(int(spec["rows"]), int(spec["cols"]), spec.get("holes", ()))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, (InvalidBoard, InvalidSquare)):
                raise
            raise InvalidBoard(f"A board needs whole numbers 'rows' and 'cols', not {spec!r}.") from None

    def __str__(self) -> str:
        text = f"{self.rows}x{self.cols}"
        if self.holes:
            text += " without " + ",".join(self.names(sorted(self.holes)))
        return text

    def __repr__(self) -> str:
        return f"Board({self})"


# -- the board as text -------------------------------------------------------------


def grid_lines(board: Board, cells: list[list[str]], width: int) -> list[str]:
    """Lay out ``cells[row][col]`` (row 0 is rank 1) with rank and file labels.

    Each cell is right-aligned in ``width`` characters and preceded by a space.
    """
    label = len(str(board.rows))
    lines = []
    for r in range(board.rows - 1, -1, -1):
        row = "".join(" " + cell.rjust(width) for cell in cells[r])
        lines.append(f"{str(r + 1).rjust(label)} |{row}")
    files = "".join(" " + file_name(c).rjust(width) for c in range(board.cols))
    lines.append(" " * (label + 2) + files)
    return lines


def number_grid(board: Board, numbers: np.ndarray) -> str:
    """The grid of ``numbers[row, col]`` (0 shows as ``.``, holes as ``#``): rank N at the top.

    >>> print(number_grid(Board(2, 3, holes="b1"), np.array([[1, 0, 2], [3, 4, 5]])))
    2 |  3  4  5
    1 |  1  #  2
         a  b  c
    """
    width = max(2, len(str(int(numbers.max()) if numbers.size else 0)), len(file_name(board.cols - 1)))
    hole = board.hole_mask.reshape(board.rows, board.cols)
    cells = [
        ["#" if hole[r, c] else (str(int(numbers[r, c])) if numbers[r, c] else ".") for c in range(board.cols)]
        for r in range(board.rows)
    ]
    return "\n".join(grid_lines(board, cells, width))
