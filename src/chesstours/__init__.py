"""chesstours: knight's tours and other leaper tours -- find, count, explain and draw them."""

from .api import TourCount, count_tours, estimate_count, find_tour, iter_tours
from .board import Board
from .complete import complete_tour
from .errors import (
    ChessToursError,
    InvalidArgument,
    InvalidBoard,
    InvalidPiece,
    InvalidSquare,
    LimitReached,
    NoTour,
)
from .pieces import CAMEL, GIRAFFE, KNIGHT, ZEBRA, Leaper, move_table, parse_piece
from .tour import InvalidTour, Tour

__version__ = "0.1.0"

__all__ = [
    "find_tour",
    "iter_tours",
    "count_tours",
    "complete_tour",
    "estimate_count",
    "TourCount",
    "Board",
    "Leaper",
    "KNIGHT",
    "CAMEL",
    "ZEBRA",
    "GIRAFFE",
    "parse_piece",
    "move_table",
    "Tour",
    "ChessToursError",
    "InvalidBoard",
    "InvalidSquare",
    "InvalidPiece",
    "InvalidArgument",
    "InvalidTour",
    "NoTour",
    "LimitReached",
]
