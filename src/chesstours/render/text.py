"""Text renderings of boards: the numbered grid that knight's tour programs print.

The grid shows rank N at the top and rank 1 at the bottom, rank numbers on the
left and file letters below, each square holding its move number.

A tour of 10^8 squares would need 10^8 Python strings; :func:`tour_chunks`
renders the same text as :func:`render_tour` as bytes, a chunk of squares at a
time, with numpy (names are built as byte columns: letters, digits, quotes).
"""

from __future__ import annotations

import json

import numpy as np

from ..board import Board, file_name, grid_lines, number_grid
from ..tour import jsonable

__all__ = ["number_grid", "grid_lines", "render_tour", "tour_chunks", "name_chunks", "grid_chunks"]


def render_tour(tour, fmt: str = "grid") -> str:
    """Render a tour as ``grid`` (numbered board), ``moves`` (one line) or ``json``."""
    if fmt == "grid":
        return tour.grid()
    if fmt == "moves":
        return tour.moves()
    if fmt == "json":
        return json.dumps(tour.to_dict())
    raise ValueError(f"unknown format {fmt!r}")


# -- streaming: tours too large to hold as Python strings --------------------------

#: Squares rendered per chunk when streaming.
STREAM_CHUNK = 1 << 20


def _letters(count: int) -> np.ndarray:
    """``uint8[count, L]``: the file letters of files 0..count-1, left-aligned, zero-padded."""
    c = np.arange(count, dtype=np.int64) + 1
    digits = []
    while np.any(c > 0):
        alive = c > 0
        c_minus = np.where(alive, c - 1, 0)
        digits.append(np.where(alive, ord("a") + c_minus % 26, 0).astype(np.uint8))
        c = np.where(alive, c_minus // 26, 0)
    letters = np.stack(digits[::-1], axis=1) if digits else np.zeros((count, 1), dtype=np.uint8)
    return _left_align(letters)


def _decimal(values: np.ndarray, width: int) -> np.ndarray:
    """``uint8[len, width]``: the decimal digits of ``values`` (>= 0), right-aligned, zero bytes before."""
    v = np.asarray(values, dtype=np.int64).copy()
    out = np.zeros((v.size, width), dtype=np.uint8)
    for k in range(width - 1, -1, -1):
        show = (v > 0) | (k == width - 1)
        out[:, k] = np.where(show, ord("0") + v % 10, 0)
        v //= 10
    return out


def _left_align(cells: np.ndarray) -> np.ndarray:
    """Move the zero bytes of each row to its end (keeping the order of the others)."""
    order = np.argsort(cells == 0, axis=1, kind="stable")
    return np.take_along_axis(cells, order, axis=1)


def _compact(cells: np.ndarray) -> bytes:
    flat = cells.reshape(-1)
    return flat[flat != 0].tobytes()


def name_chunks(board: Board, path: np.ndarray, before: bytes = b"", after: bytes = b" ",
                chunk: int = STREAM_CHUNK):
    """Yield the names of the squares of ``path`` as bytes, each wrapped in ``before`` and ``after``."""
    letters = _letters(board.cols)
    ranks = _left_align(_decimal(np.arange(1, board.rows + 1), len(str(board.rows))))
    pre = np.frombuffer(before, dtype=np.uint8)
    post = np.frombuffer(after, dtype=np.uint8)
    for lo in range(0, len(path), chunk):
        r, c = np.divmod(path[lo : lo + chunk].astype(np.int64), board.cols)
        cells = np.concatenate([np.broadcast_to(pre, (r.size, pre.size)), letters[c], ranks[r],
                                np.broadcast_to(post, (r.size, post.size))], axis=1)
        yield _compact(cells)


def _inverse(path: np.ndarray, size: int, chunk: int = STREAM_CHUNK) -> np.ndarray:
    """``int32[size]``: the move number (1..N) of each square, 0 where the path does not go."""
    numbers = np.zeros(size, dtype=np.int32)
    for lo in range(0, len(path), chunk):
        hi = min(len(path), lo + chunk)
        numbers[path[lo:hi]] = np.arange(lo + 1, hi + 1, dtype=np.int32)
    return numbers


def grid_chunks(board: Board, path: np.ndarray, chunk: int = STREAM_CHUNK):
    """Yield :func:`number_grid` of the tour's move numbers as bytes, a band of ranks at a time."""
    numbers = _inverse(path, board.size).reshape(board.rows, board.cols)
    width = max(2, len(str(len(path))), len(file_name(board.cols - 1)))
    label = len(str(board.rows))
    hole = board.hole_mask.reshape(board.rows, board.cols) if board.holes else None
    rows_per = max(1, chunk // max(1, board.cols))
    for top in range(board.rows, 0, -rows_per):
        lo = max(0, top - rows_per)
        band = numbers[lo:top][::-1]
        cells = _decimal(band.reshape(-1), width).reshape(band.shape[0], board.cols, width)
        cells[cells == 0] = ord(" ")
        empty = band == 0
        cells[empty] = np.frombuffer(b" " * (width - 1) + b".", dtype=np.uint8)
        if hole is not None:
            cells[hole[lo:top][::-1]] = np.frombuffer(b" " * (width - 1) + b"#", dtype=np.uint8)
        space = np.full((band.shape[0], board.cols, 1), ord(" "), dtype=np.uint8)
        body = np.concatenate([space, cells], axis=2).reshape(band.shape[0], -1)
        ranks = range(top - 1, lo - 1, -1)
        prefix = np.array([f"{r + 1:>{label}} |".encode() for r in ranks], dtype=f"S{label + 2}")
        prefix = prefix.view(np.uint8).reshape(band.shape[0], label + 2)
        newline = np.full((band.shape[0], 1), ord("\n"), dtype=np.uint8)
        yield np.concatenate([prefix, body, newline], axis=1).tobytes()
    letters = _letters(board.cols)
    cells = np.full((board.cols, width + 1), ord(" "), dtype=np.uint8)
    lengths = np.count_nonzero(letters, axis=1)
    for k in range(letters.shape[1]):
        # Right-align each file name in its cell.
        col = width + 1 - lengths + k
        ok = k < lengths
        cells[np.flatnonzero(ok), col[ok]] = letters[ok, k]
    yield b" " * (label + 2) + cells.tobytes()


def tour_chunks(tour, fmt: str, chunk: int = STREAM_CHUNK):
    """Yield the tour rendered as ``grid``, ``moves`` or ``json`` in bytes, chunk by chunk.

    The bytes are those of :func:`render_tour` (encoded as UTF-8), without
    building one Python string per square: a tour of 10^8 squares streams in
    bounded memory besides its path.
    """
    board, path = tour.board, tour.path
    if fmt == "grid":
        yield from grid_chunks(board, path, chunk)
    elif fmt == "moves":
        yield from _joined(name_chunks(board, path, chunk=chunk), 1)
    elif fmt == "json":
        head = {"board": board.spec(), "piece": tour.piece.spec(), "closed": bool(tour.closed), "path": 0,
                "method": tour.method, "stats": jsonable(tour.stats)}
        text = json.dumps(head)
        cut = text.index('"path": 0') + len('"path": ')
        yield text[:cut].encode() + b"["
        yield from _joined(name_chunks(board, path, b'"', b'", ', chunk), 2)
        yield b"]" + text[cut + 1 :].encode()
    else:
        raise ValueError(f"unknown format {fmt!r}")


def _joined(chunks, strip: int):
    """Pass the chunks on, dropping the last ``strip`` bytes of the last one (a trailing separator)."""
    previous = None
    for part in chunks:
        if previous is not None:
            yield previous
        previous = part
    if previous is not None:
        yield previous[: len(previous) - strip]
