"""Tours: a path of squares on a board, open or closed, and its checks.

A :class:`Tour` visits every free square of its board exactly once, each step a
leap of its piece; a closed tour also leaps from its last square back to its
first. :meth:`Tour.validate` checks all of that in O(N) with numpy, and every
tour the api returns has passed it.

Examples
--------
>>> from chesstours.board import Board
>>> t = Tour.from_names(Board(3, 4), "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3".split())
>>> t.validate()
>>> print(t.grid())
3 |  3  6  9 12
2 |  8 11  2  5
1 |  1  4  7 10
     a  b  c  d
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Protocol, overload, runtime_checkable

import numpy as np

from .board import Board, number_grid, parse_file
from .errors import ChessToursError, InvalidSquare
from .paths import InvalidTour, first_problem, path_array
from .pieces import KNIGHT, Leaper, parse_piece
from .reading import load_json, quoted, whole_number

__all__ = ["Tour", "Drawable", "InvalidTour", "first_problem", "jsonable", "path_array"]


_NAME_RE = re.compile(r"^([a-zA-Z]+)(\d+)$")
#: A rank line of a numbered grid (:meth:`Tour.grid`): ``"8 | 22  7 44 ..."``.
_GRID_ROW = re.compile(r"^\s*(\d+) \|(.*)$")


@runtime_checkable
class Drawable(Protocol):
    """Anything :mod:`chesstours.render` draws: a :class:`Tour`, or a bishop route.

    A board, the squares of a path in visiting order (a square may come
    twice, as on a bishop route), whether the path closes, a title for the
    picture, and how it is drawn besides its squares (:meth:`drawing`: the
    figure that moves, say).
    """

    @property
    def board(self) -> Board: ...

    @property
    def path(self) -> np.ndarray: ...

    @property
    def closed(self) -> bool: ...

    def title(self) -> str:
        """One line that says what the picture shows."""
        ...

    def drawing(self) -> dict[str, Any]:
        """Keyword arguments for the renderer's scene besides the squares (empty for a knight's tour)."""
        ...


@dataclass(eq=False, frozen=True)
class Tour:
    """A tour of ``piece`` over ``board``: ``path`` lists the squares in order.

    A tour is a value: its fields cannot be set and its path is a read-only array (make a changed tour with
    :func:`dataclasses.replace`, or from ``tour.path.copy()``).

    Parameters
    ----------
    board : Board
        The board the tour covers.
    piece : Leaper
        The leaper that makes its moves.
    path : array of int
        Square indices in visiting order (stored as ``int32``).
    closed : bool, optional
        True when the last square leaps back to the first.
    method : str, optional
        The method that found it (``"warnsdorff"``, ``"backtrack"`` ...).
    stats : dict, optional
        What the method measured: ``nodes``, ``seconds``, ...
    """

    board: Board
    piece: Leaper
    path: np.ndarray
    closed: bool = False
    method: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        given = self.path
        path = path_array(given)
        if path.flags.writeable and (path is given or np.shares_memory(path, given)):
            path = path.copy()  # the caller's array stays the caller's, and writable
        path.flags.writeable = False
        object.__setattr__(self, "path", path)

    # -- construction --------------------------------------------------------

    @classmethod
    def from_names(
        cls,
        board: Board | str | tuple[int, int] | int,
        names: Iterable[str],
        piece: Leaper | str = KNIGHT,
        closed: bool = False,
        method: str = "",
    ) -> "Tour":
        """Build a tour from square names; the squares are checked, the tour is not.

        ``board`` and ``piece`` as everywhere (``"6x6"``, ``(6, 6)``, a :class:`Board`; ``"zebra"``, ``"1,2"``).

        >>> Tour.from_names("3x4", "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3".split()).is_valid()
        True
        """
        from .arguments import as_board

        board = as_board(board)
        if isinstance(names, str):
            names = names.replace(",", " ").split()
        path = [board.square(s) for s in names]
        return cls(board, parse_piece(piece), np.array(path, dtype=np.int32), closed, method)

    @classmethod
    def parse(
        cls,
        text: str,
        board: Board | str | None = None,
        holes: str = "",
        piece: Leaper | str | None = None,
        closed: bool | None = None,
    ) -> "Tour":
        """Read a tour written as moves (``"a1 c2 e1 ..."``, commas or dashes allowed), as JSON, or as the
        numbered grid that :meth:`grid` draws (its board and holes read from it).

        Without ``board``, a moves text is taken to cover the smallest board
        that holds all its squares. ``piece``, ``closed`` and ``board`` given
        here override the JSON's own.

        :raises InvalidTour: if the text is none of these.

        >>> Tour.parse("a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3").board
        Board(3x4)
        >>> Tour.parse("3 |  3  6 11  8\\n2 | 12  9  2  5\\n1 |  1  4  7 10\\n     a  b  c  d").moves()
        'a1 c2 a3 b1 d2 b3 c1 d3 b2 d1 c3 a2'
        """
        text = text.strip()
        if not text:
            raise InvalidTour("The tour is empty.")
        if _GRID_ROW.match(text.splitlines()[0]):
            return cls._from_grid(text, holes, piece, closed)
        if text.startswith("{"):
            data = load_json(text, InvalidTour, "The tour")
            if not isinstance(data, dict) or "path" not in data or "board" not in data:
                raise InvalidTour("A JSON tour needs a 'board' and a 'path'.")
            if board is not None:
                data["board"] = Board.parse(board, holes).spec()
            if piece is not None:
                data["piece"] = {"leap": list(parse_piece(piece).leap)}
            if closed is not None:
                data["closed"] = closed
            try:
                return cls.from_dict(data)
            except (KeyError, TypeError, ValueError) as exc:
                if isinstance(exc, ChessToursError):
                    raise
                raise InvalidTour(f"The JSON tour is malformed: {exc}.") from None
        names = [w for w in re.split(r"[\s,;]+|-(?=[a-zA-Z])", text) if w]
        squares = []
        for w in names:
            m = _NAME_RE.match(w)
            if not m:
                raise InvalidTour(f"{quoted(w)} is not a square name; a tour is a list such as a1 c2 e1.")
            squares.append((whole_number(m.group(2), InvalidSquare, "A rank") - 1, parse_file(m.group(1))))
        if board is None:
            rows = max(r for r, _ in squares) + 1
            cols = max(c for _, c in squares) + 1
            the_board = Board(rows, cols, holes)
        else:
            the_board = Board.parse(board, holes)
        for (r, c), w in zip(squares, names):
            if not (0 <= r < the_board.rows and 0 <= c < the_board.cols):
                raise InvalidSquare(f"{w} is not on the {the_board.rows}x{the_board.cols} board.")
        path = np.array([r * the_board.cols + c for r, c in squares], dtype=np.int32)
        return cls(the_board, parse_piece(piece or "knight"), path, bool(closed))

    @classmethod
    def parse_all(cls, text: str, board: Board | str | None = None, holes: str = "",
                  piece: Leaper | str | None = None, closed: bool | None = None) -> list["Tour"]:
        """The tours of a text: one as :meth:`parse` reads it, or JSON lines (one tour a line, as
        ``chesstours tours --format json`` writes them).

        :raises InvalidTour: naming the line of a tour that cannot be read.
        """
        lines = [line for line in text.strip().splitlines() if line.strip()]
        if len(lines) < 2 or not all(line.lstrip().startswith("{") for line in lines):
            return [cls.parse(text, board, holes, piece, closed)]
        tours = []
        for i, line in enumerate(lines, 1):
            try:
                tours.append(cls.parse(line, board, holes, piece, closed))
            except InvalidTour as exc:
                raise InvalidTour(f"Line {i}: {exc}") from None
        return tours

    @classmethod
    def _from_grid(cls, text: str, holes: str, piece: Leaper | str | None, closed: bool | None) -> "Tour":
        """The tour of a numbered grid (:meth:`grid`): rank lines ``N | 3 18 # ...``, then the files."""
        rows = [m for line in text.splitlines() if (m := _GRID_ROW.match(line))]
        ranks = [whole_number(m.group(1), InvalidTour, "A rank") for m in rows]
        if ranks != list(range(len(rows), 0, -1)):
            raise InvalidTour("A numbered grid lists its ranks from the top one down to 1.")
        cells = [m.group(2).split() for m in reversed(rows)]  # rank 1 first, as squares are numbered
        cols = len(cells[0])
        if not cols or any(len(line) != cols for line in cells):
            raise InvalidTour("Every rank of a numbered grid has as many squares.")
        flat = [cell for line in cells for cell in line]
        board = Board(len(rows), cols, [v for v, cell in enumerate(flat) if cell == "#"] + list(
            Board.parse(f"{len(rows)}x{cols}", holes).holes))
        steps: dict[int, int] = {}
        for v, cell in enumerate(flat):
            if cell in ("#", "."):
                continue
            if not cell.isdigit():
                raise InvalidTour(f"{quoted(cell)} in the grid is not a move number, '#' (a hole) or '.'.")
            step = whole_number(cell, InvalidTour, "A move number")
            if step in steps:
                raise InvalidTour(f"Move {step} is on both {board.name(steps[step])} and {board.name(v)}.")
            steps[step] = v
        if sorted(steps) != list(range(1, len(steps) + 1)):
            raise InvalidTour(f"The grid's moves are not numbered 1 to {len(steps)} without a gap.")
        path = np.array([steps[k] for k in sorted(steps)], dtype=np.int32)
        return cls(board, parse_piece(piece or "knight"), path, bool(closed))

    # -- checks --------------------------------------------------------------

    def problem(self) -> str | None:
        """The first thing wrong with this tour, as a sentence, or None."""
        found = first_problem(self.board, self.piece, self.path, self.closed)
        return None if found is None else found[0]

    def validate(self) -> None:
        """Check every square once, every step a leap, and the closing leap.

        :raises InvalidTour: naming the first problem.
        """
        found = first_problem(self.board, self.piece, self.path, self.closed)
        if found is not None:
            raise InvalidTour(*found)

    def validated(self) -> "Tour":
        """This tour, after :meth:`validate`: every tour leaves the library through here.

        :raises InvalidTour: naming the first problem.
        """
        self.validate()
        return self

    def is_valid(self) -> bool:
        """True when :meth:`validate` would pass."""
        return first_problem(self.board, self.piece, self.path, self.closed) is None

    def is_reentrant(self) -> bool:
        """True when the last square is one leap from the first (a closed tour can be made)."""
        b = self.board
        p0, p1 = int(self.path[0]), int(self.path[-1])
        return len(self.path) > 1 and self.piece.is_move(b.row(p1) - b.row(p0), b.col(p1) - b.col(p0))

    # -- views ---------------------------------------------------------------

    def __len__(self) -> int:
        return int(self.path.size)

    def __iter__(self) -> Iterator[int]:
        """The squares in order, as ints."""
        return iter(self.path.tolist())

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        """The square at move ``i`` (from 0), or a list of squares for a slice."""
        if isinstance(i, slice):
            return self.path[i].tolist()
        return int(self.path[i])

    def __contains__(self, square: object) -> bool:
        """True when the tour visits ``square`` (an index or a name such as ``"c3"``)."""
        if isinstance(square, str):
            try:
                square = self.board.square(square)
            except ChessToursError:
                return False
        return isinstance(square, (int, np.integer)) and bool((self.path == square).any())

    def __eq__(self, other: object) -> bool:
        """Tours are equal when their board, piece, squares in order and closedness are (how and when they
        were found aside): a tour read back from its JSON equals the tour."""
        if not isinstance(other, Tour):
            return NotImplemented
        return (self.board == other.board and self.piece == other.piece and bool(self.closed) == bool(other.closed)
                and np.array_equal(self.path, other.path))

    def __hash__(self) -> int:
        return hash((self.board, self.piece, bool(self.closed), self.path.tobytes()))

    def to_networkx(self, directed: bool = False) -> Any:
        """The tour as a networkx graph: its squares (with ``name``, ``row``, ``col`` and ``step``, from 1)
        and its moves (with ``step``), the closing move too for a closed tour.

        A :class:`networkx.Graph`, or with ``directed`` a :class:`networkx.DiGraph` whose edges follow the
        tour. Needs networkx (``pip install 'chesstours[graph]'``).
        """
        from .graph import tour_graph

        return tour_graph(self, directed)

    @property
    def start(self) -> int:
        """First square."""
        return int(self.path[0])

    @property
    def end(self) -> int:
        """Last square."""
        return int(self.path[-1])

    def names(self) -> list[str]:
        """Square names in visiting order."""
        return self.board.names(self.path)

    def moves(self) -> str:
        """The path on one line: ``"a1 c2 e1 ..."``."""
        return " ".join(self.names())

    def numbers(self) -> np.ndarray:
        """``int64[rows, cols]``: the move number (1..N) of each square, 0 on holes; row 0 is rank 1."""
        grid = np.zeros(self.board.size, dtype=np.int64)
        grid[self.path] = np.arange(1, self.path.size + 1)
        return grid.reshape(self.board.rows, self.board.cols)

    def grid(self) -> str:
        """The numbered board: rank N at the top, rank numbers left, files below.

        Holes are shown as ``#``.
        """
        return number_grid(self.board, self.numbers())

    def title(self) -> str:
        """``"Tour of a knight on 8x8, from a1 to h8"``: what a picture of it shows."""
        kind = "Closed tour" if self.closed else "Tour"
        ends = f", from {self.board.name(self.start)} to {self.board.name(self.end)}" if len(self) else ""
        return f"{kind} of a {self.piece.name} on {self.board}{ends}"

    def drawing(self) -> dict[str, Any]:
        """A knight's tour is drawn with the defaults: nothing to add."""
        return {}

    def rotated(self, start: int | str) -> "Tour":
        """For a closed tour: the same cycle started at square ``start`` (a number or a name such as ``"a1"``).

        :raises InvalidSquare: if ``start`` is not on the board or not on the tour.
        """
        start = self.board.square(start)
        where = np.flatnonzero(self.path == start)
        if where.size == 0:
            raise InvalidSquare(f"{self.board.name(start)} is not on this tour.")
        path = np.roll(self.path, -int(where[0]))
        return Tour(self.board, self.piece, path, self.closed, self.method, dict(self.stats))

    def reversed(self) -> "Tour":
        """The same tour walked backwards (a closed tour keeps its start)."""
        path = self.path[::-1]
        if self.closed:
            path = np.roll(path, 1)
        return Tour(self.board, self.piece, path, self.closed, self.method, dict(self.stats))

    # -- JSON ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the CLI's ``--format json``)."""
        return {
            "board": self.board.spec(),
            "piece": self.piece.spec(),
            "closed": bool(self.closed),
            "path": self.names(),
            "method": self.method,
            "stats": jsonable(self.stats),
        }

    def to_json(self) -> str:
        """One-line JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Tour":
        """Inverse of :meth:`to_dict` (``piece`` and ``closed`` optional).

        The board may be ``{"rows": R, "cols": C, "holes": [...]}`` or ``"8x8"``.

        :raises InvalidTour: if ``data`` is not a dict or lacks ``board`` or ``path``.
        """
        if not isinstance(data, dict):
            raise InvalidTour(f"A tour as a dict has a 'board' and a 'path', not {type(data).__name__}.")
        missing = [key for key in ("board", "path") if key not in data]
        if missing:
            raise InvalidTour(f"A tour as a dict needs {' and '.join(repr(k) for k in missing)}; it has "
                              f"{', '.join(repr(str(k))[:40] for k in list(data)[:8]) or 'no key'}.")
        board = Board.from_spec(data["board"])
        piece_spec = data.get("piece", {"leap": [1, 2]})
        if isinstance(piece_spec, dict):
            leap = piece_spec.get("leap") or piece_spec.get("name", "knight")
            piece = parse_piece(tuple(leap) if isinstance(leap, list) else leap)
        else:
            piece = parse_piece(piece_spec)
        path = data["path"]
        if not isinstance(path, list):
            raise InvalidTour("A JSON tour's 'path' is a list of squares.")
        if path and isinstance(path[0], str):
            squares: list[Any] = [board._square_of(s) if isinstance(s, str) else s for s in path]
        else:
            squares = path
        return cls(board, piece, path_array(squares), bool(data.get("closed", False)),
                   str(data.get("method", "")), dict(data.get("stats", {})))

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        ends = f"{self.board.name(self.start)}..{self.board.name(self.end)}" if len(self) else "empty"
        return f"Tour({self.board}, {self.piece.name}, {kind}, {ends})"


def jsonable(value: Any) -> Any:
    """Turn numpy scalars inside ``value`` into Python numbers for JSON."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value
