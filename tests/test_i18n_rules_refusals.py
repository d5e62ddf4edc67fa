"""The rules' refusals in Finnish and Swedish: a preset played with a wrong number of
players, a ruleset that is not one, an option's wrong value (as ``casino play --rules X
--option ...`` and the web's custom rules give them), in the language in force;
English unchanged, and the exception's type kept."""

from __future__ import annotations

from typing import Any

import pytest

from casino.engine.errors import RulesError
from casino.engine.rules import preset, rules_from_json
from casino.i18n import using


def _refusal(lang: str, name: str, **options: Any) -> str:
    """Why ``preset(name, **options)`` is refused, in ``lang``."""
    with using(lang), pytest.raises(RulesError) as caught:
        preset(name, **options)
    return str(caught.value)


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "casino is a game for 2 players, not 3"),
    ("fi", "casino on kahden pelaajan peli, ei 3 pelaajan"),
    ("sv", "casino är ett spel för 2 spelare, inte 3"),
])
def test_a_preset_with_the_wrong_players_is_refused_in_the_language(lang: str,
                                                                     expected: str) -> None:
    """A preset's number of players, refused in the reader's language; its name, a name
    typed, stays as it is."""
    assert _refusal(lang, "casino", players=3) == expected


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("unknown ruleset 'nosuch'; the presets are casino, krypkasino",)),
    ("fi", ("tuntematon säännöstö 'nosuch'", "casino, krypkasino")),
    ("sv", ("okänd regeluppsättning 'nosuch'", "casino, krypkasino")),
])
def test_an_unknown_ruleset_is_refused_in_the_language(lang: str,
                                                       words: tuple[str, ...]) -> None:
    """A ruleset that is not one: refused in the language, the presets' names listed."""
    message = _refusal(lang, "nosuch")
    for word in words:
        assert word in message


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "option forced_sweep must be true or false, not 'yes'"),
    ("fi", "asetuksen forced_sweep pitää olla true tai false, ei 'yes'"),
    ("sv", "inställningen forced_sweep måste vara true eller false, inte 'yes'"),
])
def test_an_options_wrong_value_is_refused_in_the_language(lang: str, expected: str) -> None:
    """An option's wrong value: the option's and the value's names as typed, the
    sentence in the language."""
    assert _refusal(lang, "casino", forced_sweep="yes") == expected


@pytest.mark.parametrize(("lang", "word"), [
    ("en", "partnerships need 4 players"),
    ("fi", "paripeliin tarvitaan 4 pelaajaa"),
    ("sv", "parspel kräver 4 spelare"),
])
def test_custom_rules_that_cannot_be_are_refused_in_the_language(lang: str, word: str) -> None:
    """Custom rules as the web sends them (an object with ``preset``) that contradict
    themselves are refused in the language."""
    with using(lang), pytest.raises(RulesError, match=word):
        rules_from_json({"preset": "classic", "players": 2, "partnerships": True})
