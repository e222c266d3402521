"""Every named piece is in the page's list, in the server's order, and a link naming one opens with it, at a
desktop's size and a phone's (the ``sized`` fixture fails on any console error)."""

from __future__ import annotations

import re

import pytest

import chesstours as ct
from chesstours.pieces import NAMED_PIECES, piece_names

from .test_browser import browser, drawn_path, square, url  # noqa: F401 -- the fixtures
from .test_page_edges import hit, open_page, shot, sized  # noqa: F401 -- the fixtures

pytestmark = pytest.mark.browser


def test_the_piece_list_holds_every_named_piece_and_a_link_opens_with_one(sized):  # noqa: F811 -- the fixture imported above
    from playwright.sync_api import expect

    p = sized
    open_page(p, "#board=5x6&piece=wazir")
    options = p.locator("#piece option")
    assert options.evaluate_all("os => os.map(o => o.value)") == piece_names()
    assert options.all_text_contents()[piece_names().index("antelope")] == "antelope (3,4)"
    expect(p.locator("#piece")).to_have_value("wazir")
    assert NAMED_PIECES["wazir"].leap == (0, 1)
    hit(p, square(p, "a1"))
    expect(p.locator("#status")).to_have_text(re.compile(r"^A tour from a1"))
    hit(p, p.locator("#last"))
    assert ct.Tour.from_names("5x6", drawn_path(p, 5), piece="wazir").is_valid()
    shot(p, "piece-wazir")
