"""The stored base tours: each one is a genuine tour of its piece, with the structure the gluing needs."""

import numpy as np
import pytest

from chesstours.board import Board
from chesstours.construct.data import (
    BLOCK_SIDES,
    EDGE_NAMES,
    HOP,
    STRIP_INTERFACES,
    STRIP_PAIRING,
    Kind,
    base_tours,
    block_edges,
    edge_mask,
)
from chesstours.construct.strips import strip_start_reason
from chesstours.existence.reasons import obstruction

DATA = base_tours()


def is_knight_move(a, b) -> bool:
    return sorted((abs(int(a[0]) - int(b[0])), abs(int(a[1]) - int(b[1])))) == [1, 2]


def coords(record, squares):
    return [divmod(int(v), record.w) for v in squares]


def assert_knight_path(points):
    for a, b in zip(points, points[1:]):
        assert is_knight_move(a, b), f"{a} -> {b} is not a knight move"


def assert_covers(record):
    squares = record.squares[record.squares != HOP]
    assert sorted(squares.tolist()) == list(range(record.h * record.w)), "not every square exactly once"


def edges_used(record, closed: bool) -> int:
    seq = record.squares[record.squares != HOP].tolist()
    pairs = {frozenset(p) for p in zip(seq, seq[1:])}
    if closed:
        pairs.add(frozenset((seq[-1], seq[0])))
    mask = 0
    for name, (a, b) in block_edges(record.h, record.w).items():
        if frozenset((a[0] * record.w + a[1], b[0] * record.w + b[1])) in pairs:
            mask |= 1 << EDGE_NAMES.index(name)
    return mask


def strip_ports(h, width):
    iface = STRIP_INTERFACES[h]
    return [v for _u, v in iface], [(u[0], width + u[1]) for u, _v in iface]


def test_the_data_holds_every_kind_of_piece():
    kinds = {int(k) for k in DATA.index[:, 0]}
    assert kinds == set(range(9))


@pytest.mark.parametrize("record", list(DATA.records(Kind.CYCLE)), ids=lambda r: f"{r.h}x{r.w}")
def test_block_cycles_are_closed_tours_with_their_joining_edges(record):
    assert_covers(record)
    points = coords(record, record.squares)
    assert_knight_path(points + points[:1])
    assert record.edges == edges_used(record, closed=True)
    # F and T meet a corner square, so every closed tour has them; X or Y was asked for.
    assert record.edges & edge_mask("FT") == edge_mask("FT") and record.edges & edge_mask("XY")


@pytest.mark.parametrize("h", BLOCK_SIDES)
@pytest.mark.parametrize("w", BLOCK_SIDES)
def test_every_block_has_what_the_gluing_asks_of_it(h, w):
    if h % 2 and w % 2:
        # Odd x odd: an open tour from every square of the corners' colour, and ones with the
        # joining edges for every place the block can take in the grid (but X and Y both need
        # (1,1) inside the tour, so a tour from (1,1) has only one of them).
        for s in range(h * w):
            r, c = divmod(s, w)
            if (r + c) % 2:
                assert DATA.find(Kind.PATH, h, w, s) is None
                continue
            for need in ("XF", "YFT") if (r, c) == (1, 1) else ("XYFT",):
                assert DATA.find(Kind.PATH, h, w, s, edge_mask(need)) is not None, (h, w, s, need)
    else:
        assert DATA.find(Kind.CYCLE, h, w, -1, edge_mask("XFT")) is not None
        assert DATA.find(Kind.CYCLE, h, w, -1, edge_mask("YFT")) is not None


@pytest.mark.parametrize("record", list(DATA.records(Kind.PATH)), ids=lambda r: f"{r.h}x{r.w}-{r.start}")
def test_block_paths_are_open_tours_from_their_start(record):
    assert_covers(record)
    assert record.squares[0] == record.start and HOP not in record.squares
    assert_knight_path(coords(record, record.squares))
    assert record.edges == edges_used(record, closed=False)


@pytest.mark.parametrize("record", list(DATA.records(Kind.LANE)), ids=lambda r: f"{r.h}x{r.w}")
def test_lanes_carry_each_interface_move_across(record):
    assert_covers(record)
    left, right = strip_ports(record.h, record.w)
    segments = record.segments()
    assert len(segments) == len(STRIP_INTERFACES[record.h])
    for i, seg in enumerate(segments):
        points = coords(record, seg)
        assert points[0] == left[i] and points[-1] == right[i]
        assert_knight_path(points)


@pytest.mark.parametrize("record", list(DATA.records(Kind.CAP_LEFT)) + list(DATA.records(Kind.CAP_RIGHT)),
                         ids=lambda r: f"{'left' if r.kind == Kind.CAP_LEFT else 'right'}-{r.h}x{r.w}")
def test_caps_turn_the_lanes_back_in_pairs(record):
    assert_covers(record)
    left, right = strip_ports(record.h, record.w)
    ports = right if record.kind == Kind.CAP_LEFT else left
    for seg, (a, b) in zip(record.segments(), STRIP_PAIRING[record.h], strict=True):
        points = coords(record, seg)
        assert points[0] == ports[a] and points[-1] == ports[b]
        assert_knight_path(points)


START_KINDS = (Kind.START_MID, Kind.START_LEFT, Kind.START_RIGHT)


@pytest.mark.parametrize("record", [r for k in START_KINDS for r in DATA.records(k)],
                         ids=lambda r: f"{r.kind}-{r.h}x{r.w}-{r.start}")
def test_start_pieces_leave_and_come_back_through_paired_ports(record):
    assert_covers(record)
    assert record.squares[0] == record.start
    left, right = strip_ports(record.h, record.w)
    sides = []
    if record.kind in (Kind.START_MID, Kind.START_RIGHT):
        sides.append(left)
    if record.kind in (Kind.START_MID, Kind.START_LEFT):
        sides.append(right)
    allowed = [{ports[a], ports[b]} for ports in sides for a, b in STRIP_PAIRING[record.h]]
    segments = record.segments()
    used = []
    for seg, nxt in zip(segments, segments[1:]):
        hop = {tuple(coords(record, seg[-1:])[0]), tuple(coords(record, nxt[:1])[0])}
        assert hop in allowed
        used.append(hop)
    assert sorted(map(sorted, used)) == sorted(map(sorted, allowed)), "every pair of ports is used once"
    for seg in segments:
        assert_knight_path(coords(record, seg))


@pytest.mark.parametrize("record", list(DATA.records(Kind.BOARD)), ids=lambda r: f"{r.h}x{r.w}-{r.start}")
def test_small_whole_boards_are_tours_the_theory_allows(record):
    board = Board(record.h, record.w)
    closed = bool(record.edges)
    assert obstruction(board, start=record.start, closed=closed) is None
    assert strip_start_reason(record.h, record.w, record.start) is None
    points = coords(record, record.squares)
    assert_covers(record)
    assert record.squares[0] == record.start
    assert_knight_path(points + points[:1] if closed else points)


def test_records_are_small_and_indices_fit_a_byte():
    assert DATA.squares.dtype == np.uint8 and DATA.squares.size < 100_000
    assert max(r.h * r.w for r in DATA.records()) < HOP


def test_the_generator_script_reproduces_the_shipped_pieces():
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "make_base_tours.py"
    spec = importlib.util.spec_from_file_location("make_base_tours", script)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    shipped = {(r.kind, r.h, r.w, r.start, r.edges): r.squares.tolist() for r in DATA.records()}
    fresh = gen.block_cycles(6, 8, print) + gen.block_paths(5, 7, print) + [
        gen.strip_lane(3, 4), gen.strip_lane(4, 6), gen.strip_cap(3, 7, "left"), gen.strip_cap(4, 5, "right")]
    for kind, h, w, start, edges, squares in fresh:
        assert shipped[kind, h, w, start, edges] == squares
