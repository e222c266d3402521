"""Random and hostile calls of the public api: every one returns, or raises a ChessToursError naming what is
wrong in a sentence; nothing else escapes (no TypeError, KeyError, OverflowError, RecursionError...)."""

from __future__ import annotations

import random

import numpy as np

import chesstours as ct

#: Calls made, each drawn from the same seed every run.
CASES = 10_000
SEED = 20261204

BOARDS = ["3x4", "4x5", "5x5", "1x1", "2x3", "8", (3, 4), 5, ct.Board(4, 4), ct.Board(3, 4, "a1"), "0x4",
          "-3x4", "99999999999x2", "3x", "x", "", None, 3.5, (4,), (1, 2, 3), [4, 4], True, "4x4x4", "٣x٤",
          "10" * 40, object(), np.int64(4), ("3", "4")]
SQUARES = [None, "a1", "b2", "c3", 0, 5, -1, 10**30, "z99", "", "a0", True, 2.5, np.int32(3), "a1a1", [0], "A1"]
PIECES = ["knight", "zebra", "1,2", "0,1", "1,1", "(2,3)", "99999999999999999999,1", "-1,2", "", "x", None, (1, 2),
          (0, 0), (1.5, 2), 7, ct.KNIGHT, "wazir", "ferz"]
HOLES = [(), "a1", "a1,b2", ["c3"], [0, 1], "zz9", [10**20], "a1,,b2", np.array([0, 1]), 5, None]
LIMITS = [0.01, 0, -1, float("nan"), "1", True, -0.0, 1j, 10**400]
METHODS = ["auto", "backtrack", "warnsdorff", "construct", "frontier", "theory", "", "guess", None, 3]


#: Values a call mostly takes, so that most calls get past the checks and run (briefly: LIMITS).
GOOD_BOARDS, GOOD_PIECES, GOOD_SQUARES = ["3x4", "4x5", "5x5", "2x3", "1x1", (3, 4)], ["knight", "zebra"], [None, "a1"]


def _pick(rng: random.Random, good: list, hostile: list):
    return rng.choice(good) if rng.random() < 0.5 else rng.choice(hostile)


def _call(rng: random.Random):
    board, piece = _pick(rng, GOOD_BOARDS, BOARDS), _pick(rng, GOOD_PIECES, PIECES)
    holes = _pick(rng, [()], HOLES)
    start, end = _pick(rng, GOOD_SQUARES, SQUARES), _pick(rng, [None], SQUARES)
    closed, limit = rng.random() < 0.3, _pick(rng, [0.02], LIMITS)
    kind = rng.randrange(9)
    if kind == 0:
        return ct.find_tour(board, start, end, closed, piece, rng.choice(METHODS), holes=holes, time_limit=limit)
    if kind == 1:
        return list(zip(range(3), ct.iter_tours(board, start, end, closed, piece, holes=holes, time_limit=limit)))
    if kind == 2:
        return ct.count_tours(board, start, end, closed, piece, rng.choice(METHODS), holes=holes, time_limit=limit)
    if kind == 3:
        return ct.tour_exists(board, start, end, closed, piece, holes=holes, time_limit=limit)
    if kind == 4:
        return ct.complete_tour(board, rng.choice([["a1", "b3"], ["a1"], [], ["a1", "a1"], "a1 c2", [0, 7], None]),
                                end, closed, piece, time_limit=limit)
    if kind == 5:
        return ct.solve_bishop(board, rng.choice(["a1", "b1", None, "zz"]), rng.choice(["opposite", "any", "h8", 3]),
                               time_limit=limit)
    if kind == 6:
        return ct.Tour.from_dict(rng.choice([{}, {"board": board, "path": [0, 1]}, {"board": "3x4", "path": "a1"},
                                             {"board": {"rows": 3}, "path": []}, [], None,
                                             {"board": "3x4", "path": [[0]]}, {"board": "3x4", "path": [1e9]}]))
    if kind == 7:
        return ct.Tour.parse(rng.choice(["a1 c2", "{", "[]", "3 | 1 2\n2 | 3 4\n1 | 5 6", "1 | x", "", "a1 - c2",
                                         '{"board": "3x4", "path": ["a1"]}\n{"board"', "9" * 5000]),
                             board=rng.choice([None, "3x4", "x"]), piece=rng.choice([None, "knight", "q"]))
    return list(zip(range(rng.choice([1, 5, 50])), ct.trace_search(board, start, end, closed, piece,
                                                                     rng.choice(["backtrack", "warnsdorff", "x"]))))


def test_random_and_hostile_library_calls_raise_only_its_own_errors():
    rng = random.Random(SEED)
    escaped = []
    for number in range(CASES):
        try:
            _call(rng)
        except ct.ChessToursError as exc:
            if not str(exc) or "\n" in str(exc):
                escaped.append(f"case {number}: a message not one sentence: {str(exc)[:200]!r}")
        except Exception as exc:  # noqa: BLE001 - anything else is a finding
            escaped.append(f"case {number}: {type(exc).__name__}: {str(exc)[:200]}")
    assert not escaped, f"{len(escaped)} of {CASES} calls:\n" + "\n".join(escaped[:30])
