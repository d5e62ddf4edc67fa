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
from tests.tui_helpers import beginner_session, play_on

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
    "fi": ("  Teet 6:n rakennelman: 5♠ + A♠.\n", "  Tietokone ottaa kortilla 3♥: 3♦.\n",
           "  Otat kortilla 6♣: 6:n rakennelma (5♠ + A♠).\n"),
    "sv": ("  Du gör ett bygge på 6: 5♠ + A♠.\n", "  Datorn tar 3♦ med 3♥.\n",
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
    # The computer is named in the language (the record keeps "Computer").
    moves = [line for line in log.splitlines() if line.startswith("  ")]
    computer = {"fi": "Tietokone", "sv": "Datorn"}[lang]
    assert len(moves) >= 4 and any(line.startswith(f"  {computer} ") for line in moves)
    assert "Computer" not in out
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
    for word in ("Opastus — Pari", "Opittu: ei vielä mitään (lajeista mökki, pari",
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
    ("fi", ("Pöytä", "Kätesi", "Pisteet", "▶ Vuorosi: ", "Vihje", "Lopeta", "pino 0",
            "vastustaja", "Kierros 1 · jako 1/", "pakassa", "viimeinen otto")),
    ("sv", ("Bordet", "Din hand", "Poäng", "▶ Din tur: ", "Tips", "Avsluta", "hög 0",
            "motpart", "Omgång 1 · giv 1/", "talong", "sista sticket")),
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
    from casino.tui.widgets import SeatPanel
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
            # The seats' boxes, the score and the game's panel: their words too; the
            # seats' and the score's lines within their boxes (the game's panel wraps).
            for box in [*app.screen.query(SeatPanel), app.screen.query_one("#score", Static),
                        app.screen.query_one("#game-info", Static)]:
                inside = str(box.visual)
                panels.append(inside + "\n" + str(box.border_subtitle or ""))
                if box.id == "game-info":
                    continue
                for line in inside.splitlines():
                    assert len(line) <= box.content_region.width, (line, box)

    panels: list[str] = []
    with i18n.using(lang):
        asyncio.run(main())
    for word in words:
        assert any(word in text for text in seen + panels), word
    shown = "\n".join(panels)
    for english in ("pile ", "in hand", "dealer", "opponent", "last capture", "stock ",
                    "deal ", "score", "Round"):
        assert english not in shown, (english, shown)


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
            screen = app.screen.region
            for widget in app.screen.query(Widget):
                if widget.display and widget.region.area:
                    assert widget.region.right <= 80, widget
            # The scoring scrolls, the buttons stay whole on the screen (at 24 rows they
            # fell below it, in every language).
            for button in app.screen.query(Button):
                labels.append(str(button.label))
                assert len(str(button.label)) <= button.content_region.width, button.label
                assert screen.contains_region(button.region), (button.label, button.region)

    with i18n.using(lang):
        asyncio.run(main())
    for word in words:
        assert word in labels, (word, labels)


# ----------------------------------------------------------------------
# The players' default names, the rules screen's keys, the replay viewer


@pytest.mark.parametrize(("lang", "you", "computer"), [
    ("fi", "Sinä", "Tietokone"), ("sv", "Du", "Datorn"), ("en", "You", "Computer")])
def test_default_names_are_shown_in_the_language_and_kept_in_english(
        tmp_path: Path, lang: str, you: str, computer: str) -> None:
    """You and Computer are shown translated (the state lines, the start screen's list
    of saved games), while the record keeps the names it was given, in English."""
    from casino.engine.record import load_record
    from casino.play.session import saved_games

    path = tmp_path / "g.rec"
    out = io.StringIO()
    with i18n.using(lang):  # the moves are told in the language as they are played
        session = play_on(beginner_session(path, seed=5), to="round")
        assert session.shown_names == (you, computer)
        run_plain(session, None, stdin=io.StringIO("scores\nquit\ny\n"), stdout=out,
                  pause=0)
        listed = saved_games(tmp_path)[0].words()
    assert f"{computer} " in out.getvalue() and f"{you} " in out.getvalue()
    assert f"{you} vs {computer}" in listed if lang == "en" else f" {computer} (" in listed
    assert load_record(path).names == ("You", "Computer")
    if lang != "en":
        assert "Computer" not in out.getvalue() and "Computer" not in listed


def test_a_name_a_person_chose_is_shown_as_it_is() -> None:
    """Default names (a web table's numbered computers too) are said in the language; a
    name a person chose, even one that starts like a default, is not."""
    from casino.play.names import shown_name

    with i18n.using("fi"):
        assert [shown_name(n) for n in ("Ann", "You", "Player 3", "Left", "Computer 2",
                                        "Computer Bob", "Player")] \
            == ["Ann", "Sinä", "Pelaaja 3", "Vasen", "Tietokone 2", "Computer Bob", "Player"]


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("fi", "Pakassa: 1 kortti.", "Pakassa: 12 korttia."),
    ("sv", "Talongen: 1 kort.", "Talongen: 12 kort."),
    ("en", "Stock: 1 card.", "Stock: 12 cards."),
])
def test_the_stock_is_counted_in_the_singular_for_one_card(lang: str, one: str,
                                                           many: str) -> None:
    from casino.i18n import ngettext

    with i18n.using(lang):
        said = [ngettext("Stock: %(n)s card.", "Stock: %(n)s cards.", n) % {"n": n}
                for n in (1, 12)]
    assert said == [one, many]


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Näin pelaat", "Harmaita kortteja ei voi nyt pelata", "Säännöt: ",
            "Sulje (Esc)")),
    ("sv", ("Så spelar du", "Gråa kort kan inte spelas nu", "Regler: ", "Stäng (Esc)")),
])
def test_the_rules_screen_s_keys_at_80_by_24_in_the_language(
        tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    """F1 in the game: the list of keys translated, the screen within 80 columns and
    its button whole on the screen."""
    import asyncio

    from textual.widget import Widget
    from textual.widgets import Button, Static

    from casino.tui.app import CasinoApp
    from casino.tui.screens import RulesScreen
    from tests.test_play_tui import settle

    seen: list[str] = []

    async def main() -> None:
        app = CasinoApp(beginner_session(tmp_path / "g.rec", seed=11), None, pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            screen = app.screen.region
            for widget in app.screen.query(Widget):
                if widget.display and widget.region.area:
                    assert widget.region.right <= 80, widget
            for static in app.screen.query(Static):
                seen.append(str(static.visual))
            for button in app.screen.query(Button):
                seen.append(str(button.label))
                assert screen.contains_region(button.region), button.label

    with i18n.using(lang):
        asyncio.run(main())
    text = "\n".join(seen)
    for word in words:
        assert word in text, word
    assert "How to play" not in seen  # the heading of the keys
    for english in ("Greyed cards", "The game is saved after every move"):
        assert english not in text, english


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Sinä", "Tietokone", "Kierros 1/", "jako 1/", "vaihe 1/", "Taakse", "Lopeta",
            "Pöytä · ", "Kierros 1: ")),
    ("sv", ("Du", "Datorn", "Omgång 1 av", "giv 1 av", "steg 1 av", "Bakåt", "Avsluta",
            "Bordet · ", "Omgång 1: ")),
])
def test_the_replay_viewer_at_80_by_24_in_the_language(
        tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    """``casino replay`` on a terminal: the viewer's bar, seats, table, steps and keys
    in the language, the default names shown translated, nothing past the screen."""
    import asyncio

    from textual.widget import Widget
    from textual.widgets import Static
    from textual.widgets._footer import FooterKey

    from casino.engine.record import load_record
    from casino.tui.viewer import ViewerApp, record_viewer

    path = tmp_path / "g.rec"
    play_on(beginner_session(path, seed=5), to="round")
    seen: list[str] = []

    async def main() -> None:
        app = ViewerApp(record_viewer(load_record(path)))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for widget in app.screen.query(Widget):
                if widget.display and widget.region.area:
                    assert widget.region.right <= 80, widget
                seen.append(str(widget.border_title or ""))
            seen.extend(str(s.visual) for s in app.screen.query(Static))
            seen.extend(key.description for key in app.screen.query(FooterKey))

    with i18n.using(lang):
        asyncio.run(main())
    text = "\n".join(seen)
    for word in words:
        assert word in text, (word, text)
    for english in ("Computer", "step 1 of", "Back"):
        assert english not in text, english


@pytest.mark.parametrize(("lang", "computer"), [("fi", "Tietokone"), ("sv", "Datorn")])
def test_the_computer_s_moves_are_told_in_the_language_in_the_worker_thread(
        tmp_path: Path, lang: str, computer: str) -> None:
    """The full-screen game has the computer choose in a worker thread, which starts
    with no context of its own: its moves must still be told in the language chosen
    (here, the computer's name as shown)."""
    import asyncio

    from casino.tui.app import CasinoApp
    from tests.test_play_tui import settle

    async def main() -> GameSession:
        session = beginner_session(tmp_path / "g.rec", seed=11)
        while not session.computer_to_move:
            play_on(session, moves=1)
        app = CasinoApp(session, None, pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
        return session

    with i18n.using(lang):
        session = asyncio.run(main())
    told = [entry.words for entry in session.log if entry.seat != session.human]
    assert told and all(words.startswith(computer) for words in told), told


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("4 korttia kädessä", "vastustaja · jakaja", "pist.  kierr.",
            "viimeinen otto ei vielä", "Kierros 1 · jako 1/6", "pakassa 40 korttia",
            "voittoon 21 pistettä", "tietokone: aloittelija", "Tietokone")),
    ("sv", ("4 kort på handen", "motpart · givare", "poäng   omg.", "sista sticket ingen ännu",
            "Omgång 1 · giv 1/6", "talong 40 kort", "först till 21 vinner",
            "dator: nybörjare", "Datorn")),
])
def test_the_seats_score_and_game_panels_in_the_language(
        tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    """The full-screen game's panels at 80 x 24: the seats (cards in hand, role, dealer),
    the score box and its note, the game box; none of their English left, each frame's
    note within its box."""
    import asyncio

    from textual.widgets import Static

    from casino.tui.app import CasinoApp
    from tests.test_play_tui import settle

    shown: list[str] = []

    async def main() -> None:
        app = CasinoApp(beginner_session(tmp_path / "g.rec", seed=11), None, pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            for widget in app.screen.query(Static):
                if widget.id in ("score", "game-info") or "seat" in widget.classes:
                    note = str(widget.border_subtitle or "")
                    assert len(note) + 4 <= widget.outer_size.width, note
                    shown.extend([str(widget.visual), note, str(widget.border_title or "")])

    with i18n.using(lang):
        asyncio.run(main())
    text = "\n".join(shown)
    for word in words:
        assert word in text, (word, text)
    for english in ("in hand", "opponent", "dealer", "last capture", "none yet", "stock ",
                    "first to", "Computer", "computer:"):
        assert english not in text, english
