"""The count policy against the predicate a count asks before it plans."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chesstours import policy
from chesstours.board import Board
from chesstours.errors import InvalidArgument
from chesstours.pieces import KNIGHT, Leaper
from chesstours.policy import counting

PIECES = [KNIGHT, Leaper(1, 3), Leaper(0, 1), Leaper(1, 1)]


@st.composite
def counts(draw):
    rows = draw(st.integers(1, 8))
    cols = draw(st.sampled_from([1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 30, 58, 70]))
    holes = draw(st.sets(st.integers(0, rows * cols - 1), max_size=2)) if rows * cols > 3 else set()
    board = Board(rows, cols, frozenset(holes))
    free = [v for v in range(rows * cols) if v not in holes]
    start = draw(st.sampled_from([None, free[0], free[-1]]))
    return (board, draw(st.sampled_from(PIECES)), start, None, draw(st.booleans()),
            draw(st.sampled_from(policy.COUNT_METHODS)), draw(st.sampled_from([None, "/nowhere"])), draw(st.booleans()))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts())
def test_a_count_searches_after_an_estimate_exactly_where_the_predicate_says(query):
    # with every estimate quick, each plan that estimates its search chooses it: so the plans that estimate and
    # choose backtracking are the ones the count compiles the search kernel for, before planning; on an empty
    # compile cache too (``cold``: an allowance in Python, no search kernel in the cache), where the frontier
    # method takes its small counts without an estimate
    from chesstours.runtime import PlainAllowance

    board, piece, start, end, closed, method, spill, cold = query
    plain = PlainAllowance(50_000) if cold else None
    estimated = []

    def quick(board, *args, **kwargs):
        estimated.append(board)
        if board.free_count > policy.MAX_BACKTRACK_COUNT_SQUARES:
            return math.inf, math.inf, 0  # as the real estimate: no probes above the limit
        return 1e3, 1e-3, 1

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(counting, "estimate_backtracking", quick)
        patch.setattr(counting, "in_cache_folder", lambda source, kernel: not cold)
        try:
            plan = policy.plan_count(board, piece, start, end, closed, method, spill_dir=spill, plain=plain)
        except InvalidArgument:  # a spill folder with backtracking
            assert method == "backtrack" and spill is not None
            return
        # the allowance the plan takes by default (as the count passes it): the board's own
        allowance = plain if plain is not None else policy.plain_allowance(board, counting=True)
        predicted = policy.searches_after_estimate(board, piece, start, end, closed, method, spill, allowance)
    searched = bool(estimated) and plan.method == "backtrack" and plan.refusal is None
    assert predicted == searched


def test_auto_weighs_the_frontier_methods_compiling_where_its_kernels_are_not_in_the_cache(monkeypatch):
    from chesstours.frontier import plain as frontier_plain
    from chesstours.runtime import PlainAllowance, in_cache_folder

    def plan(name, holes, compiled):
        monkeypatch.setattr(frontier_plain, "sweep_kernels_cached", lambda: compiled)
        return policy.plan_count(Board.parse(name, holes), KNIGHT, plain=PlainAllowance(50_000))

    # 6x6 without b1: backtracking estimated at 0.8 s, the sweep forecast at 2.3 s (0.34 s run) once compiled;
    # on an empty cache some 8 s more to compile the sweep's kernels against 3 s for the search's (on one core:
    # on two the count runs in Python with a half beside, the next tests)
    monkeypatch.setattr(counting, "forks", lambda processes: False)
    monkeypatch.setattr(counting, "in_cache_folder", lambda source, kernel: True)  # the search kernel cached
    warm, cold = plan("6x6", "b1", True), plan("6x6", "b1", False)
    monkeypatch.setattr(counting, "in_cache_folder", in_cache_folder)
    assert warm.method == "frontier"
    assert cold.method == "backtrack" and cold.why.endswith(f"and {policy.FRONTIER_COLD_SECONDS:g} s more to "
                                                            "compile its kernels first")
    # 6x7: backtracking far out of reach, the frontier method even with its kernels to compile
    assert plan("6x7", "", False).method == "frontier"
    # 6x7 closed with the search kernel in the cache, not the sweep's: the frontier method (a forecast of 260
    # thousand states) would run in plain Python, some 0.3 s (weighed at 0.52), and never wait for its kernels;
    # weighed so, not as 5 s of compiling, it wins against a search estimated at 1 s, not against one at 0.4 s
    monkeypatch.setattr(frontier_plain, "sweep_kernels_cached", lambda: False)
    monkeypatch.setattr(counting, "in_cache_folder", lambda source, kernel: True)
    monkeypatch.setattr(frontier_plain, "PLAIN_ONLY_EXTENDED", 0)  # (else it runs in Python at once: 364 thousand)
    monkeypatch.setattr(counting, "forks", lambda processes: False)  # one core: no half beside either
    for estimate, method in ((1.0, "frontier"), (0.4, "backtrack")):
        monkeypatch.setattr(counting, "estimate_backtracking", lambda *args, e=estimate, **kwargs: (1e8, e, 2))
        weighed = policy.plan_count(Board(6, 7), KNIGHT, closed=True, plain=PlainAllowance(50_000))
        assert weighed.method == method and "more in plain Python" in weighed.why
    monkeypatch.undo()
    # a process that has loaded the search kernel (no allowance) plans as with a full cache
    monkeypatch.setattr(frontier_plain, "sweep_kernels_cached", lambda: False)
    monkeypatch.setattr(counting, "plain_allowance", lambda board, counting=False: None)
    assert policy.plan_count(Board.parse("6x6", "b1"), KNIGHT).method == "frontier"


def test_on_an_empty_cache_auto_counts_by_the_frontier_in_python_where_backtracking_would_wait_for_its_kernel(
        monkeypatch):
    from chesstours.frontier import plain as frontier_plain
    from chesstours.runtime import PlainAllowance

    def plan(name, cached, closed=False, loaded=False):
        monkeypatch.setattr(counting, "in_cache_folder", lambda source, kernel: cached)
        monkeypatch.setattr(frontier_plain, "compiled_below", lambda *args: loaded)  # the frontier's kernels loaded
        return policy.plan_count(Board.parse(name), KNIGHT, closed=closed, plain=PlainAllowance(50_000))

    # 5x7: some 8 million positions by backtracking, a frontier forecast of 170 thousand states: counted by the
    # frontier method without an estimate
    estimated = []
    monkeypatch.setattr(counting, "estimate_backtracking", lambda *args, **kwargs: estimated.append(args) or (
        1e7, 10.0, 1))
    cold = plan("5x7", False)
    assert cold.method == "frontier" and "not compiled yet" in cold.why and cold.states <= 1_000_000
    assert not estimated
    monkeypatch.undo()
    # with the search kernel in the cache: the frontier method still, which runs wholly in Python (some 300
    # thousand states in all), where the estimate's probes would load numba
    warm = plan("5x7", True)
    assert warm.method == "frontier" and "runs wholly in plain Python" in warm.why
    assert plan("5x7", True, loaded=True).method == "backtrack"  # a process that has loaded the frontier's kernels
    monkeypatch.setattr(frontier_plain, "PLAIN_ONLY_EXTENDED", 0)
    monkeypatch.setattr(counting, "forks", lambda processes: False)  # one core: no half beside either
    assert plan("5x7", True).method == "backtrack"
    # 6x6: the frontier's forecast (2.7 million states) would compile its kernels too, on one core (on two, a half
    # runs in a second process and the count in Python: the next test)
    assert plan("6x6", False).method == "backtrack"
    # 6x6 closed: some 700 thousand positions (1.2 s in Python), a frontier forecast of 260 thousand states
    assert plan("6x6", False, closed=True).method == "frontier" and plan("6x6", True, closed=True).method == "backtrack"
    monkeypatch.undo()
    assert plan("6x6", True, closed=True).method == "frontier"  # 91 thousand states forecast in all: in Python
    # 5x6 closed: 4,724 positions, within Python's allowance
    assert plan("5x6", False, closed=True).method == "backtrack"
    # a process that has loaded the kernel (no allowance) backtracks
    monkeypatch.setattr(counting, "in_cache_folder", lambda source, kernel: False)
    monkeypatch.setattr(counting, "plain_allowance", lambda board, counting=False: None)
    assert policy.plan_count(Board(5, 7), KNIGHT).method == "backtrack"


def test_on_an_empty_cache_auto_counts_a_count_that_does_not_fold_by_the_frontier_in_python_at_once(monkeypatch):
    from chesstours.frontier import plain as frontier_plain
    from chesstours.runtime import PlainAllowance

    estimated = []

    def plan(name, holes="", start=None, cached=False):
        monkeypatch.setattr(counting, "in_cache_folder", lambda source, kernel: cached)
        monkeypatch.setattr(counting, "estimate_backtracking", lambda *args, **kwargs: estimated.append(args) or (
            8.8e6, 0.18, 2))  # as 6x6 from a1, on two cores
        board = Board.parse(name, holes.split(",") if holes else ())
        start = None if start is None else board.square(start)
        return policy.plan_count(board, KNIGHT, start, plain=PlainAllowance(50_000))

    # 6x6 from a1 (0.86 million states extended, 8.8 million positions by backtracking) and without c3 or b1: the
    # same forecast as every start, 2.7 million states, but nothing folds, and the search kernel is not compiled
    monkeypatch.setattr(frontier_plain, "_plain_only_states", 0)
    monkeypatch.setattr(frontier_plain, "compiled_below", lambda *args: False)
    for holes, start in (("", "a1"), ("", "c3"), ("c3", None), ("b1", None)):
        for two in (False, True):
            monkeypatch.setattr(counting, "forks", lambda processes, two=two: two and processes >= 2)
            cold = plan("6x6", holes, start)
            assert cold.method == "frontier" and "does not fold" in cold.why, (holes, start)
            assert not estimated
            # with the search kernel in the cache: on one core, estimated, and backtracking; on two, the
            # frontier method in Python with a half beside, without the probes, which would load numba
            warm = plan("6x6", holes, start, cached=True)
            if two:
                assert warm.method == "frontier" and "does not fold" in warm.why and not estimated, (holes, start)
            else:
                assert warm.method == "backtrack" and estimated, (holes, start)
            estimated.clear()
    # every start, folded (1.43 million states): on one core, backtracking, its kernel compiling beside the probes;
    # on two, the frontier method in plain Python, a half and half the join in a second process
    monkeypatch.setattr(counting, "forks", lambda processes: False)
    assert plan("6x6").method == "backtrack" and estimated
    estimated.clear()
    monkeypatch.setattr(counting, "forks", lambda processes: processes >= 2)
    beside = plan("6x6")
    assert beside.method == "frontier" and "second process" in beside.why and not estimated
    # the search kernel compiled: estimated, and searched (eight symmetries folded, against the frontier's mirror)
    assert plan("6x6", cached=True).method == "backtrack" and estimated
    estimated.clear()
    # 5x9 and 6x8 closed (forecasts within a million states): the search kernel compiled or not, the frontier
    # method in Python with a half beside, without the probes, which would load numba
    for name, closed in (("5x9", False), ("6x8", True)):
        for cached in (False, True):
            monkeypatch.setattr(counting, "in_cache_folder", lambda source, kernel, cached=cached: cached)
            plan_ = policy.plan_count(Board.parse(name), KNIGHT, closed=closed, plain=PlainAllowance(50_000))
            assert plan_.method == "frontier" and not estimated, (name, cached)
            assert not cached or "second process" in plan_.why  # (on an empty cache a smaller forecast decides)
    # 6x7 from a1: forecast to extend more than the frontier method takes in Python; estimated first
    plan("6x7", start="a1")
    assert estimated


def test_the_policy_package_shows_every_public_name_of_its_modules_as_one_namespace():
    import ast
    import inspect

    from chesstours.policy import choices, plans

    for module in (choices, plans, counting):
        tree = ast.parse(inspect.getsource(module))
        own = [target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
               for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
               if isinstance(target, ast.Name)]
        own += [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
        missing = [name for name in own if not name.startswith("_") and getattr(policy, name, None) is not
                   getattr(module, name)]
        assert not missing, (module.__name__, missing)
