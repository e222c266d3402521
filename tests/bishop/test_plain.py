"""The bishop search in plain Python (every small board's first steps) against the compiled kernel."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chesstours as ct
from chesstours.bishop.search import BishopSearch
from chesstours.board import Board
from chesstours.runtime import PlainAllowance, engine

_ARRAYS = ("flags", "visits", "stack_square", "stack_next", "stack_dir", "stack_set_source", "stack_slides",
           "stack_last", "best", "regs")


def _same_state(a: BishopSearch, b: BishopSearch) -> bool:
    return all(np.array_equal(getattr(a, name), getattr(b, name)) for name in _ARRAYS)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.booleans(), st.sampled_from([None, 6, 9]), st.booleans(),
       st.sampled_from([1, 5, 64, 1 << 30]), st.data())
def test_the_python_twin_leaves_the_kernels_arrays_after_every_call(rows, cols, minimize, slides, any_end, budget,
                                                                     data):
    holes = data.draw(st.sets(st.integers(1, rows * cols - 1), max_size=2))
    board = Board(rows, cols, holes)
    end = -1 if any_end else data.draw(st.sampled_from([v for v in board.free_squares.tolist()
                                                          if board.colour(v) == board.colour(0)]))
    kwargs = {"minimize": minimize} if minimize else {"max_slides": slides}
    a = BishopSearch(board, 0, end, plain=PlainAllowance(1 << 40), **kwargs)
    b = BishopSearch(board, 0, end, **kwargs)
    assert a.done == b.done and _same_state(a, b)
    for _ in range(300):
        status_a, status_b = a.run(budget, stop_at_route=True), b.run(budget, stop_at_route=True)
        assert status_a == status_b and _same_state(a, b)
        if status_a == "exhausted":
            break
    assert a.lines_needed() == b.lines_needed()


def test_a_search_goes_on_in_the_kernel_where_python_left_it():
    board = Board(8, 8)
    allowance = PlainAllowance(5000)
    mixed, kernel = BishopSearch(board, 0, 63, plain=allowance), BishopSearch(board, 0, 63)
    mixed.run(), kernel.run()
    assert allowance.positions == 0
    assert (mixed.count, mixed.nodes) == (kernel.count, kernel.nodes) == (70, kernel.nodes)


def test_routes_counted_and_found_in_python_are_the_kernels(monkeypatch):
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: False)  # as in a fresh process
    monkeypatch.setattr(engine, "PLAIN_SEARCH_POSITIONS", 10**12)
    count = ct.count_bishop_routes("8x8")
    shortest = ct.solve_bishop("8x8", shortest=True)
    listed = [r.steps.tolist() for r in ct.iter_bishop_routes("6x8")]
    monkeypatch.setattr(engine, "PLAIN_SEARCH_POSITIONS", 0)
    assert count.count == ct.count_bishop_routes("8x8").count == 70
    assert shortest.steps.tolist() == ct.solve_bishop("8x8", shortest=True).steps.tolist()
    assert shortest.slide_count == 17  # Dudeney's "Episcopal Visitation"
    assert listed == [r.steps.tolist() for r in ct.iter_bishop_routes("6x8")] and len(listed) == 8


@pytest.mark.parametrize("board", ["5x5", "6x6", "4x9", "5x7"])
def test_small_boards_count_alike_in_python_and_compiled(monkeypatch, board):
    monkeypatch.setattr(engine, "kernels_loaded", lambda module: False)  # as in a fresh process
    python = ct.count_bishop_routes(board, end="any")
    monkeypatch.setattr(engine, "PLAIN_SEARCH_POSITIONS", 0)
    assert python.count == ct.count_bishop_routes(board, end="any").count
