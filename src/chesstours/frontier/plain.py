"""The frontier sweep and join in plain Python, for a count that would otherwise wait for the compiler.

On an empty compile cache numba compiles some ten kernels for the frontier
method before its first step (five to seven seconds on a small machine),
where the counts of small boards take a few hundredths of a second once
compiled. While those kernels compile in another process
(:class:`FrontierAllowance`), the sweep runs its steps here, one state at a
time, with the same plan (:class:`~chesstours.frontier.plan.Step`), the
same codes and the same choices as :func:`chesstours.frontier.kernel.expand`,
some thirty times slower. A state here is a few bytes that map one to one
onto the kernel's 64-bit key (:func:`to_key`), so a step here makes exactly
the states the kernel makes (the tests hold every step to it). When the
kernels are in the cache the sweep hands its states to them between two
steps (:func:`chesstours.frontier.run.run_sweep`), or in the middle of a
step, which the kernels then do again from its start. A count that ends
first never loads numba: 6x6 closed (37,680 states extended) ends here in
about half a second, 5x5 and 4x9 open in one.

Counts here are Python ints: no limb overflows. A count past 2**64 when
the kernels take over makes the caller count again in two limbs
(:func:`fits_one_limb`).

>>> from chesstours.board import Board
>>> from chesstours.pieces import KNIGHT
>>> from chesstours.frontier.plan import best_plan
>>> sweep = best_plan(Board(3, 4), KNIGHT, closed=False)
>>> states = {EMPTY_STATE: 1}
>>> for step in sweep.steps[:-1]:
...     states, _ = extend(states, step, budget=2, cycle=False, finish=False)
>>> extend(states, sweep.steps[-1], budget=2, cycle=False, finish=True)[1]  # the 8 open tours of 3x4
8
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter

import numpy as np

from ..machine import (
    COMPILE_WAIT,
    await_compiled,
    compile_in_background,
    compile_unless_cached,
    compiled_below,
    in_cache_folder,
    stop_compiling,
)
from .layout import CAP, ENDED, FREE, FULL, MAX_LABEL, PACKED_ENDED, PACKED_FULL, PLACE, RADIX, UNPACKED
from .plan import Step

__all__ = ["EMPTY_STATE", "FrontierAllowance", "allowance", "Switch", "extend", "finish_all", "to_key", "from_key",
           "fits_one_limb", "unfold", "read_half", "join", "to_arrays", "STATE_BYTES",
           "sweep_kernels_cached"]

#: A state here: the work codes of its slots from the last to the first, then its free ends used, as bytes: two
#: states compare as their kernel keys do (:func:`to_key`), the last slot the most significant.
EMPTY_STATE = bytes([0])
#: Packed code of a work code, for :func:`to_key` and :func:`from_key`.
_PACKED = {FREE: 0, ENDED: PACKED_ENDED, FULL: PACKED_FULL, **{c: c for c in range(1, MAX_LABEL + 1)}}
_UNPACKED = [int(c) for c in UNPACKED]
_PLACE = [int(p) for p in PLACE]
#: Work codes with ``ENDED`` and ``FULL`` read as no label (the largest label of a state is the max of its codes).
_LABELS_ONLY = bytes(c if c <= MAX_LABEL else 0 for c in range(256))
#: The labels 1 .. k, as bytes, for each k.
_CANON = [bytes(range(1, k + 1)) for k in range(MAX_LABEL + 1)]
_ENDS = [bytes((e,)) for e in range(3)]
#: States extended between two looks at the compiling process.
LOOK_EVERY = 4096


class Switch(Exception):
    """The kernels are ready (or the deadline passed) in the middle of a step: the step starts again there."""


def to_key(state: bytes) -> int:
    """The 64-bit key of a state here, as :func:`chesstours.frontier.kernel.pack` makes it."""
    key = state[-1]
    for i, c in enumerate(reversed(state[:-1])):
        key += _PACKED[c] * _PLACE[i]
    return key


def from_key(key: int, nslots: int) -> bytes:
    """The state here of a kernel's key with ``nslots`` slots."""
    rest, ends = divmod(key, 3)
    codes = []
    for _ in range(nslots):
        rest, r = divmod(rest, RADIX)
        codes.append(_UNPACKED[r])
    return bytes(codes[::-1]) + _ENDS[ends]


#: The renumbering of the labels of a state, by the labels of its slots in order (``ENDED`` and ``FULL`` read as
#: none): a translation table, or None where they are in order already. Patterns recur from state to state.
_RELABEL: dict[bytes, bytes | None] = {}
#: Patterns kept at most (the dict is emptied past it).
RELABEL_KEPT = 1 << 20


def _relabel(pattern: bytes) -> bytes | None:
    labels = bytes(dict.fromkeys(pattern)).replace(b"\0", b"")  # in the order met
    table = None if labels == _CANON[len(labels)] else bytes.maketrans(labels, _CANON[len(labels)])
    if len(_RELABEL) >= RELABEL_KEPT:
        _RELABEL.clear()
    _RELABEL[pattern] = table
    return table


def _getter(slots: list[int]) -> Callable[[list[int]], tuple]:
    """The codes of ``slots`` of a work list, as a tuple."""
    if len(slots) == 1:
        only = slots[0]
        return lambda work: (work[only],)
    return itemgetter(*slots) if slots else lambda work: ()


def _pack(kept: bytes, ends: int) -> bytes:
    """The state of the kept slots' codes ``kept``, labels renumbered in slot order (the canonical form)."""
    pattern = kept.translate(_LABELS_ONLY)
    table = _RELABEL[pattern] if pattern in _RELABEL else _relabel(pattern)
    if table is not None:
        kept = kept.translate(table)
    return kept[::-1] + _ENDS[ends]


#: The kind of a slot at its work code (as the kernel's ``fold`` reads it): free 0, a fragment's end 1, ``ENDED`` 2,
#: ``FULL`` 3.
_KINDS = bytes(0 if c == FREE else 2 if c == ENDED else 3 if c == FULL else 1 for c in range(256))


def _fold(kept: bytes, image: bytes, ends: int) -> bytes:
    """The state of the kept slots' codes or of their mirror image's, whichever the kernel's ``fold`` keeps."""
    mine, theirs = kept.translate(_KINDS)[::-1], image.translate(_KINDS)[::-1]
    if mine != theirs:
        return _pack(kept if mine < theirs else image, ends)
    return min(_pack(kept, ends), _pack(image, ends))


def _codes(state: bytes) -> tuple[list[int], int]:
    """The work codes of a state in slot order, and its free ends used."""
    return list(state[-2::-1]), state[-1]


def _merge(work: list[int], old: int, new: int) -> None:
    for j, c in enumerate(work):
        if c == old:
            work[j] = new


def _join(work: list[int], x: int, y: int, cycle: bool, fresh: int) -> int:
    """Add the tour edge x-y: 0 ok, 1 invalid, 2 a tour closed (as the kernel's ``_join``)."""
    cx, cy = work[x], work[y]
    if cx == FULL or cy == FULL:
        return 1
    if cx == FREE and cy == FREE:
        if fresh > MAX_LABEL:
            return 1
        work[x] = work[y] = fresh
        return 0
    if cx == FREE:
        work[x], work[y] = cy, FULL
        return 0
    if cy == FREE:
        work[x], work[y] = FULL, cx
        return 0
    work[x] = work[y] = FULL
    if cx == cy:
        return 1 if (cx == ENDED) == cycle else 2
    if cx == ENDED:
        _merge(work, cy, ENDED)
    elif cy == ENDED:
        _merge(work, cx, ENDED)
    else:
        _merge(work, cy, cx)
    return 0


def _depart(work: list[int], x: int, one_end: bool, ends: int, budget: int, cycle: bool) -> tuple[int, int]:
    """Square x leaves the frontier: (0 ok, 1 invalid, 2 a path finished; ends), as the kernel's ``_depart``."""
    c = work[x]
    work[x] = FULL
    if c == FULL:
        return 0, ends
    if cycle or c == FREE:
        return 1, ends
    if c == ENDED:
        return 2, ends
    if not one_end:
        if ends >= budget:
            return 1, ends
        ends += 1
    _merge(work, c, ENDED)
    return 0, ends


def _depart_all(work: list[int], slots, one_end: list[bool], ends: int, budget: int, cycle: bool,
                done: bool) -> tuple[int, int, bool]:
    """The squares of ``slots`` leave the frontier in turn: (0 ok or 1 invalid, ends, whether a path is finished,
    ``done`` saying whether one was before); a second finished path is invalid."""
    for x in slots:
        status, ends = _depart(work, x, one_end[x], ends, budget, cycle)
        if status == 2:
            if done:
                return 1, ends, done
            done = True
        elif status:
            return 1, ends, done
    return 0, ends, done


def _cap(work: list[int], x: int, fixed: bool, ends: int, budget: int) -> tuple[int, int]:
    """Square x ends the tour (a half of a meet in the middle): (0 ok or 1 invalid, ends), as ``_cap``."""
    c = work[x]
    if c == FULL or c == ENDED:
        return 1, ends
    if not fixed:
        if ends >= budget:
            return 1, ends
        ends += 1
    if c == FREE:
        work[x] = ENDED
    else:
        work[x] = FULL
        _merge(work, c, ENDED)
    return 0, ends


def extend(states: dict[bytes, int], st: Step, budget: int, cycle: bool, finish: bool,
           look: Callable[[int], bool] | None = None) -> tuple[dict[bytes, int], int]:
    """Add the square of step ``st`` to every state: the new states with their counts, and the tours finished.

    What :func:`chesstours.frontier.kernel.expand` does, state by state:
    the same edge choices, pruning and keys. ``look(states)``, asked every
    :data:`LOOK_EVERY` states with the states extended so far, stops the step
    (:class:`Switch`) when it says so.
    """
    nprev = st.nprev
    # each edge choice: its mask of earlier slots, and its edges (a slot, or CAP)
    choices = [(int(m), tuple(int(x) for x in (a, b) if x != -1))
               for a, b, m in zip(st.choice_a, st.choice_b, st.choice_mask)]
    one_end = [bool(x) for x in st.one_end]
    departs = [int(x) for x in st.departs]
    keep = _getter([int(x) for x in st.keep])
    mirror = _getter([int(x) for x in st.mirror]) if st.mirror.size else None
    single = [int(x) for x in st.single]
    free_need, label_need = int(st.free_need), int(st.label_need)
    signs = [int(x) for x in st.signs]  # where the ends must differ in colour (see kernel.expand)
    balance2 = int(st.balance2)
    new_end = one_end[nprev]
    # the slots whose codes the edge choices are checked against (v's earlier neighbours, the squares that must
    # take an edge now): the masks are made of them alone
    asked = free_need | label_need
    for m in st.choice_mask:
        asked |= int(m)
    rel = [(j, 1 << j) for j in range(nprev) if asked >> j & 1]
    out: dict[bytes, int] = {}
    finished = 0
    seen = 0
    for key, count in states.items():
        seen += 1
        if look is not None and seen % LOOK_EVERY == 0 and look(seen):
            raise Switch()
        codes, ends0 = _codes(key)
        fresh = max(key.translate(_LABELS_ONLY)[:-1], default=0) + 1
        full = label = 0
        free = 1 << nprev
        for j, bit in rel:
            c = codes[j]
            if c == FULL:
                full |= bit
            elif c == FREE:
                free |= bit
            else:
                label |= bit
        codes.append(FREE)
        required = (free & free_need) | (label & label_need)
        for m, edges in choices:
            if (m & full) or (required & ~m):
                continue  # a third edge, or a square left without the edges it needs
            work = codes[:]
            ends = ends0
            done = capped = False
            status = 0
            for x in edges:
                if x == CAP:
                    status, ends = _cap(work, nprev, new_end, ends, budget)
                    capped = True
                else:
                    status = 1 if one_end[x] and work[x] != FREE else _join(work, nprev, x, cycle, fresh)
                    if status == 2:
                        done, status = True, 0
                if status:
                    break
            if status or (new_end and work[nprev] == FULL and not capped):
                continue
            if departs:
                status, ends, done = _depart_all(work, departs, one_end, ends, budget, cycle, done)
                if status:
                    continue
            if done:
                if finish and work.count(FULL) == len(work):
                    finished += count
                continue
            if signs and ends == 2 and ends0 < 2 and balance2 != sum(
                    2 * s if c == FREE else 0 if c == FULL else s for s, c in zip(signs, work)):
                continue  # the second end of the tour has the first one's colour
            if not cycle and ends + list(map(work.__getitem__, single)).count(FREE) > budget:
                continue  # more squares that can only end the tour than ends left
            new = _pack(bytes(keep(work)), ends) if mirror is None else _fold(bytes(keep(work)),
                                                                              bytes(mirror(work)), ends)
            out[new] = out.get(new, 0) + count
    return out, finished


def finish_all(states: dict[bytes, int], nslots: int, cycle: bool) -> int:
    """The tours finished if every frontier square left now (as the kernel's ``finish_all``)."""
    total = 0
    for key, count in states.items():
        work, ends = _codes(key)
        status, _, done = _depart_all(work, range(nslots), [False] * nslots, ends, 2, cycle, False)
        if not status and done:
            total += count
    return total


def fits_one_limb(states: dict[bytes, int]) -> bool:
    """Whether every count fits the 64 bits of the kernels' first limb."""
    return max(states.values(), default=0) < 1 << 64


# -- the join (see chesstours.frontier.join and join_kernel) ---------------------------------------------------


def unfold(states: dict[bytes, int], image: list[int] | None) -> dict[bytes, int]:
    """A half kept one state of each mirror pair, each pair whole again (as ``join_kernel.unfold``)."""
    if image is None:
        return states
    out: dict[bytes, int] = {}
    for key, count in states.items():
        codes, ends = _codes(key)
        other = _pack(bytes(codes[i] for i in image), ends)
        if other == key:
            out[key] = out.get(key, 0) + count
            continue
        if count % 2:
            raise AssertionError("a state kept for a mirror pair has an odd count: the count is not symmetric")
        for k in (key, other):
            out[k] = out.get(k, 0) + count // 2
    return out


def _read(key: bytes, perm: list[int], mates: list[int]) -> tuple[int, list[int], int]:
    """The degrees of a state on the common places (two bits a place), the places where it has one edge (its
    fragment ends, in slot order), and its free ends used; ``mates`` (all -1 on the way in) gets the mates.

    ``mates[p]``: the other end of the fragment at place ``p``, ``p`` itself for a fragment running to an end of
    the tour (as ``join_kernel.read_state``).
    """
    codes, ends = _codes(key)
    degrees = 0
    ends_at = []
    first: dict[int, int] = {}
    for i, c in enumerate(codes):
        if c == FREE:
            continue
        p = perm[i]
        if c == FULL:
            degrees |= 2 << (2 * p)
            continue
        degrees |= 1 << (2 * p)
        ends_at.append(p)
        if c == ENDED:
            mates[p] = p
        elif c in first:
            q = first.pop(c)
            mates[p], mates[q] = q, p
        else:
            first[c] = p
    return degrees, ends_at, ends


def read_half(states: dict[bytes, int], nslots: int, perm: list[int], total_ends: int) -> dict[tuple[int, int], list]:
    """The indexed half: for each degree key a partner must have (with its free ends), its states' mates and counts."""
    index: dict[tuple[int, int], list] = {}
    twos = sum(2 << (2 * p) for p in range(nslots))  # two edges on every place
    for key, count in states.items():
        mates = [-1] * nslots
        degrees, _, ends = _read(key, perm, mates)
        index.setdefault((twos - degrees, total_ends - ends), []).append((mates, count))
    return index


def _one_cycle(ma: list[int], mb: list[int], start: int, k: int) -> bool:
    p, steps = start, 0
    while True:
        p = mb[ma[p]]
        steps += 1
        if p == start:
            return steps == k


def _one_path(ma: list[int], mb: list[int], start: int, on_b: bool, nends: int) -> bool:
    p, seen = start, 1
    while True:
        m = mb[p] if on_b else ma[p]
        if m == p:
            return seen == nends
        p = m
        seen += 1
        on_b = not on_b
        if seen > nends:
            return False


def join(states: dict[bytes, int], nslots: int, perm: list[int], cycle: bool,
         index: dict[tuple[int, int], list], look: Callable[[int], bool] | None = None) -> tuple[int, int]:
    """The tours made by the states of the streamed half with their partners in ``index``, and the pairs tried.

    Two states fit when their degrees add up to two on every place and their
    fragments, end to end, make one cycle (``cycle``) or one path through
    every fragment end (as ``join_kernel.join_states``). ``look``: as :func:`extend`'s.
    """
    total = tried = 0
    for seen, (key, count) in enumerate(states.items(), 1):
        if look is not None and seen % LOOK_EVERY == 0 and look(seen):
            raise Switch()
        ma = [-1] * nslots
        degrees, ends_at, ends = _read(key, perm, ma)
        run = index.get((degrees, ends))
        if not run or not ends_at:
            continue
        ends_at.sort()
        tried += len(run)
        nends = len(ends_at)
        mark = max((p for p in ends_at if ma[p] == p), default=-1)
        for mb, count_b in run:
            if cycle:
                ok = _one_cycle(ma, mb, ends_at[-1], nends // 2)
            elif mark >= 0:
                ok = _one_path(ma, mb, mark, True, nends)
            else:  # both ends of the tour are the indexed half's: start from one of its marks
                p = next((p for p in ends_at if mb[p] == p), -1)
                ok = p >= 0 and _one_path(ma, mb, p, False, nends)
            if ok:
                total += count * count_b
    return total, tried


# -- the allowance ------------------------------------------------------------------------------------------------

#: The file of the sweep's kernels and their names, to tell without numba whether they are compiled
#: (:func:`chesstours.machine.in_cache_folder`).
SWEEP_KERNELS = [("kernel.py", "kernel.expand"), ("table.py", "table.sort_batch"), ("table.py", "table.insert_run"),
                 ("table.py", "table.compact"), ("table.py", "table.rehash")]


def sweep_kernels_cached() -> bool:
    """Whether the sweep's kernels are all in numba's cache folder (read without loading numba)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return all(in_cache_folder(os.path.join(here, source), name) for source, name in SWEEP_KERNELS)


#: A count runs its first steps in plain Python only where the frontier method's forecast of its widest step
#: (:func:`~chesstours.frontier.sweep.estimate_states`) is at most this: 5x7 and 6x6 closed (170 and 260
#: thousand) end there, where 6x6 open (2.7 million forecast, 2.1 million states extended) would only keep this
#: process from compiling the join's kernels beside the sweep's.
PLAIN_FORECAST = 1_000_000
#: States a count extends in plain Python (some four seconds here) before the join's kernels start compiling beside
#: the sweep's: a count that ends within them never compiles them (5x7 open, 238 thousand states; 6x7 closed, 168
#: thousand). The count goes on in Python past them until the sweep's kernels are compiled.
PLAIN_STATES = 250_000
#: A meet in the middle forecast to extend more than this many states in all
#: (:func:`~chesstours.frontier.sweep.estimate_extended`) starts compiled, its join's kernels compiling beside from
#: the start: in Python it would only reach the join once the sweep's kernels were ready, and then wait for the
#: join's, which had started late. On an empty cache, three runs each: ``count 5x10`` (forecast 1.2 million, 1.1
#: million extended) took 14.9 to 19.9 s started compiled, 16.1 to 26.5 s in Python first; ``count 6x9 --closed``
#: (1.5 million) 17.2 to 20.7 s against 26.7 to 30.3. ``count 5x9`` (0.84 million forecast, 0.46 million extended)
#: and ``count 6x8 --closed`` (0.82, 0.44) ended sooner in Python first (11 to 14 s and 10 to 13 s, against 16 and
#: 19 s started compiled); since the join compiles in some 6 s instead of 11.5, both ways take 8 to 13 s, and
#: started compiled ``count 5x10`` takes 10 to 12 s, ``count 6x9 --closed`` 11 to 13 s.
PLAIN_EXTENDED = 1_000_000


@dataclass
class FrontierAllowance:
    """A frontier count's first steps in plain Python while its kernels compile in other processes.

    Made by :func:`allowance`, only where the sweep's kernels are not in the
    compile cache, this process has loaded none of them, and a process to
    compile them could be started (:func:`chesstours.machine.compile_in_background`
    runs :func:`chesstours.frontier.run.warm`). The count runs here while
    :meth:`lasts`: until the sweep's kernels are in the cache (it never
    waits idle for them). Once it has extended :data:`PLAIN_STATES` states
    here, or stops lasting, the modules of ``then`` (the join's kernels of a
    meet in the middle) start compiling too, unless they are in the cache: a
    small count that ends here never compiles them.
    """

    compiling: subprocess.Popen
    #: ``(module, (source, kernel))``: compiled once the count leaves Python, unless that kernel is cached.
    then: list[tuple[str, tuple[str, str]]] = field(default_factory=list)
    #: States extended here.
    states: int = 0
    later: list[subprocess.Popen] = field(default_factory=list)
    stopped: bool = False

    def take(self, states: int) -> None:
        """Record ``states`` extended here."""
        self.states += states

    def lasts(self, pending: int = 0) -> bool:
        """Whether the count goes on in plain Python for ``pending`` states more."""
        if not self.stopped and (self.compiling.poll() is not None or sweep_kernels_cached()):
            self.stopped = True
        if self.then and (self.stopped or self.states + pending > PLAIN_STATES):
            for module, kernel in self.then:
                process = compile_unless_cached(module, kernel)
                if process is not None:
                    self.later.append(process)
            self.then = []
        return not self.stopped

    def await_sweep(self, deadline: float | None) -> None:
        """Wait for the sweep's kernels to be in the cache (at most :data:`~chesstours.machine.COMPILE_WAIT`
        seconds, and until ``deadline``); if that process fails, they compile here."""
        until = time.perf_counter() + COMPILE_WAIT
        if deadline is not None:
            until = min(until, deadline)
        while self.compiling.poll() is None and not sweep_kernels_cached() and time.perf_counter() < until:
            time.sleep(0.02)

    def await_later(self, deadline: float | None) -> None:
        """Wait for the kernels of ``then`` (see :func:`~chesstours.machine.await_compiled`)."""
        for process in self.later:
            await_compiled(process, deadline)

    def close(self) -> None:
        """Stop the compiling processes if the count ends first (they leave nothing half-written)."""
        for process in [self.compiling, *self.later]:
            stop_compiling(process)


def allowance(forecast: float, then: list[tuple[str, tuple[str, str]]] | None = None,
              extended: float = 0.0) -> FrontierAllowance | None:
    """A :class:`FrontierAllowance` for a count starting now whose widest step is forecast at ``forecast``
    states, or None: its kernels run from the start. ``then``: as the allowance's; ``extended``: the states
    the whole count is forecast to extend, which for a meet in the middle (``then`` given) may be at most
    :data:`PLAIN_EXTENDED`."""
    large = forecast > PLAIN_FORECAST or (bool(then) and extended > PLAIN_EXTENDED)
    if large or compiled_below(0, 0, "chesstours.frontier.kernel") or sweep_kernels_cached():
        return None  # a large count; loaded here already, or this process runs compiled code only; or cached
    process = compile_in_background("chesstours.frontier.run")
    return None if process is None else FrontierAllowance(process, then=list(then or []))


# -- the steps of a sweep -----------------------------------------------------------------------------------------

#: Bytes a state takes here (its bytes, its count, its entry in a dict), for the memory watch.
STATE_BYTES = 160


def to_arrays(states: dict[bytes, int]) -> tuple:
    """The kernels' input of these states: their keys and their counts (one limb: :func:`fits_one_limb`)."""
    keys = np.fromiter((to_key(s) for s in states), np.uint64, len(states))
    counts = np.fromiter(states.values(), np.uint64, len(states))
    return keys, counts
