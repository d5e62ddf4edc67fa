"""The lobby in Finnish and Swedish in a real browser (headless Debian Chromium): the
browser's language chooses the page's, the script writes its words from the embedded
catalog (the mode's note, the listed rooms), and the switch at the foot of the page
changes the language and comes back.
Skipped without Chromium or Playwright, except in CI (``CI=true``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser_harness import LiveServer, live_server, skip_without_browser

skip_without_browser()

from playwright.sync_api import Browser  # noqa: E402

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("web")) as server:
        yield server


def test_the_lobby_speaks_finnish_then_swedish(server: LiveServer, browser: Browser) -> None:
    context = browser.new_context(locale="fi-FI", viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{server.base}/")
        assert page.get_attribute("html", "lang") == "fi"
        assert page.inner_text("#start-button") == "Aloita peli"
        page.check("#mode-lesson")
        assert page.inner_text("#start-button") == "Aloita opastus"  # the script's words
        page.check("input[name=mode][value=friends]")
        assert "kutsulinkin" in page.inner_text("#mode-note")
        # Nothing wider than the phone's screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.click("#start-button")  # a room for a friend: then listed in the lobby
        page.wait_for_url("**/game/**")
        page.goto(f"{server.base}/")
        entry = page.locator("#open-games li").first
        entry.wait_for()
        assert "2 pelaajaa · odottaa pelaajia" in entry.inner_text()
        page.click("#language-sv")
        page.wait_for_url(f"{server.base}/")
        assert page.get_attribute("html", "lang") == "sv"
        assert page.inner_text("#start-button") == "Starta partiet"
        page.check("input[name=mode][value=friends]")
        assert page.inner_text("#start-button") == "Skapa rummet"
        entry = page.locator("#open-games li").first
        entry.wait_for()
        assert "2 spelare · väntar på spelare" in entry.inner_text()
    finally:
        context.close()
