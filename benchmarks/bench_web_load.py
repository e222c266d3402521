"""Load on the web api, over loopback only: many tours at once, and a flood of huge counts.

Starts ``chesstours serve`` in its own process on a free port of 127.0.0.1 and
measures, with an asyncio HTTP client (one connection per request in flight):

1. ``burst``: N requests for 8x8 tours (random start squares) sent at once;
   every answer must be 200 and a valid tour.
2. ``baseline``: cheap requests (8x8 tours) one after another, nothing else running.
3. ``flood``: M expensive requests at once (counts of 8x8, 7x7, 6x8 and 6x6:
   refused by the size limit, by the estimate, or by a full lane, or run
   under the time limit), while the cheap requests go on; the latency of
   the cheap ones is measured during the flood.
4. ``attack``: the requests that once broke the server (huge leaps, a frame
   rate of 0.001, a 4096-pixel animation) and, at once, 1,000 connections
   that send nothing and one that sends its head a byte at a time, while
   cheap requests go on; then ``--clients`` clients that for ``--seconds``
   ask, again and again, for expensive searches and pictures, while cheap
   requests go on. The server's resident memory is read from /proc before,
   at its peak during, and a few seconds after the load.
5. ``patterns``: each flood pattern in turn (:data:`PATTERNS`), from ``--clients``
   clients for ``--pattern-seconds``, while cheap requests go on: a request that is
   not cheap but not heavy either, the same and with its hole moved each time,
   traces of 2,000 events, the move table of 50x50, a header streamed as fast as
   the connection takes it, and 4,200 idle sockets, past the connections the server
   keeps. A row a pattern: the cheap requests' latencies, their answers, and the
   server's memory at its peak and after, alone and with the processes it started
   (the slow lane's workers, the drawing process).

Every loop is bounded in count and time. Run: ``python benchmarks/bench_web_load.py
[--burst 200] [--flood 200] [--clients 50] [--seconds 15] [--pattern-seconds 8]
[--phases burst,flood,attack,patterns]``. Prints a table: medians and 95th
percentiles in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from contextlib import contextmanager
from urllib.parse import urlencode

import httpx

import chesstours as ct
from chesstours.board import Board
from chesstours.tour import Tour
from chesstours.web import Limits
from chesstours.web.server import free_port

HUGE_COUNTS = [
    {"board": "8x8"},                       # over the size limit: refused at once
    {"board": "7x7", "start": "a1"},        # over the size limit
    {"board": "6x8"},                       # estimated far beyond the time limit
    {"board": "6x6"},                       # runs up to the time limit, holding the one slow thread
    {"board": "6x6", "start": "a1"},
]


#: Requests that once answered 500 or grew the server by gigabytes.
ATTACKS = [
    ("/api/trace", {"board": "8x8", "start": "a1", "piece": "99999999999999999999,1"}),
    ("/api/board", {"board": "8x8", "piece": "9223372036854775808,1"}),
    ("/api/tour", {"board": "5x5", "start": "a1", "format": "gif", "fps": "0.001"}),
    ("/api/tour", {"board": "12x12", "start": "a1", "format": "gif", "size": "4096"}),
]
#: What the flooding clients ask for: expensive searches and pictures.
HEAVY = [
    ("/api/tour", {"board": "12x12", "start": "a1", "format": "gif", "size": "1024"}),
    ("/api/tour", {"board": "40x40", "start": "a1", "format": "png", "size": "4096"}),
    ("/api/tour", {"board": "7x7", "start": "b1", "closed": "false", "method": "backtrack"}),
    ("/api/count", {"board": "6x6"}),
    ("/api/exists", {"board": "5x9", "start": "c3", "closed": "true"}),
    ("/api/trace", {"board": "8x8", "start": "a1", "steps": "2000"}),
]


MID_COST = {"board": "8x8", "start": "h3", "piece": "1,4", "holes": "c7"}


async def _looping(client: RawClient, stop: asyncio.Event, path: str, params) -> None:
    while not stop.is_set():
        await client.get(path, params() if callable(params) else params, read=False)


async def _streamed_header(client: RawClient, stop: asyncio.Event) -> None:
    """A header line whose value streams as fast as the connection takes it, again and again."""
    chunk = b"a" * 4096
    while not stop.is_set():
        reader, writer = await asyncio.open_connection(client.host, client.port)
        try:
            writer.write(b"GET /api/tour?board=8x8 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ")
            while not stop.is_set() and not writer.is_closing():
                writer.write(chunk)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()


async def _idle_sockets(client: RawClient, stop: asyncio.Event, n: int = 4200) -> None:
    """``n`` connections that send nothing, opened again as the server closes them."""
    held = []
    try:
        for _ in range(n):
            if stop.is_set():
                break
            try:
                held.append(await asyncio.open_connection(client.host, client.port))
            except OSError:
                await asyncio.sleep(0.05)
        await stop.wait()
    finally:
        for _, writer in held:
            writer.close()


#: The flood patterns of the ``patterns`` phase: a name, and a client that loops until told to stop (the
#: idle sockets come from one client).
PATTERNS = [
    ("mid-cost tour (8x8 h3, 1,4 leaper, hole c7)", lambda c, stop, rng: _looping(c, stop, "/api/tour", MID_COST)),
    ("mid-cost tours, the hole moved each time", lambda c, stop, rng: _looping(
        c, stop, "/api/tour", lambda: {**MID_COST, "holes": Board(8, 8).name(rng.choice(range(1, 60)))})),
    ("traces: 20x20, 2,000 events", lambda c, stop, rng: _looping(
        c, stop, "/api/trace", {"board": "20x20", "start": "a1", "steps": "2000"})),
    ("move tables: 50x50", lambda c, stop, rng: _looping(c, stop, "/api/board", {"board": "50x50"})),
    ("a header streamed at full speed", lambda c, stop, rng: _streamed_header(c, stop)),
    ("4,200 idle sockets", None),
]


async def patterns(url: str, pid: int, clients: int, seconds: float, seed: int = 4) -> list[dict]:
    """Each of :data:`PATTERNS` in turn while cheap requests go on: their latencies, the server's memory."""
    rng = random.Random(seed)
    client = RawClient(url)
    out = []
    for name, flooder in PATTERNS:
        stop = asyncio.Event()
        memory = {"peak": rss_mb(pid), "tree": tree_rss_mb(pid)}

        async def watch() -> None:
            while not stop.is_set():
                memory["peak"] = max(memory["peak"], rss_mb(pid))
                memory["tree"] = max(memory["tree"], tree_rss_mb(pid))
                await asyncio.sleep(0.2)

        if flooder is None:
            floods = [asyncio.create_task(_idle_sockets(client, stop))]
        else:
            floods = [asyncio.create_task(flooder(client, stop, rng)) for _ in range(clients)]
        watcher = asyncio.create_task(watch())
        await asyncio.sleep(1.0)  # the flood under way
        cheap: list = []
        cheap_task = asyncio.create_task(cheap_loop(client, stop, cheap, rng, 100_000))
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.wait_for(asyncio.gather(cheap_task, watcher, *floods, return_exceptions=True), timeout=120)
        await asyncio.sleep(3)
        out.append({"name": name, "cheap": cheap, "peak": memory["peak"], "after": rss_mb(pid),
                    "tree": memory["tree"], "tree_after": tree_rss_mb(pid)})
    return out


def tree_rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` and of every process it started, in MiB (Linux): the server with
    its worker processes (pages they share are counted once a process)."""
    return rss_mb(pid) + sum(rss_mb(child) for child in descendants(pid))


def descendants(pid: int) -> list[int]:
    """The processes that ``pid`` started, and those they started, still running (from each thread's
    ``/proc/PID/task/TID/children``)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            threads = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in threads:
            try:
                with open(f"/proc/{parent}/task/{tid}/children") as f:
                    children = [int(child) for child in f.read().split()]
            except (OSError, ValueError):
                continue
            found += children
            todo += children
    return found


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (Linux), or NaN."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


@contextmanager
def server_process():
    """``chesstours serve`` in its own process (the client here must not share its GIL), on loopback."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "chesstours", "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    server_process.pid = proc.pid  # type: ignore[attr-defined]
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{url}/api/info", timeout=1)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


async def timed_get(client: RawClient, path: str, params: dict) -> tuple[int, float, dict]:
    t0 = time.perf_counter()
    status, body = await client.get(path, params)
    return status, (time.perf_counter() - t0) * 1000, body


class RawClient:
    """A minimal HTTP/1.1 client over asyncio streams, one connection per request.

    A full-featured client costs more CPU per request than the server does; on a
    two-core machine it would measure itself. This one writes the request line and
    reads the answer, nothing more.
    """

    def __init__(self, url: str):
        host, port = url.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)

    async def get(self, path: str, params: dict, read: bool = True) -> tuple[int, dict]:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            query = urlencode(params)
            writer.write(f"GET {path}?{query} HTTP/1.1\r\nHost: {self.host}\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
        head, _, body = raw.partition(b"\r\n\r\n")
        if not head:
            return 0, {}  # the server closed the connection without an answer
        status = int(head.split(b" ", 2)[1])
        if b"transfer-encoding: chunked" in head.lower():
            body = _unchunk(body)
        if b"application/json" not in head.lower() or not read:  # a flooding client reads no answer
            return status, {"bytes": len(body)}
        return status, json.loads(body)


def _unchunk(data: bytes) -> bytes:
    out = bytearray()
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            break
        out += data[:size]
        data = data[size + 2:]
    return bytes(out)


def tour_params(rng: random.Random) -> dict:
    return {"board": "8x8", "start": Board(8, 8).name(rng.randrange(64))}


async def burst(url: str, n: int, seed: int = 1) -> dict:
    rng = random.Random(seed)
    client = RawClient(url)
    t0 = time.perf_counter()
    results = await asyncio.gather(*(timed_get(client, "/api/tour", tour_params(rng)) for _ in range(n)))
    wall = time.perf_counter() - t0
    statuses = Counter(status for status, _, _ in results)
    invalid = 0
    for status, _, body in results:
        if status == 200:
            try:
                Tour.from_dict(body).validate()
            except (ct.ChessToursError, KeyError, TypeError, ValueError):
                invalid += 1
    latencies = [ms for _, ms, _ in results]
    return {"statuses": statuses, "invalid": invalid, "wall_s": wall, "latencies": latencies}


async def cheap_loop(client: RawClient, stop: asyncio.Event, out: list, rng: random.Random,
                     max_requests: int) -> None:
    while not stop.is_set() and len(out) < max_requests:
        out.append(await timed_get(client, "/api/tour", tour_params(rng)))


async def flood(url: str, m: int, cheap_max: int = 400, seed: int = 2) -> dict:
    rng = random.Random(seed)
    client = RawClient(url)
    if True:
        # Baseline: the cheap requests alone.
        baseline: list = []
        never = asyncio.Event()
        await cheap_loop(client, never, baseline, rng, 50)
        # The flood, with the cheap requests going on beside it.
        stop = asyncio.Event()
        cheap: list = []
        cheap_task = asyncio.create_task(cheap_loop(client, stop, cheap, rng, cheap_max))
        await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        floods = await asyncio.gather(*(timed_get(client, "/api/count", HUGE_COUNTS[i % len(HUGE_COUNTS)])
                                        for i in range(m)))
        flood_wall = time.perf_counter() - t0
        stop.set()
        await cheap_task
    return {"baseline": baseline, "cheap": cheap, "flood": floods, "flood_wall_s": flood_wall}


async def attack(url: str, pid: int, clients: int, seconds: float, seed: int = 3) -> dict:
    """The hostile phase (see the module docstring); every wait is bounded."""
    rng = random.Random(seed)
    client = RawClient(url)
    memory = {"idle": rss_mb(pid), "peak": rss_mb(pid)}
    answers = [(path, (await timed_get(client, path, params))[0]) for path, params in ATTACKS]
    # 1,000 silent connections and a slow head, held while cheap requests go on.
    silent = [await asyncio.open_connection(client.host, client.port) for _ in range(1000)]
    _, slow = await asyncio.open_connection(client.host, client.port)
    slow.write(b"GET /api/tour?board=8x8 HTTP/1.1\r\nHo")
    idle_cheap: list = []
    await cheap_loop(client, asyncio.Event(), idle_cheap, rng, 100)
    for _, writer in silent:
        writer.close()
    slow.close()
    # Clients that ask for expensive searches and pictures, again and again.
    stop = asyncio.Event()
    heavy: list = []

    async def hammer(i: int) -> None:
        k = i
        while not stop.is_set():
            path, params = HEAVY[k % len(HEAVY)]
            heavy.append(await timed_get(client, path, params))
            k += 1

    async def watch() -> None:
        while not stop.is_set():
            memory["peak"] = max(memory["peak"], rss_mb(pid))
            await asyncio.sleep(0.2)

    cheap: list = []
    tasks = [asyncio.create_task(hammer(i)) for i in range(clients)] + [asyncio.create_task(watch())]
    await asyncio.sleep(0.5)
    cheap_task = asyncio.create_task(cheap_loop(client, stop, cheap, rng, 100_000))
    await asyncio.sleep(seconds)
    stop.set()
    t0 = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(cheap_task, *tasks), timeout=120)
    drained = time.perf_counter() - t0
    await asyncio.sleep(5)
    memory["after"] = rss_mb(pid)
    return {"answers": answers, "idle_cheap": idle_cheap, "heavy": heavy, "cheap": cheap, "memory": memory,
            "drained_s": drained}


def row(name: str, latencies: list[float], extra: str = "") -> str:
    if not latencies:
        return f"| {name:<34} | {0:>5} | {'-':>9} | {'-':>9} | {'-':>9} | {extra}"
    return (f"| {name:<34} | {len(latencies):>5} | {statistics.median(latencies):>9.1f} | "
            f"{percentile(latencies, 0.95):>9.1f} | {max(latencies):>9.1f} | {extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=200, help="tours sent at once (default 200)")
    parser.add_argument("--flood", type=int, default=200, help="huge counts sent at once (default 200)")
    parser.add_argument("--clients", type=int, default=50, help="clients flooding searches and pictures")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long they flood (default 15)")
    parser.add_argument("--pattern-seconds", type=float, default=8.0, help="how long each pattern floods (default 8)")
    parser.add_argument("--phases", default="burst,flood,attack,patterns", help="the phases to run, in order")
    args = parser.parse_args()
    phases = set(args.phases.split(","))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # the idle sockets need more files than the default
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 16384)), hard))
    with server_process() as url:
        # Load the kernels first, as a server that has been up a while has.
        httpx.get(f"{url}/api/tour", params={"board": "8x8", "start": "a1", "closed": True}, timeout=60)
        httpx.get(f"{url}/api/count", params={"board": "5x5"}, timeout=60)
        pid = server_process.pid  # type: ignore[attr-defined]
        b = asyncio.run(burst(url, args.burst)) if "burst" in phases else None
        f = asyncio.run(flood(url, args.flood)) if "flood" in phases else None
        a = asyncio.run(attack(url, pid, args.clients, args.seconds)) if "attack" in phases else None
        p = asyncio.run(patterns(url, pid, args.clients, args.pattern_seconds)) if "patterns" in phases else None
    print(f"server: 127.0.0.1, default limits {Limits()}")
    print()
    if b is not None and f is not None and a is not None:
        _tables(args, b, f, a)
    if p is not None:
        print()
        print(f"| cheap 8x8 tours while {args.clients} clients flood | n | median ms | p95 ms | max ms | answers "
              "| server MiB, peak / after | with its processes")
        print("|---|--:|--:|--:|--:|---|---|---")
        for r in p:
            latencies = [ms for _, ms, _ in r["cheap"]]
            print(row(r["name"], latencies, str(dict(Counter(s for s, _, _ in r["cheap"]))))
                  + f" | {r['peak']:.0f} / {r['after']:.0f} | {r['tree']:.0f} / {r['tree_after']:.0f}")


def _tables(args, b: dict, f: dict, a: dict) -> None:
    print("| requests                           |     n |  median ms |    p95 ms |    max ms | answers")
    print("|------------------------------------|------:|----------:|----------:|----------:|--------")
    print(row(f"burst: {args.burst} x 8x8 tour at once", b["latencies"],
              f"{dict(b['statuses'])}, invalid tours {b['invalid']}, wall {b['wall_s']:.2f} s"))
    print(row("cheap 8x8 tours, alone", [ms for _, ms, _ in f["baseline"]],
              str(dict(Counter(s for s, _, _ in f["baseline"])))))
    print(row("cheap 8x8 tours, during the flood", [ms for _, ms, _ in f["cheap"]],
              str(dict(Counter(s for s, _, _ in f["cheap"])))))
    refused = [ms for s, ms, _ in f["flood"] if s in (400, 503)]
    print(row(f"flood: {args.flood} huge counts, refused", refused,
              str(dict(Counter(s for s, _, _ in f["flood"]))) + f", wall {f['flood_wall_s']:.2f} s"))
    print(row("flood: counts that ran", [ms for s, ms, _ in f["flood"] if s not in (400, 503)]))
    baseline_median = statistics.median(ms for _, ms, _ in f["baseline"])
    during_median = statistics.median(ms for _, ms, _ in f["cheap"]) if f["cheap"] else float("nan")
    print(row("cheap 8x8 tours, 1,000 idle sockets", [ms for _, ms, _ in a["idle_cheap"]],
              str(dict(Counter(s for s, _, _ in a["idle_cheap"])))))
    print(row(f"cheap 8x8 tours, {args.clients} heavy clients", [ms for _, ms, _ in a["cheap"]],
              str(dict(Counter(s for s, _, _ in a["cheap"])))))
    print(row("heavy: searches and pictures", [ms for _, ms, _ in a["heavy"]],
              str(dict(Counter(s for s, _, _ in a["heavy"]))) + f", drained in {a['drained_s']:.1f} s"))
    print()
    print(f"cheap-request median during the flood / alone: {during_median / baseline_median:.2f}x")
    print("requests that once broke the server: " + ", ".join(f"{p} {s}" for p, s in a["answers"]))
    m = a["memory"]
    print(f"server memory: {m['idle']:.0f} MiB before, {m['peak']:.0f} MiB at the peak, "
          f"{m['after']:.0f} MiB 5 s after the load")


if __name__ == "__main__":
    main()
