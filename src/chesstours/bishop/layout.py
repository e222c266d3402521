"""What the bishop search's kernel shares with Python: its status codes and registers.

Kept apart from :mod:`chesstours.bishop.kernel` so that reading them does not
load numba: the kernel, its plain-Python twin :mod:`chesstours.bishop.plain`
and their wrapper :class:`~chesstours.bishop.search.BishopSearch` all import
them from here.
"""

from __future__ import annotations

from ..status import Status

__all__ = ["CODE_FOUND", "CODE_EXHAUSTED", "CODE_BUDGET", "FOUND", "EXHAUSTED", "BUDGET", "STATUS_NAMES",
           "REG_DEPTH", "REG_NODES", "REG_COUNT", "REG_PENDING", "REG_COVERED", "REG_TARGET", "REG_MAX_SLIDES",
           "REG_MINIMIZE", "REG_FLOOR", "REG_BEST_LEN", "REGISTERS", "UNBOUNDED"]

CODE_FOUND, CODE_EXHAUSTED, CODE_BUDGET = 0, 1, 2
FOUND, EXHAUSTED, BUDGET = Status.FOUND, Status.EXHAUSTED, Status.BUDGET
STATUS_NAMES = (FOUND, EXHAUSTED, BUDGET)

#: Layout of the ``regs`` int64 register array shared with the kernel.
REG_DEPTH, REG_NODES, REG_COUNT, REG_PENDING, REG_COVERED, REG_TARGET, REG_MAX_SLIDES, REG_MINIMIZE, REG_FLOOR, \
    REG_BEST_LEN = range(10)
REGISTERS = 10

#: No bound on the number of slides.
UNBOUNDED = 1 << 30
