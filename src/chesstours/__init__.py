"""chesstours: knight's tours and other leaper tours -- find, count, explain and draw them."""

from .bishop.route import BishopRoute
from .bishop.solve import BishopCount, count_bishop_routes, iter_bishop_routes, solve_bishop
from .board import Board
from .complete import complete_tour
from .count import TourCount, count_tours, estimate_count
from .errors import (
    ChessToursError,
    GaveUp,
    InvalidArgument,
    InvalidBoard,
    InvalidPiece,
    InvalidSquare,
    LimitReached,
    NoTour,
    ResourceError,
)
from .exists import Existence, tour_exists
from .find import find_tour, iter_tours
from .graph import leaper_graph
from .pieces import CAMEL, GIRAFFE, KNIGHT, ZEBRA, Leaper, move_table, parse_piece
from .render.picture import draw_tour, draw_trace, save_tour, show_in_notebooks
from .tour import InvalidTour, Tour
from .trace import TraceEvent, trace_search


def _version() -> str:
    """The installed distribution's version: pyproject.toml's ``version``, the one source of it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chesstours")
    except PackageNotFoundError:  # the source tree, not installed
        return "0+unknown"


__version__ = _version()

__all__ = [
    "find_tour",
    "iter_tours",
    "count_tours",
    "complete_tour",
    "estimate_count",
    "TourCount",
    "tour_exists",
    "Existence",
    "Board",
    "Leaper",
    "KNIGHT",
    "CAMEL",
    "ZEBRA",
    "GIRAFFE",
    "parse_piece",
    "move_table",
    "leaper_graph",
    "Tour",
    "ChessToursError",
    "InvalidBoard",
    "InvalidSquare",
    "InvalidPiece",
    "InvalidArgument",
    "InvalidTour",
    "NoTour",
    "GaveUp",
    "LimitReached",
    "ResourceError",
    "solve_bishop",
    "iter_bishop_routes",
    "count_bishop_routes",
    "BishopRoute",
    "BishopCount",
    "trace_search",
    "TraceEvent",
    "draw_tour",
    "save_tour",
    "draw_trace",
]

show_in_notebooks()  # in a notebook, tours and bishop routes show as their pictures
