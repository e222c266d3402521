"""Jobs for the lanes under test: functions of a module, so that they pickle and run in the slow lane's worker
processes as in the quick lane's threads. Each answers with the process it ran in."""

from __future__ import annotations

import os
import time

import chesstours as ct

#: The budgets that :func:`outgrows_short_budgets` was called with in this process (the quick lane's threads).
BUDGETS: list[float] = []


def outgrows_short_budgets(seconds: float) -> tuple[int, float]:
    """A search that needs a second: past a shorter budget it runs out of time. Its process and its budget."""
    BUDGETS.append(seconds)
    if seconds < 1:
        time.sleep(min(seconds, 0.2))
        raise ct.LimitReached("out of time")
    return os.getpid(), seconds


def process_id() -> int:
    return os.getpid()


def no_tour(seconds: float) -> None:
    raise ct.NoTour("No tour here.", proof="colour", nodes=7)
