"""Shared fixtures: the brute-force oracle of :mod:`tests.oracle`, cached per board."""

from __future__ import annotations

import pytest

from chesstours.board import Board
from chesstours.pieces import KNIGHT, Leaper

from .oracle import brute_force_counts


@pytest.fixture(scope="session")
def brute():
    cache: dict = {}

    def get(board: Board, piece: Leaper = KNIGHT) -> dict:
        key = (board, piece)
        if key not in cache:
            cache[key] = brute_force_counts(board, piece)
        return cache[key]

    return get
