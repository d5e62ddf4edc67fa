"""The game page in Finnish and in Swedish in a real browser (headless Debian Chromium) on
a phone's width: a game against the computer is started from the lobby and a few moves
are played by clicking; the page's own words and the words its scripts write (the
status line, the stock, the round, the hint) are in the browser's language, and no
button, chip or panel is wider than the screen or its own box.
Skipped without Chromium or Playwright, except in CI (``CI=true``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser_harness import LiveServer, live_server, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser, Page  # noqa: E402

from tests.test_web_browser import (  # noqa: E402
    play_first_option,
    start_game,
    version,
    wait_ready,
    wait_version_after,
)

pytestmark = pytest.mark.timeout(180)

#: The phone's width the layout must fit in every language.
WIDTH = 390
#: Moves the player makes before the test is content (a round has more).
MOVES = 4
#: Steps (moves and round ends) before the test gives up reaching MOVES moves.
MAX_STEPS = 20

#: Each language's words the page must show: the static ones (the template) and the
#: ones its scripts write from the embedded catalog.
WORDS = {
    "fi": {"turn": "Sinun vuorosi: valitse kortti.", "hint": "Vihje", "undo": "Peru",
           "stock": "Pakka ", "round": "Kierros ", "score": "Pisteet", "moves": "Siirrot",
           "hint_status": "Vihje: ", "table": "Pöytä", "english": "Your turn",
           "conn": "yhdistetty"},
    "sv": {"turn": "Din tur: välj ett kort.", "hint": "Tips", "undo": "Ångra",
           "stock": "Talong ", "round": "Omgång ", "score": "Poäng", "moves": "Drag",
           "hint_status": "Tips: ", "table": "Bordet", "english": "Your turn",
           "conn": "ansluten"},
}

#: Every visible button, chip or panel that reaches past the screen's edge, or whose
#: words do not fit in its own box (a long Finnish word pushing out of a button).
OVERFLOWING = """() => {
  const out = [];
  for (const e of document.querySelectorAll("button, .button, .chip, .badge, .panel, .seat-head")) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const past = r.left < -0.5 || r.right > window.innerWidth + 0.5;
    const spills = e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === "visible";
    const words = e.textContent.trim().slice(0, 40);
    if (past || spills) out.push(`${e.tagName}#${e.id}.${e.className}: ${words}`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("web")) as server:
        yield server


def _fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert page.evaluate(OVERFLOWING) == []


def _play_moves(page: Page) -> None:
    """Play MOVES moves (going on to the next round when one ends), checking the layout
    after each."""
    moves = 0
    for _step in range(MAX_STEPS):
        state = wait_ready(page)
        _fits(page)
        if moves >= MOVES or state == "over":
            return
        if state == "round_over":
            before = version(page)
            page.click("#next-round-button")
            wait_version_after(page, before)
            continue
        play_first_option(page)
        moves += 1
    pytest.fail(f"fewer than {MOVES} moves in {MAX_STEPS} steps")


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_a_game_against_the_computer_in_the_browsers_language(
        server: LiveServer, browser: Browser, lang: str) -> None:
    words = WORDS[lang]
    context = browser.new_context(locale=lang, viewport={"width": WIDTH, "height": 844})
    try:
        page = context.new_page()
        errors = watch(page)
        start_game(page, server.base)
        assert page.get_attribute("html", "lang") == lang
        assert wait_ready(page) == "turn"
        assert page.inner_text("#status") == words["turn"]
        assert page.inner_text("#hint-button").startswith(words["hint"])
        assert page.inner_text("#undo-button").startswith(words["undo"])
        assert page.inner_text("#stock-info").startswith(words["stock"])
        assert page.inner_text("#round-info").startswith(words["round"])
        assert page.get_attribute(".board", "aria-label") == words["table"]
        sidebar = page.inner_text(".sidebar")
        assert words["score"] in sidebar and words["moves"] in sidebar
        assert words["english"] not in page.title()
        assert page.inner_text("#conn") == words["conn"]
        _fits(page)
        page.click("#hint-button")
        page.wait_for_function(
            "(start) => document.getElementById('status').textContent.startsWith(start)",
            arg=words["hint_status"], timeout=20_000)
        page.click("#clear-button")  # the hint chose a card: start from nothing
        _play_moves(page)
        assert errors == []
    finally:
        context.close()
