"""Whole games in each language in a real browser (headless Debian Chromium): a game
against the computer in English, Finnish and Swedish, and a friends' game between a
Finnish and a Swedish reader, each played by clicking to its end.

The page's own words (the template's and those its scripts write from the embedded
catalog) must be the reader's language from the first move to the game's end, with no
English word of the page left at the end. The words the server sends over the WebSocket
(the scored items, the verdict, the table's settings) are checked only once the catalog
has them (:data:`SERVER_WORDS`): the check tightens by itself as they are translated.
The game's record is language-neutral: the same bytes whoever downloads it.
Skipped without Chromium or Playwright, except in CI (``CI=true``); slow (make test-slow).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser_harness import LiveServer, live_server, skip_without_browser, watch

skip_without_browser()

from playwright.sync_api import Browser, BrowserContext, Page  # noqa: E402

from casino import i18n  # noqa: E402
from tests.i18n_pending import catalog_has, shown, translated_now  # noqa: E402
from tests.test_web_browser import (  # noqa: E402
    WAIT_MS,
    play_first_option,
    start_game,
    version,
    wait_ready,
    wait_version_after,
)

pytestmark = pytest.mark.timeout(600)

#: Steps (moves and rounds' ends) before a game against the computer counts as never
#: ending; a game to 21 takes about a hundred.
MAX_GAME_STEPS = 1000
#: Looks at both friends' pages (50 ms apart when neither had anything to do) before
#: their game counts as stalled; a game takes about a hundred moves, each one look.
MAX_LOOKS = 3000

#: The words of the page itself at a game's end, in English: its template's and its
#: scripts'. In Finnish and Swedish none may be left (as whole words).
PAGE_ENGLISH = ("Game over", "Rematch", "Replay this game", "Review my play",
                "Download record", "Scored in counting order", "The game is over",
                "Totals", "Last move", "Score", "Moves", "Hint", "Undo", "Stock", "Lobby",
                "The table is empty", "connected", "Keys",
                # the table's default names, shown in the reader's language
                "Computer", "You")

#: The page's English words that are the same word in a language (not a leftover).
SAME_WORD = {"sv": {"Lobby"}}

#: Words the server sends over the WebSocket that the page shows at the game's end, each
#: with a pattern of the message that will translate it (matched against the catalog's
#: key, ``context\x04message`` when it has a context). Until the catalog holds such a
#: message (translated) the English words are allowed; once it does they must be gone
#: from the page. Words asserted here: the table's settings, the scored items' names and
#: the verdict. (The suits' names, context "suit", are the cards' words, not the items'.)
SERVER_WORDS: dict[str, str] = {
    "Hints on": r"^(?:[^\x04]*\x04)?Hints on$",
    "Take-backs on": r"^(?:[^\x04]*\x04)?Take-backs on$",
    "most cards": r"^(?:[^\x04]*\x04)?most cards$",
    "spades": r"^(?!suit\x04)(?:[^\x04]*\x04)?spades$",
    "reached": r"\breached\b.*\bfirst\b",
    "points count in order": r"points count in order",
    "deals": r"%\(\w+\)s deals$",  # the log's "Round 2: Ann deals"
    "trails the": r"\btrails? the\b",  # the narration of the moves in the log
}

#: Some words each language's page must show (so English passing its own checks is
#: no proof of a translation).
KNOWN = {"en": ("Game over", "Rematch"), "fi": ("Peli päättyi", "Uusinta"),
         "sv": ("Partiet är slut", "Retur")}


def server_words_to_check(lang: str) -> list[str]:
    """The server's English words that ``lang``'s page may no longer show."""
    return translated_now(lang, SERVER_WORDS)


def said(lang: str, message: str) -> str:
    """``message`` in ``lang``."""
    with i18n.using(lang):
        return i18n._(message)


def english_left(text: str, lang: str) -> list[str]:
    """The page's own English words (and the server's already translated) in ``text``."""
    if lang == i18n.DEFAULT:
        return []
    words = [w for w in (*PAGE_ENGLISH, *server_words_to_check(lang))
             if w not in SAME_WORD.get(lang, set())]
    return shown(words, text)


def test_the_server_words_check_tightens_once_the_catalog_has_them() -> None:
    """The guard of :data:`SERVER_WORDS` (tests/i18n_pending.py) sees a translated
    message by its pattern, in any context, and not a message of another context or an
    untranslated language."""
    assert catalog_has("fi", r"^(?:[^\x04]*\x04)?Rematch$")
    assert catalog_has("sv", r"^(?:[^\x04]*\x04)?spades$")  # the suit's name
    assert not catalog_has("sv", r"^(?:[^\x04]*\x04)?no message has these words$")
    assert not catalog_has("en", r"Rematch")
    assert english_left("Uusinta · Game over · Hints on", "fi") == ["Game over"]
    assert english_left("Rematch", "en") == []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("web")) as server:
        yield server


def _context(browser: Browser, server: LiveServer, lang: str) -> BrowserContext:
    """A browser whose ``lang`` cookie chooses the language (its Accept-Language says
    English, so only the cookie can make the page Finnish or Swedish)."""
    context = browser.new_context(locale="en-US", viewport={"width": 1100, "height": 900})
    context.add_cookies([{"name": "lang", "value": lang, "url": server.base}])
    return context


def _check_playing_words(page: Page, lang: str) -> None:
    """The page's words on the player's turn, in ``lang``."""
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#status") == said(lang, "Your turn: pick a card.")
    assert page.inner_text("#hint-button").startswith(said(lang, "Hint"))


def _check_end(page: Page, lang: str) -> None:
    """The game's end in ``lang``: the verdict's head, the status, the buttons, and no
    English word of the page (nor of the server's, once translated) anywhere on it."""
    box = page.locator("#round-end")
    assert box.is_visible()
    assert said(lang, "Game over") in box.inner_text()
    assert page.inner_text("#status") == said(lang, "The game is over.")
    assert said(lang, "Scored in counting order:") in box.inner_text()
    for link in ("Replay this game", "Download record"):
        assert page.locator("#round-end a", has_text=said(lang, link)).count() == 1, link
    body = page.inner_text("body") + " " + page.title()
    for words in KNOWN[lang]:
        assert words in body, words
    assert english_left(body, lang) == []


def _play_against_the_computer(page: Page, lang: str) -> int:
    """Play the whole game by clicking, checking the words on the way; the rounds."""
    rounds = 0
    for step in range(MAX_GAME_STEPS):
        state = wait_ready(page)
        if state == "over":
            return rounds
        if state == "round_over":
            rounds += 1
            button = page.locator("#next-round-button")
            assert button.inner_text() == said(lang, "Next round")
            assert english_left(page.inner_text("#round-end"), lang) == []
            before = version(page)
            button.click()
            wait_version_after(page, before)
            continue
        if step % 20 == 0:
            _check_playing_words(page, lang)
        play_first_option(page)
    pytest.fail(f"the game did not end in {MAX_GAME_STEPS} steps")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
def test_a_whole_game_against_the_computer_in_each_language(
        server: LiveServer, browser: Browser, lang: str) -> None:
    context = _context(browser, server, lang)
    try:
        page = context.new_page()
        errors = watch(page)
        start_game(page, server.base)
        assert wait_ready(page) == "turn"
        _check_playing_words(page, lang)
        rounds = _play_against_the_computer(page, lang)
        assert rounds >= 1
        _check_end(page, lang)
        assert errors == []
    finally:
        context.close()


# ----------------------------------------------------------------------
# A Finnish and a Swedish reader at one table


def _act(page: Page) -> bool:
    """Do what ``page``'s player can do now: deal the next round, or play the first
    option; False when there is nothing to do."""
    if page.get_attribute("#game", "data-status") == "round_over":
        button = page.locator("#next-round-button")
        if button.count() and button.is_visible() and button.is_enabled():
            before = version(page)
            button.click()
            wait_version_after(page, before)
            return True
        return False
    if page.get_attribute("#game", "data-your-turn") == "true":
        play_first_option(page)
        return True
    return False


def _over(page: Page) -> bool:
    """True once ``page`` shows the game's end."""
    return page.get_attribute("#game", "data-status") == "over"


def _play_friends_to_the_end(pages: dict[str, Page]) -> None:
    """Both players play until the game ends, each move seen by the other page before
    the next look."""
    for _ in range(MAX_LOOKS):
        if all(_over(p) for p in pages.values()):
            return
        acted = False
        for lang, page in pages.items():
            if _act(page):
                acted = True
                other = pages["sv" if lang == "fi" else "fi"]
                other.wait_for_function(
                    f"() => Number(document.getElementById('game').dataset.version)"
                    f" >= {version(page)}", timeout=WAIT_MS)
        if not acted:
            time.sleep(0.05)  # a look: the next one comes once the pages have moved on
    pytest.fail(f"the friends' game did not end in {MAX_LOOKS} looks")


def _record(context: BrowserContext, base: str, game_id: str) -> tuple[bytes, Any]:
    """The game's record file and its replay's JSON, as ``context`` is given them."""
    rec = context.request.get(f"{base}/records/{game_id}.rec")
    api = context.request.get(f"{base}/api/records/{game_id}")
    assert rec.ok and api.ok
    return rec.body(), json.loads(api.body())


#: The keys of the replay's JSON whose values are words for its reader, in the reader's
#: language: what a step says of a move, a scored item's name, the ruleset's title, the
#: round's tied majorities and its summary, what the point cards are called.
READER_WORDS = frozenset({"words", "item", "title", "ties", "summary", "point_cards_label"})


def _without_words(value: Any) -> Any:
    """``value`` without its words for the reader (:data:`READER_WORDS`): the notation,
    the positions, the cards, the points and the scores stay, and must be the same."""
    if isinstance(value, dict):
        return {k: _without_words(v) for k, v in value.items() if k not in READER_WORDS}
    if isinstance(value, list):
        return [_without_words(v) for v in value]
    return value


@pytest.mark.slow
def test_a_finnish_and_a_swedish_reader_play_a_game_to_its_end(
        server: LiveServer, browser: Browser) -> None:
    contexts = {lang: _context(browser, server, lang) for lang in ("fi", "sv")}
    try:
        pages = {lang: ctx.new_page() for lang, ctx in contexts.items()}
        errors = watch(pages["fi"]) + watch(pages["sv"])
        game_id = start_game(pages["fi"], server.base, mode="friends", name="Aino")
        pages["fi"].wait_for_selector("#invite:not([hidden])", timeout=WAIT_MS)
        pages["sv"].goto(pages["fi"].input_value("#invite-link"))
        pages["sv"].fill("#join-name", "Bo")
        pages["sv"].click("#join-button")
        pages["sv"].wait_for_url(re.compile(rf".*/game/{game_id}$"), timeout=WAIT_MS)
        for lang, page in pages.items():
            assert page.get_attribute("html", "lang") == lang
            page.wait_for_function(
                "() => document.getElementById('game').dataset.status === 'playing'",
                timeout=WAIT_MS)
            assert said(lang, "Score") in page.inner_text(".sidebar")
        _play_friends_to_the_end(pages)
        for lang, page in pages.items():
            _check_end(page, lang)
            assert {"Aino", "Bo"} <= set(re.findall(r"\w+", page.inner_text("#round-end")))
        assert errors == []
        # The record: the same bytes to both readers and to an English one, and no word
        # of either language in it (the names are ASCII: any letter of theirs is a word).
        finnish, finnish_api = _record(contexts["fi"], server.base, game_id)
        swedish, swedish_api = _record(contexts["sv"], server.base, game_id)
        english = browser.new_context()
        try:
            neutral, english_api = _record(english, server.base, game_id)
        finally:
            english.close()
        assert finnish == swedish == neutral
        text = finnish.decode("utf-8")
        assert "casino-record" in text and not re.search("[äöåÄÖÅ]", text)
        for lang in ("fi", "sv"):
            for message in ("Game over", "sweep", "Round", "Score"):
                translated = said(lang, message)
                if translated != message:
                    assert translated not in text, (lang, translated)
        assert (_without_words(finnish_api) == _without_words(swedish_api)
                == _without_words(english_api))
    finally:
        for ctx in contexts.values():
            ctx.close()
