"""The frontier sweep counts exactly what backtracking counts, and what the literature says."""

from __future__ import annotations

import collections
import math
import os
import pickle
import re
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chesstours import Board, count_tours
from chesstours.colours import EndRule, end_rule
from chesstours.count import count_strip
from chesstours.errors import InvalidArgument, LimitReached, ResourceError
from chesstours.frontier import count_strip as frontier_strip
from chesstours.frontier import parts as frontier_parts
from chesstours.frontier import plan as frontier_plan
from chesstours.frontier import run as frontier_run
from chesstours.frontier import table_kernel as ft
from chesstours.frontier.disk import Layers
from chesstours.frontier.join import halves as frontier_join
from chesstours.frontier.plan import best_plan, mirror_map, neighbours
from chesstours.frontier.residues import count_bound, from_residues, is_prime, moduli_for, primes_below
from chesstours.frontier.run import WideOverflow
from chesstours.frontier.split import split_estimate
from chesstours.frontier.sweep import MIRRORED_MEMORY, MIRRORED_WORK, choose_halves, frontier_count
from chesstours.frontier.sweep import estimate as frontier_estimate
from chesstours.pieces import CAMEL, GIRAFFE, KNIGHT, ZEBRA, Leaper
from tests.oracle import brute_force_counts


def both(board, **kw):
    """(frontier, backtracking) directed and undirected counts of one question."""
    f = count_tours(board, method="frontier", **kw)
    b = count_tours(board, method="backtrack", **kw)
    assert f.method == "frontier" and f.complete
    return (f.directed, f.undirected), (b.directed, b.undirected)


# Every board of at most 30 squares (and some the other way round: the sweep turns to the narrow side).
SMALL = [(r, c) for r in range(1, 7) for c in range(r, 16) if r * c <= 30] + [(4, 3), (5, 4), (6, 5), (10, 3)]


@pytest.mark.parametrize(("rows", "cols"), SMALL)
def test_whole_board_counts_agree_with_backtracking(rows, cols):
    board = Board(rows, cols)
    for closed in (False, True):
        f, b = both(board, closed=closed)
        assert f == b, (board, closed)


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 5), (5, 5), (3, 7), (4, 6), (5, 6), (3, 10)])
def test_counts_from_a_square_and_between_two_squares_agree_with_backtracking(rows, cols):
    board = Board(rows, cols)
    free = list(range(board.size))
    starts = sorted({0, cols - 1, board.size // 2, cols + 1, board.size - 1})
    for s in starts:
        f, b = both(board, start=s)
        assert f == b, (board, s)
        f, b = both(board, end=s)
        assert f == b, (board, "end", s)
        f, b = both(board, start=s, closed=True)
        assert f == b, (board, "closed", s)
    for s in starts[:3]:
        for e in free[:: max(1, len(free) // 6)]:
            if e == s:
                continue
            f, b = both(board, start=s, end=e)
            assert f == b, (board, s, e)
            f, b = both(board, start=s, end=e, closed=True)
            assert f == b, (board, "closed", s, e)


@pytest.mark.parametrize("piece", [CAMEL, ZEBRA, GIRAFFE, Leaper(1, 1), Leaper(0, 1), Leaper(1, 3), Leaper(0, 2)])
@pytest.mark.parametrize(("rows", "cols"), [(3, 5), (4, 4), (4, 5), (5, 5)])
def test_other_leapers_agree_with_backtracking(piece, rows, cols):
    board = Board(rows, cols)
    for closed in (False, True):
        f, b = both(board, closed=closed, piece=piece)
        assert f == b, (board, piece, closed)
    f, b = both(board, start=0, piece=piece)
    assert f == b


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 4), st.integers(2, 5), st.sampled_from([KNIGHT, ZEBRA, Leaper(1, 1), Leaper(0, 1), CAMEL]),
       st.data())
def test_boards_with_holes_agree_with_brute_force(rows, cols, piece, data):
    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=4))
    if len(holes) >= rows * cols:
        return
    board = Board(rows, cols, holes)
    bf = brute_force_counts(board, piece)
    n = board.free_count
    open_directed = sum(bf["per_start"].values())
    assert frontier_count(board, piece).count == (open_directed if n == 1 else open_directed // 2)
    assert frontier_count(board, piece, closed=True).count == bf["cycles"]
    s = bf["free"][0]
    c = count_tours(board, start=s, piece=piece, method="frontier")
    assert c.directed == bf["per_start"][s]
    if n > 1:
        e = bf["free"][-1]
        assert count_tours(board, start=s, end=e, piece=piece, method="frontier").directed == \
            bf["per_pair"].get((s, e), 0)


# -- the literature (shared/facts.md and the OEIS) -------------------------------------------------


def test_5x5_has_1728_directed_and_864_undirected_open_tours():
    c = count_tours("5x5", method="frontier")
    assert (c.directed, c.undirected) == (1728, 864)
    assert count_tours("5x5", start="a1", method="frontier").directed == 304
    assert count_tours("5x5", start="c3", method="frontier").directed == 64


def test_6x6_has_9862_closed_tours():
    c = count_tours("6x6", closed=True, method="frontier")
    assert c.method == "frontier" and (c.undirected, c.directed) == (9862, 19724)
    assert c.extra["max_states"] > 0 and c.extra["peak_memory_mb"] > 0


def test_6x6_has_6637920_directed_open_tours():
    c = count_tours("6x6", method="frontier")
    assert (c.directed, c.undirected) == (6_637_920, 3_318_960)
    assert c.extra["how"] == "meet in the middle"
    assert count_tours("6x6", start="a1", method="frontier").directed == 524_486


@pytest.mark.slow
def test_7x7_has_165575218320_directed_open_tours():
    # about 100 s on two cores: the halves hold 20 and 43 million states
    c = count_tours("7x7", method="frontier")
    assert (c.directed, c.undirected) == (165_575_218_320, 82_787_609_160)


def test_7x8_has_34524432316_closed_tours():
    # A193054 (closed knight's tours of 7 x n); the plain sweep took minutes, the halves seconds
    c = count_tours("7x8", closed=True, method="frontier")
    assert c.undirected == 34_524_432_316 and c.extra["how"] == "meet in the middle"


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("CHESSTOURS_SLOW"), reason="about a minute, 1.7 GiB: set CHESSTOURS_SLOW=1")
def test_8x8_has_13267364410532_closed_tours():
    c = count_tours("8x8", closed=True, method="frontier")
    assert (c.undirected, c.directed) == (13_267_364_410_532, 26_534_728_821_064)


def test_one_sweep_gives_the_closed_tours_of_every_3_row_strip():
    # A070030 / A383660 (Knuth): 3 x 10 has 16, 3 x 12 has 176, ...
    counts = dict(count_strip(3, range(1, 25), closed=True).counts)
    assert [counts[k] for k in range(10, 25, 2)] == [16, 176, 1536, 15424, 147728, 1448416, 14060048, 136947616]
    assert all(counts[k] == 0 for k in range(1, 10)) and all(counts[k] == 0 for k in range(11, 25, 2))


def test_4_row_strips_have_no_closed_tours_but_open_ones():
    closed = count_strip(4, range(1, 15), closed=True).counts
    assert all(n == 0 for _, n in closed)  # Schwenk (1991)
    opened = dict(count_strip(4, range(3, 7), closed=False).counts)
    assert opened[5] == 164  # facts.md: 4 x 5 has 164 directed open tours
    assert opened == {k: count_tours(Board(4, k), method="backtrack").directed for k in range(3, 7)}


def test_one_sweep_gives_the_closed_tours_of_every_5_row_strip():
    # A383661 (Knuth) at full 5 x k boards.
    counts = dict(count_strip(5, range(5, 15), closed=True).counts)
    assert [counts[k] for k in (6, 8, 10, 12, 14)] == [8, 44202, 13311268, 4557702762, 1495135512514]
    assert all(counts[k] == 0 for k in (5, 7, 9, 11, 13))


def test_one_sweep_gives_the_closed_tours_of_6_row_strips():
    # A175881: closed knight's tours of 6 x n.
    counts = count_strip(6, range(1, 9), closed=True).counts
    assert [n for _, n in counts] == [0, 0, 0, 0, 8, 9862, 1067638, 55488142]


def first_cells(rows, n):
    """The first n cells of a rows-high board taken file by file, bottom to top: the rest are holes."""
    files = -(-n // rows)
    return Board(rows, files, [r * files + files - 1 for r in range(rows * files - n)])


# Knuth, TAOCP pre-fascicle 8a: closed knight's tours of the first 2n cells of a 3-, 5- and 7-row
# board (A383660 from n = 11, A383661 from n = 9, A383663 from n = 11; the last term of A383663
# here is the full 7 x 6 board, 6 x 7 closed in facts.md). Most of these boards have holes in
# their last file, so these are counts on holed boards from a source independent of this project.
A383660 = [4, 0, 4, 24, 16, 56, 306, 176, 456, 2632, 1536, 4828, 26788, 15424, 44952, 254288, 147728,
           448032, 2502568, 1448416, 4310048, 24228704, 14060048, 42195584, 236335248, 136947616]
A383661 = [1, 0, 1, 30, 0, 148, 8, 78, 9309, 612, 62749, 44202, 42049, 2916485, 147192, 18284136,
           13311268, 13008389, 973107552, 51147756, 6190192748, 4557702762, 4311375354, 316985255470,
           16552301184, 2015267424300, 1495135512514, 1417634375316, 104324890543686, 5459334927260,
           663068761241948]


A383663 = [2, 11, 58, 0, 21, 1020, 9309, 1481, 34162, 1295034, 1067638]


@pytest.mark.parametrize(("rows", "first", "expected"), [(3, 11, A383660), (5, 9, A383661), (7, 11, A383663)])
def test_closed_tours_of_the_first_cells_of_a_strip_match_knuths_sequences(rows, first, expected):
    got = [count_tours(first_cells(rows, 2 * n), closed=True, method="frontier").undirected
           for n in range(first, first + len(expected))]
    assert got == expected


# -- the sweep itself -------------------------------------------------------------------------------


def test_the_sweep_runs_across_the_narrow_side():
    tall, wide = best_plan(Board(9, 4), KNIGHT), best_plan(Board(4, 9), KNIGHT)
    assert tall.max_slots == wide.max_slots <= 2 * 4 + 1
    assert {Board(9, 4).row(v) for v in tall.order[:4]} == {0}  # a line is a row of 4
    assert {Board(4, 9).col(v) for v in wide.order[:4]} == {0}  # a line is a column of 4


@pytest.mark.parametrize(("board", "start", "end"), [(Board(6, 6), 0, None), (Board(5, 6), None, 7),
                                                   (Board(6, 7), 40, None)])
def test_a_closed_count_through_one_square_is_the_whole_boards_and_folds_as_it_does(board, start, end):
    # every cycle passes through every square: the count through one is the count, mirror pairs folded
    whole = frontier_count(board, KNIGHT, True)
    through = frontier_count(board, KNIGHT, True, start, end)
    assert through.count == whole.count and through.states_total == whole.states_total
    assert frontier_estimate(board, KNIGHT, start, end, closed=True).mirrored
    # through an edge, the mirror breaks
    assert not frontier_estimate(board, KNIGHT, 0, neighbours(board, KNIGHT)[0][0], closed=True).mirrored


def test_a_plan_wider_than_a_state_is_refused_before_the_kernels_run():
    # the kernels' work arrays hold 17 slots: a plan of 18 (9 columns) would write past them
    sweep = best_plan(Board(9, 9), KNIGHT, closed=True)
    assert sweep.max_slots == 18
    with pytest.raises(ValueError, match="18 frontier squares"):
        frontier_run.run_sweep(sweep.steps, sweep.max_slots, True, 2, threads=1)


def test_wide_boards_are_refused_up_front_with_an_estimate():
    with pytest.raises(InvalidArgument, match="frontier of .* squares .*states"):
        count_tours("12x40", closed=True, method="frontier")
    with pytest.raises(InvalidArgument, match="frontier of 18 squares"):
        count_tours("9x9", closed=True, method="frontier")
    with pytest.raises(InvalidArgument, match=r"would need about .* states .* more than the 8\.0 GiB allowed"):
        frontier_count(Board(8, 8), KNIGHT, closed=False, memory_limit=8 << 30)


def test_a_count_that_outgrows_its_memory_limit_stops_with_a_sentence():
    # 6x10 closed is forecast from the frontier's width alone (about 7 MiB) and holds about 110 MiB at its
    # peak: a limit between the two passes the check before the count, and the count itself stops
    board = Board(6, 10)
    assert frontier_estimate(board, KNIGHT, closed=True).memory_bytes < 20 << 20
    with pytest.raises(ResourceError, match=r"^Counting tours of 6x10 by the frontier method outgrew the 40\.0 MiB "
                                            r"of memory allowed \(more than its forecast\) with [\d,]+ live states"):
        frontier_count(board, KNIGHT, True, memory_limit=40 << 20)
    with pytest.raises(ResourceError, match="outgrew"):  # one whole sweep
        frontier_count(board, KNIGHT, True, memory_limit=40 << 20, halves=False)
    with pytest.raises(ResourceError, match="outgrew"):
        frontier_strip(6, 14, KNIGHT, True, memory_limit=20 << 20)
    # a count within the limit is not stopped, and held no more than it
    r = frontier_count(Board(6, 8), KNIGHT, True, memory_limit=60 << 20)
    assert r.count == 55_488_142 and r.peak_bytes <= 60 << 20


def test_over_memory_pickles_with_its_fields():
    again = pickle.loads(pickle.dumps(frontier_run.OverMemory(3, 24, 1000, 5 << 20, 4 << 20)))
    assert (again.step, again.steps, again.live, again.held, again.limit) == (3, 24, 1000, 5 << 20, 4 << 20)


def test_the_time_limit_stops_the_sweep_with_an_incomplete_count():
    with pytest.raises(LimitReached) as info:
        count_tours("7x8", closed=True, method="frontier", time_limit=0.2)
    partial = info.value.partial
    assert partial.complete is False and partial.method == "frontier" and partial.nodes > 0


def test_progress_reports_the_square_and_the_live_states():
    seen = []
    count_tours("4x7", closed=False, method="frontier", progress=seen.append)
    assert seen and seen[-1].steps == 28 and all(p.states >= 0 for p in seen)
    assert {p.phase for p in seen} == {"sweep"}


def test_auto_sweeps_closed_whole_boards_and_backtracks_quick_counts():
    assert count_tours("6x7", closed=True).method == "frontier"
    assert count_tours("5x6", closed=True).method == "backtrack"
    assert count_tours("5x5", start="a1").method == "backtrack"
    assert count_tours("4x4").method == "theory"


def test_auto_backtracks_where_backtracking_beats_the_sweep_even_past_a_quarter_second():
    from chesstours import policy
    from chesstours.board import Board
    from chesstours.pieces import KNIGHT

    # 6x6 open: backtracking about 0.6 s on two cores, the sweep 0.65 s (forecast 2.3 s, its mirror pairs kept once).
    plan = policy.plan_count(Board(6, 6), KNIGHT)
    assert plan.method == "backtrack" and plan.seconds > policy.FRONTIER_ABOVE_SECONDS
    # the why sets the two estimates side by side in figures (both "under a second" would say nothing)
    assert re.fullmatch(r"backtracking is estimated at [0-9.]+ s, quicker than 1/4 of the frontier method's "
                        r"forecast of [0-9.]+ s", plan.why), plan.why
    # 5x8 open: backtracking some seconds, the sweep a tenth of one (past the forecast that goes to the frontier
    # in plain Python at once, so the two estimates are weighed).
    plan = policy.plan_count(Board(5, 8), KNIGHT)
    assert plan.method == "frontier" and "than 1/4 of the frontier method's forecast of" in plan.why
    # 4x10 open: a forecast so small that the sweep in plain Python answers before an estimate could.
    plan = policy.plan_count(Board(4, 10), KNIGHT)
    assert plan.method == "frontier" and "at once in plain Python" in plan.why
    # 6x6 without a1: backtracking 62 million positions, 1.9 s (estimated at 0.8 s before the probes' estimate
    # was doubled), the sweep 0.8 s; without b1: backtracking 1.2 s (estimated at 0.8 s), the sweep 0.34 s, as
    # forecast as the whole board's 2.3 s (a hole cuts about as many states as the mirror would fold)
    for hole in (0, 1):
        plan = policy.plan_count(Board(6, 6, {hole}), KNIGHT)
        assert plan.method == "frontier" and "than 1/4 of the frontier method's forecast of 2.3 s" in plan.why, hole
    assert count_tours("6x6").directed == 6_637_920


#: insert_run's ring of home slots (its scratch).
HOMES = np.zeros(ft.PREFETCH_AHEAD, np.int64)


def test_counts_carry_into_a_second_64_bit_limb():
    table = np.zeros(3 * 1024, np.uint64)
    table[0::3] = ft.EMPTY_KEY
    fill, err = np.zeros(1, np.int64), np.zeros(1, np.int64)
    top = np.uint64(2**64 - 1)
    keys = np.array([7, 7, 7], np.uint64)
    lo = np.array([top, top, 5], np.uint64)
    hi = np.array([0, 1, 0], np.uint64)
    ft.insert_run(keys, lo, hi, 0, 3, table, 3, 0, fill, 1000, err, np.uint64(0), HOMES)
    got = ft.compact(table, 3, int(fill[0]))
    assert int(got[0][0]) == 7 and int(got[1][0]) + (int(got[2][0]) << 64) == 2 * (2**64 - 1) + 2**64 + 5
    assert err[0] == 0


def test_a_one_limb_table_flags_a_carry_instead_of_wrapping():
    table = np.zeros(2 * 64, np.uint64)
    table[0::2] = ft.EMPTY_KEY
    fill, err = np.zeros(1, np.int64), np.zeros(1, np.int64)
    keys = np.array([3, 3], np.uint64)
    lo = np.array([2**63, 2**63], np.uint64)
    ft.insert_run(keys, lo, np.zeros(2, np.uint64), 0, 2, table, 2, 0, fill, 48, err, np.uint64(0), HOMES)
    assert err[0] == ft.NARROW_OVERFLOW


def test_a_two_limb_table_refuses_a_count_past_2_to_the_128():
    table = np.zeros(3 * 64, np.uint64)
    table[0::3] = ft.EMPTY_KEY
    fill, err = np.zeros(1, np.int64), np.zeros(1, np.int64)
    top = np.uint64(2**64 - 1)
    keys = np.array([3, 3], np.uint64)
    ft.insert_run(keys, np.array([top, 1], np.uint64), np.array([top, 0], np.uint64), 0, 2, table, 3, 0, fill, 48,
                  err, np.uint64(0), HOMES)
    assert err[0] == ft.OVERFLOW


# A175855: closed knight's tours of 5 x 2n, n = 1 .. 20.
A175855 = [0, 0, 8, 44202, 13311268, 4557702762, 1495135512514, 491857035772330, 161514101568508400,
           53034853662012222798, 17414154188157170439208, 5717847862749642677204182,
           1877435447920358266870897874, 616447390029326136628439042672, 202407848349722353779265745190616,
           66459727085467788423206394162537418, 21821760546806761707309514948565417796,
           7165079447164571822068029945303172129766, 2352622444655438705806553391345493395131580,
           772473271844923268504474277422663237674924998]


def test_a_count_past_2_to_the_128_is_joined_from_residues_modulo_primes():
    # 5 x 40 has a 150-bit number of closed tours: the sweep reruns once a prime and joins the residues.
    wide = count_strip(5, range(1, 41), closed=True)
    direct = count_strip(5, range(1, 35), closed=True)  # fits in two limbs
    assert wide.extra["residues"] == 5 and "residues" not in direct.extra  # 150 bits, bounded by 287
    counts = dict(wide.counts)
    assert [counts[k] for k in range(1, 35)] == [n for _, n in direct.counts]  # by residues and directly
    assert counts[40] > 2**128 and all(counts[k] == 0 for k in range(1, 41, 2))
    assert [counts[k] for k in range(2, 41, 2)] == A175855


@pytest.mark.parametrize(("board", "closed", "start"), [
    (Board(6, 6), False, None), (Board(5, 6), True, None), (Board(6, 6), False, 7), (Board(5, 6, [8, 21]), False, None),
])
def test_counting_by_residues_gives_what_counting_directly_gives(monkeypatch, board, closed, start):
    from chesstours.frontier import sweep as frontier

    want = frontier_count(board, KNIGHT, closed, start, halves=False)
    real = frontier.run_sweep

    def no_room(*args, modulus=0, **kwargs):  # as if every direct count passed 2**128
        if not modulus:
            raise WideOverflow()
        return real(*args, modulus=modulus, **kwargs)

    monkeypatch.setattr(frontier, "run_sweep", no_room)
    got = frontier_count(board, KNIGHT, closed, start, halves=False)
    degrees = [len(x) for x in neighbours(board, KNIGHT).values()]
    assert got.count == want.count and got.residues == len(moduli_for(count_bound(degrees, closed)))


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (3, 10), (4, 5), (5, 5), (5, 6), (6, 6), (5, 40), (8, 8)])
def test_bregmans_bound_is_above_every_count_and_near_it(rows, cols):
    degrees = [len(x) for x in neighbours(Board(rows, cols), KNIGHT).values()]
    known = {(5, 40, True): A175855[-1], (8, 8, True): 26534728821064, (8, 8, False): 19591828170979904}
    for closed in (True, False) if rows * cols <= 64 else (True,):
        directed = known.get((rows, cols, closed))
        if directed is None:
            directed = count_tours(Board(rows, cols), closed=closed, method="frontier").directed
        bound = count_bound(degrees, closed)
        assert directed < bound
        if directed > 2**20:
            assert bound.bit_length() < 2.5 * directed.bit_length() + 10  # tight enough to spare sweeps


@given(st.integers(0, 2**400), st.integers(1, 7))
def test_the_chinese_remainder_theorem_gives_back_any_number_below_the_product(x, k):
    primes = primes_below(2**62, k)
    assert primes == sorted(primes, reverse=True) and all(p < 2**62 for p in primes)
    assert from_residues([(x % p, p) for p in primes]) == x % math.prod(primes)


def test_the_primes_are_the_primes():
    small = [n for n in range(2, 2000) if all(n % d for d in range(2, int(n**0.5) + 1))]
    assert [n for n in range(2000) if is_prime(n)] == small
    assert is_prime(2**61 - 1) and not is_prime((2**31 - 1) * (2**61 - 1)) and not is_prime(3215031751)


def test_6x15_has_more_closed_tours_than_fit_in_64_bits():
    # A175881: closed knight's tours of 6 x n.
    counts = dict(count_strip(6, range(9, 16), closed=True).counts)
    assert counts[9] == 3374967940 and counts[10] == 239187240144
    assert counts[14] == 4005716717182224826
    assert counts[15] == 255967892553030600920 > 2**64


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_the_sweep_counts_the_same_on_any_number_of_threads(workers):
    # The new states of a step are split among table shards by their hash;
    # one shard or several, every partial tour is counted once.
    cases = [(Board(5, 6), KNIGHT, True, None), (Board(5, 5), KNIGHT, False, None),
             (Board(6, 6, holes=[14, 21]), KNIGHT, False, None), (Board(4, 8), ZEBRA, False, None),
             (Board(4, 7), KNIGHT, False, 3)]
    got = [frontier_count(b, p, closed, start, workers=workers) for b, p, closed, start in cases]
    assert [r.threads for r in got] == [workers] * len(cases)
    want = [frontier_count(b, p, closed, start, workers=1).count for b, p, closed, start in cases]
    assert [r.count for r in got] == want
    assert want[0] == count_tours("5x6", closed=True, method="backtrack").undirected


# -- meet in the middle -----------------------------------------------------------------------------


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.integers(3, 7), st.sampled_from([KNIGHT, ZEBRA, Leaper(1, 1), Leaper(0, 1), CAMEL]),
       st.booleans(), st.sampled_from([None, False, True]), st.data())
def test_keeping_one_state_of_each_mirror_pair_counts_what_keeping_every_state_counts(rows, cols, piece, closed,
                                                                                     halves, data):
    # holes that the board's reflection keeps, so that the count stays symmetric
    image = mirror_map(Board(rows, cols))
    seeds = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=3))
    board = Board(rows, cols, seeds | {image[h] for h in seeds})
    if board.free_count < 2 or (halves and choose_halves(board, piece, closed) is None):
        return
    try:
        every = frontier_count(board, piece, closed, halves=halves, mirror=False)
    except InvalidArgument:  # a frontier too wide for one sweep
        return
    pairs = frontier_count(board, piece, closed, halves=halves)
    assert pairs.count == every.count
    assert pairs.max_states <= every.max_states


def test_keeping_one_state_of_each_mirror_pair_keeps_about_half():
    board = Board(6, 8)
    sweep = best_plan(board, KNIGHT, closed=False)
    # each square of a line added just before its image: the squares so far are their own image after every pair
    assert [t for t, step in enumerate(sweep.steps) if step.mirror.size] == list(range(1, 47, 2))
    assert not any(s.mirror.size for s in best_plan(board, KNIGHT, 0, None, False).steps)  # a start breaks it
    assert mirror_map(Board(6, 8, [0])) is None and mirror_map(Board(6, 8, [0, 40])) is not None  # a1 and a6
    every = frontier_count(board, KNIGHT, False, mirror=False)
    pairs = frontier_count(board, KNIGHT, False)
    assert pairs.count == every.count == 24_964_893_804
    assert 0.45 < pairs.halves[0] / every.halves[0] < 0.55 and 0.45 < pairs.halves[1] / every.halves[1] < 0.55
    assert 0.45 < pairs.pairs / every.pairs < 0.55


def _counted(board, piece, closed, start, end, halves, rule):
    """A frontier count, with the rule of where its tours end (:func:`end_rule`) or without it."""
    with pytest.MonkeyPatch.context() as patch:
        if not rule:
            for module in (frontier_plan, frontier_join):
                patch.setattr(module, "end_rule", lambda *args, **kw: EndRule())
        return frontier_count(board, piece, closed, start, end, halves=halves)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(3, 7), st.sampled_from([KNIGHT, ZEBRA, Leaper(0, 1), Leaper(1, 1), CAMEL]),
       st.sampled_from([None, False, True]), st.data())
def test_the_rule_of_where_an_open_tour_ends_drops_states_and_no_tour(rows, cols, piece, halves, data):
    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=3))
    board = Board(rows, cols, holes)
    free = [int(v) for v in board.free_squares]
    if len(free) < 2 or (halves and choose_halves(board, piece, False) is None):
        return
    start, end = (data.draw(st.sampled_from([None, *free])) for _ in range(2))
    if start is not None and start == end:
        return
    try:
        without = _counted(board, piece, False, start, end, halves, rule=False)
    except InvalidArgument:  # a frontier too wide for one sweep
        return
    with_rule = _counted(board, piece, False, start, end, halves, rule=True)
    assert with_rule.count == without.count
    assert with_rule.states_total <= without.states_total


def test_an_odd_board_passes_through_its_light_squares_and_an_even_one_ends_on_both_colours():
    rule = end_rule(Board(5, 5), KNIGHT, closed=False)
    assert rule.through == {v for v in range(25) if Board(5, 5).colour(v)} and rule.colours is None
    assert end_rule(Board(5, 5), KNIGHT, closed=True) == EndRule()
    assert end_rule(Board(5, 5), CAMEL, closed=False) == EndRule()  # a camel keeps its colour
    assert len(end_rule(Board(5, 5, [0]), KNIGHT, closed=False).colours) == 24  # 12 of each colour
    assert end_rule(Board(5, 5, [1, 3]), KNIGHT, closed=False).through == set(Board(5, 5, [1, 3]).free_squares)
    assert end_rule(Board(4, 4), ZEBRA, closed=False, start=0, end=5).through == set(range(16)) - {0, 5}
    # the states a count drops, and its tours
    for board, closed, ratio in [(Board(5, 5), False, 0.5), (Board(6, 6), False, 0.8), (Board(5, 7), False, 0.6),
                                 (Board(6, 6), True, 1.0)]:
        without = _counted(board, KNIGHT, closed, None, None, None, rule=False)
        with_rule = _counted(board, KNIGHT, closed, None, None, None, rule=True)
        assert with_rule.count == without.count
        assert with_rule.states_total <= ratio * without.states_total, board


def test_a_strip_of_odd_and_even_lengths_counts_what_each_board_counts():
    # a 5 x 7 board's tours end on dark squares; a 5 x 6 board's on both colours: a strip takes no board's rule
    strip = frontier_strip(5, 8, KNIGHT, closed=False).per_length
    assert strip[4:] == [frontier_count(Board(5, k), KNIGHT, False).count for k in range(5, 9)]


def test_the_estimate_of_a_folded_count_takes_the_mirror_into_account():
    whole = frontier_estimate(Board(8, 8), KNIGHT, closed=True)
    through = frontier_estimate(Board(8, 8), KNIGHT, start=0, closed=True)  # every cycle: the whole count
    edge = frontier_estimate(Board(8, 8), KNIGHT, start=0, end=10, closed=True)  # the cycles using a1-c2
    holes = frontier_estimate(Board(8, 8, [0]), KNIGHT, closed=True)  # a1's image h1 is no hole: no mirror
    assert whole.mirrored and through == whole and not edge.mirrored and not holes.mirrored
    assert whole.slots == holes.slots and whole.states == holes.states
    assert whole.memory_bytes == pytest.approx(holes.memory_bytes * MIRRORED_MEMORY)
    assert whole.memory_bytes == pytest.approx(edge.memory_bytes * MIRRORED_MEMORY)
    # the closed tours through an edge, most of them, without the mirror take longer; a hole cuts as much as the
    # mirror saves, and so does an open tour's given start
    assert whole.seconds == pytest.approx(edge.seconds * MIRRORED_WORK)
    assert whole.seconds == pytest.approx(holes.seconds)
    open_whole = frontier_estimate(Board(6, 6), KNIGHT)
    open_start = frontier_estimate(Board(6, 6), KNIGHT, start=0)
    assert not open_start.mirrored and open_start.seconds == pytest.approx(open_whole.seconds)
    # a part of a split keeps every state: its share is taken of the whole count that does
    assert split_estimate(whole, 3, 1)["memory_bytes"] == pytest.approx(split_estimate(holes, 3, 1)["memory_bytes"])


def test_the_plan_of_a_board_much_longer_than_wide_says_its_forecast_runs_low():
    from chesstours import policy

    long = policy.plan_count(Board(6, 10), closed=True, method="frontier")
    assert long.extra["caveat"].startswith("the forecast reads the frontier's width alone")
    assert "caveat:    the forecast" in "\n".join(long.lines()) and "caveat" in long.to_dict()
    assert all("caveat" not in policy.plan_count(b, closed=True, method="frontier").extra
               for b in (Board(6, 7), Board(7, 7), Board(8, 8)))
    assert "caveat" not in policy.plan_count(Board(6, 10), ZEBRA, method="frontier").extra  # far below it
    # and it does run low there: the count holds many times the memory it forecast
    counted = frontier_count(Board(6, 10), KNIGHT, closed=True)
    assert counted.peak_bytes > 5 * frontier_estimate(Board(6, 10), KNIGHT, closed=True).memory_bytes


def test_tables_started_small_to_spare_memory_count_the_same_and_hold_less(monkeypatch):
    # Above SPARE_ABOVE bytes a step's tables start at a share of their plan and grow as its input is freed;
    # with the threshold at 0 every step does, and the widest steps of 6x6 and 6x8 open hold less at their peak.
    cases = [(Board(6, 6), False, 3_318_960), (Board(6, 8), False, 24_964_893_804), (Board(6, 7), True, 1_067_638)]
    whole = [frontier_count(b, KNIGHT, closed, workers=2) for b, closed, _ in cases]
    monkeypatch.setattr(frontier_parts, "SPARE_ABOVE", 0)
    spared = [frontier_count(b, KNIGHT, closed, workers=2) for b, closed, _ in cases]
    assert [r.count for r in spared] == [r.count for r in whole] == [n for _, _, n in cases]
    assert spared[0].peak_bytes < 0.85 * whole[0].peak_bytes and spared[1].peak_bytes < 0.8 * whole[1].peak_bytes
    assert spared[2].peak_bytes <= whole[2].peak_bytes


def test_a_step_starts_its_tables_small_only_above_the_threshold():
    capacity, tables = 1 << 20, 16 << 20
    assert frontier_parts.start_capacity(capacity, tables, 1 << 20) == (capacity, 0.0)
    tables, inputs = 1 << 30, 600 << 20  # past the threshold: 8x8's last step, whose tables end above its input
    start, spare = frontier_parts.start_capacity(capacity, tables, inputs)
    assert spare == inputs / tables and start == int(capacity * (1.05 - spare)) + 1
    # input as large as the tables: a quarter of the plan
    assert frontier_parts.start_capacity(capacity, 1 << 30, 1 << 30)[0] == capacity // 4 + 1


# -- layers on disk ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("board", "closed", "halves", "start"), [
    (Board(6, 6), False, False, None), (Board(6, 6), False, True, None), (Board(5, 6), True, False, None),
    (Board(6, 6), True, True, None), (Board(5, 5), False, False, 0), (Board(6, 6), False, True, 0),
    (Board(5, 6, holes=[7, 20]), False, False, None),
])
def test_a_sweep_with_its_layers_on_disk_counts_what_one_in_memory_counts(tmp_path, board, closed, halves, start):
    want = frontier_count(board, KNIGHT, closed, start, halves=halves)
    # a budget of 64 KiB of tables: every step writes partial tables out and merges them
    got = frontier_count(board, KNIGHT, closed, start, halves=halves, spill_dir=tmp_path, table_budget=1 << 16)
    assert got.count == want.count and got.peak_disk_bytes > 0
    assert got.peak_bytes <= want.peak_bytes  # the batch buffers, the same either way, are all a small sweep holds
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts open files through /proc")
def test_the_layers_on_disk_hold_no_file_open_but_the_one_being_read(tmp_path, monkeypatch):
    # A long spilled sweep writes thousands of files: mapping them all at once ran out of file handles.
    # Small chunks of input make a step flush its tables hundreds of times, as a large count does.
    monkeypatch.setattr(frontier_parts, "CHUNK", 1 << 12)
    opened = []
    got = frontier_count(Board(6, 6), KNIGHT, False, halves=True, spill_dir=tmp_path, table_budget=1 << 14,
                         progress=lambda p: opened.append(len(os.listdir("/proc/self/fd"))))
    assert got.count == 3318960
    assert max(opened) - min(opened) <= 8


def test_8x8_open_with_a_spill_folder_is_refused_for_its_disk_or_its_hours_not_begun(tmp_path, monkeypatch):
    # Some 8 billion states a half: a few hundred GiB of disk, and hours even at the in-memory rate.
    usage = collections.namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda _: usage(2**40, 0, 2**36))
    with pytest.raises(InvalidArgument, match=r"8e\+09 states on disk .* more than the 64.0 GiB free"):
        count_tours(Board(8, 8), spill_dir=tmp_path, time_limit=5)  # not handed to backtracking instead
    monkeypatch.setattr(shutil, "disk_usage", lambda _: usage(2**50, 0, 2**50))
    with pytest.raises(InvalidArgument, match=r"about \d+ hours here; give a time limit"):
        count_tours(Board(8, 8), spill_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_threads_writing_layers_at_once_each_get_their_own_files(tmp_path):
    # Every thread of a sweep flushes its tables at once: two writes must never share a file.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        with Layers(tmp_path) as layers, ThreadPoolExecutor(4) as pool:
            def write(t):
                return [(t, i, layers.write([np.full(i + 1, t, np.uint64)])[0][0]) for i in range(300)]
            written = [x for chunk in pool.map(write, range(4)) for x in chunk]
            assert len({s.path for _, _, s in written}) == len(written)
            assert all(np.array_equal(s.load(), np.full(i + 1, t, np.uint64)) for t, i, s in written)
            assert layers.bytes == sum(8 * (i + 1) for _, i, _ in written)
    finally:
        sys.setswitchinterval(interval)


def test_a_strip_family_with_its_layers_on_disk(tmp_path):
    got = count_strip(5, range(5, 15), closed=True, spill_dir=tmp_path)
    assert dict(got.counts)[14] == 1495135512514 and got.extra["peak_disk_mb"] > 0
    assert list(tmp_path.iterdir()) == []


def test_the_layers_are_removed_when_the_time_limit_stops_the_sweep(tmp_path):
    with pytest.raises(LimitReached):
        frontier_count(Board(7, 8), KNIGHT, True, deadline=time.perf_counter() + 0.5, spill_dir=tmp_path,
                       table_budget=1 << 20)
    assert list(tmp_path.iterdir()) == []


def test_a_count_too_large_for_memory_names_the_disk_a_spill_folder_would_need(tmp_path):
    with pytest.raises(InvalidArgument, match=r"with a spill folder \(--spill-dir\) they would take about .* of disk"):
        frontier_count(Board(8, 8), KNIGHT, closed=False, memory_limit=1 << 30)


def test_layers_left_by_a_killed_count_are_removed_by_the_next(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from chesstours.frontier.disk import FOLDER_PREFIX, Layers

    # A count killed with SIGKILL cannot clean up: its folder stays until the next count in that folder.
    code = ("import sys; from chesstours import count_tours; "
            f"count_tours('6x8', method='frontier', spill_dir={str(tmp_path)!r}, time_limit=600)")
    child = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 120
    mine = f"{FOLDER_PREFIX}{child.pid}-"
    while not any(p.name.startswith(mine) and any(p.iterdir()) for p in tmp_path.iterdir()):
        assert time.monotonic() < deadline and child.poll() is None, "the count never wrote a layer"
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert any(p.name.startswith(mine) for p in tmp_path.iterdir())
    alive = tmp_path / f"{FOLDER_PREFIX}{os.getpid()}-kept"  # no lock file (being made, or older): kept
    alive.mkdir()
    with Layers(tmp_path) as layers:
        assert not any(p.name.startswith(mine) for p in tmp_path.iterdir())
        assert alive.exists() and os.path.isdir(layers.dir)
    assert sorted(p.name for p in tmp_path.iterdir()) == [alive.name]


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_folder_of_layers_stays_while_its_lock_is_held_whatever_pid_its_name_says(tmp_path):
    import subprocess

    from chesstours.frontier.disk import FOLDER_PREFIX, LOCK_NAME, Layers

    # another PID namespace's count: a pid that is no process here, its lock held by a process that lives
    elsewhere = tmp_path / f"{FOLDER_PREFIX}4194304-other"
    elsewhere.mkdir()
    (elsewhere / LOCK_NAME).touch()
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time\n"
                               f"f = open({str(elsewhere / LOCK_NAME)!r})\nfcntl.flock(f, fcntl.LOCK_EX)\n"
                               "print('held', flush=True)\ntime.sleep(120)\n"], stdout=subprocess.PIPE, text=True)
    # a count gone: a pid that lives (this process's), its lock free
    gone = tmp_path / f"{FOLDER_PREFIX}{os.getpid()}-gone"
    gone.mkdir()
    (gone / LOCK_NAME).touch()
    try:
        assert holder.stdout.readline() == "held\n"
        with Layers(tmp_path) as first, Layers(tmp_path) as second:  # a count of this process: held too
            assert elsewhere.is_dir() and not gone.exists()
            assert os.path.isdir(first.dir) and os.path.isdir(second.dir)
        holder.kill()
        holder.wait()
        with Layers(tmp_path):
            assert not elsewhere.exists()
    finally:
        holder.kill()
        holder.wait()
    assert list(tmp_path.iterdir()) == []


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 17), st.integers(0, 2), st.data())
def test_a_state_and_its_mirror_image_fold_to_one_key_the_kernel_and_python_agree_on(n, ends, data):
    from chesstours.frontier import kernel as fk
    from chesstours.frontier import plain as fp
    from chesstours.frontier.layout import ENDED, FREE, FULL

    # a random frontier: some pairs of slots end one fragment each, the rest free, ended or full
    order = data.draw(st.permutations(range(n)))
    labels = data.draw(st.integers(0, min(8, n // 2)))
    work = np.array([data.draw(st.sampled_from([FREE, ENDED, FULL])) for _ in range(n)], np.int64)
    for k in range(labels):
        work[order[2 * k]] = work[order[2 * k + 1]] = k + 1
    # a reflection: an involution of the slots
    swaps = data.draw(st.permutations(range(n)))
    image = list(range(n))
    for k in range(data.draw(st.integers(0, n // 2))):
        a, b = swaps[2 * k], swaps[2 * k + 1]
        image[a], image[b] = b, a
    keep = np.arange(n, dtype=np.int64)
    mirror = np.array(image, np.int64)
    sides = np.concatenate([keep, mirror])
    reflected = work[mirror]  # the image state's codes
    key = fk.fold(work, sides, n, ends)
    assert key in (fk.pack(work, keep, ends), fk.pack(work, mirror, ends))
    assert fk.fold(reflected, sides, n, ends) == key
    kept = fp._keep(work.astype(np.uint8)[None, :], keep, mirror)
    row = np.concatenate([kept[:, ::-1], [[ends]]], axis=1).astype(np.uint8)
    assert fp._gather(row, np.ones(1, np.uint64)).keys.tolist() == [key]


def test_a_line_is_paired_with_its_image_where_the_mirror_maps_it_onto_itself():
    from chesstours.frontier.plan import paired

    image = {i: 5 - i for i in range(6)}
    assert paired([[0, 2, 4, 1, 3, 5]], image) == [[4, 1, 2, 3, 0, 5]]  # each square just before its image
    assert paired([[0, 2, 4]], image) == [[0, 2, 4]]  # not mapped onto itself: as it was
    odd = {i: 6 - i for i in range(7)}
    assert paired([[0, 2, 4, 6, 1, 3, 5]], odd) == [[0, 2, 4, 6, 1, 3, 5]]  # a square its own image: as it was
    # a paired order as narrow as the greedy one, and fewer states: 6x8 open
    board = Board(6, 8)
    folded = best_plan(board, KNIGHT, closed=False)
    greedy_lines = frontier_plan.line_orders(board, KNIGHT)["greedy"]
    assert folded.order == [v for line in paired(greedy_lines, mirror_map(board)) for v in line]
    assert folded.max_slots == 12
