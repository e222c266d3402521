"""The bishop puzzle of a Delphi program, tested against its rule.

The rule (facts.md, "The bishop puzzle"): each square has two flags, one per
diagonal direction (A: parallel to a1-h8, B: the other); a step from x to y
along direction d is allowed only when y's d-flag is clear, and sets the
d-flag on both x and y. A route visits every square of the start's colour and
ends on its end square; it stops as soon as it is solved.

The checker and the brute-force enumerator below are written from that text
alone, on (row, col) pairs with dictionaries, without pruning and without the
library's code: every route the library emits must pass the checker, and the
library must find exactly the routes the enumerator finds.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chesstours as ct
from chesstours.bishop.route import BishopRoute, route_problem
from chesstours.bishop.search import BishopSearch
from chesstours.board import Board
from chesstours.cli import main
from chesstours.errors import InvalidArgument, InvalidSquare, LimitReached, NoTour

# (row change, col change) -> direction; the Delphi program's "sens A" is the a1-h8 direction.
DIRECTION = {(1, 1): "A", (-1, -1): "A", (1, -1): "B", (-1, 1): "B"}


def squares_to_visit(rows, cols, holes, start):
    colour = sum(start) % 2
    return {(r, c) for r in range(rows) for c in range(cols) if (r + c) % 2 == colour and (r, c) not in holes}


def first_violation(rows, cols, holes, route, end):
    """Check ``route`` (a list of (row, col)) under the rule; ``end`` is (row, col) or None for anywhere.

    Returns None, or (what, step) for the first thing wrong.
    """
    start = route[0]
    todo = squares_to_visit(rows, cols, holes, start)
    flags = set()  # (square, direction)
    seen = {start}
    for i in range(1, len(route)):
        x, y = route[i - 1], route[i]
        if seen == todo and (end is None or x == end):
            return ("goes on after it is solved", i)
        if y in holes or not (0 <= y[0] < rows and 0 <= y[1] < cols):
            return ("off the board", i)
        d = DIRECTION.get((y[0] - x[0], y[1] - x[1]))
        if d is None:
            return ("not a diagonal step", i)
        if (y, d) in flags:
            return ("flag already set", i)
        flags.add((x, d))
        flags.add((y, d))
        seen.add(y)
    if seen != todo:
        return ("squares missed", None)
    if end is not None and route[-1] != end:
        return ("wrong end", len(route) - 1)
    return None


def all_routes(rows, cols, holes, start, end):
    """Every route by plain recursion over the rule: a set of tuples of (row, col)."""
    todo = squares_to_visit(rows, cols, holes, start)
    flags: set = set()
    visits = {start: 1}
    found = set()
    sys.setrecursionlimit(10_000)

    def walk(route):
        here = route[-1]
        if len(visits) == len(todo) and (end is None or here == end):
            found.add(tuple(route))
            return
        for (dr, dc), d in DIRECTION.items():
            there = (here[0] + dr, here[1] + dc)
            if there in holes or not (0 <= there[0] < rows and 0 <= there[1] < cols):
                continue
            if (there, d) in flags:
                continue
            added = [f for f in ((here, d), (there, d)) if f not in flags]
            flags.update(added)
            visits[there] = visits.get(there, 0) + 1
            route.append(there)
            walk(route)
            route.pop()
            visits[there] -= 1
            if not visits[there]:
                del visits[there]
            flags.difference_update(added)

    walk([start])
    return found


def pairs(route: BishopRoute):
    cols = route.board.cols
    return tuple((int(v) // cols, int(v) % cols) for v in route.steps)


def slides_of(route):
    """Slides counted from the rule's words: a new slide wherever the direction of travel changes."""
    moves = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(route, route[1:])]
    return sum(1 for i, m in enumerate(moves) if i == 0 or m != moves[i - 1])


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -- small boards worked by hand ----------------------------------------------------


def test_1x1_has_one_route_of_no_steps():
    route = ct.solve_bishop("1x1")
    assert route.names() == ["a1"] and route.step_count == 0 and route.slide_count == 0
    assert ct.count_bishop_routes("1x1").count == 1


def test_2x2_has_exactly_the_route_a1_b2():
    # b2 is a1's only diagonal neighbour and the opposite corner: one step, one slide.
    assert [r.slides_text() for r in ct.iter_bishop_routes("2x2")] == ["a1-b2"]


@pytest.mark.parametrize("n", [4, 6, 8])
def test_two_ranks_have_one_zigzag_route(n):
    # On two ranks every dark square has at most two diagonal neighbours: the dark squares form
    # the path a1-b2-c1-d2-..., which the bishop must walk, turning at every step.
    routes = list(ct.iter_bishop_routes(f"2x{n}"))
    assert len(routes) == 1
    expected = [f"{'abcdefgh'[c]}{1 + c % 2}" for c in range(n)]
    assert routes[0].names() == expected and routes[0].slide_count == n - 1


def test_3x3_has_no_route_because_three_corners_are_dead_ends():
    # c1, a3 and c3 each touch only b2: entering one ends the route, so two of them stay unvisited.
    with pytest.raises(NoTour) as info:
        ct.solve_bishop("3x3")
    assert info.value.proof == "theory" and "c1, a3 and c3" in info.value.reason
    assert all_routes(3, 3, set(), (0, 0), (2, 2)) == set()


def test_4x4_has_no_route():
    # The dark squares: the long diagonal a1-b2-c3-d4 and two side paths b2-c1-d2-c3 and
    # b2-a3-b4-c3, each leaving b2 and reaching c3 by B steps. a1-b2 uses b2's A flag, so the
    # route must take one side path out of b2 (setting b2's B flag); the other side path then
    # has to enter b2 along B again, which the rule forbids. So: no route; the theory of four
    # ranks says so, and the search and plain enumeration agree.
    with pytest.raises(NoTour) as info:
        ct.solve_bishop("4x4")
    assert info.value.proof == "theory" and "cannot turn" in info.value.reason
    search = BishopSearch(Board(4, 4), 0, 15)
    assert search.run() == "exhausted" and search.count == 0
    assert all_routes(4, 4, set(), (0, 0), (3, 3)) == set()
    assert ct.count_bishop_routes("4x4").count == 0


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_odd_square_boards_have_no_route_from_a_corner(n):
    c = ct.count_bishop_routes(f"{n}x{n}")
    assert c.count == 0 and c.method == "theory"
    c = ct.count_bishop_routes(f"{n}x{n}", end="any")
    assert c.count == 0


def test_an_end_of_the_other_colour_is_no_route_with_the_reason():
    with pytest.raises(ct.NoTour, match=r"rows \+ columns even, and 8 \+ 7 is odd") as info:
        ct.solve_bishop("8x7")
    assert info.value.proof == "colour"
    with pytest.raises(ct.NoTour, match="light square"):
        ct.solve_bishop("8x8", end="h7")
    with pytest.raises(InvalidArgument, match="Unknown end"):
        ct.solve_bishop("8x8", end="nowhere")
    with pytest.raises(InvalidSquare):
        ct.solve_bishop("8x8", start="i9")


# -- the library against the rule ----------------------------------------------------

BOARDS = [(1, 3), (2, 4), (2, 6), (3, 5), (4, 6), (6, 4), (5, 5), (4, 8), (6, 6), (5, 7), (6, 8)]
ODD_BOARDS = [(3, 4), (4, 5), (2, 5), (5, 6), (4, 7), (6, 5)]


@pytest.mark.parametrize("rows,cols", BOARDS)
def test_routes_to_the_opposite_corner_are_exactly_those_of_plain_enumeration(rows, cols):
    end = (rows - 1, cols - 1)
    expected = all_routes(rows, cols, set(), (0, 0), end)
    routes = list(ct.iter_bishop_routes(f"{rows}x{cols}"))
    got = [pairs(r) for r in routes]
    assert len(got) == len(set(got)) and set(got) == expected
    assert ct.count_bishop_routes(f"{rows}x{cols}").count == len(expected)
    for r in routes:
        assert first_violation(rows, cols, set(), list(pairs(r)), end) is None
        assert r.slide_count == slides_of(pairs(r)) and r.step_count == len(r.steps) - 1


@pytest.mark.parametrize("rows,cols", ODD_BOARDS + [(6, 8), (4, 6)])
def test_routes_that_end_anywhere_are_exactly_those_of_plain_enumeration(rows, cols):
    expected = all_routes(rows, cols, set(), (0, 0), None)
    got = [pairs(r) for r in ct.iter_bishop_routes(f"{rows}x{cols}", end="any")]
    assert len(got) == len(set(got)) and set(got) == expected
    assert ct.count_bishop_routes(f"{rows}x{cols}", end="any").count == len(expected)
    assert all(first_violation(rows, cols, set(), list(r), None) is None for r in got)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_small_board_with_holes_start_and_end_agrees_with_plain_enumeration(data):
    rows = data.draw(st.integers(1, 5), label="rows")
    cols = data.draw(st.integers(1, 5), label="cols")
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    start = data.draw(st.sampled_from(cells), label="start")
    holes = set(data.draw(st.lists(st.sampled_from(cells), max_size=3), label="holes")) - {start}
    same = [x for x in cells if x not in holes and sum(x) % 2 == sum(start) % 2]
    end = data.draw(st.sampled_from([None] + same), label="end")
    board = Board(rows, cols, holes={r * cols + c for r, c in holes})
    name = board.name(start[0] * cols + start[1])
    rule = "any" if end is None else board.name(end[0] * cols + end[1])
    expected = all_routes(rows, cols, holes, start, end)
    got = [pairs(r) for r in ct.iter_bishop_routes(board, name, rule)]
    assert len(got) == len(set(got)) and set(got) == expected
    assert ct.count_bishop_routes(board, name, rule).count == len(expected)
    if expected:
        best = min(slides_of(r) for r in expected)
        assert ct.solve_bishop(board, name, rule, shortest=True).slide_count == best
        assert ct.count_bishop_routes(board, name, rule, shortest=True).count == sum(
            1 for r in expected if slides_of(r) == best)
    else:
        with pytest.raises(NoTour):
            ct.solve_bishop(board, name, rule)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.lists(st.integers(0, 3), min_size=1, max_size=30))
def test_the_checker_and_the_rule_name_the_same_first_bad_step(rows, cols, turns):
    # Random diagonal walks (clipped at the edges): the library's checker must stop at the same
    # step as the rule's own checker whenever the walk breaks the flags.
    dirs = list(DIRECTION)
    walk = [(0, 0)]
    for t in turns:
        dr, dc = dirs[t]
        r, c = walk[-1]
        if 0 <= r + dr < rows and 0 <= c + dc < cols:
            walk.append((r + dr, c + dc))
    board = Board(rows, cols)
    found = route_problem(board, [r * cols + c for r, c in walk], "any")
    mine = first_violation(rows, cols, set(), walk, None)
    assert (found is None) == (mine is None)
    if mine is not None and mine[0] in ("flag already set", "goes on after it is solved"):
        assert found[1] == mine[1]


# -- 8x8 and the fewest slides -------------------------------------------------------


@pytest.fixture(scope="module")
def routes_8x8():
    return list(ct.iter_bishop_routes("8x8"))


def test_8x8_shortest_route_has_17_slides_as_dudeney(routes_8x8):
    route = ct.solve_bishop("8x8", shortest=True)
    assert route.slide_count == 17 and route.names()[0] == "a1" and route.names()[-1] == "h8"
    assert first_violation(8, 8, set(), list(pairs(route)), (7, 7)) is None
    assert "none with fewer than 17 slides" in route.stats["proof"]
    # No route of the full list has fewer slides, and the shortest count agrees with the list.
    fewest = min(slides_of(pairs(r)) for r in routes_8x8)
    assert fewest == 17
    assert ct.count_bishop_routes("8x8", shortest=True).count == sum(
        1 for r in routes_8x8 if slides_of(pairs(r)) == 17)
    # The first shortest route in move order is the first of the full list with 17 slides.
    assert route.slides_text() == next(r.slides_text() for r in routes_8x8 if r.slide_count == 17)


def test_8x8_every_route_obeys_the_rule_and_iteration_matches_the_count(routes_8x8):
    count = ct.count_bishop_routes("8x8")
    assert len(routes_8x8) == count.count and count.complete and count.nodes > 0
    assert len({pairs(r) for r in routes_8x8}) == len(routes_8x8)
    for r in routes_8x8:
        assert first_violation(8, 8, set(), list(pairs(r)), (7, 7)) is None
    # From a corner, "any" ends on the far corner too: h8 is a dead end that must be visited.
    assert ct.count_bishop_routes("8x8", end="any").count == count.count


def test_8x8_routes_are_closed_under_the_a1_h8_reflection(routes_8x8):
    # Swapping files and ranks maps each direction to one on the same axis, so it maps routes to routes.
    as_set = {pairs(r) for r in routes_8x8}
    assert {tuple((c, r) for r, c in route) for route in as_set} == as_set


@pytest.mark.parametrize("rows,cols", [(6, 8), (4, 8), (4, 6)])
def test_transposed_boards_have_as_many_routes(rows, cols):
    assert ct.count_bishop_routes(f"{rows}x{cols}").count == ct.count_bishop_routes(f"{cols}x{rows}").count


@pytest.mark.slow
def test_8x8_count_agrees_with_plain_enumeration(routes_8x8):
    assert {pairs(r) for r in routes_8x8} == all_routes(8, 8, set(), (0, 0), (7, 7))


# -- limits and Ctrl-C -------------------------------------------------------------------


def test_time_limits_stop_with_partial_results():
    with pytest.raises(LimitReached) as info:
        ct.count_bishop_routes("14x14", time_limit=0.2)
    partial = info.value.partial
    assert not partial.complete and partial.nodes > 0
    with pytest.raises(LimitReached):
        for _ in ct.iter_bishop_routes("14x14", time_limit=0.2):
            pass
    with pytest.raises(LimitReached) as info:
        ct.solve_bishop("14x14", shortest=True, time_limit=0.3)
    if info.value.partial is not None:  # the best route so far, not yet proved the shortest
        info.value.partial.validate()
    with pytest.raises(InvalidArgument):
        ct.count_bishop_routes("8x8", time_limit=0)


def test_ctrl_c_during_a_count_carries_the_partial_count():
    calls = []

    def interrupt(partial):
        calls.append(partial)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as info:
        ct.count_bishop_routes("12x12", progress=interrupt, time_limit=3600)
    assert calls and info.value.partial.complete is False and info.value.partial.nodes > 0


def test_cli_ctrl_c_prints_the_incomplete_count_and_exits_130(capsys, monkeypatch):
    from chesstours.bishop import solve as bishop_api

    def interrupted(board, *args, **kwargs):
        exc = KeyboardInterrupt()
        exc.partial = bishop_api.BishopCount(Board.parse(board), 0, "opposite", 143, 5, 1000, 0.5, False)
        raise exc

    monkeypatch.setattr(bishop_api, "count_bishop_routes", interrupted)
    code, out, err = run(capsys, "bishop", "12x12", "--count", "--json")
    assert code == 130 and json.loads(out)["complete"] is False and "interrupted" in err


# -- command line ----------------------------------------------------------------------


def test_cli_count_json(capsys):
    code, out, _ = run(capsys, "bishop", "6x8", "--count", "--json")
    data = json.loads(out)
    assert code == 0 and {"board", "end", "count", "nodes", "seconds"} <= set(data)
    assert data["board"] == "6x8" and data["end"] == "opposite" and data["count"] == len(
        all_routes(6, 8, set(), (0, 0), (5, 7)))


def test_cli_answers_no_route_on_an_odd_board_as_on_any_board_without_one(capsys):
    code, _, err = run(capsys, "bishop", "8x7")
    assert code == 1 and "8 + 7 is odd" in err and "Traceback" not in err
    code, _, err = run(capsys, "bishop", "5x5")
    assert code == 1 and "one diagonal neighbour" in err
    code, _, err = run(capsys, "bishop", "8x8", "--count", "--all")
    assert code == 2


def test_cli_lists_routes_and_the_checker_accepts_each(tmp_path, capsys):
    code, out, _ = run(capsys, "bishop", "6x8", "--all", "--format", "moves")
    lines = out.split()
    assert code == 0 and len(lines) == len(all_routes(6, 8, set(), (0, 0), (5, 7)))
    for i, line in enumerate(lines[:3]):
        f = tmp_path / f"r{i}.txt"
        f.write_text(line + "\n")
        code, out, _ = run(capsys, "check", "--bishop", str(f), "--board", "6x8")
        assert code == 0 and out.startswith("valid: bishop route of 6x8 from a1 to h6")
    code, out, _ = run(capsys, "bishop", "8x8", "--limit", "2", "--format", "json")
    assert code == 0 and [json.loads(x)["closed"] for x in out.splitlines()] == [False, False]


def test_cli_shortest_json_round_trips_through_the_checker(tmp_path, capsys):
    target = tmp_path / "route.json"
    code, out, _ = run(capsys, "bishop", "8x8", "--shortest", "--format", "json", "-o", str(target))
    assert code == 0 and out == ""
    data = json.loads(target.read_text())
    assert len(data["slides"]) == 18 and data["slide_count"] == 17 and data["steps"][0] == "a1"
    assert data["closed"] is False and data["steps"][-1] == "h8"
    code, out, _ = run(capsys, "check", "--bishop", str(target))
    assert code == 0 and "17 slides" in out
    # Break it: send the bishop back along the diagonal it just used.
    steps = data["steps"]
    data["steps"] = steps[:3] + [steps[1]] + steps[3:]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, _, err = run(capsys, "check", "--bishop", str(bad))
    assert code == 1 and "Step 3, from c3 to b2" in err


def test_cli_grid_shows_visit_numbers_and_the_slides(capsys):
    code, out, _ = run(capsys, "bishop", "2x4")
    assert code == 0
    assert out.splitlines() == [
        "2 |  .  2  .  4",
        "1 |  1  .  3  .",
        "     a  b  c  d",
        "3 slides, 3 steps: a1-b2-c1-d2",
    ]


def test_checker_messages_name_the_first_bad_step():
    board = Board(8, 8)
    cases = {
        "a1 b2 c3 b2": "Step 3, from c3 to b2, enters b2 along direction A",
        "a1 b2 b3": "Step 2, from b2 to b3, is not a diagonal step",
        "a1 b2": "The route visits 2 of the 32 dark squares",
    }
    for text, message in cases.items():
        assert BishopRoute.parse(text, board=board).problem().startswith(message)
    assert BishopRoute.parse("a1 b2 c1 d2 c1", board="2x4", end="any").problem() == (
        "The route is solved at step 3 (every dark square visited) but goes on.")
    assert BishopRoute.parse("a1 b2 c1", board="2x3", end="b2").problem() == (
        "The route ends on c1, not on b2, its end square.")
    wrong_end = BishopRoute.parse("a1-b2-c1-d2-e1-f2", board="2x6", end="e1")
    assert wrong_end.problem() == "The route ends on f2, not on e1, its end square."
    assert BishopRoute.from_dict({"board": "2x6", "slides": ["a1", "b2", "c1", "d2", "e1", "f2"]}).is_valid()


def test_route_keeps_its_squares_as_int32_steps_for_renderers():
    route = ct.solve_bishop("8x8")
    assert route.steps.dtype == np.int32 and route.path is route.steps and route.closed is False
    counts = np.bincount(route.steps, minlength=64)
    dark = {v for v in range(64) if (v // 8 + v % 8) % 2 == 0}
    assert counts.max() <= 2 and set(np.flatnonzero(counts)) == dark


def test_random_restarts_find_a_12x12_route_that_the_seed_order_does_not_reach_in_seconds():
    route = ct.solve_bishop("12x12", method="backtrack", time_limit=30)
    assert route.problem() is None and route.names()[-1] == "l12"
    assert route.method == "restarts" and route.stats["restarts"] >= 1


def test_the_restarts_share_the_node_limit_with_the_complete_search():
    with pytest.raises(LimitReached) as info:
        ct.solve_bishop("20x20", method="backtrack", node_limit=3_000_000)
    assert info.value.partial["nodes"] <= 3_000_000


def test_a_board_without_a_route_is_still_proved_so_by_the_complete_search():
    with pytest.raises(NoTour) as info:
        ct.solve_bishop("6x6")
    assert info.value.proof == "exhaustive"
