"""``GET /api/sample`` and ``GET /api/stats``: random tours and the statistics of every tour through the web api."""

from __future__ import annotations

import json
import os

import pytest
from fastapi.testclient import TestClient

from chesstours.cli import main
from chesstours.tour import Tour
from chesstours.web import Limits, create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm_up=False))


def cli_json(capsys, *args) -> dict:
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out.splitlines()[0])


def without_timing(data: dict) -> dict:
    data = json.loads(json.dumps(data))
    data.pop("seconds", None)
    data.pop("seed", None)
    data.get("stats", {}).pop("seconds", None)
    return data


def test_a_random_tour_of_5x5_from_a1_is_the_tour_chesstours_sample_draws(client, capsys):
    r = client.get("/api/sample", params={"board": "5x5", "start": "a1", "seed": 7})
    assert r.status_code == 200
    data = r.json()
    assert "found" not in data and data["seed"] == 7
    assert data["path"][0] == "a1" and data["stats"]["tours"] == 304
    assert Tour.from_dict(data).is_valid()
    cli = cli_json(capsys, "sample", "5x5", "-n", "1", "--seed", "7", "--start", "a1", "--format", "json",
                   "--no-cache")
    assert without_timing(data) == without_timing(cli)


def test_the_same_seed_draws_the_same_tour_and_another_seed_may_not(client):
    params = {"board": "5x6", "closed": "false"}
    one = [client.get("/api/sample", params={**params, "seed": 3}).json()["path"] for _ in range(2)]
    assert one[0] == one[1]
    others = {tuple(client.get("/api/sample", params={**params, "seed": s}).json()["path"]) for s in range(4, 8)}
    assert len(others | {tuple(one[0])}) > 1


def test_a_closed_random_tour_is_closed(client):
    data = client.get("/api/sample", params={"board": "6x6", "closed": "true", "seed": 1}).json()
    tour = Tour.from_dict(data)
    assert tour.closed and tour.is_valid() and data["stats"]["tours"] == 2 * 9862


def test_the_server_keeps_no_tables_in_the_cache_folder(client, tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSTOURS_TABLES_DIR", str(tmp_path))
    assert client.get("/api/sample", params={"board": "3x4", "seed": 2}).status_code == 200
    assert os.listdir(tmp_path) == []


def test_no_tour_is_an_answer_with_its_proof(client):
    r = client.get("/api/sample", params={"board": "4x4"})
    assert r.status_code == 200
    data = r.json()
    assert data["found"] is False and data["proof"] == "theorem" and "4x4" in data["reason"]


def test_a_board_larger_than_the_server_counts_is_refused_as_an_answer(client):
    r = client.get("/api/sample", params={"board": "8x8"})
    assert r.status_code == 200
    data = r.json()
    assert data["found"] is False and data["proof"] == "limit" and "48 squares" in data["reason"]


def test_tables_forecast_over_the_time_limit_are_refused_before_they_are_built(client):
    # 6x6 open tours: tables of some gigabytes, forecast to outlast the count's time limit
    data = client.get("/api/sample", params={"board": "6x6"}).json()
    assert data["found"] is False and data["proof"] == "limit"
    assert "this server's" in data["reason"] and "chesstours sample or stats 6x6" in data["reason"]


def test_a_smaller_time_limit_refuses_what_it_cannot_build():
    small = TestClient(create_app(Limits(count_seconds=0.5), warm_up=False))
    data = small.get("/api/sample", params={"board": "6x6", "closed": "true"}).json()
    assert data["found"] is False and data["proof"] == "limit"


@pytest.mark.parametrize("seed", ["-1", str(2**53), "x"])
def test_a_seed_out_of_range_is_422(client, seed):
    assert client.get("/api/sample", params={"board": "5x5", "seed": seed}).status_code == 422


@pytest.mark.parametrize("path", ["/api/sample", "/api/stats"])
@pytest.mark.parametrize("seconds", ["-1", "0", "nan"])
def test_a_time_limit_that_is_no_positive_number_is_400(client, path, seconds):
    r = client.get(path, params={"board": "5x5", "time_limit": seconds})
    assert r.status_code == 400 and "time limit" in r.json()["detail"]


def test_a_bad_square_is_400(client):
    r = client.get("/api/sample", params={"board": "5x5", "start": "z9"})
    assert r.status_code == 400 and r.json()["detail"]


def test_statistics_of_5x5_are_the_json_of_chesstours_stats(client, capsys):
    r = client.get("/api/stats", params={"board": "5x5"})
    assert r.status_code == 200
    data = r.json()
    assert data["directed"] == 1728 and data["starts"]["a1"] == 304
    assert "heat_svg" not in data
    assert without_timing(data) == without_timing(cli_json(capsys, "stats", "5x5", "--json"))


def test_statistics_with_heat_hold_the_heat_map_svg(client):
    data = client.get("/api/stats", params={"board": "5x6", "closed": "true", "heat": "true"}).json()
    assert data["undirected"] == 8 and data["heat_svg"].startswith("<svg")


@pytest.mark.parametrize("fmt, media, magic", [("svg", "image/svg+xml", b"<svg"), ("png", "image/png", b"\x89PNG")])
def test_the_heat_map_as_a_picture(client, fmt, media, magic):
    r = client.get("/api/stats", params={"board": "5x5", "format": fmt})
    assert r.status_code == 200 and r.headers["content-type"].startswith(media) and r.content.startswith(magic)


def test_statistics_not_quick_here_are_an_answer_and_their_picture_is_400(client):
    data = client.get("/api/stats", params={"board": "7x7"}).json()
    assert data["found"] is False and data["proof"] == "limit"
    r = client.get("/api/stats", params={"board": "7x7", "format": "svg"})
    assert r.status_code == 400 and r.json()["detail"]


def test_statistics_of_no_tour_are_an_answer_and_their_picture_is_404(client):
    data = client.get("/api/stats", params={"board": "3x3"}).json()
    assert data["found"] is False and data["proof"] != "limit"
    assert client.get("/api/stats", params={"board": "3x3", "format": "svg"}).status_code == 404


def test_a_board_larger_than_a_tour_is_400(client):
    assert client.get("/api/sample", params={"board": "60x60"}).status_code == 400
