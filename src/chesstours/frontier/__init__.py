"""Exact counts of tours by a frontier dynamic programme.

Backtracking visits every tour, so it cannot count the 13,267,364,410,532
closed knight's tours of 8x8. A *frontier* (transfer-matrix) dynamic
programme counts without listing: it adds the squares one at a time in a
fixed order and keeps, for every distinct *state* of the squares that still
have neighbours to come (the frontier), the number of partial tours that
reach it. Partial tours that agree on the frontier have the same futures, so
they are counted together.

The state of a frontier square is its number of tour edges so far (0, 1 or
2) and, for a square with one edge, its *mate*: the other end of its path
fragment. Adding square ``v`` tries every set of at most two edges from ``v``
to its earlier neighbours (all on the frontier): an edge joins two fragments
into one, or closes a cycle -- allowed only when that cycle covers every
square. A square leaves the frontier when its last neighbour has been added;
it must then have two edges (closed tours) or, for open tours, one or two,
with at most two squares ending the tour (a fragment whose other end left
with one edge is marked *ended*). A fixed start or end square must end the
tour; a closed tour through a fixed edge must use it. The answer is the
number of partial tours that are complete when the last square is added.

States that cannot be finished are dropped as soon as that shows: a square
with no edge that leaves, or with fewer neighbours to come than edges it
still needs; and, for open tours, a state whose squares with no edge and a
single neighbour to come (each can only end the tour) would make more than
two ends. The last rule halves the states of open sweeps. Edge sets that
would give a square a third edge, or leave a square without the edge it must
take now, are rejected from bit masks before any state is built.

*Where an open tour ends* (:func:`chesstours.colours.end_rule`): a
leaper that changes colour at every move (``a + b`` odd, the knight) makes
open tours that alternate colours, so on a board with one more dark square
than light both ends are dark, and on one with as many of each the ends
differ. A square no tour can end on is given two edges as in a closed tour
(and so is every square but the two ends, when both are given); where the
ends must differ, a state that makes its second end on the first one's colour
is dropped, the colour of the first read from the state itself (a path has
one more square of its ends' colour where they agree, as many of each where
they differ, so the frontier's slots and the squares added so far tell the
two ends' colours). No state dropped completes to a tour, so no count
changes: 7x7 open extended 62 million states instead of 146, 6x8 open 11.6
instead of 17.0, 5x5 open 19,493 instead of 45,310 (measured when the mirror
kept the smaller key of a pair; see *The mirror* below).

The squares are added line by line across the *narrow* side of the board,
in the order within each line that lets squares depart soonest
(:mod:`chesstours.frontier.plan`): a knight's frontier then holds
``2w`` squares for width ``w``.

Encoding and memory (:mod:`chesstours.frontier.kernel`,
:mod:`chesstours.frontier.table`, :mod:`chesstours.frontier.run`):
a state is one 64-bit integer, the slot codes as a mixed-radix number with
the fragment labels renumbered in slot order, so that equal frontiers give
equal keys; 17 frontier squares fit. The states of one step live in
open-addressing hash tables in numba, split into parts by hash, one thread a
share of the parts. Counts take one 64-bit limb; a carry out of one reruns
the sweep with two limbs, and a carry out of two reruns it once a prime,
counting modulo primes near 2**62, and joins the residues by the Chinese
remainder theorem (:mod:`chesstours.frontier.residues`): counts of
any size, never silently wrong. They become exact Python ints at the end.

*Meet in the middle* (:mod:`chesstours.frontier.join`): for whole
boards of five lines or more, two half sweeps end on one middle frontier and
are joined there; the states of the widest step of a plain sweep are never
made. 8x8 closed, cut a pair of squares before the end of its fifth line
(:func:`~chesstours.frontier.sweep.choose_halves`): 51.0 and 13.1 million
states on the middle frontier of 16 squares, one of each mirror pair (the
plain sweep would hold about half a billion at once). Where a half's last
steps only hand a departing square's code to a square of the middle
frontier, it stops before them (:class:`~chesstours.frontier.plan.HandOver`).

*The mirror* (:func:`chesstours.frontier.plan.plan`): the reflection that
maps each line onto itself maps partial tours to partial tours. When a
count is symmetric under it (no ends given, nothing fixed, holes that it
keeps) and the squares added so far are their own image (at the end of each
line), a state and its image complete in the same number of ways, so a step
keeps one of the two with both counts: about half the states, and half the
work after them. Which one is kept matters to the steps that follow, where
nothing folds: the one whose last slots (the squares the frontier keeps
longest) read first by kind (:func:`chesstours.frontier.kernel.fold`), so
that states about to meet are kept on the same side. On lines of even
length each square is added just before its image
(:func:`chesstours.frontier.plan.paired`), so that a step folds after every
pair, not only at the end of a line: 8x8 closed (cut at the end of its
fifth line) then held 80.8 million states at most (its middle frontier)
instead of 92.8, 2.6 GiB of tables instead of 3.5. Each half of a meet in
the middle keeps one of each pair; the indexed half is made whole again
before the join, and the streamed half, folded, meets each pair of partners
once: half the pairs joined.

*The cost model* (:func:`chesstours.frontier.sweep.estimate`): the
states of the widest step decide everything. A state at the peak of a step
takes about 40 bytes (its slot in a table a third larger than the states,
and its share of the step's input), 0.7 of that where the mirror folds the
count; time is about 1.7 microseconds of one core per state of the widest
step, the mirror pairs counted twice. Where it goes, step by step and kernel
by kernel (``python benchmarks/bench_frontier.py --steps 8x8 --closed``,
``--kernels 8x8 --closed``; two cores): cut at the end of its fifth line,
8x8 closed took 110 s, the left half 74 s (its last six steps, the fifth
line, from 9.1 to 80.8 million states, 69 s; the last two alone 32 s), the
right half 9 s and the join 27 s. Of 197 CPU-seconds, making the successors
of states (``expand``, about 270 ns of one core a state extended) took 78,
the tables (sorting batches, inserting, growing and compacting them) 58, and
testing the join's 7.9 billion pairs 41 (about 5 ns a pair: each pair is
tested in byte shuffles, :mod:`chesstours.frontier.shuffle`, two partners a
shuffle where the processor has AVX2). Cut a pair of squares earlier, the
left half never makes those last two steps and the right half adds the two
squares for less: 92 s, the left half 41 s, the right 17 s and the join 34 s
(14.2 billion pairs), 211 million states extended instead of 288; 1.7 GiB
resident instead of 1.9. The right half's last four steps only hand codes
over; stopping before them, 158 million states are extended and the count
took 70 to 83 s (the right half 9 s; ``expand`` 51 CPU-seconds, the tables
30, the join's pairs 50, of 145). The states of one degree key now go
against their run together, four states a partner, the run in blocks that
stay in the first-level cache (:func:`~chesstours.frontier.join_kernel.join_states`):
the join's pairs take 45 CPU-seconds instead of 62 (the same run) and the
count 70 to 78 s. With the kernels' indexes read without numba's
wraparound test and their large arrays in huge pages, 62 to 65 s:
``expand`` 45 CPU-seconds, the tables 26, the join's pairs 32, of 116. With
each state's key made in byte shuffles, sixteen slots at once
(:func:`~chesstours.frontier.shuffle.canonical_key`), 58 to 61 s: ``expand``
39 CPU-seconds instead of 44 (the same hour). Replayed on 7x8 closed, the tests of its 59
million pairs take a third of the join, and reading, sorting and finding
the runs of its 2.9 million streamed states the rest (some 190 ns a state).
The join's work grows with the pairs it enumerates, not with the states.
Sharing it within a *class* (the states of one degree key and their run of
partners, ``2m`` fragment ends) was measured and not taken: the pairs that
close one cycle are the sum, over the coarsenings of the matchings into
``k`` blocks, of ``(-1)**(k - 1) (k - 1)!`` times the two halves' counts summed
on each coarsening (colour the ends in ``x`` colours, take the coefficient
of ``x``), in ``(S + R) Bell(m)`` steps for ``S x R`` pairs. On 8x8 closed cut at the end of its fifth
line (7.9 billion pairs; classes taken whole) that would walk 0.57 to 0.68 of
the pairs' cost at the costs measured (a coarsening made and added 8 to 19
ns, a pair walked 4 to 16), some 15 to 25 of 300 CPU-seconds; but the
streamed half comes in parts by hash, so each part meets only its share of
a class and would coarsen the run of partners again (no class of 8x8 was
cheaper shared within a part, and 7x8 closed joined 1.0 to 1.2 times
slower), while keeping the coarsenings of the indexed half instead would
take gigabytes.

The forecast reads the width of the frontier alone, so it holds for boards
about as long as they are wide, where it was fitted. Longer boards run past
it: the states on the middle frontier grow with the lines before it, and the
time follows the states of every step (about 0.4 microseconds a state of a
step on two cores). Measured on a day when 6x8 open took 6.0 s: 6x10 open
was forecast at 2.3 s and took 31 s, 7x10 closed 5.5 s and 37 s, 6x12
closed 0.22 s and 2.7 s, each at about five times the memory forecast. Sparse
leapers run far below it: (1, 3), (2, 3) and (0, 2) counts of the same widths
take a hundredth of their forecast. A plan says so from two lines longer than
wide (:data:`~chesstours.frontier.sweep.RUNS_LOW_CAVEAT`). Past about twice
its width a board's widest step stops growing (4xL: 6,268 states at 4x12,
6,270 to 4x30; 5xL open: about 200,000 from 5x11 to 5x16) and a sweep's time grows with
the length; before that, the join's pairs grow fastest (6x8, 6x9, 6x10 open:
60, 383 and 1,014 million; 7x10 closed: 3.5 billion, about half its time). A
forecast with the length in it needs both terms.

*A first run* (:mod:`chesstours.frontier.plain`): on an empty compile cache
the kernels take five to seven seconds to compile, and loading them from the
cache 0.6 to 0.9 s, more than a small count takes in plain Python and numpy,
whose steps do the kernels' work on a part of the states at once and make
exactly the kernels' states. A count forecast very small runs there to its
end (6x6 closed and 5x7 open in a quarter to a third of a second, without
loading numba); a larger one forecast small runs its steps there while the
kernels compile in another process, and goes on in them from the step it
reached once they are in the cache.

One sweep along a strip answers every length at once: after the last square
of column ``k`` the states that would be finished tours if the board ended
there are the tours of the ``rows x k`` board (:func:`count_strip`).

References
----------
.. [1] D. E. Knuth, The Art of Computer Programming, pre-fascicle 8A,
   "Hamiltonian paths and cycles" (program DYNAHAM), 2023.
.. [2] H. Iwashita, J. Kawahara, S. Minato, "ZDD-based computation of the
   number of paths in a graph", TCS technical report TCS-TR-A-12-60 (2012):
   frontier-based search with mate arrays (Knuth's SIMPATH).
.. [3] B. D. McKay, "Knight's tours of an 8x8 chessboard", Technical report
   TR-CS-97-03, Australian National University (1997).

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
