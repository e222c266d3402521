"""No bishop route is an answer on the page, at a desktop's size and a phone's: said with its reason, and
without a console error (the ``sized`` fixture fails on any). Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import pytest

from .test_browser import browser, square, url  # noqa: F401 -- the fixtures
from .test_page_edges import hit, open_page, shot, sized  # noqa: F401 -- the fixtures

pytestmark = pytest.mark.browser


def test_no_bishop_route_on_6x6_is_said_with_its_reason(sized):  # noqa: F811 -- the fixture imported above
    from playwright.sync_api import expect

    p = sized
    answers: list[int] = []
    p.on("response", lambda r: answers.append(r.status) if "/api/bishop" in r.url else None)
    open_page(p, "#board=6x6&tab=bishop")
    expect(p.locator("#panel-bishop")).to_be_visible()
    hit(p, square(p, "a1"))
    expect(p.locator("#status")).to_have_text("No bishop route from a1.")
    expect(p.locator("#why")).to_be_visible()
    expect(p.locator("#why-text")).to_contain_text("No bishop route from a1 to f6")
    expect(p.locator("#why-how")).to_contain_text("Every possible path was tried")
    expect(p.locator("#bishop-count")).not_to_have_text("Counting the routes...")
    assert answers and all(status == 200 for status in answers)
    p.locator("#why").scroll_into_view_if_needed()
    shot(p, "bishop-no-route")
