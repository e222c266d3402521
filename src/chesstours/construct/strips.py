"""Tours of boards 3 or 4 squares wide, glued together from short pieces.

A 3 x n or 4 x n board is cut across its length into pieces. At every cut
the same K knight moves cross it (the *interface*,
:data:`~chesstours.construct.data.STRIP_INTERFACES`; K = 2 for
three rows, K = 4 for four), so pieces fit together in any order:

*lanes*
    pieces crossed by K disjoint paths, path ``i`` joining the two ends of
    interface move ``i`` on either side; a run of lanes carries the paths
    along the board.
*caps*
    the two ends of the board, where paths turn back in pairs.
*the start piece*
    the piece that holds the start square: an open path from the start that
    leaves the piece along one lane of a pair and comes back along the
    other (once for each pair, on each side that has more board).

A closed tour of 3 x n (n even, at least 14) is ``cap lanes... cap``. An open
tour is ``cap lanes... start-piece lanes... cap``; the start piece may also
be an end of the board. Four rows need K = 4: a 4 x n tour passes through
every outer square of one colour before any outer square of the other
(Schwenk's argument), so it runs along the board twice in each direction.

The lanes' widths are even, the caps' both odd and even, so every length
from a small bound on is a sum of them. Boards too short to cut are stored
whole (every start a tour can have, found once by search).

Examples
--------
>>> from chesstours.construct.data import base_tours
>>> plan = plan_strip(base_tours(), 3, 41, 3 * 0 + 20, closed=False)
>>> plan.kind, plan.start_piece_at <= 20 < plan.start_piece_at + plan.record.w
('open', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..existence.reasons import schwenk_closed
from .data import STRIP_INTERFACES, STRIP_PAIRING, BaseTours, Kind, Record

__all__ = ["StripPlan", "plan_strip", "strip_steps", "lane_parts", "strip_start_reason"]


def strip_start_reason(h: int, n: int, start: int) -> str | None:
    """Why no tour of an h x n board (h = 3 or 4) starts on ``start``, beyond colour; None if one does.

    On 4 x n a knight leaps from an outer rank (1 or 4) only to an inner one, and
    there are as many outer squares as inner ones, so a tour alternates outer and
    inner squares except for at most one inner-inner leap; a tour ending on an
    inner square would alternate exactly, visiting outer squares of one colour
    only -- but the outer ranks hold both colours. So 4 x n tours start and end
    on the outer ranks. The exceptions on 3 x 4, 3 x 7 and 3 x 8 were settled by
    exhaustive search (``tests/test_construct.py`` repeats it).

    >>> strip_start_reason(4, 9, 9 + 4) is None, strip_start_reason(4, 9, 4) is None
    (False, True)
    """
    r, c = divmod(start, n)
    rank = r + 1
    if h == 4 and r in (1, 2):
        return (
            f"every knight move from an outer rank (1 or 4) of 4x{n} lands on an inner rank, and a tour that "
            "started or ended on an inner rank would alternate outer and inner squares exactly, so it would "
            f"visit outer squares of one colour only; a tour cannot start on rank {rank}"
        )
    if (h, n) == (3, 4) and c in (1, 2) or (h, n) == (3, 7) and (r, c) == (1, 3) or (
        (h, n) == (3, 8) and r == 1 and c in (2, 5)
    ):
        return f"an exhaustive search of every path on 3x{n} finds none from this square"
    return None


def lane_parts(length: int, widths: list[int]) -> list[int] | None:
    """Cut ``length`` into lane widths (4s, and one 6 if needed), or None.

    >>> lane_parts(0, [4, 6]), lane_parts(14, [4, 6]), lane_parts(2, [4, 6])
    ([], [6, 4, 4], None)
    """
    if length == 0:
        return []
    if length % 2 or length < 4 or 4 not in widths:
        return None
    if length % 4 == 0:
        return [4] * (length // 4)
    if 6 in widths and length >= 6:
        return [6] + [4] * ((length - 6) // 4)
    return None


@dataclass
class Region:
    """Lanes and a cap at one end of the board: ``cap`` columns at the board's end, then ``lanes``."""

    cap: int
    lanes: list[int]


@dataclass
class StripPlan:
    """How a strip is cut. ``kind``: "board" (stored whole), "closed" or "open"."""

    kind: str
    closed: bool
    record: Record | None = None
    start_piece_at: int = 0
    left: Region | None = None
    right: Region | None = None


def _region(data: BaseTours, h: int, width: int, cap_kind: int) -> Region | None:
    if width == 0:
        return None
    lanes = data.widths(Kind.LANE, h)
    for cap in data.widths(cap_kind, h):
        parts = lane_parts(width - cap, lanes)
        if parts is not None:
            return Region(cap, parts)
    return None


def plan_strip(data: BaseTours, h: int, n: int, start: int, closed: bool) -> StripPlan | None:
    """Plan a tour of h x n (h = 3 or 4) from ``start``; None if the pieces cannot make one."""
    if schwenk_closed(h, n) is None:  # the board has a closed tour: use it for open tours too
        for right_cap in data.widths(Kind.CAP_RIGHT, h):
            left = _region(data, h, n - right_cap, Kind.CAP_LEFT)
            if left is not None:
                return StripPlan("closed", True, left=left, right=Region(right_cap, []))
        record = data.find(Kind.BOARD, h, n, 0, 1)
        if record is not None:
            return StripPlan("board", True, record)
    if closed:
        return None
    r, c = divmod(start, n)
    for kind in (Kind.START_MID, Kind.START_LEFT, Kind.START_RIGHT):
        for q in data.widths(kind, h):
            offsets: Sequence[int]
            if kind == Kind.START_LEFT:
                offsets = [0]
            elif kind == Kind.START_RIGHT:
                offsets = [n - q]
            else:
                offsets = range(max(1, c - q + 1), min(c, n - q - 1) + 1)
            for a in offsets:
                if not 0 <= c - a < q or a < 0 or a + q > n:
                    continue
                record = data.find(kind, h, q, r * q + (c - a))
                if record is None:
                    continue
                left = _region(data, h, a, Kind.CAP_LEFT) if kind != Kind.START_LEFT else None
                right = _region(data, h, n - a - q, Kind.CAP_RIGHT) if kind != Kind.START_RIGHT else None
                if (kind != Kind.START_LEFT and left is None) or (kind != Kind.START_RIGHT and right is None):
                    continue
                return StripPlan("open", False, record, a, left, right)
    record = data.find(Kind.BOARD, h, n, start, 0)
    return None if record is None else StripPlan("board", False, record)


# -- steps ---------------------------------------------------------------------------


def _ports(h: int, width: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Local squares of a piece touched by the interface moves: (left side, right side)."""
    iface = STRIP_INTERFACES[h]
    return [v for _u, v in iface], [(u[0], width + u[1]) for u, _v in iface]


def _crossing(h: int, i: int, side: str, n: int) -> int:
    """Step of interface move ``i`` leaving a piece on ``side``."""
    (ur, uc), (vr, vc) = STRIP_INTERFACES[h][i]
    return (vr - ur) * n + (vc - uc) if side == "right" else (ur - vr) * n + (uc - vc)


def _piece_steps(h: int, width: int, n: int, paths) -> np.ndarray:
    """Steps of a piece covered by ``paths``: ``(coords[L, 2], exit step or None for the end)``."""
    tile = np.zeros((h, width), dtype=np.int64)
    covered = 0
    for coords, exit_step in paths:
        rr, cc = coords[:, 0], coords[:, 1]
        tile[rr[:-1], cc[:-1]] = (rr[1:] - rr[:-1]) * n + (cc[1:] - cc[:-1])
        tile[rr[-1], cc[-1]] = 0 if exit_step is None else exit_step
        covered += len(coords)
    if covered != h * width:
        raise ValueError("a strip piece's paths do not cover it")
    return tile.astype(np.int32)


def _coords(squares: np.ndarray, width: int) -> np.ndarray:
    return np.stack(np.divmod(squares.astype(np.int64), width), axis=1)


def _lane_tile(data: BaseTours, h: int, p: int, n: int, direction: list[int]) -> np.ndarray:
    """Steps of a lane piece whose lane i runs rightwards (+1) or leftwards (-1)."""
    record = data.find(Kind.LANE, h, p)
    assert record is not None, "a planned lane has a stored piece"
    paths = []
    for i, seg in enumerate(record.segments()):
        coords = _coords(seg, p)
        if direction[i] > 0:
            paths.append((coords, _crossing(h, i, "right", n)))
        else:
            paths.append((coords[::-1], _crossing(h, i, "left", n)))
    return _piece_steps(h, p, n, paths)


def _cap_tile(data: BaseTours, h: int, c: int, n: int, kind: int, direction: list[int]) -> np.ndarray:
    """Steps of a cap: each pair's path runs from the lane coming in to the lane going out."""
    record = data.find(kind, h, c)
    assert record is not None, "a planned cap has a stored piece"
    into = -1 if kind == Kind.CAP_LEFT else 1  # direction of a lane running into this cap
    side = "right" if kind == Kind.CAP_LEFT else "left"
    paths = []
    for seg, (a, b) in zip(record.segments(), STRIP_PAIRING[h]):
        coords = _coords(seg, c)
        if direction[a] == into:
            paths.append((coords, _crossing(h, b, side, n)))
        else:
            paths.append((coords[::-1], _crossing(h, a, side, n)))
    return _piece_steps(h, c, n, paths)


def _write(field: np.ndarray, x: int, tile: np.ndarray, copies: int = 1) -> None:
    h, w = tile.shape
    field[:, x : x + copies * w].reshape(h, copies, w)[...] = tile[:, None, :]


def _write_region(data, field, h, n, region: Region, x: int, left_end: bool, direction: list[int]) -> None:
    """Write a region starting at column x: cap first at the left end, lanes first at the right end."""
    cap_kind = Kind.CAP_LEFT if left_end else Kind.CAP_RIGHT
    if left_end:
        _write(field, x, _cap_tile(data, h, region.cap, n, cap_kind, direction))
        x += region.cap
    for p in sorted(set(region.lanes), reverse=True):
        copies = region.lanes.count(p)
        _write(field, x, _lane_tile(data, h, p, n, direction), copies)
        x += copies * p
    if not left_end:
        _write(field, x, _cap_tile(data, h, region.cap, n, cap_kind, direction))


def strip_steps(data: BaseTours, plan: StripPlan, h: int, n: int) -> np.ndarray:
    """The step field (``int32[h * n]``) of the planned tour."""
    step = np.zeros(h * n, dtype=np.int32)
    field = step.reshape(h, n)
    k = len(STRIP_INTERFACES[h])
    if plan.kind == "board":
        assert plan.record is not None
        coords = _coords(plan.record.squares, n)
        exit_step = None
        if plan.closed:
            (r0, c0), (r1, c1) = coords[0], coords[-1]
            exit_step = (r0 - r1) * n + (c0 - c1)
        field[...] = _piece_steps(h, n, n, [(coords, exit_step)])
        return step
    if plan.kind == "closed":
        direction = [-1 if i % 2 == 0 else 1 for i in range(k)]
        assert plan.left is not None and plan.right is not None
        _write_region(data, field, h, n, plan.left, 0, True, direction)
        _write_region(data, field, h, n, plan.right, n - plan.right.cap, False, direction)
        return step
    # Open: the start piece, and on each side lanes running out and back.
    record, a = plan.record, plan.start_piece_at
    assert record is not None
    q = record.w
    left_ports, right_ports = _ports(h, q)
    out_left, out_right = [0] * k, [0] * k
    segments = record.segments()
    paths: list[tuple[np.ndarray, int | None]] = []
    for number, seg in enumerate(segments):
        coords = _coords(seg, q)
        if number == len(segments) - 1:
            paths.append((coords, None))
            continue
        x, y = tuple(coords[-1]), tuple(_coords(segments[number + 1][:1], q)[0])
        for side, ports, out in (("left", left_ports, out_left), ("right", right_ports, out_right)):
            pairs = [(i, j) for i, j in STRIP_PAIRING[h] if {ports[i], ports[j]} == {x, y}]
            if pairs:
                i, j = pairs[0] if ports[pairs[0][0]] == x else pairs[0][::-1]
                out[i], out[j] = 1, -1  # along lane i away from the start piece, back along lane j
                paths.append((coords, _crossing(h, i, side, n)))
                break
        else:
            raise ValueError("a start piece leaves through squares that are not a pair of ports")
    _write(field, a, _piece_steps(h, q, n, paths))
    if plan.left is not None:
        _write_region(data, field, h, n, plan.left, 0, True, [-d for d in out_left])
    if plan.right is not None:
        _write_region(data, field, h, n, plan.right, a + q, False, out_right)
    return step
