"""Each ruleset preset named once: its name, titles, words and arranged deal.

Every other module reads a preset's name and what is keyed by it from :data:`PRESETS`
(or the constants below) instead of writing the name out or keeping a table of its
own, so that a preset's title or word is changed in one place.
``tests/test_preset_names.py`` fails on a quoted preset name anywhere else in
``src/casino`` outside a short allowlist. The rules themselves are in
:mod:`casino.engine.rules`; this module imports nothing, so that the command line can
list the presets without loading the engine.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    """What is keyed by one preset's name, so that no module keeps a table of its own."""

    #: The name people type (``casino play krypkasino``) and games are stored under.
    name: str
    #: The title of ``casino rules`` and of the terminal's menu of rulesets.
    title: str
    #: The short title of the web's pages and menus.
    short: str
    #: The title of the how-to-play guide.
    guide_title: str
    #: Other names people type for it, each turned into :attr:`name`.
    aliases: tuple[str, ...]
    #: Seed of ``Match(rules, seed=..., first_dealer=1)`` for the guided first game's
    #: arranged deal (``python -m casino.teach.lesson`` finds them again).
    lesson_seed: int
    #: What one scored cycle of deals is called: a game in Krypkasino, whose match is
    #: several games, a round elsewhere.
    round_word: str = "round"
    #: What a sweep is called where its scoring is used (Tablić's tabla).
    sweep_word: str = "sweep"


CASINO = Preset("casino", "Casino, house rules (Royal values, a played Ace is 14)",
                "Casino", "Casino (the house rules)", ("house", "default"), 113)
KRYPKASINO = Preset("krypkasino", "Krypkasino (Casino reversed: penalties, lower total wins)",
                    "Krypkasino", "Krypkasino (Casino reversed)", ("krypa", "kryp"), 0,
                    round_word="game")
KASINO = Preset("kasino", "Finnish Kasino", "Kasino (Finnish)", "Finnish Kasino",
                ("finnish", "finnish-kasino"), 3)
CLASSIC = Preset("classic", "Classic Casino", "Classic Casino", "Classic Casino",
                 ("cassino",), 4571)
ROYAL = Preset("royal", "Royal Casino", "Royal Casino", "Royal Casino",
               ("royal-casino",), 113)
SPADE = Preset("spade", "Spade Casino", "Spade Casino", "Spade Casino",
               ("spade-casino", "spades"), 4571)
FACES_ALL = Preset("faces-all", "Classic Casino, face cards take all of their rank",
                   "Casino, faces take all", "Classic Casino, face cards take all of their rank",
                   ("faces_all", "facesall"), 4571)
MULLE = Preset("mulle", "Mulle (Swedish, two decks)", "Mulle", "Mulle (Swedish, two decks)",
               (), 62)
TABLIC = Preset("tablic", "Tablić", "Tablić", "Tablić", ("tablanette", "tabinet", "tablić"), 1,
                sweep_word="tabla")

#: The presets by name, in the order menus and help list them.
PRESETS: dict[str, Preset] = {p.name: p for p in (
    CASINO, KRYPKASINO, KASINO, CLASSIC, ROYAL, SPADE, FACES_ALL, MULLE, TABLIC)}

#: The ruleset played where none is named: the house rules.
DEFAULT: Preset = CASINO

#: The presets' names, in :data:`PRESETS`' order.
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)


def named(name: str) -> Preset | None:
    """The preset called ``name``, or None for a name that is no preset (a custom
    ruleset's), so that callers fall back to the name itself."""
    return PRESETS.get(name)


def for_scoring(scoring: str) -> Preset:
    """The preset whose scoring scheme ``scoring`` is: each scoring kind is named for the
    preset that brought it (``Rules.scoring``), so a ruleset's words follow its scoring
    even when other rules are changed; the house preset's for any other."""
    return PRESETS.get(scoring, CASINO)
