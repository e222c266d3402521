"""Screenshots of the web page, as a visitor sees it, for the documentation and for review.

Starts ``chesstours serve`` in a background thread on a free loopback port,
opens the page in Debian's headless chromium (driven by Playwright), clicks
a1 on 8x8, lets the tour play to the end and saves:

* ``docs/web-page.png`` -- the picture of docs/guide/web.md (desktop window, ``--docs``);
* ``test-artifacts/page-desktop.png`` and ``test-artifacts/page-phone.png``
  (390 x 844), plus the play mode, an impossible board, the search trace
  (5x5 from a1, a few dozen events in) and the bishop puzzle (8x8 from a1).

Run: ``python docs/screenshot.py [--docs]`` (needs ``apt-get install chromium``
and the test extra, ``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from chesstours.web import running_server

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def watch_a1(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    page.locator("#speed").fill("100")
    page.locator('#board [data-square="a1"]').click()
    expect(page.locator("#progress")).to_have_text(re.compile(r"^Move 64 of 64"), timeout=20_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", action="store_true", help="also write docs/web-page.png")
    parser.add_argument("--out", type=Path, default=ROOT / "test-artifacts")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with running_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        desktop = browser.new_page(viewport={"width": 1100, "height": 760})
        watch_a1(desktop, url)
        desktop.screenshot(path=args.out / "page-desktop.png")
        if args.docs:
            desktop.screenshot(path=ROOT / "docs" / "web-page.png")
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                 has_touch=True)
        watch_a1(phone, url)
        phone.screenshot(path=args.out / "page-phone.png", full_page=True)
        # Play mode: a few moves with the hints on.
        desktop.locator("#tab-play").click()
        for square in ["a1", "b3", "c1", "e2"]:
            desktop.locator(f'#board [data-square="{square}"]').click()
        desktop.screenshot(path=args.out / "page-play.png")
        # An impossible board and its reason.
        desktop.locator("#tab-watch").click()
        desktop.locator("#rows").fill("4")
        desktop.locator("#cols").fill("4")
        desktop.wait_for_selector("#why:not([hidden])")  # the reason, shown as it is
        desktop.screenshot(path=args.out / "page-why-not.png")
        # The search trace: 5x5 from a1, stepped to its 40th event.
        desktop.locator("#rows").fill("5")
        desktop.locator("#cols").fill("5")
        desktop.wait_for_selector("#count:has-text('on 5x5')")  # the 5x5 board is on show
        desktop.locator("#tab-trace").click()
        desktop.locator('#board [data-square="a1"]').click()
        expect(desktop.locator("#trace-progress")).to_have_text(re.compile(r"^Event"), timeout=20_000)
        desktop.locator("#trace-first").click()
        for _ in range(39):
            desktop.locator("#trace-forward").click()
        desktop.screenshot(path=args.out / "page-trace.png")
        # The bishop puzzle on 8x8, from a1, with the fewest slides.
        desktop.locator("#rows").fill("8")
        desktop.locator("#cols").fill("8")
        desktop.wait_for_selector('#board [data-square="h8"]')
        desktop.locator("#tab-bishop").click()
        desktop.locator("#bishop-speed").fill("100")
        desktop.locator("#bishop-shortest").check()
        desktop.locator('#board [data-square="a1"]').click()
        expect(desktop.locator("#bishop-progress")).to_have_text(re.compile(r"^Square (\d+) of \1"), timeout=20_000)
        desktop.screenshot(path=args.out / "page-bishop.png")
        browser.close()
    print(f"screenshots in {args.out}" + (" and docs/web-page.png" if args.docs else ""))


if __name__ == "__main__":
    main()
