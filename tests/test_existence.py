"""tour_exists: every answer agrees with an exhaustive search, and every reason names its proof.

The oracle below uses only the search engines (never the theory): a
backtracking search that stops at the first tour, or proves there is none by
finishing. Squares that a symmetry of the board exchanges have the same
answer, so the oracle searches one square per orbit.
"""

from __future__ import annotations

import pytest

from chesstours import KNIGHT, Board, Existence, tour_exists
from chesstours.engines.backtrack import Search
from chesstours.engines.parallel import closed_tasks, first_tour, open_tasks
from chesstours.pieces import move_table


def boards_up_to(squares: int):
    for m in range(1, squares + 1):
        for n in range(m, squares // m + 1):
            yield Board(m, n)


def exists_by_search(board: Board, start=None, end=None, closed=False, piece=KNIGHT) -> bool:
    if closed:
        tasks = closed_tasks(board, piece, start, end) if start is not None and end is not None else \
            closed_tasks(board, piece)
    else:
        tasks = open_tasks(board, piece, start, end)
    status, _, _ = first_tour(board, piece, tasks)
    return status == "found"


def orbits(board: Board) -> list[list[int]]:
    perms = board.symmetries()
    seen, out = set(), []
    for v in range(board.size):
        if v not in seen:
            orbit = sorted({int(p[v]) for p in perms})
            seen.update(orbit)
            out.append(orbit)
    return out


def ends_by_start(board: Board) -> dict[int, set[int]]:
    """For each start, the set of squares an open tour from it can end on (every tour enumerated)."""
    table = move_table(board, KNIGHT)
    out = {}
    for s in range(board.size):
        search = Search(table, [s])
        ends = set()
        while search.run(stop_at_tour=True) == "found":
            ends.add(int(search.path()[-1]))
        out[s] = ends
    return out


def check(answer: Existence, expected: bool, where) -> None:
    assert answer.answer is expected, (where, answer.reason)
    assert answer.proof in ("theorem", "colour", "connectivity", "construction", "exhaustive"), where
    assert answer.reason.endswith((".", ".)")), answer.reason
    if answer.proof == "construction":
        tour = answer.certificate
        assert tour is not None and tour.is_valid(), where
    if answer.certificate is not None:
        assert answer.answer is True
        board = answer.board
        t = answer.certificate
        assert len(t) == board.free_count and t.closed == answer.closed
        assert answer.start is None or t.start == answer.start
        assert answer.end is None or t.end == answer.end


def test_every_start_on_every_board_up_to_40_squares_agrees_with_exhaustive_search():
    for board in boards_up_to(40):
        closed = exists_by_search(board, closed=True)
        check(tour_exists(board, closed=True), closed, (board, "closed"))
        any_open = False
        for orbit in orbits(board):
            expected = exists_by_search(board, start=orbit[0])
            any_open |= expected
            for v in orbit:
                check(tour_exists(board, start=v), expected, (board, board.name(v)))
                check(tour_exists(board, start=v, closed=True), closed, (board, board.name(v), "closed"))
        check(tour_exists(board), any_open, board)


def test_every_start_and_end_pair_on_boards_up_to_30_squares_agrees_with_exhaustive_search():
    for board in boards_up_to(30):
        ends = ends_by_start(board)
        table = move_table(board, KNIGHT)
        for s in range(board.size):
            for t in range(board.size):
                if s == t:
                    continue
                check(tour_exists(board, start=s, end=t), t in ends[s], (board, s, t))
                adjacent = t in table[s]
                check(tour_exists(board, start=s, end=t, closed=True), adjacent and t in ends[s],
                      (board, s, t, "closed"))
            check(tour_exists(board, end=s), any(s in e for e in ends.values()), (board, "end", s))
