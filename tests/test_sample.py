"""Uniformly random tours and exact statistics of all tours, held to the full listing of the tours by backtracking."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

import chesstours as ct
from chesstours.errors import InvalidArgument, NoTour
from chesstours.sample import clear_saved_tables, forecast_tables, saved_tables


def _cycle(tour: ct.Tour) -> frozenset:
    """A closed tour as its set of moves: the same cycle whatever its start and direction."""
    p = tour.path.tolist()
    return frozenset(frozenset((p[i], p[i - 1])) for i in range(len(p)))


def _listed(board, closed=False, **query) -> set:
    """Every tour, by backtracking: directed sequences (open), cycles (closed)."""
    tours = ct.iter_tours(board, closed=closed, **query)
    return {_cycle(t) for t in tours} if closed else {tuple(t.path.tolist()) for t in tours}


def _chi_square_rejects(counts: Counter, cells: int, draws: int) -> bool:
    """Whether a chi-square test of ``counts`` (draws by cell) against the uniform distribution over ``cells``
    rejects it at the 0.1% level (the Wilson-Hilferty normal approximation of the chi-square law)."""
    expected = draws / cells
    x = sum((k - expected) ** 2 / expected for k in counts.values()) + (cells - len(counts)) * expected
    k = cells - 1
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return z > 3.09


UNIFORM_CASES = [
    pytest.param("5x5", dict(start="a1"), 304, id="5x5-open-from-a1"),
    pytest.param("3x4", dict(), 16, id="3x4-open"),
    pytest.param("3x7", dict(), 104, id="3x7-open"),
    pytest.param("5x6", dict(closed=True), 8, id="5x6-closed"),
    pytest.param("6x5", dict(closed=True), 8, id="6x5-closed"),
    pytest.param("3x10", dict(closed=True), 16, id="3x10-closed"),
    pytest.param("4x5", dict(holes="a1"), 288, id="4x5-open-without-a1"),
    pytest.param("6x6", dict(closed=True, holes="c3,d3"), 4, id="6x6-closed-without-c3-d3"),
    pytest.param("4x6", dict(piece="1,3", holes="a1,c1,e1,b2,d2,f2,a3,c3,e3,b4,d4,f4"), 38, id="camel-4x6-light"),
]


@pytest.mark.parametrize("board, query, tours", UNIFORM_CASES)
def test_every_listed_tour_is_drawn_and_no_other_and_the_draws_pass_a_chi_square_test(board, query, tours):
    closed = query.get("closed", False)
    listed = _listed(board, **query)
    assert len(listed) == tours
    draws = 40 * tours
    sample = ct.sample_tours(board, draws, seed=2026, **query)
    assert all(t.is_valid() for t in sample)
    seen = Counter(_cycle(t) if closed else tuple(t.path.tolist()) for t in sample)
    assert set(seen) == listed
    assert not _chi_square_rejects(seen, tours, draws)


def test_6x6_closed_draws_every_one_of_its_9862_cycles_uniformly():
    listed = _listed("6x6", closed=True)
    assert len(listed) == 9862
    draws = 30 * 9862
    seen = Counter(_cycle(t) for t in ct.sample_tours("6x6", draws, closed=True, seed=7))
    assert set(seen) == listed
    assert not _chi_square_rejects(seen, 9862, draws)


def test_warnsdorff_s_walk_with_random_ties_fails_the_chi_square_test_that_the_draws_pass():
    """Warnsdorff's rule with its ties broken at random is no uniform sample: on 5x5 from a1 it favours a few of
    the 304 tours (walks that reach a dead end are walked again with the next seed)."""
    from chesstours.pieces import KNIGHT
    from chesstours.warnsdorff import warnsdorff

    board = ct.Board(5, 5)
    listed = _listed(board, start="a1")
    draws, seed = 20 * 304, 0
    walked: Counter = Counter()
    while sum(walked.values()) < draws:
        result = warnsdorff(board, 0, KNIGHT, "random", seed)
        seed += 1
        if result.complete:
            walked[tuple(result.path.tolist())] += 1
    assert set(walked) <= listed
    assert _chi_square_rejects(walked, 304, draws)
    drawn = Counter(tuple(t.path.tolist()) for t in ct.sample_tours(board, draws, start="a1", seed=5))
    assert not _chi_square_rejects(drawn, 304, draws)


def test_the_chi_square_test_rejects_draws_that_favour_some_tours():
    seen = Counter({i: 60 if i < 100 else 30 for i in range(304)})  # a third of the tours twice as likely
    assert _chi_square_rejects(seen, 304, sum(seen.values()))


@pytest.mark.parametrize("board, query", [
    ("5x5", dict()), ("5x5", dict(start="c3")), ("5x5", dict(start="a1", end="e5")), ("6x6", dict(closed=True)),
    ("5x6", dict(closed=True, start="a1")), ("5x6", dict(closed=True, end="b3")),
    ("5x6", dict(closed=True, start="a1", end="b3")), ("4x5", dict(holes="a1")), ("3x4", dict(end="a1")),
])
def test_the_tours_drawn_from_are_the_directed_tours_count_tours_counts(board, query):
    sample = ct.sample_tours(board, 1, seed=0, **query)
    assert sample[0].stats["tours"] == ct.count_tours(board, method="backtrack", **query).directed


def test_open_tours_start_and_end_where_asked_and_closed_ones_start_on_a1():
    assert {t.names()[0] for t in ct.sample_tours("5x5", 20, start="c3", seed=1)} == {"c3"}
    assert {t.names()[-1] for t in ct.sample_tours("3x4", 20, end="a1", seed=1)} == {"a1"}
    both = ct.sample_tours("5x5", 20, start="a1", end="e5", seed=1)
    assert {(t.names()[0], t.names()[-1]) for t in both} == {("a1", "e5")}
    assert {t.names()[0] for t in ct.sample_tours("6x6", 20, closed=True, seed=1)} == {"a1"}
    assert {t.names()[-1] for t in ct.sample_tours("5x6", 20, closed=True, end="b3", seed=1)} == {"b3"}
    edge = ct.sample_tours("5x6", 20, closed=True, start="a1", end="b3", seed=1)
    assert {(t.names()[0], t.names()[-1]) for t in edge} == {("a1", "b3")}


def test_open_tours_with_no_end_given_come_in_both_directions():
    sample = ct.sample_tours("3x4", 400, seed=3)
    assert {tuple(t.path.tolist()) for t in sample} == _listed("3x4")  # all 16, each path both ways


def test_a_seed_draws_the_same_tours_and_another_seed_others():
    first = [t.path.tolist() for t in ct.sample_tours("6x6", 50, closed=True, seed=11)]
    again = [t.path.tolist() for t in ct.sample_tours("6x6", 50, closed=True, seed=11)]
    other = [t.path.tolist() for t in ct.sample_tours("6x6", 50, closed=True, seed=12)]
    assert first == again
    assert first != other


def test_the_ranks_of_the_draws_are_numpy_s_integers_of_the_seed():
    sample = ct.sample_tours("5x5", 10, start="a1", seed=5)
    assert [t.stats["rank"] for t in sample] == np.random.default_rng(5).integers(0, 304, 10, np.uint64).tolist()


def test_more_tours_than_memory_holds_are_refused_in_a_sentence():
    with pytest.raises(InvalidArgument, match="draw fewer at a time"):
        ct.sample_tours("3x4", 10**20)


def test_no_tours_is_an_empty_list_and_a_negative_number_is_refused():
    assert ct.sample_tours("5x5", 0, start="a1") == []
    with pytest.raises(InvalidArgument, match="whole number"):
        ct.sample_tours("5x5", -1)
    with pytest.raises(InvalidArgument, match="whole number"):
        ct.sample_tours("5x5", 2.5)


def test_a_board_without_tours_raises_no_tour():
    with pytest.raises(NoTour):
        ct.sample_tours("4x4", 1)
    with pytest.raises(NoTour):
        ct.sample_tours("5x5", 1, closed=True)
    with pytest.raises(NoTour):
        ct.sample_tours("5x5", 1, start="b1")  # no open tour of 5x5 starts on a square of the other colour
    with pytest.raises(NoTour):
        ct.sample_tours("6x6", 1, closed=True, start="a1", end="a2")  # not a move apart


def test_a_board_too_large_for_the_tables_is_refused_before_anything_is_built():
    with pytest.raises(InvalidArgument, match="frontier"):
        ct.sample_tours("20x20", 1)
    assert forecast_tables("20x20").refusal is not None
    assert forecast_tables("6x6", closed=True).refusal is None


def test_a_question_whose_states_all_die_has_no_tour():
    with pytest.raises(NoTour):
        ct.sample_tours("3x4", 1, end="c3")  # no open tour of 3x4 ends on c3
    with pytest.raises(NoTour):
        ct.tour_statistics("5x5", closed=True, holes="c3")


def test_the_plan_of_a_question_with_no_tour_says_why_and_plans_nothing():
    forecast = forecast_tables("5x5", closed=True, piece="9,9")
    assert forecast.states == 0 and "colour" in forecast.refusal


def test_the_one_square_board_has_its_one_tour():
    (tour,) = ct.sample_tours("1x1", 1)
    assert tour.names() == ["a1"]


# -- statistics ------------------------------------------------------------------------------------------------


def _listed_statistics(board, closed=False, **query) -> tuple[Counter, Counter]:
    """Moves and starts over the full listing: each undirected tour's moves once, each directed tour's start."""
    edges: Counter = Counter()
    starts: Counter = Counter()
    for t in ct.iter_tours(board, closed=closed, **query):
        p = t.path.tolist()
        pairs = zip(p, p[1:] + p[:1]) if closed else zip(p, p[1:])
        for u, v in pairs:
            edges[(min(u, v), max(u, v))] += 1
        starts[p[0]] += 1
    if not closed and "start" not in query and "end" not in query:
        edges = Counter({e: n // 2 for e, n in edges.items()})  # each path was listed both ways
    return edges, starts


@pytest.mark.parametrize("board, query", [
    ("5x5", dict()), ("5x5", dict(start="a1")), ("3x7", dict()), ("5x6", dict(closed=True)),
    ("4x5", dict(holes="a1")), ("3x10", dict(closed=True)),
    ("4x6", dict(piece="1,3", holes="a1,c1,e1,b2,d2,f2,a3,c3,e3,b4,d4,f4")),
])
def test_the_moves_and_starts_of_all_tours_are_those_of_the_full_listing(board, query):
    stats = ct.tour_statistics(board, **query)
    edges, starts = _listed_statistics(board, **query)
    assert stats.edges == dict(edges)
    if not query.get("closed"):
        assert {v: n for v, n in stats.starts.items() if n} == dict(starts)


def test_5x5_open_tours_start_304_times_on_each_corner_64_on_the_centre():
    stats = ct.tour_statistics("5x5")
    name = {stats.board.name(v): n for v, n in stats.starts.items()}
    assert (stats.directed, stats.undirected) == (1728, 864)
    assert name["a1"] == name["e5"] == 304 and name["c3"] == 64 and name["c1"] == name["b2"] == 56
    assert name["b1"] == 0
    assert sum(stats.starts.values()) == stats.directed
    assert sum(stats.edges.values()) == 24 * 864  # 24 moves a tour of 25 squares


def test_every_closed_tour_of_6x6_takes_36_moves():
    stats = ct.tour_statistics("6x6", closed=True)
    assert (stats.undirected, stats.directed) == (9862, 19724)
    assert sum(stats.edges.values()) == 36 * 9862
    a1 = {e: n for e, n in stats.edges.items() if 0 in e}
    assert sorted(a1.values()) == [9862, 9862]  # a1 has two moves, and every cycle takes both


def test_the_json_of_the_statistics_names_the_squares_and_keeps_exact_integers():
    out = ct.tour_statistics("5x6", closed=True).to_dict()
    assert (out["undirected"], out["directed"]) == (8, 16)
    assert "starts" not in out
    assert sum(e["tours"] for e in out["edges"]) == 30 * 8
    assert all(isinstance(e["tours"], int) and len(e["squares"]) == 2 for e in out["edges"])
    open_ = ct.tour_statistics("5x5", start="a1").to_dict()
    assert open_["starts"]["a1"] == 304 and sum(open_["starts"].values()) == 304


def test_the_frequencies_in_a_large_sample_agree_with_the_statistics_within_their_error():
    stats = ct.tour_statistics("6x6", closed=True)
    draws = 20_000
    seen: Counter = Counter()
    for t in ct.sample_tours("6x6", draws, closed=True, seed=3):
        p = t.path.tolist()
        for u, v in zip(p, p[1:] + p[:1]):
            seen[(min(u, v), max(u, v))] += 1
    for edge, n in stats.edges.items():
        share = n / stats.undirected
        sd = math.sqrt(draws * share * (1 - share))
        assert abs(seen[edge] - draws * share) <= 5 * sd + 1


# -- the tables, kept ------------------------------------------------------------------------------------------


def test_the_tables_are_kept_and_the_next_sample_of_the_question_reads_them(tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSTOURS_TABLES_DIR", str(tmp_path))
    first = [t.path.tolist() for t in ct.sample_tours("5x6", 20, closed=True, seed=4)]
    (kept,) = saved_tables()
    assert kept[1] == "5x6, knight (1,2), closed tours" and kept[2] > 0
    again = [t.path.tolist() for t in ct.sample_tours("5x6", 20, closed=True, seed=4)]
    fresh = [t.path.tolist() for t in ct.sample_tours("5x6", 20, closed=True, seed=4, cache=False)]
    assert first == again == fresh
    assert clear_saved_tables() == kept[2] and saved_tables() == []


def test_without_the_cache_nothing_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSTOURS_TABLES_DIR", str(tmp_path))
    ct.sample_tours("5x6", 2, closed=True, cache=False)
    assert saved_tables() == []


def test_a_cache_folder_that_cannot_be_written_is_no_cache(tmp_path, monkeypatch):
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv("CHESSTOURS_TABLES_DIR", str(blocked / "tables"))
    assert len(ct.sample_tours("5x6", 3, closed=True)) == 3
    assert saved_tables() == []


def test_the_time_limit_stops_the_tables_and_says_so():
    with pytest.raises(ct.LimitReached, match="time limit while building the tables"):
        ct.sample_tours("6x6", 1, time_limit=0.3, cache=False)


@pytest.mark.parametrize("board, query", [("3x4", dict(end="a1")), ("5x5", dict(start="a1")), ("5x5", dict()),
                                          ("5x5", dict(start="a1", end="e5")), ("3x7", dict(end="a1"))])
def test_the_tours_start_and_end_where_the_listing_starts_and_ends_them(board, query):
    stats = ct.tour_statistics(board, **query)
    listed = list(ct.iter_tours(board, **query))
    assert {v: n for v, n in stats.starts.items() if n} == dict(Counter(int(t.path[0]) for t in listed))
    assert {v: n for v, n in stats.ends.items() if n} == dict(Counter(int(t.path[-1]) for t in listed))
    assert sum(stats.starts.values()) == sum(stats.ends.values()) == stats.directed == len(listed)


@pytest.mark.parametrize("call", [
    lambda: ct.sample_tours(None, 1), lambda: ct.sample_tours("5x5", "3"), lambda: ct.sample_tours("5x5", 1, seed=1.5),
    lambda: ct.sample_tours("5x5", 1, start="z9"), lambda: ct.sample_tours("5x5", 1, holes=5),
    lambda: ct.sample_tours("5x5", 1, piece="bishop"), lambda: ct.sample_tours("5x5", 1, time_limit=-1),
    lambda: ct.tour_statistics("0x5"), lambda: ct.tour_statistics("5x5", start="a1", holes="a1"),
    lambda: ct.sample_tours("5x5", True), lambda: ct.sample_tours("5x5", 1, seed=-3),
])
def test_hostile_input_raises_only_chesstours_errors(call):
    with pytest.raises(ct.ChessToursError):
        call()


def test_closed_tours_are_drawn_both_ways_round_each_of_the_16_sequences_of_5x6_from_a1():
    sequences = set()
    for cycle in ct.iter_tours("5x6", closed=True):
        p = cycle.rotated(0).path.tolist()
        sequences |= {tuple(p), tuple([p[0]] + p[:0:-1])}
    assert len(sequences) == 16
    seen = Counter(tuple(t.path.tolist()) for t in ct.sample_tours("5x6", 800, closed=True, seed=8))
    assert set(seen) == sequences
    assert not _chi_square_rejects(seen, 16, 800)
