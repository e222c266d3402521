"""Shared fixtures: the brute-force oracle of :mod:`tests.oracle`, cached per board; a folder of the tests' own
for the sampling tables."""

from __future__ import annotations

import os

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


@pytest.fixture(scope="session", autouse=True)
def tables_cache(tmp_path_factory):
    """The sampling tables the tests build are kept in a folder of the tests', not in the user's cache."""
    folder = tmp_path_factory.mktemp("tables")
    before = os.environ.get("CHESSTOURS_TABLES_DIR")
    os.environ["CHESSTOURS_TABLES_DIR"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("CHESSTOURS_TABLES_DIR", None)
    else:
        os.environ["CHESSTOURS_TABLES_DIR"] = before
