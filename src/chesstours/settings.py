"""Every threshold, budget and schedule of chesstours, defined once.

The choices that :mod:`chesstours.policy` makes on a user's behalf, the
sizes from which a family runs its compiled kernels rather than plain
Python, and the budgets of the searches all read their numbers here, one
line of meaning each. Why each value is what it is, and how it was measured,
is in the guide (``docs/guide/policy.md``) and the benchmarks page
(``docs/benchmarks.md``). This module imports nothing of chesstours: every
layer may read it.

>>> CONSTRUCT_ABOVE, MAX_BACKTRACK_COUNT_SQUARES
(10000, 400)
"""

from __future__ import annotations

# -- which method answers ------------------------------------------------------------------------------

#: ``auto`` builds knight's tours of whole boards of more squares than this by construction.
CONSTRUCT_ABOVE = 10_000
#: ``auto`` counts by the frontier method only where backtracking is estimated to take longer than this ...
FRONTIER_ABOVE_SECONDS = 0.25
#: ... and longer than the frontier method's forecast divided by this (that forecast runs high on small boards).
FRONTIER_FORECAST_HIGH = 4.0
#: The estimate of a count by backtracking is this many times Knuth's probes, whose typical value runs low.
PROBES_RUN_LOW = 2.0
#: Exhaustive counts by backtracking are refused outright above this many free squares.
MAX_BACKTRACK_COUNT_SQUARES = 400
#: Without a time limit, counts estimated to take longer than this many seconds are refused.
MAX_UNLIMITED_SECONDS = 3600.0
#: Counts of boards with more free squares than this are estimated before they start.
ESTIMATE_ABOVE_SQUARES = 30
#: ``auto`` counts by the frontier method in plain Python at once, without an estimate of backtracking, where
#: its forecast is at most this many states ...
PLAIN_FRONTIER_STATES = 300_000
#: ... and it is forecast to extend at most this many states in all: it answers before numba could load.
PLAIN_FRONTIER_EXTENDED = 400_000
#: A count run in tasks by ``auto`` backtracks unless that is forecast past this many seconds.
BACKTRACK_IN_TASKS_SECONDS = 60.0

# -- walks and starts ----------------------------------------------------------------------------------

#: Seeded random walks that ``auto`` takes after the fixed tie-breaks.
RANDOM_WALKS = 8
#: Walks into a fixed square from the tour's other end (:func:`~chesstours.tour_exists`): the schedule's first.
BACKWARD_WALKS = 4
#: Without a start square, a heuristic method tries at most this many start squares.
HEURISTIC_STARTS = 16

# -- tasks and parts -----------------------------------------------------------------------------------

#: A search run as tasks is cut into this many tasks a worker ...
TASKS_PER_WORKER = 32
#: ... and at least this many.
MIN_TASKS = 128
#: Workers a cluster is assumed to have when a plan is made for it.
CLUSTER_WORKERS = 8
#: A frontier count split on edges is conditioned on at most this many squares ...
MAX_SPLIT_ON = 3
#: ... and one split on classes on at most this many.
MAX_CLASS_SPLIT_ON = 8
#: The share of this machine's memory that one job may plan to use.
MEMORY_SHARE = 0.75

# -- the frontier's plan ------------------------------------------------------------------------------

#: Whole boards of at least this many lines (and squares a line) are counted by meet in the middle.
HALVES_FROM_LINES = 5
#: A meet in the middle whose halves fold mirror pairs cuts lines this long a pair of squares before the end.
CUT_A_PAIR_EARLIER_FROM = 8

# -- plain Python or compiled --------------------------------------------------------------------------

#: Warnsdorff's walk runs compiled on boards of more free squares than this, in plain Python below.
WALK_COMPILED_ABOVE = 4096
#: The construction's loops run compiled on tours of more squares than this, in plain Python below.
CONSTRUCT_COMPILED_ABOVE = 4096
#: Searches on boards of at most this many free squares start in plain Python ...
PLAIN_SEARCH_SQUARES = 256
#: ... for at most this many positions of the whole query, then go on in the compiled kernel.
PLAIN_SEARCH_POSITIONS = 50_000
#: Positions a query takes in plain Python at a time while its kernels compile in another process.
WHILE_COMPILING = 20_000
#: An estimate whose probes descend at most this many squares in all runs them in plain Python.
PLAIN_PROBE_SQUARES = 500_000
#: Seconds a job waits at most for kernels compiling in another process before it compiles them itself.
COMPILE_WAIT = 60.0
#: Seconds between two looks at the compile cache while a job waits for a kernel.
COMPILE_POLL = 0.02
#: A frontier count runs steps in plain Python only where its widest step is forecast at most this many ...
FRONTIER_PLAIN_FORECAST = 3_000_000
#: ... and runs wholly there, compiling nothing, where it is forecast to extend at most this many in all (6x6 open).
FRONTIER_PLAIN_ONLY_EXTENDED = 1_500_000
#: ... unless it extends more than this many and its kernels are all in the compile cache: they load quicker.
FRONTIER_PLAIN_CACHED_UP_TO = 500_000
#: A meet in the middle forecast to extend more states than this starts compiled: it would wait at its join.
FRONTIER_PLAIN_EXTENDED = 1_000_000
#: States a frontier count extends in plain Python before the join's kernels start compiling too.
FRONTIER_JOIN_COMPILES_AFTER = 2_000_000
#: States the frontier extends or joins at once in plain Python between two looks at the compiling process.
FRONTIER_LOOK_EVERY = 1 << 14
#: Pairs of states the frontier's join in plain Python tests at once.
FRONTIER_PAIRS_AT_ONCE = 1 << 18

# -- cost models ---------------------------------------------------------------------------------------

#: Positions a second a core of backtracking, to turn an estimate of positions into seconds.
NODES_PER_SECOND = 25_000_000
#: Steps a second of the bishop search, to turn an estimate of steps into seconds.
BISHOP_STEPS_PER_SECOND = 8e6
#: Counts of bishop routes on boards of more free squares than this are estimated before they start.
BISHOP_ESTIMATE_ABOVE_SQUARES = 80
#: Random descents of the bishop count's estimate.
BISHOP_ESTIMATE_PROBES = 4000
#: Bytes a live state of the frontier's kernels takes at a step's peak: a table slot and a third, and input.
FRONTIER_PEAK_BYTES = 40
#: Bytes a state of the frontier in plain Python takes with its share of a step's rows, for the memory watch.
FRONTIER_PLAIN_STATE_BYTES = 64
#: Bytes a state of a meet in the middle's indexed half takes: its partners' key, mates, count and run.
FRONTIER_INDEX_BYTES = 40
#: The share of a frontier count's memory it holds when it keeps one state of each mirror pair ...
FRONTIER_MIRRORED_MEMORY = 0.7
#: ... and of the time it takes, where nothing else changes.
FRONTIER_MIRRORED_WORK = 0.55
#: States a frontier count of open tours extends in all, over its widest step's forecast, per k**2 ...
FRONTIER_EXTENDED_OPEN = 0.2
#: ... and of closed tours (k: the board's length less its width, plus one).
FRONTIER_EXTENDED_CLOSED = 0.35

# -- sampling: the tables of a frontier sweep, kept ------------------------------------------------------

#: Bytes a state of the sampling tables takes at the peak of their building: its key, its share of the moves
#: (about two a state, each a parent, choice, child and weight), the completions counted back, and the walk's
#: tables made from them beside the moves.
SAMPLE_STATE_BYTES = 200
#: The tables hold about this many times the widest step's forecast of a count (:func:`~chesstours.frontier.sweep.estimate`)
#: for each line of the board: every step's states, unfolded by the mirror.
SAMPLE_STATES_A_LINE = 2.0
#: Seconds of one core to build a state of the tables (the sweep's step run once a state and edge choice).
SAMPLE_SECONDS_A_STATE = 1.2e-6
#: Bytes a tour drawn takes while it is made, a square of it (its edge choice and its place in the path) ...
SAMPLE_TOUR_SQUARE_BYTES = 16
#: ... and beside its squares (the Tour and its stats): a draw of more than memory allows is refused.
SAMPLE_TOUR_BYTES = 1024
#: States of a step whose moves are listed at once: the rows made for them are a state's edge choices each.
SAMPLE_STATES_AT_ONCE = 1 << 16

# -- the existence search ------------------------------------------------------------------------------

#: Open tours with no start given are searched from every start up to this many squares.
ALL_STARTS_UP_TO = 4096
#: Backtracking keeps about 100 bytes per square per task: at most this many squares x tasks.
SEARCH_CELLS = 4_000_000
#: Walks into the target square from the other end are tried on boards up to this size.
BACKWARD_WALKS_UP_TO = 250_000
