"""Find the base tours of the construction by search and write them as package data.

Run once when the construction changes (a few minutes)::

    python scripts/make_base_tours.py            # writes src/chesstours/construct/base_tours.npz

Every piece is a Hamiltonian path of a small graph, found by the package's own
backtracking search (:class:`chesstours.backtrack.search.Search`, complete
and with pruning) on a move table built here:

* an edge that a piece must contain is *subdivided*: the two squares are joined
  only through a new square that cannot end the path, so the path goes through it;
* a strip piece's paths that leave it and come back (or the K lanes of a lane
  piece) are joined into one path by *virtual* squares, each joined to the two
  ports it links.

The search runs first in the fixed move order, then with shuffled orders to
reach different tours, each run with a budget of positions. What it finds is
checked by ``tests/test_construct_data.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from chesstours.backtrack.search import Search
from chesstours.construct.data import (
    BLOCK_SIDES,
    EDGE_NAMES,
    HOP,
    STRIP_INTERFACES,
    STRIP_PAIRING,
    BaseTours,
    Kind,
    block_edges,
)

KNIGHT_MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
OUT = Path(__file__).resolve().parent.parent / "src" / "chesstours" / "construct" / "base_tours.npz"


def knight_graph(h: int, w: int) -> list[list[int]]:
    adj = []
    for r in range(h):
        for c in range(w):
            adj.append([(r + dr) * w + c + dc for dr, dc in KNIGHT_MOVES
                        if 0 <= r + dr < h and 0 <= c + dc < w])
    return adj


def hamiltonian_path(h, w, prefix, *, end=None, ends=None, forced=(), virtual=(), want=None,
                     budget=300_000, tries=12, seed=0):
    """A Hamiltonian path of the h x w knight graph (plus joins) starting with ``prefix``.

    ``forced``: square pairs the path must join by a knight move; ``virtual``:
    square pairs joined by a virtual square (HOP in the result). Returns the
    path (virtual squares as HOP, subdivisions dropped), or None.
    """
    n = h * w
    adj = [list(a) for a in knight_graph(h, w)]
    extra = []
    for a, b in virtual:
        v = n + len(extra)
        extra.append(("virtual", a, b))
        adj.append([a, b])
        adj[a].append(v)
        adj[b].append(v)
    for a, b in forced:
        if b not in adj[a]:
            return None
        v = n + len(extra)
        extra.append(("forced", a, b))
        adj[a] = [x for x in adj[a] if x != b] + [v]
        adj[b] = [x for x in adj[b] if x != a] + [v]
        adj.append([a, b])
    size = len(adj)
    k = max(len(a) for a in adj)
    rng = np.random.default_rng(seed)
    allowed = list(range(n)) if ends is None else list(ends)
    for attempt in range(tries):
        table = np.full((size, k), -1, dtype=np.int32)
        for v, a in enumerate(adj):
            order = list(a)
            if attempt:
                rng.shuffle(order)
            table[v, : len(order)] = order
        search = Search(table, list(prefix), end=end, end_squares=None if end is not None else allowed,
                        order="warnsdorff" if attempt % 2 == 0 else "fixed")
        found_any = False
        while search.nodes < budget:
            status = search.run(budget=budget - search.nodes, stop_at_tour=True)
            if status == "found":
                found_any = True
                path = [int(v) for v in search.path()]
                out = [v if v < n else HOP for v in path if v < n or extra[v - n][0] == "virtual"]
                if want is None or want(out):
                    return out
            else:
                break
        if attempt == 0 and not found_any and search.done:
            return None  # proved: no such path at all
    return None


def sq(rc, w):
    return rc[0] * w + rc[1]


def edges_in(path, h, w) -> int:
    """Bit mask of the joining edges the path (or cycle, closing edge included) uses."""
    real = [v for v in path if v != HOP]
    pairs = {frozenset(p) for p in zip(real, real[1:])}
    mask = 0
    for name, (a, b) in block_edges(h, w).items():
        if frozenset((sq(a, w), sq(b, w))) in pairs:
            mask |= 1 << EDGE_NAMES.index(name)
    return mask


# -- blocks ----------------------------------------------------------------------


def block_cycles(h, w, log):
    """Closed tours of an h x w block with the joining edge X, Y or both (F and T come free)."""
    e = block_edges(h, w)
    x, y = e["X"], e["Y"]
    nbrs = knight_graph(h, w)
    out = []
    # Both X and Y: the cycle runs (0,3) -> (1,1) -> (3,0) -> ... -> back to (0,3).
    a, m, b = sq(y[1], w), sq(x[0], w), sq(x[1], w)
    path = hamiltonian_path(h, w, [a, m, b], ends=[v for v in nbrs[a] if v != m])
    if path is not None:
        out.append(path)
    else:
        for first, second in ((x[0], x[1]), (y[0], y[1])):
            p, q = sq(first, w), sq(second, w)
            path = hamiltonian_path(h, w, [p, q], ends=[v for v in nbrs[p] if v != q])
            if path is None:
                log(f"  no closed tour of {h}x{w} with edge {first}-{second}")
            else:
                out.append(path)
    return [(Kind.CYCLE, h, w, -1, edges_in(p + p[:1], h, w), p) for p in out]


PATH_TARGETS = ("XYFT", "XF", "YFT", "X", "YF", "FT", "YT", "F", "Y", "T", "")


def block_paths(h, w, log):
    """Open tours of an odd x odd block from each square of the corners' colour, with joining edges."""
    e = block_edges(h, w)
    out = []
    for s in range(h * w):
        r, c = divmod(s, w)
        if (r + c) % 2:
            continue
        have: list[int] = []
        for target in PATH_TARGETS:
            mask = sum(1 << EDGE_NAMES.index(t) for t in target)
            if any(m & mask == mask for m in have):
                continue
            forced = [(sq(e[t][0], w), sq(e[t][1], w)) for t in target]
            path = hamiltonian_path(h, w, [s], forced=forced, seed=s)
            if path is not None:
                got = edges_in(path, h, w)
                have.append(got)
                out.append((Kind.PATH, h, w, s, got, path))
        if not have:
            log(f"  no open tour of {h}x{w} from {(r, c)}")
    return out


# -- strips ----------------------------------------------------------------------


def split(path):
    parts, cur = [], []
    for v in path:
        if v == HOP:
            parts.append(cur)
            cur = []
        else:
            cur.append(v)
    parts.append(cur)
    return parts


def ports(h, width):
    """(left ports, right ports) of a strip piece: the squares the interface moves touch."""
    iface = STRIP_INTERFACES[h]
    left = [v for _u, v in iface]
    right = [(u[0], width + u[1]) for u, _v in iface]
    return left, right


def strip_lane(h, p):
    left, right = ports(h, p)
    if len({*left, *right}) < 2 * len(left) or max(c for _, c in left) >= p:
        return None
    L = [sq(x, p) for x in left]
    R = [sq(x, p) for x in right]
    k = len(L)
    virtual = [(R[i], L[i + 1]) for i in range(k - 1)]

    def want(path):
        return all(seg[0] == L[i] and seg[-1] == R[i] for i, seg in enumerate(split(path)))

    path = hamiltonian_path(h, p, [L[0]], end=R[-1], virtual=virtual, want=want)
    return None if path is None else (Kind.LANE, h, p, -1, 0, path)


def strip_cap(h, c, side):
    left, right = ports(h, c)
    at = right if side == "left" else left
    if min(x[1] for x in at) < 0 or max(x[1] for x in at) >= c or len(set(at)) < len(at):
        return None
    P = [sq(x, c) for x in at]
    pairs = STRIP_PAIRING[h]
    virtual = [(P[pairs[i][1]], P[pairs[i + 1][0]]) for i in range(len(pairs) - 1)]

    def want(path):
        return all(seg[0] == P[a] and seg[-1] == P[b] for seg, (a, b) in zip(split(path), pairs))

    path = hamiltonian_path(h, c, [P[pairs[0][0]]], end=P[pairs[-1][1]], virtual=virtual, want=want)
    kind = Kind.CAP_LEFT if side == "left" else Kind.CAP_RIGHT
    return None if path is None else (kind, h, c, -1, 0, path)


def strip_starts(h, q, variant):
    """Pieces holding the start: a path from each square, leaving through the ports and coming back."""
    left, right = ports(h, q)
    virtual = []
    if variant in (Kind.START_MID, Kind.START_RIGHT):
        virtual += [(sq(left[a], q), sq(left[b], q)) for a, b in STRIP_PAIRING[h]]
    if variant in (Kind.START_MID, Kind.START_LEFT):
        virtual += [(sq(right[a], q), sq(right[b], q)) for a, b in STRIP_PAIRING[h]]
    used = [x for pair in virtual for x in pair]
    if len(set(used)) < len(used) or any(not 0 <= x < h * q for x in used):
        return []
    if min(c for _, c in right) < 0 or max(c for _, c in left) >= q:
        return []
    out = []
    for s in range(h * q):
        if h == 4 and s // q in (1, 2):
            continue  # a 4 x n tour never starts on an inner rank
        path = hamiltonian_path(h, q, [s], virtual=virtual, seed=s, tries=6)
        if path is not None:
            out.append((variant, h, q, s, 0, path))
    return out


def strips(log):
    out = []
    for h in (3, 4):
        for p in range(3, 12):
            if (rec := strip_lane(h, p)) is not None:
                out.append(rec)
        for side in ("left", "right"):
            for c in range(3, 14):
                if (rec := strip_cap(h, c, side)) is not None:
                    out.append(rec)
        for variant in (Kind.START_MID, Kind.START_LEFT, Kind.START_RIGHT):
            for q in range(3, 11 if h == 3 else 9):
                out.extend(strip_starts(h, q, variant))
            found = sum(1 for r in out if r[0] == variant and r[1] == h)
            log(f"  {h}-row start pieces, kind {variant}: {found}")
        log(f"  {h}-row strips: " + ", ".join(
            f"{name} {sorted({r[2] for r in out if r[0] == k and r[1] == h})}"
            for name, k in (("lanes", Kind.LANE), ("left caps", Kind.CAP_LEFT),
                            ("right caps", Kind.CAP_RIGHT))))
    return out


# -- small whole boards ------------------------------------------------------------


def small_boards(pieces: list, log, longest: int = 40):
    """Whole-board tours of the 3 x n and 4 x n boards (and starts) the strip pieces cannot build.

    Closed tours first: a board with one needs no open tours of its own.
    """
    from chesstours.board import Board
    from chesstours.construct.strips import plan_strip, strip_start_reason
    from chesstours.existence.reasons import obstruction

    out = []
    for closed in (True, False):
        data = BaseTours.build(pieces + out)
        for h in (3, 4):
            for n in range(3, longest + 1):
                board = Board(h, n)
                if obstruction(board, closed=closed) is not None:
                    continue
                for s in [0] if closed else range(h * n):
                    if not closed and (obstruction(board, start=s) is not None
                                       or strip_start_reason(h, n, s) is not None):
                        continue
                    if plan_strip(data, h, n, s, closed) is not None:
                        continue
                    nbrs = knight_graph(h, n)
                    path = None
                    if closed:
                        for x in nbrs[s]:
                            path = hamiltonian_path(h, n, [s, x], ends=[v for v in nbrs[s] if v != x],
                                                    budget=5_000_000, tries=8)
                            if path is not None:
                                break
                    else:
                        path = hamiltonian_path(h, n, [s], budget=5_000_000, tries=20, seed=s)
                    if path is None:
                        log(f"  no tour found on {h}x{n} from {divmod(s, n)} (closed={closed})")
                        continue
                    out.append((Kind.BOARD, h, n, s, int(closed), path))
    log(f"  small boards: {len(out)} tours")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    records = []
    for h in BLOCK_SIDES:
        for w in BLOCK_SIDES:
            if h % 2 and w % 2:
                records.extend(block_paths(h, w, log))
            else:
                records.extend(block_cycles(h, w, log))
        log(f"blocks {h}x*: {len(records)} records, {time.perf_counter() - t0:.0f} s")
    records.extend(strips(log))
    log(f"strip pieces: {len(records)} records, {time.perf_counter() - t0:.0f} s")
    records.extend(small_boards(records, log))
    data = BaseTours.build(records)
    data.save(args.out)
    log(f"wrote {len(data)} records ({data.squares.size:,} squares) to {args.out} "
        f"in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
