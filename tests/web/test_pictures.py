"""``GET /api/tour?format=svg|png|gif``: the library's pictures of a tour, with their media types."""

from __future__ import annotations

import io
import threading
import time
import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from chesstours.render.picture import draw_tour
from chesstours.tour import Tour
from chesstours.web import create_app, drawing


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm_up=False))


def test_svg_is_the_picture_the_library_draws_of_the_same_tour(client):
    r = client.get("/api/tour", params={"board": "8x8", "start": "a1", "format": "svg", "numbers": "true"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(r.content)
    assert root.tag.endswith("svg")
    tour = Tour.from_dict(client.get("/api/tour", params={"board": "8x8", "start": "a1"}).json())
    assert r.content == draw_tour(tour, "svg", numbers=True)


def test_png_opens_with_pillow_at_the_size_asked(client):
    r = client.get("/api/tour", params={"board": "6x6", "start": "a1", "format": "png", "size": 300})
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    img = Image.open(io.BytesIO(r.content))
    assert img.format == "PNG" and max(img.size) == 300


def test_gif_is_an_animation_with_a_frame_per_move(client):
    r = client.get("/api/tour", params={"board": "5x5", "start": "a1", "format": "gif"})
    assert r.status_code == 200 and r.headers["content-type"] == "image/gif"
    img = Image.open(io.BytesIO(r.content))
    assert img.format == "GIF" and img.is_animated and img.n_frames >= 25


def test_an_animated_svg_and_a_closed_tour(client):
    r = client.get("/api/tour", params={"board": "6x6", "closed": "true", "format": "svg", "animate": "true"})
    assert r.status_code == 200
    assert b"<animate" in r.content or b"@keyframes" in r.content
    ET.fromstring(r.content)


@pytest.mark.parametrize(
    ("params", "status", "sentence"),
    [
        ({"format": "gif", "board": "13x12"}, 400, "This server draws animated GIFs of boards of at most 144 squares"),
        ({"format": "png", "size": 10}, 400, "size"),
        ({"format": "gif", "fps": 0}, 400, ""),
        ({"format": "png", "animate": "true"}, 400, "A PNG cannot move"),
        ({"format": "jpeg"}, 422, "Invalid value 'jpeg' for format"),
    ],
)
def test_bad_pictures_are_refused_before_the_search(client, params, status, sentence):
    r = client.get("/api/tour", params={"board": "8x8", "start": "a1", **params})
    assert r.status_code == status, r.text
    assert sentence in r.json()["detail"]


@pytest.mark.parametrize("params", [{"format": "png", "animate": "true"}, {"format": "png", "size": 10},
                                    {"format": "gif", "fps": 0}])
def test_a_bad_picture_request_never_starts_a_search(client, monkeypatch, params):
    from chesstours.web import service

    def no_search(*args, **kwargs):
        raise AssertionError("the search ran")

    monkeypatch.setattr(service, "tour", no_search)
    r = client.get("/api/tour", params={"board": "8x8", "start": "a1", **params})
    assert r.status_code == 400, r.text


def test_no_tour_is_still_404_json_when_a_picture_is_asked(client):
    r = client.get("/api/tour", params={"board": "4x4", "start": "a1", "format": "png"})
    assert r.status_code == 404 and r.json()["detail"]


def test_the_drawing_process_outlives_the_server_thread_that_started_it():
    # the server's threads end when idle; the drawing process ends with the server, not with them
    from chesstours import find_tour

    tour = find_tour("5x5").to_dict()
    drawing.shutdown()
    try:
        first = threading.Thread(target=drawing.draw, args=(tour, {"fmt": "svg"}, 60))
        first.start()
        first.join()
        time.sleep(0.3)
        assert drawing.draw(tour, {"fmt": "svg"}, 60).startswith(b"<")
    finally:
        drawing.shutdown()
