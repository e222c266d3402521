"""The page's random tour and heat map, in a real browser at a desktop's size and a phone's.

A random tour is drawn, played and kept in the page's link by its seed; where the server does not draw it
quickly, the page says why. The heat map of every tour opens under "About this board", or says why not.
Every console error fails a test (the ``sized`` fixture). Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re

import pytest

import chesstours as ct

from .test_browser import browser, drawn_path, url  # noqa: F401 -- the fixtures
from .test_page_edges import hit, open_page, shot, sized  # noqa: F401 -- the fixtures

pytestmark = pytest.mark.browser


def random_tour_shown(p, rows: int) -> list[str]:
    from playwright.sync_api import expect

    expect(p.locator("#status")).to_have_text(re.compile(r"^A random (closed )?tour"))
    hit(p, p.locator("#last"))
    return drawn_path(p, rows)


def test_a_random_tour_is_drawn_kept_in_the_link_and_drawn_again_from_it(sized):  # noqa: F811 -- the fixture imported above
    from playwright.sync_api import expect

    p = sized
    open_page(p, "#board=5x5")
    hit(p, p.locator("#random"))
    expect(p.locator("#status")).to_have_text(re.compile(r"A random tour on 5x5: number [\d,]+ of 1,728, each as "
                                                         r"likely \(seed \d+\)\."))
    seed = re.search(r"seed (\d+)", p.locator("#random-seed").text_content()).group(1)
    assert f"random={seed}" in p.url
    path = random_tour_shown(p, 5)
    assert ct.Tour.from_names("5x5", path).is_valid()
    shot(p, "random-5x5")
    hit(p, p.locator("#random"))  # a new seed on each click
    expect(p.locator("#random-seed")).not_to_have_text(f"seed {seed}")
    again = p.context.new_page()
    again.kind, again.base = p.kind, p.base
    open_page(again, f"#board=5x5&random={seed}")
    assert random_tour_shown(again, 5) == path
    again.close()


def test_a_random_tour_from_the_square_on_show_starts_there(sized):  # noqa: F811 -- the fixture imported above
    p = sized
    open_page(p, "#board=5x6&start=b2")
    hit(p, p.locator("#random"))
    path = random_tour_shown(p, 5)
    assert path[0] == "b2" and ct.Tour.from_names("5x6", path).is_valid()
    assert "start=b2" in p.url and "random=" in p.url


def test_a_random_tour_not_quick_here_says_why_without_an_error(sized):  # noqa: F811 -- the fixture imported above
    from playwright.sync_api import expect

    p = sized
    open_page(p)  # 8x8
    hit(p, p.locator("#random"))
    expect(p.locator("#status")).to_have_text("No random tour on 8x8 here.")
    expect(p.locator("#why")).to_be_visible()
    expect(p.locator("#why-text")).to_contain_text("48 squares")
    shot(p, "random-refused")


def test_the_heat_map_of_every_tour_opens_under_about_this_board(sized):  # noqa: F811 -- the fixture imported above
    from playwright.sync_api import expect

    p = sized
    open_page(p, "#board=5x5")
    hit(p, p.locator("#heat-show"))
    expect(p.locator("#heat-text")).to_have_text(re.compile(r"The 1,728 tours on 5x5: each move drawn"))
    img = p.locator("#heat-img")
    expect(img).to_be_visible()
    assert img.get_attribute("src").startswith("data:image/svg+xml")
    assert p.evaluate("document.getElementById('heat-img').naturalWidth") > 0
    img.scroll_into_view_if_needed()
    shot(p, "heat-5x5")
    hit(p, p.locator("#heat-show"))
    expect(img).to_be_hidden()


def test_the_heat_map_not_quick_here_says_why(sized):  # noqa: F811 -- the fixture imported above
    from playwright.sync_api import expect

    p = sized
    open_page(p, "#board=6x6")  # open tours of 6x6: tables too large to build here quickly
    hit(p, p.locator("#heat-show"))
    expect(p.locator("#heat-text")).to_have_text(re.compile(r"^No heat map here: .*this server's"))
    expect(p.locator("#heat-img")).to_be_hidden()
    p.locator("#heat-text").scroll_into_view_if_needed()
    shot(p, "heat-refused")
