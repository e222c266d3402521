"""How a search ended: a tour found, the space exhausted (a proof of absence), or a budget or limit reached.

>>> Status.FOUND == "found", Status("exhausted").proves_none
(True, True)
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Status"]


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
