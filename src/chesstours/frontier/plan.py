"""Plans of frontier sweeps: the order of the squares and, for each, its slots and edge choices.

A sweep adds the squares of a board one at a time. When square ``v`` is
added, the edges from ``v`` to the squares already added are decided; a
square leaves the frontier (*departs*) when its last neighbour has been
added. :func:`plan` works out, once per sweep, everything the compiled step
(:func:`chesstours.frontier.kernel.expand`) needs at each square:
which slots the new square's neighbours sit in, which edge sets to try, which
slots depart and which squares must take an edge now.

A plan may cover only part of the graph, for meet in the middle
(:mod:`chesstours.frontier.join`): it then adds only some squares,
decides only some edges, and *keeps* some squares on the frontier to the
end, however many of their edges are decided elsewhere (``external``).

The order of the squares is line by line across the narrow side of the
board. Within a line the order matters: the frontier grows by one square
for each square added and shrinks by those that depart. :func:`line_orders`
offers the plain order, even places before odd ones, and a greedy order that
adds next the square letting the most squares depart; the greedy order keeps
a knight's frontier at ``2w`` squares for width ``w`` (the plain one reaches
``2w + 1``) and halves the states of some sweeps (6x7 closed: 265 thousand
at most, against 589 thousand with evens first).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from ..board import Board
from ..colours import ANYWHERE, EndRule, end_rule
from ..errors import InvalidArgument, LimitReached
from ..pieces import Leaper, move_table
from .layout import CAP, MAX_SLOTS

__all__ = ["Step", "Sweep", "HandOver", "Fixed", "FrontierTooWide", "PLANNED_SLOTS", "edges_given", "plan", "line_orders", "best_plan", "greedy", "paired",
           "neighbours", "mirror_map", "mirrored", "symmetric"]


#: Most squares a plan's frontier may hold: a step's masks (``choice_mask``, ``free_need``) give each slot, and
#: the new square, a bit of a signed 64-bit word. A state holds far fewer (:data:`~.layout.MAX_SLOTS`), so a
#: sweep this wide is refused whatever the plan.
PLANNED_SLOTS = 62


class FrontierTooWide(InvalidArgument):
    """A sweep whose frontier passes :data:`PLANNED_SLOTS` squares: it cannot even be planned.

    ``slots`` is how many the frontier had reached when planning stopped (more than :data:`PLANNED_SLOTS`).
    """

    def __init__(self, slots: int):
        super().__init__(f"The frontier method's states hold at most {MAX_SLOTS} squares of the frontier, and "
                         f"this board's frontier holds more than {PLANNED_SLOTS}; count a narrower board.")
        self.slots = slots


@dataclass
class Step:
    """What the compiled step needs to add one square (see ``frontier_kernel.expand``)."""

    square: int
    nprev: int
    choice_a: np.ndarray
    choice_b: np.ndarray
    one_end: np.ndarray
    departs: np.ndarray
    keep: np.ndarray
    single: np.ndarray
    choice_mask: np.ndarray
    free_need: int
    label_need: int
    #: Where the step leaves the problem symmetric under the board's mirror (see :func:`mirror_map`): for each
    #: kept slot, the work slot of its square's mirror image; the step keeps one of a state and its image
    #: (:func:`chesstours.frontier.kernel.fold`). Empty where it does not.
    mirror: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    #: Where an open tour's two ends must differ in colour (:class:`~chesstours.colours.EndRule`): each work slot's colour as
    #: +1 (dark) or -1 (light), and twice the dark squares less the light ones among the squares added so
    #: far; a state that makes its second end there is kept only if the two ends differ. Empty where not.
    signs: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    balance2: int = 0
    #: Where the step only *hands over*: the square (else -1) whose code passes to the new square, which is kept
    #: and joined to it alone, as it departs with its last neighbour (see :class:`HandOver`).
    hands: int = -1


@dataclass
class HandOver:
    """The last steps of a half of a meet in the middle that only hand codes over, and what runs instead.

    In a cycle, a kept square ``v`` whose one edge in this half goes to a
    square ``u`` that departs as ``v`` is added takes that edge exactly when
    ``u`` has one edge so far: each state makes one state, ``u``'s code on
    ``v``'s slot, ``FULL`` turned ``FREE`` (``u`` with no edge was dropped
    earlier: it had one neighbour to come and needed two). The right half of
    8x8 closed ends on four such steps, 13.1 million states each. A half may
    stop before them and read its states so (:mod:`chesstours.frontier.join`):
    every slot in the slot order of the last step run, each handed square
    read as its heir, ``FULL`` read as ``FREE`` on the ``slots`` handed over.
    """

    #: The steps run; those after them hand over.
    steps: int
    #: The squares of the frontier after those steps, in slot order, each handed square replaced by its heir.
    final: list[int]
    #: The slots of ``final`` whose square was handed over.
    slots: np.ndarray


@dataclass
class Sweep:
    """A planned sweep: its squares in order, a step each, and what they cost."""

    order: list[int]
    steps: list[Step]
    max_slots: int
    #: Steps after which a line of the board is complete (strip counts read the states there).
    line_ends: list[int] = field(default_factory=list)
    #: The squares on the frontier after the last step, in slot order (the kept squares of a half).
    final: list[int] = field(default_factory=list)
    #: The last steps that only hand codes over (a half of a cycle count), if any.
    hand_over: HandOver | None = None

    @property
    def slot_sum(self) -> int:
        """Frontier squares summed over the steps: a tie-break between plans of the same width."""
        return sum(len(s.keep) for s in self.steps)


#: Squares whose tour edges may go only to some of their neighbours: ``{square: those neighbours}``
#: (the conditioned squares of a split count, :mod:`chesstours.frontier.split`).
Fixed = Mapping[int, Sequence[int]]


def neighbours(board: Board, piece: Leaper, fixed: Fixed | None = None,
               deadline: float | None = None) -> dict[int, list[int]]:
    """The free neighbours of every free square; with ``fixed``, the graph without the edges it rules out.
    ``deadline``: as for :func:`in_time`."""
    table = move_table(board, piece)
    holes = board.holes
    nbrs: dict[int, list[int]] = {}
    for first in range(0, board.size, 1 << 16):
        in_time(deadline)
        rows = table[first:first + (1 << 16)].tolist()
        nbrs.update((v, [u for u in row if u >= 0]) for v, row in enumerate(rows, first) if v not in holes)
    for v, allowed in (fixed or {}).items():
        for u in set(nbrs[v]) - set(allowed):
            nbrs[u].remove(v)
        nbrs[v] = [u for u in nbrs[v] if u in allowed]
    return nbrs


def _lines(board: Board) -> list[list[int]]:
    """Lines across the narrow side, in sweep order; each line's free squares in order."""
    along_cols = board.rows <= board.cols
    n_lines, width = (board.cols, board.rows) if along_cols else (board.rows, board.cols)
    out = []
    for i in range(n_lines):
        line = [board.index(p, i) if along_cols else board.index(i, p) for p in range(width)]
        out.append([v for v in line if v not in board.holes])
    return out


def mirror_map(board: Board) -> dict[int, int] | None:
    """The board's reflection that maps each line of the sweep onto itself, square by square; None with holes it moves.

    A leaper's moves are symmetric, so where the squares added so far are
    the reflection of themselves, the partial tours are too: a state and its
    image complete in the same number of ways, and a sweep may keep only one
    of the two, with the counts of both (see :func:`plan`).
    """
    if not _keeps_holes(board):
        return None
    return {v: _image(board, v) for v in range(board.size)}


def _image(board: Board, v: int) -> int:
    r, c = board.row(v), board.col(v)
    return board.index(board.rows - 1 - r, c) if board.rows <= board.cols else board.index(r, board.cols - 1 - c)


def _keeps_holes(board: Board) -> bool:
    return all(_image(board, h) in board.holes for h in board.holes)


def symmetric(board: Board, start: int | None = None, end: int | None = None, fixed: Fixed | None = None,
              classes: Mapping[int, int] | None = None) -> bool:
    """Whether a count is symmetric under the reflection of :func:`mirror_map`.

    It is where no end is given, no edge fixed, no class taken, and the
    reflection maps the board's holes onto holes.
    """
    return start is None and end is None and not fixed and not classes and _keeps_holes(board)


def mirrored(board: Board, start: int | None = None, end: int | None = None, fixed: Fixed | None = None,
             classes: Mapping[int, int] | None = None, rule: EndRule = ANYWHERE) -> dict[int, int] | None:
    """The reflection a sweep of this count may fold its states by (:func:`mirror_map`), or None where it is not symmetric.

    The squares ``rule`` rules out as ends are symmetric wherever the rest is
    (a reflection keeps the colours of an odd width, and only a board with an
    odd number of free squares rules any out); it is checked all the same. A
    reflection that swaps the colours keeps the rule that the ends differ.
    """
    if not symmetric(board, start, end, fixed, classes):
        return None
    image = mirror_map(board)
    return image if image is not None and all(image[v] in rule.through for v in rule.through) else None


def in_time(deadline: float | None) -> None:
    """Raise :class:`~chesstours.errors.LimitReached` past ``deadline`` (a :func:`time.perf_counter` time):
    planning a strip of many thousand squares takes seconds of its own."""
    if deadline is not None and time.perf_counter() > deadline:
        raise LimitReached("Stopped at the time limit while planning the sweep.")


def _departures(v: int, nbrs: dict[int, list[int]], frontier: set[int], waiting: dict[int, int]) -> int:
    """Squares that would leave the frontier were ``v`` added next (``v`` itself among them)."""
    gone = sum(1 for u in nbrs[v] if u in frontier and waiting[u] == 1)
    return gone + (1 if waiting[v] == 0 else 0)


def greedy(lines: list[list[int]], nbrs: dict[int, list[int]], kept=frozenset(),
           deadline: float | None = None) -> list[list[int]]:
    """Each line reordered so that the next square lets the most squares of the frontier depart.

    ``nbrs`` are the neighbours by the edges of the sweep; ``kept`` squares never depart; ``deadline`` as for
    :func:`in_time`.
    """
    added: set[int] = set()
    frontier: set[int] = set()
    waiting = {v: len(nbrs[v]) + (1 << 30 if v in kept else 0) for line in lines for v in line}
    out = []
    for line in lines:
        in_time(deadline)
        rest, new = list(line), []
        while rest:
            # the first of the best: ties keep the line's order
            v = max(rest, key=partial(_departures, nbrs=nbrs, frontier=frontier, waiting=waiting))
            rest.remove(v)
            new.append(v)
            added.add(v)
            for u in nbrs[v]:
                if u in waiting:
                    waiting[u] -= 1
            frontier = {u for u in frontier | {v} if waiting[u] > 0}
        out.append(new)
    return out


def paired(lines: list[list[int]], image: Mapping[int, int]) -> list[list[int]]:
    """Each line reordered so that each square is added just before its mirror image, the pairs in the order
    the line completed them. A line that the mirror does not map onto itself stays as it is, and so does a line
    with a square that is its own image (an odd line: its greedy order, even squares first, folds after them
    already, and pairing its squares makes more states).

    The squares added so far are then their own image after every pair, not
    only at the end of the line, and the sweep folds its states there too
    (:func:`plan`'s ``mirror``): on 6x8 open, each line's greedy order 0 2 4 1 3 5
    becomes 4 1 2 3 0 5, which extends about a tenth fewer states and holds fewer at
    the widest step, with the same frontier of 12 squares.
    """
    out = []
    for line in lines:
        pos = {v: i for i, v in enumerate(line)}
        if any(image[v] not in pos or image[v] == v for v in line):
            out.append(list(line))
            continue
        out.append(sorted(line, key=lambda v: (max(pos[v], pos[image[v]]), pos[v])))
    return out


def line_orders(board: Board, piece: Leaper, deadline: float | None = None,
                nbrs: dict[int, list[int]] | None = None) -> dict[str, list[list[int]]]:
    """The candidate orders of the squares: ``{name: lines}``; ``nbrs``: the board's :func:`neighbours`, where
    the caller has them."""
    lines = _lines(board)
    evens = [line[0::2] + line[1::2] for line in lines]
    if nbrs is None:
        nbrs = neighbours(board, piece, deadline=deadline)
    return {"greedy": greedy(evens, nbrs, deadline=deadline), "evens": evens, "plain": lines}


def edges_given(a: int, b: int) -> int:
    """The edges the choice ``(a, b)`` of a step gives its new square, a cap counting as one (``-1``: none)."""
    return int(a != -1) + int(b != -1)


def plan(nbrs: dict[int, list[int]], order: list[int], *, closed: bool, start: int | None = None,
         end: int | None = None, kept: frozenset[int] | set[int] = frozenset(),
         external: dict[int, int] | None = None, line_ends: list[int] | None = None,
         caps: frozenset[int] | set[int] = frozenset(), degrees: Mapping[int, int] | None = None,
         mirror: Mapping[int, int] | None = None, rule: EndRule = ANYWHERE,
         deadline: float | None = None) -> Sweep:
    """The steps of a sweep adding ``order`` one square at a time.

    ``nbrs[v]`` are the squares joined to ``v`` by the edges this sweep
    decides (its edges to squares outside ``order`` are ignored); ``kept``
    squares never depart, and ``external[v]`` counts edges of ``v`` decided
    elsewhere, which count as neighbours still to come. A square of ``caps``
    may be *capped* as it is added (an open tour ends there; see
    ``frontier_kernel.CAP``), and a fixed end among them must be.

    ``degrees[v]``: the edges this sweep must give ``v``, a cap counting as
    one (a class of a split count, :mod:`chesstours.frontier.split`). They
    are all decided as ``v`` is added, so ``v`` may have no neighbour later
    in the order.

    ``rule`` (:func:`~chesstours.colours.end_rule`): the squares an open tour must pass through,
    with two edges, are neither capped nor left with one edge, and a state
    that leaves one of them short of two edges is dropped; where the two ends
    must differ in colour, a state whose second end has the first one's
    colour is dropped (``Step.signs``).

    ``mirror``: a reflection of the squares (:func:`mirror_map`) under which
    the whole problem is symmetric: its graph, kept squares, external edges,
    caps and ``rule``, with no fixed end and no degrees. After each step whose squares
    so far are their own image, the sweep keeps a state or its image
    (:func:`chesstours.frontier.kernel.fold` says which), with the counts of both (``Step.mirror``).
    This is exact: the partial tours so far are symmetric, and a state and
    its image have the same completions, reflected; a state that completes
    has lost no partial tour to pruning, so it and its image were reached
    equally often. About half the states are then kept.

    ``deadline``: as for :func:`in_time`.
    """
    external = external or {}
    degrees = degrees or {}
    pos = {v: t for t, v in enumerate(order)}
    back = {v: [u for u in nbrs[v] if u in pos and pos[u] < pos[v]] for v in order}
    ahead = {v: sum(1 for u in nbrs[v] if u in pos and pos[u] > pos[v]) for v in order}
    never = len(order)
    last = {v: never if v in kept else max([pos[v]] + [pos[u] for u in nbrs[v] if u in pos]) for v in order}
    in_time(deadline)
    ends = set() if closed else {x for x in (start, end) if x is not None}
    forced = (start, end) if closed and start is not None and end is not None else None
    for v in degrees:
        if v not in pos or ahead[v]:
            raise ValueError(f"the edges of square {v} are not all decided as it is added")
    through, colours = rule.through, rule.colours
    need = {v: 2 if closed or v in through else 1 for v in order}
    balance = 0  # dark squares added less light ones
    frontier: list[int] = []
    steps, widest = [], 0
    to_come = {v: ahead[v] + external.get(v, 0) for v in order}  # neighbours still to come, as v is added
    added: set[int] = set()
    unmatched = 0  # squares added whose image is not
    fronts: list[list[int]] = []  # the frontier before each step
    for t, v in enumerate(order):
        if t % 1024 == 0:
            in_time(deadline)
        fronts.append(frontier)
        combined = frontier + [v]
        if len(combined) > PLANNED_SLOTS:
            raise FrontierTooWide(len(combined))
        slot = {u: i for i, u in enumerate(combined)}
        for u in back[v]:
            to_come[u] -= 1
        if colours is not None:
            balance += 1 - 2 * colours[v]
        mine = [slot[u] for u in back[v]]
        choices = [(-1, -1)] + [(a, -1) for a in mine]
        if v not in ends:
            choices += [(a, b) for i, a in enumerate(mine) for b in mine[i + 1:]]
        if v in caps and not closed and v not in through:
            capping = [(CAP, -1)] + [(a, CAP) for a in mine]
            choices = capping if v in ends else choices + capping
        if forced is not None and v in forced:
            other = forced[1] if v == forced[0] else forced[0]
            if other in back[v]:  # this sweep decides the edge start-end: take it
                choices = [c for c in choices if slot[other] in c]
        if v in degrees:
            choices = [c for c in choices if edges_given(*c) == degrees[v]]
        elif v in through:  # the edges it can take now and later make two
            choices = [c for c in choices if edges_given(*c) + to_come[v] >= 2]
        departs = [i for i, u in enumerate(combined) if last[u] == t]
        kept_now = [u for u in combined if last[u] != t]
        # Slots that must take an edge from v now: a square with no edge that
        # leaves, or that has too few neighbours to come (only v and its earlier
        # neighbours lost one this step, so no other square is stranded now); in a
        # cycle (or on a square a tour passes through), also a square with one edge
        # that leaves.
        free_need = sum(1 << i for i, u in enumerate(combined)
                        if i in departs or ((u == v or i in mine) and to_come[u] < need[u]))
        label_need = sum(1 << i for i in departs if need[combined[i]] == 2)
        steps.append(Step(
            square=v,
            nprev=len(frontier),
            choice_a=np.array([c[0] for c in choices], np.int64),
            choice_b=np.array([c[1] for c in choices], np.int64),
            one_end=np.array([u in ends for u in combined], np.bool_),
            departs=np.array(departs, np.int64),
            keep=np.array([slot[u] for u in kept_now], np.int64),
            choice_mask=np.array([0 if a == -1 else (1 << len(frontier)) | (1 << a if a >= 0 else 0)
                                  | (1 << b if b >= 0 else 0) for a, b in choices], np.int64),
            free_need=free_need,
            label_need=label_need,
            single=np.array([slot[u] for u in kept_now if u not in ends and u not in through and to_come[u] == 1],
                            np.int64),
            signs=np.array([1 - 2 * colours[u] for u in combined] if colours is not None else [], np.int64),
            balance2=2 * balance,
        ))
        if (closed and forced is None and v in kept and v not in degrees and len(back[v]) == 1 and not ahead[v]
                and departs == [slot[back[v][0]]] and to_come[v] >= 2):
            steps[-1].hands = back[v][0]  # it takes u's edge iff u has one: see HandOver
        if mirror is not None:
            added.add(v)
            unmatched += 0 if mirror[v] == v else (-1 if mirror[v] in added else 1)
            image = [slot.get(mirror[u], -1) for u in kept_now]
            if unmatched == 0 and image != [slot[u] for u in kept_now] and sorted(image) == sorted(steps[-1].keep):
                steps[-1].mirror = np.array(image, np.int64)
        frontier = kept_now
        widest = max(widest, len(kept_now))
    sweep = Sweep(list(order), steps, widest, list(line_ends or []), list(frontier))
    sweep.hand_over = _hand_over(steps, fronts, mirror)
    return sweep


def _hand_over(steps: list[Step], fronts: list[list[int]], mirror: Mapping[int, int] | None) -> HandOver | None:
    """The longest run of last steps that only hand over and may be left out (see :class:`HandOver`), if any.

    ``fronts[t]``: the squares on the frontier before step ``t``. Where the
    sweep folds its last states (keeps one of each mirror pair), the last
    step run must fold too, and the hand-overs left out must map onto one
    another under the mirror, so that the states read as handed over are still
    one of each pair.
    """
    k = len(steps)
    while k > 1 and steps[k - 1].hands >= 0:
        k -= 1
    for first in range(k, len(steps)):
        heir = {steps[t].hands: steps[t].square for t in range(first, len(steps))}
        if mirror is not None and steps[-1].mirror.size and (
                not steps[first - 1].mirror.size or any(heir.get(mirror[u]) != mirror[v] for u, v in heir.items())):
            continue
        final = [heir.get(u, u) for u in fronts[first]]
        return HandOver(first, final, np.array([i for i, u in enumerate(fronts[first]) if u in heir], np.int64))
    return None


def best_plan(board: Board, piece: Leaper, start: int | None = None, end: int | None = None,
              closed: bool = False, fixed: Fixed | None = None, mirror: bool = True,
              whole: bool = True, deadline: float | None = None) -> Sweep:
    """The whole-board sweep of the narrowest frontier (then the fewest frontier squares in all).

    ``fixed``: the edges it rules out are left out; the order of the squares is the whole graph's.
    Without ends or ``fixed``, and unless ``mirror`` is False, the sweep keeps one state of each mirror
    pair (see :func:`plan`). ``whole``: the tours of the whole board alone are counted, so its colours
    decide where they can end (:func:`~chesstours.colours.end_rule`); False for a strip, whose every length is counted.
    ``deadline``: as for :func:`in_time`.
    """
    nbrs = neighbours(board, piece, fixed, deadline)
    rule = end_rule(board, piece, closed, start, end) if whole else ANYWHERE
    symmetry = mirrored(board, start, end, fixed, rule=rule)
    image = symmetry if mirror else None
    orders = line_orders(board, piece, deadline, None if fixed else nbrs)
    if symmetry is not None:  # the same order with the mirror or without it: the two keep the same states
        pairs = paired(orders["greedy"], symmetry)
        if pairs != orders["greedy"]:  # lines of odd length stay as they are: nothing new to plan
            orders["paired"] = pairs
    plans = {}
    for name, lines in orders.items():
        order = [v for line in lines for v in line]
        ends = list(np.cumsum([len(line) for line in lines]) - 1)
        plans[name] = plan(nbrs, order, closed=closed, start=start, end=end, line_ends=[int(t) for t in ends],
                           mirror=image, rule=rule, deadline=deadline)
    best = min(plans.values(), key=lambda p: (p.max_slots, p.slot_sum))
    # a frontier as narrow that folds after every pair of squares beats one that folds after every line
    folded = plans.get("paired")
    return folded if folded is not None and folded.max_slots <= best.max_slots else best
