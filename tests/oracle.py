"""An independent brute-force oracle: adjacency from first principles and plain recursive enumeration."""

from __future__ import annotations

from chesstours.board import Board
from chesstours.pieces import KNIGHT, Leaper


def neighbours(board: Board, piece: Leaper) -> dict[int, list[int]]:
    """Adjacency computed from first principles (not from the move table)."""
    out: dict[int, list[int]] = {}
    for v in range(board.size):
        if v in board.holes:
            continue
        r, c = divmod(v, board.cols)
        nb = []
        for dr in range(-piece.b, piece.b + 1):
            for dc in range(-piece.b, piece.b + 1):
                if piece.is_move(dr, dc) and 0 <= r + dr < board.rows and 0 <= c + dc < board.cols:
                    u = (r + dr) * board.cols + c + dc
                    if u not in board.holes:
                        nb.append(u)
        out[v] = nb
    return out


def walk_all(nb: dict[int, list[int]], starts: list[int], visit) -> None:
    """Call ``visit(path)`` with every path from one of ``starts`` through all squares of ``nb`` (plain recursion)."""
    n = len(nb)

    def walk(path: list[int], seen: set[int]) -> None:
        if len(path) == n:
            visit(path)
            return
        for u in nb[path[-1]]:
            if u not in seen:
                seen.add(u)
                path.append(u)
                walk(path, seen)
                path.pop()
                seen.discard(u)

    for s in starts:
        walk([s], {s})


def brute_force_counts(board: Board, piece: Leaper = KNIGHT) -> dict:
    """Plain recursive enumeration, no pruning: directed open tours per start and per (start, end), and cycles."""
    nb = neighbours(board, piece)
    free = sorted(nb)
    n = len(free)
    per_start = {v: 0 for v in free}
    per_pair: dict[tuple[int, int], int] = {}
    closed_directed = 0

    def visit(path: list[int]) -> None:
        nonlocal closed_directed
        per_start[path[0]] += 1
        key = (path[0], path[-1])
        per_pair[key] = per_pair.get(key, 0) + 1
        if n > 2 and path[0] in nb[path[-1]]:
            closed_directed += 1

    walk_all(nb, free, visit)
    # Each cycle appears n times (starts) x 2 (directions) among directed closed sequences.
    cycles = closed_directed // (2 * n) if n > 2 else 0
    return {"per_start": per_start, "per_pair": per_pair, "cycles": cycles, "free": free}
