"""What this machine offers a job: its cores and the memory a job may plan to use.

The one place where a thread count left unsaid becomes a number, and where the
memory a job may plan to use is measured; :mod:`chesstours.policy` builds its
plans on it, and the algorithm families fall back on it when a caller gives no count.

>>> worker_count(3), worker_count() >= 1
(3, True)
>>> memory_limit() > 0
True
"""

from __future__ import annotations

import os

from ..reading import positive_count
from ..settings import MEMORY_SHARE

#: How a number of workers is named where it is refused: its option, and what it counts.
WORKERS = ("-j/--workers", "threads (workers=)")

__all__ = ["cores", "worker_count", "memory_limit", "MEMORY_SHARE"]


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count(workers: int | None = None) -> int:
    """Threads (or processes) for a job: ``workers`` when given, else one a core.

    :raises InvalidArgument: if ``workers`` is below one.
    """
    if workers is None:
        return cores()
    positive_count(workers, *WORKERS)
    return workers


def memory_limit() -> int:
    """Bytes a job may plan to use: :data:`MEMORY_SHARE` of this machine's memory."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        total = 8 << 30
    return int(MEMORY_SHARE * total)
