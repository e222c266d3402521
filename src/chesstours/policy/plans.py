"""The plans of :mod:`chesstours.policy`: what a query will do, why, and what it is estimated to cost; how a tour
is looked for (:func:`plan_find`). Counts are planned in :mod:`chesstours.policy.counting`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..arguments import query_json
from ..backtrack import Order
from ..board import Board
from ..construct import can_construct
from ..existence.reasons import obstruction
from ..pieces import KNIGHT, Leaper
from ..units import format_bytes, format_duration
from ..warnsdorff.rule import Tiebreak
from .choices import (
    CONSTRUCT_ABOVE,
    DEFAULT_TIEBREAK,
    FIND_ORDER,
    RANDOM_WALKS,
    check_find,
    walk_schedule,
)

__all__ = ["Plan", "plan_find"]

#: Rough speeds of this machine, for estimates only.
_CONSTRUCT_SQUARES_PER_SECOND = 3e7
_CONSTRUCT_BYTES_PER_SQUARE = 10.0
_WALK_SQUARES_PER_SECOND = 3e7
_WALK_BYTES_PER_SQUARE = 6.0

# -- plans ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What a query will do: the method, why, the fallbacks, and what it is estimated to cost.

    ``method`` is what runs first (``"theory"`` when the theory answers at
    once); ``steps`` what ``auto`` falls back on, in order. The estimates are
    rough (good to an order of magnitude) and None where nothing sensible can
    be said. ``refusal`` is the sentence that refuses the query, or None.
    """

    question: Literal["find", "count"]
    board: Board
    piece: Leaper
    closed: bool
    start: int | None
    end: int | None
    method: str
    why: str
    steps: tuple[str, ...] = ()
    states: float | None = None
    memory_bytes: float | None = None
    seconds: float | None = None
    threads: int = 1
    refusal: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (``--plan --json``)."""
        return {
            "question": self.question,
            **query_json(self.board, self.piece, self.closed, self.start, self.end),
            "method": self.method,
            "why": self.why,
            "steps": list(self.steps),
            "states": None if self.states is None else float(self.states),
            "memory_bytes": None if self.memory_bytes is None else float(self.memory_bytes),
            "seconds": None if self.seconds is None else float(self.seconds),
            "threads": self.threads,
            "refused": self.refusal,
            **self.extra,
        }

    def lines(self) -> list[str]:
        """The plan as the command line prints it."""
        kind = ("closed " if self.closed else "") + ("tour" if self.question == "count" else "a tour")
        kind = kind.replace("closed a tour", "a closed tour") + ("s" if self.question == "count" else "")
        where = "".join(f" {role} {self.board.name(v)}" for role, v in (("from", self.start), ("to", self.end))
                        if v is not None)
        out = [f"question:  {self.question} {kind} of {self.board}, {self.piece.name}{where}",
               f"method:    {self.method}", f"why:       {self.why}"]
        if self.steps:
            out.append(f"then:      {'; '.join(self.steps)}")
        estimate = []
        if self.states is not None:
            estimate.append(f"about {self.states:.1e} {self.extra.get('units', 'positions')}")
        if self.memory_bytes is not None:
            estimate.append(format_bytes(self.memory_bytes))
        if self.seconds is not None:
            estimate.append(f"{format_duration(self.seconds)} on {self.threads} thread{'s' * (self.threads != 1)}")
        if estimate:
            out.append(f"estimate:  {', '.join(estimate)}")
        if "caveat" in self.extra:
            out.append(f"caveat:    {self.extra['caveat']}")
        tasks = self.extra.get("tasks")
        if tasks and "split_on" in self.extra:
            out.append(f"parts:     {len(tasks):,} (conditioned on {' '.join(self.extra['split_on'])}), "
                       f"{self.extra['cpu_hours']:.3g} CPU-hours in all; each about {tasks[0]['states']:.1e} states, "
                       f"{format_bytes(tasks[0]['memory_bytes'])}, {format_duration(tasks[0]['seconds'])} against "
                       f"{self.extra['whole_states']:.1e} states, {format_bytes(self.extra['whole_memory_bytes'])} "
                       "for the whole count (--json lists every part)")
        elif tasks:
            biggest = max(tasks, key=lambda task: task["states"])
            out.append(f"tasks:     {len(tasks):,}, {self.extra['cpu_hours']:.3g} CPU-hours in all; the largest, "
                       f"{' '.join(biggest['prefix'])} ..., about {biggest['states']:.1e} positions, "
                       f"{format_bytes(biggest['memory_bytes'])}, {format_duration(biggest['seconds'])} "
                       "(--json lists every task)")
        if self.refusal:
            out.append(f"refused:   {self.refusal}")
        return out


def plan_find(board: Board, piece: Leaper = KNIGHT, start: int | None = None, end: int | None = None,
              closed: bool = False, method: str = "auto", *, tiebreak: Tiebreak | None = None,
              order: Order = FIND_ORDER) -> Plan:
    """How :func:`~chesstours.find_tour` will look for this tour.

    ``auto`` is complete: the theory first (an instant "no" with its reason);
    a knight on a whole board of more than :data:`CONSTRUCT_ABOVE` squares
    is built by the construction; otherwise the walks of
    :func:`walk_schedule`, then the construction where it applies, then
    backtracking, which finds a tour whenever one exists. Without a start
    square, open tours are looked for from :func:`default_start`, then from
    one square of each symmetry class (:func:`starts_to_try`).
    """
    check_find(method, tiebreak, order)
    query = Plan("find", board, piece, closed, start, end, method="", why="")
    n = board.free_count
    walk = replace(query, seconds=n / _WALK_SQUARES_PER_SECOND, memory_bytes=n * _WALK_BYTES_PER_SQUARE)
    build = replace(query, seconds=n / _CONSTRUCT_SQUARES_PER_SECOND, memory_bytes=n * _CONSTRUCT_BYTES_PER_SQUARE)
    no_start = start is None and end is None and not closed
    starts = " (from a1 or the first free square, then from one square of each symmetry class)" if no_start else ""
    if method == "warnsdorff":
        rule = tiebreak or DEFAULT_TIEBREAK
        return replace(walk, method="warnsdorff",
                    why=f"one walk of Warnsdorff's rule with the {rule} tie-break{starts}: linear time, but it may "
                        "reach a dead end")
    if method == "construct":
        refusal = None if can_construct(board, piece) else \
            "The construction builds knight's tours of whole boards only (no holes, no other leaper)."
        return replace(build, method="construct", refusal=refusal,
                    why=f"the divide-and-conquer construction (Parberry 1997; Lin & Wei 2005){starts}: linear time")
    if method == "backtrack":
        return replace(query, method="backtrack",
                    why=f"exhaustive backtracking in {order} move order{starts}: complete, but its time can grow "
                        "exponentially with the board")
    reason = obstruction(board, piece, start, end, closed)
    if reason is not None:
        return replace(query, method="theory", why=reason.reason, seconds=0.0)
    fixed = [rule for rule, _ in walk_schedule(tiebreak) if rule != "random"]
    walks = f"{', '.join(fixed)}, then {RANDOM_WALKS} with random ties"
    if can_construct(board, piece) and n > CONSTRUCT_ABOVE:
        return replace(build, method="construct",
                    steps=(("rotations to the end square, then " if end is not None else "")
                           + "Warnsdorff's walks and backtracking if the construction cannot reach the query",),
                    why=f"a knight on a whole board of {n:,} squares (more than {CONSTRUCT_ABOVE:,}): the "
                        "divide-and-conquer construction builds a tour in linear time")
    steps = ["the construction"] if can_construct(board, piece) else []
    steps.append(f"backtracking in {order} move order, which finds a tour whenever one exists")
    return replace(walk, method="warnsdorff", steps=tuple(steps),
                why=f"Warnsdorff's rule first, fast where it works: walks with the tie-breaks {walks}{starts}")
