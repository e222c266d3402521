"""The search made visible: every move, every move given up, every step back.

A classic page on the decision problem -- can the knight visit every square
of an n x n board from its corner? -- teaches backtracking by hand: "Move 14
... we can no longer make another move, so we go back to the previous
situation of move 13 ... we can move to the c3 field, so we make new move
14". :func:`trace_search` produces that story for any board, as a stream of
:class:`TraceEvent`.

The story is not a retelling. For backtracking, the events are read off the
search itself (:class:`chesstours.backtrack.search.Search`: the compiled
kernel, or on a small board its plain-Python twin, which moves as the kernel
moves), run one position at a time: its move order, its pruning and its steps back are
the ones shown, so the trace cannot disagree with the real search. A move
the kernel gives up at once -- because it would cut a square off, or leave
two squares that could only be the last, or one that could only be the last
on a colour no tour from the start ends on -- is shown as *skipped*, with the
square that makes it hopeless (found again here in plain Python, only to say
why). For Warnsdorff's rule (Algorithm 1 of a 2011 student research dossier
(TIPE) on the knight's tour) the walk of :func:`chesstours.warnsdorff.walk.warnsdorff` is
replayed with each candidate square's weight -- its number of onward moves --
so the choice of the smallest can be seen.

References
----------
.. [1] D. H. Lehmer, "Combinatorial problems with digital computers", 1958.
.. [2] H. C. von Warnsdorff, "Des Rösselsprunges einfachste und allgemeinste
   Lösung", Schmalkalden, 1823.

Examples
--------
>>> from chesstours.board import Board
>>> b = Board(5, 5)
>>> for event in list(trace_search(b, "a1"))[:4]:
...     print(event.describe(b))
Move 1: start on a1.
Move 2: a1 to b3.
Move 3: b3 to c5.
Move 4: c5 to e4.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import numpy as np

from . import policy
from .arguments import prepare_query
from .backtrack import layout as _bk
from .backtrack import search as _bt
from .board import Board, Holes
from .colours import COLOUR_NAMES
from .colours import end_squares as colour_ends
from .errors import InvalidArgument
from .pieces import KNIGHT, Leaper, move_table
from .warnsdorff.walk import warnsdorff

__all__ = ["TraceEvent", "trace_search", "trace_backtrack", "trace_warnsdorff", "TRACE_METHODS",
           "START", "MOVE", "SKIP", "BACK", "TOUR", "STUCK", "DONE"]

#: Methods that can be traced.
TRACE_METHODS = ("backtrack", "warnsdorff")

START, MOVE, SKIP, BACK, TOUR, STUCK, DONE = "start", "move", "skip", "back", "tour", "stuck", "done"


@dataclass(frozen=True)
class TraceEvent:
    """One step of a search.

    Attributes
    ----------
    kind : str
        ``start``; ``move`` (the path grows by ``square``); ``skip`` (the move to
        ``square`` was tried and given up at once, ``reason`` says why, naming
        ``culprit``); ``back`` (no move left from ``square``: it leaves the path);
        ``tour`` (the path is a whole tour); ``stuck`` (Warnsdorff's rule reached a
        dead end); ``done`` (nothing is left to search).
    step : int
        The move number concerned: the start square is move 1.
    square : int
        The square moved to, tried, or left (-1 for ``done``).
    path : tuple of int
        The path after the event.
    candidates : tuple of (int, int)
        Moves not yet tried from the end of the path, each with its number of
        onward moves (Warnsdorff's weight).
    new : bool
        For ``move``: the path had reached this move number before and
        stepped back (the "new move 14" of the page that teaches backtracking
        by hand).
    weights : bool
        Whether the search orders moves by weight (Warnsdorff).
    nodes : int
        Positions tried so far (the kernel's count).
    weight : int
        For ``move``: the onward moves the square had when it was chosen
        (shown when the search weighs moves).
    """

    kind: str
    step: int
    square: int
    path: tuple[int, ...]
    candidates: tuple[tuple[int, int], ...] = ()
    culprit: int = -1
    reason: str = ""
    new: bool = False
    weights: bool = False
    closed: bool = False
    nodes: int = 0
    weight: int = -1

    def to_dict(self, board: Board) -> dict:
        """JSON-ready dict, squares by name; ``text`` is :meth:`describe`.

        ``square`` and ``culprit`` are None where the event has none;
        ``candidates`` lists ``{"square", "weight"}`` for each move not yet tried.

        >>> b = Board(5, 5)
        >>> first = next(iter(trace_search(b, "a1")))
        >>> d = first.to_dict(b); d["kind"], d["path"], [c["square"] for c in d["candidates"]]
        ('start', ['a1'], ['b3', 'c2'])
        """
        name = board.name
        return {
            "kind": self.kind,
            "step": self.step,
            "square": name(self.square) if self.square >= 0 else None,
            "path": [name(v) for v in self.path],
            "candidates": [{"square": name(u), "weight": w} for u, w in self.candidates],
            "culprit": name(self.culprit) if self.culprit >= 0 else None,
            "reason": self.reason,
            "new": self.new,
            "weight": self.weight if self.weight >= 0 else None,
            "nodes": self.nodes,
            "text": self.describe(board),
        }

    def describe(self, board: Board) -> str:
        """One sentence, in the words of the page that teaches backtracking by hand."""
        name = board.name
        here = name(self.path[-1]) if self.path else ""
        if self.kind == START:
            return f"Move 1: start on {name(self.square)}."
        if self.kind == MOVE:
            frm = name(self.path[-2])
            weight = ""
            if self.weights and self.weight >= 0:
                weight = f" ({self.weight} onward move{'' if self.weight == 1 else 's'})"
            if self.new:
                return f"Move {self.step}: new move {self.step} from {frm} to {name(self.square)}{weight}."
            return f"Move {self.step}: {frm} to {name(self.square)}{weight}."
        if self.kind == SKIP:
            return f"Move {self.step}: {here} to {name(self.square)} is skipped: {self.reason}."
        if self.kind == BACK:
            if self.reason and self.path:
                return (f"Back from {name(self.square)} to move {self.step - 1} on {here}, "
                        "to look for another tour.")
            if not self.path:
                return f"No move left from {name(self.square)}, the start: the search is over."
            return f"No move left from {name(self.square)}: back to move {self.step - 1} on {here}."
        if self.kind == TOUR:
            kind = "closed tour" if self.closed else "tour"
            return f"A {kind} of {len(self.path)} squares, after trying {self.nodes:,} positions."
        if self.kind == STUCK:
            return (f"Dead end on {here} after {len(self.path)} of {board.free_count} squares: "
                    "Warnsdorff's rule never steps back.")
        if self.kind == DONE:
            return f"Search over after {self.nodes:,} positions."
        return self.kind


def _candidates(search, depth: int) -> tuple[tuple[int, int], ...]:
    """The untried moves at ``depth`` of the kernel's stack, with their onward moves."""
    c = int(search.stack_square[depth])
    squares = [int(search.table[c, j]) for j in search.untried(depth)]
    return tuple((u, int(search.degree[u])) for u in squares)


def _not_an_end(board: Board, start: int, end: int | None, closed: bool) -> Callable[[int], str]:
    """What keeps a square from ending the tour, in words (the search's ``end_ok`` is 0 there)."""
    if closed and end is None:
        return lambda u: "not a move from the start"
    if end is not None:
        return lambda u: "not the chosen last square"

    def colour(u: int) -> str:
        word = COLOUR_NAMES[board.colour(u)]
        return f"{word}: no tour from {board.name(start)} ends on a {word} square"
    return colour


def _why_skipped(board: Board, table, visited, degree, end_ok, forced: int, c: int, x: int, remaining: int,
                 not_an_end: Callable[[int], str]) -> tuple[int, str]:
    """Why the kernel gave up the move ``c -> x`` at once: ``(culprit, reason)``.

    The state is the kernel's just before the move. This repeats, in plain
    Python, the tests of :func:`chesstours.backtrack.kernel.advance` only to
    name the square that made the move hopeless.
    """
    name = board.name
    if remaining == 0:
        return x, f"it would end the tour on {name(x)}, which is {not_an_end(x)}"
    row = [int(u) for u in table[x] if u >= 0]
    deg = degree.copy()
    for u in row:
        deg[u] -= 1
    if remaining > 1:
        for u in row:
            if not visited[u] and deg[u] == 0:
                return u, (f"{name(u)} could then only be entered from {name(x)}, as the last square, "
                           "with other squares still free")
    near_x = set(row)
    for u in (int(u) for u in table[c] if u >= 0):
        if visited[u] or u == x or u in near_x:
            continue
        d = int(deg[u])
        if d == 0:
            return u, f"it would cut {name(u)} off: every square next to it would be taken"
        if d == 1 and u != forced:
            if forced >= 0:
                return u, (f"{name(u)} and {name(forced)} would both have only one way in, "
                           "and only one can be last")
            if not end_ok[u]:
                return u, (f"{name(u)} would have only one way in, so it would have to be last, "
                           f"and it is {not_an_end(u)}")
            forced = u
    return -1, "the kernel found it hopeless"


def trace_backtrack(board: Board, start: int, end: int | None = None, closed: bool = False,
                    piece: Leaper = KNIGHT, order: policy.Order = policy.LIST_ORDER) -> Iterator[TraceEvent]:
    """Events of the backtracking kernel, one position at a time (see the module docstring).

    After a tour the search goes on, as when listing every tour, until nothing is left.
    """
    policy.check_find("backtrack", None, order)
    table = move_table(board, piece)
    holes = board.hole_mask if board.holes else None
    end_squares: Sequence[int] | None = None
    if closed and end is None:
        end_squares = [int(u) for u in table[start] if u >= 0]
    elif end is None:  # as a count's or a search's tasks: the tour ends where its colours allow
        end_squares = colour_ends(board, piece, start)
    not_an_end = _not_an_end(board, start, end, closed)
    search = _bt.Search(table, [start], end=end, end_squares=end_squares, order=order, holes=holes,
                        plain=policy.plain_allowance(board))
    weights = order == "warnsdorff"
    regs, stack = search.regs, search.stack_square

    def event(kind, step, square, depth, **more):
        path = tuple(int(v) for v in stack[: depth + 1]) if depth >= 0 else ()
        cand = _candidates(search, depth) if depth >= 0 and kind in (START, MOVE, SKIP, BACK) else ()
        return TraceEvent(kind, step, square, path, cand, weights=weights, closed=closed, nodes=search.nodes,
                          **more)

    def backs(top: int, bottom: int, after_tour: bool = False):
        # The kernel stepped back from depths top, top-1, ..., bottom+1.
        for d in range(top, bottom, -1):
            yield event(BACK, d + 1, int(stack[d]), d - 1,
                        reason="after a tour" if after_tour and d == top else "")

    yield event(START, 1, start, 0)
    if search.done:
        if search.count:
            yield event(TOUR, 1, start, 0)
        yield event(DONE, 1, -1, -1)
        return
    base = int(regs[_bk.REG_BASE])
    reached = 1  # deepest move number reached so far: a move there again is a "new move"
    while True:
        depth = int(regs[_bk.REG_DEPTH])
        if regs[_bk.REG_PENDING]:
            # A tour is on the stack: the kernel first steps back from it.
            status = search.run(0)
            low = base - 1 if status == _bt.EXHAUSTED else int(regs[_bk.REG_DEPTH])
            yield from backs(depth, low, after_tour=True)
        else:
            c = int(stack[depth])
            x = int(table[c, search.untried(depth)[0]])
            slot = depth + 1
            remaining = int(regs[_bk.REG_FREE]) - depth - 2
            visited, degree = search.visited.copy(), search.degree.copy()
            forced = int(search.stack_forced[depth])
            # The slot above the stack top is not read before the kernel writes it
            # (a placed square goes there first), so a marker in it tells whether x was placed.
            old = int(stack[slot])
            stack[slot] = -1
            status = search.run(1, stop_at_tour=True)
            placed = int(stack[slot]) == x
            if not placed:
                stack[slot] = old
            if status == _bt.FOUND:
                yield event(MOVE, slot + 1, x, slot, new=slot + 1 <= reached, weight=int(degree[x]))
                reached = max(reached, slot + 1)
                yield event(TOUR, slot + 1, x, slot)
                continue
            low = base - 1 if status == _bt.EXHAUSTED else int(regs[_bk.REG_DEPTH])
            if placed:
                yield event(MOVE, slot + 1, x, slot, new=slot + 1 <= reached, weight=int(degree[x]))
                reached = max(reached, slot + 1)
                yield from backs(slot, low)
            else:
                culprit, reason = _why_skipped(board, table, visited, degree, search.end_ok, forced, c, x,
                                               remaining, not_an_end)
                yield event(SKIP, slot + 1, x, depth, culprit=culprit, reason=reason)
                yield from backs(depth, low)
        if status == _bt.EXHAUSTED:
            yield event(DONE, 1, -1, -1)
            return


def trace_warnsdorff(board: Board, start: int, end: int | None = None, closed: bool = False,
                     piece: Leaper = KNIGHT, tiebreak: str = "roth", seed: int = 0) -> Iterator[TraceEvent]:
    """Events of Warnsdorff's rule: the engine's walk, replayed with every candidate's weight."""
    result = warnsdorff(board, start, piece, tiebreak, seed, end=end, closed=closed)
    table = move_table(board, piece)
    free = ~board.hole_mask
    visited = np.zeros(board.size, dtype=bool)
    weight = np.array([int(sum(1 for u in row if u >= 0)) for row in table], dtype=np.int64)
    path: list[int] = []
    n = board.free_count

    def candidates() -> tuple[tuple[int, int], ...]:
        here = path[-1]
        last = len(path) == n - 1
        return tuple((int(u), int(weight[u])) for u in table[here]
                     if u >= 0 and free[u] and not visited[u] and (u != end or last))

    for i, v in enumerate(result.path.tolist()):
        chosen = int(weight[v])
        visited[v] = True
        for u in table[v]:
            if u >= 0:
                weight[u] -= 1
        path.append(v)
        kind = START if i == 0 else MOVE
        yield TraceEvent(kind, i + 1, v, tuple(path), candidates(), weights=True, closed=closed, nodes=i + 1,
                         weight=chosen)
    if result.complete:
        yield TraceEvent(TOUR, len(path), path[-1], tuple(path), weights=True,
                         closed=closed and result.closed,
                         nodes=len(path))
    else:
        yield TraceEvent(STUCK, len(path), path[-1], tuple(path), weights=True, nodes=len(path))


def trace_search(board: Board | str, start: int | str, end: int | str | None = None, closed: bool = False,
                 piece: Leaper | str = KNIGHT, method: str = "backtrack", *, holes: Holes = (),
                 order: policy.Order = policy.LIST_ORDER, tiebreak: policy.Tiebreak = policy.DEFAULT_TIEBREAK,
                 seed: int = 0) -> Iterator[TraceEvent]:
    """Yield the events of a search for a tour, one move, skip or step back at a time.

    Parameters
    ----------
    board : Board or str
        A :class:`Board` or a size such as ``"8x8"``.
    start : int or str
        First square, a name such as ``"a1"`` or an index.
    end : int or str, optional
        Last square.
    closed : bool, optional
        Search for a closed tour (the last square a move from the first).
    piece : Leaper or str, optional
        The leaper: a :class:`Leaper` or a name such as ``"zebra"``.
    method : str, optional
        ``"backtrack"`` or ``"warnsdorff"``. ``backtrack``: the exhaustive
        search, in move ``order``; it goes on after a tour until nothing is
        left, so take as many events as wanted. ``warnsdorff``: Warnsdorff's
        rule with ``tiebreak`` (and ``seed``), which ends with a tour or a dead end.
    holes : iterable of int or str, optional
        Squares no tour may use: names or indices, or one string such as ``"d4,e5"``.
    order : str, default 'fixed'
        Backtracking's move order: ``"fixed"`` (the leaper's move order of the
        classic programs, :data:`~chesstours.policy.LIST_ORDER`) or
        ``"warnsdorff"`` (fewest onward moves first).
    tiebreak : str, default 'roth'
        Warnsdorff's tie-break: ``"first"``, ``"pohl"``, ``"roth"`` or ``"random"``
        (:data:`~chesstours.policy.DEFAULT_TIEBREAK`).
    seed : int, optional
        Seed of the ``random`` tie-break.

    Raises
    ------
    InvalidArgument
        No start, an end that a closed tour cannot reach, an unknown method,
        order or tie-break (raised at once, before any event, as are the others).
    InvalidSquare
        The start, the end or a hole is not on the board, or the start or end is a hole.
    InvalidBoard
        ``board`` does not describe a board.
    InvalidPiece
        ``piece`` is not a leaper.
    """
    board, piece, s, e = prepare_query(board, start, end, piece, holes)
    if s is None:
        raise InvalidArgument("A trace needs a start square (--start).")
    if closed and e is not None and e not in move_table(board, piece)[s]:
        raise InvalidArgument(f"A closed tour ends a move away from its start; {board.name(e)} is not a move "
                              f"from {board.name(s)}.")
    if method not in TRACE_METHODS:
        raise InvalidArgument(
            f"Unknown method {method!r} for a trace; use one of {', '.join(TRACE_METHODS)}.")
    if method == "warnsdorff":
        policy.check_find("warnsdorff", tiebreak)
        return trace_warnsdorff(board, s, e, closed, piece, tiebreak, seed)
    policy.check_find("backtrack", None, order)
    return trace_backtrack(board, s, e, closed, piece, order)
