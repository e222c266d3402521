"""Tours of boards with both sides at least 5, glued together from small blocks.

The board is cut into a grid of blocks whose sides come from
:data:`~chesstours.construct.data.BLOCK_SIDES`: the rows into bands
of 6, 8 and 10 (and one odd band of 5, 7, 9 or 11 when the number of rows is
odd), the columns likewise. Each block holds a stored closed tour, except on
an odd x odd board, where the block at the crossing of the two odd bands
holds an open tour from the start square.

The blocks' tours are joined into one along a spanning tree of the block
grid -- every band of blocks left to right, and the first column bottom to
top -- by *edge swaps*: if ``a1-a2`` is a move of one tour, ``b1-b2`` a move
of another, and ``a1-b1`` and ``a2-b2`` are knight moves, removing the first
two moves and adding the other two makes one tour of the two (Parberry 1997;
Lin & Wei 2005). Here the pairs are a corner move of each block and a move
near the corner of its neighbour, a knight's move away:

* left-right: ``F`` of the left block, ``(0,w-1)-(2,w-2)``, and ``X`` of the
  right block, ``(1,1)-(3,0)``, shifted by (1, 2);
* below-above: ``T`` of the lower block, ``(h-1,0)-(h-2,2)``, and ``Y`` of
  the upper block, ``(1,1)-(0,3)``, shifted by (2, 1).

The tour is kept as a *step field*: ``step[v]`` is the difference between the
square after ``v`` and ``v`` (0 for the last square of an open tour). Each
block writes its stored tour's steps: a run of equal blocks is written a band
at a time by one numpy gather; the swaps, two steps each, all at once. A tour read one way
round needs the joined moves of its two tours to run in opposite directions,
so each block's tour is used forwards or backwards as a running product along
the spanning tree says. Finally a compiled loop follows the steps from the
start (:func:`chesstours.construct.build.follow_steps`).

References
----------
.. [1] I. Parberry, "An efficient algorithm for the Knight's tour problem",
   Discrete Applied Mathematics 73(3):251-260, 1997.
.. [2] S.-S. Lin and C.-L. Wei, "Optimal algorithms for constructing knight's
   tours on arbitrary n x m chessboards", Discrete Applied Mathematics
   146(3):219-232, 2005.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .data import ODD_SIDES, BaseTours, Kind, Record, block_edges, edge_mask

__all__ = ["even_parts", "BlockPlan", "plan_blocks", "block_steps"]

def even_parts(length: int) -> list[int] | None:
    """Cut an even length into sides 6, 8 and 10 (mostly 8), or None if it cannot be.

    >>> even_parts(0), even_parts(4), even_parts(12), even_parts(42)
    ([], None, [6, 6], [8, 8, 8, 8, 10])
    """
    if length == 0:
        return []
    if length < 6 or length % 2:
        return None
    eights, rest = divmod(length, 8)
    if rest == 0:
        return [8] * eights
    if rest == 6:
        return [8] * eights + [6]
    if rest == 2:
        return [8] * (eights - 1) + [10]
    return [8] * (eights - 1) + [6, 6]  # rest == 4, length >= 12


def _odd_splits(length: int, x: int | None) -> Iterator[tuple[list[int], int, int]]:
    """Ways to cut an odd length into even sides around one odd side that holds coordinate x.

    Yields ``(parts, index of the odd part, offset of the odd part)``.
    """
    for odd in sorted(ODD_SIDES, key=lambda side: abs(side - 7)):  # 7 first: most lengths allow it
        for lo in range(0, length - odd + 1, 2):
            if x is not None and not lo <= x < lo + odd:
                continue
            before, after = even_parts(lo), even_parts(length - lo - odd)
            if before is not None and after is not None:
                yield before + [odd] + after, len(before), lo
            if x is None:
                break


@dataclass
class BlockPlan:
    """How a board is cut: band sizes, and the open tour's block if there is one."""

    row_parts: list[int]
    col_parts: list[int]
    path_block: tuple[int, int] | None = None
    path_record: Record | None = None


def _needed_edges(i: int, j: int, bands: int, columns: int) -> int:
    need = ""
    if j > 0:
        need += "X"
    elif i > 0:
        need += "Y"
    if j < columns - 1:
        need += "F"
    if j == 0 and i < bands - 1:
        need += "T"
    return edge_mask(need)


def plan_blocks(data: BaseTours, rows: int, cols: int, start: int) -> BlockPlan | None:
    """Cut a rows x cols board (both sides >= 5) into blocks; None if it cannot be done.

    On an odd x odd board the start must be of the corners' colour; the odd bands
    are placed through it and its block gets a stored open tour from it.
    """
    if rows % 2 == 0 or cols % 2 == 0:
        row_parts = even_parts(rows) if rows % 2 == 0 else next(_odd_splits(rows, None))[0]
        col_parts = even_parts(cols) if cols % 2 == 0 else next(_odd_splits(cols, None))[0]
        if row_parts is None or col_parts is None:
            return None
        return BlockPlan(row_parts, col_parts)
    r, c = divmod(start, cols)
    if (r + c) % 2:
        return None
    for row_parts, i, r0 in _odd_splits(rows, r):
        for col_parts, j, c0 in _odd_splits(cols, c):
            h, w = row_parts[i], col_parts[j]
            need = _needed_edges(i, j, len(row_parts), len(col_parts))
            record = data.find(Kind.PATH, h, w, (r - r0) * w + (c - c0), need)
            if record is not None:
                return BlockPlan(row_parts, col_parts, (i, j), record)
    return None


def _runs(parts: list[int]) -> list[tuple[int, int, int]]:
    """``(first band, end band, side)`` of each run of equal consecutive parts."""
    out, i = [], 0
    while i < len(parts):
        j = i
        while j < len(parts) and parts[j] == parts[i]:
            j += 1
        out.append((i, j, parts[i]))
        i = j
    return out


class _Tile:
    """A stored tour of one block, as steps on the board (``forward`` and ``backward``)."""

    def __init__(self, record: Record, cols: int, closed: bool):
        h, w = record.h, record.w
        sq = record.squares.astype(np.int64)
        rr, cc = np.divmod(sq, w)
        nxt = np.roll(np.arange(sq.size), -1)
        step = np.zeros(h * w, dtype=np.int64)
        step[sq] = (rr[nxt] - rr) * cols + (cc[nxt] - cc)
        back = np.zeros(h * w, dtype=np.int64)
        back[sq] = -np.roll(step[sq], 1)
        if not closed:
            step[sq[-1]] = 0  # the end of the open tour
            back[sq[0]] = 0
        self.forward = step.astype(np.int32).reshape(h, w)
        self.backward = back.astype(np.int32).reshape(h, w)
        # Direction of each joining edge as the swaps read it: +1 when the tour runs
        # (0,w-1) -> (2,w-2) for F, (h-1,0) -> (h-2,2) for T, (3,0) -> (1,1) for X and
        # (0,3) -> (1,1) for Y; -1 the other way; 0 if the tour lacks the edge.
        after = dict(zip(sq[:-1].tolist(), sq[1:].tolist()))
        if closed:
            after[int(sq[-1])] = int(sq[0])
        self.sign = {}
        for name, (cell_a, cell_b) in block_edges(h, w).items():
            a, b = cell_a[0] * w + cell_a[1], cell_b[0] * w + cell_b[1]
            if name in "XY":
                a, b = b, a
            self.sign[name] = 1 if after.get(a) == b else (-1 if after.get(b) == a else 0)
        self.end = int(sq[-1])


def block_steps(data: BaseTours, plan: BlockPlan, rows: int, cols: int) -> np.ndarray:
    """The step field (``int32[rows * cols]``) of the joined tour of the plan's blocks."""
    rp, cp = plan.row_parts, plan.col_parts
    row0 = np.concatenate([[0], np.cumsum(rp)[:-1]]).astype(np.int64)
    col0 = np.concatenate([[0], np.cumsum(cp)[:-1]]).astype(np.int64)
    tiles, grid = _choose_tiles(data, plan, cols)
    sign = {e: np.array([t.sign[e] for t in tiles], dtype=np.int8)[grid] for e in "XYFT"}
    orient = _orientations(sign, plan.path_block)
    step = np.empty(rows * cols, dtype=np.int32)
    _write_tiles(step.reshape(rows, cols), tiles, grid, orient, rp, cp, row0, col0)
    _swap_all(step, cols, sign, orient, rp, cp, row0, col0)
    return step


def _choose_tiles(data: BaseTours, plan: BlockPlan, cols: int) -> tuple[list[_Tile], np.ndarray]:
    """The tiles used, and the tile of each block: the first column needs Y, the others X."""
    tiles: list[_Tile] = []
    tile_of: dict[tuple[int, int, str], int] = {}

    def tile_id(h: int, w: int, need: str) -> int:
        if (h, w, need) not in tile_of:
            record = data.find(Kind.CYCLE, h, w, -1, edge_mask(need))
            if record is None:
                raise LookupError(f"no stored {h}x{w} block tour with edge {need}")
            tiles.append(_Tile(record, cols, closed=True))
            tile_of[h, w, need] = len(tiles) - 1
        return tile_of[h, w, need]

    grid = np.empty((len(plan.row_parts), len(plan.col_parts)), dtype=np.int32)
    for i0, i1, h in _runs(plan.row_parts):
        for j0, j1, w in _runs(plan.col_parts):
            if h % 2 and w % 2:
                continue  # the block of the open tour
            grid[i0:i1, j0:j1] = tile_id(h, w, "X")
            if j0 == 0:
                grid[i0:i1, 0] = tile_id(h, w, "Y")
    if plan.path_block is not None:
        assert plan.path_record is not None
        tiles.append(_Tile(plan.path_record, cols, closed=False))
        grid[plan.path_block] = len(tiles) - 1
    return tiles, grid


def _orientations(sign: dict[str, np.ndarray], path_block) -> np.ndarray:
    """+1 where a block's tour runs forwards, -1 backwards.

    A swap needs the two joined moves to run opposite ways (see :func:`_swap_all`):
    left-right, the left block's F and the right block's X; below-above, the lower
    block's T and the upper block's Y. Along the spanning tree that is a running
    product of signs; the open tour, which cannot be reversed, runs forwards.
    """
    link = np.ones_like(sign["F"])
    link[:, 1:] = sign["F"][:, :-1] * sign["X"][:, 1:]
    link[1:, 0] = sign["T"][:-1, 0] * sign["Y"][1:, 0]
    if np.any(link == 0):
        raise LookupError("a block tour lacks a joining edge")
    orient = np.empty_like(link)
    orient[:, 0] = np.cumprod(link[:, 0], dtype=np.int8)
    orient[:, 1:] = orient[:, :1] * np.cumprod(link[:, 1:], axis=1, dtype=np.int8)
    if path_block is not None:
        orient *= orient[path_block]
    return orient


def _write_tiles(field, tiles, grid, orient, rp, cp, row0, col0) -> None:
    """Write every block's steps: for each run of equal blocks, one numpy gather per band."""
    variant = grid.astype(np.int64) * 2 + (orient < 0)
    for i0, i1, h in _runs(rp):
        for j0, j1, w in _runs(cp):
            codes = variant[i0:i1, j0:j1]
            present = np.flatnonzero(np.bincount(codes.ravel()))
            lookup = np.zeros(present[-1] + 1, dtype=np.intp)
            lookup[present] = np.arange(present.size)
            which = lookup[codes]
            # table[r, k * w + c]: square (r, c) of the k-th variant, so that a band of
            # blocks is one gather of table columns, the same for each row of the band.
            table = np.concatenate(
                [tiles[u // 2].backward if u % 2 else tiles[u // 2].forward for u in present], axis=1)
            c0, c1 = col0[j0], col0[j0] + (j1 - j0) * w
            across = np.arange(w)
            for i in range(i0, i1):
                gather = (which[i - i0][:, None] * w + across).ravel()
                np.take(table, gather, axis=1, out=field[row0[i] : row0[i] + h, c0:c1], mode="clip")


def _swap_all(step, cols, sign, orient, rp, cp, row0, col0) -> None:
    """All the swaps at once: left-right along every band, below-above in the first column.

    With ``a1 -> a2`` a move of one tour and ``b2 -> b1`` a move of the other
    (``+``), the steps become ``a1 -> b1`` and ``b2 -> a2``; the other way round
    (``-``), ``a2 -> b2`` and ``b1 -> a1``. Either way one tour runs through both
    blocks, and the open tour keeps its start and its end.
    """

    def swap(a1, a2, b1, b2, plus):
        first = np.where(plus, a1, a2)
        second = np.where(plus, b2, b1)
        step[first] = np.where(plus, b1, b2) - first
        step[second] = np.where(plus, a2, a1) - second

    bands, columns = len(rp), len(cp)
    if columns > 1:
        r = np.repeat(row0, columns - 1)
        left = np.tile(col0[1:], bands)  # first column of the right-hand block
        plus = (orient[:, :-1] * sign["F"][:, :-1]).ravel() > 0
        swap(r * cols + left - 1, (r + 2) * cols + left - 2, (r + 1) * cols + left + 1, (r + 3) * cols + left,
             plus)
    if bands > 1:
        top = row0[1:] - 1  # top row of the lower block
        plus = (orient[:-1, 0] * sign["T"][:-1, 0]) > 0
        swap(top * cols, (top - 1) * cols + 2, (top + 2) * cols + 1, (top + 1) * cols + 3, plus)
