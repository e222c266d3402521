"""What every route reads off the app: its limits and its worker lanes, what names a request's cost, and
whether its client is still there."""

from collections.abc import Awaitable, Callable, Hashable

from fastapi import Request

from ..limits import Lanes, Limits

#: Query parameters that name squares or a seed: a request's shape is its query without them.
SQUARE_PARAMETERS = frozenset({"start", "end", "holes", "prefix", "seed"})


def limits_of(request: Request) -> Limits:
    """The server's :class:`~chesstours.web.limits.Limits`."""
    return request.app.state.limits


def lanes_of(request: Request) -> Lanes:
    """The server's :class:`~chesstours.web.limits.Lanes` (quick threads, slow processes, pictures)."""
    return request.app.state.lanes


def cost_keys(request: Request) -> tuple[Hashable, Hashable]:
    """The request's query and its shape, by which :class:`~chesstours.web.limits.Costs` remembers what
    outgrew the quick lane."""
    items = tuple(sorted(request.query_params.multi_items()))
    shape = tuple((k, v) for k, v in items if k not in SQUARE_PARAMETERS)
    return (request.url.path, items), (request.url.path, shape)


def client_gone(request: Request) -> Callable[[], Awaitable[None]]:
    """A coroutine function that returns once the request's client has gone away (closed its connection), for
    the slow lane to stop the work it does for it."""

    async def gone() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    return gone


def accepts_gzip(request: Request) -> bool:
    """Whether the client takes an answer compressed with gzip (its ``Accept-Encoding``)."""
    return "gzip" in request.headers.get("accept-encoding", "")
