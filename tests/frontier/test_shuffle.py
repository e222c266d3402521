"""The join's test for one cycle in byte shuffles agrees with walking the fragments, and the join agrees with or
without it; a state's key made in byte shuffles is the one made slot by slot."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from chesstours import Board
from chesstours.frontier import frontier_count
from chesstours.frontier import shuffle_kernel as shuffle
from chesstours.frontier.join import kernel as jk
from chesstours.pieces import KNIGHT
from chesstours.runtime import use_compiled_only


@njit(cache=False)
def _both(ma, mb, active, paths=False):
    """The cycles of B o A by shuffles (closed: three doublings; ``paths``, open: four), and by walks."""
    a_lo, a_hi, fixed_lo, fixed_hi = shuffle.spread(ma, active)
    shuffled = (shuffle.paths_of(a_lo, a_hi, mb, fixed_lo, fixed_hi, active) if paths
                else shuffle.cycles_of(a_lo, a_hi, mb, fixed_lo, fixed_hi, active))
    return shuffled, shuffle.cycles_walked(a_lo, a_hi, mb, fixed_lo, fixed_hi, active)


def _pack(mates: dict[int, int]) -> int:
    return sum(m << (4 * p) for p, m in mates.items())


@njit(cache=False)
def _walk_one_cycle(ma, mb, start, k):
    return jk.one_cycle(ma, mb, start, k)


def _pair_up(ends, word, own=0):
    """``word`` with the places ``ends`` paired in their order (the first ``own`` their own mates), the other
    nibbles as they were."""
    for p in ends:
        word &= ~(15 << (4 * p))
    for p in ends[:own]:
        word |= p << (4 * p)
    rest = ends[own:]
    for x, y in zip(rest[0::2], rest[1::2]):
        word |= y << (4 * x) | x << (4 * y)
    return word


@st.composite
def _fragments(draw, tour_ends=False):
    """Fragment ends on sixteen places and two halves' fragments, packed four bits a place, the other places'
    nibbles left random (the kernels must not read them). ``tour_ends``: some fragments run to an end of the
    tour (their place its own mate), the others pair up; else all pair up (an even number of ends)."""
    ends = draw(st.lists(st.integers(0, 15), min_size=1 if tour_ends else 2, max_size=16, unique=True))
    if not tour_ends:
        ends = ends[: len(ends) // 2 * 2]
    words = []
    for _ in range(2):
        order = draw(st.permutations(ends))
        own = draw(st.integers(0, len(order))) if tour_ends else 0
        if (len(order) - own) % 2:  # the others in pairs
            own += 1 if own < len(order) else -1
        words.append(_pair_up(order, draw(st.integers(0, 2**64 - 1)), own))
    return ends, words[0], words[1]


def _union_cycles(ends, ma, mb):
    """The cycles of the two matchings end to end, counted in plain Python."""
    mate = [lambda p, w=w: (w >> (4 * p)) & 15 for w in (ma, mb)]
    seen, cycles = set(), 0
    for first in ends:
        if first in seen:
            continue
        cycles += 1
        p, side = first, 0
        while p not in seen or side:
            seen.add(p)
            p, side = mate[side](p), 1 - side
    return cycles


def _one_path(ends, ma, mb):
    """Whether the fragments of both halves, end to end, make one path through every place (plain Python)."""
    edges = {(side, frozenset((p, (w >> (4 * p)) & 15))) for side, w in enumerate((ma, mb)) for p in ends
             if (w >> (4 * p)) & 15 != p}  # each half's pairs: the same pair in both halves is a cycle
    parent = {p: p for p in ends}

    def root(p):
        while parent[p] != p:
            p = parent[p]
        return p

    for _, edge in edges:
        x, y = tuple(edge)
        if root(x) == root(y):
            return False  # a cycle
        parent[root(x)] = root(y)
    return len({root(p) for p in ends}) == 1


def test_a_path_through_nine_places_is_one_cycle_of_nine():
    """6 -B- 2 -A- 7 -B- 3 -A- 4 -B- 8 -A- 1 -B- 5 -A- 0, ending on 6 in A and on 0 in B (a pair of 5x6 open
    that three doublings, enough for closed counts, left at two cycles)."""
    a = _pack({0: 5, 1: 8, 2: 7, 3: 4, 4: 3, 5: 0, 6: 6, 7: 2, 8: 1})
    b = _pack({0: 0, 1: 5, 2: 6, 3: 7, 4: 8, 5: 1, 6: 2, 7: 3, 8: 4})
    assert _one_path(list(range(9)), a, b)
    assert _both(np.uint64(a), np.uint64(b), np.uint64(0x1FF), True) == (1, 1)


@settings(max_examples=200, deadline=None)
@given(st.permutations(list(range(16))), st.integers(1, 16), st.booleans())
def test_every_path_through_the_places_is_one_cycle_of_b_after_a(order, length, b_first):
    """A path laid along ``order[:length]``, its pairs alternately the halves', each end its own mate in the half
    that has no pair there."""
    path = order[:length]
    mates: list[dict[int, int]] = [{}, {}]
    side = int(b_first)
    for x, y in zip(path, path[1:]):
        mates[side][x], mates[side][y] = y, x
        side = 1 - side
    for p in path:
        for half in mates:
            half.setdefault(p, p)
    a, b = _pack(mates[0]), _pack(mates[1])
    assert _one_path(path, a, b)
    assert _both(np.uint64(a), np.uint64(b), np.uint64(sum(1 << p for p in path)), True) == (1, 1)


@settings(max_examples=400, deadline=None)
@given(_fragments(tour_ends=True))
def test_one_cycle_of_b_after_a_is_one_path_of_the_fragments(case):
    ends, ma, mb = case
    active = sum(1 << p for p in ends)
    shuffled, walked = _both(np.uint64(ma), np.uint64(mb), np.uint64(active), True)
    assert shuffled == walked
    assert (shuffled == 1) == _one_path(ends, ma, mb)


@settings(max_examples=400, deadline=None)
@given(_fragments())
def test_the_cycles_of_b_after_a_are_twice_the_cycles_of_the_fragments(case):
    ends, ma, mb = case
    active = sum(1 << p for p in ends)
    shuffled, walked = _both(np.uint64(ma), np.uint64(mb), np.uint64(active))
    assert shuffled == walked == 2 * _union_cycles(ends, ma, mb)
    one = _walk_one_cycle(np.uint64(ma), np.uint64(mb), ends[-1], len(ends) // 2)
    assert one == (shuffled == 2)


@njit(cache=False)
def _two(ma, mb0, mb1, active, paths):
    """The cycles of ``B0 o A`` and ``B1 o A`` in one 32-byte shuffle (AVX2), and one partner at a time."""
    a_lo, a_hi, fixed_lo, fixed_hi = shuffle.spread(ma, active)
    if paths:
        both = shuffle.paths2_of(a_lo, a_hi, mb0, mb1, fixed_lo, fixed_hi, active)
        return both, shuffle.paths_of(a_lo, a_hi, mb0, fixed_lo, fixed_hi, active), shuffle.paths_of(
            a_lo, a_hi, mb1, fixed_lo, fixed_hi, active)
    both = shuffle.cycles2_of(a_lo, a_hi, mb0, mb1, fixed_lo, fixed_hi, active)
    return both, shuffle.cycles_of(a_lo, a_hi, mb0, fixed_lo, fixed_hi, active), shuffle.cycles_of(
        a_lo, a_hi, mb1, fixed_lo, fixed_hi, active)


def _on_the_same_ends(first, second, paths):
    """The ends and two words of ``first``, and a third word of ``second`` paired on the same ends (closed: an
    even number of ends, all paired up; none left: None)."""
    ends, w0, w1 = first
    if not paths:  # closed: every end pairs up
        ends = ends[: len(ends) // 2 * 2]
        if not ends:
            return None
        w0, w1 = (_pair_up(ends, w) for w in (w0, w1))
    w2 = _pair_up(ends, second[2]) if not paths else _pair_up(ends, second[2], own=len(ends) % 2)
    return ends, w0, w1, w2


def _each_as_alone(ends, pairs, one, other, paths):
    """Whether the counts ``one`` and ``other`` of the two pairs of words are those counted in plain Python."""
    expected = [_one_path(ends, a, b) if paths else 2 * _union_cycles(ends, a, b) for a, b in pairs]
    return ([one == 1, other == 1] if paths else [one, other]) == expected


@settings(max_examples=400, deadline=None)
@given(_fragments(tour_ends=True), _fragments(tour_ends=True), st.booleans())
def test_two_partners_a_shuffle_count_what_each_counts_alone(first, second, paths):
    """The second partner takes the first's fragment ends (a run of partners shares them), its own pairing."""
    case = _on_the_same_ends(first, second, paths)
    if case is None:
        return
    ends, ma, mb0, mb1 = case
    active = np.uint64(sum(1 << p for p in ends))
    both, one, other = _two(np.uint64(ma), np.uint64(mb0), np.uint64(mb1), active, paths)
    assert both == one | other << 8
    assert _each_as_alone(ends, [(ma, mb0), (ma, mb1)], one, other, paths)


@njit(cache=False)
def _two_states(ma0, ma1, mb, active, paths):
    """The cycles of ``B o A0`` and ``B o A1`` in one 32-byte shuffle (AVX2), by walks, and one state at a time."""
    x_lo, x_hi, fixed_lo, fixed_hi = shuffle.spread(ma0, active)
    y_lo, y_hi, _, _ = shuffle.spread(ma1, active)
    if paths:
        both = shuffle.paths_two_of(x_lo, x_hi, y_lo, y_hi, mb, fixed_lo, fixed_hi, active)
        one = shuffle.paths_of(x_lo, x_hi, mb, fixed_lo, fixed_hi, active)
        other = shuffle.paths_of(y_lo, y_hi, mb, fixed_lo, fixed_hi, active)
    else:
        both = shuffle.cycles_two_of(x_lo, x_hi, y_lo, y_hi, mb, fixed_lo, fixed_hi, active)
        one = shuffle.cycles_of(x_lo, x_hi, mb, fixed_lo, fixed_hi, active)
        other = shuffle.cycles_of(y_lo, y_hi, mb, fixed_lo, fixed_hi, active)
    return both, shuffle.cycles_two_walked(x_lo, x_hi, y_lo, y_hi, mb, fixed_lo, fixed_hi, active), one, other


@settings(max_examples=400, deadline=None)
@given(_fragments(tour_ends=True), _fragments(tour_ends=True), st.booleans())
def test_two_states_against_one_partner_count_what_each_counts_alone(first, second, paths):
    """The second state takes the first's fragment ends (the states of one degree key share them), its own
    pairing."""
    case = _on_the_same_ends(first, second, paths)
    if case is None:
        return
    ends, ma0, mb, ma1 = case
    active = np.uint64(sum(1 << p for p in ends))
    both, walked, one, other = _two_states(np.uint64(ma0), np.uint64(ma1), np.uint64(mb), active, paths)
    assert both == walked == one | other << 8
    assert _each_as_alone(ends, [(ma0, mb), (ma1, mb)], one, other, paths)


def test_spread_lays_out_a_byte_a_place():
    mates = sum(((p * 7 + 3) % 16) << (4 * p) for p in range(16))
    active = 0b1010_0110_1100_0011
    lo, hi, fixed_lo, fixed_hi = shuffle.spread(np.uint64(mates), np.uint64(active))
    laid = int(lo).to_bytes(8, "little") + int(hi).to_bytes(8, "little")
    fixed = int(fixed_lo).to_bytes(8, "little") + int(fixed_hi).to_bytes(8, "little")
    assert list(laid) == [(p * 7 + 3) % 16 if active >> p & 1 else p for p in range(16)]
    assert list(fixed) == [0 if active >> p & 1 else p for p in range(16)]


def test_this_machine_shuffles_where_numba_compiles_for_an_x86_processor_with_ssse3():
    import platform

    from llvmlite import binding

    x86 = platform.machine().lower() in ("x86_64", "amd64")
    assert shuffle.SHUFFLE == (x86 and bool(binding.get_host_cpu_features().get("ssse3")))


def test_two_partners_a_shuffle_where_the_processor_has_avx2():
    from llvmlite import binding

    assert shuffle.SHUFFLE_TWO == (shuffle.SHUFFLE and bool(binding.get_host_cpu_features().get("avx2")))


@pytest.fixture
def compiled_only():
    """Every step of the counts in compiled code, small boards too, whatever ran before in this process."""
    use_compiled_only()
    yield
    use_compiled_only(False)


@pytest.mark.skipif(not shuffle.SHUFFLE, reason="the join walks on this processor already")
def test_the_join_counts_the_same_by_walks(monkeypatch, compiled_only):
    """The kernel compiled without the shuffles (as on a processor without them), or with one partner a shuffle
    (without AVX2), counts what it counts with two."""
    cases = [((6, 7), True), ((6, 8), True), ((5, 8), False), ((6, 6), False)]
    shuffled = [frontier_count(Board(*size), KNIGHT, closed).count for size, closed in cases]
    kernel = jk.join_states.py_func
    monkeypatch.setattr(jk, "SHUFFLE_TWO", False)
    monkeypatch.setattr(jk, "join_states", njit(nogil=True)(kernel))  # compiled anew, one partner a shuffle
    one_a_shuffle = [frontier_count(Board(*size), KNIGHT, closed).count for size, closed in cases]
    assert jk.join_states.signatures
    monkeypatch.setattr(jk, "SHUFFLE", False)
    monkeypatch.setattr(jk, "join_states", njit(nogil=True)(kernel))  # compiled anew, walking
    walked = [frontier_count(Board(*size), KNIGHT, closed).count for size, closed in cases]
    assert jk.join_states.signatures  # the walking kernel joined them
    assert walked == one_a_shuffle == shuffled == [1_067_638, 55_488_142, 18_061_054, 3_318_960]


@pytest.mark.skipif(not shuffle.SHUFFLE_TWO, reason="the join tiles its states only with AVX2")
def test_the_join_counts_the_same_in_small_tiles_and_blocks(monkeypatch, compiled_only):
    """States of one degree key go against their run in tiles and blocks (join_kernel.join_group): with tiles of
    five states and blocks of seven partners, every way a tile and a block end is met (four states at a time, two,
    one; a run cut in blocks), and the counts stay."""
    cases = [((6, 7), True), ((6, 8), True), ((5, 8), False), ((6, 6), False)]
    monkeypatch.setattr(jk, "TILE_STATES", 5)
    monkeypatch.setattr(jk, "BLOCK", 7)
    monkeypatch.setattr(jk, "join_group", njit(jk.join_group.py_func))
    monkeypatch.setattr(jk, "join_states", njit(nogil=True)(jk.join_states.py_func))
    counts = [frontier_count(Board(*size), KNIGHT, closed).count for size, closed in cases]
    assert jk.join_states.signatures and jk.join_group.signatures  # these joined them
    assert counts == [1_067_638, 55_488_142, 18_061_054, 3_318_960]


def _key_slot_by_slot(codes: list[int], ends: int) -> int:
    """A state's key from its work codes, in plain Python: the labels renumbered 1, 2, 3 ... where each is first
    met, ``ENDED`` and ``FULL`` packed as 9 and 10 (see :mod:`chesstours.frontier.kernel`)."""
    from chesstours.frontier.layout import ENDED, FREE, FULL, PACKED_ENDED, PACKED_FULL, RADIX

    new: dict[int, int] = {FREE: 0, ENDED: PACKED_ENDED, FULL: PACKED_FULL}
    key = ends
    for i, c in enumerate(codes):
        if c not in new:
            new[c] = sum(1 for x in new if x not in (FREE, ENDED, FULL)) + 1
        key += new[c] * 3 * RADIX**i
    return key


@njit(cache=False)
def _shuffled_key(lo, hi, ends):
    return shuffle.canonical_key(lo, hi, ends)


@pytest.mark.skipif(not shuffle.SHUFFLE, reason="no byte shuffles on this processor: keys are made slot by slot")
@settings(max_examples=400, deadline=None)
@given(st.integers(1, 16), st.integers(0, 2), st.data())
def test_a_key_made_in_byte_shuffles_is_the_key_made_slot_by_slot(n, ends, data):
    """Labels of any work value (1 to MAX_LABEL, as a step leaves them before they are renumbered), each on two
    slots, among free, ended and full slots."""
    from chesstours.frontier import kernel as fk
    from chesstours.frontier.layout import ENDED, FREE, FULL, MAX_LABEL

    codes = [data.draw(st.sampled_from([FREE, ENDED, FULL])) for _ in range(n)]
    order = data.draw(st.permutations(range(n)))
    values = data.draw(st.permutations(range(1, MAX_LABEL + 1)))
    for k in range(data.draw(st.integers(0, min(8, n // 2)))):
        codes[order[2 * k]] = codes[order[2 * k + 1]] = values[k]
    work = np.array(codes + [FREE] * (34 - n), np.int64)
    expected = _key_slot_by_slot(codes, ends)
    lo, hi = (np.uint64(int.from_bytes(bytes(codes[k:k + 8]), "little")) for k in (0, 8))  # a byte a slot
    assert _shuffled_key(lo, hi, np.uint64(ends)) == expected
    assert fk.pack_at(work, np.arange(n, dtype=np.int64), 0, n, ends) == expected


@pytest.mark.skipif(not shuffle.SHUFFLE, reason="the sweep makes its keys slot by slot on this processor already")
def test_the_sweep_counts_the_same_with_keys_made_slot_by_slot(monkeypatch):
    """The sweep's kernel compiled without the shuffles (as on a processor without SSSE3) makes the same states:
    the same counts, with and without the mirror, open and closed, through the join and without it."""
    from chesstours.frontier import kernel as fk

    cases = [((6, 7), True, None), ((5, 8), False, None), ((6, 6), False, False), ((5, 6), True, False)]
    counts = [frontier_count(Board(*size), KNIGHT, closed, halves=halves).count for size, closed, halves in cases]
    monkeypatch.setattr(fk, "SHUFFLE", False)
    monkeypatch.setattr(fk, "expand", njit(nogil=True)(fk.expand.py_func))  # compiled anew, slot by slot
    by_slots = [frontier_count(Board(*size), KNIGHT, closed, halves=halves).count for size, closed, halves in cases]
    assert "pmaddubsw" not in fk.expand.inspect_asm(fk.expand.signatures[0])  # made slot by slot: no shuffles
    assert by_slots == counts == [1_067_638, 18_061_054, 3_318_960, 8]
