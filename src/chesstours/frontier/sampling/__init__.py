"""Uniformly random tours, and exact statistics of all tours, from the tables of a frontier sweep.

A frontier count (:mod:`chesstours.frontier`) adds the squares one at a time
and keeps, for each state of the frontier, how many partial tours reach it.
Its states and moves make a layered graph: a path through it from the empty
frontier to a finished tour is one tour, and each tour is one such path. The
count is the number of those paths. Keeping every step's states and moves
(the *tables*, :func:`build_layers`) gives two more things:

*Completions.* Read backwards, from the last step to the first, the tables
give each state the number of ways it completes (:func:`completions`): a
move's *weight* is the completions of the state it makes (one for a move that
finishes a tour), and a state's completions are the sum of its moves'
weights. The empty frontier completes in as many ways as there are tours.

*Uniform sampling* (:func:`draw`). Number the tours ``0 .. T - 1`` by their
paths: the tours through a state's first move come first, then those through
its second, and so on. A rank ``r`` names one tour: from the empty frontier,
take the move whose share of the ranks holds ``r``, subtract the shares
before it, and go on from the state it makes
(:func:`~chesstours.frontier.sampling.kernel.walk`). A uniform rank drawn
from ``0 .. T - 1`` is then a uniform tour: each is equally likely, exactly,
with no rejection and no bias from the order of the moves, which is what a
randomised Warnsdorff walk or a shuffled backtracking search cannot promise.
Each draw costs one walk, a few moves a square.

*Statistics* (:func:`edge_tours`). The partial tours reaching a state
(forward counts) times the completions of the state a move makes (backward
counts) is the number of tours that take the move; summed over the moves of a
step that give the new square an edge to a given square, it is the number of
tours that use that edge (move of the piece). Each edge is decided at the step
that adds the later of its squares, so every edge is counted once.

The tables are the count's own: the moves are listed by the sweep's step
(:func:`chesstours.frontier.kernel.expand`), one state and one edge choice
at a time, without the mirror that folds a count's states (a state and its
mirror image complete alike, but a walk must know which of them it is in).

References
----------
.. [1] A. Nijenhuis and H. S. Wilf, *Combinatorial Algorithms*, 2nd ed.,
   Academic Press (1978), ch. 13: uniform random generation of combinatorial
   objects from their counts, by ranking and unranking.
.. [2] D. E. Knuth, The Art of Computer Programming, vol. 4A (2011), 7.1.4:
   uniformly random solutions from the counts of a decision diagram, and the
   frontier method of the counts themselves (pre-fascicle 8A, DYNAHAM).

Examples
--------
>>> import numpy as np
>>> from chesstours.board import Board
>>> from chesstours.pieces import KNIGHT
>>> tabs = tables(build_layers(Board(3, 4), KNIGHT, closed=False))
>>> tabs.count  # the 8 open tours of 3x4, as paths
8
>>> chosen = draw(tabs, np.arange(8, dtype=np.uint64))  # every rank, each from its lower end: each path once
>>> len({tuple(p) for p in paths(tabs, chosen, 12, 12, -1, -1, np.zeros(8))})
8
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ...board import Board
from ...errors import LimitReached
from ...pieces import Leaper
from ...runtime import worker_count
from ...settings import SAMPLE_STATES_AT_ONCE as STATES_AT_ONCE
from ..layout import CAP
from ..plan import Sweep, best_plan
from ..run import FrontierProgress

__all__ = ["Layer", "Layers", "Tables", "build_layers", "completions", "tables", "draw", "edge_tours",
           "ranks", "paths", "step_edges", "plan_for_tables", "save_tables", "load_tables", "saved_question",
           "TABLES_FORMAT"]

#: The layout of a saved tables file (:func:`save_tables`); a file of another layout is not read.
TABLES_FORMAT = 1

#: Counts at or past this are held as Python ints (exact, slower); below it in 64 bits.
_WIDE = 2**62


@dataclass
class Layer:
    """The moves of one step of the sweep: move ``k`` goes from state ``parent[k]`` of the states before the
    step, by edge choice ``choice[k]``, to state ``child[k]`` of the states after it; the choices that finish a
    tour are ``done_parent`` and ``done_choice``."""

    parent: np.ndarray
    choice: np.ndarray
    child: np.ndarray
    done_parent: np.ndarray
    done_choice: np.ndarray
    #: States before the step.
    before: int

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.parent, self.choice, self.child, self.done_parent, self.done_choice))


@dataclass
class Layers:
    """Every step's moves, and what each step's square and edge choices are (:func:`build_layers`)."""

    sweep: Sweep
    closed: bool
    layers: list[Layer]
    #: States after the last step.
    last: int
    #: ``squares[t]``: the square step ``t`` adds; ``edge_a[t, c]``, ``edge_b[t, c]``: the squares its edge
    #: choice ``c`` joins it to (-1: none).
    squares: np.ndarray
    edge_a: np.ndarray
    edge_b: np.ndarray
    seconds: float = 0.0
    max_states: int = 1

    @property
    def states(self) -> int:
        """States over all steps (the empty frontier included)."""
        return sum(layer.before for layer in self.layers) + self.last

    @property
    def moves(self) -> int:
        return sum(layer.parent.size + layer.done_parent.size for layer in self.layers)


def step_edges(sweep: Sweep) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The square each step adds and, for each of its edge choices, the two squares it is joined to (-1:
    none): the slots of a step are the frontier before it, then the new square."""
    steps = sweep.steps
    width = max((st.choice_a.size for st in steps), default=1)
    edge_a = np.full((len(steps), width), -1, np.int64)
    edge_b = np.full((len(steps), width), -1, np.int64)
    frontier: list[int] = []
    for t, st in enumerate(steps):
        if st.nprev != len(frontier):
            raise AssertionError("a step's slots do not follow the frontier of the step before")
        combined = frontier + [st.square]
        for c, (a, b) in enumerate(zip(st.choice_a.tolist(), st.choice_b.tolist())):
            if a == CAP or b == CAP:
                raise ValueError("a sweep of half a board caps squares; tables are made of whole-board sweeps")
            edge_a[t, c] = combined[a] if a >= 0 else -1
            edge_b[t, c] = combined[b] if b >= 0 else -1
        frontier = [combined[k] for k in st.keep.tolist()]
    return np.array([st.square for st in steps], np.int64), edge_a, edge_b


def plan_for_tables(board: Board, piece: Leaper, closed: bool, start: int | None, end: int | None) -> Sweep:
    """The whole-board sweep that tables are made of: the count's best plan without the mirror."""
    return best_plan(board, piece, start, end, closed, mirror=False)


def build_layers(board: Board, piece: Leaper, closed: bool, start: int | None = None, end: int | None = None, *,
                 sweep: Sweep | None = None, deadline: float | None = None,
                 progress: Callable[[FrontierProgress], None] | None = None, workers: int | None = None) -> Layers:
    """Sweep the board and keep every step's moves: the tables of sampling and statistics.

    ``closed``, ``start``, ``end`` as the sweep takes them
    (:func:`~chesstours.frontier.sweep.given_squares`): cycles, through the
    edge ``start``-``end`` where both are given; open paths with those ends.
    ``deadline`` (a :func:`time.perf_counter` time) raises
    :class:`~chesstours.errors.LimitReached`; ``progress`` is called after
    each step. ``workers``: threads that list a step's moves, a share of its
    states each (default: one a core); the moves come in the same order
    whatever their number, so a seed draws the same tours.
    """
    from . import kernel as sk

    t0 = time.perf_counter()
    sweep = plan_for_tables(board, piece, closed, start, end) if sweep is None else sweep
    budget = 2 - len({x for x in (start, end) if x is not None})
    squares, edge_a, edge_b = step_edges(sweep)
    keys = np.zeros(1, np.uint64)
    layers: list[Layer] = []
    most = 1
    nsteps = len(sweep.steps)
    threads = worker_count(workers)
    pool = ThreadPoolExecutor(threads, thread_name_prefix="chesstours-tables") if threads > 1 else None
    try:
        for t, st in enumerate(sweep.steps):
            def listed(first: int, keys=keys, st=st, finish=t == nsteps - 1) -> tuple[np.ndarray, ...]:
                return _moves(sk, keys, first, st, budget, closed, finish)

            firsts = range(0, max(1, keys.size), STATES_AT_ONCE)  # no state left: one empty part
            parts = list(pool.map(listed, firsts)) if pool is not None and len(firsts) > 1 else list(map(listed, firsts))
            parent, choice, child, done_parent, done_choice = (np.concatenate([p[j] for p in parts]) for j in range(5))
            del parts
            new_keys, inverse = np.unique(child, return_inverse=True)
            layers.append(Layer(parent, choice, inverse.astype(np.int64).ravel(), done_parent, done_choice,
                                int(keys.size)))
            del parent, choice, child, done_parent, done_choice
            keys = new_keys
            most = max(most, int(keys.size))
            if progress is not None:
                progress(FrontierProgress(t, nsteps, st.square, int(keys.size), most, "tables"))
            if deadline is not None and time.perf_counter() > deadline and t < nsteps - 1:
                raise LimitReached(f"Stopped at the time limit while building the tables, at square {t + 1} of "
                                   f"{nsteps}.")
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    return Layers(sweep, closed, layers, int(keys.size), squares, edge_a, edge_b, time.perf_counter() - t0, most)


def _moves(sk, keys: np.ndarray, first: int, st, budget: int, closed: bool, finish: bool) -> tuple[np.ndarray, ...]:
    """The moves of the states ``keys[first:first + STATES_AT_ONCE]`` at step ``st`` (``parent`` numbered in
    all of ``keys``): parent, choice, child key, and the parents and choices that finish a tour."""
    part = keys[first:first + STATES_AT_ONCE]
    rows = part.size * st.choice_a.size
    parent = np.empty(rows, np.int64)
    choice = np.empty(rows, np.int8)
    child = np.empty(rows, np.uint64)
    done_parent = np.empty(rows, np.int64)
    done_choice = np.empty(rows, np.int8)
    moves, finished = sk.transitions(part, st.nprev, st.choice_a, st.choice_b, st.one_end, st.departs, st.keep,
                                     st.single, st.choice_mask, st.free_need, st.label_need, st.signs, st.balance2,
                                     budget, closed, finish, parent, choice, child, done_parent, done_choice)
    return (parent[:moves] + first, choice[:moves].copy(), child[:moves].copy(), done_parent[:finished] + first,
            done_choice[:finished].copy())


def _add_at(out: np.ndarray, index: np.ndarray, values: np.ndarray | None) -> None:
    """``out[index] += values`` (or 1), each index as often as it comes: compiled in 64 bits, ``numpy.add.at``
    on Python ints."""
    if out.dtype == object:
        np.add.at(out, index, 1 if values is None else values)
        return
    from . import kernel as sk

    if values is None:
        sk.add_one_at(out, index)
    else:
        sk.add_at(out, index, values.astype(out.dtype, copy=False))


def _dtype(bound: float) -> type | np.dtype:
    return object if bound >= _WIDE else np.dtype(np.uint64)


def completions(layers: Layers) -> list[np.ndarray]:
    """The completions of every state, step by step backwards: ``out[t][i]``, the number of ways state ``i``
    of the states before step ``t`` completes to a tour (``out[len(steps)]``: the states after the last
    step, which complete in none). ``out[0][0]`` is the number of tours."""
    # a pass in floating point first bounds the counts: 64 bits where they fit, else Python ints
    bound: np.ndarray = np.zeros(layers.last)
    bounds = [bound]
    for layer in reversed(layers.layers):
        bound = np.bincount(layer.parent, bound[layer.child], minlength=layer.before) + np.bincount(
            layer.done_parent, minlength=layer.before)
        bounds.append(bound)
    dtype = _dtype(max(float(b.max(initial=0.0)) for b in bounds))
    counts = np.zeros(layers.last, dtype)
    out = [counts]
    for layer in reversed(layers.layers):
        before = np.zeros(layer.before, dtype)
        _add_at(before, layer.parent, counts[layer.child])
        _add_at(before, layer.done_parent, None)
        counts = before
        out.append(counts)
    out.reverse()
    return out


@dataclass
class Tables:
    """What a walk reads (:func:`draw`): the moves of every state that lead to a tour, and their weights.

    States are numbered step by step, the empty frontier 0; the moves of
    state ``g`` are ``first[g]`` to ``first[g + 1]``, each with its
    ``weight`` (the tours it leads to), its edge ``choice`` and the state
    ``child`` it makes (-1: it finishes a tour).
    """

    closed: bool
    count: int
    first: np.ndarray
    weight: np.ndarray
    choice: np.ndarray
    child: np.ndarray
    squares: np.ndarray
    edge_a: np.ndarray
    edge_b: np.ndarray
    seconds: float = 0.0
    states: int = 0
    max_states: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.first, self.weight, self.choice, self.child))


def _joined(parts: list[np.ndarray], dtype) -> np.ndarray:
    return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)


def tables(layers: Layers, counts: list[np.ndarray] | None = None) -> Tables:
    """The walk's tables of ``layers``, with the completions ``counts`` (:func:`completions`, made here if not
    given): only the moves that lead to a tour are kept."""
    counts = completions(layers) if counts is None else counts
    dtype = counts[0].dtype
    base = np.cumsum([0] + [layer.before for layer in layers.layers])
    sizes, weights, choices, children = [], [], [], []
    for t, layer in enumerate(layers.layers):
        after = counts[t + 1]
        w = after[layer.child]
        live = np.flatnonzero(w > 0)
        parent = np.concatenate([layer.parent[live], layer.done_parent])
        order = np.argsort(parent, kind="stable")
        sizes.append(np.bincount(parent, minlength=layer.before))
        weights.append(np.concatenate([w[live], np.ones(layer.done_parent.size, dtype)])[order])
        choices.append(np.concatenate([layer.choice[live], layer.done_choice])[order])
        children.append(np.concatenate([layer.child[live] + base[t + 1],
                                        np.full(layer.done_parent.size, -1, np.int64)])[order])
    sizes.append(np.zeros(layers.last, np.int64))
    first = np.concatenate([[0], np.cumsum(np.concatenate(sizes))]).astype(np.int64)
    return Tables(layers.closed, int(counts[0][0]), first, _joined(weights, dtype), _joined(choices, np.int8),
                  _joined(children, np.int64), layers.squares, layers.edge_a, layers.edge_b, layers.seconds,
                  layers.states, layers.max_states)


_SAVED = ("first", "weight", "choice", "child", "squares", "edge_a", "edge_b")


def save_tables(tabs: Tables, path: str, question: str) -> None:
    """Write ``tabs`` to the file ``path`` (NumPy's ``.npz``: arrays only, nothing a load would unpickle),
    whole or not at all; ``question`` says in words what they answer. Tables of Python-int weights (past 64
    bits) are not written: :class:`ValueError`.

    :raises OSError: the file cannot be written.
    """
    if tabs.weight.dtype == object:
        raise ValueError("tables of counts past 64 bits are not saved")
    part = f"{path}.{os.getpid()}.part"
    try:
        with open(part, "wb") as fh:
            np.savez(fh, format=np.int64(TABLES_FORMAT), closed=np.bool_(tabs.closed), count=np.str_(str(tabs.count)),
                     question=np.str_(question), states=np.int64(tabs.states), max_states=np.int64(tabs.max_states),
                     seconds=np.float64(tabs.seconds), **{name: getattr(tabs, name) for name in _SAVED})
        os.replace(part, path)
    finally:
        if os.path.exists(part):
            os.remove(part)


def load_tables(path: str) -> Tables | None:
    """The tables saved in ``path`` by :func:`save_tables`, or None where the file is missing, of another
    layout or cannot be read."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != TABLES_FORMAT:
                return None
            arrays = {name: data[name] for name in _SAVED}
            return Tables(bool(data["closed"]), int(str(data["count"])), states=int(data["states"]),
                          max_states=int(data["max_states"]), seconds=float(data["seconds"]),
                          extra={"question": str(data["question"]), "cached": path}, **arrays)
    except (OSError, KeyError, ValueError):
        return None


def saved_question(path: str) -> str | None:
    """What the tables saved in ``path`` answer, in words, or None where it cannot be read."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return str(data["question"])
    except (OSError, KeyError, ValueError):
        return None


def ranks(rng: np.random.Generator, bound: int, n: int) -> np.ndarray:
    """``n`` independent uniform integers below ``bound`` from ``rng``: 64-bit where ``bound`` fits, else
    Python ints made of 62-bit draws, a draw at or past ``bound`` drawn again."""
    if bound <= 2**63:
        return rng.integers(0, bound, size=n, dtype=np.uint64)
    bits = bound.bit_length()
    words = -(-bits // 62)
    out = np.empty(n, object)
    for k in range(n):
        while True:
            parts = rng.integers(0, 2**62, size=words, dtype=np.uint64).tolist()
            r = sum(p << (62 * i) for i, p in enumerate(parts)) >> (62 * words - bits)
            if r < bound:
                out[k] = r
                break
    return out


def draw(tabs: Tables, picks: np.ndarray) -> np.ndarray:
    """The edge choices, step by step, of the tour of each rank of ``picks`` (each below ``tabs.count``)."""
    from . import kernel as sk

    out = np.zeros((len(picks), tabs.squares.size), np.int64)
    if tabs.weight.dtype == object:
        sk.walk.py_func(np.asarray(picks, object), tabs.first, tabs.weight, tabs.choice, tabs.child,
                        tabs.squares.size, out)
    else:
        sk.walk(np.asarray(picks, np.uint64), tabs.first, tabs.weight, tabs.choice, tabs.child,
                tabs.squares.size, out)
    return out


def paths(tabs: Tables, chosen: np.ndarray, size: int, n: int, start: int, end: int,
          turns: np.ndarray) -> np.ndarray:
    """The squares in order of the tours of the edge choices ``chosen`` (see
    :func:`~chesstours.frontier.sampling.kernel.tour_paths`): ``n`` squares each, on a board of ``size``."""
    from . import kernel as sk

    out = np.empty((chosen.shape[0], n), np.int32)
    sk.tour_paths(chosen, tabs.squares, tabs.edge_a, tabs.edge_b, size, tabs.closed, start, end,
                  np.asarray(turns, np.int64), out)
    return out


def edge_tours(layers: Layers, counts: list[np.ndarray] | None = None) -> dict[tuple[int, int], int]:
    """The number of tours that use each edge ``(u, v)``, ``u < v``: the partial tours reaching a state times
    the completions of the state each of its moves makes, summed over the moves that take the edge."""
    counts = completions(layers) if counts is None else counts
    dtype = counts[0].dtype
    reach = np.ones(1, dtype)
    through = np.zeros(layers.edge_a.shape, dtype)
    for t, layer in enumerate(layers.layers):
        after = counts[t + 1]
        w = after[layer.child]
        live = np.flatnonzero(w > 0)
        parent, child, choice = layer.parent[live], layer.child[live], layer.choice[live]
        _add_at(through[t], choice, reach[parent] * w[live])
        _add_at(through[t], layer.done_choice, reach[layer.done_parent])
        nxt = np.zeros(after.size, dtype)
        _add_at(nxt, child, reach[parent])
        reach = nxt
    out: dict[tuple[int, int], int] = {}
    for t in range(len(layers.layers)):
        v = int(layers.squares[t])
        for c in np.flatnonzero(through[t] != 0).tolist():
            n = int(through[t, c])
            for u in (int(layers.edge_a[t, c]), int(layers.edge_b[t, c])):
                if u >= 0:
                    key = (min(u, v), max(u, v))
                    out[key] = out.get(key, 0) + n
    return out
