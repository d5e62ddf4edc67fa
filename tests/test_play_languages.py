"""The terminal game in Finnish and Swedish: ``casino play --lang fi|sv --plain`` and
``casino learn --lang fi`` speak the language chosen, and play as in English.

The English words are asserted by the other terminal tests (the suite speaks English:
tests/conftest.py); these check that the prompts, the help, the state lines and the
lesson's frame come from the catalogs, and that a whole game is played through them.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino import i18n
from casino.i18n import _
from casino.play.session import GameSession
from casino.tui.plain import help_lines, run_plain
from tests.cli_helpers import run
from tests.tui_helpers import beginner_session

#: Words each language shows in a game, and English words it must not show.
SHOWN = {
    "fi": ("Siirtosi> ", "Kätesi: ", "Pöytä: ", "Pisteet: ", "Peli päättyi: ",
           "Kierros 1, jako 1/6.", "Pakka: tyhjä, tämä on viimeinen jako."),
    "sv": ("Ditt drag> ", "Din hand: ", "Bordet: ", "Poäng: ", "Partiet är slut: ",
           "Omgång 1, giv 1 av 6.", "Talongen: tom, detta är sista given."),
}
ENGLISH = ("Your move> ", "Your hand: ", "Table: ", "Scores: ", "Game over: ", "Stock: ")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """``--lang`` sets the language of the test's thread: give the next test English."""
    yield
    i18n.set_language(i18n.DEFAULT)


class Autoplay(io.StringIO):
    """A stdin answering the translated prompts as they appear: the first playable
    card and its first option, Enter between rounds, no to the review."""

    def __init__(self, out: io.StringIO, session: GameSession) -> None:
        super().__init__()
        self.out = out
        self.session = session
        self.reads = 0

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        self.reads += 1
        assert self.reads < 3000, "the game does not end"
        prompt = self.out.getvalue().rsplit("\n", 1)[-1]
        s = self.session
        if prompt == _("Your move> "):
            hand = s.view.hand(s.human)
            return f"{next(i for i, c in enumerate(hand, start=1) if s.moves_with(c))}\n"
        if prompt.startswith(_("Choose %(span)s, or back> ").split("%")[0]):
            return "1\n"
        if prompt.startswith(_("Press Enter for the next %(unit)s> ").split("%")[0]):
            return "\n"
        if prompt == _("Review your play? [y/n] "):
            return _("n") + "\n"
        raise AssertionError(f"unexpected prompt {prompt!r}")


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_a_whole_plain_game_in_the_language(tmp_path: Path, lang: str) -> None:
    session = beginner_session(tmp_path / "g.rec", seed=7)
    out = io.StringIO()
    with i18n.using(lang):
        run_plain(session, None, stdin=Autoplay(out, session), stdout=out)
    text = out.getvalue()
    assert session.game_over
    for words in SHOWN[lang]:
        assert words in text, words
    for words in ENGLISH:
        assert words not in text, words


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_help_is_translated_and_fits_80_columns(lang: str) -> None:
    english = help_lines()
    with i18n.using(lang):
        lines = help_lines()
    assert len(lines) == len(english)
    assert not set(lines) & set(english[1:]), "an untranslated help line"
    assert max(len(line) for line in lines) <= 80


#: The log of the first moves of seed 7 (help, 1 1, 2 1), told in each language.
TOLD = {
    "fi": ("  Teet 6:n rakennelman: 5♠ + A♠.\n", "  Computer ottaa kortilla 3♥: 3♦.\n",
           "  Otat kortilla 6♣: 6:n rakennelma (5♠ + A♠).\n"),
    "sv": ("  Du gör ett bygge på 6: 5♠ + A♠.\n", "  Computer tar 3♦ med 3♥.\n",
           "  Du tar 6-bygget (5♠ + A♠) med 6♣.\n"),
}


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Näin pelaat:", "Kortilla ", "Valitse 1", "Lopetettu. Peliä ei tallennettu.")),
    ("sv", ("Så spelar du:", "Med ", "Välj 1", "Avslutat. Partiet sparades inte.")),
])
def test_casino_play_lang_plain_plays_moves(lang: str, words: tuple[str, ...]) -> None:
    code, out, err = run("play", "--lang", lang, "--plain", "--seed", "7", "--level",
                         "beginner", "--no-save", "--pause", "0",
                         input="help\n1\n1\n2\n1\nlog\nquit\n")
    assert code == 0, err
    for word in (*words, *SHOWN[lang][:3]):
        assert word in out, word
    # The moves were played: the log tells the person's two moves and the computer's, in
    # the language (the narration: casino.words.narrate).
    log = out.split("> log\n", 1)[1]
    for told in TOLD[lang]:
        assert told in log, told
    for word in ("You ", " takes ", " trails ", " makes a build"):
        assert word not in log, word
    for word in ENGLISH:
        assert word not in out, word


def test_an_unknown_answer_to_yes_or_no_is_asked_again_in_finnish(tmp_path: Path) -> None:
    session = beginner_session(tmp_path / "g.rec", seed=7)
    from casino.tui.plain import PlainGame

    out = io.StringIO()
    with i18n.using("fi"):
        game = PlainGame(session, stdin=io.StringIO("joo\nk\n"), stdout=out)
        assert game.ask_yes_no(_("Play again? [y/n] "))
    assert "Vastaa k tai e." in out.getvalue()


def test_casino_learn_kasino_lang_fi_starts_in_finnish() -> None:
    code, out, err = run("learn", "--rules", "kasino", "--lang", "fi", "--plain",
                         "--pause", "0", input="")
    assert code == 0, err
    for word in ("Opastus — Pari", "Opittu: ei vielä mitään (kaikkiaan mökki, pari",
                 "Lisää: rules (säännöt ja opas)", "Siirtosi> ", "Kätesi: "):
        assert word in out, word
    assert "Lesson — " not in out and "Your move> " not in out


def test_casino_learn_lang_sv_starts_in_swedish() -> None:
    code, out, err = run("learn", "--rules", "kasino", "--lang", "sv", "--plain",
                         "--pause", "0", input="")
    assert code == 0, err
    assert "Lektion — Par" in out and "Lärt: inget än (av tabbe, par" in out
    assert "Ditt drag> " in out


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Pöytä", "Kätesi", "Pisteet", "▶ Vuorosi: ", "Vihje", "Lopeta")),
    ("sv", ("Bordet", "Din hand", "Poäng", "▶ Din tur: ", "Tips", "Avsluta")),
])
def test_the_full_screen_game_at_80_by_24_in_the_language(
        tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    """The game screen's titles and turn bar are translated, and at 80 x 24 no widget
    reaches past the screen, no panel's title is longer than its border, and the
    one-line turn bar holds its whole text."""
    import asyncio

    from textual.widget import Widget
    from textual.widgets import Static
    from textual.widgets._footer import FooterKey

    from casino.tui.app import CasinoApp
    from tests.test_play_tui import settle

    seen: list[str] = []

    async def main() -> None:
        # Made in the language, as the command line makes it once --lang is read.
        app = CasinoApp(beginner_session(tmp_path / "g.rec", seed=11), None, pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen.region
            for widget in app.screen.query(Widget):
                if not widget.display or not widget.region.area:
                    continue
                assert screen.contains_region(widget.region), widget
                title = str(widget.border_title or "")
                seen.append(title)
                assert len(title) + 4 <= widget.outer_size.width, (title, widget)
            shown_keys = app.screen.query(FooterKey)
            assert shown_keys, "the key bar"
            seen.extend(key.description for key in shown_keys)
            bar = app.screen.query_one("#turn", Static)
            text = str(bar.visual)
            seen.append(text)
            assert len(text) <= bar.content_region.width, text

    with i18n.using(lang):
        asyncio.run(main())
    for word in words:
        assert any(word in text for text in seen), word


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Uusi peli", "Aloita peli (Ctrl+S)", "Opastus (Ctrl+L)", "Tietokone")),
    ("sv", ("Ett nytt parti", "Starta partiet (Ctrl+S)", "Lär dig spela (Ctrl+L)", "Datorn")),
])
def test_the_start_screen_at_80_by_24_in_the_language(
        tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    """The start screen's headings, labels and buttons are translated, and at 80 x 24
    none reaches past the screen's width (the screen scrolls down, not across), no
    button's label is cut and no label is wider than its column."""
    import asyncio

    from textual.widget import Widget
    from textual.widgets import Button, Label, Static

    from tests.test_play_start import start_app

    shown: list[str] = []

    async def main() -> None:
        app, _chosen = start_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for widget in app.screen.query(Widget):
                if widget.display and widget.region.area:
                    assert widget.region.right <= 80, widget
            for button in app.screen.query(Button):
                label = str(button.label)
                shown.append(label)
                assert len(label) <= button.content_region.width, label
            for label_widget in app.screen.query(Label):
                text = str(label_widget.visual)
                shown.append(text)
                assert len(text) <= label_widget.content_region.width, text
            shown.extend(str(w.visual) for w in app.screen.query(".start-heading").results(
                Static))

    with i18n.using(lang):
        asyncio.run(main())
    for word in words:
        assert any(word in text for text in shown), word


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Seuraava kierros (Enter)", "Lopeta (q)")),
    ("sv", ("Nästa omgång (Enter)", "Avsluta (q)")),
    ("en", ("Next round (Enter)", "Quit (q)")),
])
def test_the_round_over_dialog_at_80_by_24_in_the_language(
        tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    """The round's end: its buttons translated, none cut, nothing past the screen's
    width (the dialog is at most the screen's width: English was cut at 80 columns too)."""
    import asyncio

    from textual.widget import Widget
    from textual.widgets import Button

    from casino.tui.app import CasinoApp
    from casino.tui.screens import RoundOverScreen
    from tests.test_play_tui import settle
    from tests.tui_helpers import play_on

    labels: list[str] = []

    async def main() -> None:
        session = play_on(beginner_session(tmp_path / "g.rec", seed=2), to="round")
        app = CasinoApp(session, None, pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert isinstance(app.screen, RoundOverScreen)
            # Across only: at 24 rows the scoring's lines push the buttons below the
            # screen in every language (the dialog's height, not its words).
            for widget in app.screen.query(Widget):
                if widget.display and widget.region.area:
                    assert widget.region.right <= 80, widget
            for button in app.screen.query(Button):
                labels.append(str(button.label))
                assert len(str(button.label)) <= button.content_region.width, button.label

    with i18n.using(lang):
        asyncio.run(main())
    for word in words:
        assert word in labels, (word, labels)
