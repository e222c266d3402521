"""The page in a real headless browser: Debian's chromium, driven by Playwright.

Skipped (with the reason) where chromium or Playwright is missing; ``.ci/run``
installs both. Screenshots go to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import re
import shutil
from itertools import islice
from pathlib import Path

import pytest

import chesstours as ct
from chesstours.board import file_name
from chesstours.existence import obstruction
from chesstours.web import Limits, running_server

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("CHESSTOURS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        try:
            b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Exception as exc:  # noqa: BLE001 -- a broken browser install is a reason to skip, not a failure of the page
            pytest.skip(f"chromium does not start: {str(exc).splitlines()[0]}")
        yield b
        b.close()


@pytest.fixture(scope="module")
def url():
    with running_server(Limits()) as base:
        yield base


@pytest.fixture
def page(browser, url):
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    p = context.new_page()
    errors = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    p.goto(url)
    p.wait_for_selector("body[data-ready=true]")
    yield p
    context.close()
    # The browser logs every 4xx answer (a refusal, a bad parameter); anything else is a fault of the page.
    assert [e for e in errors if not e.startswith("Failed to load resource")] == [], errors


def square(page, name: str):
    return page.locator(f'#board rect[data-square="{name}"]')


def drawn_path(page, rows: int) -> list[str]:
    """The squares of the path as drawn: the polyline's points, turned back into square names."""
    points = page.locator("#tour-path").get_attribute("points").split()
    names = []
    for point in points:
        x, y = (float(v) for v in point.split(","))
        col, row = int(x - 0.5 + 0.01), rows - 1 - int(y - 0.5 + 0.01)
        assert abs(x - col - 0.5) < 0.01 and abs(y - (rows - 1 - row) - 0.5) < 0.01, point
        names.append(f"{file_name(col)}{row + 1}")
    return names


def test_click_a1_and_the_animation_draws_a_whole_valid_tour(page):
    from playwright.sync_api import expect

    page.locator("#speed").fill("75")  # about 40 moves a second
    square(page, "a1").click()
    # The tour is drawn move by move: first part of it, then all of it.
    expect(page.locator("#progress")).to_have_text(re.compile(r"^Move ([2-9]|[1-5]\d) of 64"))
    partial = drawn_path(page, 8)
    assert 1 < len(partial) < 64 and partial[0] == "a1"
    expect(page.locator("#progress")).to_have_text(re.compile(r"^Move 64 of 64"))
    path = drawn_path(page, 8)
    tour = ct.Tour.from_names(ct.Board(8, 8), path)
    tour.validate()
    assert path[0] == "a1" and path[: len(partial)] == partial
    assert page.locator("#board .num").count() == 64
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "browser-8x8-tour.png")

    # The keyboard drives the animation: Home, arrows, space.
    page.locator("h1").click()
    page.keyboard.press("Home")
    expect(page.locator("#progress")).to_have_text(re.compile(r"^Move 1 of 64: a1"))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#progress")).to_have_text(f"Move 3 of 64: {path[2]}")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#progress")).to_have_text(f"Move 2 of 64: {path[1]}")
    page.keyboard.press(" ")
    expect(page.locator("#play")).to_have_attribute("aria-label", "Pause")
    page.keyboard.press(" ")
    expect(page.locator("#play")).to_have_attribute("aria-label", "Play")
    # Numbers can be hidden.
    page.locator("#numbers").uncheck()
    assert page.locator("#board .num").count() == 0


def test_the_board_can_be_used_from_the_keyboard(page):
    from playwright.sync_api import expect

    page.locator("#board").focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")  # from a1 to b2
    expect(page.locator("#board")).to_have_attribute("aria-activedescendant", "sq-9")
    page.keyboard.press("Enter")
    expect(page.locator("#status")).to_have_text(re.compile(r"tour from b2"))


def test_an_impossible_board_shows_its_reason(page):
    from playwright.sync_api import expect

    page.locator("#rows").fill("4")
    page.locator("#cols").fill("4")
    expect(page.locator("#status")).to_have_text("No tour exists on 4x4.")
    why = page.locator("#why")
    expect(why).to_be_visible()  # the reason is shown as it is, not behind a click
    reason = obstruction(ct.Board(4, 4)).reason
    expect(page.locator("#why-text")).to_have_text(reason)
    page.screenshot(path=ARTIFACTS / "browser-why-not.png")


def test_an_impossible_start_shows_its_reason_and_a_small_board_its_count(page):
    from playwright.sync_api import expect

    page.locator("#rows").fill("5")
    page.locator("#cols").fill("5")
    expect(page.locator("#count")).to_have_text("1,728 tours on 5x5 (864 paths, each walked both ways).")
    square(page, "b1").click()
    expect(page.locator("#status")).to_have_text("No tour from b1.")
    expect(page.locator("#why-text")).to_contain_text("b1 is light")
    square(page, "a1").click()
    expect(page.locator("#count")).to_have_text("304 tours from a1.")


def test_play_mode_rejects_an_illegal_move_and_solves_from_here(page):
    from playwright.sync_api import expect

    page.locator("#tab-play").click()
    expect(page.locator("#panel-play")).to_be_visible()
    square(page, "a1").click()
    expect(page.locator("#play-progress")).to_have_text("Squares: 1 of 64, on a1")
    # Two legal moves from a1, each with its Warnsdorff number.
    expect(page.locator("#board .legal")).to_have_count(2)
    assert sorted(page.locator("#board .degree").all_text_contents()) == ["5", "5"]
    square(page, "a2").click()
    expect(page.locator("#status")).to_have_text("a1 to a2 is not a knight move; pick a highlighted square.")
    expect(page.locator("#play-progress")).to_have_text("Squares: 1 of 64, on a1")
    for name in ["b3", "c1"]:
        square(page, name).click()
    square(page, "a1").click()
    expect(page.locator("#status")).to_have_text("a1 is already visited (square 1); pick a highlighted square.")
    expect(page.locator("#play-progress")).to_have_text("Squares: 3 of 64, on c1")
    page.keyboard.press("Backspace")
    expect(page.locator("#play-progress")).to_have_text("Squares: 2 of 64, on b3")
    page.locator("#undo").click()
    expect(page.locator("#play-progress")).to_have_text("Squares: 1 of 64, on a1")
    for name in ["c2", "e1"]:
        square(page, name).click()
    page.screenshot(path=ARTIFACTS / "browser-play.png")
    page.locator("#solve").click()
    expect(page.locator("#status")).to_have_text(re.compile(r"^Solved: your 3 squares"))
    path = drawn_path(page, 8)
    assert path[:3] == ["a1", "c2", "e1"]
    ct.Tour.from_names(ct.Board(8, 8), path).validate()
    assert page.locator("#played-path").get_attribute("data-squares") == "a1 c2 e1"


def test_play_mode_says_when_no_tour_continues_the_moves(page):
    from playwright.sync_api import expect

    page.locator("#rows").fill("5")
    page.locator("#cols").fill("5")
    expect(page.locator("#board rect.square")).to_have_count(25)  # the 5x5 board is on show
    page.locator("#tab-play").click()
    for name in ["a1", "c2", "a3", "c4"]:
        square(page, name).click()
    page.locator("#solve").click()
    expect(page.locator("#status")).to_have_text("No tour continues these moves.")
    expect(page.locator("#why-text")).to_contain_text("an exhaustive search")


def test_phone_sized_screen_has_no_sideways_scrolling(browser, url):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    p = context.new_page()
    p.goto(url)
    p.wait_for_selector("body[data-ready=true]")
    p.locator("#speed").fill("100")
    square(p, "a1").tap()
    expect(p.locator("#progress")).to_have_text(re.compile(r"^Move 64 of 64"))
    width = p.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390
    box = p.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 300
    for button in ("#play", "#back", "#forward"):
        b = p.locator(button).bounding_box()
        assert b["height"] >= 40 and b["x"] + b["width"] <= 390  # big enough to tap, on the screen
    p.screenshot(path=ARTIFACTS / "browser-phone.png", full_page=True)
    context.close()


def test_the_docs_page_renders_offline(page, url):
    from playwright.sync_api import expect

    page.goto(f"{url}/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("chesstours")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    assert "/api/tour" in page.locator(".swagger-ui").inner_text()


def test_trace_mode_steps_through_the_backtracking_search_forward_and_back(page):
    from playwright.sync_api import expect

    page.locator("#rows").fill("5")
    page.locator("#cols").fill("5")
    expect(page.locator("#board rect.square")).to_have_count(25)  # the 5x5 board is on show
    page.locator("#tab-trace").click()
    expect(page.locator("#panel-trace")).to_be_visible()
    square(page, "a1").click()
    expect(page.locator("#trace-progress")).to_have_text(re.compile(r"^Event \d+ of 500"))
    page.locator("#trace-first").click()
    expect(page.locator("#trace-progress")).to_have_text(re.compile(r"^Event 1 of 500 · move 1 of 25"))
    expect(page.locator("#trace-text")).to_have_text("Move 1: start on a1.")
    # The two moves from a1 not yet tried are shown on the board and in words.
    expect(page.locator("#board .legal")).to_have_count(2)
    expect(page.locator("#trace-candidates")).to_have_text("Moves not yet tried from a1: b3, c2")
    page.locator("h1").click()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#trace-text")).to_have_text("Move 4: c5 to e4.")
    assert drawn_path(page, 5) == ["a1", "b3", "c5", "e4"]
    page.locator("#trace-back").click()
    expect(page.locator("#trace-text")).to_have_text("Move 3: b3 to c5.")
    assert drawn_path(page, 5) == ["a1", "b3", "c5"]
    # Further on, the search gives moves up and steps back: the path shrinks, as the library traced it.
    board = ct.Board(5, 5)
    events = list(islice(ct.trace_search(board, "a1"), 500))
    first_back = next(i for i, e in enumerate(events, 1) if e.kind == "back")
    page.locator("#trace-first").click()
    page.locator("h1").click()  # the keys step the trace when no button has the focus
    for _ in range(first_back - 1):
        page.keyboard.press("ArrowRight")
    back = events[first_back - 1]
    expect(page.locator("#trace-text")).to_have_text(back.describe(board))
    expect(page.locator("#board .mark.left")).to_have_count(1)
    assert drawn_path(page, 5) == board.names(back.path)
    page.keyboard.press("ArrowLeft")
    assert drawn_path(page, 5) == board.names(events[first_back - 2].path)
    # A move given up at once is shaded, with the square that makes it hopeless outlined.
    first_skip = next(i for i, e in enumerate(events, 1) if e.kind == "skip")
    page.locator("#trace-first").click()
    page.locator("h1").click()
    for _ in range(first_skip - 1):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#trace-text")).to_have_text(events[first_skip - 1].describe(board))
    expect(page.locator("#board .mark.skipped")).to_have_count(1)
    expect(page.locator("#board .mark.culprit")).to_have_count(1)
    page.screenshot(path=ARTIFACTS / "browser-trace.png")


def test_trace_mode_shows_warnsdorff_weights(page):
    from playwright.sync_api import expect

    page.locator("#tab-trace").click()
    page.locator("#trace-method").select_option("warnsdorff")
    expect(page.locator("#trace-order-label")).to_be_hidden()
    square(page, "a1").click()
    page.locator("#trace-last").click()
    expect(page.locator("#trace-text")).to_have_text(re.compile(r"^A tour of 64 squares"))
    page.locator("#trace-first").click()
    assert sorted(page.locator("#board .degree").all_text_contents()) == ["5", "5"]
    expect(page.locator("#trace-candidates")).to_have_text(re.compile(r"\((5)\), \w+ \(5\)$"))


def test_bishop_panel_draws_a_valid_route_on_8x8_and_counts_the_routes(page):
    from playwright.sync_api import expect

    from chesstours.bishop.route import BishopRoute

    page.locator("#tab-bishop").click()
    expect(page.locator("#panel-bishop")).to_be_visible()
    page.locator("#bishop-speed").fill("100")
    square(page, "a1").click()
    expect(page.locator("#status")).to_have_text(re.compile(r"^A route from a1 to h8: \d+ slides"))
    expect(page.locator("#bishop-count")).to_have_text("70 routes from a1 to h8.")
    expect(page.locator("#bishop-progress")).to_have_text(re.compile(r"^Square (\d+) of \1: h8"))
    steps = page.locator("#tour-path").get_attribute("data-squares")
    route = BishopRoute.parse(steps, board="8x8")
    assert route.problem() is None and route.last == ct.Board(8, 8).square("h8")
    # The slides listed are the same route.
    slides = [li.split("\u2013") for li in page.locator("#bishop-slides li").all_text_contents()]
    text = "-".join([slides[0][0]] + [end for _, end in slides])
    assert BishopRoute.parse(text, board="8x8").steps.tolist() == route.steps.tolist()
    # Squares visited twice show both visit numbers.
    assert page.locator("#board .num.multi").count() >= 1
    page.screenshot(path=ARTIFACTS / "browser-bishop.png")
    # Fewest slides: 17, and 8 such routes.
    page.locator("#bishop-shortest").check()
    square(page, "a1").click()
    expect(page.locator("#status")).to_have_text(re.compile(r"^A route from a1 to h8: 17 slides, the fewest"))
    expect(page.locator("#bishop-count")).to_have_text("8 routes from a1 to h8 with 17 slides, the fewest.")


def test_bishop_panel_explains_a_board_without_a_route(page):
    from playwright.sync_api import expect

    page.locator("#rows").fill("6")
    page.locator("#cols").fill("6")
    expect(square(page, "g1")).to_have_count(0)  # the 6x6 board is on show
    page.locator("#tab-bishop").click()
    square(page, "a1").click()
    expect(page.locator("#status")).to_have_text("No bishop route from a1.")
    expect(page.locator("#why-text")).to_contain_text("No bishop route from a1 to f6")


def test_trace_and_bishop_fit_a_phone_sized_screen(browser):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    p = context.new_page()
    with running_server(Limits()) as url:  # its own server: a long search of an earlier test may hold the slow lane
        _phone(p, url, expect)
    context.close()


def _phone(p, url, expect) -> None:
    p.goto(url)
    p.wait_for_selector("body[data-ready=true]")
    for tab, panel, progress in (("#tab-trace", "trace", r"^Event \d+ of 500"),
                                 ("#tab-bishop", "bishop", r"^Square \d+ of \d+")):
        p.locator(tab).tap()
        square(p, "a1").tap()
        expect(p.locator(f"#{panel}-progress")).to_have_text(re.compile(progress))
        assert p.evaluate("() => document.documentElement.scrollWidth") <= 390
        for name in ("play", "back", "forward"):
            b = p.locator(f"#{panel}-{name}").bounding_box()
            assert b["height"] >= 40 and b["x"] >= 0 and b["x"] + b["width"] <= 390
        p.screenshot(path=ARTIFACTS / f"browser-phone-{panel}.png", full_page=True)


def test_a_tour_on_show_can_be_saved_as_the_library_draws_it(page, url):
    from playwright.sync_api import expect

    page.locator("#speed").fill("100")
    square(page, "a1").click()
    expect(page.locator("#downloads")).to_be_visible()
    for fmt, media in (("svg", "image/svg+xml"), ("png", "image/png"), ("gif", "image/gif")):
        href = page.locator(f"#save-{fmt}").get_attribute("href")
        assert f"format={fmt}" in href and "start=a1" in href
        answer = page.request.get(url + href)
        assert answer.status == 200 and answer.headers["content-type"].startswith(media)
    # The other tabs have no tour to save, and the bishop's board ignores the piece and tour settings.
    page.locator("#tab-bishop").click()
    expect(page.locator("#downloads")).to_be_hidden()
    expect(page.locator("#piece")).to_be_disabled()
    expect(page.locator("#closed")).to_be_disabled()
    page.locator("#tab-watch").click()
    expect(page.locator("#piece")).to_be_enabled()
