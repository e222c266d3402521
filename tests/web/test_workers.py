"""The slow lane's worker processes: its searches run there, not in the server's process; a search whose client
goes away, or that outlives its time limit, is stopped and its process replaced; the processes end with the
server, however it ends, and leave no file behind."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

import chesstours as ct
from chesstours.web import Limits, running_server
from chesstours.web.limits import Lanes
from chesstours.web.server import free_port
from chesstours.web.workers import GRACE, ClientGone

from ..processes import children_of, running, semaphores_of
from . import jobs


def _wait(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_the_slow_lanes_work_runs_in_another_process_which_is_kept_for_the_next():
    lanes = Lanes(Limits(slow_threads=1))
    try:
        pid = asyncio.run(lanes.slow.run(jobs.process_id))
        assert pid != os.getpid() and lanes.slow.workers.pids() == [pid]
        assert asyncio.run(lanes.slow.run(jobs.process_id)) == pid
        with pytest.raises(ct.NoTour) as info:  # an error comes back whole
            asyncio.run(lanes.slow.run(jobs.no_tour, 1.0))
        assert (info.value.reason, info.value.proof, info.value.nodes) == ("No tour here.", "colour", 7)
        assert asyncio.run(lanes.slow.run(jobs.process_id)) == pid
    finally:
        lanes.shutdown()
    assert running([pid]) == [] and lanes.slow.workers.pids() == []


def test_a_job_past_its_time_limit_is_stopped_and_its_process_replaced():
    lanes = Lanes(Limits(slow_threads=1))
    try:
        first = asyncio.run(lanes.slow.run(jobs.process_id))
        t0 = time.perf_counter()
        with pytest.raises(ct.LimitReached):
            asyncio.run(lanes.slow.run(time.sleep, 600, seconds=0.2))
        assert time.perf_counter() - t0 < 0.2 + GRACE + 1
        assert running([first]) == []
        second = asyncio.run(lanes.slow.run(jobs.process_id))
        assert second != first and lanes.slow.workers.pids() == [second]
        assert (lanes.slow.running, lanes.slow.waiting) == (0, 0)
    finally:
        lanes.shutdown()


def test_a_job_whose_caller_is_cancelled_is_stopped():
    lanes = Lanes(Limits(slow_threads=1))

    async def cancelled() -> None:
        job = asyncio.ensure_future(lanes.slow.run(time.sleep, 600, seconds=600))
        await asyncio.sleep(0.5)
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job

    try:
        first = asyncio.run(lanes.slow.run(jobs.process_id))
        asyncio.run(cancelled())
        assert _wait(lambda: running([first]) == [], 3)
        assert asyncio.run(lanes.slow.run(jobs.process_id)) != first
    finally:
        lanes.shutdown()


def test_a_job_abandoned_before_its_process_started_leaves_the_process_to_the_next():
    lanes = Lanes(Limits(slow_threads=1))

    async def gone_once_a_process_starts() -> None:
        while not lanes.slow.workers.pids():
            await asyncio.sleep(0.01)

    try:
        with pytest.raises(ClientGone):
            asyncio.run(lanes.slow.run(jobs.process_id, gone=gone_once_a_process_starts))
        (starting,) = lanes.slow.workers.pids()
        assert asyncio.run(lanes.slow.run(jobs.process_id)) == starting  # not killed, to start another
    finally:
        lanes.shutdown()


def _info(base: str) -> dict:
    with urllib.request.urlopen(f"{base}/api/info", timeout=30) as response:
        return json.loads(response.read())


def test_a_search_whose_client_goes_away_is_stopped_and_the_lane_is_free_again():
    with running_server(Limits(search_seconds=60)) as base:
        host, _, port = base.removeprefix("http://").rpartition(":")
        before = set(children_of(os.getpid()))
        # A trace goes to the slow lane: its process starts, and is ready.
        with urllib.request.urlopen(f"{base}/api/trace?board=5x5&start=a1&steps=5", timeout=60) as response:
            assert response.status == 200
        (worker,) = set(children_of(os.getpid())) - before
        assert semaphores_of(worker) == set()
        # An exhaustive search that would run for the whole minute.
        sock = socket.create_connection((host, int(port)))
        sock.sendall(b"GET /api/tour?board=7x7&start=b1&method=backtrack HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert _wait(lambda: _info(base)["lanes"]["long"]["running"] == 1, 10)
        time.sleep(0.5)
        t0 = time.perf_counter()
        sock.close()
        assert _wait(lambda: running([worker]) == [], 5), "the search's process still runs"
        assert time.perf_counter() - t0 < 3
        assert _wait(lambda: _info(base)["lanes"]["long"]["running"] == 0, 5)
        # Another process takes its place, and answers the next search.
        with urllib.request.urlopen(f"{base}/api/trace?board=5x5&start=a1&steps=5", timeout=60) as response:
            assert response.status == 200 and len(json.loads(response.read())["events"]) == 5
        assert len(set(children_of(os.getpid())) - before) == 1


@pytest.mark.slow
def test_the_worker_processes_end_with_the_server_however_it_ends():
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "chesstours", "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            try:
                return bool(_info(base))
            except OSError:
                return False

        assert _wait(answers, 60)
        with urllib.request.urlopen(f"{base}/api/trace?board=5x5&start=a1&steps=5", timeout=120) as response:
            assert response.status == 200
        workers = children_of(server.pid)
        assert workers and all(semaphores_of(pid) == set() for pid in workers)
        server.send_signal(signal.SIGKILL)  # no time to stop anything
        server.wait(timeout=10)
        assert _wait(lambda: running(workers) == [], 5), running(workers)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
