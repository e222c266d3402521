"""The meet in the middle's join in plain Python and numpy: a half indexed by the key its partners must have,
the other streamed against it, their fragments walked end to end on flat arrays (as the kernels of
:mod:`chesstours.frontier.join.kernel` do, one pair at a time).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..layout import ENDED
from ..plain import (
    BY_LABEL,
    LOOK_EVERY,
    PAIR_OF,
    PAIRS_AT_ONCE,
    States,
    Switch,
    degree_codes,
    labelled_codes,
    rows_at,
    widened,
)

__all__ = ["Half", "read_half", "join"]


@dataclass
class Half:
    """The indexed half of a join (:func:`read_half`): its states by the degree key a partner must have, in
    order, with their mates on the middle's places and their counts."""

    keys: np.ndarray
    mates: np.ndarray
    counts: np.ndarray


def _read(states: States, perm: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each state's degrees on the common places (two bits a place) and free ends used, as ``3 * degrees +
    ends``; its mates by place (the other end of the fragment at a place, the place itself for a fragment that
    runs to an end of the tour, -1 where the place has no fragment end; as ``join.kernel.read_state``); and the
    number of its fragment ends.

    The labels of a state here are canonical, ``1 .. k``, each on two slots: sorted by label, each row's
    slots fall in pairs, label ``L``'s two at ``2L - 2`` and ``2L - 1``, and a slot's mate is the sum of its
    pair less itself.
    """
    codes, ends = states.codes()
    codes = np.ascontiguousarray(codes)
    n, nslots = codes.shape
    place = np.asarray(perm, np.int64)
    degree = degree_codes(codes)
    width = nslots + (nslots & 1)  # an odd row gains a slot that sorts last
    by_label = np.full((n, width), 0xFF, np.uint8)
    by_label[:, :nslots] = BY_LABEL.take(codes) | np.arange(nslots, dtype=np.uint8)
    by_label.sort(axis=1)
    slot = by_label & np.uint8(15)
    mate = np.take_along_axis(slot[:, 0::2] + slot[:, 1::2], PAIR_OF.take(codes), axis=1) - np.arange(nslots,
                                                                                                   dtype=np.uint8)
    place_of = np.append(place, -1).astype(np.int8)  # -1: where an unlabelled slot's "mate" is sent
    by_slot = np.where(labelled_codes(codes), place_of[np.minimum(mate, nslots)],
                       np.where(codes == ENDED, place_of[:nslots], np.int8(-1)))
    mates = np.empty_like(by_slot)
    mates[:, place] = by_slot
    return 3 * (degree @ (np.int64(1) << (2 * place))) + ends, mates, (degree == 1).sum(axis=1)


def read_half(states: States, nslots: int, perm: list[int], total_ends: int) -> Half:
    """The indexed half: its states by the degree key a partner must have (with its free ends)."""
    keys, mates, _ = _read(states, perm)
    twos = sum(2 << (2 * p) for p in range(nslots))  # two edges on every place
    wanted = 3 * twos + total_ends - keys
    order = np.argsort(wanted, kind="stable")
    return Half(wanted[order], mates[order], states.counts[order])


def _ends_of(mates: np.ndarray, cycle: bool) -> tuple[np.ndarray, ...]:
    """What :func:`_fit` needs of each state, read once a state instead of once a pair: for a cycle, the last
    place with a fragment end; for a path, whether a fragment runs to an end of the tour at a place (its mate
    is itself), and the first and the last such place."""
    places = mates.shape[1]
    if cycle:
        return (places - 1 - np.argmax(mates[:, ::-1] >= 0, axis=1),)
    own = mates == np.arange(places, dtype=mates.dtype)
    return own.any(axis=1), np.argmax(own, axis=1), places - 1 - np.argmax(own[:, ::-1], axis=1)


def _fit(ma: np.ndarray, mb: np.ndarray, nends: np.ndarray, cycle: bool, ends_a: tuple[np.ndarray, ...],
         ends_b: tuple[np.ndarray, ...]) -> np.ndarray:
    """Whether the fragments of each pair of states (mates ``ma[i]``, ``mb[i]`` by place), end to end, make one
    cycle (``cycle``) or one path through all their ``nends[i]`` fragment ends (as the walks of ``join.kernel``);
    ``ends_a``, ``ends_b``: what :func:`_ends_of` reads of each pair's states.

    The pairs walk together, those still walking (``live``) a step at a time, each step on flat arrays.
    """
    pairs, places = ma.shape
    fits = np.zeros(pairs, bool)
    a, b = ma.ravel(), mb.ravel()
    if cycle:  # from the last place with an end, k turns of (a's mate, b's mate) first come back at turn k
        (start,) = ends_a
        turns = nends // 2
        live = np.flatnonzero(turns > 0)
        row, home, turns = live * places, start[live], turns[live]
        p, turn = home, 1
        while live.size:
            p = b[row + a[row + p]]
            back = p == home
            fits[live[back & (turns == turn)]] = True
            going = ~back & (turns > turn)
            live, row, p, home, turns = live[going], row[going], p[going], home[going], turns[going]
            turn += 1
        return fits
    # a path: from the last end of the tour on a's side, else from the first on b's
    own_a, _, last_a = ends_a
    own_b, first_b, _ = ends_b
    on_b = own_a  # the walk's next step is on b's side
    p = np.where(on_b, last_a, first_b)
    live = np.flatnonzero(own_a | own_b)
    row, p, on_b, need = live * places, p[live], on_b[live], nends[live]
    seen = 1
    while live.size:
        m = np.where(on_b, b[row + p], a[row + p])
        stop = m == p
        fits[live[stop & (need == seen)]] = True
        going = ~stop & (need > seen)
        live, row, p, on_b, need = live[going], row[going], m[going], ~on_b[going], need[going]
        seen += 1
    return fits


def join(states: States, perm: list[int], cycle: bool, index: Half,
         look: Callable[[int], bool] | None = None) -> tuple[int, int]:
    """The tours made by the states of the streamed half with their partners in ``index``, and the pairs tried.

    Two states fit when their degrees add up to two on every place and their
    fragments, end to end, make one cycle (``cycle``) or one path through
    every fragment end (as ``join.kernel.join_states``). ``look(states)``,
    asked before each part of at most :data:`LOOK_EVERY` states and
    :data:`PAIRS_AT_ONCE` pairs, stops the join (:class:`Switch`) when it
    says so.
    """
    if not len(states):
        return 0, 0
    keys, mates, nends = _read(states, perm)
    lo = np.searchsorted(index.keys, keys, "left")
    runs = np.where(nends > 0, np.searchsorted(index.keys, keys, "right") - lo, 0)
    bound = float(states.counts.max()) * float(index.counts.max(initial=0)) * max(1, int(runs.sum()))
    mine_ends, their_ends = _ends_of(mates, cycle), _ends_of(index.mates, cycle)
    mine_counts = widened(states.counts, bound)
    their_counts = index.counts.astype(mine_counts.dtype)
    total = s0 = 0
    while s0 < len(keys):
        if look is not None and look(s0):
            raise Switch()
        take = np.searchsorted(np.cumsum(runs[s0:s0 + LOOK_EVERY]), PAIRS_AT_ONCE, "right")
        s1 = s0 + max(1, int(take))
        mine = np.repeat(np.arange(s0, s1), runs[s0:s1])
        if mine.size:
            starts = np.cumsum(runs[s0:s1]) - runs[s0:s1]
            partner = lo[mine] + np.arange(mine.size) - np.repeat(starts, runs[s0:s1])
            ok = _fit(rows_at(mates, mine), rows_at(index.mates, partner), nends[mine], cycle,
                      tuple(x[mine] for x in mine_ends), tuple(x[partner] for x in their_ends))
            total += int((mine_counts[mine[ok]] * their_counts[partner[ok]]).sum())
        s0 = s1
    return total, int(runs.sum())
