"""The bishop search's kernels in plain Python: the same search, step for step, without numba.

Twins of :func:`chesstours.bishop.kernel.advance` and
:func:`~chesstours.bishop.kernel.count_lines_needed`: each takes the same
arrays and leaves them as the compiled one would (the stack, the flags, the
registers, the best route), so a search may start here and go on in the
kernel (:class:`chesstours.bishop.search.BishopSearch` decides when). A small
board's search is over here before numba could load; the tests hold the two
to each other. The arrays are read into lists at the start of a call and
written back at its end.
"""

from __future__ import annotations

from .layout import (
    CODE_BUDGET,
    CODE_EXHAUSTED,
    CODE_FOUND,
    REG_BEST_LEN,
    REG_COUNT,
    REG_COVERED,
    REG_DEPTH,
    REG_FLOOR,
    REG_MAX_SLIDES,
    REG_MINIMIZE,
    REG_NODES,
    REG_PENDING,
    REG_TARGET,
)

__all__ = ["advance", "count_lines_needed"]


def _enterable(step_to, flags, u, y) -> bool:
    """As the kernel's: unvisited ``u`` can still be entered (from ``y`` or a neighbour with a flag clear)."""
    return any(w >= 0 and (w == y or flags[w] != 3) for w in step_to[u])


def _passable(step_to, flags, u, y) -> bool:
    """As the kernel's: unvisited ``u`` can still be entered from one neighbour and left to another."""
    row = step_to[u]
    for i, w_in in enumerate(row):
        if w_in < 0 or not (w_in == y or flags[w_in] != 3):
            continue
        for j, w_out in enumerate(row):
            if j != i and w_out >= 0 and (flags[w_out] >> (j & 1)) & 1 == 0:
                return True
    return False


def _stranded(step_to, flags, visits, x, y, end, last) -> int:
    """As the kernel's: the route's forced last square after the step ``x -> y``, -1, or -2 (dead end)."""
    for c in (x, y):
        for u in step_to[c]:
            if u < 0 or visits[u] != 0 or _passable(step_to, flags, u, y):
                continue
            if end >= 0 and u != end:
                return -2
            if not _enterable(step_to, flags, u, y):
                return -2
            if end < 0:
                if last >= 0 and last != u:
                    return -2
                last = u
    return last


def _lines_needed(step_to, visits, line_squares, b_line_of, y, d) -> int:
    """Fewest diagonal lines covering the unvisited squares, except those straight ahead of ``y`` (the
    size of a maximum matching between A-lines and B-lines, by Kuhn's augmenting paths)."""
    ahead = set()
    if d >= 0:
        u = step_to[y][d]
        while u >= 0:
            ahead.add(u)
            u = step_to[u][d]
    edges = [[b_line_of[v] for v in line if v >= 0 and visits[v] == 0 and v not in ahead] for line in line_squares]
    match_b: dict[int, int] = {}

    def augment(a: int, seen: set[int]) -> bool:
        for b in edges[a]:
            if b in seen:
                continue
            seen.add(b)
            if b not in match_b or augment(match_b[b], seen):
                match_b[b] = a
                return True
        return False

    return sum(1 for a in range(len(edges)) if edges[a] and augment(a, set()))


def count_lines_needed(step_to, visits, line_squares, b_line_of, y, d, scratch) -> int:
    """The kernel's ``count_lines_needed`` (``scratch``, the kernel's work space, is not needed here)."""
    return _lines_needed(step_to.tolist(), visits.tolist(), line_squares.tolist(), b_line_of.tolist(), int(y),
                         int(d))


def _step_back(flags, visits, square, direction, set_source, depth) -> int:
    """As the kernel's: undo the step that led to ``depth``; 1 if it had visited a new square."""
    y, x = square[depth], square[depth - 1]
    keep = 2 - (direction[depth] & 1)  # the other axis's bit
    flags[y] &= keep
    if set_source[depth]:
        flags[x] &= keep
    visits[y] -= 1
    return 1 if visits[y] == 0 else 0


def advance(step_to, order, flags, visits, stack_square, stack_next, stack_dir, stack_set_source, stack_slides,
            stack_last, end, use_bound, line_squares, b_line_of, scratch, best_steps, stop_at_route, budget,
            regs) -> int:
    """The kernel's ``advance``, step for step: at most ``budget`` steps; 0 found, 1 exhausted, 2 budget."""
    table, orders = step_to.tolist(), order.tolist()
    lines, b_lines = line_squares.tolist(), b_line_of.tolist()
    flag, seen = flags.tolist(), visits.tolist()
    square, nxt, direction = stack_square.tolist(), stack_next.tolist(), stack_dir.tolist()
    set_source, slides_at, last_at = stack_set_source.tolist(), stack_slides.tolist(), stack_last.tolist()
    end, use_bound = int(end), bool(use_bound)
    depth, nodes, count, covered = (int(regs[r]) for r in (REG_DEPTH, REG_NODES, REG_COUNT, REG_COVERED))
    target, max_slides, floor = int(regs[REG_TARGET]), int(regs[REG_MAX_SLIDES]), int(regs[REG_FLOOR])
    minimize = regs[REG_MINIMIZE] != 0
    limit = nodes + int(budget)
    if regs[REG_PENDING]:
        regs[REG_PENDING] = 0
        covered -= _step_back(flag, seen, square, direction, set_source, depth)
        depth -= 1
    while True:
        if depth < 0 or max_slides < floor:
            depth, code = 0, CODE_EXHAUSTED
            break
        k = nxt[depth]
        if k >= 4:
            if depth > 0:
                covered -= _step_back(flag, seen, square, direction, set_source, depth)
            depth -= 1
            continue
        nxt[depth] = k + 1
        x = square[depth]
        d = orders[x][k]
        y = table[x][d]
        if y < 0:
            continue
        bit = 1 << (d & 1)
        if flag[y] & bit:
            continue
        slides = slides_at[depth] + (1 if d != direction[depth] else 0)
        if slides > max_slides:
            continue
        if nodes >= limit:
            nxt[depth] = k
            code = CODE_BUDGET
            break
        nodes += 1
        source = (flag[x] & bit) == 0
        flag[x] |= bit
        flag[y] |= bit
        seen[y] += 1
        if seen[y] == 1:
            covered += 1
        depth += 1
        square[depth], direction[depth], set_source[depth], slides_at[depth], nxt[depth] = y, d, source, slides, 0
        if covered == target and (end < 0 or y == end):
            count += 1
            if minimize:
                best_steps[: depth + 1] = square[: depth + 1]
                regs[REG_BEST_LEN] = depth + 1
                max_slides = slides - 1
            elif stop_at_route:
                regs[REG_PENDING] = 1
                code = CODE_FOUND
                break
            nxt[depth] = 4
            continue
        last = _stranded(table, flag, seen, x, y, end, last_at[depth - 1])
        last_at[depth] = last
        dead = last == -2
        if not dead and x == end and flag[x] == 3:
            dead = True
        if not dead and use_bound and slides + (target - covered) > max_slides:
            dead = slides + _lines_needed(table, seen, lines, b_lines, y, d) > max_slides
        if dead:
            nxt[depth] = 4
    regs[REG_DEPTH], regs[REG_NODES], regs[REG_COUNT], regs[REG_COVERED] = depth, nodes, count, covered
    if code != CODE_FOUND:
        regs[REG_MAX_SLIDES] = max_slides
    flags[:], visits[:] = flag, seen
    stack_square[:], stack_next[:], stack_dir[:] = square, nxt, direction
    stack_set_source[:], stack_slides[:], stack_last[:] = set_source, slides_at, last_at
    return code
