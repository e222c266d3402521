"""The server's own answers: the Host names it answers, the size of a request's head, the connection limit,
requests its parser cannot read; and the address ``chesstours serve`` listens on.

Each answer here once came without the security headers, or did not come at all (a 2 MB header was read
and answered 200; any Host was answered, so a page of another site could rebind its name to this server).
"""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest
from fastapi.testclient import TestClient

from chesstours.cli import main
from chesstours.web import Limits, create_app, running_server, service
from chesstours.web.server import hosts, url


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
    except OSError:
        return False
    return True


needs_ipv6 = pytest.mark.skipif(not _ipv6_loopback(), reason="this machine has no IPv6 loopback")


def _exchange(base: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as it is to the server at ``base`` (``http://HOST:PORT``); its status, headers and body.

    The request is sent from a thread of its own while the answer is read, so that an answer given before
    the whole request is sent is read.
    """
    host, _, port = base.removeprefix("http://").rpartition(":")
    host = host.strip("[]")
    sock = socket.create_connection((host, int(port)), timeout=20)

    def send() -> None:
        try:
            sock.sendall(request)
        except OSError:  # the server answered and closed before the whole request came
            pass

    sender = threading.Thread(target=send)
    sender.start()
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except ConnectionResetError:
        pass
    finally:
        sender.join()
        sock.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def _get(host: str, path: str = "/api/info", extra: bytes = b"") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n".encode() + extra + b"\r\n"


def _has_security_headers(headers: dict[str, str]) -> bool:
    return (headers.get("x-content-type-options") == "nosniff" and headers.get("x-frame-options") == "DENY"
            and "frame-ancestors 'none'" in headers.get("content-security-policy", ""))


# -- Host ---------------------------------------------------------------------------------------------------


def test_a_host_name_of_another_site_is_refused_and_the_loopback_names_are_answered():
    with running_server() as base:
        port = base.rpartition(":")[2]
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", "localhost.evil.example"):
            status, headers, _ = _exchange(base, _get(host))
            assert status == 400 and _has_security_headers(headers), host
        for host in ("127.0.0.1", f"127.0.0.1:{port}", "localhost", f"localhost:{port}", "LOCALHOST", "[::1]",
                     f"[::1]:{port}"):
            status, headers, body = _exchange(base, _get(host))
            assert status == 200 and json.loads(body)["version"] and _has_security_headers(headers), host


def test_the_host_names_of_a_server_are_the_loopback_names_and_its_own_address():
    assert hosts("127.0.0.1") == ["127.0.0.1", "localhost", "[::1]"]
    assert hosts("::1") == ["127.0.0.1", "localhost", "[::1]"]
    assert hosts("192.168.1.5") == ["127.0.0.1", "localhost", "[::1]", "192.168.1.5"]
    assert hosts("Tours.Example") == ["127.0.0.1", "localhost", "[::1]", "tours.example"]
    assert socket.gethostname().lower() in hosts("0.0.0.0") and "[::]" in hosts("::")


def test_a_server_on_every_interface_answers_its_addresses_but_not_other_names():
    client = TestClient(create_app(warm_up=False, hosts=hosts("0.0.0.0")), base_url="http://localhost")
    for host in ("192.168.1.5:8000", "10.0.0.7", "[fe80::1]:8080", "localhost:8000", socket.gethostname()):
        assert client.get("/api/info", headers={"host": host}).status_code == 200, host
    for host in ("evil.example", "192.168.1.5.evil.example", "[::1].example", "[::1]x", "10.0.0.7:http"):
        r = client.get("/api/info", headers={"host": host})
        assert r.status_code == 400 and r.headers["x-frame-options"] == "DENY", host
    # The Host is checked before any other answer.
    assert client.options("/api/tour", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/api/tour?board=8x8&start=" + "a" * 5000, headers={"host": "evil.example"}).status_code == 400
    named = TestClient(create_app(warm_up=False, hosts=hosts("tours.example")), base_url="http://tours.example")
    assert named.get("/api/info").status_code == 200
    assert named.get("/api/info", headers={"host": "192.168.1.5"}).status_code == 400


@needs_ipv6
def test_a_server_on_the_ipv6_loopback_is_reached_at_its_bracketed_address():
    with running_server(host="::1") as base:
        assert base.startswith("http://[::1]:")
        status, _, body = _exchange(base, _get(base.removeprefix("http://")))
        assert status == 200 and json.loads(body)["version"]


# -- the server's own answers -------------------------------------------------------------------------------


def test_a_huge_request_head_is_refused_with_431_and_the_server_answers_the_next_request():
    with running_server() as base:
        status, headers, body = _exchange(base, _get("localhost", extra=b"X-Big: " + b"a" * 2_000_000 + b"\r\n"))
        assert status == 431 and _has_security_headers(headers)
        assert json.loads(body) == {"detail": "A request's head (its line and headers) is at most 32,768 bytes here."}
        # A head of many headers, each of them small, is refused the same.
        many = b"".join(b"X-%d: %s\r\n" % (i, b"b" * 60) for i in range(1000))
        assert _exchange(base, _get("localhost", extra=many))[0] == 431
        # A large head within the limit (a browser's cookies) is answered.
        status, _, _ = _exchange(base, _get("localhost", extra=b"Cookie: " + b"c" * 20_000 + b"\r\n"))
        assert status == 200


def test_the_head_limit_counts_each_request_of_a_connection_on_its_own():
    with running_server(Limits(header_bytes=1024)) as base:
        host, _, port = base.removeprefix("http://").rpartition(":")
        with socket.create_connection((host, int(port)), timeout=20) as sock, sock.makefile("rb") as answers:
            statuses = []
            for size in (700, 700, 700, 2000):  # three heads within the limit, together past it; then one past it
                sock.sendall(b"GET /api/info HTTP/1.1\r\nHost: localhost\r\nX-Pad: " + b"p" * size + b"\r\n\r\n")
                statuses.append(int(answers.readline().split()[1]))
                length = 0
                while (line := answers.readline()) not in (b"\r\n", b""):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                answers.read(length)
    assert statuses == [200, 200, 200, 431]


def test_past_the_connection_limit_a_request_takes_the_place_of_the_oldest_idle_connection():
    with running_server(Limits(connections=3)) as base:
        host, _, port = base.removeprefix("http://").rpartition(":")
        idle = []
        for _ in range(4):
            idle.append(socket.create_connection((host, int(port))))
            time.sleep(0.1)  # each accepted before the next: the first is the oldest
        try:
            time.sleep(0.5)
            status, _, _ = _exchange(base, _get("localhost"))
            idle[0].settimeout(10)
            try:
                closed_first = idle[0].recv(1) == b""  # the oldest idle socket was closed for the request
            except ConnectionResetError:
                closed_first = True
            except TimeoutError:
                closed_first = False
        finally:
            for sock in idle:
                sock.close()
    assert status == 200 and closed_first


def test_with_a_request_at_work_on_every_connection_the_503_says_when_to_retry_and_has_the_security_headers():
    limits = Limits(connections=3, slow_queue=8, slow_wait=20, search_seconds=6)
    with running_server(limits) as base:
        host, _, port = base.removeprefix("http://").rpartition(":")
        busy = []
        for _ in range(3):  # exhaustive searches that run out of time, one after another in the slow lane
            sock = socket.create_connection((host, int(port)))
            sock.sendall(b"GET /api/tour?board=7x7&start=b1&method=backtrack&time_limit=4 HTTP/1.1\r\n"
                         b"Host: localhost\r\nConnection: close\r\n\r\n")
            busy.append(sock)
        try:
            time.sleep(0.3)
            status, headers, body = _exchange(base, _get("localhost"))
        finally:
            for sock in busy:
                sock.close()
    assert status == 503 and headers["retry-after"] == "1" and _has_security_headers(headers)
    assert json.loads(body) == {"detail": "The server has as many connections open as it keeps; try again in a "
                                          "moment."}


def test_a_request_the_parser_cannot_read_gets_400_with_the_security_headers():
    with running_server() as base:
        status, headers, body = _exchange(base, b"GET / HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n")
    assert status == 400 and _has_security_headers(headers)
    assert json.loads(body) == {"detail": "The request is not valid HTTP/1.1."}


def test_an_answer_the_app_gives_without_its_headers_gets_them_from_the_server(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(service, "find_tour", broken)
    with running_server() as base:
        status, headers, body = _exchange(base, _get("localhost", "/api/tour?board=5x5&start=a1"))
    assert status == 500 and body == b"Internal Server Error" and _has_security_headers(headers)


def test_the_apps_own_refusals_have_the_security_headers():
    client = TestClient(create_app(warm_up=False, hosts=["localhost"]), base_url="http://localhost")
    refused = [client.get("/api/tour", params={"board": "8x8", "start": "a" * 5000}),
               client.request("GET", "/api/tour?board=8x8", content=b"x" * 5000),
               client.get("/api/info", headers={"host": "evil.example"})]
    assert [r.status_code for r in refused] == [414, 413, 400]
    for r in refused:
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    head = client.head("/api/tour", params={"board": "8x8", "start": "a" * 5000})
    assert head.status_code == 414 and head.content == b"" and head.headers["x-frame-options"] == "DENY"


# -- chesstours serve --host --------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["", " "])
def test_serve_refuses_an_empty_host(capsys, host):
    assert main(["serve", "--host", host, "--port", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("chesstours: --host must name an address to listen on, such as 127.0.0.1, ::1 "
                                 "or 0.0.0.0 (every interface).\n")


def test_the_address_of_a_server_puts_an_ipv6_address_in_brackets():
    assert url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert url("::1", 8000) == "http://[::1]:8000"
    assert url("localhost", 80) == "http://localhost:80"


@needs_ipv6
def test_serve_names_an_ipv6_address_in_brackets(capsys):
    with socket.socket(socket.AF_INET6) as taken:
        taken.bind(("::1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--host", "::1", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"chesstours: Cannot listen on [::1]:{port}: ") and err.count("\n") == 1
