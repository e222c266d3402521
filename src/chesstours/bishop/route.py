"""Bishop routes: the bishop puzzle of a Delphi program, its rule and its checks.

A bishop starts on a square (a1 in the puzzle) and steps one diagonal square at
a time. Each square has two flags, one per diagonal direction: ``A``
(parallel to a1-h8) and ``B`` (parallel to a8-h1). A step from ``x`` to ``y``
along direction ``d`` is allowed only when ``y``'s ``d``-flag is clear, and it
sets the ``d``-flag on both ``x`` and ``y``. So a square is entered at most
once per direction -- at most twice in all -- and no diagonal link is used
twice. A route is solved when it has visited every square of the start's
colour and stands on its end square: the opposite corner in the puzzle
(``end="opposite"``), a chosen square, or anywhere (``end="any"``, as the
Delphi program does, which stops as soon as every square is covered). A
route stops there: it does not go on once solved.

A :class:`BishopRoute` keeps the route as ``steps``, one square per step as
in the Delphi program's move list (``steps[0]`` is the start; a square visited
twice appears twice), and shows it as ``slides`` too: maximal runs in one
direction, the moves a person would play (``a1-h8-...``).

Examples
--------
>>> from chesstours.board import Board
>>> route = BishopRoute.parse("a1-c3-d2-c1-b2-a3-b4-d2", board="4x4", end="any")
>>> route.problem()
"Step 8, from b4 to c3, enters c3 along direction B (parallel to a8-h1), but c3's B flag was set at step 3."
>>> BishopRoute.parse("a1-b2-c1-d2-b4-a3", board="4x4", end="any").problem()
'The route visits 7 of the 8 dark squares; missing: d4.'
>>> route = BishopRoute.parse("a1 b2", board="2x2")
>>> route.validate(); route.slides_text(), route.step_count, route.slide_count
('a1-b2', 1, 1)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from ..board import Board, grid_lines, parse_file
from ..errors import ChessToursError, InvalidArgument, InvalidSquare, NoTour
from ..reading import load_json, quoted, whole_number
from ..tour import InvalidTour, jsonable

__all__ = ["BishopRoute", "route_problem", "opposite_square", "slide_corners", "resolve_end", "END_RULES",
           "DIRECTION_NAMES", "COLOUR_NAMES"]

#: End rules besides a square name.
END_RULES = ("opposite", "any")
#: The two diagonal directions, as the flags' names.
DIRECTION_NAMES = ("A (parallel to a1-h8)", "B (parallel to a8-h1)")
#: Square colours by :meth:`Board.colour`.
COLOUR_NAMES = ("dark", "light")

_NAME_RE = re.compile(r"^([a-zA-Z]+)(\d+)$")


def opposite_square(board: Board, v: int) -> int:
    """The square symmetric to ``v`` through the board's centre (a1 -> the far corner).

    It has ``v``'s colour exactly when rows + columns is even.

    >>> b = Board(8, 8); b.name(opposite_square(b, 0)), b.name(opposite_square(b, b.square("c2")))
    ('h8', 'f7')
    """
    r, c = divmod(int(v), board.cols)
    return (board.rows - 1 - r) * board.cols + (board.cols - 1 - c)


def resolve_end(board: Board, start: int, end: str | int) -> int:
    """The end square of rule ``end`` for a route from ``start``; -1 for ``"any"``.

    :raises NoTour: if the end square has another colour than the start (a bishop
        never changes colour: no route can end there).
    :raises InvalidArgument: if the rule is unknown.
    :raises InvalidSquare: if the end square is not on the board or is a hole.
    """
    colour = COLOUR_NAMES[board.colour(start)]
    if end == "any":
        return -1
    if end == "opposite":
        e = opposite_square(board, start)
        if board.colour(e) != board.colour(start):
            raise NoTour(
                f"No bishop route: on {board} the square opposite {board.name(start)} is {board.name(e)}, a "
                f"{COLOUR_NAMES[board.colour(e)]} square, but a bishop on {board.name(start)} stays on the "
                f"{colour} squares: that needs rows + columns even, and {board.rows} + {board.cols} is odd; "
                f"end 'any' (--end any) or an end square of the start's colour would do.", proof="colour"
            )
        if e in board.holes:
            raise InvalidSquare(f"The square opposite {board.name(start)}, {board.name(e)}, is a hole.")
        return e
    if isinstance(end, str) and not _NAME_RE.match(end.strip()):
        raise InvalidArgument(f"Unknown end {end!r}; use opposite, any, or a square such as h8.")
    e = board.square(end)
    if board.colour(e) != board.colour(start):
        raise NoTour(
            f"No bishop route: {board.name(e)} is a {COLOUR_NAMES[board.colour(e)]} square; a bishop that starts "
            f"on {board.name(start)} stays on the {colour} squares.", proof="colour"
        )
    return e


def slide_corners(board: Board, steps: np.ndarray) -> np.ndarray:
    """Indices into ``steps`` where the route starts, turns, and ends (the slides' ends).

    >>> b = Board(4, 4)
    >>> slide_corners(b, np.array([b.square(s) for s in "a1 b2 c3 d2 c1".split()])).tolist()
    [0, 2, 3, 4]
    """
    steps = np.asarray(steps, dtype=np.int64)
    if steps.size <= 1:
        return np.zeros(min(1, steps.size), dtype=np.int64)
    r, c = np.divmod(steps, board.cols)
    dr, dc = np.diff(r), np.diff(c)
    turns = np.flatnonzero((dr[1:] != dr[:-1]) | (dc[1:] != dc[:-1])) + 1
    return np.concatenate(([0], turns, [steps.size - 1]))


def route_problem(
    board: Board, steps: Iterable[int], end: str | int = "opposite"
) -> tuple[str, int | None] | None:
    """Return ``(sentence, step)`` for the first thing wrong with a route, or None.

    Checks, in order: squares on the board and not holes; each step one
    diagonal square; the flag of the direction clear on the square entered;
    the route not going on once solved; every free square of the start's
    colour visited; the end rule. Step ``i`` goes from ``steps[i - 1]`` to
    ``steps[i]``.
    """
    steps = np.asarray(list(steps) if not isinstance(steps, np.ndarray) else steps)
    if steps.ndim != 1 or steps.size == 0:
        return ("The route is empty.", None)
    if not np.issubdtype(steps.dtype, np.integer):
        return ("The route must be a list of squares.", None)
    for i, v in enumerate(steps.tolist()):
        if not 0 <= v < board.size:
            return (f"Square {i + 1} of the route ({v}) is not on the board.", i)
        if v in board.holes:
            return (f"Square {i + 1} of the route, {board.name(v)}, is a hole.", i)
    start = int(steps[0])
    colour = board.colour(start)
    e = resolve_end(board, start, end)
    cols = board.cols
    target = sum(1 for v in board.free_squares.tolist() if board.colour(v) == colour)
    flag_step = np.full((board.size, 2), -1, dtype=np.int64)  # the step that set each flag
    visited = np.zeros(board.size, dtype=np.bool_)
    visited[start] = True
    covered = 1
    seq = steps.tolist()
    for i in range(1, len(seq)):
        x, y = seq[i - 1], seq[i]
        if covered == target and (e < 0 or x == e):
            where = "" if e < 0 else f" on {board.name(x)}"
            return (f"The route is solved at step {i - 1}{where} "
                    f"(every {COLOUR_NAMES[colour]} square visited) but goes on.", i)
        dr, dc = y // cols - x // cols, y % cols - x % cols
        if abs(dr) != 1 or abs(dc) != 1:
            return (f"Step {i}, from {board.name(x)} to {board.name(y)}, is not a diagonal step of one "
                    f"square.", i)
        axis = 0 if dr == dc else 1
        if flag_step[y, axis] >= 0:
            return (f"Step {i}, from {board.name(x)} to {board.name(y)}, enters {board.name(y)} "
                    f"along direction {DIRECTION_NAMES[axis]}, but {board.name(y)}'s {'AB'[axis]} flag "
                    f"was set at step {flag_step[y, axis]}.", i)
        flag_step[y, axis] = i
        if flag_step[x, axis] < 0:
            flag_step[x, axis] = i
        if not visited[y]:
            visited[y] = True
            covered += 1
    if covered != target:
        missing = [v for v in board.free_squares.tolist() if board.colour(v) == colour and not visited[v]]
        names = ", ".join(board.names(missing[:5])) + (", ..." if len(missing) > 5 else "")
        return (f"The route visits {covered} of the {target} {COLOUR_NAMES[colour]} squares; "
                f"missing: {names}.", None)
    if e >= 0 and seq[-1] != e:
        what = "the opposite corner" if end == "opposite" else "its end square"
        return (f"The route ends on {board.name(seq[-1])}, not on {board.name(e)}, {what}.", len(seq) - 1)
    return None


@dataclass(eq=False)
class BishopRoute:
    """A bishop route over ``board``: ``steps`` lists the squares, one per step.

    Parameters
    ----------
    board : Board
        The board the route crosses.
    steps : array of int
        Squares in visiting order, ``steps[0]`` the start (stored as ``int32``);
        a square visited twice appears twice.
    end : str
        The end rule the route answers: ``"opposite"``, ``"any"`` or a square name.
    closed : bool
        Always False: a bishop route does not return to its start (kept for
        renderers that draw tours and routes alike).
    method : str
        How it was found (``"backtrack"``, ``"shortest"``).
    stats : dict
        What the search measured: ``nodes``, ``seconds``, ...
    """

    board: Board
    steps: np.ndarray
    end: str = "opposite"
    closed: bool = False
    method: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.steps = np.ascontiguousarray(self.steps, dtype=np.int32)

    # -- checks --------------------------------------------------------------

    def problem(self) -> str | None:
        """The first thing wrong with this route under the rule, as a sentence, or None."""
        found = route_problem(self.board, self.steps, self.end)
        return None if found is None else found[0]

    def validate(self) -> None:
        """Check the route under the rule.

        :raises InvalidTour: naming the first bad step.
        """
        found = route_problem(self.board, self.steps, self.end)
        if found is not None:
            raise InvalidTour(*found)

    def is_valid(self) -> bool:
        """True when :meth:`validate` would pass."""
        return route_problem(self.board, self.steps, self.end) is None

    # -- views ---------------------------------------------------------------

    @property
    def path(self) -> np.ndarray:
        """The squares in order (the same as :attr:`steps`), for code that draws tours."""
        return self.steps

    @property
    def start(self) -> int:
        """First square."""
        return int(self.steps[0])

    @property
    def last(self) -> int:
        """Last square."""
        return int(self.steps[-1])

    @property
    def step_count(self) -> int:
        """Number of one-square steps."""
        return int(self.steps.size) - 1

    @property
    def slides(self) -> np.ndarray:
        """The squares where the route starts, turns and ends: its slides' ends."""
        return self.steps[slide_corners(self.board, self.steps)]

    @property
    def slide_count(self) -> int:
        """Number of slides (maximal runs in one direction)."""
        return max(0, int(slide_corners(self.board, self.steps).size) - 1)

    def names(self) -> list[str]:
        """Square names, one per step."""
        return self.board.names(self.steps)

    def moves(self) -> str:
        """The steps on one line, as in the Delphi program's move list: ``"a1 b2 c3 ..."``."""
        return " ".join(self.names())

    def slides_text(self) -> str:
        """The slides as a person would play them: ``"a1-h8-..."``."""
        return "-".join(self.board.names(self.slides))

    def visits(self) -> list[list[int]]:
        """The visit numbers (1-based step positions) of each square, indexed by square."""
        out: list[list[int]] = [[] for _ in range(self.board.size)]
        for i, v in enumerate(self.steps.tolist(), 1):
            out[v].append(i)
        return out

    def grid(self) -> str:
        """The board with each square's visit numbers (``3`` or ``3,17``); rank N at the top.

        Squares not visited show ``.``, holes ``#``.
        """
        visits = self.visits()
        cells = [["" for _ in range(self.board.cols)] for _ in range(self.board.rows)]
        for v in range(self.board.size):
            r, c = divmod(v, self.board.cols)
            if v in self.board.holes:
                cells[r][c] = "#"
            else:
                cells[r][c] = ",".join(map(str, visits[v])) or "."
        width = max(2, max(len(cell) for row in cells for cell in row))
        return "\n".join(grid_lines(self.board, cells, width))

    def title(self) -> str:
        """What a picture of the route shows: its board, ends, slides and steps."""
        b, slides = self.board, self.slide_count
        return (f"Bishop route on {b}, from {b.name(self.start)} to {b.name(self.last)}, "
                f"{slides} slide{'' if slides == 1 else 's'}, {self.step_count} steps")

    def drawing(self) -> dict[str, Any]:
        """A bishop moves; the line turns, and is dotted, only at the slides' ends; the squares of the other
        colour, which the bishop never reaches, are grey."""
        return {"figure": "bishop", "corners": slide_corners(self.board, self.steps),
                "faded": 1 - self.board.colour(self.start)}

    def summary(self) -> str:
        """One line: ``"17 slides, 56 steps: a1-h8-..."``."""
        return f"{self.slide_count} slides, {self.step_count} steps: {self.slides_text()}"

    def __len__(self) -> int:
        return int(self.steps.size)

    def __repr__(self) -> str:
        return (f"BishopRoute({self.board}, {self.board.name(self.start)}..{self.board.name(self.last)}, "
                f"{self.slide_count} slides, {self.step_count} steps)")

    # -- JSON and text -------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: board, start, end rule, steps, slides, counts, closed, stats."""
        return {
            "board": self.board.spec(),
            "start": self.board.name(self.start),
            "end": self.end,
            "steps": self.names(),
            "slides": self.board.names(self.slides),
            "step_count": self.step_count,
            "slide_count": self.slide_count,
            "closed": False,
            "method": self.method,
            "stats": jsonable(self.stats),
        }

    def to_json(self) -> str:
        """One-line JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any], end: str | None = None) -> "BishopRoute":
        """Inverse of :meth:`to_dict`; ``steps`` or, failing them, ``slides`` give the route."""
        board = Board.from_spec(data["board"])
        squares = data.get("steps") or data.get("slides")
        if not squares:
            raise InvalidTour("A JSON bishop route needs 'steps' (or 'slides').")
        steps = _expand(board, [board._square_of(s) if isinstance(s, str) else int(s) for s in squares])
        return cls(board, steps, end or str(data.get("end", "opposite")), False, str(data.get("method", "")),
                   dict(data.get("stats", {})))

    @classmethod
    def parse(cls, text: str, board: Board | str | None = None, holes: str = "",
              end: str | None = None) -> "BishopRoute":
        """Read a route written as steps (``"a1 b2 c3"``), slides (``"a1-c3-a5"``) or JSON.

        Two squares in a row on one diagonal, more than one step apart, stand
        for the slide between them. Without ``board``, a text route is taken
        to cover the smallest board that holds its squares; ``end`` defaults to
        the JSON's own, else ``"opposite"``.

        :raises InvalidTour: if the text is neither.
        """
        text = text.strip()
        if not text:
            raise InvalidTour("The route is empty.")
        if text.startswith("{"):
            data = load_json(text, InvalidTour, "The route")
            if not isinstance(data, dict) or "board" not in data:
                raise InvalidTour("A JSON bishop route needs a 'board' and 'steps'.")
            if board is not None:
                data["board"] = Board.parse(board, holes).spec()
            try:
                return cls.from_dict(data, end)
            except (KeyError, TypeError, ValueError) as exc:
                if isinstance(exc, ChessToursError):
                    raise
                raise InvalidTour(f"The JSON route is malformed: {exc}.") from None
        words = [w for w in re.split(r"[\s,;]+|-(?=[a-zA-Z])", text) if w]
        squares = []
        for w in words:
            m = _NAME_RE.match(w)
            if not m:
                raise InvalidTour(f"{quoted(w)} is not a square name; a route is a list such as a1 b2 c3 "
                                  f"or a1-c3-a5.")
            squares.append((whole_number(m.group(2), InvalidSquare, "A rank") - 1, parse_file(m.group(1))))
        if board is None:
            the_board = Board(max(r for r, _ in squares) + 1, max(c for _, c in squares) + 1, holes)
        else:
            the_board = Board.parse(board, holes)
        for (r, c), w in zip(squares, words):
            if not (0 <= r < the_board.rows and 0 <= c < the_board.cols):
                raise InvalidSquare(f"{w} is not on the {the_board.rows}x{the_board.cols} board.")
        steps = _expand(the_board, [r * the_board.cols + c for r, c in squares])
        return cls(the_board, steps, end or "opposite")


def _expand(board: Board, squares: list[int]) -> np.ndarray:
    """Fill in the squares between two squares on one diagonal; other pairs are kept as they are."""
    out = squares[:1]
    for x, y in zip(squares, squares[1:]):
        dr, dc = y // board.cols - x // board.cols, y % board.cols - x % board.cols
        if abs(dr) == abs(dc) > 1:
            sr, sc = (1 if dr > 0 else -1), (1 if dc > 0 else -1)
            out.extend(x + k * (sr * board.cols + sc) for k in range(1, abs(dr)))
        out.append(y)
    return np.array(out, dtype=np.int32)
