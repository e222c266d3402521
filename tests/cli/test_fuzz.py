"""Random and hostile arguments: the command line answers each with a status and a line, never a traceback.

A seeded generator makes :data:`CASES` argument lists -- boards such as ``0x0``,
``99999999x2`` and ``axb``, huge leapers, negative numbers, odd unicode, unknown
options, unknown extensions -- and runs each through :func:`chesstours.cli.main`
in this process. Every run must end with a status of 0 to 4, print no traceback,
and, when it fails, say why in at most two lines on stderr. Searches get a short
time limit, so that the whole run stays under a minute.
"""

from __future__ import annotations

import io
import random
import sys

import pytest

from chesstours.cli import main

CASES = 10_000
SEED = 20240611
#: The time limit of every search.
LIMIT = "0.05"

SMALL_BOARDS = ["1x1", "3x4", "4x4", "4x5", "5x5", "3x7", "6x6", "2x2", "1x5", "8", "5", "3x10"]
#: Boards every count of which is quick (a count of 5x5 takes a tenth of a second, of 6x6 hours).
TINY_BOARDS = ["1x1", "3x4", "4x4", "2x2", "1x5", "3x5", "4x5", "3", "3x6"]
HOSTILE_BOARDS = [
    "0x0", "99999999x2", "2x99999999", "axb", "x", "", " ", "-3x4", "3x-4", "8x", "x8", "5x5x5", "0",
    "99999999999999999999", "99999999999999999999x1", "1e3x4", "8.5x8", "８x８", "٥x٥", "Ⅷ", "8x8\x00",
    "5 x 5", "0x5", "-1", "nan", "inf", "💥", "5x5;rm", "1x99999999999999999999", "²x²", "0b101x5", "0x10",
]
#: Hostile boards, less those that are a large board after all (``８x８`` is 8x8): for counts and traces.
QUICK_HOSTILE_BOARDS = [b for b in HOSTILE_BOARDS if b not in ("８x８", "٥x٥")]
SQUARES = ["a1", "b1", "c3", "e5", "h8", "z9", "a0", "", " ", "A1", "a-1", "💥", "ä1", "a99999999999999999999",
           "b٣", "aa1", "1a", "a1a1", "-", "a1,b2"]
PIECES = ["knight", "camel", "zebra", "giraffe", "2,3", "0,0", "1,1", "-1,2", "1,2,3", "99999999999999999999,1",
          "1,99999999999999999999", "ünicorn", "", ",", "1,", "nan,1", "bishop", "3,4", "0,1", "1.5,2", "٢,١"]
HOLES = ["", "a1", "a1,b2", "zz99", ",,,", "a1,a1", "c3,e5", "💥", "a1 b2", "a0"]
TIMES = ["0", "0.01", "0.2", "-1", "nan", "abc", "", "1e-300", "-0", "0x10"]
INTS = ["0", "1", "2", "5", "-1", "-5", "abc", "", "99999999999999999999", "1e3", "٣", "3.5", "-99999999999999999999"]
EXTENSIONS = ["txt", "json", "svg", "png", "gif", "npy", "moves", "grid", "pdf", "jpeg", "", "SVG", "tar.gz", "ü"]
JUNK = ["--bogus", "-Z", "--", "---", "-", "--start=", "--time-limit=", "--piece=", "--format=pdf", "-o", "--help",
        "ß", "\x00", "\u202e", "--" + "x" * 50, "-s", "--closed=yes"]


def _option(rng: random.Random, command: str, tmp) -> list[str]:
    """One option for ``command``: usually one it has, sometimes a hostile one."""
    shared = [
        ["--start", rng.choice(SQUARES)], ["--end", rng.choice(SQUARES)], ["--closed"],
        ["--piece", rng.choice(PIECES)], ["--holes", rng.choice(HOLES)],
        ["--time-limit", rng.choice(TIMES)],
    ]
    output = ["-o", str(tmp / f"out{rng.randrange(3)}.{rng.choice(EXTENSIONS)}".rstrip("."))]
    picture = [["--size", rng.choice(INTS + ["64", "99999"])], ["--fps", rng.choice(TIMES + ["8"])],
               ["--numbers"], ["--animate"]]
    formats = ["grid", "moves", "json", "npy", "svg", "png", "gif", "text", "steps", "pdf", "", "ü"]
    per_command = {
        "tour": shared + picture + [
            ["--method", rng.choice(["auto", "warnsdorff", "backtrack", "construct", "magic", ""])],
            ["--tiebreak", rng.choice(["first", "pohl", "roth", "random", "x"])],
            ["--order", rng.choice(["fixed", "warnsdorff", "x"])], ["--seed", rng.choice(INTS)],
            ["--format", rng.choice(formats)], ["--node-limit", rng.choice(INTS)], output, ["--plan"], ["--json"],
        ],
        "tours": shared + picture + [
            ["--limit", rng.choice(INTS)], ["--order", rng.choice(["fixed", "warnsdorff", "x"])],
            ["--format", rng.choice(formats)], output,
            ["--where", rng.choice(["symmetric", "symmetric90", "a1=1", "a1=1;b3=2", "junk", "", "a1=0", "z9=1"])],
            ["--jobs", rng.choice(["0", "-1", "abc"])],
        ],
        "count": shared + [
            ["--method", rng.choice(["auto", "backtrack", "frontier", "x"])], ["--json"], ["--plan"],
            ["--workers", rng.choice(["0", "-1", "1", "abc"])], ["--no-progress"],
            ["--strip", rng.choice(["1", "2", "3", "0", "-1", "99999999"])],
            ["--cols", rng.choice(["5..8", "3", "8..5", "0..3", "1..99999999", "x", "", "5,6", "-1"])],
            ["--where", rng.choice(["symmetric", "junk", "a1=1"])],
            ["--jobs", rng.choice(["0", "-1", "abc"])],
        ],
        "exists": shared + [["--certificate"], ["--json"]],
        "bishop": shared[:2] + [shared[4], shared[5]] + picture[:2] + [
            ["--end", rng.choice(["opposite", "any", "h8", "z9"])], ["--count"], ["--all"],
            ["--limit", rng.choice(INTS)], ["--shortest"], ["--format", rng.choice(formats)], ["--json"], output,
        ],
        "trace": shared + picture[:2] + [
            ["--method", rng.choice(["backtrack", "warnsdorff", "x"])], ["--steps", rng.choice(INTS + ["50"])],
            ["--format", rng.choice(formats)], ["--no-boards"], output,
            ["--tiebreak", rng.choice(["first", "pohl", "roth", "random", "x"])],
        ],
        "check": [["--board", rng.choice(SMALL_BOARDS + HOSTILE_BOARDS)], ["--closed"], ["--open"],
                  ["--piece", rng.choice(PIECES)], ["--holes", rng.choice(HOLES)], ["--bishop"],
                  ["--end", rng.choice(["opposite", "any", "h8"])]],
    }
    choices = per_command.get(command, shared)
    if rng.random() < 0.1:
        return [rng.choice(JUNK)]
    if rng.random() < 0.1:  # an option of another command
        return rng.choice([opt for opts in per_command.values() for opt in opts])
    return rng.choice(choices)


def _check_file(rng: random.Random, tmp) -> tuple[str, str]:
    """A FILE for ``check`` and what stdin holds: a tour, a broken one, junk, or no file."""
    texts = ["a1 b3 c5", "a1 c2 a3 b1 d2 b3 c1 d3 b2 d1 c3 a2", "", "{", '{"path": [1, 2]}', "null", "💥 ü",
             '{"board": {"rows": -1, "cols": 2}, "path": []}', "a1 a1", "z99 a1", "\x00\x01", "[1,2,3]",
             '{"path": ["a1"], "board": "99999999x2"}', "a1-c2-e3", "1 2 3"]
    text = rng.choice(texts)
    kind = rng.random()
    if kind < 0.15:
        return "-", text
    if kind < 0.25:
        return rng.choice(["/nonexistent/x", str(tmp), "", "x.npy", str(tmp / "missing.npy")]), ""
    name = tmp / f"in{rng.randrange(4)}.{rng.choice(['txt', 'json', 'npy', 'x'])}"
    name.write_bytes(text.encode("utf-8", "surrogatepass") if rng.random() < 0.8 else bytes(rng.randrange(256)
                                                                                        for _ in range(40)))
    return str(name), text


def _case(rng: random.Random, tmp) -> tuple[list[str], str]:
    command = rng.choice(["tour", "tours", "count", "exists", "bishop", "trace", "check", "tour", "tours",
                          rng.choice(JUNK), "--version", "help", "serv", ""])
    stdin = ""
    if command == "check":
        file, stdin = _check_file(rng, tmp)
        args = ["check", file]
    else:
        quick = command in ("count", "bishop", "trace")
        small, hostile = (TINY_BOARDS, QUICK_HOSTILE_BOARDS) if quick else (SMALL_BOARDS, HOSTILE_BOARDS)
        board = rng.choice(small) if rng.random() < 0.6 else rng.choice(hostile)
        args = [command, board] if command else []
        # bounds first: an option drawn below may replace them (the last one given counts)
        if command in ("tour", "tours", "count", "exists", "bishop"):
            args += ["--time-limit", LIMIT]
        if command == "tours":
            args += ["--limit", "2"]
        if command == "trace":
            args += ["--steps", "20"]
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])):
        args += _option(rng, command, tmp)
    if command == "trace" and "--start" not in args and rng.random() < 0.8:
        args += ["--start", rng.choice(["a1", "b1", "c3"])]
    return args, stdin


def test_random_and_hostile_arguments_never_end_in_a_traceback(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # "-o --json" writes a file named --json: here, not in the repository
    rng = random.Random(SEED)
    problems: list[str] = []
    for number in range(CASES):
        args, stdin = _case(rng, tmp_path)
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            code = main(args)
        except BaseException as exc:  # noqa: BLE001 - anything that escapes main is a finding
            code = f"raised {type(exc).__name__}: {exc}"
        out, err = capsys.readouterr()
        lines = err.splitlines()
        too_long = code != 0 and len(lines) > 2 and args != [] and "--help" not in args
        if code not in (0, 1, 2, 3, 4) or "Traceback" in err or too_long:
            problems.append(f"case {number}: {args!r} -> {code}: {err[-300:]!r}")
    assert not problems, f"{len(problems)} of {CASES} cases failed:\n" + "\n".join(problems[:30])


@pytest.mark.parametrize("args", [
    ["tour", "99999999x2"], ["tour", "2x99999999"], ["count", "99999999x2"], ["exists", "99999999x2"],
    ["trace", "99999999x2", "--start", "a1"], ["bishop", "99999999x2"], ["tours", "99999999x2"],
    ["tour", "8x8", "--piece", "99999999999999999999,1"], ["tour", "0x0"], ["tour", "axb"],
    ["check", "-"],
])
def test_hostile_boards_and_pieces_end_in_one_sentence(capsys, monkeypatch, args):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe a1"), encoding="utf-8"))
    code = main([*args, "--time-limit", "0.5"] if args[0] != "trace" else args)
    _, err = capsys.readouterr()
    assert code in (0, 1, 2, 3, 4) and "Traceback" not in err and len(err.splitlines()) <= 2


# -- hypothesis: the inputs a security review found ending in a bug ------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

#: Digits long enough to pass Python's limit on converting numbers to and from text (4,300 digits).
_LONG_DIGITS = st.integers(min_value=4301, max_value=6000).map(lambda n: "9" * n)
_HOSTILE_ARGS = st.one_of(
    _LONG_DIGITS.map(lambda d: ["tour", f"{d}x8"]),
    _LONG_DIGITS.map(lambda d: ["tour", "5x5", "--start", f"a{d}"]),
    _LONG_DIGITS.map(lambda d: ["tour", "5x5", "--holes", f"b{d}"]),
    _LONG_DIGITS.map(lambda d: ["tour", "5x5", "--piece", f"{d},1"]),
    st.text(max_size=30).map(lambda a: ["count", "5x5", "--cluster", a]),
    st.sampled_from(["tcp", "udp", "inproc", "tls", "ucx", ""]).flatmap(
        lambda scheme: st.text(max_size=12).map(lambda rest: ["count", "5x5", "--cluster", f"{scheme}://{rest}"])),
    st.integers(min_value=-5, max_value=0).flatmap(
        lambda n: st.sampled_from(["-w", "-j", "--jobs", "--split-on"]).map(lambda o: ["count", "5x5", o, str(n)])),
    st.integers(min_value=31, max_value=40).map(lambda r: ["count", "--strip", str(r), "--cols", "3"]),
    st.sampled_from(["--plan", "--jobs 2", "--where symmetric", "--split-on 2", "-w 2", "-j 2"]).map(
        lambda extra: ["count", "--strip", "4", "--cols", "4..6", *extra.split()]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=_HOSTILE_ARGS)
def test_hostile_inputs_end_in_one_sentence(capsys, args):
    code = main(args)
    _, err = capsys.readouterr()
    assert code in (0, 2) and "Traceback" not in err and "internal error" not in err
    sentence = [line for line in err.splitlines() if not line.startswith("Try 'chesstours")]  # a usage error's hint
    assert code == 0 or len(sentence) == 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(
    _LONG_DIGITS.map(lambda d: f"a1 c{d}"),
    _LONG_DIGITS.map(lambda d: '{"board": "8x8", "path": [' + d + "]}"),
    st.integers(min_value=2000, max_value=200_000).map(lambda n: '{"board": ' + "[" * n + "]" * n + "}"),
    st.binary(max_size=64).map(lambda b: b.decode("latin-1")),
))
def test_hostile_check_files_end_in_one_sentence(capsys, monkeypatch, text):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["check", "-"])
    _, err = capsys.readouterr()
    assert code in (1, 2) and "Traceback" not in err and "internal error" not in err and len(err.splitlines()) == 1
