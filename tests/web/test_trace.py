"""``GET /api/trace``: a search step by step, as the library's trace records it."""

from __future__ import annotations

from itertools import islice, pairwise

import pytest
from fastapi.testclient import TestClient

from chesstours.board import Board
from chesstours.trace import trace_search
from chesstours.web import Limits, create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm_up=False))


def test_the_events_are_those_of_the_library_trace_as_json(client):
    data = client.get("/api/trace", params={"board": "5x5", "start": "a1", "steps": 300}).json()
    board = Board(5, 5)
    expected = [e.to_dict(board) for e in islice(trace_search(board, "a1"), 300)]
    assert data["events"] == expected
    assert data["method"] == "backtrack" and data["order"] == "fixed" and data["start"] == "a1"
    assert data["complete"] is False and data["stopped"] == "steps"


def test_the_first_events_tell_the_story_of_seed_004(client):
    events = client.get("/api/trace", params={"board": "5x5", "start": "a1", "steps": 4}).json()["events"]
    assert [e["text"] for e in events] == ["Move 1: start on a1.", "Move 2: a1 to b3.", "Move 3: b3 to c5.",
                                           "Move 4: c5 to e4."]
    assert events[0]["candidates"] == [{"square": "b3", "weight": 5}, {"square": "c2", "weight": 5}]
    assert events[3]["path"] == ["a1", "b3", "c5", "e4"]


def test_a_trace_moves_and_steps_back_and_each_path_follows_from_the_last(client):
    events = client.get("/api/trace", params={"board": "5x5", "start": "a1", "steps": 400}).json()["events"]
    kinds = {e["kind"] for e in events}
    assert {"start", "move", "back"} <= kinds
    for before, after in pairwise(events):
        if after["kind"] == "move":
            assert after["path"] == before["path"] + [after["square"]]
        elif after["kind"] == "back":
            assert after["path"] == before["path"][:-1] and before["path"][-1] == after["square"]


def test_a_small_search_runs_to_its_end_and_says_it_is_complete(client):
    data = client.get("/api/trace", params={"board": "3x3", "start": "a1", "steps": 2000}).json()
    assert data["complete"] is True and data["stopped"] is None
    assert data["events"][-1]["kind"] == "done"


def test_warnsdorff_shows_each_candidates_weight_and_picks_the_smallest(client):
    data = client.get("/api/trace", params={"board": "8x8", "start": "a1", "method": "warnsdorff",
                                            "steps": 2000}).json()
    events = data["events"]
    assert data["tiebreak"] == "roth" and data["complete"] is True
    assert events[-1]["kind"] == "tour" and len(events[-1]["path"]) == 64
    moves = [e for e in events if e["kind"] in ("start", "move")]
    for before, after in pairwise(moves):
        weights = {c["square"]: c["weight"] for c in before["candidates"]}
        assert weights[after["square"]] == min(weights.values()) == after["weight"]


def test_the_move_order_and_a_closed_search_are_passed_on(client):
    data = client.get("/api/trace", params={"board": "6x6", "start": "a1", "order": "warnsdorff", "closed": "true",
                                            "steps": 50}).json()
    assert data["order"] == "warnsdorff" and data["closed"] is True
    assert data["events"][1]["weight"] is not None  # moves ordered by weight carry it


@pytest.mark.parametrize(
    ("params", "status", "sentence"),
    [
        ({"board": "5x5"}, 422, "The parameter start is required."),
        ({"board": "5x5", "start": "a1", "method": "auto"}, 422, "Invalid value 'auto' for method"),
        ({"board": "5x5", "start": "a1", "order": "random"}, 422, "Invalid value 'random' for order"),
        ({"board": "5x5", "start": "a1", "steps": "many"}, 422, "Invalid value 'many' for steps"),
        ({"board": "5x5", "start": "f9"}, 400, "The start square"),
        ({"board": "5x5", "start": "a1", "end": "a1"}, 400, "The start and end squares are both a1"),
        ({"board": "5x5", "start": "a1", "end": "e5", "closed": "true"}, 400,
         "A closed tour ends a move away from its start; e5 is not a move from a1."),
        ({"board": "5x5", "start": "a1", "piece": "dragon"}, 400, "dragon"),
        ({"board": "5x5", "start": "a1", "steps": 0}, 400, "A trace here has from 1 to 2,000 steps, not 0"),
        ({"board": "5x5", "start": "a1", "steps": 2001}, 400, "A trace here has from 1 to 2,000 steps, not 2,001"),
        ({"board": "21x20", "start": "a1"}, 400, "This server traces searches on boards of at most 400 squares"),
        ({"board": "5x5", "start": "a1", "time_limit": 0}, 400, "The time limit must be a positive number"),
    ],
)
def test_bad_input_is_400_or_422_with_one_sentence(client, params, status, sentence):
    r = client.get("/api/trace", params=params)
    assert r.status_code == status, r.json()
    detail = r.json()["detail"]
    assert isinstance(detail, str) and sentence in detail and "\n" not in detail


def test_a_trace_that_runs_out_of_time_returns_what_it_traced():
    client = TestClient(create_app(Limits(search_seconds=0.05), warm_up=False))
    data = client.get("/api/trace", params={"board": "20x20", "start": "a1", "steps": 2000}).json()
    assert data["stopped"] == "time" and data["complete"] is False
    assert 1 <= len(data["events"]) < 2000 and data["events"][0]["kind"] == "start"


def test_a_trace_runs_in_the_slow_lane_and_keeps_what_it_traced():
    # A quick lane's budget far too short for the trace: it goes to the slow lane at once, which keeps it whole.
    client = TestClient(create_app(Limits(quick_seconds=0.01, search_seconds=30), warm_up=False))
    data = client.get("/api/trace", params={"board": "20x20", "start": "a1", "steps": 2000}).json()
    assert data["stopped"] == "steps" and len(data["events"]) == 2000
    assert client.get("/api/info").json()["lanes"]["long"]["running"] == 0


def test_a_long_trace_is_sent_compressed(client):
    r = client.get("/api/trace", params={"board": "8x8", "start": "a1", "steps": 500},
                   headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert int(r.headers["content-length"]) * 5 < len(r.content)  # the JSON shrinks at least five times
