"""The move helper's words in Finnish and Swedish: its refusals of a table, a hand or a
choice that cannot be, and its account of a play (another seat's build, a sweep, the
card kept to take a build), in the language in force; English unchanged."""

from __future__ import annotations

import pytest

from casino.i18n import using
from casino.tools.helper import HelperError, analyse, helper_json, setup_from_text


def _refusal(lang: str, table: str, hand: str = "9d 8h") -> str:
    """The helper's refusal of ``table`` and ``hand`` in ``lang``."""
    with using(lang), pytest.raises(HelperError) as caught:
        analyse(setup_from_text("casino", table, hand), None)
    return str(caught.value)


def _words(lang: str, table: str, hand: str) -> list[str]:
    """The helper's plays of ``table`` and ``hand`` in words, in ``lang``."""
    with using(lang):
        return [o.words for o in analyse(setup_from_text("casino", table, hand), None).options]


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "table: say who owns the build [5d+3s]: add ':0' if it is yours, ':1' for the "
           "next player's"),
    ("fi", "pöytä: kerro, kuka omistaa rakennelman [5d+3s]: lisää ':0', jos se on sinun, "
           "':1', jos seuraavan pelaajan"),
    ("sv", "bord: säg vem som äger bygget [5d+3s]: lägg till ':0' om det är ditt, ':1' om "
           "det är nästa spelares"),
])
def test_a_build_without_an_owner_is_refused_in_the_language(lang: str, expected: str) -> None:
    """A build with no owner is refused in the reader's language, the notation kept."""
    assert _refusal(lang, "9c [5d+3s]") == expected


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("given 2 times", "played with one deck", "on the table", "in your hand")),
    ("fi", ("annettu 2 kertaa", "yhdellä pakalla", "pöydässä", "kädessäsi")),
    ("sv", ("anges 2 gånger", "en kortlek", "på bordet", "på handen")),
])
def test_a_card_given_twice_names_its_places_in_the_language(lang: str,
                                                             words: tuple[str, ...]) -> None:
    """A card given more often than the deck holds it: the count, the deck and the
    places it was given, all in the reader's language."""
    message = _refusal(lang, "9c", "9c 8h")
    for word in words:
        assert word in message


@pytest.mark.parametrize(("lang", "seat_build", "sweep"), [
    ("en", "8♥ takes seat 1's 8-build (5♦ + 3♠)", "(clearing the table)"),
    ("fi", "8♥ ottaa: paikan 1 8:n rakennelma (5♦ + 3♠)", "(pöytä tyhjenee)"),
    ("sv", "8♥ tar plats 1:s 8-bygge (5♦ + 3♠)", "(bordet töms)"),
])
def test_the_plays_are_told_in_the_language(lang: str, seat_build: str, sweep: str) -> None:
    """The plays' labels: another seat's build named by its seat, and a capture that
    clears the table said so, in the reader's language."""
    assert seat_build in _words(lang, "9c 4c 5h [5d+3s]=8:1", "9d 8h")
    assert any(w.endswith(sweep) for w in _words(lang, "9c", "9d 8h"))


@pytest.mark.parametrize(("lang", "kept"), [
    ("en", "; you keep the 8♣ to take it"),
    ("fi", "; sinulle jää 8♣, jolla otat sen"),
    ("sv", "; du behåller 8♣ för att ta det"),
])
def test_the_card_kept_for_a_build_is_named_in_the_language(lang: str, kept: str) -> None:
    """A build made: the card kept in hand to take it later, in the reader's language."""
    assert any(w.endswith(kept) for w in _words(lang, "5h", "3s 8c 2d"))


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "using: the table is empty"),
    ("fi", "käyttäen: pöytä on tyhjä"),
    ("sv", "med: bordet är tomt"),
])
def test_the_web_helpers_refusal_is_in_the_language(lang: str, expected: str) -> None:
    """The JSON form the web's helper page asks with is refused in its language."""
    with using(lang), pytest.raises(HelperError, match=expected):
        helper_json({"rules": "casino", "table": [], "hand": ["9d"], "card": "9d",
                     "using": [0], "level": None})


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "hand: a card must be text such as 'Td', not int"),
    ("fi", "hand: kortin pitää olla tekstiä, kuten 'Td', ei int"),
    ("sv", "hand: ett kort måste vara text som 'Td', inte int"),
])
def test_a_card_that_is_not_text_is_refused_in_the_language(lang: str, expected: str) -> None:
    """A card given as a number in the JSON request: the engine's refusal of it, in the
    language, after the request's key (``hand``, a key of the JSON, as sent)."""
    with using(lang), pytest.raises(HelperError) as caught:
        helper_json({"rules": "casino", "table": [], "hand": [5], "level": None})
    assert str(caught.value) == expected
