"""``GET /api/bishop``: the bishop puzzle through the web api, as the command line answers it."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from chesstours.bishop.route import BishopRoute
from chesstours.cli import main
from chesstours.web import Limits, create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm_up=False))


def cli_json(capsys, *args) -> dict:
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def without_timing(data: dict) -> dict:
    data = json.loads(json.dumps(data))
    data.pop("seconds", None)
    data.get("stats", {}).pop("seconds", None)
    return data


def test_a_route_on_8x8_is_the_json_of_chesstours_bishop(client, capsys):
    r = client.get("/api/bishop", params={"board": "8x8"})
    assert r.status_code == 200
    data = r.json()
    assert without_timing(data) == without_timing(cli_json(capsys, "bishop", "8x8", "--format", "json"))
    assert data["steps"][0] == "a1" and data["steps"][-1] == "h8"
    route = BishopRoute.from_dict(data)
    assert route.is_valid()


@pytest.mark.parametrize("method", ["construct", "backtrack"])
def test_a_method_asked_for_is_the_one_the_cli_uses(client, capsys, method):
    board = "20x20" if method == "construct" else "8x8"
    data = client.get("/api/bishop", params={"board": board, "method": method}).json()
    assert without_timing(data) == without_timing(cli_json(capsys, "bishop", board, "--method", method, "--format",
                                                           "json"))
    assert BishopRoute.from_dict(data).is_valid()


def test_the_shortest_route_on_8x8_has_17_slides_with_its_proof(client):
    data = client.get("/api/bishop", params={"board": "8x8", "shortest": "true"}).json()
    assert data["slide_count"] == 17 and len(data["slides"]) == 18
    assert "proof" in data["stats"] and data["method"] == "shortest"
    assert BishopRoute.from_dict(data).is_valid()


def test_count_on_8x8_is_70_routes_and_8_shortest_as_the_cli_counts(client, capsys):
    data = client.get("/api/bishop", params={"board": "8x8", "count": "true"}).json()
    assert data["count"] == 70 and data["complete"] is True
    assert without_timing(data) == without_timing(cli_json(capsys, "bishop", "8x8", "--count", "--json"))
    shortest = client.get("/api/bishop", params={"board": "8x8", "count": "true", "shortest": "true"}).json()
    assert shortest["count"] == 8 and shortest["slides"] == 17


def test_limit_lists_the_first_routes_in_the_order_of_the_cli(client, capsys):
    data = client.get("/api/bishop", params={"board": "8x8", "limit": 3}).json()
    assert data["listed"] == 3 and data["complete"] is False and data["stopped"] is None
    assert main(["bishop", "8x8", "--limit", "3", "--format", "json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["steps"] for r in data["routes"]] == [r["steps"] for r in lines]
    assert all(BishopRoute.from_dict(r).is_valid() for r in data["routes"])


def test_a_listing_of_every_route_says_it_is_complete(client):
    data = client.get("/api/bishop", params={"board": "2x6", "limit": 10}).json()
    assert data["listed"] == 1 and data["complete"] is True
    assert data["routes"][0]["slides"] == ["a1", "b2", "c1", "d2", "e1", "f2"]


def test_end_any_and_an_end_square_are_the_cli_rules(client):
    anywhere = client.get("/api/bishop", params={"board": "5x5", "end": "any"})
    assert anywhere.status_code == 200  # odd x odd: no route from a corner (three dead-end corners)
    assert anywhere.json()["found"] is False and "one diagonal neighbour" in anywhere.json()["reason"]
    to_square = client.get("/api/bishop", params={"board": "8x8", "end": "h8"}).json()
    assert to_square["end"] == "h8" and to_square["steps"][-1] == "h8"


def test_no_route_is_an_answer_with_the_reason_not_an_error(client):
    r = client.get("/api/bishop", params={"board": "6x6"})
    assert r.status_code == 200
    body = r.json()
    assert body["found"] is False and body["proof"] == "exhaustive" and body["how"]
    assert body["reason"].startswith("No bishop route from a1 to f6")
    assert "found" not in client.get("/api/bishop", params={"board": "8x8"}).json()  # a route has no "found"


@pytest.mark.parametrize("extra", [{"limit": 3}, {"count": "true"}])
def test_no_route_is_an_answer_for_a_listing_and_a_count_too(client, extra):
    r = client.get("/api/bishop", params={"board": "8x8", "end": "b1", **extra})
    assert r.status_code == 200 and r.json()["found"] is False and "b1 is a light square" in r.json()["reason"]


def test_holes_are_passed_to_the_solver(client):
    r = client.get("/api/bishop", params={"board": "8x8", "holes": "d4", "count": "true"})
    assert r.status_code == 200 and r.json()["holes"] == ["d4"]


@pytest.mark.parametrize(
    ("params", "status", "sentence"),
    [
        ({"board": "8x8", "start": "z9"}, 400, "z9"),
        ({"board": "0x8"}, 400, ""),
        ({"board": "8x8", "count": "true", "limit": 2}, 400, "Choose count or limit, not both."),
        ({"board": "8x8", "limit": 0}, 400, "limit must be from 1 to 100 here, not 0."),
        ({"board": "8x8", "limit": 101}, 400, "limit must be from 1 to 100 here, not 101."),
        ({"board": "8x8", "time_limit": -1}, 400, "The time limit must be a positive number of seconds, not -1.0."),
        ({"board": "8x8", "limit": "three"}, 422, "Invalid value 'three' for limit"),
        ({"board": "8x8", "shortest": "maybe"}, 422, "Invalid value 'maybe' for shortest"),
        ({}, 422, "The parameter board is required."),
        ({"board": "8x8", "count": "true", "method": "construct"}, 400, "drop method=construct"),
        ({"board": "8x8", "method": "guess"}, 422, "Invalid value 'guess' for method"),
    ],
)
def test_bad_input_is_400_or_422_with_one_sentence(client, params, status, sentence):
    r = client.get("/api/bishop", params=params)
    assert r.status_code == status, r.json()
    detail = r.json()["detail"]
    assert isinstance(detail, str) and sentence in detail and "\n" not in detail


def test_the_cli_says_the_same_sentence_for_a_bad_end(client, capsys):
    assert main(["bishop", "8x8", "--end", "b1"]) == 1  # no route ends there: an answer, as elsewhere
    err = capsys.readouterr().err
    assert client.get("/api/bishop", params={"board": "8x8", "end": "b1"}).json()["reason"] in err


def test_boards_above_the_limits_are_refused_before_any_search(client):
    big = client.get("/api/bishop", params={"board": "21x20"})
    assert big.status_code == 400
    assert big.json()["detail"].startswith("This server looks for bishop routes on boards of at most 400 squares")
    count = client.get("/api/bishop", params={"board": "12x12", "count": "true"})
    assert count.status_code == 400
    assert "counts bishop routes on boards of at most 100 squares" in count.json()["detail"]


def test_every_search_has_a_time_limit_and_504_keeps_what_was_found():
    client = TestClient(create_app(Limits(count_seconds=0.2, search_seconds=0.3, quick_seconds=0.1),
                                   warm_up=False))
    count = client.get("/api/bishop", params={"board": "10x10", "count": "true"})
    assert count.status_code == 504
    body = count.json()
    assert body["detail"].startswith("Stopped at the time limit") and body["partial"]["complete"] is False
    solve = client.get("/api/bishop", params={"board": "20x20", "holes": "j10"})  # no construction: a search
    assert solve.status_code == 504 and "time limit" in solve.json()["detail"]
    asked = client.get("/api/bishop", params={"board": "12x12", "limit": 2, "time_limit": 0.2})
    assert asked.status_code == 504
