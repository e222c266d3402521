"""chesstours: knight's tours and other leaper tours -- find, count, explain and draw them."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing itself is a hundredth of a second to import
if TYPE_CHECKING:
    from typing import Any

    __version__: str

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
    from .render.picture import draw_tour, draw_trace, save_tour
    from .sample import TourStatistics, sample_tours, tour_statistics
    from .tour import InvalidTour, Tour
    from .trace import TraceEvent, trace_search

#: Where each name of the api lives: it is imported on first use (:func:`__getattr__`).
_HOMES = {
    "BishopRoute": ".bishop.route",
    "BishopCount": ".bishop.solve",
    "count_bishop_routes": ".bishop.solve",
    "iter_bishop_routes": ".bishop.solve",
    "solve_bishop": ".bishop.solve",
    "Board": ".board",
    "complete_tour": ".complete",
    "TourCount": ".count",
    "count_tours": ".count",
    "estimate_count": ".count",
    "ChessToursError": ".errors",
    "GaveUp": ".errors",
    "InvalidArgument": ".errors",
    "InvalidBoard": ".errors",
    "InvalidPiece": ".errors",
    "InvalidSquare": ".errors",
    "LimitReached": ".errors",
    "NoTour": ".errors",
    "ResourceError": ".errors",
    "Existence": ".exists",
    "tour_exists": ".exists",
    "find_tour": ".find",
    "sample_tours": ".sample",
    "tour_statistics": ".sample",
    "TourStatistics": ".sample",
    "iter_tours": ".find",
    "leaper_graph": ".graph",
    "CAMEL": ".pieces",
    "GIRAFFE": ".pieces",
    "KNIGHT": ".pieces",
    "ZEBRA": ".pieces",
    "Leaper": ".pieces",
    "move_table": ".pieces",
    "parse_piece": ".pieces",
    "draw_tour": ".render.picture",
    "draw_trace": ".render.picture",
    "save_tour": ".render.picture",
    "InvalidTour": ".tour",
    "Tour": ".tour",
    "TraceEvent": ".trace",
    "trace_search": ".trace",
}


def _version() -> str:
    """The installed distribution's version: pyproject.toml's ``version``, the one source of it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chesstours")
    except PackageNotFoundError:  # the source tree, not installed
        return "0+unknown"


__all__ = [
    "find_tour",
    "iter_tours",
    "count_tours",
    "sample_tours",
    "tour_statistics",
    "TourStatistics",
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


def __getattr__(name: str) -> Any:
    """A name of the api, imported from its module on first use, and ``__version__`` read on first use:
    ``import chesstours`` imports numpy and the rest only when a name asks for them, so that the command line
    takes its signals before it waits for them (:mod:`chesstours.__main__`)."""
    import importlib

    if name == "__version__":
        globals()[name] = version = _version()
        return version
    home = _HOMES.get(name)
    if home is None:  # a module of the package, as `chesstours.policy` after an import of chesstours
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    if "IPython" in sys.modules:  # in a notebook: tours and routes show as their pictures (set again: harmless)
        importlib.import_module(".render.picture", __name__).show_in_notebooks()
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
