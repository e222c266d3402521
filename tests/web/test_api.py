"""The web api through FastAPI's TestClient: every endpoint, every error, the limits."""

from __future__ import annotations

import json
import re
import time

import pytest
from fastapi.testclient import TestClient

import chesstours as ct
from chesstours import tour_exists
from chesstours.cli import main
from chesstours.count import count_strip
from chesstours.pieces import move_table
from chesstours.tour import Tour
from chesstours.web import Limits, create_app, service
from chesstours.web.app import STATIC
from chesstours.web.workers import GRACE


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(warm_up=False))


def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def without_timing(data: dict) -> dict:
    data = json.loads(json.dumps(data))
    for timing in ("seconds", "squares_per_second"):
        data.get("stats", {}).pop(timing, None)
    data.pop("seconds", None)
    return data


# -- /api/tour -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, args",
    [
        ({"board": "8x8", "start": "a1", "closed": "true"}, ["tour", "8x8", "--start", "a1", "--closed"]),
        ({"board": "8x8", "start": "d4", "method": "warnsdorff", "tiebreak": "pohl"},
         ["tour", "8x8", "--start", "d4", "--method", "warnsdorff", "--tiebreak", "pohl"]),
        ({"board": "8x8", "start": "a1", "method": "warnsdorff", "tiebreak": "roth"},
         ["tour", "8x8", "--start", "a1", "--method", "warnsdorff", "--tiebreak", "roth"]),
        ({"board": "8x8", "holes": "d4,d5", "start": "a1"}, ["tour", "8x8", "--holes", "d4,d5", "--start", "a1"]),
        ({"board": "6x6", "method": "backtrack", "order": "fixed", "end": "f5"},
         ["tour", "6x6", "--method", "backtrack", "--order", "fixed", "--end", "f5"]),
        ({"board": "5x6", "piece": "1,2", "method": "warnsdorff", "tiebreak": "random", "seed": "3"},
         ["tour", "5x6", "--piece", "1,2", "--method", "warnsdorff", "--tiebreak", "random", "--seed", "3"]),
    ],
)
def test_tour_json_is_the_command_lines(client, capsys, params, args):
    response = client.get("/api/tour", params=params)
    code, out, err = cli(capsys, *args, "--format", "json")
    if code == 4:  # Warnsdorff's rule may dead-end (status 4): then both say so, in the same words
        assert response.status_code == 200 and params.get("method") == "warnsdorff"
        assert response.json()["found"] is False and response.json()["proof"] == "heuristic"
        assert response.json()["reason"] == err.removeprefix("chesstours: ").rstrip("\n")
        return
    assert (response.status_code, code) == (200, 0)
    assert without_timing(response.json()) == without_timing(json.loads(out))
    Tour.from_dict(response.json()).validate()


def test_tour_returns_a_valid_closed_tour_from_the_start(client):
    data = client.get("/api/tour", params={"board": "8x8", "start": "a1", "closed": True}).json()
    tour = Tour.from_dict(data)
    tour.validate()
    assert tour.closed and data["path"][0] == "a1" and len(data["path"]) == 64


def test_tour_with_a_played_prefix_begins_with_it(client):
    played = "a1,b3,c1,a2"
    data = client.get("/api/tour", params={"board": "8x8", "prefix": played}).json()
    tour = Tour.from_dict(data)
    tour.validate()
    assert data["path"][:4] == played.split(",") and data["stats"]["played"] == 4


@pytest.mark.parametrize(
    "params, message",
    [
        ({"prefix": "a1,b3,b4"}, "Move 2 of the played path, from b3 to b4, is not a knight move."),
        ({"prefix": "a1,b3,a1"}, "The played path returns to a1 at square 3; it was already visited at square 1."),
        ({"prefix": "a1,z9"}, "Square 2 of the played path: z9 is not on the 8x8 board (files a-h, ranks 1-8)."),
        ({"prefix": "a1,c2", "start": "b1"}, "The played path starts on a1, not on the start square b1."),
        ({"prefix": "a1,c2", "method": "warnsdorff"},
         "A played path is finished by backtracking; use the method auto or backtrack."),
        ({"prefix": "a1,c2", "end": "c2"}, "The end square c2 is already on the played path."),
    ],
)
def test_bad_prefix_is_400_with_one_sentence(client, params, message):
    response = client.get("/api/tour", params={"board": "8x8", **params})
    assert response.status_code == 400
    assert response.json() == {"detail": message}


def test_prefix_that_cannot_be_finished_is_an_answer_proved_exhaustively(client):
    response = client.get("/api/tour", params={"board": "5x5", "prefix": "a1,c2,a3,c4"})
    assert response.status_code == 200
    body = response.json()
    assert body["found"] is False and body["proof"] == "exhaustive"
    assert body["reason"].startswith("No tour begins with the played path a1")


@pytest.mark.parametrize(
    "params, args, proof",
    [
        ({"board": "5x5", "start": "b1"}, ["tour", "5x5", "--start", "b1"], "colour"),
        ({"board": "4x4"}, ["tour", "4x4"], "theorem"),
        ({"board": "4x6", "closed": "true"}, ["tour", "4x6", "--closed"], "theorem"),
        ({"board": "3x4", "start": "b1"}, ["tour", "3x4", "--start", "b1"], "exhaustive"),
    ],
)
def test_no_tour_is_an_answer_with_the_command_lines_reason(client, capsys, params, args, proof):
    response = client.get("/api/tour", params=params)
    code, _, err = cli(capsys, *args)
    assert (response.status_code, code) == (200, 1)
    body = response.json()
    assert body["found"] is False and "path" not in body
    assert body["reason"] == err.removeprefix("chesstours: ").rstrip("\n")
    assert body["proof"] == proof and body["how"]  # and the proof in plain words
    assert body["board"]["rows"] == int(params["board"][0]) and body["start"] == params.get("start")


def test_a_tour_found_has_no_found_key_and_no_tour_says_found_false(client):
    # A client tells the two answers apart by "found": a tour's JSON is the command line's, unchanged.
    assert "found" not in client.get("/api/tour", params={"board": "5x5", "start": "a1"}).json()
    assert client.get("/api/tour", params={"board": "5x5", "start": "b1"}).json()["found"] is False


def test_a_failed_heuristic_is_an_answer_marked_heuristic(client):
    # Find a start where Warnsdorff's rule with the first-move tie-break dead-ends, by the library.
    reason = None
    for square in ct.Board.parse("7x7").names(range(49)):
        try:
            ct.find_tour("7x7", start=square, method="warnsdorff", tiebreak="first")
        except ct.GaveUp as exc:
            reason = exc.reason
            break
    assert reason is not None, "Warnsdorff's rule with the first tie-break succeeds from every square of 7x7"
    response = client.get("/api/tour", params={"board": "7x7", "start": square, "method": "warnsdorff",
                                               "tiebreak": "first"})
    assert response.status_code == 200 and response.json()["proof"] == "heuristic"
    assert response.json()["reason"] == reason and response.json()["found"] is False
    assert "may still exist" in response.json()["how"]


# -- errors shared by every endpoint ------------------------------------------------------------


@pytest.mark.parametrize(
    "params, args",
    [
        ({"board": "0x5"}, ["tour", "0x5"]),
        ({"board": "8x"}, ["tour", "8x"]),
        ({"board": "8", "start": "a0"}, ["tour", "8", "--start", "a0"]),
        ({"board": "8", "start": "z9"}, ["tour", "8", "--start", "z9"]),
        ({"board": "8", "holes": "d4", "start": "d4"}, ["tour", "8", "--holes", "d4", "--start", "d4"]),
        ({"board": "8", "piece": "0,0"}, ["tour", "8", "--piece", "0,0"]),
        ({"board": "8", "piece": "bishop"}, ["tour", "8", "--piece", "bishop"]),
        ({"board": "8", "time_limit": "-1"}, ["tour", "8", "--time-limit", "-1"]),
        ({"board": "8", "holes": "a1,zz99"}, ["tour", "8", "--holes", "a1,zz99"]),
        ({"board": "8", "start": "a1", "end": "a1"}, ["tour", "8", "--start", "a1", "--end", "a1"]),
    ],
)
@pytest.mark.parametrize("endpoint", ["/api/tour", "/api/exists", "/api/count"])
def test_bad_input_is_400_with_the_command_lines_sentence(client, capsys, endpoint, params, args):
    if endpoint == "/api/count" and params.get("board") == "8":
        params = {**params, "board": "6"}
        args = ["count", "6"] + args[2:]
    elif endpoint == "/api/count":
        args = ["count"] + args[1:]
    response = client.get(endpoint, params=params)
    code, _, err = cli(capsys, *args)
    assert (response.status_code, code) == (400, 2), (endpoint, params, response.text, err)
    assert response.json() == {"detail": err.removeprefix("chesstours: ").rstrip("\n")}


@pytest.mark.parametrize(
    "params, message",
    [
        ({"board": "8", "method": "fast"}, ("Invalid value 'fast' for method: input should be 'auto', 'warnsdorff', "
                                            "'backtrack' or 'construct'.")),
        ({"board": "8", "tiebreak": "coin"}, ("Invalid value 'coin' for tiebreak: input should be 'first', 'pohl', "
                                              "'roth' or 'random'.")),
        ({"board": "8", "closed": "maybe"}, ("Invalid value 'maybe' for closed: input should be a valid boolean, "
                                             "unable to interpret input.")),
        ({"board": "8", "seed": "x"}, ("Invalid value 'x' for seed: input should be a valid integer, unable to "
                                       "parse string as an integer.")),
        ({}, "The parameter board is required."),
        ({"board": "8" * 40}, f"Invalid value '{'8' * 40}' for board: string should have at most 32 characters."),
    ],
)
def test_parameters_of_the_wrong_kind_are_422_with_one_sentence(client, params, message):
    response = client.get("/api/tour", params=params)
    assert response.status_code == 422
    assert response.json()["detail"] == message
    assert response.json()["errors"]


# -- /api/count ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, args",
    [
        ({"board": "5x5", "start": "a1"}, ["count", "5x5", "--start", "a1"]),
        ({"board": "6x6", "closed": "true"}, ["count", "6x6", "--closed"]),
        ({"board": "3x4"}, ["count", "3x4"]),
        ({"board": "4x4"}, ["count", "4x4"]),
    ],
)
def test_count_json_is_the_command_lines(client, capsys, params, args):
    response = client.get("/api/count", params=params)
    code, out, _ = cli(capsys, *args, "--json", "--no-progress")
    assert (response.status_code, code) == (200, 0)
    data = without_timing(response.json())
    expected = without_timing(json.loads(out))
    # The server counts on one thread, the command on every core, each in plain Python or compiled as its
    # process has its kernels: how a count ran (its threads, the memory its tables took, the states extended
    # in Python) is the run's, the rest is the answer.
    for run in ("threads", "peak_memory_mb"):
        assert (run in data) == (run in expected)
        data.pop(run, None), expected.pop(run, None)
    data.pop("plain_states", None), expected.pop("plain_states", None)  # there in one, not in the other
    assert data == expected


def test_counts_are_the_known_facts(client):
    assert client.get("/api/count", params={"board": "5x5", "start": "a1"}).json()["directed"] == 304
    closed = client.get("/api/count", params={"board": "6x6", "closed": True}).json()
    assert (closed["undirected"], closed["directed"]) == (9862, 19724)
    assert client.get("/api/count", params={"board": "4x5"}).json()["directed"] == 164


def test_counts_above_the_size_limit_are_refused_at_once(client):
    response = client.get("/api/count", params={"board": "8x8"})
    assert response.status_code == 400
    assert response.json()["detail"] == (
        "This server counts tours on boards of at most 48 squares and 8x8 has 64: the number of paths grows "
        "exponentially with the board (chesstours count 8x8 --time-limit SECONDS counts as far as it gets)."
    )
    assert response.elapsed.total_seconds() < 0.5


def test_counts_estimated_beyond_the_time_limit_are_refused_before_they_start(client):
    response = client.get("/api/count", params={"board": "6x6", "time_limit": 0.01})
    assert response.status_code == 400
    assert re.fullmatch(r"Counting the tours of 6x6 would take (about \d+ seconds?|under a second) here, more than "
                        r"this server's "
                        r"0\.01-second limit; the command line has none \(chesstours count 6x6\)\.",
                        response.json()["detail"])


def test_a_count_too_slow_to_backtrack_but_quick_to_sweep_is_served(client):
    # Backtracking 5x8 would take about 17 s on one thread, past the 10 s limit; the frontier takes a second.
    data = client.get("/api/count", params={"board": "5x8"}).json()
    assert data["method"] == "frontier" and data["complete"] is True
    assert data["directed"] == dict(count_strip(5, [8], closed=False).counts)[8] == 36_122_108


def test_a_count_that_runs_out_of_time_is_504_with_the_partial_count(client):
    # Estimated under a second, which lets it start; on a slow or busy machine it takes longer, and its answer
    # is then the partial count. Whichever it is, the figures are right.
    response = client.get("/api/count", params={"board": "6x6", "start": "a1", "time_limit": 1})
    assert response.status_code in (200, 504)
    body = response.json()
    if response.status_code == 200:
        assert body["complete"] is True and body["directed"] == 524486
    else:
        assert body["detail"].startswith("Stopped at the time limit")
        assert body["partial"]["complete"] is False and 0 <= body["partial"]["directed"] < 524486
    assert response.elapsed.total_seconds() < 6


@pytest.mark.parametrize(
    "params, countable",
    [
        ({"board": "5x5", "start": "a1"}, True),
        ({"board": "4x4"}, True),
        ({"board": "6x7", "time_limit": "3"}, False),  # estimated at minutes
        ({"board": "8x8"}, False),  # above the size limit
    ],
)
def test_countable_says_without_counting_what_count_would_do(client, params, countable):
    plan = client.get("/api/countable", params=params)
    assert plan.status_code == 200  # a refusal is an answer here
    data = plan.json()
    assert data["countable"] is countable
    count = client.get("/api/count", params=params)
    if countable:
        assert count.status_code == 200 and data["reason"] is None
    else:
        assert count.status_code == 400 and data["reason"] == count.json()["detail"]


# -- /api/exists -------------------------------------------------------------------------------


def test_exists_is_tour_exists_with_a_tour_as_certificate(client):
    data = client.get("/api/exists", params={"board": "8x8", "closed": True}).json()
    assert data == tour_exists("8x8", closed=True, certificate=True).to_dict() | {"seconds": data["seconds"]}
    assert data["exists"] is True and data["proof"] == "theorem" and data["theorem"] == "Schwenk 1991"
    Tour.from_dict({"board": "8x8", "path": data["tour"], "closed": True}).validate()


@pytest.mark.parametrize(
    "params, proof",
    [
        ({"board": "4x4"}, "theorem"),
        ({"board": "5x5", "closed": True}, "colour"),
        ({"board": "5x5", "start": "b1"}, "colour"),
        ({"board": "3x4", "start": "b2"}, "exhaustive"),
        ({"board": "8x8", "piece": "camel"}, "colour"),
        ({"board": "4x4", "piece": "zebra"}, "connectivity"),
    ],
)
def test_exists_false_with_the_reason(client, params, proof):
    data = client.get("/api/exists", params=params).json()
    assert data["exists"] is False and data["tour"] is None
    assert data["proof"] == proof and data["reason"].startswith("No ")


def test_exists_without_a_start_tries_every_kind_of_square(client):
    # 3x4 has tours, but none from b1 or b2: the answer must not depend on a1 alone.
    data = client.get("/api/exists", params={"board": "3x4", "end": "a2"}).json()
    assert data["exists"] is True and data["tour"][-1] == "a2"
    Tour.from_dict({"board": "3x4", "path": data["tour"]}).validate()
    holes = "a1,b1,c1,d1,a2"  # what is left is a 2x4 strip plus one square: no tour anywhere
    data = client.get("/api/exists", params={"board": "3x4", "holes": holes}).json()
    assert data["exists"] is False


#: A giraffe's tour of 8x8 without c7 from h3: no theorem settles it, and the search that proves there is none
#: takes more than a second.
MID_COST = {"board": "8x8", "start": "h3", "piece": "1,4", "holes": "c7"}


def test_exists_is_null_when_the_time_runs_out(client):
    data = client.get("/api/exists", params={**MID_COST, "time_limit": 0.3}).json()
    assert data["exists"] is None and data["proof"] == "limit" and data["tour"] is None
    assert data["reason"].startswith("Unknown: no theorem settles whether there is a giraffe's tour")


def test_a_machine_short_of_memory_answers_503_with_a_retry_not_400(client, monkeypatch):
    def short(*args, **kwargs):
        raise ct.errors.ResourceError("The machine ran out of memory for the search's tables.")

    monkeypatch.setattr(service, "tour_exists", short)
    response = client.get("/api/exists", params={"board": "8x8"})
    assert response.status_code == 503 and response.headers["retry-after"] == "30"
    assert response.json()["detail"] == "The machine ran out of memory for the search's tables."


# -- time limits on every search ------------------------------------------------------------------


def test_every_search_gets_the_servers_time_limit():
    client = TestClient(create_app(Limits(search_seconds=0.4, quick_seconds=0.25), warm_up=False))
    client.get("/api/trace", params={"board": "5x5", "start": "a1", "steps": 1})  # the slow lane's process started
    for params in ({**MID_COST}, {**MID_COST, "time_limit": 100}, {**MID_COST, "prefix": "h3", "time_limit": 100}):
        t0 = time.perf_counter()
        response = client.get("/api/tour", params=params)
        assert response.status_code == 504, params
        assert response.json()["detail"].startswith("Stopped at the time limit after"), params
        assert time.perf_counter() - t0 < 0.4 + GRACE, params
    t0 = time.perf_counter()
    assert client.get("/api/tour", params={**MID_COST, "time_limit": 0.1}).status_code == 504  # the quick try only
    assert time.perf_counter() - t0 < 0.4


def test_tours_above_the_board_limit_are_refused(client):
    for endpoint in ("/api/tour", "/api/exists", "/api/board"):
        response = client.get(endpoint, params={"board": "60x60"})
        assert response.status_code == 400
        assert response.json()["detail"] == (
            "This server works on boards of at most 2,500 squares and 60x60 has 3,600; the command line has "
            "no such limit (chesstours tour 60x60)."
        )
    assert client.get("/api/tour", params={"board": "50x50", "start": "a1"}).status_code == 200


# -- /api/board and /api/info ------------------------------------------------------------------


def test_board_gives_the_move_table(client):
    data = client.get("/api/board", params={"board": "5x6", "holes": "c3", "piece": "zebra"}).json()
    board = ct.Board.parse("5x6", "c3")
    table = move_table(board, ct.ZEBRA)
    assert data["board"] == {"rows": 5, "cols": 6, "holes": ["c3"]}
    assert data["names"] == board.names(range(30))
    assert data["moves"] == [[int(u) for u in row if u >= 0] for row in table]
    assert data["moves"][board.square("a1")] == [board.square("c4"), board.square("d3")]
    assert data["moves"][14] == []  # c3, the hole


def test_a_move_table_is_the_same_compressed_or_not_and_asked_again(client):
    params = {"board": "50x50"}
    plain = client.get("/api/board", params=params, headers={"Accept-Encoding": "identity"})
    packed = client.get("/api/board", params=params, headers={"Accept-Encoding": "gzip"})
    again = client.get("/api/board", params=params, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers and plain.headers["content-type"] == "application/json"
    assert packed.headers["content-encoding"] == "gzip" and packed.headers["vary"] == "Accept-Encoding"
    assert int(packed.headers["content-length"]) * 2 < len(plain.content)
    assert packed.json() == again.json() == plain.json() and len(plain.json()["moves"]) == 2500


def test_a_large_answer_is_compressed_where_it_was_made_and_a_small_one_is_not(client):
    params = {"board": "20x20", "start": "a1", "steps": 300}
    packed = client.get("/api/trace", params=params, headers={"Accept-Encoding": "gzip"})
    plain = client.get("/api/trace", params=params, headers={"Accept-Encoding": "identity"})
    assert packed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert packed.json() == plain.json()
    small = client.get("/api/tour", params={"board": "5x5", "start": "a1"}, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers and len(small.json()["path"]) == 25


def test_info_lists_choices_limits_and_features(client):
    data = client.get("/api/info").json()
    assert data["methods"] == ["auto", "warnsdorff", "backtrack", "construct"]
    assert data["pieces"]["knight"] == [1, 2]
    assert data["limits"]["count_squares"] == 48
    # The bishop puzzle and the trace are served, with their own limits; so are random tours and statistics.
    assert data["features"] == {"tours": True, "bishop": True, "trace": True, "check": True, "sample": True}


def test_info_lists_every_named_piece_shortest_leap_first(client):
    from chesstours.pieces import NAMED_PIECES, piece_names

    data = client.get("/api/info").json()
    assert list(data["pieces"]) == piece_names()
    assert all(data["pieces"][name] == list(NAMED_PIECES[name].leap) for name in piece_names())
    assert data["limits"]["bishop_count_squares"] == 100 and data["limits"]["trace_steps"] == 2000


# -- the page, the docs, and what requests cannot reach ---------------------------------------------


def test_the_page_and_its_files_are_served_with_a_strict_policy(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for src in re.findall(r'(?:src|href)="([^"]+)"', page.text):
        if src.startswith("#"):
            continue
        assert src.startswith("/"), f"the page loads {src} from elsewhere"
        assert client.get(src).status_code == 200, src


def test_the_page_loads_nothing_from_the_network():
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        urls = re.findall(r"https?://[^\s\"')]+", text)
        assert urls in ([], ["http://www.w3.org/2000/svg"]), (path.name, urls)


def test_docs_work_offline(client):
    docs = client.get("/docs")
    assert docs.status_code == 200
    assets = re.findall(r"""(?:src|href)=['"]([^'"]+)['"]""", docs.text)
    assert assets and all(a.startswith("/") for a in assets), assets
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    schema = client.get("/openapi.json").json()
    assert {"/api/tour", "/api/count", "/api/exists", "/api/board", "/api/info", "/api/bishop",
            "/api/trace"} <= set(schema["paths"])
    names = {p["name"] for p in schema["paths"]["/api/tour"]["get"]["parameters"]}
    assert names == {"board", "start", "end", "closed", "piece", "holes", "method", "tiebreak", "seed", "order",
                     "prefix", "time_limit", "format", "numbers", "size", "fps", "animate"}


@pytest.mark.parametrize("path", ["/static/../pyproject.toml", "/static/%2e%2e/%2e%2e/api.py", "/static/../app.py",
                                  "/etc/passwd", "/static//etc/passwd"])
def test_requests_reach_no_file_outside_the_page(client, path):
    assert client.get(path).status_code == 404


def test_long_queries_and_request_bodies_are_refused(client):
    response = client.get("/api/tour", params={"board": "8x8", "holes": ",".join(["a1"] * 2000)})
    assert response.status_code == 414
    assert response.json()["detail"].startswith("The query is 10,")
    response = client.request("GET", "/api/tour?board=8x8", content=b"x" * 5000)
    assert response.status_code == 413
    assert response.json() == {"detail": "The api reads no request body; send the parameters in the query."}
    assert client.post("/api/tour?board=8x8").status_code == 405


# -- chesstours serve ------------------------------------------------------------------------------


def test_serve_on_a_port_in_use_is_one_sentence_and_status_2(capsys):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        code, out, err = cli(capsys, "serve", "--port", str(port))
    assert code == 2 and out == ""
    assert err == f"chesstours: Cannot listen on 127.0.0.1:{port}: Address already in use.\n"
    code, _, err = cli(capsys, "serve", "--port", "70000")  # the argument parser's: one sentence, then its hint
    assert code == 2 and err.startswith("chesstours: ") and err.splitlines()[1:] == ["Try 'chesstours serve --help' for help."]


def test_chesstours_serve_serves_the_page_and_the_api():
    import subprocess
    import sys
    import time
    import urllib.request

    from chesstours.web.server import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "chesstours", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tour?board=6x6&start=a1", timeout=5) as r:
                    data = json.loads(r.read())
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        Tour.from_dict(data).validate()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert b"chesstours" in r.read()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert f"serving on http://127.0.0.1:{port}/" in err
