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
    # with every estimate quick, each plan that estimates its search chooses it; and the plan is the same whether
    # its probes start in plain Python (an allowance) or not
    from chesstours.runtime import PlainAllowance

    board, piece, start, end, closed, method, spill, in_python = query
    estimated = []

    def quick(board, *args, **kwargs):
        estimated.append(board)
        if board.free_count > policy.MAX_BACKTRACK_COUNT_SQUARES:
            return math.inf, math.inf, 0  # as the real estimate: no probes above the limit
        return 1e3, 1e-3, 1

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(counting, "estimate_backtracking", quick)
        try:
            plan = policy.plan_count(board, piece, start, end, closed, method, spill_dir=spill,
                                     plain=PlainAllowance(50_000) if in_python else None)
        except InvalidArgument:  # a spill folder with backtracking
            assert method == "backtrack" and spill is not None
            return
        predicted = policy.searches_after_estimate(board, piece, start, end, closed, method, spill)
        other = policy.plan_count(board, piece, start, end, closed, method, spill_dir=spill,
                                  plain=None if in_python else PlainAllowance(50_000))
    searched = bool(estimated) and plan.method == "backtrack" and plan.refusal is None
    assert predicted == searched
    assert (plan.method, plan.states, plan.refusal) == (other.method, other.states, other.refusal)


COLD_BOARDS = [["5x5"], ["6x6"], ["4x9"], ["5x7"], ["6x6", "--closed"], ["6x6", "--start", "a1"],
               ["6x6", "--holes", "c3"], ["5x9"], ["6x7", "--closed"]]


@pytest.mark.slow
def test_a_plan_is_the_same_on_an_empty_and_a_filled_compile_cache(tmp_path):
    """A plan is a function of the query and the machine: what the compile cache holds changes nothing."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def chesstours(*args):
        out = subprocess.run([sys.executable, "-m", "chesstours", *args], env=env, capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout

    def plan(board):
        shown = json.loads(chesstours("count", *board, "--plan", "--json"))
        return {k: shown.get(k) for k in ("method", "states", "memory_bytes", "refused", "why")}

    empty = [plan(board) for board in COLD_BOARDS]
    for board in COLD_BOARDS:
        chesstours("count", *board, "--no-progress")  # compiles, and fills the cache with, what each count runs
    assert [plan(board) for board in COLD_BOARDS] == empty


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
