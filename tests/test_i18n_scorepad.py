"""The score pad's refusals in Finnish and Swedish, said in the language in force when
they are made (``casino score`` and the web's score pad page show them as they are),
and in English as before; and a game session's refusals to resign."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from casino import i18n
from casino.engine.errors import IllegalMove
from casino.engine.match import Match
from casino.engine.rules import preset
from casino.play.session import HUMAN, GameSession
from casino.tools.scorepad import RoundEntry, ScorePad, ScorePadError, apply_action

EVERYTHING = {"Td": 0, "2s": 0, "As": 0, "Ac": 0, "Ah": 0, "Ad": 0}


def finished() -> ScorePad:
    """A game of classic casino that Ann won in its second round."""
    pad = ScorePad(preset("casino"), ("Ann", "Bob"))
    for _ in range(2):
        pad = pad.add_round(RoundEntry.make(cards=[40, 12], spades=[10, 3],
                                            takers=EVERYTHING, sweeps=[0] * 5))
    assert pad.winner == 0
    return pad


def refusal(make: Callable[[], object], lang: str) -> str:
    """The words of the refusal ``make`` meets, in ``lang``."""
    with i18n.using(lang), pytest.raises(ScorePadError) as err:
        make()
    return str(err.value)


def empty() -> ScorePad:
    """A fresh pad of classic casino."""
    return ScorePad(preset("casino"), ("Ann", "Bob"))


#: (what is refused, its words in English, in Finnish, in Swedish).
CASES: list[tuple[Callable[[], object], str, str, str]] = [
    (lambda: finished().add_round(RoundEntry.make(most_cards=0)),
     "the game is over: Ann won", "peli on päättynyt: Ann voitti",
     "partiet är slut: Ann vann"),
    (lambda: empty().undo(), "there is nothing to undo", "ei ole mitään peruttavaa",
     "det finns inget att ångra"),
    (lambda: empty().remove_round(4), "there is no round 5: the pad has no rounds yet",
     "kierrosta 5 ei ole: pistelistassa ei ole vielä kierroksia",
     "det finns ingen omgång 5: poängblocket har inga omgångar än"),
    (lambda: finished().remove_round(2), "there is no round 3: the pad has rounds 1 to 2",
     "kierrosta 3 ei ole: pistelistassa on kierrokset 1–2",
     "det finns ingen omgång 3: poängblocket har omgångarna 1 till 2"),
    (lambda: empty().add_round(RoundEntry.make(cards=[26, 26], spades=[7, 6],
                                               takers=EVERYTHING, mulles=[0])),
     "casino does not score mulles", "säännöillä casino mulleista ei saa pisteitä",
     "casino ger inga poäng för mullar"),
    (lambda: ScorePad(preset("casino"), ("Ann", "Bob", "Cid")),
     "casino here has 2 players, so give 2 names, not 3",
     "säännöillä casino pelaajia on tässä 2, joten anna 2 nimeä, ei 3",
     "casino har här 2 spelare, så ange 2 namn, inte 3"),
    (lambda: apply_action(empty(), {"op": "redo"}),
     "unknown action 'redo': add, replace, remove or undo",
     "tuntematon toiminto 'redo': add, replace, remove tai undo",
     "okänd åtgärd 'redo': add, replace, remove eller undo"),
    (lambda: ScorePad.from_json({"format": "casino-scorepad/1"}),
     "a score pad needs 'rules'", "pistelista tarvitsee kentän 'rules'",
     "ett poängblock behöver 'rules'"),
]


@pytest.mark.parametrize(("make", "en", "fi", "sv"), CASES)
def test_a_refusal_in_each_language(make: Callable[[], object], en: str, fi: str,
                                    sv: str) -> None:
    assert refusal(make, "fi") == fi
    assert refusal(make, "sv") == sv
    assert refusal(make, "en") == en


def test_a_seat_that_is_not_at_the_table_in_finnish() -> None:
    entry = RoundEntry.make(cards=[26, 26], spades=[7, 6], takers=EVERYTHING, sweeps=[5])
    words = refusal(lambda: empty().add_round(entry), "fi")
    assert words == "mökki: paikkaa 5 ei ole (paikat ovat 0–1)"
    assert refusal(lambda: empty().add_round(entry), "en") == (
        "a sweep: seat 5 does not exist (seats are 0 to 1)")


@pytest.mark.parametrize(("lang", "over", "nobody"), [
    ("fi", "peli on päättynyt", "tällä paikalla pelaa tietokone: kukaan ei voi luovuttaa"),
    ("sv", "partiet är slut", "datorn spelar på den här platsen: det finns ingen som kan "
     "ge upp"),
    ("en", "the game is over", "a computer plays this seat: there is nobody to resign"),
])
def test_the_session_s_refusals_to_resign_in_the_language(lang: str, over: str,
                                                          nobody: str) -> None:
    """A seat the computer plays cannot resign, nor anyone once the game is over."""
    game = GameSession(Match("casino", seed=8), [HUMAN, "beginner"])
    with i18n.using(lang):
        with pytest.raises(IllegalMove) as err:
            game.resign(1, "medium")
        assert str(err.value) == nobody
        assert game.resign(0, "medium")
        with pytest.raises(IllegalMove) as err:
            game.resign(0, "medium")
        assert str(err.value) == over
        with pytest.raises(IllegalMove) as err:
            game.next_round()
        assert str(err.value) == over
