"""Boards and tours as networkx graphs, for the graph tools people already use.

:func:`leaper_graph` is the graph of a piece's moves on a board (the graph
whose Hamiltonian paths are the tours); :func:`tour_graph` (or
:meth:`Tour.to_networkx <chesstours.tour.Tour.to_networkx>`) is one tour as a
path or a cycle. Nodes are square indices (``row * cols + col``) with their
``name``, ``row`` and ``col`` as attributes. networkx is an optional extra:
``pip install 'chesstours[graph]'``.

Examples
--------
>>> import networkx as nx
>>> from chesstours import Board, find_tour
>>> g = leaper_graph(Board(8, 8))
>>> g.number_of_nodes(), g.number_of_edges(), nx.is_bipartite(g)
(64, 168, True)
>>> tour = find_tour("6x6", start="a1", closed=True)
>>> t = tour.to_networkx()
>>> nx.is_isomorphic(t, nx.cycle_graph(36)), all(leaper_graph("6x6").has_edge(*e) for e in t.edges)
(True, True)
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from .board import Board
from .errors import InvalidArgument
from .pieces import KNIGHT, Leaper, move_table, parse_piece

__all__ = ["leaper_graph", "tour_graph"]


class _Walk(Protocol):
    """What :func:`tour_graph` reads of a :class:`~chesstours.tour.Tour` (a frozen value)."""

    @property
    def board(self) -> Board: ...

    @property
    def piece(self) -> Leaper: ...

    @property
    def path(self) -> np.ndarray: ...

    @property
    def closed(self) -> bool: ...


def _networkx() -> Any:
    try:
        import networkx
    except ImportError:
        raise InvalidArgument("Graphs need networkx: pip install 'chesstours[graph]'.") from None
    return networkx


def _squares(g: Any, board: Board, squares: list[int]) -> None:
    for v in squares:
        g.add_node(v, name=board.name(v), row=board.row(v), col=board.col(v))


def leaper_graph(board: Board | str, piece: Leaper | str = KNIGHT) -> Any:
    """The graph of ``piece``'s moves on ``board``: a node a free square, an edge a move.

    :raises InvalidArgument: if networkx is not installed.
    """
    nx = _networkx()
    board = Board.parse(board) if isinstance(board, str) else board
    table = move_table(board, parse_piece(piece))
    g = nx.Graph(board=board.spec(), piece=parse_piece(piece).spec())
    free = board.free_squares.tolist()
    _squares(g, board, free)
    g.add_edges_from((v, int(u)) for v in free for u in table[v] if u > v)
    return g


def tour_graph(tour: _Walk, directed: bool = False) -> Any:
    """One tour as a graph: its squares, with their ``step`` (from 1), and its moves, with theirs.

    A path (open tour) or a cycle (closed), as a :class:`networkx.Graph`, or a
    :class:`networkx.DiGraph` whose edges follow the tour with ``directed``.

    :raises InvalidArgument: if networkx is not installed.
    """
    nx = _networkx()
    g = (nx.DiGraph if directed else nx.Graph)(board=tour.board.spec(), piece=tour.piece.spec(),
                                               closed=bool(tour.closed))
    path = tour.path.tolist()
    _squares(g, tour.board, path)
    for step, v in enumerate(path, 1):
        g.nodes[v]["step"] = step
    moves = list(zip(path, path[1:] + path[:1] if tour.closed and len(path) > 2 else path[1:]))
    g.add_edges_from((a, b, {"step": i}) for i, (a, b) in enumerate(moves, 1))
    return g
