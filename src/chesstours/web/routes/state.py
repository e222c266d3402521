"""What every route reads off the app: its limits and its worker lanes."""

from fastapi import Request

from ..limits import Lanes, Limits


def limits_of(request: Request) -> Limits:
    """The server's :class:`~chesstours.web.limits.Limits`."""
    return request.app.state.limits


def lanes_of(request: Request) -> Lanes:
    """The server's :class:`~chesstours.web.limits.Lanes` (quick and slow worker threads)."""
    return request.app.state.lanes
