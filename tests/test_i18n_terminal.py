"""``casino play --lang`` and ``casino learn --lang`` full screen, from the command line:
the game screen they open at 80 x 24 speaks the language chosen, and no widget reaches
past the screen.

The command line opens the full-screen game on a terminal only; here it believes it is
on one, and the game it opens is run headless (Textual's ``run_test``) at 80 x 24 in
place of the real terminal, and read: the panels' titles, the turn bar, the key bar, the
lesson's panel and every other line the screen shows (tests/test_play_languages.py has
the same screen made directly, and the plain game).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from casino import i18n
from casino.play.session import GameSession
from tests.cli_helpers import run
from tests.i18n_pending import shown

#: The screen's size: the smallest terminal the game is made for.
SIZE = (80, 24)

#: Words each language's game screen shows (the panels' titles, the key bar, the turn
#: bar), and English words it must not show.
GAME_WORDS = {
    "en": ("Table", "Your hand", "Score", "Hint", "Quit", "Your turn",
           "F1 shows the rules and the keys."),
    "fi": ("Pöytä", "Kätesi", "Pisteet", "Vihje", "Lopeta", "Vuorosi",
           "F1 näyttää säännöt ja näppäimet."),
    "sv": ("Bordet", "Din hand", "Poäng", "Tips", "Avsluta", "Din tur",
           "F1 visar reglerna och tangenterna."),
}
#: The lesson panel's title in each language ("Lesson: Pairing" in English).
LESSON_WORDS = {"en": "Lesson: ", "fi": "Opastus: ", "sv": "Lektion: "}
#: The game screen's own English words (translated already), none of which a Finnish or
#: Swedish screen shows.
ENGLISH = ("Your hand", "Score", "Hint", "Quit", "Your turn", "Lesson", "Undo", "Options",
           "Moves", "Table", "F1 shows the rules", "in hand", "pile", "last capture",
           "none yet", "No moves yet", "stock", "deal", "first to", "point cards")


def english_left(lang: str, text: str) -> list[str]:
    """The screen's English words (:data:`ENGLISH`) that ``text`` shows in ``lang``."""
    if lang == i18n.DEFAULT:
        return []
    return shown(list(ENGLISH), text)


def test_the_english_left_is_found_as_whole_words() -> None:
    """The check of a screen finds the English words left, whole, and only those."""
    assert english_left("fi", "pile 0 · point cards — · Pöytä") == ["pile", "point cards"]
    assert english_left("fi", "Your hand · Kätesi") == ["Your hand"]
    assert english_left("en", "Your hand") == []


class _Terminal(io.StringIO):
    """A stdin or stdout that says it is a terminal."""

    def isatty(self) -> bool:
        """Always: the command line then opens the full-screen game."""
        return True


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """``--lang`` sets the language of the test's thread: give the next test English."""
    yield
    i18n.set_language(i18n.DEFAULT)


def _screen_texts(app: Any) -> list[str]:
    """Every line of words the app's screen shows now: each widget's own text, border
    title and key bar entry."""
    from textual.widget import Widget
    from textual.widgets._footer import FooterKey

    texts: list[str] = []
    for widget in app.screen.query(Widget):
        if not widget.display or not widget.region.area:
            continue
        texts.append(str(widget.border_title or ""))
        if isinstance(widget, FooterKey):
            texts.append(widget.description)
        visual = getattr(widget, "visual", None)
        if visual is not None:
            texts.append(str(visual))
    return [t for t in texts if t.strip()]


def visible(app: Any) -> list[Any]:
    """The widgets of the app's screen that are shown and take room."""
    from textual.widget import Widget

    return [w for w in app.screen.query(Widget) if w.display and w.region.area]


def reachable(widget: Any, screen: Any) -> bool:
    """True when ``widget`` is on the screen, or below it inside a column that scrolls
    (itself on the screen) and within the screen's width: scrolling reaches it."""
    if screen.contains_region(widget.region):
        return True
    across = widget.region.x >= screen.x and widget.region.right <= screen.right
    return across and any(getattr(a, "allow_vertical_scroll", False)
                          and screen.contains_region(a.region) for a in widget.ancestors)


def _headless(shown: list[str]) -> Any:
    """A stand-in for :func:`casino.tui.app.run_app`: the same app, run headless at
    :data:`SIZE` until it waits for the person; what it shows goes into ``shown``."""
    from casino.tui.app import CasinoApp
    from tests.test_play_tui import settle

    def run_app(session: GameSession, new_game: Any, *, pause: float = 0.0,
                lesson: bool = False) -> GameSession:
        app = CasinoApp(session, new_game, pause=0, lesson=lesson)

        async def main() -> None:
            async with app.run_test(size=SIZE) as pilot:
                await settle(app, pilot)
                for widget in visible(app):
                    assert reachable(widget, app.screen.region), (widget, widget.region)
                shown.extend(_screen_texts(app))

        asyncio.run(main())
        return session

    return run_app


def _full_screen(monkeypatch: pytest.MonkeyPatch, *args: str) -> list[str]:
    """``casino ARGS`` as on a terminal: what its game screen shows."""
    import sys

    import casino.cli
    import casino.tui.app

    shown: list[str] = []
    monkeypatch.setattr(casino.tui.app, "run_app", _headless(shown))
    terminal = type("Sys", (), {"stdout": _Terminal(), "stdin": _Terminal(),
                                "stderr": sys.stderr, "argv": sys.argv, "exit": sys.exit})
    monkeypatch.setattr(casino.cli, "sys", terminal)
    code, out, err = run(*args)
    assert code == 0, (out, err)
    assert shown, "the full-screen game was not opened"
    return shown


@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
def test_casino_play_lang_opens_the_game_screen_in_the_language(
        monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    seen = _full_screen(monkeypatch, "play", "--lang", lang, "--seed", "7", "--level",
                         "beginner", "--no-save", "--pause", "0")
    text = "\n".join(seen)
    for words in GAME_WORDS[lang]:
        assert words in text, (words, seen)
    assert english_left(lang, text) == [], seen


@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
def test_casino_learn_kasino_lang_opens_the_lesson_in_the_language(
        monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    seen = _full_screen(monkeypatch, "learn", "--rules", "kasino", "--lang", lang,
                         "--pause", "0")
    text = "\n".join(seen)
    assert any(t.startswith(LESSON_WORDS[lang]) for t in seen), seen
    for words in GAME_WORDS[lang]:
        assert words in text, (words, seen)
    assert english_left(lang, text) == [], seen


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Näin pelaat", "1-9 tai ←/→ ja sitten Enter: valitse kätesi kortti",
            "Peli tallentuu jokaisen siirron jälkeen")),
    ("sv", ("Så spelar du", "1-9 eller ←/→ och sedan Enter: välj ett kort på handen",
            "Partiet sparas efter varje drag")),
    ("en", ("How to play", "1-9 or ←/→ then Enter: pick a card of your hand",
            "The game is saved after every move")),
])
def test_the_rules_screens_keys_in_the_language(lang: str, words: tuple[str, ...]) -> None:
    """The F1 screen's list of keys, its heading and the note on saving are translated;
    keys a caller gives that no catalog knows (the replay viewer's) stay as given."""
    from casino.tui.screens import RulesScreen

    with i18n.using(lang):
        screen = RulesScreen("Rules", ["a line"], saving=True)
        other = RulesScreen("Rules", [], keys=["x: a viewer's key"], keys_title="Keys")
    text = "\n".join([screen.keys_title, *screen.keys])
    for word in words:
        assert word in text, (word, text)
    assert (other.keys, other.keys_title) == (["x: a viewer's key"], "Keys")


@pytest.mark.parametrize(("lang", "title", "totals"), [
    ("fi", "Kierros 1 päättyi", "Yhteensä: "),
    ("sv", "Omgång 1 är slut", "Totalt: "),
    ("en", "Round 1 is over", "Totals: "),
])
def test_the_round_over_dialogs_title_and_totals_in_the_language(
        tmp_path: Path, lang: str, title: str, totals: str) -> None:
    from casino.tui.app import CasinoApp
    from casino.tui.screens import RoundOverScreen
    from tests.test_play_tui import settle
    from tests.tui_helpers import beginner_session, play_on

    seen: list[Any] = []

    async def main() -> None:
        session = play_on(beginner_session(tmp_path / "g.rec", seed=2), to="round")
        app = CasinoApp(session, None, pause=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert isinstance(app.screen, RoundOverScreen)
            seen.extend([app.screen.title_text, *app.screen.lines])

    with i18n.using(lang):
        asyncio.run(main())
    assert seen[0] == title
    assert any(line.startswith(totals) for line in seen[1:]), seen


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("ja 12 muuta siirtoa", "ja 1 muu vaihtoehto",
            "ja 3 muuta pelitapaa löydetty, ja muitakin on", "ja muita vaihtoehtoja")),
    ("sv", ("och 12 drag till", "och 1 alternativ till",
            "och 3 spelsätt till hittade, och det finns fler", "och andra alternativ")),
    ("en", ("and 12 more moves", "and 1 more option", "and 3 more plays found, and others",
            "and other options")),
])
def test_what_a_short_list_leaves_out_in_the_language(lang: str,
                                                       words: tuple[str, ...]) -> None:
    """The note under a capped list of moves or options (the plain game's and the
    options box's): its count and its noun in the language."""
    from casino.words.shortlist import Shortlist, rest_words

    with i18n.using(lang):
        said = (rest_words(Shortlist((), 12, True), "move"),
                rest_words(Shortlist((), 1, True), "option"),
                rest_words(Shortlist((), 3, False)),
                rest_words(Shortlist((), 0, False), "option"))
    assert said == words
