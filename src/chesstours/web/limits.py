"""What protects the server: size limits, time limits and admission lanes.

A public page invites a flood of requests, some of them enormous (count every
tour of 8x8). Every request that searches goes through these checks:

* **size**: boards larger than :attr:`Limits.tour_squares` are refused for
  tours and existence questions, and larger than :attr:`Limits.count_squares`
  for exhaustive counts; a count whose estimated search (Knuth's random
  probes) does not fit in the time limit is refused before it starts;
* **time**: every search runs with a time limit, whatever the request asks;
* **admission**: searches run behind two *lanes*. The ``quick`` lane runs
  every tour search first, with a short time budget, on a few threads of the
  server with a long queue; only a search that needs more time moves on to
  the ``slow`` lane, whose searches run in worker processes
  (:class:`ProcessLane`, :mod:`chesstours.web.workers`), one in each, with a
  queue of a few places. Counts, traces and searches asked to be exhaustive
  (``method=backtrack``) go to the ``slow`` lane directly; pictures are drawn
  in a process of their own behind a third lane (:mod:`chesstours.web.drawing`),
  whose place a picture request takes before its search. A lane whose queue is
  full, or whose wait runs out, refuses the request at once with :class:`Busy`
  (HTTP 503), so a flood of expensive requests is turned away in microseconds
  and never holds a thread that a cheap request needs;
* **measured cost**: a request whose search outgrew the quick lane's budget is
  remembered (:class:`Costs`), by its query and by its shape (the query
  without its squares); the same query, or a shape that outgrew the budget
  again and again, goes to the slow lane at once. A flood of requests that are
  not cheap then holds the quick threads once, not for each request;
* **answers off the loop**: an answer is encoded as JSON where it was made
  (:func:`json_answer`): in a quick thread for a cheap search, in a worker
  process for the slow lane's, so a large one (a trace of thousands of events)
  holds neither the event loop nor the interpreter lock that every other
  request needs;
* **stopped work**: a slow search whose client goes away, or that outlives
  its time limit, is stopped (its process is killed and replaced).

The Python parts of a slow search, a trace made event by event and the
encoding of a large answer hold the interpreter lock of their process: in a
worker process they leave the server's to the event loop and the quick lane.
The worker processes run at a lower scheduling priority (``nice`` 5), so that
on a machine with fewer cores than busy processes the kernel gives the quick
lane the CPU first.
"""

from __future__ import annotations

import asyncio
import functools
import time
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from fastapi.responses import JSONResponse, Response

from ..board import Board
from ..errors import ChessToursError, InvalidArgument, LimitReached
from ..runtime import cores
from .workers import Workers

__all__ = ["Busy", "Costs", "Lane", "Lanes", "Limits", "OverLimit", "ProcessLane", "gzipped",
           "json_answer", "slow_processes"]

T = TypeVar("T")
P = TypeVar("P")


class OverLimit(InvalidArgument):
    """A request larger than this server accepts (HTTP 400)."""


class Busy(ChessToursError):
    """Every place in a lane is taken: try again later (HTTP 503)."""

    def __init__(self, message: str, retry_after: int = 1):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Limits:
    """The server's limits; every field can be changed for a private server.

    Attributes
    ----------
    tour_squares : int
        Largest board (squares, holes included) for tours, existence and the move table.
    count_squares : int
        Largest board for exhaustive counts.
    search_seconds : float
        Time limit of every tour or existence search (a request may ask for less).
    count_seconds : float
        Time limit of every count.
    quick_seconds : float
        Time budget of a search in the quick lane before it moves to the slow lane.
    quick_threads, quick_queue, quick_wait : int, int, float
        Searches running at once in the quick lane, requests allowed to wait
        for a place, and the longest wait in seconds.
    slow_threads, slow_queue, slow_wait : int or None, int, float
        The same for the slow lane, whose searches run in worker processes
        (:mod:`chesstours.web.workers`), one at a time in each: how many
        processes (None: one for every two cores, from one to four).
    picture_threads, picture_queue, picture_wait : int, int, float
        The same for the picture lane: pictures drawn at once (each in the
        drawing process, :mod:`chesstours.web.drawing`), and those that may wait.
    count_workers : int
        Threads of one count.
    bishop_squares, bishop_count_squares : int
        Largest board for a bishop route, and for counting bishop routes.
    bishop_routes : int
        Most bishop routes one request may list.
    trace_squares, trace_steps : int
        Largest board of a search trace, and most events one trace may return.
    gif_squares : int
        Largest board drawn as an animated GIF (one frame a move).
    picture_memory : int
        Bytes an animation may hold while it is drawn; a size too large for it is refused.
    header_seconds : float
        Time a connection has to send a request's head, from its start and after each answer;
        an idle or slow connection is closed then.
    header_bytes : int
        Largest request head (the request line and the headers) accepted, in bytes (HTTP 431 beyond).
    query_chars : int
        Longest query string accepted (HTTP 414 beyond).
    body_bytes : int
        Largest request body accepted (HTTP 413 beyond); the api reads none, but for a tour to check.
    check_bytes : int
        Largest tour accepted by ``POST /api/check`` (moves, a numbered grid or JSON), in bytes (HTTP 413 beyond).
    connections : int or None
        Most connections kept open (a request past them takes an idle one's place, and is answered 503
        where every one has a request at work); None: what the open-file limit allows, up to 4,096.
    """

    tour_squares: int = 2500
    count_squares: int = 48
    search_seconds: float = 10.0
    count_seconds: float = 10.0
    quick_seconds: float = 0.5
    quick_threads: int = 4
    quick_queue: int = 512
    quick_wait: float = 20.0
    slow_threads: int | None = None
    slow_queue: int = 4
    slow_wait: float = 5.0
    picture_threads: int = 1
    picture_queue: int = 4
    picture_wait: float = 2.0
    count_workers: int = 1
    bishop_squares: int = 400
    bishop_count_squares: int = 100
    bishop_routes: int = 100
    trace_squares: int = 400
    trace_steps: int = 2000
    gif_squares: int = 144
    picture_memory: int = 256 << 20
    header_seconds: float = 10.0
    header_bytes: int = 32 * 1024
    query_chars: int = 4096
    body_bytes: int = 1024
    check_bytes: int = 64 * 1024
    connections: int | None = None

    def check_tour_board(self, board: Board) -> None:
        """:raises OverLimit: when ``board`` is too large for an interactive tour."""
        if board.size > self.tour_squares:
            raise OverLimit(
                f"This server works on boards of at most {self.tour_squares:,} squares and {board.rows}x{board.cols} "
                f"has {board.size:,}; the command line has no such limit (chesstours tour {board.rows}x{board.cols})."
            )

    def check_count_board(self, board: Board) -> None:
        """:raises OverLimit: when ``board`` is too large for an exhaustive count here."""
        if board.free_count > self.count_squares:
            raise OverLimit(
                f"This server counts tours on boards of at most {self.count_squares} squares and {board} has "
                f"{board.free_count:,}: the number of paths grows exponentially with the board "
                f"(chesstours count {board.rows}x{board.cols} --time-limit SECONDS counts as far as it gets)."
            )

    def check_bishop_board(self, board: Board, count: bool = False) -> None:
        """:raises OverLimit: when ``board`` is too large for a bishop route (or, with ``count``, a count)."""
        most = self.bishop_count_squares if count else self.bishop_squares
        if board.size > most:
            what = "counts bishop routes" if count else "looks for bishop routes"
            flag = " --count" if count else ""
            raise OverLimit(
                f"This server {what} on boards of at most {most:,} squares and {board.rows}x{board.cols} has "
                f"{board.size:,}; the command line has no such limit (chesstours bishop {board.rows}x{board.cols}"
                f"{flag})."
            )

    def check_trace(self, board: Board, steps: int) -> None:
        """:raises OverLimit: when a trace of ``steps`` events on ``board`` is larger than this server returns."""
        if board.size > self.trace_squares:
            raise OverLimit(
                f"This server traces searches on boards of at most {self.trace_squares:,} squares and "
                f"{board.rows}x{board.cols} has {board.size:,}; the command line has no such limit "
                f"(chesstours trace {board.rows}x{board.cols})."
            )
        if not 1 <= steps <= self.trace_steps:
            raise OverLimit(f"A trace here has from 1 to {self.trace_steps:,} steps, not {steps:,}; the command "
                            f"line shows any number (chesstours trace --steps N).")

    def check_picture(self, fmt: str, board: Board) -> None:
        """:raises OverLimit: when an animated GIF of ``board`` would be larger than this server draws."""
        if fmt == "gif" and board.size > self.gif_squares:
            raise OverLimit(
                f"This server draws animated GIFs of boards of at most {self.gif_squares:,} squares and "
                f"{board.rows}x{board.cols} has {board.size:,}; ask for format=svg or png, or use the command "
                f"line (chesstours tour {board.rows}x{board.cols} -o tour.gif)."
            )

    def time_limit(self, asked: float | None, cap: float) -> float:
        """The time limit of a search: what the request asked for, at most ``cap``.

        A bad value (negative, zero, NaN) is passed on for the api to refuse with its own sentence.
        """
        if asked is None:
            return cap
        return asked if not asked > 0 else min(asked, cap)


class Lane:
    """Run blocking functions in worker threads, at most ``threads`` at once.

    Up to ``queue`` requests wait for a thread, each at most ``wait`` seconds;
    past either, :class:`Busy` is raised at once.
    """

    def __init__(self, name: str, threads: int, queue: int, wait: float, retry_after: int, noun: str = ""):
        self.name = name
        self.noun = noun or f"{name} searches"
        self.threads = threads
        self.queue = queue
        self.wait = wait
        self.retry_after = retry_after
        self.running = 0
        self.waiting = 0
        self.refused = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._slots: asyncio.Semaphore | None = None
        self._limiter: anyio.CapacityLimiter | None = None

    def _bind(self) -> None:
        # asyncio primitives belong to one event loop: make them in the loop that serves.
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop = loop
            self._slots = asyncio.Semaphore(self.threads)
            self._limiter = anyio.CapacityLimiter(self.threads)
            self.running = self.waiting = 0

    def _busy(self) -> Busy:
        self.refused += 1
        return Busy(
            f"The server is busy with other {self.noun}; try again in a moment.",
            retry_after=self.retry_after,
        )

    async def admit(self) -> None:
        """Take a place in this lane, waiting in its queue if there is room; :raises Busy: when there is none.

        The place is given back by the :meth:`run` that follows (``admitted=True``), or by :meth:`leave`.
        """
        self._bind()
        assert self._slots is not None
        if self._slots.locked():
            if self.waiting >= self.queue:
                raise self._busy()
            self.waiting += 1
            try:
                await asyncio.wait_for(self._slots.acquire(), self.wait)
            except TimeoutError:
                raise self._busy() from None
            finally:
                self.waiting -= 1
        else:
            await self._slots.acquire()
        self.running += 1

    def leave(self) -> None:
        """Give back a place taken by :meth:`admit` that no :meth:`run` used."""
        assert self._slots is not None
        self.running -= 1
        self._slots.release()

    async def run(self, fn: Callable[..., T], *args, admitted: bool = False) -> T:
        """Run ``fn(*args)`` in a thread of this lane; :raises Busy: when there is no room.

        With ``admitted``, in the place that :meth:`admit` took before.
        """
        if not admitted:
            await self.admit()
        try:
            return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter)
        finally:
            self.leave()


class ProcessLane(Lane):
    """A lane whose work runs in worker processes (:class:`~chesstours.web.workers.Workers`), one a place.

    Its functions, their arguments and their answers cross to another process: they must pickle (a
    module's function, or a :func:`functools.partial` of one, over boards, pieces, strings and numbers).
    A job that outlives its time limit, or whose client goes away, is stopped: its process is killed and
    replaced. ``prepare()`` is run by each process before its first job (it loads the compiled kernels).
    """

    def __init__(self, name: str, processes: int, queue: int, wait: float, retry_after: int, noun: str = "",
                 prepare: Callable[[], object] | None = None):
        super().__init__(name, processes, queue, wait, retry_after, noun)
        self.workers = Workers(processes, prepare)

    async def run(self, fn: Callable[..., T], *args, admitted: bool = False, seconds: float | None = None,
                  gone: Callable[[], Awaitable[object]] | None = None) -> T:
        """Run ``fn(*args)`` in a worker process of this lane; :raises Busy: when there is no room.

        ``seconds``: the time limit that ``fn`` keeps (its process is killed a little after it); ``gone``: a
        coroutine function that returns when the client has gone away
        (:class:`~chesstours.web.workers.ClientGone` is raised then). With ``admitted``, in the place that
        :meth:`admit` took before.
        """
        if not admitted:
            await self.admit()
        try:
            return await self.workers.run(fn, *args, seconds=seconds, gone=gone)
        finally:
            self.leave()


def json_answer(fn: Callable[..., object], compress: bool = False) -> Callable[..., Any]:
    """``fn`` whose answer is encoded as JSON where it runs (a lane's thread, or a worker process), not on
    the event loop: a :class:`JSONResponse`, which the routes return as they would the answer (typed as it,
    for FastAPI). It pickles when ``fn`` does, so that it can run in the slow lane's processes.

    With ``compress`` (the client accepts gzip), an answer of :data:`COMPRESS_FROM` bytes or more is
    compressed there too (:func:`gzipped`)."""
    return functools.partial(_encoded, fn, compress)


def _encoded(fn: Callable[..., object], compress: bool, *args) -> Response:
    answer = JSONResponse(fn(*args))
    return gzipped(answer.body) if compress and len(answer.body) >= COMPRESS_FROM else answer


#: The smallest answer that is compressed for a client that accepts gzip (as the app's GZipMiddleware does).
COMPRESS_FROM = 4096


def gzipped(body: bytes | memoryview) -> Response:
    """A JSON answer compressed with gzip, which the app's GZipMiddleware passes on as it is (its
    ``Content-Encoding`` is set): compressed where it was made, not on the event loop."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return Response(compressor.compress(body) + compressor.flush(), media_type="application/json",
                    headers={"content-encoding": "gzip", "vary": "Accept-Encoding"})


class Costs:
    """What outgrew the quick lane's budget: queries (each remembered for :attr:`memory` seconds) and
    shapes (counted; one search of the shape that fits the budget clears the count), at most
    :attr:`size` of each, the oldest forgotten first.

    A request names itself by a pair of keys, its query and its shape: ``(query, shape)``.
    """

    #: Searches of one shape in a row that outgrew the budget before the shape goes to the slow lane at once.
    SHAPE_STRIKES = 3

    def __init__(self, size: int = 4096, memory: float = 60.0):
        self.size, self.memory = size, memory
        self._queries: OrderedDict[Hashable, float] = OrderedDict()
        self._shapes: OrderedDict[Hashable, int] = OrderedDict()

    def slow(self, keys: tuple[Hashable, Hashable] | None) -> bool:
        """Whether a request of ``keys`` should skip the quick lane."""
        if keys is None:
            return False
        query, shape = keys
        seen = self._queries.get(query)
        if seen is not None and time.monotonic() - seen < self.memory:
            return True
        return self._shapes.get(shape, 0) >= self.SHAPE_STRIKES

    def outgrew(self, keys: tuple[Hashable, Hashable] | None) -> None:
        """A request of ``keys`` outgrew the quick lane's budget."""
        if keys is None:
            return
        query, shape = keys
        self._queries[query] = time.monotonic()
        self._queries.move_to_end(query)
        self._shapes[shape] = self._shapes.get(shape, 0) + 1
        self._shapes.move_to_end(shape)
        for table in (self._queries, self._shapes):
            while len(table) > self.size:
                table.popitem(last=False)

    def fitted(self, keys: tuple[Hashable, Hashable] | None) -> None:
        """A request of ``keys`` ran within the quick lane's budget."""
        if keys is not None:
            self._queries.pop(keys[0], None)
            self._shapes.pop(keys[1], None)


def slow_processes(limits: Limits) -> int:
    """The slow lane's worker processes: :attr:`Limits.slow_threads`, or, unset, one for every two cores
    (at least one, at most four): the cores left are the event loop's and the quick lane's."""
    if limits.slow_threads is not None:
        return max(1, limits.slow_threads)
    return max(1, min(4, cores() // 2))


class Lanes:
    """The quick, slow and picture lanes of one server (see the module docstring).

    ``prepare()`` is what the slow lane's processes run before their first job (it loads the compiled
    kernels); :meth:`shutdown` stops them.
    """

    def __init__(self, limits: Limits, prepare: Callable[[], object] | None = None):
        self.limits = limits
        self.quick = Lane("quick", limits.quick_threads, limits.quick_queue, limits.quick_wait, retry_after=1)
        self.slow = ProcessLane("long", slow_processes(limits), limits.slow_queue, limits.slow_wait, retry_after=5,
                                prepare=prepare)
        self.picture = Lane("picture", limits.picture_threads, limits.picture_queue, limits.picture_wait,
                            retry_after=5, noun="pictures")
        self.costs = Costs()

    async def search(self, fn: Callable[[float], T], time_limit: float, heavy: bool = False,
                     keys: tuple[Hashable, Hashable] | None = None, final: Callable[[float], T] | None = None,
                     gone: Callable[[], Awaitable[object]] | None = None) -> T:
        """Run ``fn(seconds)``: first in the quick lane with a short budget, then, if that
        budget ran out, in the slow lane with what is left of ``time_limit``.

        A ``heavy`` search (one asked to be exhaustive, or a trace) goes to the slow lane at
        once: it would only hold a quick thread that a cheap search needs; so does one whose
        ``keys`` (its query and its shape, :class:`Costs`) outgrew the quick lane before.
        ``final`` (``fn`` when not given) is run on the last try, the one with all the time
        that is left: a listing or a trace keeps what it found there, where a first try gives
        up to be made again with more time. ``fn`` and ``final`` must pickle (the slow lane
        runs them in its processes); ``gone`` returns when the client has gone away, which
        stops the slow lane's work for it.

        :raises LimitReached: when ``time_limit`` runs out; :raises Busy: when a lane is full.
        """
        final = final or fn
        if heavy or self.costs.slow(keys):
            return await self.slow.run(final, time_limit, seconds=time_limit, gone=gone)
        quick = time_limit if not time_limit > 0 else min(self.limits.quick_seconds, time_limit)
        await self.quick.admit()
        if self.costs.slow(keys):  # measured while this request waited for its place: not for this lane
            self.quick.leave()
            return await self.slow.run(final, time_limit, seconds=time_limit, gone=gone)
        try:
            found = await self.quick.run(final if quick >= time_limit else fn, quick, admitted=True)
        except LimitReached:
            self.costs.outgrew(keys)
            if quick >= time_limit:
                raise
        else:
            self.costs.fitted(keys)
            return found
        left = time_limit - quick
        return await self.slow.run(final, left, seconds=left, gone=gone)

    async def search_and_draw(self, search: Callable[[float], T], draw: Callable[[T, float], P], time_limit: float,
                              heavy: bool = False, keys: tuple[Hashable, Hashable] | None = None,
                              gone: Callable[[], Awaitable[object]] | None = None) -> P:
        """Search as :meth:`search` does, then ``draw(found, seconds)`` in the picture lane.

        The place in the picture lane is taken before the search: when that lane
        is full, a flood of pictures is turned away at once, without a search
        that would only hold a quick thread (and, on small boards, the
        interpreter) for a picture that could not be drawn.
        """
        await self.picture.admit()
        t0 = time.perf_counter()
        try:
            found = await self.search(search, time_limit, heavy, keys, gone=gone)
        except BaseException:
            self.picture.leave()
            raise
        left = max(0.1, time_limit - (time.perf_counter() - t0)) if time_limit > 0 else time_limit
        return await self.picture.run(functools.partial(draw, found), left, admitted=True)

    async def count(self, fn: Callable[[], T], time_limit: float | None = None,
                    gone: Callable[[], Awaitable[object]] | None = None) -> T:
        """Run ``fn()``, a count that keeps ``time_limit``, in the slow lane (``fn`` must pickle)."""
        return await self.slow.run(fn, seconds=time_limit, gone=gone)

    def start(self) -> None:
        """Start the slow lane's processes now, so that its first jobs do not wait for them."""
        self.slow.workers.start()

    def shutdown(self) -> None:
        """Stop the slow lane's processes (what they were doing is abandoned)."""
        self.slow.workers.shutdown()

    def state(self) -> dict:
        """Running, waiting and refused requests per lane (for ``/api/info``); ``threads``: how many run at
        once (the slow lane's are processes)."""
        return {
            lane.name: {"threads": lane.threads, "running": lane.running, "waiting": lane.waiting,
                        "refused": lane.refused}
            for lane in (self.quick, self.slow, self.picture)
        }
