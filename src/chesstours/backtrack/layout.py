"""What the backtracking kernel shares with Python: its move orders, status codes and registers.

Kept apart from :mod:`chesstours.backtrack.kernel` so that reading them does
not load numba (a few tenths of a second): the kernel and its wrapper
:class:`~chesstours.backtrack.search.Search` both import them from here.
"""

from __future__ import annotations

from typing import Literal, get_args

from ..status import Status

__all__ = ["Order", "ORDERS", "CODE_FOUND", "CODE_EXHAUSTED", "CODE_BUDGET", "STATUS_OF_CODE",
           "REG_DEPTH", "REG_BASE", "REG_NODES", "REG_COUNT", "REG_PENDING", "REG_FREE", "REGISTERS"]

#: Move orders, numbered as the kernel numbers them: the leaper's fixed order, or Warnsdorff's
#: (fewest onward moves first, ties in the fixed order).
Order = Literal["fixed", "warnsdorff"]
ORDERS: tuple[Order, ...] = get_args(Order)

#: The kernel's status codes, and the :class:`~chesstours.status.Status` each one means.
CODE_FOUND, CODE_EXHAUSTED, CODE_BUDGET = 0, 1, 2
STATUS_OF_CODE = (Status.FOUND, Status.EXHAUSTED, Status.BUDGET)

#: The ``regs`` int64 array shared with the kernel: depth of the path, depth of the fixed prefix,
#: nodes visited, tours counted, a tour waiting to be stepped back from, and free squares.
REG_DEPTH, REG_BASE, REG_NODES, REG_COUNT, REG_PENDING, REG_FREE = range(6)
REGISTERS = 6
