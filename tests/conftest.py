"""Shared fixtures: the brute-force oracle of :mod:`tests.oracle`, cached per board; each test counts as a fresh
process would."""

from __future__ import annotations

import pytest

from chesstours.board import Board
from chesstours.pieces import KNIGHT, Leaper

from .oracle import brute_force_counts


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch):
    """Each test starts as a process that has counted nothing in plain Python: past a million states a process
    loads the kernels for its later counts (:data:`chesstours.frontier.plain.PLAIN_ONLY_PROCESS`), so the counts
    of the tests before one would otherwise choose how it counts."""
    from chesstours.frontier import plain

    monkeypatch.setattr(plain, "_plain_only_states", 0)


@pytest.fixture(scope="session")
def brute():
    cache: dict = {}

    def get(board: Board, piece: Leaper = KNIGHT) -> dict:
        key = (board, piece)
        if key not in cache:
            cache[key] = brute_force_counts(board, piece)
        return cache[key]

    return get
