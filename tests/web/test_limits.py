"""Admission lanes: a full lane refuses at once; the quick lane hands long searches to the slow one."""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import threading
import time
import urllib.error
import urllib.request

import pytest

import chesstours as ct
from chesstours.web import Limits, running_server
from chesstours.web.limits import Busy, Costs, Lane, Lanes

from . import jobs


def test_a_full_lane_refuses_at_once_and_a_waiting_request_gets_its_turn():
    async def scenario():
        lane = Lane("long", threads=1, queue=1, wait=5.0, retry_after=3)
        first = asyncio.create_task(lane.run(time.sleep, 0.3))
        await asyncio.sleep(0.05)
        second = asyncio.create_task(lane.run(lambda: "second"))
        await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        with pytest.raises(Busy) as info:
            await lane.run(lambda: "third")
        refused_in = time.perf_counter() - t0
        assert await second == "second"
        await first
        return info.value, refused_in, lane

    busy, refused_in, lane = asyncio.run(scenario())
    assert str(busy) == "The server is busy with other long searches; try again in a moment."
    assert busy.retry_after == 3 and refused_in < 0.2  # at once, not after the 0.5 s the others take
    assert (lane.running, lane.waiting, lane.refused) == (0, 0, 1)


def test_a_wait_that_runs_out_is_refused():
    async def scenario():
        lane = Lane("quick", threads=1, queue=10, wait=0.1, retry_after=1)
        first = asyncio.create_task(lane.run(time.sleep, 0.5))
        await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        with pytest.raises(Busy):
            await lane.run(lambda: None)
        waited = time.perf_counter() - t0
        await first
        return waited

    assert 0.08 < asyncio.run(scenario()) < 0.4


def test_a_search_moves_to_the_slow_lane_only_when_its_quick_budget_runs_out():
    lanes = Lanes(Limits(quick_seconds=0.5))
    jobs.BUDGETS.clear()
    try:
        pid, seconds = asyncio.run(lanes.search(jobs.outgrows_short_budgets, 4.0))
        assert jobs.BUDGETS == [0.5]  # the quick lane's try, in this process's threads
        assert seconds == 3.5 and pid != os.getpid()  # the rest of the time in a slow lane's process
        jobs.BUDGETS.clear()
        with pytest.raises(ct.LimitReached):
            asyncio.run(lanes.search(jobs.outgrows_short_budgets, 0.2))  # the whole limit fits in the quick lane
        assert jobs.BUDGETS == [0.2]
    finally:
        lanes.shutdown()


def test_a_query_that_outgrew_the_quick_lane_goes_to_the_slow_lane_at_once_after():
    lanes = Lanes(Limits(quick_seconds=0.5))
    search = jobs.outgrows_short_budgets
    slow = (("/api/tour", (("board", "8x8"), ("start", "h3"))), ("/api/tour", (("board", "8x8"),)))
    other = (("/api/tour", (("board", "8x8"), ("start", "a1"))), ("/api/tour", (("board", "8x8"),)))
    try:
        jobs.BUDGETS.clear()
        assert asyncio.run(lanes.search(search, 4.0, keys=slow))[1] == 3.5 and jobs.BUDGETS == [0.5]
        jobs.BUDGETS.clear()
        assert asyncio.run(lanes.search(search, 4.0, keys=slow))[1] == 4.0
        assert jobs.BUDGETS == []  # measured before: no quick try
        assert asyncio.run(lanes.search(search, 4.0, keys=other))[1] == 3.5
        assert jobs.BUDGETS == [0.5]  # another query of the shape: its first outgrowing
    finally:
        lanes.shutdown()


def test_requests_waiting_for_the_quick_lane_go_to_the_slow_lane_once_their_query_outgrew_it():
    lanes = Lanes(Limits(quick_seconds=0.2, quick_threads=2, slow_queue=20, slow_wait=30))
    keys = (("/api/tour", (("board", "8x8"), ("start", "h3"))), ("/api/tour", (("board", "8x8"),)))

    async def flood():
        return await asyncio.gather(*(lanes.search(jobs.outgrows_short_budgets, 4.0, keys=keys) for _ in range(10)))

    jobs.BUDGETS.clear()
    try:
        found = asyncio.run(flood())
    finally:
        lanes.shutdown()
    assert len(found) == 10 and all(pid != os.getpid() for pid, _ in found)
    assert jobs.BUDGETS.count(0.2) == 2  # the two that ran first; the eight that waited behind them skip the lane
    assert sorted(seconds for _, seconds in found) == [3.8] * 2 + [4.0] * 8


def test_a_shape_goes_to_the_slow_lane_after_strikes_in_a_row_and_a_search_that_fits_clears_it():
    costs = Costs()
    shape = ("/api/tour", (("board", "8x8"), ("piece", "1,4")))
    queries = [(("/api/tour", (("holes", h),)), shape) for h in ("a1", "b1", "c1", "d1", "e1")]
    for keys in queries[: Costs.SHAPE_STRIKES]:
        assert not costs.slow(queries[-1])
        costs.outgrew(keys)
    assert costs.slow(queries[-1])  # a query never seen, of a shape that outgrew the budget again and again
    costs.fitted(queries[-1])
    assert not costs.slow(queries[-1]) and costs.slow(queries[0])  # the query itself is still remembered


def test_costs_forget_the_oldest_past_their_size():
    costs = Costs(size=3)
    keys = [((i,), (i,)) for i in range(5)]
    for k in keys:
        costs.outgrew(k)
    assert [costs.slow(k) for k in keys] == [False, False, True, True, True]


def test_a_picture_is_refused_before_its_search_when_the_picture_lane_is_full():
    lanes = Lanes(Limits(picture_threads=1, picture_queue=0))
    searched, drawn = [], []

    def search(seconds):
        searched.append(seconds)
        return {"tour": "found"}

    def draw(found, seconds):
        drawn.append(found)
        return b"picture"

    async def scenario():
        await lanes.picture.admit()  # a picture being drawn holds the lane's one place
        with pytest.raises(Busy):
            await lanes.search_and_draw(search, draw, 5.0)
        assert searched == [] and lanes.picture.refused == 1
        lanes.picture.leave()
        picture = await lanes.search_and_draw(search, draw, 5.0)
        return picture

    assert asyncio.run(scenario()) == b"picture"
    assert len(searched) == 1 and drawn == [{"tour": "found"}]
    assert (lanes.picture.running, lanes.quick.running) == (0, 0)


def test_a_search_that_fails_gives_its_picture_place_back():
    lanes = Lanes(Limits(picture_threads=1, picture_queue=0))

    def search(seconds):
        raise ct.NoTour("no tour here")

    async def scenario():
        with pytest.raises(ct.NoTour):
            await lanes.search_and_draw(search, lambda found, seconds: b"", 5.0)
        return await lanes.search_and_draw(lambda s: "found", lambda found, seconds: found.encode(), 5.0)

    assert asyncio.run(scenario()) == b"found"
    assert lanes.picture.running == 0


def _get(url: str) -> tuple[int, dict, dict]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, json.loads(response.read()), {k.lower(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), {k.lower(): v for k, v in error.headers.items()}


def test_over_http_a_flood_of_counts_is_refused_with_503_while_tours_still_come():
    limits = Limits(slow_threads=1, slow_queue=0, slow_wait=0.1)
    with running_server(limits) as url:
        results = []

        def count():
            results.append(_get(f"{url}/api/count?board=6x6&start=a1&time_limit=1"))

        threads = [threading.Thread(target=count) for _ in range(6)]
        for t in threads:
            t.start()
        time.sleep(0.2)
        t0 = time.perf_counter()
        status, tour, _ = _get(f"{url}/api/tour?board=8x8&start=a1")
        tour_seconds = time.perf_counter() - t0
        for t in threads:
            t.join()
    assert status == 200 and len(tour["path"]) == 64
    assert tour_seconds < 1.0
    refused = [r for r in results if r[0] == 503]
    assert refused, [r[0] for r in results]
    _, body, headers = refused[0]
    assert body == {"detail": "The server is busy with other long searches; try again in a moment."}
    assert headers["retry-after"] == "5"
    assert all(r[0] in (200, 504, 503) for r in results)


def test_200_concurrent_tour_requests_all_succeed_with_valid_tours():
    httpx = pytest.importorskip("httpx")

    async def burst(url):
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=0)
        async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
            names = ct.Board(8, 8).names(range(64))
            return await asyncio.gather(*(client.get("/api/tour", params={"board": "8x8", "start": names[i % 64]})
                                          for i in range(200)))

    with running_server() as url:
        t0 = time.perf_counter()
        responses = asyncio.run(burst(url))
        wall = time.perf_counter() - t0
    assert [r.status_code for r in responses] == [200] * 200
    for r in responses:
        ct.Tour.from_dict(r.json()).validate()
    assert wall < 30


def test_a_flood_of_huge_counts_is_refused_while_cheap_requests_keep_coming():
    httpx = pytest.importorskip("httpx")
    huge = [{"board": "8x8"}, {"board": "7x7"}, {"board": "6x8"}, {"board": "6x6"}]

    async def flood(url):
        limits = httpx.Limits(max_connections=120, max_keepalive_connections=4)
        async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
            cheap = []
            done = asyncio.Event()

            async def cheap_loop():
                while not done.is_set() and len(cheap) < 200:
                    t0 = time.perf_counter()
                    r = await client.get("/api/tour", params={"board": "8x8", "start": "b1"})
                    cheap.append((r.status_code, time.perf_counter() - t0))

            task = asyncio.create_task(cheap_loop())
            await asyncio.sleep(0.05)
            t0 = time.perf_counter()
            answers = await asyncio.gather(*(client.get("/api/count", params=huge[i % 4]) for i in range(100)))
            refused_by = time.perf_counter() - t0
            done.set()
            await task
            return answers, refused_by, cheap

    with running_server(Limits(count_seconds=2.0)) as url:
        answers, wall, cheap = asyncio.run(flood(url))
    statuses = [r.status_code for r in answers]
    assert set(statuses) <= {400, 503, 200, 504}
    assert statuses.count(400) >= 50  # 8x8 and 7x7 are over the size limit
    assert statuses.count(400) + statuses.count(503) >= 98  # one 6x6 count may run, or one 6x8 estimate
    assert wall < 15  # at most one count runs (2 s), everything else is refused
    assert cheap and all(status == 200 for status, _ in cheap)
    assert statistics.median(seconds for _, seconds in cheap) < 0.5
