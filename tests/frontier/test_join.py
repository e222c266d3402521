"""Meet in the middle: where the halves are cut, how they are joined, and that they count what one sweep counts."""

from __future__ import annotations

import collections
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chesstours import Board
from chesstours.errors import InvalidArgument
from chesstours.frontier import run as frontier_run
from chesstours.frontier.join import count_by_halves, plan_halves
from chesstours.frontier.join import halves as frontier_join
from chesstours.frontier.plan import line_orders, neighbours
from chesstours.frontier.sweep import choose_halves, frontier_count
from chesstours.pieces import KNIGHT, ZEBRA, Leaper


@pytest.mark.parametrize("in_python", [False, True])
def test_progress_of_a_meet_in_the_middle_goes_through_both_halves_then_the_join(in_python):
    # the kernels report the join part by part; a join in plain Python reports it whole
    seen = []
    board = Board(6, 6)
    allowance = frontier_run.FrontierAllowance(None) if in_python else None
    got = count_by_halves(board, KNIGHT, True, choose_halves(board, KNIGHT, True), threads=2, progress=seen.append,
                          allowance=allowance)
    assert got.count == 9862 and bool(got.plain_states) == in_python
    phases = [p.phase for p in seen]
    assert phases[0] == "left half" and phases[-1] == "join" and "right half" in phases
    assert phases.index("right half") < phases.index("join")
    assert seen[-1].step == seen[-1].steps  # every part of the larger half joined


@pytest.mark.parametrize(("rows", "cols"), [(3, 5), (4, 5), (5, 5), (3, 7), (4, 6), (5, 6)])
def test_every_cut_of_a_meet_in_the_middle_counts_what_one_sweep_counts(rows, cols):
    board = Board(rows, cols)
    for closed in (False, True):
        want = frontier_count(board, KNIGHT, closed, halves=False).count
        for split in range(1, board.size):
            try:
                halves = plan_halves(board, KNIGHT, closed, split)
            except ValueError:  # every square of the first part on the middle frontier
                continue
            got = count_by_halves(board, KNIGHT, closed, halves, threads=1).count
            assert got == want, (board, closed, split)


@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (5, 6), (6, 6), (5, 8)])
def test_meet_in_the_middle_counts_tours_between_given_squares_as_one_sweep_does(rows, cols):
    board = Board(rows, cols)
    squares = [0, cols - 1, board.size // 2, cols + 2]
    cases = [(False, None, None), (True, None, None)] + [(False, s, None) for s in squares]
    cases += [(False, s, e) for s in squares for e in squares if s != e]
    cases += [(True, s, e) for s in squares[:2] for e in range(board.size) if e != s]
    nbrs = neighbours(board, KNIGHT)
    for closed, s, e in cases:
        halves = frontier_count(board, KNIGHT, closed, s, e, halves=True)
        if not closed or s is None or e in nbrs[s]:  # else no tour uses the edge s-e: nothing to sweep
            assert halves.how == "meet in the middle"
        assert halves.count == frontier_count(board, KNIGHT, closed, s, e, halves=False).count, (closed, s, e)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(5, 6), st.integers(5, 7), st.sampled_from([KNIGHT, ZEBRA, Leaper(1, 1), Leaper(0, 1)]),
       st.booleans(), st.data())
def test_meet_in_the_middle_agrees_with_one_sweep_on_boards_with_holes(rows, cols, piece, closed, data):
    holes = data.draw(st.sets(st.integers(0, rows * cols - 1), max_size=5))
    board = Board(rows, cols, holes)
    if choose_halves(board, piece, closed) is None or board.free_count < 2:
        return
    try:
        one = frontier_count(board, piece, closed, halves=False).count
    except InvalidArgument:  # a frontier too wide for one sweep
        return
    assert frontier_count(board, piece, closed, halves=True).count == one


@pytest.mark.parametrize(("board", "closed", "start"), [(Board(6, 6), False, None), (Board(6, 7), True, None),
                                                       (Board(6, 6), False, 0), (Board(5, 8), False, 4)])
def test_a_join_in_passes_over_groups_of_degree_classes_counts_what_one_pass_counts(board, closed, start):
    halves = choose_halves(board, KNIGHT, closed, start)
    budget = 2 - (start is not None)
    one = count_by_halves(board, KNIGHT, closed, halves, budget=budget, threads=2)
    # an index budget of 100 kB: the smaller half is indexed and joined a group at a time
    several = count_by_halves(board, KNIGHT, closed, halves, budget=budget, threads=2, index_budget=100_000)
    assert one.join_passes == 1 and several.join_passes > 3
    assert several.count == one.count and several.pairs == one.pairs


@given(st.lists(st.integers(0, 2**34 - 1), min_size=1, max_size=8),
       st.lists(st.tuples(st.integers(0, 7), st.integers(0, 2**64 - 1), st.integers(1, 2**64 - 1)), max_size=300),
       st.integers(1, 5))
@settings(max_examples=60, deadline=None)
def test_the_index_of_a_half_read_in_parts_holds_one_run_a_degree_key(keys, entries, nparts):
    from chesstours.frontier.join import kernel as jk

    # a few degree keys, many states each, as a half has; the states in parts, as its threads read them
    states = [(keys[k % len(keys)], mates, count) for k, mates, count in entries]
    read = [tuple(np.array([s[i] for s in states[p::nparts]], np.uint64) for i in range(3)) for p in range(nparts)]
    want, mates, counts, table = jk.index_parts(read, 16)
    assert read == [None] * nparts  # each part freed once written
    assert sorted(zip(want.tolist(), mates.tolist(), counts.tolist(), strict=True)) == sorted(states)
    for k in {s[0] for s in states}:
        first = jk.find_run(table, np.uint64(k))
        run = [i for i, w in enumerate(want.tolist()) if w == k]
        assert run == list(range(first, first + len(run)))  # one run, found where it starts
    assert jk.find_run(table, np.uint64(2**35)) == -1


def test_the_halves_of_8x8_meet_on_a_frontier_of_16_squares():
    halves = choose_halves(Board(8, 8), KNIGHT, closed=True)
    # cut a pair of squares before the end of the fifth line, where the left half folds its mirror pairs
    assert halves.split == 38 and len(halves.middle) == 16 and halves.max_slots == 16
    assert halves.left.steps[-1].mirror.size and halves.right.steps[-1].mirror.size
    assert set(halves.left.final) == set(halves.right.final) == set(halves.middle)
    # the right half adds the divided line whole, its squares of the middle frontier first: added before them,
    # its own two squares would hold 18 squares on its frontier
    fifth = set(line_orders(Board(8, 8), KNIGHT)["greedy"][4])
    own = [v for v in halves.right.order if v in fifth and v not in halves.middle]
    theirs = [v for v in halves.right.order if v in fifth and v in halves.middle]
    assert len(own) == 2 and len(theirs) == 6
    assert max(map(halves.right.order.index, theirs)) < min(map(halves.right.order.index, own))


def test_lines_of_six_are_cut_at_their_end():
    for board, closed in ((Board(6, 8), False), (Board(6, 6), False), (Board(6, 7), True)):
        lines = line_orders(board, KNIGHT)["greedy"]
        halves = choose_halves(board, KNIGHT, closed)
        assert halves.split == sum(map(len, lines[:(len(lines) + KNIGHT.b) // 2]))


def test_a_cut_inside_a_line_of_eight_counts_what_one_sweep_counts():
    # the early cut of a line of eight, with a leaper that makes the count quick: the rook's single step, whose
    # closed tours of 8x8 are the 4,638,576 Hamiltonian cycles of the 8x8 grid (OEIS A003763)
    board, wazir = Board(8, 8), Leaper(0, 1)
    lines = line_orders(board, wazir)["greedy"]
    for closed in (True, False):
        halves = choose_halves(board, wazir, closed)
        assert halves.split == sum(map(len, lines[:(len(lines) + wazir.b) // 2])) - 2
        got = count_by_halves(board, wazir, closed, halves, threads=1).count
        assert got == frontier_count(board, wazir, closed, halves=False).count
        if closed:
            assert got == 4_638_576


def _final_states(board, closed, sweep, middle, hand):
    """A half's final states on the middle frontier, each mirror pair whole: ``{(degree key, mates): count}``."""
    from chesstours.frontier.join import kernel as jk

    run = frontier_run.run_sweep(sweep.steps, sweep.max_slots, closed, 2, threads=2, finish=False,
                                 keep_states=True)
    if hand is not None:
        with ThreadPoolExecutor(2) as pool:
            frontier_join._read_handed(run.states, hand.slots, pool)
    out: collections.Counter = collections.Counter()
    for keys, counts, *_ in run.states:
        keys, counts = frontier_join._unfold(keys, counts, len(middle), frontier_join._images(sweep))
        want, mates, cnt = jk.read_half(keys, counts, len(middle), frontier_join._perm(sweep, middle), 0)
        for w, m, c in zip(want.tolist(), mates.tolist(), cnt.tolist()):
            out[w, m] += c
    return out


@pytest.mark.parametrize(("board", "mirror"), [(Board(6, 6), True), (Board(6, 6), False), (Board(6, 7), True),
                                               (Board(6, 10), True), (Board(6, 7), False)])
def test_a_half_stopped_before_its_hand_overs_reads_as_the_half_run_to_its_end(board, mirror):
    halves = choose_halves(board, KNIGHT, closed=True, mirror=mirror)
    hand = halves.right.hand_over
    assert hand is not None and hand.steps == len(halves.right.steps) - 2
    stopped = frontier_join._before_hand_over(halves.right)
    assert len(stopped.steps) == hand.steps and sorted(stopped.final) == sorted(halves.middle)
    whole = _final_states(board, True, halves.right, halves.middle, None)
    assert _final_states(board, True, stopped, halves.middle, hand) == whole
    # read without the hand-over, the same states would be others
    assert _final_states(board, True, stopped, halves.middle, replace(hand, slots=hand.slots[:0])) != whole


def test_the_right_half_of_8x8_closed_ends_on_four_hand_overs():
    halves = choose_halves(Board(8, 8), KNIGHT, closed=True)
    assert halves.left.hand_over is None
    hand, steps = halves.right.hand_over, halves.right.steps
    assert hand is not None and hand.steps == len(steps) - 4
    for step in steps[hand.steps:]:  # no edge, or the edge to the square handing over: nothing else
        assert step.choice_a.size == 2 and step.departs.size == 1 and step.hands >= 0
        assert step.square in halves.middle and step.hands not in halves.middle
    heirs = {step.hands: step.square for step in steps[hand.steps:]}
    assert [hand.final[i] for i in hand.slots] == sorted(heirs.values(), key=hand.final.index)
    assert sorted(hand.final) == sorted(halves.middle)
    # open tours hand nothing over: a square with one edge may end the tour instead
    assert choose_halves(Board(8, 8), KNIGHT, closed=False).right.hand_over is None
