"""One answer through every door: exists, find, list and count agree with a brute force and with each other.

Thousands of random small boards -- at most 16 free squares, random holes, the
knight and six other leapers (the wazir (0,1) and the ferz (1,1) among them),
open and closed tours, start and end squares fixed or free -- are each asked
the same question through :func:`~chesstours.tour_exists`,
:func:`~chesstours.find_tour`, :func:`~chesstours.iter_tours` and
:func:`~chesstours.count_tours`, and every answer is checked against an
exhaustive enumeration written here from first principles (no move table, no
pruning, no symmetry).

"Free" means the same thing everywhere: without a start square, any square;
without an end square, any square.
"""

from __future__ import annotations

import random
from collections import defaultdict
from itertools import islice

import pytest

import chesstours as ct

#: The leapers drawn: the knight, the wazir and the ferz (one step, straight and diagonal), the dabbaba,
#: the alfil, the camel and the zebra.
LEAPS = [(1, 2), (0, 1), (1, 1), (0, 2), (2, 2), (1, 3), (2, 3)]
WEIGHTS = [6, 4, 1, 1, 1, 1, 2]
BATCHES = 25
BOARDS_A_BATCH = 80
#: Tours listed one by one and compared with the count, up to this many.
LIST_UP_TO = 3000


class Brute:
    """Every directed Hamiltonian path of a leaper graph, by plain depth-first enumeration."""

    def __init__(self, rows: int, cols: int, holes: set[int], a: int, b: int):
        self.free = [v for v in range(rows * cols) if v not in holes]
        n = len(self.free)
        index = {v: i for i, v in enumerate(self.free)}
        steps = {(da, db) for x, y in ((a, b), (b, a)) for da in (x, -x) for db in (y, -y)}
        self.adj = [0] * n
        for v in self.free:
            r, c = divmod(v, cols)
            for dr, dc in steps:
                if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr) * cols + c + dc in index:
                    self.adj[index[v]] |= 1 << index[(r + dr) * cols + c + dc]
        self.pairs: dict[tuple[int, int], int] = defaultdict(int)  # (start, end) -> directed paths
        full = (1 << n) - 1

        def walk(i: int, seen: int, start: int) -> None:
            if seen == full:
                self.pairs[self.free[start], self.free[i]] += 1
                return
            left = self.adj[i] & ~seen
            while left:
                low = left & -left
                walk(low.bit_length() - 1, seen | low, start)
                left ^= low

        for s in range(n):
            walk(s, 1 << s, s)
        self.index = index

    def adjacent(self, u: int, v: int) -> bool:
        return bool(self.adj[self.index[u]] >> self.index[v] & 1)

    def counts(self, closed: bool, s: int | None, e: int | None) -> tuple[int, int]:
        """(directed, undirected) in the library's conventions."""
        pairs = [(x, y, k) for (x, y), k in self.pairs.items()
                 if (s is None or x == s) and (e is None or y == e) and (not closed or self.adjacent(x, y))]
        total = sum(k for _, _, k in pairs)
        if closed:
            cycles = total // (2 * len(self.free)) if s is None and e is None else total // 2
            return (total, total) if s is not None and e is not None else (2 * cycles, cycles)
        return total, (total // 2 if s is None and e is None else total)


def independent_check(brute: Brute, path: list[int], closed: bool) -> None:
    """The path visits every free square once, each step is a leap, and a closed one leaps back."""
    assert sorted(path) == brute.free
    assert all(brute.adjacent(u, v) for u, v in zip(path, path[1:]))
    assert not closed or brute.adjacent(path[-1], path[0])


def draw(rng: random.Random):
    """A random board of 3 to 16 free squares and a leaper.

    Most boards are at least 3 wide with few holes, and the knight and the
    wazir are drawn most, so that a good share of the queries have tours.
    """
    while True:
        rows, cols = sorted((rng.randint(1, 6), rng.randint(2, 6)))
        if rng.random() < 0.8:
            rows = max(rows, 3)
        squares = rows * cols
        most = max(0, squares - 3)
        least = max(0, squares - 16)
        count = least + (rng.randint(0, min(2, most - least)) if rng.random() < 0.7 else rng.randint(0, most - least))
        holes = set(rng.sample(range(squares), count))
        if 3 <= squares - len(holes) <= 16:
            return ct.Board(rows, cols, holes), ct.Leaper(*rng.choices(LEAPS, weights=WEIGHTS)[0])


def queries(rng: random.Random, board: ct.Board, brute: Brute) -> list[tuple[bool, int | None, int | None]]:
    """Four queries, two open and two closed, each end fixed or free: the fixed ends of random squares,
    or (half the time, where there are tours) the ends of a tour, so that many queries have an answer."""
    free = board.free_squares.tolist()
    out = []
    for closed in (False, True, False, True):
        ends = sorted((x, y) for x, y in brute.pairs if not closed or brute.adjacent(x, y))
        if ends and rng.random() < 0.5:
            s, e = rng.choice(ends)
        else:
            s = rng.choice(free)
            e = rng.choice([v for v in free if v != s])
        out.append((closed, rng.choice([None, s]), rng.choice([None, e])))
    return out


def check_query(board: ct.Board, piece: ct.Leaper, brute: Brute, closed: bool, s: int | None, e: int | None):
    what = f"{board} {piece.name} closed={closed} start={s} end={e}"
    directed, undirected = brute.counts(closed, s, e)

    count = ct.count_tours(board, s, e, closed, piece)
    assert (count.directed, count.undirected) == (directed, undirected), what

    exists = ct.tour_exists(board, s, e, closed, piece, certificate=True)
    assert exists.answer is (directed > 0), what
    if exists.answer:
        independent_check(brute, exists.certificate.path.tolist(), closed)

    if directed:
        tour = ct.find_tour(board, s, e, closed, piece)
        path = tour.path.tolist()
        independent_check(brute, path, closed)
        assert tour.closed == closed and (s is None or path[0] == s) and (e is None or path[-1] == e), what
    else:
        with pytest.raises(ct.NoTour) as no:
            ct.find_tour(board, s, e, closed, piece)
        assert no.value.proof != "heuristic", what

    if directed <= LIST_UP_TO:
        listed = [t.path.tolist() for t in islice(ct.iter_tours(board, s, e, closed, piece), LIST_UP_TO + 1)]
        assert len(listed) == (undirected if closed else directed), what
        for path in listed[:50]:
            independent_check(brute, path, closed)
            assert (s is None or path[0] == s) and (e is None or path[-1] == e), what
        assert len({tuple(p) for p in listed}) == len(listed), what


@pytest.mark.parametrize("batch", range(BATCHES))
def test_every_door_gives_the_brute_force_answer_on_random_small_boards(batch):
    for board, piece, brute, asked in drawn(batch):
        for closed, s, e in asked:
            check_query(board, piece, brute, closed, s, e)


def drawn(batch: int):
    """The boards, leapers, brute forces and queries of one batch (the same on every run)."""
    rng = random.Random(1000 + batch)
    made = 0
    while made < BOARDS_A_BATCH:
        board, piece = draw(rng)
        brute = Brute(board.rows, board.cols, set(board.holes), piece.a, piece.b)
        if not brute.pairs and rng.random() < 0.7:
            continue  # most small boards have no tour at all: keep a third of those
        made += 1
        yield board, piece, brute, queries(rng, board, brute)


def test_the_draw_covers_what_it_claims():
    everything = [item for batch in range(BATCHES) for item in drawn(batch)]
    assert len(everything) >= 2000
    assert {piece.leap for _, piece, _, _ in everything} == set(LEAPS)
    assert any(board.holes for board, *_ in everything) and max(board.free_count for board, *_ in everything) == 16
    kinds = {(closed, s is None, e is None, brute.counts(closed, s, e)[0] > 0)
             for _, _, brute, asked in everything for closed, s, e in asked}
    assert len(kinds) == 16  # open and closed, each end fixed or free, with tours and without
    answered = sum(brute.counts(*q)[0] > 0 for _, _, brute, asked in everything for q in asked)
    assert answered > 0.15 * 4 * len(everything)  # a sixth of the questions have tours to find, count and list


def test_the_brute_force_knows_the_5x5_facts():
    brute = Brute(5, 5, set(), 1, 2)
    assert brute.counts(False, None, None) == (1728, 864)
    assert brute.counts(False, 0, None) == (304, 304)
    assert brute.counts(True, None, None) == (0, 0)
    assert Brute(3, 4, set(), 1, 2).counts(False, None, None) == (16, 8)
