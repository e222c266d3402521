"""The server against hostile requests: huge numbers, huge pictures, idle and slow connections, odd methods.

Each case here once answered 500, grew the server by gigabytes, or stopped it
from answering; each must now get a clear answer and leave the server as it was.
"""

from __future__ import annotations

import random
import re
import socket
import time
import urllib.parse
import urllib.request

import pytest
from fastapi.testclient import TestClient

from chesstours.render.raster import GIF_MEMORY, MIN_FRAMES, gif_frames
from chesstours.web import Limits, create_app
from chesstours.web.server import running_server


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm_up=False), raise_server_exceptions=False)


@pytest.mark.parametrize("url, status, words", [
    ("/api/trace?board=8x8&start=a1&piece=99999999999999999999,1", 400, "A leap is at most"),
    ("/api/board?board=8x8&piece=9223372036854775808,1", 400, "A leap is at most"),
    ("/api/tour?board=5x5&start=a1&piece=1,4294967296", 400, "A leap is at most"),
    ("/api/tour?board=5x5&start=a1&format=gif&fps=0.001", 400, "--fps must be between"),
    ("/api/tour?board=5x5&start=a1&format=gif&fps=nan", 400, "--fps must be between"),
    ("/api/tour?board=12x12&start=a1&format=gif&size=4096", 400, "ask for a size of at most"),
    ("/api/tour?board=12x12&start=a1&format=gif&size=2048", 400, "ask for a size of at most"),
])
def test_requests_that_once_broke_the_server_get_one_sentence(client, url, status, words):
    r = client.get(url)
    assert r.status_code == status and words in r.json()["detail"]


def test_a_large_animation_is_drawn_in_fewer_frames_within_the_budget():
    with TestClient(create_app(Limits(search_seconds=120), warm_up=False)) as client:  # a busy machine draws slowly
        r = client.get("/api/tour?board=12x12&start=a1&format=gif&size=1024")
    assert r.status_code == 200 and r.content[:6] == b"GIF89a"
    import io

    from PIL import Image

    frames = Image.open(io.BytesIO(r.content)).n_frames
    assert MIN_FRAMES <= frames < 144 and frames * 4 * 1024 * 1024 <= Limits().picture_memory


def test_a_picture_past_its_time_limit_is_abandoned_and_the_next_is_drawn():
    with TestClient(create_app(Limits(search_seconds=0.6), warm_up=False)) as client:
        r = client.get("/api/tour?board=12x12&start=a1&format=gif&size=1024")
        # the drawing process may see its own deadline first, or the server may give up on it first
        assert r.status_code == 504
        assert re.search(r"while the (picture|animation) was drawn", r.json()["detail"])
        r = client.get("/api/tour?board=5x5&start=a1&format=svg&time_limit=0.6")
        assert r.status_code in (200, 504)  # a new drawing process starts; on a slow machine it may not be in time
    with TestClient(create_app(Limits(search_seconds=60), warm_up=False)) as client:
        assert client.get("/api/tour?board=5x5&start=a1&format=png").content[:4] == b"\x89PNG"


def test_the_frame_budget():
    assert gif_frames(640, 640, 600) == 600
    assert gif_frames(1024, 1024, 600, memory=256 << 20) == 64
    with pytest.raises(Exception, match="at most 1672 pixels"):
        gif_frames(4096, 4096, 600, memory=256 << 20)
    assert gif_frames(2048, 2048, 600) == GIF_MEMORY // (4 * 2048 * 2048)
    with pytest.raises(Exception, match="at most 3344 pixels"):
        gif_frames(4096, 4096, 600)


def test_head_and_options_are_answered_and_every_answer_has_its_security_headers(client):
    get, head = client.get("/api/tour?board=5x5&start=a1"), client.head("/api/tour?board=5x5&start=a1")
    assert head.status_code == get.status_code == 200 and head.content == b""
    options = client.options("/api/tour")
    assert options.status_code == 204 and options.headers["allow"] == "GET, HEAD, OPTIONS"
    for url in ("/", "/docs", "/api/tour?board=2x2", "/openapi.json", "/static/favicon.svg"):
        r = client.get(url)
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], url
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"


def test_idle_and_slow_connections_neither_block_the_server_nor_stay():
    with running_server(Limits(header_seconds=2)) as url:
        host, port = url.removeprefix("http://").split(":")
        idle = [socket.create_connection((host, int(port))) for _ in range(1000)]
        slow = socket.create_connection((host, int(port)))
        slow.sendall(b"GET /api/tour?board=8x8 HTTP/1.1\r\nHo")  # a head that never ends
        try:
            with urllib.request.urlopen(url + "/api/tour?board=8x8&start=a1", timeout=10) as r:
                assert r.status == 200
            time.sleep(3)
            closed = 0
            for sock in idle + [slow]:
                sock.settimeout(2)
                closed += sock.recv(16) == b""
            assert closed == len(idle) + 1
        finally:
            for sock in idle + [slow]:
                sock.close()


QUERY_PARTS = {
    "board": ["8x8", "5x5", "0x0", "1x1", "99999999x2", "axb", "-3x4", "8x8x8", "", "%00", "1e9", "８x８", "3x4"],
    "start": ["a1", "z99", "", "a0", "h8", "\u202e", "a" * 300],
    "piece": ["knight", "1,2", "0,0", "99999999999999999999,1", "-1,2", "1.5,2", "zebra", "nan"],
    "method": ["auto", "warnsdorff", "backtrack", "construct", "frontier", "x"],
    "closed": ["true", "false", "maybe"],
    "format": ["json", "svg", "png", "gif", "pdf"],
    "size": ["64", "4096", "0", "-1", "1e99", "100000"],
    "fps": ["8", "0", "0.001", "nan", "inf", "-1"],
    "time_limit": ["0.5", "0", "-1", "nan", "1e308"],
    "holes": ["a1", "a1,a1", "zz", ""],
    "steps": ["1", "0", "-5", "99999999999"],
}


def test_random_and_hostile_queries_never_get_a_500(client):
    """A fuzz of the api: every answer is one the api documents, never 500."""
    rng = random.Random(17)
    paths = ["/api/tour", "/api/count", "/api/exists", "/api/board", "/api/trace", "/api/info", "/api/bishop"]
    seen = set()
    for _ in range(10_000):
        names = rng.sample(sorted(QUERY_PARTS), rng.randint(0, 4))
        query = "&".join(f"{n}={urllib.parse.quote(rng.choice(QUERY_PARTS[n]))}" for n in ["board", *names]
                         if rng.random() < 0.95)
        if "format=gif" in query or "format=png" in query:
            query = query.replace("board=8x8", "board=5x5")
        r = client.get(f"{rng.choice(paths)}?{query}&time_limit=0.5")
        assert r.status_code in (200, 400, 404, 405, 414, 422, 503, 504), (query, r.status_code, r.text[:200])
        seen.add(r.status_code)
    assert {200, 400, 422} <= seen
