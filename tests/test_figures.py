"""Measured figures live in docs/benchmarks.md; the other pages say what a user will see and link there.

A time or a size that a page other than the benchmarks states as a number (``58 to 61 s``,
``1.7 GiB``) is a measurement retyped, which goes stale when the tables are regenerated; a
page says "about a minute" and links to the benchmarks instead. Figures inside code blocks
are what a command prints, and are left to ``tests/test_docs.py``. The few numbers with a
unit that are settings, not measurements, are listed in :data:`SETTINGS` with the setting
they state.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: A number with a unit of time or size: ``0.25 seconds``, ``58 to 61 s``, ``1.7 GiB``, ``60 CPU-hours``.
FIGURE = re.compile(
    r"(?<![\w.])\d[\d,.]*(?:e\d+)?(?:\s*(?:to|-|or)\s*\d[\d,.]*)?\s*"
    r"(?:s|seconds?|ms|milliseconds?|µs|microseconds?|minutes?|hours?|days?|CPU-s|CPU-seconds|CPU-hours"
    r"|GiB|MiB|KiB|GB|MB|kB|bytes)(?![\w-])"
)

#: Figures with a unit that state a setting, by page: the page's text, and what it is.
SETTINGS = {
    "docs/guide/exists.md": {"10 seconds": "the default --time-limit of exists (cli/exists.py)"},
    "docs/guide/web.md": {
        "10 seconds": "the server's time limit of a search and of a request's head (web.limits.Limits)",
        "256 MiB": "the memory an animation may hold while it is drawn (web.limits.Limits)",
        "32 KiB": "the largest request head (web.limits.Limits)",
        "64 KiB": "the largest tour to check, a request body (web.limits.Limits.check_bytes)",
    },
}

#: The pages that state no measured figure: README.md and every page of the site but the benchmarks.
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md") if p.name != "benchmarks.md")]


def prose(text: str) -> str:
    """``text`` without its fenced code blocks and its inline code."""
    out, fence = [], None
    for line in text.splitlines():
        opening = re.match(r"^\s*(`{3,}|~{3,})", line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None:
            out.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def test_the_figure_pattern_finds_times_and_sizes():
    found = FIGURE.findall(prose("in 58 to 61 s, 1.7 GiB, 0.25 seconds, 13 s, about a minute, 6x6, 4 x n, `1 s`"))
    assert found == ["58 to 61 s", "1.7 GiB", "0.25 seconds", "13 s"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_leave_measured_figures_to_the_benchmarks(page: Path):
    allowed = SETTINGS.get(str(page.relative_to(ROOT)), {})
    figures = [" ".join(f.split()) for f in FIGURE.findall(prose(page.read_text(encoding="utf-8")))]
    figures = [f for f in figures if f not in allowed]
    assert not figures, (f"{page.relative_to(ROOT)} states {figures}: say what a user sees and link to "
                         "docs/benchmarks.md, where the measured figures are")
