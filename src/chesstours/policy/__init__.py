"""How chesstours chooses: which method answers a query, why, and what it will cost.

Every choice the package makes on a user's behalf is made here, once: the
names of the methods; the order in which ``auto`` tries them and the
Warnsdorff walks it takes first; the thresholds between methods; and the
threads, memory and time a job may take. The library
(:func:`~chesstours.find_tour`, :func:`~chesstours.count_tours`,
:func:`~chesstours.tour_exists`), the command line and the web api all ask
this module, and the choices they offer are generated from it. The names of
what a family implements -- the tie-breaks of Warnsdorff's rule, the move
orders of backtracking -- are defined beside the code that implements them
and published here; so are the bishop puzzle's methods and thresholds
(:mod:`chesstours.bishop.methods`), which its functions, below this module,
apply themselves.

Compiled or plain Python. The algorithms run as numba kernels, which are
compiled on first use and kept in a cache folder
(:func:`chesstours.runtime.compile_cache_dir`); on a first run, with that
folder empty, compiling costs seconds, more than a small query's whole
answer. So small work runs in plain Python twins of the kernels, which give
the same answers move for move, and only large work pays for the compiler:

* Warnsdorff's walk and the construction's loops (following its step
  field, rotating its end to a chosen square) are plain Python on boards of
  at most :data:`WALK_COMPILED_ABOVE` and :data:`CONSTRUCT_COMPILED_ABOVE`
  free squares (linear time: a 64x64 walk takes a few hundredths of a
  second), compiled above;
* backtracking -- a tour's search, a listing, a trace, a count, the
  probes of an estimate, and the bishop's search -- starts in plain Python
  on boards of at most :data:`PLAIN_SEARCH_SQUARES` free squares and takes
  up to :data:`PLAIN_SEARCH_POSITIONS` positions there for the whole query
  (about a fifth of a second: a 5x5 count); a search still running then
  goes on in the compiled kernel from the same place
  (:func:`plain_allowance`; the bishop's api, which lives in its family,
  takes the same allowance from :func:`chesstours.runtime.plain_allowance`);
* counts of boards of at most :data:`ESTIMATE_ABOVE_SQUARES` free squares
  backtrack without an estimate first (the estimate's probes would cost
  more than such a count).

A query becomes a :class:`Plan` by a pure function (:func:`plan_find`,
:func:`plan_count`): the method that will run, why, the steps ``auto`` falls
back on, and an estimate of the states, memory and seconds it needs -- or the
sentence that refuses it. The plan can be shown without running it::

    chesstours count 8x8 --closed --plan
    chesstours tour 1000x1000 --plan --json

Examples
--------
>>> from chesstours.board import Board
>>> from chesstours.pieces import KNIGHT
>>> plan_find(Board(1000, 1000), KNIGHT).method
'construct'
>>> plan = plan_count(Board(6, 6), KNIGHT, closed=True)
>>> plan.method in ("backtrack", "frontier"), plan.refusal
(True, None)
>>> plan_count(Board(5, 5), KNIGHT, closed=True).method
'theory'
>>> [rule for rule, seed in walk_schedule()][:4]
['roth', 'pohl', 'first', 'random']
"""

from .choices import *  # noqa: F403  (the names, thresholds and schedules)
from .choices import __all__ as _choices
from .counting import estimate_backtracking, frontier_in_python, plan_count, searches_after_estimate
from .plans import Plan, plan_find

__all__ = [*_choices, "Plan", "plan_find", "plan_count", "estimate_backtracking", "searches_after_estimate", "frontier_in_python"]
