"""The words every layer shares: how a search ended, and how times and sizes are written.

A search reports how it ended with a :class:`Status`; estimates and limits are
written for people by :func:`format_duration` and :func:`format_bytes`, so that
the library, the command line and the web page say "about 3 hours" the same way.

Examples
--------
>>> Status.FOUND == "found", Status("exhausted").proves_none
(True, True)
>>> format_duration(0.4), format_duration(95), format_duration(3 * 3600), format_duration(5e9)
('under a second', '2 minutes', '3 hours', '158 years')
>>> format_duration(1e140)
'3.2e+132 years'
>>> format_bytes(512), format_bytes(3 * 2**30), format_bytes(2e18)
('512 bytes', '3.0 GiB', '2e+09 GiB')
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Status", "format_duration", "about_duration", "format_seconds", "format_bytes"]


class Status(str, Enum):
    """How a search ended. A ``str`` enum that prints, compares and serialises as its word:
    ``Status.FOUND == "found"``."""

    #: A tour (or route) was found.
    FOUND = "found"
    #: The whole search space was searched and nothing (more) is there: a proof of absence.
    EXHAUSTED = "exhausted"
    #: The search used its budget of positions for this call and can be resumed.
    BUDGET = "budget"
    #: The time limit ran out first.
    TIME = "time"
    #: The node limit ran out first.
    NODES = "nodes"
    #: The search space was too large to search completely: a search that found nothing proves nothing.
    INCOMPLETE = "incomplete"

    @property
    def proves_none(self) -> bool:
        """True when this ending proves that there is nothing (more) to find."""
        return self is Status.EXHAUSTED

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return repr(self.value)


_UNITS = (("year", 365.25 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


def format_duration(seconds: float) -> str:
    """A rough human duration: the largest whole unit, rounded (``"3 hours"``, ``"under a second"``)."""
    if not seconds >= 1:
        return "under a second"
    for unit, size in _UNITS:
        if seconds >= size:
            if seconds / size >= 1e6:
                return f"{seconds / size:.1e} {unit}s"
            n = round(seconds / size)
            return f"{n:,} {unit}{'' if n == 1 else 's'}"
    raise AssertionError("unreachable")  # pragma: no cover


def about_duration(seconds: float) -> str:
    """:func:`format_duration` after "about", which "under a second" does not take: ``"about 3 hours"``,
    ``"under a second"``."""
    text = format_duration(seconds)
    return text if text == "under a second" else f"about {text}"


def format_seconds(seconds: float) -> str:
    """A duration to set against another: two figures of seconds below ten (``"0.74 s"``, ``"3.1 s"``), else
    :func:`format_duration` (two estimates "under a second" cannot be told apart)."""
    return f"{seconds:.2g} s" if seconds < 10 else format_duration(seconds)


def format_bytes(nbytes: float) -> str:
    """Bytes for a person: ``"512 bytes"``, ``"2.3 KiB"``, ``"12.5 MiB"``, ``"3.0 GiB"`` (past a million GiB, in
    powers of ten)."""
    if nbytes < 1024:
        return f"{nbytes:.0f} bytes"
    if nbytes < 2**20:
        return f"{nbytes / 2**10:,.1f} KiB"
    if nbytes < 2**30:
        return f"{nbytes / 2**20:,.1f} MiB"
    gib = nbytes / 2**30
    return f"{gib:,.1f} GiB" if gib < 1e6 else f"{gib:.0e} GiB"
