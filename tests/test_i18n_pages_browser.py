"""The web's other pages in Finnish and in Swedish in a real browser (headless Debian
Chromium) on a phone's width, 390 px: the accounts' pages (signed in, through the
forms), the player's page, the leaderboard, the daily deal and its results, an invite,
the score pad with a round entered (its printable sheet), the move helper with a listed
play, a finished game's replay, and the rules, guide and glossary. On each, no element
reaches past the screen's right edge (but inside a box that scrolls sideways, as the
score pad's table) and no button's words are cut; the sheet's and the scripts' words
are in the page's language. Skipped without Chromium or Playwright, except in CI.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser_harness import LiveServer, live_server, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser, Page  # noqa: E402

from casino.web.daily import daily_presets  # noqa: E402
from tests.web_helpers import finish_friends_game  # noqa: E402

pytestmark = pytest.mark.timeout(300)

#: The phone's width every page must fit.
WIDTH = 390
PASSWORD = "correct horse battery"

#: Every visible element whose right edge passes the screen (outside a box that scrolls
#: sideways), and every button whose words do not fit in it.
OVERFLOWING = """() => {
  const out = [];
  const scrolls = (e) => {
    for (let p = e.parentElement; p; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX;
      if (x === "auto" || x === "scroll" || x === "hidden") return true;
    }
    return false;
  };
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === "hidden") continue;
    const name = `${e.tagName}#${e.id}.${e.className}: ${e.textContent.trim().slice(0, 40)}`;
    if (r.right > window.innerWidth + 0.5 && !scrolls(e)) out.push("past the edge: " + name);
    if (e.matches("button, .button") && e.scrollWidth > e.clientWidth + 1) out.push("cut: " + name);
  }
  return out;
}"""

#: Each language's words on the sheet of a score pad with one round entered.
SHEET = {
    "fi": ("Kierros / kohta", "Kierros 1", "Yhteensä", "Tulosta", "Kirjaa kierros 2"),
    "sv": ("Omgång / post", "Omgång 1", "Summa", "Skriv ut", "För in omgång 2"),
}
#: The invite's button.
JOIN = {"fi": "Ota paikkani", "sv": "Ta min plats"}
#: The replay's title as its script writes it.
REPLAY = {"fi": "Katso uudelleen: ", "sv": "Spela upp: "}
#: Words of each language the helper's script writes once a play is listed.
HELPER = {"fi": "sallit", "sv": "tillåt"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("web")) as server:
        yield server


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> str:
    game: str = server.run(finish_friends_game(server.app.state.web.service))
    return game


@pytest.fixture(scope="module")
def invite(server: LiveServer) -> str:
    """A friends' room's invite path (its maker is not the browser under test)."""
    service = server.app.state.web.service

    async def room() -> str:
        made = service.rooms.create(rules="kasino", players=4, level="beginner",
                                    mode="friends", name="Ann")
        return str(made.invite)

    invite: str = server.run(room())
    return "/" + invite.split("/", 3)[3] if invite.startswith("http") else invite


def _fits(page: Page, path: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, path
    assert page.evaluate(OVERFLOWING) == [], path


def _visit(page: Page, base: str, path: str) -> None:
    page.goto(base + path)
    page.wait_for_load_state("load")
    _fits(page, path)


def _score_pad(page: Page, base: str, lang: str) -> None:
    """A pad of Casino for two, one round entered (every card to the first player):
    its sheet in ``lang``, fitting the screen."""
    page.goto(base + "/scorepad")
    page.wait_for_selector("#setup:not([hidden])")
    _fits(page, "/scorepad (set-up)")
    page.click("#setup-start")
    page.wait_for_selector("#sheet:not([hidden])")
    for mode in page.locator("#round-fields input[type=radio][value=most]").all():
        mode.check()  # "who had the most" (then the first player had it)
    for box in page.locator("#round-fields input[type=checkbox][name$='-0']").all():
        box.check()
    for radio in page.locator("#round-fields input[type=radio][value='0']").all():
        radio.check()
    for select in page.locator("#round-fields select").all():
        select.select_option("0")
    page.click("#round-submit")
    page.wait_for_selector("#pad-body tr.round-total")
    sheet = page.inner_text("#sheet")
    for words in SHEET[lang]:
        assert words in sheet, words
    _fits(page, "/scorepad (sheet)")
    page.emulate_media(media="print")
    assert page.is_hidden("#round-form") and page.is_visible("#pad-table")
    page.emulate_media(media="screen")


def _helper(page: Page, base: str, lang: str) -> None:
    page.goto(base + "/helper")
    page.click("button.pick[data-card='5h']")  # to the table
    page.check("#target-hand")
    page.click("button.pick[data-card='5d']")  # to the hand
    page.click("#list-plays")
    page.wait_for_selector("#plays li")
    assert HELPER[lang] in page.inner_text("#plays-note")
    _fits(page, "/helper (plays)")


def _accounts(page: Page, base: str, name: str) -> None:
    """Sign up as ``name`` through the form (the codes' page), then the account's page
    and the player's."""
    page.goto(base + "/signup")
    _fits(page, "/signup")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_selector("#recovery-codes")
    _fits(page, "codes")
    _visit(page, base, "/account")
    _visit(page, base, f"/player/{name}")


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_pages_fit_a_phone_in_finnish_and_swedish(server: LiveServer, browser: Browser,
                                                       finished: str, invite: str,
                                                       lang: str) -> None:
    context = browser.new_context(locale=lang, viewport={"width": WIDTH, "height": 844})
    try:
        page = context.new_page()
        errors = watch(page)
        base = server.base
        for path in ("/signin", "/recover", "/leaderboard", "/daily", "/rules/casino",
                     "/guide/casino", "/glossary", f"/records/{finished}", invite,
                     f"/daily/{server.app.state.web.service.daily.today()}/"
                     f"{daily_presets()[0]}"):
            _visit(page, base, path)
            assert page.get_attribute("html", "lang") == lang
        _visit(page, base, invite)
        assert page.inner_text("#join-button") == JOIN[lang]
        page.goto(f"{base}/records/{finished}")
        page.wait_for_selector("#replay-seats .seat-box")  # the replay drawn by its script
        _fits(page, "/records (drawn)")
        assert page.inner_text("#replay-title").startswith(REPLAY[lang])
        _score_pad(page, base, lang)
        _helper(page, base, lang)
        _accounts(page, base, f"Ann-{lang}")
        assert errors == []
    finally:
        context.close()
