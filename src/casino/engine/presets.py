"""Each ruleset preset named once: its name, titles, words and arranged deal.

Every other module reads a preset's name and what is keyed by it from :data:`PRESETS`
(or the constants below) instead of writing the name out or keeping a table of its
own, so that a preset's title or word is changed in one place. The titles are English,
marked for translation (``pN_``): whoever shows one translates it then
(:meth:`Preset.shown_title`, :meth:`Preset.shown_short`; the guide's title in
:mod:`casino.words.guide`).
``tests/test_preset_names.py`` fails on a quoted preset name anywhere else in
``src/casino`` outside a short allowlist. The rules themselves are in
:mod:`casino.engine.rules`; this module imports nothing but :mod:`casino.i18n` (the
standard library's gettext), so that the command line can
list the presets without loading the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from casino.i18n import pgettext, pN_


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
    round_word: str = pN_("unit", "round")
    #: What a sweep is called where its scoring is used (Tablić's tabla).
    sweep_word: str = "sweep"

    def shown_title(self) -> str:
        """:attr:`title` in the language in force (``casino rules``, the start screen)."""
        return pgettext("ruleset title", self.title)

    def shown_short(self) -> str:
        """:attr:`short` in the language in force (the web's pages and menus)."""
        return pgettext("ruleset", self.short)


CASINO = Preset("casino",
                pN_("ruleset title", "Casino, house rules (Royal values, a played Ace is 14)"),
                pN_("ruleset", "Casino"), pN_("guide title", "Casino (the house rules)"),
                ("house", "default"), 113)
KRYPKASINO = Preset("krypkasino",
                    pN_("ruleset title",
                        "Krypkasino (Casino reversed: penalties, lower total wins)"),
                    pN_("ruleset", "Krypkasino"),
                    pN_("guide title", "Krypkasino (Casino reversed)"), ("krypa", "kryp"), 0,
                    round_word=pN_("unit", "game"))
KASINO = Preset("kasino", pN_("ruleset title", "Finnish Kasino"),
                pN_("ruleset", "Kasino (Finnish)"), pN_("guide title", "Finnish Kasino"),
                ("finnish", "finnish-kasino"), 3)
CLASSIC = Preset("classic", pN_("ruleset title", "Classic Casino"),
                 pN_("ruleset", "Classic Casino"), pN_("guide title", "Classic Casino"),
                 ("cassino",), 4571)
ROYAL = Preset("royal", pN_("ruleset title", "Royal Casino"), pN_("ruleset", "Royal Casino"),
               pN_("guide title", "Royal Casino"), ("royal-casino",), 113)
SPADE = Preset("spade", pN_("ruleset title", "Spade Casino"), pN_("ruleset", "Spade Casino"),
               pN_("guide title", "Spade Casino"), ("spade-casino", "spades"), 4571)
FACES_ALL = Preset("faces-all",
                   pN_("ruleset title", "Classic Casino, face cards take all of their rank"),
                   pN_("ruleset", "Casino, faces take all"),
                   pN_("guide title", "Classic Casino, face cards take all of their rank"),
                   ("faces_all", "facesall"), 4571)
MULLE = Preset("mulle", pN_("ruleset title", "Mulle (Swedish, two decks)"),
               pN_("ruleset", "Mulle"), pN_("guide title", "Mulle (Swedish, two decks)"),
               (), 62)
TABLIC = Preset("tablic", pN_("ruleset title", "Tablić"), pN_("ruleset", "Tablić"),
                pN_("guide title", "Tablić"), ("tablanette", "tabinet", "tablić"), 1,
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


def short_title(name: str) -> str:
    """The ruleset ``name``'s short title in the language in force (``Krypkasino``,
    ``Kasino (Finnish)``), for menus, pages and the game's panels; a custom ruleset's
    name where it has none."""
    known = named(name)
    return known.shown_short() if known else name


def for_scoring(scoring: str) -> Preset:
    """The preset whose scoring scheme ``scoring`` is: each scoring kind is named for the
    preset that brought it (``Rules.scoring``), so a ruleset's words follow its scoring
    even when other rules are changed; the house preset's for any other."""
    return PRESETS.get(scoring, CASINO)
