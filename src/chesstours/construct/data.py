"""The base tours of the construction: small pieces found once by search, kept as data.

The divide-and-conquer construction (:mod:`chesstours.construct.build`)
glues together small tours that were found by exhaustive search when the
package was built (``scripts/make_base_tours.py``) and are shipped in
``chesstours/construct/base_tours.npz``. This module names their kinds, defines
the edges the gluing relies on, and loads them.

Blocks (boards with both sides at least 5) are cut into rectangles whose
sides come from :data:`BLOCK_SIDES`. Every block holds a closed tour, except
the one block of an odd x odd board that holds the start: it holds an open
tour from the start. Neighbouring blocks are joined through four edges near
the corners of a block (local squares ``(row, col)``, row 0 at the bottom):

``X``: (1,1)-(3,0) and ``Y``: (1,1)-(0,3)
    bottom-left corner; joined to the block on the left (``X``) or below (``Y``).
``F``: (0,w-1)-(2,w-2)
    bottom-right corner; joined to the block on the right.
``T``: (h-1,0)-(h-2,2)
    top-left corner; joined to the block above.

``F`` and ``T`` touch a corner square, which has only two moves, so every
closed tour contains them; ``X`` or ``Y`` is asked of the search.

Strips (boards 3 or 4 squares wide) are cut into pieces along their length:
*lanes* crossed by ``K`` paths, *caps* that turn the paths around at the ends
of the board, and a piece holding the start (see
:mod:`chesstours.construct.strips`).

A record's squares are local indices ``r * w + c``; :data:`HOP` separates the
paths of a piece, or marks where a path leaves the piece and comes back.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

__all__ = [
    "BLOCK_SIDES", "EDGE_NAMES", "block_edges", "edge_mask", "STRIP_INTERFACES", "STRIP_PAIRING",
    "HOP", "Kind", "BaseTours", "base_tours",
]

#: Sides of the blocks: even ones (6, 8, 10) make up any even length from 6 on, and
#: one odd side (5, 7, 9 or 11) added to them any odd length from 5 on.
BLOCK_SIDES = (5, 6, 7, 8, 9, 10, 11)
EVEN_SIDES = (6, 8, 10)
ODD_SIDES = (5, 7, 9, 11)

#: The joining edges of a block, in the order of their bits in a record's ``edges``.
EDGE_NAMES = ("X", "Y", "F", "T")

#: Marker between paths (or around a leap out of the piece and back) in a record.
HOP = 255


def block_edges(h: int, w: int) -> dict[str, tuple[tuple[int, int], tuple[int, int]]]:
    """The joining edges of an ``h x w`` block, as pairs of local ``(row, col)`` squares.

    >>> block_edges(6, 8)["F"]
    ((0, 7), (2, 6))
    """
    return {
        "X": ((1, 1), (3, 0)),
        "Y": ((1, 1), (0, 3)),
        "F": ((0, w - 1), (2, w - 2)),
        "T": ((h - 1, 0), (h - 2, 2)),
    }


def edge_mask(names) -> int:
    """Bit mask of edge names: ``edge_mask("XF") == 5``."""
    return sum(1 << EDGE_NAMES.index(e) for e in names)


#: Strip interfaces: the K knight moves that cross every cut between two pieces, as
#: ``((row, col), (row, col))`` with the first square left of the cut (col -1 or -2)
#: and the second right of it (col 0 or 1). Lane ``i`` of a piece runs from the
#: right end of move ``i`` at its left side to the left end of move ``i`` at its right side.
STRIP_INTERFACES = {
    3: (((0, -1), (1, 1)), ((1, -2), (2, 0))),
    4: (((0, -1), (2, 0)), ((1, -1), (0, 1)), ((2, -1), (0, 0)), ((3, -1), (1, 0))),
}
#: How a cap joins the lanes in pairs (both ends of the strip use the same pairs).
STRIP_PAIRING = {3: ((0, 1),), 4: ((0, 1), (2, 3))}


class Kind:
    """Record kinds."""

    CYCLE = 0  #: closed tour of an h x w block
    PATH = 1  #: open tour of an odd x odd block from ``start``
    LANE = 2  #: strip lane piece: its K lanes in order, each from its left port to its right port
    CAP_LEFT = 3  #: strip left end: one path per pair, from the pair's first port to its second
    CAP_RIGHT = 4  #: strip right end, likewise
    START_MID = 5  #: strip piece holding the start, with lanes on both sides
    START_LEFT = 6  #: ... at the left end of the strip
    START_RIGHT = 7  #: ... at the right end of the strip
    BOARD = 8  #: a whole small board: open tour from ``start`` (``edges`` 1: closed tour)


@dataclass(frozen=True)
class Record:
    kind: int
    h: int
    w: int
    start: int
    edges: int
    squares: np.ndarray  # uint8 local squares, HOP-separated

    def segments(self) -> list[np.ndarray]:
        """The paths of the record, split at the HOP markers."""
        parts = np.split(self.squares, np.flatnonzero(self.squares == HOP))
        return [p[p != HOP] for p in parts]

    def coords(self) -> np.ndarray:
        """``int64[L, 2]`` (row, col) of the squares, HOP rows as (-1, -1)."""
        sq = self.squares.astype(np.int64)
        out = np.stack(np.divmod(sq, self.w), axis=1)
        out[sq == HOP] = -1
        return out


class BaseTours:
    """All records, with lookups by kind and size."""

    FIELDS = ("kind", "h", "w", "start", "edges", "offset", "length")

    def __init__(self, index: np.ndarray, squares: np.ndarray):
        self.index = np.asarray(index, dtype=np.int32).reshape(-1, len(self.FIELDS))
        self.squares = np.asarray(squares, dtype=np.uint8)
        self._by_key: dict[tuple[int, int, int, int], list[int]] = {}
        for i, (kind, h, w, start, *_rest) in enumerate(self.index.tolist()):
            self._by_key.setdefault((kind, h, w, start), []).append(i)

    def __len__(self) -> int:
        return len(self.index)

    def record(self, i: int) -> Record:
        kind, h, w, start, edges, off, length = (int(x) for x in self.index[i])
        return Record(kind, h, w, start, edges, self.squares[off : off + length])

    def records(self, kind: int | None = None):
        for i in range(len(self)):
            if kind is None or self.index[i, 0] == kind:
                yield self.record(i)

    def find(self, kind: int, h: int, w: int, start: int = -1, edges: int = 0) -> Record | None:
        """The first record of this kind and size (and start) whose edges include ``edges``."""
        for i in self._by_key.get((kind, h, w, start), ()):
            if int(self.index[i, 4]) & edges == edges:
                return self.record(i)
        return None

    def widths(self, kind: int, h: int) -> list[int]:
        """Widths of the records of ``kind`` that are ``h`` high."""
        sel = (self.index[:, 0] == kind) & (self.index[:, 1] == h)
        return sorted(set(self.index[sel, 2].tolist()))

    @classmethod
    def build(cls, records: list[tuple[int, int, int, int, int, list[int]]]) -> BaseTours:
        """From ``(kind, h, w, start, edges, squares)`` tuples."""
        index, flat, off = [], [], 0
        for kind, h, w, start, edges, squares in records:
            index.append((kind, h, w, start, edges, off, len(squares)))
            flat.extend(squares)
            off += len(squares)
        return cls(np.array(index, dtype=np.int32), np.array(flat, dtype=np.uint8))

    def save(self, path) -> None:
        np.savez_compressed(path, index=self.index, squares=self.squares)


@lru_cache(maxsize=1)
def base_tours() -> BaseTours:
    """The shipped base tours (loaded once)."""
    with resources.files("chesstours.construct").joinpath("base_tours.npz").open("rb") as fh:
        data = np.load(fh)
        return BaseTours(data["index"], data["squares"])
