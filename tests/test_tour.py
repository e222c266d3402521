import dataclasses
import json
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chesstours as ct
from chesstours import KNIGHT, Board, Tour, find_tour, paths
from chesstours.pieces import ZEBRA, move_table
from chesstours.tour import InvalidTour

TOUR_3x4 = "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3".split()


def test_a_known_3x4_tour_validates():
    t = Tour.from_names(Board(3, 4), TOUR_3x4)
    t.validate()
    assert t.is_valid() and not t.is_reentrant()


def test_illegal_step_is_named():
    names = TOUR_3x4.copy()
    names[4], names[5] = names[5], names[4]
    t = Tour.from_names(Board(3, 4), names)
    with pytest.raises(InvalidTour) as info:
        t.validate()
    assert info.value.step == 4
    assert "Step 4, from b1 to b3, is not a knight move." == str(info.value)


def test_repeated_square_is_named():
    t = Tour.from_names(Board(3, 4), TOUR_3x4[:11] + ["c2"])
    assert "returns to c2" in t.problem()


def test_missing_squares_and_holes_are_named():
    t = Tour.from_names(Board(3, 4), TOUR_3x4[:10])
    assert "visits 10 of 12 squares" in t.problem()
    holed = Board(3, 4, holes="d3")
    t = Tour(holed, KNIGHT, np.array([holed._square_of(s) for s in TOUR_3x4]))
    assert "is a hole" in t.problem()


def test_closed_flag_is_checked():
    t = Tour.from_names(Board(3, 4), TOUR_3x4, closed=True)
    assert "is not a knight move from a1" in t.problem()


def test_a_closed_tour_can_be_rotated_and_reversed():
    t = find_tour("6x6", closed=True)
    for v in (0, 7, 35):
        r = t.rotated(v)
        r.validate()
        assert r.start == v
    back = t.reversed()
    back.validate()
    assert back.start == t.start


def test_json_round_trip_and_fields():
    t = find_tour("5x5", start="a1")
    data = json.loads(t.to_json())
    assert data["board"] == {"rows": 5, "cols": 5, "holes": []}
    assert data["piece"] == {"name": "knight", "leap": [1, 2]}
    assert data["closed"] is False
    assert data["path"][0] == "a1" and len(data["path"]) == 25
    assert set(data["stats"]) >= {"nodes", "seconds"}
    back = Tour.from_dict(data)
    assert np.array_equal(back.path, t.path)


def test_parse_moves_and_json():
    t = Tour.parse(" ".join(TOUR_3x4))
    assert t.board == Board(3, 4) and t.is_valid()
    t2 = Tour.parse("a1-c2-a3-b1-d2-b3-c1-a2-c3-d1-b2-d3")
    assert np.array_equal(t.path, t2.path)
    z = find_tour("10x10", piece=ZEBRA, closed=True)
    parsed = Tour.parse(z.to_json())
    assert parsed.piece == ZEBRA and parsed.closed and parsed.is_valid()
    with pytest.raises(InvalidTour):
        Tour.parse("{not json")
    with pytest.raises(InvalidTour):
        Tour.parse("a1 c2 ?? e1")


def test_grid_has_rank_8_on_top_and_files_below():
    t = find_tour("8x8", start="a1")
    lines = t.grid().splitlines()
    assert lines[0].startswith("8 |") and lines[7].startswith("1 |")
    assert lines[7].split("|")[1].split()[0] == "1"  # a1 holds move 1
    assert lines[8].split() == list("abcdefgh")
    numbers = sorted(int(x) for line in lines[:8] for x in line.split("|")[1].split())
    assert numbers == list(range(1, 65))


def test_grid_shows_holes():
    t = find_tour(Board(5, 5, holes="c3"), start="a1")
    assert "#" in t.grid()


def test_validation_of_a_large_path_is_linear():
    # A boustrophedon "tour" of a rook, as a knight path: invalid at step 1, found without sorting.
    b = Board(1000, 1000)
    path = np.arange(b.size, dtype=np.int32)
    t = Tour(b, KNIGHT, path)
    assert t.problem() == "Step 1, from a1 to b1, is not a knight move."


# -- a tour as a container, a value and a graph -----------------------------------------


def test_a_tour_is_a_sequence_of_squares_equal_by_value():
    import chesstours as ct

    tour = ct.find_tour("5x5", start="a1")
    assert list(tour) == tour.path.tolist() and tour[0] == tour.start and tour[-1] == tour.end
    assert tour[1:3] == tour.path[1:3].tolist() and len(tour) == 25
    assert "a1" in tour and 24 in tour and "z9" not in tour and -1 not in tour
    back = Tour.from_dict(json.loads(tour.to_json()))
    assert back == tour and hash(back) == hash(tour) and len({tour, back}) == 1
    assert tour.reversed() != tour and tour != tour.path.tolist()


def test_networkx_graphs_of_boards_and_tours():
    nx = pytest.importorskip("networkx")
    import chesstours as ct

    for spec, piece in [("8x8", "knight"), ("5x6 c3", "knight"), ("6x6", "camel"), ("7x5", "1,3")]:
        board = ct.Board.parse(*spec.split(" ", 1)) if " " in spec else ct.Board.parse(spec)
        g = ct.leaper_graph(board, piece)
        table = ct.move_table(board, ct.parse_piece(piece))
        assert g.number_of_nodes() == board.free_count
        assert 2 * g.number_of_edges() == int((table >= 0).sum())
        assert all(g.nodes[v]["name"] == board.name(v) for v in g)
    tour = ct.find_tour("6x6", start="c3", closed=True)
    t = tour.to_networkx()
    assert nx.is_isomorphic(t, nx.cycle_graph(36)) and t.graph["closed"] is True
    assert all(ct.leaper_graph("6x6").has_edge(*e) for e in t.edges)
    d = ct.find_tour("5x5", start="a1").to_networkx(directed=True)
    path = [v for v, _ in sorted(d.nodes(data="step"), key=lambda x: x[1])]
    assert path == ct.find_tour("5x5", start="a1").path.tolist() and nx.is_directed_acyclic_graph(d)
    assert [d.nodes[v]["step"] for v in path] == list(range(1, 26))


# -- the check of short paths in plain Python, against numpy's -----------------------------------------------------


def _numpy_problem(board, piece, path, closed):
    """first_problem with every path checked by numpy."""
    saved = paths.SHORT_PATH
    paths.SHORT_PATH = 0
    try:
        return paths.first_problem(board, piece, np.asarray(path, dtype=np.int64), closed)
    finally:
        paths.SHORT_PATH = saved


@st.composite
def _paths(draw):
    """A tour of a small board (some with holes, some closed), then perhaps broken: two squares swapped, a square
    repeated, dropped, moved off the board or onto a hole, or a tour read as closed."""
    rows, cols = draw(st.sampled_from([(3, 4), (5, 5), (5, 6), (6, 6), (4, 5)]))
    holes = draw(st.sampled_from([(), ("c3",), ("a1",)]))
    board = Board.parse(f"{rows}x{cols}", holes)
    piece = draw(st.sampled_from([KNIGHT, ZEBRA]))
    closed = draw(st.booleans()) and rows * cols % 2 == 0
    try:
        t = find_tour(board, piece=piece, closed=closed, method="backtrack", node_limit=200_000)
    except Exception:  # noqa: BLE001 - no tour here: a walk of the move table instead
        table = move_table(board, piece)
        v = int(board.free_squares[0])
        path = [v]
        while (nxt := [u for u in table[v] if u >= 0 and u not in path]) and len(path) < board.free_count:
            v = int(draw(st.sampled_from(nxt)))
            path.append(v)
    else:
        path = t.path.tolist()
    how = draw(st.sampled_from(["as it is", "swap", "repeat", "drop", "off", "hole", "closed"]))
    i, j = (draw(st.integers(0, len(path) - 1)) for _ in range(2))
    if how == "swap":
        path[i], path[j] = path[j], path[i]
    elif how == "repeat":
        path[i] = path[j]
    elif how == "drop" and len(path) > 1:
        del path[i]
    elif how == "off":
        path[i] = draw(st.sampled_from([-1, board.size, board.size + 7]))
    elif how == "hole" and board.holes:
        path[i] = next(iter(board.holes))
    elif how == "closed":
        closed = not closed
    return board, piece, path, closed


@settings(max_examples=300, deadline=None)
@given(_paths())
def test_the_check_of_a_short_path_in_python_passes_exactly_the_tours_numpy_passes(case):
    board, piece, path, closed = case
    quick = paths._a_short_tour(board, piece, path, closed)
    assert quick == (_numpy_problem(board, piece, path, closed) is None)
    # and first_problem, the quick check first, gives numpy's answer, sentence and step
    assert paths.first_problem(board, piece, np.asarray(path, dtype=np.int64), closed) == \
        _numpy_problem(board, piece, path, closed)


def test_the_tours_a_listing_finds_pass_the_quick_check_and_a_broken_one_is_named_by_numpy():
    from itertools import islice

    from chesstours import iter_tours

    board = Board(6, 6)
    tours = list(islice(iter_tours(board, closed=True), 50))
    assert all(paths._a_short_tour(board, KNIGHT, t.path.tolist(), True) for t in tours)
    broken = tours[0].path.tolist()
    broken[3], broken[4] = broken[4], broken[3]
    assert not paths._a_short_tour(board, KNIGHT, broken, True)
    sentence, step = paths.first_problem(board, KNIGHT, np.asarray(broken), True)
    assert step == 3 and "is not a knight move" in sentence


@pytest.mark.parametrize("shift, dtype", [(2**32, np.int64), (-(2**32), np.int64), (2**32, np.uint64)])
def test_squares_that_an_int32_cannot_hold_are_refused_not_wrapped_onto_the_board(shift, dtype):
    good = find_tour("5x5", start="a1").path.astype(np.int64)
    with pytest.raises(InvalidTour, match="is not on any board"):
        Tour(Board(5, 5), KNIGHT, (good + shift).astype(dtype))


@given(st.lists(st.integers(min_value=-(2**70), max_value=2**70), min_size=1, max_size=30))
def test_a_path_of_any_integers_keeps_its_values_or_is_refused(values):
    try:
        t = Tour(Board(6, 6), KNIGHT, values)
    except InvalidTour:
        assert any(not -(2**31) <= v < 2**31 for v in values)
    else:
        assert t.path.tolist() == values


@pytest.mark.parametrize("path", [[0.0, 7.0], [True, False], [0, 7.5], "a1"])
def test_a_json_path_of_floats_or_booleans_is_not_a_tour(path):
    with pytest.raises(InvalidTour):
        Tour.from_dict({"board": "3x4", "path": path})


def test_a_tour_is_a_value_its_path_read_only_and_the_callers_array_its_own():
    squares = np.array([0, 7, 2, 9, 4, 11, 6, 1, 8, 3, 10, 5], dtype=np.int32)
    tour = ct.Tour(ct.Board(3, 4), ct.KNIGHT, squares)
    with pytest.raises(ValueError):
        tour.path[0] = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        tour.closed = True  # type: ignore[misc]
    squares[0] = 5  # the array given stays the caller's: the tour took a copy
    assert tour.start == 0 and hash(tour) == hash(ct.Tour(ct.Board(3, 4), ct.KNIGHT, tour.path))
    assert dataclasses.replace(tour, method="backtrack") == tour


def test_from_names_and_rotated_take_what_the_rest_of_the_library_takes():
    names = "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3"
    for board in ("3x4", (3, 4), ct.Board(3, 4)):
        assert ct.Tour.from_names(board, names.split()).is_valid()
    assert ct.Tour.from_names("3x4", names, piece="knight").names() == names.split()
    closed = ct.find_tour("6x6", closed=True, start="a1")
    assert closed.rotated("c3").start == closed.board.square("c3") == closed.rotated(closed.board.square("c3")).start
    with pytest.raises(ct.InvalidSquare):
        closed.rotated("z9")


def test_an_existence_shows_its_question_in_square_names():
    assert repr(ct.tour_exists("5x5", start="b2")) == "Existence(5x5 from b2, knight, open: yes by construction)"


def test_in_a_notebook_tours_and_routes_show_as_pictures(monkeypatch):
    from chesstours.render import picture

    registered = {}

    class Formatter:
        def for_type(self, kind, show):
            registered[kind] = show

    shell = SimpleNamespace(display_formatter=SimpleNamespace(formatters={"image/svg+xml": Formatter()}))
    monkeypatch.setitem(sys.modules, "IPython", SimpleNamespace(get_ipython=lambda: shell))
    picture.show_in_notebooks()
    tour, route = ct.find_tour("5x5", start="a1"), ct.solve_bishop("8x8")
    assert set(registered) == {ct.Tour, ct.BishopRoute}
    assert registered[ct.Tour](tour).startswith("<?xml") and "<svg" in registered[ct.BishopRoute](route)
    assert registered[ct.Tour](ct.find_tour("100x100")) is None  # too large a picture: the repr instead
