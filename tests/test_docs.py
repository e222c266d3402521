"""Every example in README.md and docs/ runs and prints what it shows.

A ``console`` code block holds commands, each on a line that starts with ``$ ``,
and after each command the text it prints (standard output and standard error
together, in the order they came). This module runs every such block and compares.
A ``pycon`` code block is a Python session (``>>> `` and ``... `` lines, then what
they print); it runs as a doctest in a temporary directory, with doctest's ELLIPSIS
option: ``...`` in the output shown matches any text.

How a console block runs:

* its commands run one after the other with bash, in a new temporary directory
  for the block (files a command writes are there for the next command of the
  same block, and go away after it), where the repository's ``scripts/`` and
  ``benchmarks/`` are linked; ``chesstours`` and ``python`` are the ones of the
  environment running the tests;
* a block whose commands speak to ``http://127.0.0.1:8000`` gets a server of its own:
  ``chesstours serve`` on a free port, which the address is changed to (such a block
  is skipped when curl is missing);
* each command has :data:`TIMEOUT` seconds; the blocks run a few at a time
  (:data:`WORKERS`), each in its own directory.

How output is compared, line by line, with trailing spaces ignored:

* ``...`` in a line shown matches any text in its place, within that line (as
  doctest's ELLIPSIS does): ``seconds: ...`` matches ``seconds: 0.4``;
* a line that is ``...`` and nothing else matches any number of lines, none included;
* nothing else is fuzzy: every other character must be printed as shown.

So an example whose output varies from run to run (a time, a size on disk) shows
``...`` where it varies, and every other example shows its output in full.
"""

from __future__ import annotations

import concurrent.futures
import doctest
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Seconds each command may take (the examples take a few seconds at most).
TIMEOUT = 60
#: Console blocks run at once (each command is a new process, mostly starting up).
WORKERS = min(4, max(2, os.cpu_count() or 1))
#: The address the documentation's web examples use; the test serves its own page there.
SERVER = "http://127.0.0.1:8000"

#: Languages of the fenced blocks that run.
RUN = ("console", "pycon")

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@dataclass
class Command:
    line: int       # line of the command in its file, 1-based
    command: str
    expected: list[str]


@dataclass
class Block:
    path: Path
    line: int       # line of the opening fence, 1-based
    language: str   # console or pycon
    text: str

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def commands(self) -> list[Command]:
        return _commands(self.path, self.line, self.text) if self.language == "console" else []


def documentation_files() -> list[Path]:
    """README.md and every Markdown page of the site."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def example_blocks(path: Path) -> list[Block]:
    """The ``console`` and ``pycon`` blocks of one Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        language = (opening["info"].strip().split() or [""])[0]
        start = i
        i += 1
        body: list[str] = []
        while i < len(lines) and not (lines[i].strip().startswith(fence) and set(lines[i].strip()) == {fence[0]}):
            text = lines[i]
            body.append(text[len(indent):] if text.startswith(indent) else text.lstrip())
            i += 1
        i += 1
        if language in RUN:
            blocks.append(Block(path, start + 1, language, "\n".join(body)))
    return blocks


def _commands(path: Path, line: int, body: str) -> list[Command]:
    """A console block's commands, each with the lines it is shown to print."""
    commands: list[Command] = []
    for number, text in enumerate(body.split("\n"), start=line + 1):
        if text.startswith("$ "):
            commands.append(Command(number, text[2:], []))
        elif commands:
            commands[-1].expected.append(text)
        elif text.strip():
            raise ValueError(f"{path.relative_to(ROOT)}:{line}: a console block must start with a '$ ' command")
    if not commands:
        raise ValueError(f"{path.relative_to(ROOT)}:{line}: a console block without a '$ ' command")
    return commands


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` lines are what ``expected`` shows, ``...`` standing for any text."""
    expected = [line.rstrip() for line in expected]
    actual = [line.rstrip() for line in actual]

    def line_matches(shown: str, printed: str) -> bool:
        if "..." not in shown:
            return shown == printed
        pattern = ".*".join(re.escape(part) for part in shown.split("..."))
        return re.fullmatch(pattern, printed, re.DOTALL) is not None

    # The lines shown against the lines printed, '...' alone on a line matching any run of lines.
    memo: dict[tuple[int, int], bool] = {}

    def match_from(i: int, j: int) -> bool:
        key = (i, j)
        if key not in memo:
            if i == len(expected):
                memo[key] = j == len(actual)
            elif expected[i] == "...":
                memo[key] = any(match_from(i + 1, k) for k in range(j, len(actual) + 1))
            else:
                memo[key] = j < len(actual) and line_matches(expected[i], actual[j]) and match_from(i + 1, j + 1)
        return memo[key]

    return match_from(0, 0)


BLOCKS = [block for path in documentation_files() for block in example_blocks(path)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server_url():
    """``chesstours serve`` on a free port, for the blocks that use the web api."""
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "chesstours", "serve", "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/info", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    pytest.fail("chesstours serve did not answer within 30 s")
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    env["COLUMNS"] = "80"
    env["NO_COLOR"] = "1"
    env.pop("FORCE_COLOR", None)
    return env


def test_there_are_examples():
    assert sum(len(block.commands) for block in BLOCKS) >= 30
    assert sum(block.language == "pycon" for block in BLOCKS) >= 3


@pytest.fixture(scope="module")
def console_runs(request):
    """What the commands of every console block selected for this test run print.

    The blocks run :data:`WORKERS` at a time, before the first is compared; the
    value for a block is a future whose result is the output of each command.
    """
    selected = [item.callspec.params["block"] for item in request.session.items
                if isinstance(getattr(item, "callspec", None) and item.callspec.params.get("block"), Block)]
    blocks = [block for block in selected if block.language == "console"]
    url = None
    if any(_needs_server(block) for block in blocks) and shutil.which("curl") is not None:
        url = request.getfixturevalue("server_url")
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        runs = {block.name: pool.submit(_run_console, block, url) for block in blocks
                if url is not None or not _needs_server(block)}
        concurrent.futures.wait(runs.values())
    return runs


def _needs_server(block: Block) -> bool:
    return any(SERVER in command.command for command in block.commands)


def _run_console(block: Block, url: str | None) -> list[list[str]]:
    """Run a console block's commands in a new directory: what each one printed, as lines."""
    env = _environment()
    printed = []
    with tempfile.TemporaryDirectory(prefix="chesstours-docs-") as work:
        for linked in ("scripts", "benchmarks"):
            (Path(work) / linked).symlink_to(ROOT / linked, target_is_directory=True)
        for command in block.commands:
            text = command.command if url is None else command.command.replace(SERVER, url)
            done = subprocess.run(["bash", "-c", text], cwd=work, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
            printed.append(done.stdout.splitlines())
    return printed


@pytest.mark.parametrize("block", BLOCKS, ids=lambda block: block.name)
def test_example(block: Block, tmp_path: Path, request, monkeypatch):
    if block.language == "pycon":
        monkeypatch.chdir(tmp_path)
        _check_session(block)
        return
    runs = request.getfixturevalue("console_runs")
    if block.name not in runs:
        pytest.skip("curl is not installed")
    for command, printed in zip(block.commands, runs[block.name].result()):
        if not matches(command.expected, printed):
            where = f"{block.path.relative_to(ROOT)}:{command.line}"
            pytest.fail(f"{where}: `{command.command}` printed\n" + "\n".join(printed)
                        + "\n-- but the documentation shows --\n" + "\n".join(command.expected), pytrace=False)


def _check_session(block: Block) -> None:
    """Run a ``pycon`` block as a doctest: ``...`` (ELLIPSIS) is its only freedom."""
    test = doctest.DocTestParser().get_doctest(block.text, {}, block.name, str(block.path), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    if runner.failures:
        pytest.fail("".join(report), pytrace=False)


@pytest.mark.parametrize(("expected", "actual", "result"), [
    (["a b"], ["a b  "], True),
    (["seconds: ..."], ["seconds: 0.4"], True),
    (["seconds: ..."], ["minutes: 0.4"], False),
    (["a", "...", "z"], ["a", "z"], True),
    (["a", "...", "z"], ["a", "b", "c", "z"], True),
    (["a", "...", "z"], ["a", "b"], False),
    (["a"], ["a", "b"], False),
    (["a.b"], ["axb"], False),
])
def test_the_ellipsis_convention(expected, actual, result):
    assert matches(expected, actual) is result
