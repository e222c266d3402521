"""``POST /api/check``: a tour of your own, read and checked as ``chesstours check`` does."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import chesstours as ct
from chesstours.cli import main
from chesstours.web import Limits, create_app

TOUR_3X4 = "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm_up=False))


def check(client, text: str, **params):
    return client.post("/api/check", params=params, content=text.encode())


def test_a_valid_tour_as_moves_says_what_the_command_line_says(client, tmp_path, capsys):
    r = check(client, TOUR_3X4)
    assert r.status_code == 200
    data = r.json()
    (tmp_path / "t.txt").write_text(TOUR_3X4)
    assert main(["check", str(tmp_path / "t.txt")]) == 0
    assert data["valid"] is True and data["problem"] is None
    assert data["summary"] == capsys.readouterr().out.strip()
    assert data["tour"]["path"] == TOUR_3X4.split() and data["tour"]["board"] == {"rows": 3, "cols": 4, "holes": []}


def test_a_numbered_grid_is_read_with_its_board_and_holes(client):
    tour = ct.find_tour(ct.Board(5, 6, "c3"), start="b1")
    data = check(client, tour.grid()).json()
    assert data["valid"] is True and data["tour"]["path"] == tour.names()
    assert data["tour"]["board"] == {"rows": 5, "cols": 6, "holes": ["c3"]}


def test_the_json_of_a_tour_is_read_too(client):
    tour = ct.find_tour("6x6", closed=True)
    data = check(client, tour.to_json()).json()
    assert data["valid"] is True and data["tour"]["closed"] is True and data["summary"].startswith("valid: closed")


@pytest.mark.parametrize(
    "text, params, problem, step",
    [
        ("a1 b1", {}, "Step 1, from a1 to b1, is not a knight move.", 1),
        ("a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b3 d3", {}, "Step 10 returns to b3, already visited at step 5.", 10),
        ("a1 c2", {"board": "8x8"}, "The path visits 2 of 64 squares; missing: b1, c1, d1, e1, f1, ....", None),
        (TOUR_3X4, {"closed": "true"}, "The tour is marked closed but d3 is not a knight move from a1.", 11),
    ],
)
def test_an_invalid_tour_names_the_first_problem_and_where(client, text, params, problem, step):
    data = check(client, text, **params).json()
    assert (data["valid"], data["problem"], data["step"]) == (False, problem, step)
    assert data["summary"] == f"invalid: {problem}" and data["tour"]["path"] == text.split()


def test_a_text_that_is_no_tour_is_an_answer_not_an_error(client):
    r = check(client, "hello world")
    assert r.status_code == 200
    assert r.json() == {"valid": False, "step": None, "tour": None,
                        "problem": "'hello' is not a square name; a tour is a list such as a1 c2 e1.",
                        "summary": "invalid: 'hello' is not a square name; a tour is a list such as a1 c2 e1."}
    assert check(client, "   ").json()["problem"] == "The tour is empty."


def test_the_input_and_the_board_are_bounded(client):
    assert check(client, "a1 " * 30_000).status_code == 413
    r = check(client, "a1 zz1000000")
    assert r.status_code == 400 and r.json()["detail"].startswith("This server checks tours of boards of at most 2,500")
    assert check(client, "a1 c2", board="60x60").status_code == 400
    assert check(client, "a1 c2", piece="bishop").status_code == 400
    small = TestClient(create_app(Limits(check_bytes=16), warm_up=False))
    assert small.post("/api/check", content=TOUR_3X4.encode()).status_code == 413
    # The other endpoints still read no body.
    assert client.request("GET", "/api/tour?board=8x8", content=b"x" * 5000).status_code == 413


def test_the_piece_and_the_board_can_be_given(client):
    tour = ct.find_tour("8x8", start="a1")
    moves = tour.moves()
    assert check(client, moves, board="8x8").json()["valid"] is True
    zebra = check(client, moves, piece="zebra").json()
    assert zebra["valid"] is False and "is not a zebra move" in zebra["problem"]
