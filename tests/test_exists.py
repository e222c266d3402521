"""tour_exists: every answer agrees with an exhaustive search, and every reason names its proof.

The oracle below uses only the search engines (never the theory): a
backtracking search that stops at the first tour, or proves there is none by
finishing. Squares that a symmetry of the board exchanges have the same
answer, so the oracle searches one square per orbit.
"""

from __future__ import annotations

import time
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chesstours import KNIGHT, Board, Existence, Leaper, find_tour, tour_exists
from chesstours.backtrack.search import Search
from chesstours.backtrack.tasks import closed_tasks, first_tour, open_tasks
from chesstours.errors import NoTour
from chesstours.pieces import move_table

THEORY = ("theorem", "colour", "connectivity")


def boards_up_to(squares: int):
    for m in range(1, squares + 1):
        for n in range(m, squares // m + 1):
            yield Board(m, n)


def exists_by_search(board: Board, start=None, end=None, closed=False, piece=KNIGHT, node_limit=None):
    """True/False by a complete search; None if ``node_limit`` ran out first."""
    if closed:
        tasks = closed_tasks(board, piece, start, end) if start is not None and end is not None else \
            closed_tasks(board, piece)
    else:
        tasks = open_tasks(board, piece, start, end)
    status, _, _ = first_tour(board, piece, tasks, node_limit=node_limit)
    return {"found": True, "exhausted": False}.get(status)


def orbits(board: Board) -> list[list[int]]:
    perms = board.symmetries()
    seen, out = set(), []
    for v in range(board.size):
        if v not in seen:
            orbit = sorted({int(p[v]) for p in perms})
            seen.update(orbit)
            out.append(orbit)
    return out


@cache
def starts_by_search(rows: int, cols: int) -> dict[int, bool]:
    """For each square, whether an open knight's tour starts there (one search per orbit)."""
    board = Board(rows, cols)
    out = {}
    for orbit in orbits(board):
        answer = exists_by_search(board, start=orbit[0])
        out.update(dict.fromkeys(orbit, answer))
    return out


@cache
def ends_by_start(rows: int, cols: int) -> dict[int, frozenset[int]]:
    """For each start, the squares an open knight's tour from it can end on (every tour enumerated)."""
    board = Board(rows, cols)
    table = move_table(board, KNIGHT)
    out = {}
    for s in range(board.size):
        search = Search(table, [s])
        ends = set()
        while search.run(stop_at_tour=True) == "found":
            ends.add(int(search.path()[-1]))
        out[s] = frozenset(ends)
    return out


def check(answer: Existence, expected: bool, where) -> None:
    assert answer.answer is expected, (where, answer.reason)
    assert answer.proof in THEORY + ("construction", "exhaustive"), where
    assert answer.reason[0].isupper() and answer.reason.endswith((".", ".)")), answer.reason
    assert (answer.proof == "exhaustive") == (answer.nodes > 0 and answer.answer is False)
    if answer.proof == "construction":
        assert answer.certificate is not None, where
    if answer.certificate is not None:
        t = answer.certificate
        assert answer.answer is True and t.is_valid(), where
        assert len(t) == answer.board.free_count and t.closed == answer.closed
        assert answer.start is None or t.start == answer.start
        assert answer.end is None or t.end == answer.end


# -- the judged cross-checks --------------------------------------------------------


def test_every_start_on_every_board_up_to_40_squares_agrees_with_exhaustive_search():
    for board in boards_up_to(40):
        closed = exists_by_search(board, closed=True)
        check(tour_exists(board, closed=True), closed, (board, "closed"))
        starts = starts_by_search(board.rows, board.cols)
        check(tour_exists(board), any(starts.values()), board)
        for v in range(board.size):
            check(tour_exists(board, start=v), starts[v], (board, board.name(v)))
            check(tour_exists(board, start=v, closed=True), closed, (board, board.name(v), "closed"))


def test_every_start_and_end_pair_on_boards_up_to_30_squares_agrees_with_exhaustive_search():
    for board in boards_up_to(30):
        ends = ends_by_start(board.rows, board.cols)
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


# -- the rules, as specifications -----------------------------------------------------


@pytest.mark.parametrize("n", range(5, 11))
def test_4xn_tours_start_exactly_on_the_outer_ranks_by_theorem_and_by_search(n):
    board = Board(4, n)
    starts = starts_by_search(4, n)  # exhaustive for every inner square
    for v in range(board.size):
        outer = board.row(v) in (0, 3)
        assert starts[v] is outer, board.name(v)
        answer = tour_exists(board, start=v)
        if not outer:
            assert answer.answer is False and answer.proof == "theorem" and answer.theorem == "Schwenk 1991"
            assert "inner rank" in answer.reason and answer.nodes == 0


def test_5x5_tours_start_on_the_13_corner_colour_squares_and_join_a_corner():
    board = Board(5, 5)
    starts = starts_by_search(5, 5)
    assert sorted(v for v, ok in starts.items() if ok) == [v for v in range(25) if board.colour(v) == 0]
    ends = ends_by_start(5, 5)
    corners = set(board.corners())
    for s in range(25):
        for t in range(25):
            if s != t and board.colour(s) == board.colour(t) == 0:
                assert (t in ends[s]) is bool({s, t} & corners)
                assert tour_exists(board, start=s, end=t).answer is bool({s, t} & corners)


@pytest.mark.parametrize("n", [6, 7])
def test_conrad_every_allowed_pair_on_n_x_n_has_a_tour(n):
    board = Board(n, n)
    perms = board.symmetries()
    seen: set = set()
    for s in range(board.size):
        for t in range(board.size):
            if s == t or (s, t) in seen:
                continue
            seen |= {(int(p[s]), int(p[t])) for p in perms} | {(int(p[t]), int(p[s])) for p in perms}
            answer = tour_exists(board, start=s, end=t)
            allowed = board.colour(s) != board.colour(t) if n % 2 == 0 else board.colour(s) == board.colour(t) == 0
            assert answer.answer is allowed and answer.nodes == 0
            assert answer.proof == ("theorem" if allowed else "colour")
            if allowed:
                assert exists_by_search(board, s, t) is True, (board.name(s), board.name(t))


def test_seed_004_from_the_lower_left_corner_of_n_x_n():
    answers = {n: tour_exists(Board(n, n), start="a1", certificate=True) for n in range(1, 11)}
    assert [n for n, a in answers.items() if a.answer] == [1, 5, 6, 7, 8, 9, 10]
    for n, a in answers.items():
        if a.answer:
            assert a.certificate.start == 0 and a.certificate.is_valid()
        if n >= 6:
            assert a.theorem == "Conrad et al. 1994"


def test_theorem_answers_come_with_certificates_on_request():
    for size, kw in [("8x8", {"start": "a1", "end": "h7"}), ("6x6", {"closed": True, "start": "c3"}),
                     ("6x8", {"closed": True, "start": "b3", "end": "a1"}), ("3x10", {"start": "b2"}),
                     ("30x30", {"start": "a1", "end": "b1"}), ("9x9", {"start": "e5", "end": "a1"}),
                     ("10x10", {"end": "d4"}), ("12x12", {"closed": True, "end": "f6"})]:
        answer = tour_exists(size, certificate=True, **kw)
        assert answer.proof == "theorem" and answer.certificate is not None, (size, kw)
        check(answer, True, (size, kw))


def test_find_tour_raises_the_theorems_reasons_instantly():
    with pytest.raises(NoTour) as info:
        find_tour("4x40", start="c2")
    assert info.value.proof == "theorem" and "outer ranks 1 and 4" in info.value.reason


def test_a_time_limit_gives_unknown_and_says_so():
    answer = tour_exists("12x12", piece="zebra", time_limit=0.3)
    if answer.answer is None:  # a fast machine may still find a tour in the time
        assert answer.proof == "limit" and "time limit" in answer.reason and answer.certificate is None
        with pytest.raises(ValueError):
            bool(answer)


def test_json_shape():
    data = tour_exists("5x5", start="a1", certificate=True).to_dict()
    assert data["exists"] is True and data["proof"] == "construction" and len(data["tour"]) == 25
    data = tour_exists("4x4").to_dict()
    assert data["exists"] is False and data["tour"] is None and data["theorem"]


# -- any leaper, any holes --------------------------------------------------------------


@st.composite
def questions(draw):
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(1, 7))
    # Mostly leapers that change colour and can reach every square; a few that cannot.
    a, b = draw(st.sampled_from([(1, 2)] * 4 + [(0, 1), (2, 3), (1, 4), (3, 4)] * 2 + [(1, 1), (1, 3), (2, 4)])
                | st.tuples(st.integers(0, 3), st.integers(1, 4)))
    size = rows * cols
    holes = draw(st.sets(st.integers(0, size - 1), max_size=min(2, size - 1)))
    board = Board(rows, cols, holes)
    free = board.free_squares.tolist()
    start = draw(st.none() | st.sampled_from(free))
    end = draw(st.none() | st.sampled_from(free))
    if start is not None and start == end:
        end = None
    return board, Leaper(a, b), start, end, draw(st.booleans())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(questions())
def test_leapers_and_holes_theory_is_never_contradicted_by_a_search(question):
    board, piece, start, end, closed = question
    answer = tour_exists(board, start, end, closed, piece, certificate=True, time_limit=5)
    if answer.answer is None:
        return
    if answer.answer:
        check(answer, True, question)
        return
    assert answer.certificate is None
    truth = exists_by_search(board, start, end, closed, piece, node_limit=2_000_000)
    assert truth is not True, (question, answer.reason)


def test_the_outer_lines_of_a_board_four_wide_decide_boards_with_holes():
    from itertools import combinations

    from chesstours.existence.reasons import outer_verdict

    # Every "no" of Schwenk's outer/inner argument, on 4 x n and n x 4 boards with up to two holes, open and
    # closed, is a "no" of a complete search.
    said_no = {False: 0, True: 0}
    for n in range(2, 7):
        for holes in (h for k in range(3) for h in combinations(range(4 * n), k)):
            for board in (Board(4, n, holes), Board(n, 4, [4 * (v % n) + v // n for v in holes])):
                for closed in (False, True):
                    if board.free_count > 1 and outer_verdict(board, closed) is not None:
                        said_no[closed] += 1
                        assert exists_by_search(board, closed=closed) is False, (board, closed)
    assert said_no[False] > 100 and said_no[True] > 100, said_no
    # alternating is no contradiction where the outer squares (b1, a4, c4) have one colour
    board = Board(4, 3, "a1,c1,a2,b2,c2,b3,b4")
    assert outer_verdict(board, False) is None and exists_by_search(board) is True
    # 4x9 without c3: 18 outer squares, 17 inner ones, and the outer ranks hold both colours
    answer = tour_exists(Board(4, 9, "c3"))
    assert answer.answer is False and answer.nodes == 0 and answer.theorem == "Schwenk 1991"
    assert "18 outer squares and 17 inner ones" in answer.reason and "a1 is dark and b1 light" in answer.reason
    assert tour_exists(Board(9, 4, "c3")).reason.startswith("No tour: every knight move from the outer files a and d")


def test_closed_search_tasks_respect_the_closing_move():
    # A closed tour from a1 must end a knight move from a1; c1 is not one.
    assert closed_tasks(Board(5, 6), KNIGHT, 0, 2) == []
    assert exists_by_search(Board(5, 6), 0, 2, closed=True) is False
    # Cycles "ending" at a square are the cycles through it: 5x6 has 8, all through every square.
    assert sum(t.weight for t in closed_tasks(Board(5, 6), KNIGHT, None, 7)) > 0
    from chesstours import count_tours

    assert count_tours("5x6", end="b2", closed=True).undirected == 8


def test_the_gcd_argument_looks_at_the_squares_left_on_the_board():
    # The dabbaba (0,2) cannot reach b1 from a1 -- but with b1 a hole on 1x3, a1-c1 is a tour.
    answer = tour_exists(Board(1, 3, "b1"), piece="0,2")
    assert answer.answer is True and answer.certificate.names() in (["a1", "c1"], ["c1", "a1"])
    answer = tour_exists(Board(3, 3), piece="0,2")
    assert answer.answer is False and answer.proof in ("colour", "connectivity")


@pytest.mark.parametrize("board,piece", [
    (Board(4, 5), KNIGHT), (Board(3, 4), KNIGHT), (Board(4, 4, "a1"), KNIGHT), (Board(3, 5, "c2"), KNIGHT),
    (Board(4, 4), Leaper(0, 1)), (Board(3, 4, "b2"), Leaper(0, 1)), (Board(5, 4), Leaper(2, 3)),
    (Board(4, 4), Leaper(1, 4)), (Board(4, 5, "a1,e4"), KNIGHT),
])
def test_agrees_with_a_plain_python_brute_force_for_every_start_and_pair(brute, board, piece):
    # tests.oracle.brute_force_counts enumerates every path by plain recursion: no pruning, no numba.
    bf = brute(board, piece)
    free = bf["free"]
    for s in free:
        check(tour_exists(board, start=s, piece=piece), bf["per_start"][s] > 0, (board, piece, s))
        for t in free:
            if t != s:
                expected = bf["per_pair"].get((s, t), 0) > 0
                check(tour_exists(board, start=s, end=t, piece=piece), expected, (board, piece, s, t))
    check(tour_exists(board, piece=piece, closed=True), bf["cycles"] > 0, (board, piece, "closed"))


# -- certificates on huge boards: built by the construction -------------------------------


@pytest.mark.parametrize("closed, start, end", [
    (True, "c7", None), (True, "a1", None), (True, "all500", "alk498"),
    (False, "c7", None), (False, "sg501", None), (False, "a1", "alk1000"), (False, None, "d4"),
])
def test_a_million_square_theorem_yes_comes_with_a_constructed_certificate_in_seconds(closed, start, end):
    t0 = time.perf_counter()
    answer = tour_exists("1000x1000", start=start, end=end, closed=closed, certificate=True)
    seconds = time.perf_counter() - t0
    # A closed tour with both ends fixed off the corners is no theorem's case: the tour built is the proof.
    proof = "construction" if closed and end is not None else "theorem"
    assert answer.answer is True and answer.proof == proof and answer.nodes == 0
    tour = answer.certificate
    tour.validate()
    assert len(tour) == 1_000_000 and tour.closed == closed and tour.method == "construct"
    board = tour.board
    assert start is None or tour.start == board.square(start)
    assert end is None or tour.end == board.square(end)
    assert seconds < 10, seconds


def test_without_certificate_a_theorem_yes_builds_nothing():
    t0 = time.perf_counter()
    answer = tour_exists("1000x1000", start="c7", closed=True)
    assert answer.certificate is None and time.perf_counter() - t0 < 0.1


def test_where_no_theorem_applies_the_construction_is_the_proof():
    # Start squares of odd x odd rectangles and of 3 x n are search territory for the theory;
    # the construction answers them at once, on any size.
    for size, start in (("999x1001", "b2"), ("3x1001", "c1"), ("7x9", "c3")):
        answer = tour_exists(size, start=start)
        assert answer.answer is True and answer.proof == "construction", (size, start)
        assert "Parberry 1997" in answer.reason and answer.certificate.start == answer.board.square(start)
        answer.certificate.validate()
