"""Bishop routes by construction: the billiard path with its loops switched in, checked against the rule.

Every route built must pass the rule's own checker (``first_violation`` of
test_routes, written from the rule's text alone) as well as the library's;
where the construction builds none, the complete search must prove that
there is none. The theory the construction rests on is tested too: the
billiard path alone on boards whose sides less one are coprime, and a cell
switched on four different trails joining them into one.
"""

from __future__ import annotations

import math
import re
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chesstours as ct
from chesstours.bishop import bishop_obstruction
from chesstours.bishop.construct import construct_route, label_trails
from chesstours.bishop.search import FIRST_ALONE, BishopSearch, direction_table
from chesstours.board import Board
from chesstours.cli import main
from chesstours.errors import InvalidArgument, LimitReached, NoTour
from tests.bishop.test_routes import all_routes, first_violation, pairs

SIZES = [(n, n) for n in range(2, 33, 2)] + [(n, n + 2) for n in range(2, 33, 2)]


def passes(route_squares: list[tuple[int, int]]) -> list[str]:
    """How the route passes each square it visits twice: "straight" or "turn", per visit."""
    where: dict[tuple[int, int], list[str]] = {}
    for a, b, c in zip(route_squares, route_squares[1:], route_squares[2:]):
        came = (b[0] - a[0], b[1] - a[1])
        goes = (c[0] - b[0], c[1] - b[1])
        where.setdefault(b, []).append("straight" if came == goes else "turn")
    return [kind for kinds in where.values() if len(kinds) == 2 for kind in kinds]


# -- every n x n and n x (n + 2) up to 32 ---------------------------------------------------


@pytest.mark.parametrize("rows,cols", SIZES)
def test_every_n_by_n_and_n_by_n_plus_2_board_up_to_32_has_a_checked_route_or_a_proof_of_none(rows, cols):
    board = f"{rows}x{cols}"
    try:
        route = ct.solve_bishop(board, method="construct")
    except (NoTour, InvalidArgument) as exc:
        # No route built: the theory or the complete search proves there is none, and so does plain
        # enumeration of the rule.
        if isinstance(exc, InvalidArgument):
            with pytest.raises(NoTour) as info:
                ct.solve_bishop(board, method="backtrack")
            assert info.value.proof == "exhaustive"
        search = BishopSearch(Board(rows, cols), 0, rows * cols - 1)
        assert search.run() == "exhausted" and search.count == 0
        assert rows * cols <= 36 and all_routes(rows, cols, set(), (0, 0), (rows - 1, cols - 1)) == set()
        return
    assert first_violation(rows, cols, set(), list(pairs(route)), (rows - 1, cols - 1)) is None
    assert route.method == "construct" and route.problem() is None


def test_the_largest_boards_get_their_route_within_a_second_by_auto():
    for board in ("32x32", "32x34"):
        t0 = time.perf_counter()
        route = ct.solve_bishop(board)
        assert time.perf_counter() - t0 < 5  # 0.1 s here; generous for a busy machine
        assert route.method == "construct" and route.stats["nodes"] == FIRST_ALONE and route.problem() is None


# -- the construction against the rule ----------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 20), st.integers(1, 20), st.integers(0, 3), st.booleans())
def test_constructed_routes_pass_the_rule_from_every_corner(half_rows, half_cols, corner, anywhere):
    rows, cols = 2 * half_rows, 2 * half_cols
    board = Board(rows, cols)
    start = [0, cols - 1, (rows - 1) * cols, rows * cols - 1][corner]
    built = construct_route(board, start)
    if built is None:
        if board.size <= 140:  # quick to search: there must be no route at all
            with pytest.raises(NoTour):
                ct.solve_bishop(board, board.name(start), method="backtrack")
        return
    steps, stats = built
    path = [(int(v) // cols, int(v) % cols) for v in steps]
    end = None if anywhere else (rows - 1 - path[0][0], cols - 1 - path[0][1])
    assert first_violation(rows, cols, set(), path, end) is None
    assert path[-1] == (rows - 1 - path[0][0], cols - 1 - path[0][1])
    # As the theory says: a square visited twice is crossed straight on both times.
    assert set(passes(path)) <= {"straight"}
    if math.gcd(rows - 1, cols - 1) == 1:
        # The billiard path alone: no switch, and every link of the colour used once.
        assert stats == {"loops": 0, "switches": 0} and len(steps) - 1 == (rows - 1) * (cols - 1)
    else:
        assert stats["loops"] > 0 and stats["switches"] >= math.ceil(stats["loops"] / 3)
        # A switch drops four links of the colour's (rows - 1)(cols - 1); the route uses all the others.
        assert len(steps) - 1 == (rows - 1) * (cols - 1) - 4 * stats["switches"]


@pytest.mark.parametrize("n", range(4, 41, 2))
def test_four_ranks_have_a_route_exactly_when_the_billiard_path_covers_them(n):
    # The theory: no square of the middle ranks can turn, so a route is the billiard path, which uses
    # every link exactly when 3 and n - 1 are coprime.
    board = Board(4, n)
    reason = bishop_obstruction(board, 0, 4 * n - 1)
    built = construct_route(board, 0)
    assert (reason is None) == (built is not None) == (math.gcd(3, n - 1) == 1)
    if reason is None:
        assert built[1] == {"loops": 0, "switches": 0}
    elif n <= 34:  # the complete search, without the theory, agrees (4x34 takes a tenth of a second)
        search = BishopSearch(board, 0, 4 * n - 1)
        assert search.run() == "exhausted" and search.count == 0
    transposed = bishop_obstruction(Board(n, 4), 0, 4 * n - 1)
    assert (transposed is None) == (reason is None)


def test_the_billiard_path_on_n_by_n_leaves_n_over_2_minus_1_loops_and_each_switch_joins_up_to_three():
    for n in [2] + list(range(8, 33, 2)):
        _, stats = construct_route(Board(n, n), 0)
        assert stats["loops"] == n // 2 - 1 and stats["switches"] >= math.ceil(stats["loops"] / 3)


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 12), st.integers(3, 12), st.data())
def test_a_cell_switched_on_four_different_trails_joins_them_into_one(half_rows, half_cols, data):
    rows, cols = 2 * half_rows, 2 * half_cols
    board = Board(rows, cols)
    step_to = direction_table(board)
    present = np.zeros(board.size, dtype=np.uint8)
    for d in range(4):
        present |= ((step_to[:, d] >= 0) << d).astype(np.uint8)
    r, c = np.divmod(np.arange(board.size), cols)
    present[(r + c) % 2 == 1] = 0
    label = np.empty(2 * board.size, dtype=np.int32)
    trails = label_trails(step_to, present, 0, label)
    # Cells around a light square, all four squares inside the board: x (left), y (top), z (right), w (bottom).
    cells = [(x, step_to[x, 0], step_to[step_to[x, 0], 1], step_to[x, 1]) for x in range(board.size)
             if present[x] == 15 and step_to[x, 0] >= 0 and present[step_to[x, 0]] == 15
             and step_to[x, 1] >= 0 and present[step_to[x, 1]] == 15 and present[step_to[step_to[x, 0], 1]] == 15]
    on_four = [cell for cell in cells
               if len({label[2 * cell[0]], label[2 * cell[3]], label[2 * cell[3] + 1], label[2 * cell[2] + 1]}) == 4]
    if not on_four:
        return
    x, y, z, w = data.draw(st.sampled_from(on_four))
    for square, bits in ((x, 0b0011), (y, 0b0110), (z, 0b1100), (w, 0b1001)):
        present[square] &= ~np.uint8(bits)
    assert label_trails(step_to, present, 0, label) == trails - 3


# -- auto, and where the construction does not apply ----------------------------------------


@pytest.mark.parametrize("board", ["8x8", "10x12", "6x32", "8x24", "4x30"])
def test_auto_keeps_the_first_route_in_the_delphi_order_where_the_search_meets_it_soon(board):
    route = ct.solve_bishop(board)
    first = next(ct.iter_bishop_routes(board))
    assert route.method == "backtrack" and route.names() == first.names()


def test_auto_builds_where_the_delphi_order_meets_no_route_soon_and_backtrack_still_searches():
    built = ct.solve_bishop("12x12")
    searched = ct.solve_bishop("12x12", method="backtrack", time_limit=30)
    assert built.method == "construct" and searched.method == "restarts"
    assert built.problem() is None and searched.problem() is None and built.names() != searched.names()
    # From another corner, and with end any, the route is a reflection of the same construction.
    other = ct.solve_bishop("12x12", start="l1", end="any")
    assert other.method == "construct" and other.names()[0] == "l1" and other.names()[-1] == "a12"


@pytest.mark.parametrize("board,kwargs", [
    ("12x12", {"holes": "e5"}),
    ("9x10", {"end": "any"}),
])
def test_the_construction_is_refused_where_it_does_not_apply_and_auto_searches_instead(board, kwargs):
    with pytest.raises(InvalidArgument, match="even number of ranks and of files, from a corner"):
        ct.solve_bishop(board, method="construct", **kwargs)
    try:
        route = ct.solve_bishop(board, time_limit=0.5, **kwargs)
    except (LimitReached, NoTour):
        return
    assert route.method in ("backtrack", "restarts") and route.problem() is None


def test_bad_method_combinations_are_refused_with_a_sentence():
    with pytest.raises(InvalidArgument, match="Unknown method 'billiard'"):
        ct.solve_bishop("8x8", method="billiard")
    with pytest.raises(InvalidArgument, match="fewest slides"):
        ct.solve_bishop("8x8", method="construct", shortest=True)
    with pytest.raises(InvalidArgument, match="cannot join the billiard loops of 6x6"):
        ct.solve_bishop("6x6", method="construct")


# -- counting 12x12: refused with an estimate ------------------------------------------------


def test_counting_12x12_without_a_limit_is_refused_at_once_with_an_estimate():
    t0 = time.perf_counter()
    with pytest.raises(InvalidArgument) as info:
        ct.count_bishop_routes("12x12")
    assert time.perf_counter() - t0 < 5
    sentence = str(info.value)
    steps = float(re.search(r"about ([0-9.e+]+) steps", sentence).group(1))
    assert sentence.count(". ") == 0 and "12x12" in sentence and "time limit" in sentence
    assert 1e11 < steps < 1e14 and re.search(r"about \d+ (days|weeks|months)", sentence)
    with pytest.raises(LimitReached) as stopped:
        ct.count_bishop_routes("12x12", time_limit=0.2)  # a limit lets it run as far as it gets
    assert stopped.value.partial.nodes > 0


@pytest.mark.parametrize("board,end", [("8x10", "opposite"), ("8x8", "opposite"), ("8x7", "any"), ("6x12", "opposite")])
def test_the_estimate_is_near_the_steps_an_exhaustive_count_makes(board, end):
    count = ct.count_bishop_routes(board, end=end)
    b = Board.parse(board)
    e = -1 if end == "any" else b.size - 1
    steps, routes = BishopSearch(b, 0, e).estimate()
    assert count.nodes / 2 < steps < count.nodes * 2
    assert routes > 0 or count.count == 0


def test_a_count_estimated_under_the_hour_runs_to_the_end(monkeypatch):
    from chesstours.bishop import methods

    estimated = []
    real = BishopSearch.estimate

    def spy(search, *args):
        estimated.append(search.board)
        return real(search, *args)

    monkeypatch.setattr(BishopSearch, "estimate", spy)
    assert ct.count_bishop_routes("8x10").complete and estimated == []  # 80 squares: not estimated
    count = ct.count_bishop_routes("6x16")  # 96 squares: estimated, well under the hour
    assert count.complete and count.count == len(list(ct.iter_bishop_routes("6x16")))
    assert [b.name(0) for b in estimated] == ["a1"] and methods.ESTIMATE_ABOVE_SQUARES < 96


# -- the command line ---------------------------------------------------------------------------


def test_cli_finds_a_20x20_route_at_once_and_the_checker_accepts_it(tmp_path, capsys):
    target = tmp_path / "route.json"
    t0 = time.perf_counter()
    assert main(["bishop", "20x20", "-t", "30", "--format", "json", "-o", str(target)]) == 0
    assert time.perf_counter() - t0 < 10
    capsys.readouterr()
    assert main(["check", "--bishop", str(target)]) == 0
    assert capsys.readouterr().out.startswith("valid: bishop route of 20x20 from a1 to t20")


def test_cli_method_and_count_refusals_are_one_sentence(capsys):
    assert main(["bishop", "12x12", "--count"]) == 2
    err = capsys.readouterr().err
    assert "would take about" in err and "Traceback" not in err and len(err.splitlines()) == 1
    assert main(["bishop", "8x8", "--method", "construct", "--count"]) == 2
    assert "--method chooses how one route is found" in capsys.readouterr().err
    assert main(["bishop", "6x6", "-m", "construct"]) == 2
    assert "cannot join the billiard loops of 6x6" in capsys.readouterr().err
    assert main(["bishop", "4x4", "-m", "construct"]) == 1
    assert "cannot turn" in capsys.readouterr().err
    assert main(["bishop", "8x8", "-m", "construct", "-f", "moves"]) == 0
    assert capsys.readouterr().out.startswith("a1-")
