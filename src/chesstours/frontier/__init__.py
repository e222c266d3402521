"""Exact counts of tours by a frontier dynamic programme.

Backtracking visits every tour, so it cannot count the 13,267,364,410,532
closed knight's tours of 8x8 [3]_. A *frontier* (transfer-matrix) dynamic
programme counts without listing [1]_ [2]_: it adds the squares one at a
time in a fixed order and keeps, for every distinct *state* of the frontier
(the squares added that still have neighbours to come), the number of
partial tours that reach it. Partial tours that agree on the frontier have
the same futures, so they are counted together.

*The state.* Each frontier square records its tour edges so far (0, 1 or 2)
and, with one edge, its *mate*: the other end of its path fragment. So a
state says which frontier squares are path ends and how they pair up. It is
one 64-bit integer, the slot codes as a mixed-radix number with the fragment
labels renumbered in slot order, so that equal frontiers give equal keys;
17 frontier squares fit (:mod:`chesstours.frontier.kernel`).

*The sweep.* Adding square ``v`` tries every set of at most two edges from
``v`` to its earlier neighbours: an edge joins two fragments into one, or
closes a cycle, allowed only when that cycle covers every square. A square
leaves the frontier when its last neighbour has been added; it must then
have two edges (closed tours) or, for open tours, one or two, with at most
two tour ends in all. States that cannot be finished are dropped as soon as
that shows, and edge sets that would break a square's degree are rejected
from bit masks before any state is built. Open tours end only where the
colours allow (:func:`chesstours.colours.end_rule`). The squares are added
line by line across the narrow side of the board, in the order that lets
squares depart soonest (:mod:`chesstours.frontier.plan`): a knight's frontier
then holds ``2w`` squares for width ``w``. The answer is the number of
partial tours complete when the last square is added. One sweep along a
strip answers every length at once (:func:`count_strip`).

*Meet in the middle* (:mod:`chesstours.frontier.join`). For whole boards of
five lines or more, two half sweeps, one from each end, stop on a common
middle frontier (:func:`~chesstours.frontier.sweep.choose_halves`); a tour
is a pair of states whose edges add to two on every middle square and whose
fragments join into one cycle (or one path). One half is indexed by its
degree key, the other streamed against it, and each pair's fragments are
tested in byte shuffles (:mod:`chesstours.frontier.shuffle_kernel`). The widest
steps of a whole-board sweep are never made.

*The mirror* (:func:`chesstours.frontier.plan.plan`). Where a count is
symmetric under the reflection that maps each line onto itself, a state and
its image complete in the same number of ways, so a step keeps one of the
two with both counts: about half the states and half the work.

*Counts of any size.* Counts take one 64-bit limb; a carry reruns the sweep
with two, and past that it is counted modulo primes near 2**62 and rebuilt
by the Chinese remainder theorem (:mod:`chesstours.frontier.residues`),
never silently wrong.

*Uniform sampling and statistics* (:mod:`chesstours.frontier.sampling`).
Kept step by step, the states and their moves are a layered graph in which
each tour is one path. Read backwards they give each state the number of
ways it completes; a uniform rank below the number of tours, followed from
the empty frontier by the move whose share of the ranks holds it, names one
tour, each tour equally likely (ranking and unranking [4]_). The partial
tours reaching a state times the completions of its moves count the tours
through each move of the piece.

*The cost model* (:func:`chesstours.frontier.sweep.estimate`). The states of
the widest step decide everything: their number grows about geometrically
with the width of the frontier. Memory is about 40 bytes a state at the
peak of a step (its slot in a hash table a third larger than the states,
and its share of the step's input), 0.7 of that where the mirror folds the
count; time is about 1.7 microseconds of one core a state of the widest
step. The forecast reads the width alone, so it holds for boards about as
long as wide; on longer boards the middle frontier's states and the join's
pairs grow with the length and it runs low, which a plan says
(:data:`~chesstours.frontier.sweep.RUNS_LOW_CAVEAT`). On an empty compile
cache a count forecast small runs in plain Python and numpy
(:mod:`chesstours.frontier.plain`), which make exactly the kernels' states.
``docs/benchmarks.md`` gives the measured figures.

References
----------
.. [1] D. E. Knuth, The Art of Computer Programming, pre-fascicle 8A,
   "Hamiltonian paths and cycles" (program DYNAHAM), 2023.
.. [2] H. Iwashita, J. Kawahara, S. Minato, "ZDD-based computation of the
   number of paths in a graph", TCS technical report TCS-TR-A-12-60 (2012):
   frontier-based search with mate arrays (Knuth's SIMPATH).
.. [3] B. D. McKay, "Knight's tours of an 8x8 chessboard", Technical report
   TR-CS-97-03, Australian National University (1997).
.. [4] A. Nijenhuis and H. S. Wilf, *Combinatorial Algorithms*, 2nd ed.,
   Academic Press (1978), ch. 13: uniformly random objects from their counts.

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.pieces import KNIGHT
>>> frontier_count(Board(6, 6), KNIGHT, closed=True).count
9862
>>> count_strip(3, 12, KNIGHT, closed=True).per_length[9:]
[16, 0, 176]
"""

from __future__ import annotations

from .sweep import (
    FrontierProgress,
    FrontierResult,
    choose_halves,
    count_strip,
    estimate_seconds,
    estimate_states,
    frontier_count,
    refusal,
)

__all__ = ["FrontierProgress", "FrontierResult", "count_strip", "estimate_states", "estimate_seconds", "frontier_count", "choose_halves", "refusal"]
