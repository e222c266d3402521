"""The page's friendly edges, in a real browser at a desktop's size and a phone's.

Space pauses whatever has the focus; a big board zooms and pans, its text fading out below a
readable size; no tour is an answer shown as it is; the facts panel says whether a tour exists
and how many there are; the page's link restores the board; a tour of your own is checked
and drawn. Screenshots go to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest

import chesstours as ct

from .test_browser import ARTIFACTS, browser, drawn_path, square, url  # noqa: F401 -- the fixtures

pytestmark = pytest.mark.browser

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
              "has_touch": True},
}


@pytest.fixture(params=list(SIZES))
def sized(request, browser, url):  # noqa: F811 -- the fixtures imported above
    """A page at a desktop's size or a phone's; every console error (a failed request included) fails the test."""
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)
    context = browser.new_context(**SIZES[request.param])
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    p.kind = request.param
    p.base = url
    yield p
    context.close()
    assert errors == [], errors


def open_page(p, hash_: str = "") -> None:
    p.goto(f"{p.base}/{hash_}")
    p.wait_for_selector("body[data-ready=true]")


def hit(p, locator) -> None:
    """A click on a desktop, a tap on a phone."""
    locator.tap() if p.kind == "phone" else locator.click()


def shot(p, name: str, kind: str | None = None) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    p.screenshot(path=ARTIFACTS / f"edges-{name}-{kind or p.kind}.png")


def move_number(p) -> int:
    return int(re.match(r"Move (\d+) of", p.locator("#progress").text_content()).group(1))


# -- 1. Space --------------------------------------------------------------------------------------


def test_space_after_clicking_a_square_pauses_instead_of_restarting(sized):
    from playwright.sync_api import expect

    p = sized
    open_page(p)
    p.locator("#speed").fill("20")  # about 2 moves a second
    hit(p, square(p, "a1"))
    expect(p.locator("#play")).to_have_attribute("aria-label", "Pause")
    expect(p.locator("#progress")).to_have_text(re.compile(r"^Move [3-9] of 64"))
    p.keyboard.press(" ")  # the board has the focus
    expect(p.locator("#play")).to_have_attribute("aria-label", "Play")
    paused = move_number(p)
    assert paused >= 3  # not back to move 1: the tour was paused, not started again
    p.wait_for_timeout(800)
    assert move_number(p) == paused
    p.keyboard.press(" ")
    expect(p.locator("#play")).to_have_attribute("aria-label", "Pause")
    # A button with the focus: Space pauses rather than clicking it again.
    hit(p, p.locator("#forward"))
    p.locator("#play").click() if p.kind == "desktop" else p.locator("#play").tap()
    expect(p.locator("#play")).to_have_attribute("aria-label", "Pause")
    p.locator("#forward").focus()
    at = move_number(p)
    p.keyboard.press(" ")
    expect(p.locator("#play")).to_have_attribute("aria-label", "Play")
    assert move_number(p) >= at
    # A check box keeps its own Space: it is ticked, and nothing starts playing.
    p.locator("#numbers").focus()
    p.keyboard.press(" ")
    expect(p.locator("#numbers")).not_to_be_checked()
    expect(p.locator("#play")).to_have_attribute("aria-label", "Play")
    # In a text field, Space is a space.
    p.locator("#holes").focus()
    p.keyboard.type("d4 e5")
    expect(p.locator("#holes")).to_have_value("d4 e5")
    expect(p.locator("#play")).to_have_attribute("aria-label", "Play")


# -- 2. big boards -----------------------------------------------------------------------------------


def test_a_50x50_board_zooms_and_pans_and_its_text_fades_below_a_readable_size(sized):
    from playwright.sync_api import expect

    p = sized
    open_page(p, "#board=50x50")
    board, wrap = p.locator("#board"), p.locator("#board-wrap")
    a1 = square(p, "a1")
    px = a1.bounding_box()["width"]
    if p.kind == "desktop":
        # The whole board at first, too small to read: numbers and coordinates are off, dots stand in.
        assert px < 14
        expect(p.locator("#zoom-level")).to_have_text(re.compile(r"^\d+ px a square \(whole board\)"))
        expect(board).to_have_class(re.compile(r"hide-numbers.*hide-coords|hide-coords.*hide-numbers"))
    else:
        # A phone starts at a square a finger can hit, and the box scrolls.
        assert px >= 23.9
        assert p.evaluate("() => document.documentElement.scrollWidth") <= 390
    p.locator("#speed").fill("100")
    hit(p, a1)
    expect(p.locator("#progress")).to_have_text(re.compile(r"^Move \d+ of 2500"))
    p.locator("#play").click()  # pause
    shot(p, "50x50-start")
    # Zoom in with the button until the numbers are readable.
    for _ in range(8):
        if a1.bounding_box()["width"] >= 30:
            break
        p.locator("#zoom-in").click()
    assert a1.bounding_box()["width"] >= 30
    expect(board).not_to_have_class(re.compile("hide-numbers"))
    expect(board).not_to_have_class(re.compile("hide-coords"))
    sizes = p.evaluate("() => { const w = document.getElementById('board-wrap');"
                       " return [w.scrollWidth, w.clientWidth, w.scrollHeight, w.clientHeight]; }")
    assert sizes[0] > sizes[1] and sizes[2] > sizes[3]  # larger than its box: it scrolls
    # The numbers drawn are readable: at least 7 pixels high.
    number = p.locator("#board .num").first.bounding_box()
    assert number["height"] >= 7
    shot(p, "50x50-zoomed")
    if p.kind == "desktop":
        # Ctrl + wheel zooms about the pointer; a mouse drag pans and picks no square.
        box = wrap.bounding_box()
        p.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        before = a1.bounding_box()["width"]
        p.keyboard.down("Control")
        p.mouse.wheel(0, -300)
        p.keyboard.up("Control")
        expect(p.locator("#zoom-level")).not_to_have_text(f"{round(before)} px a square")
        assert a1.bounding_box()["width"] > before
        left = p.evaluate("() => document.getElementById('board-wrap').scrollLeft")
        status = p.locator("#status").text_content()
        p.mouse.down()
        p.mouse.move(box["x"] + box["width"] / 2 - 150, box["y"] + box["height"] / 2, steps=5)
        p.mouse.up()
        assert p.evaluate("() => document.getElementById('board-wrap').scrollLeft") > left
        assert p.locator("#status").text_content() == status  # the drag started no tour
    else:
        # A two-finger pinch zooms out.
        before = a1.bounding_box()["width"]
        pinch(p, wrap, spread_from=200, spread_to=100)
        assert a1.bounding_box()["width"] < before
    # The keys on the board zoom too: 0 the whole board, + in.
    p.locator("#board").focus()
    p.keyboard.press("0")
    expect(p.locator("#zoom-level")).to_have_text(re.compile(r"\(whole board\)$"))
    before = a1.bounding_box()["width"]
    p.keyboard.press("+")
    assert a1.bounding_box()["width"] > before
    # Fit shows the whole board again, its text faded out.
    p.locator("#zoom-fit").click()
    expect(p.locator("#zoom-level")).to_have_text(re.compile(r"\(whole board\)$"))
    expect(board).to_have_class(re.compile("hide-numbers"))
    shot(p, "50x50-fit")


def pinch(p, target, spread_from: float, spread_to: float) -> None:
    """Two fingers on ``target`` moving from ``spread_from`` to ``spread_to`` pixels apart (CDP touch events)."""
    box = target.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = p.context.new_cdp_session(p)

    def points(d):
        return [{"x": cx - d / 2, "y": cy, "id": 1}, {"x": cx + d / 2, "y": cy, "id": 2}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(spread_from)})
    for i in range(1, 6):
        d = spread_from + (spread_to - spread_from) * i / 5
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(d)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


# -- 3. no tour: an answer --------------------------------------------------------------------------


def test_no_tour_from_a_square_is_an_answer_shown_plainly_without_a_console_error(sized):
    from playwright.sync_api import expect

    p = sized
    answers = []
    p.on("response", lambda r: answers.append(r.status) if "/api/tour" in r.url else None)
    open_page(p, "#board=5x5")
    expect(p.locator("#count")).to_have_text("1,728 tours on 5x5 (864 paths, each walked both ways).")
    hit(p, square(p, "b1"))
    expect(p.locator("#status")).to_have_text("No tour from b1.")
    expect(p.locator("#why")).to_be_visible()
    expect(p.locator("#why-how")).to_have_text(re.compile(r"^Counting the squares of each colour"))
    expect(p.locator("#why-text")).to_contain_text("b1 is light")
    assert answers and all(status == 200 for status in answers)  # no 404, so no console error
    # The panel says no too, without repeating the reason shown just above.
    expect(p.locator("#exists")).to_have_text("Does a tour exist from b1? No: the reason is given above.")
    shot(p, "no-tour")


# -- 4. the facts panel, the link, your own tour ------------------------------------------------------------


def test_the_facts_panel_says_whether_a_tour_exists_and_counts_or_says_why_not(sized):
    from playwright.sync_api import expect

    p = sized
    open_page(p)
    # 8x8: a theorem says yes; a count is refused, with the reason.
    expect(p.locator("#exists")).to_have_text(re.compile(r"^Does a tour exist on 8x8\? Yes: .*8x8 is one of them"))
    expect(p.locator("#count")).to_have_text(re.compile(r"^Not counted here: This server counts "
                                                        r"tours on boards of at most 48 squares and 8x8 has 64"))
    shot(p, "facts-8x8")
    # 6x7: small enough, but its count would take minutes: refused with the estimate, and no error.
    p.locator("#rows").fill("6")
    p.locator("#cols").fill("7")
    expect(p.locator("#count")).to_have_text(re.compile(
        r"^Not counted here: Counting the tours of 6x7 would take about \d+ minutes here, more "
        r"than this server's 3-second limit"))
    # 4x4: no, and why.
    p.locator("#rows").fill("4")
    p.locator("#cols").fill("4")
    expect(p.locator("#exists")).to_have_text("Does a tour exist on 4x4? No: the reason is given above.")
    expect(p.locator("#why-text")).to_have_text(re.compile(r"^No tour on 4x4: "))
    # 5x5 from a1: yes, and the count from there.
    p.locator("#rows").fill("5")
    p.locator("#cols").fill("5")
    expect(p.locator("#count")).to_have_text("1,728 tours on 5x5 (864 paths, each walked both ways).")
    p.locator("#speed").fill("100")
    hit(p, square(p, "a1"))
    expect(p.locator("#exists")).to_have_text(re.compile(r"^Does a tour exist from a1\? Yes"))
    expect(p.locator("#count")).to_have_text("304 tours from a1.")


def test_the_link_keeps_the_board_and_the_options_and_restores_them(sized, browser):  # noqa: F811
    from playwright.sync_api import expect

    p = sized
    open_page(p)
    p.locator("#rows").fill("6")
    p.locator("#cols").fill("7")
    p.locator("#closed").check()
    p.locator("#tiebreak").select_option("pohl")
    expect(square(p, "h1")).to_have_count(0)  # the 6x7 board is on show
    p.locator("#speed").fill("100")
    hit(p, square(p, "a1"))
    expect(p.locator("#status")).to_have_text(re.compile(r"^A closed tour from a1"))
    link = p.locator("#share").get_attribute("href")
    assert p.evaluate("() => location.hash") == link
    assert {"board=6x7", "closed=1", "tiebreak=pohl", "start=a1"} <= set(unquote(link[1:]).split("&"))
    # A fresh page opened at the link shows the same board, options and tour.
    other = p.context.new_page()
    other.goto(f"{p.base}/{link}")
    other.wait_for_selector("body[data-ready=true]")
    expect(other.locator("#rows")).to_have_value("6")
    expect(other.locator("#cols")).to_have_value("7")
    expect(other.locator("#closed")).to_be_checked()
    expect(other.locator("#tiebreak")).to_have_value("pohl")
    expect(other.locator("#status")).to_have_text(re.compile(r"^A closed tour from a1"))
    other.locator("#last").click()
    path = drawn_path(other, 6)
    assert path[0] == "a1" and len(path) == 42
    ct.Tour.from_names("6x7", path, closed=True).validate()
    shot(other, "link-restored", p.kind)
    other.close()


def test_a_tour_of_your_own_is_checked_and_drawn_or_its_first_fault_shown(sized, tmp_path):
    from playwright.sync_api import expect

    p = sized
    open_page(p)
    hit(p, p.locator("#tab-check"))
    expect(p.locator("#panel-check")).to_be_visible()
    moves = "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3"
    p.locator("#check-text").fill(moves)
    hit(p, p.locator("#check-run"))
    expect(p.locator("#check-result")).to_have_text(
        "Valid: open knight's tour of 3x4, 12 squares, from a1 to d3.")
    expect(p.locator("#rows")).to_have_value("3")  # the board of the tour
    assert drawn_path(p, 3) == moves.split()
    assert p.evaluate("() => document.documentElement.scrollWidth") <= SIZES[p.kind]["viewport"]["width"]
    shot(p, "check-valid")
    # A wrong step: the tour is drawn up to it and the square is shaded.
    p.locator("#check-text").fill("a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b3 d3")
    hit(p, p.locator("#check-run"))
    expect(p.locator("#check-result")).to_have_text("Not a tour: Step 10 returns to b3, already visited at step 5.")
    expect(p.locator("#board .mark.skipped")).to_have_count(1)
    assert drawn_path(p, 3) == "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b3".split()
    shot(p, "check-invalid")
    # A numbered grid, uploaded as a file, with its own board and holes.
    tour = ct.find_tour(ct.Board(5, 6, "c3"), start="b1")
    grid = tmp_path / "tour.txt"
    grid.write_text(tour.grid())
    p.locator("#check-file").set_input_files(str(grid))
    expect(p.locator("#check-result")).to_have_text(re.compile(r"^Valid: open knight's tour of 5x6 without c3, 29 squares"))
    expect(p.locator("#holes")).to_have_value("c3")
    assert drawn_path(p, 5) == tour.names()
    # Text that is no tour is an answer too, and the link keeps the tour checked.
    link = p.locator("#share").get_attribute("href")
    assert "tab=check" in link and "tour=" in link
    p.locator("#check-text").fill("hello")
    hit(p, p.locator("#check-run"))
    expect(p.locator("#check-result")).to_have_text(
        "Not a tour: 'hello' is not a square name; a tour is a list such as a1 c2 e1.")
    other = p.context.new_page()
    other.goto(f"{p.base}/{link}")
    other.wait_for_selector("body[data-ready=true]")
    expect(other.locator("#check-result")).to_have_text(re.compile(r"^Valid: open knight's tour of 5x6 without c3"))
    other.close()
