# ruff: noqa: E501  (the pinned table reads one table a line)
"""Pins what each player level plays on every table, so that the levels can change
shape (issue 45, "Levels as data") without changing what anyone meets.

The table below was written from ``Level.on`` as it stood before the change, for every
preset at every number of players it allows, each for themselves and in partnerships,
with one deck and two, and with its own hand size and six cards a hand (the size that
picks the expert level's bot on Tablić). A change to a level's play changes this table
on purpose, in the same commit, with the research that moved it.
"""

from __future__ import annotations

import pytest

from casino.bots.base import Limit
from casino.bots.levels import LEVELS, level_bot
from casino.engine.errors import RulesError
from casino.engine.rules import PRESET_NAMES, Rules

#: (preset, players, partnerships, decks, cards a hand) -> what each level plays there,
#: weakest first: the bot, then its samples (``x``) and seconds (``s``) where it has them.
PINNED: dict[tuple[str, int, bool, int, int], tuple[str, ...]] = {
    ("casino", 2, False, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "judge 30x 0.8s"),
    ("casino", 2, False, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "expert 60x 0.8s"),
    ("casino", 2, False, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "judge 30x 0.8s"),
    ("casino", 2, False, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "expert 60x 0.8s"),
    ("krypkasino", 2, False, 1, 4): ("greedy", "hasty", "unwary", "careful", "fair-reply 24x 0.5s"),
    ("krypkasino", 2, False, 1, 6): ("greedy", "hasty", "unwary", "careful", "fair-reply 24x 0.5s"),
    ("krypkasino", 2, False, 2, 4): ("greedy", "hasty", "unwary", "careful", "fair-reply 24x 0.5s"),
    ("krypkasino", 2, False, 2, 6): ("greedy", "hasty", "unwary", "careful", "fair-reply 24x 0.5s"),
    ("kasino", 2, False, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "judge 30x 0.8s"),
    ("kasino", 2, False, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "expert 60x 0.8s"),
    ("kasino", 2, False, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "judge 30x 0.8s"),
    ("kasino", 2, False, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "expert 60x 0.8s"),
    ("kasino", 3, False, 1, 4): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("kasino", 3, False, 1, 6): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("kasino", 3, False, 2, 4): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("kasino", 3, False, 2, 6): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("kasino", 4, False, 1, 4): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("kasino", 4, False, 1, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("kasino", 4, False, 2, 4): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("kasino", 4, False, 2, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("kasino", 4, True, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("kasino", 4, True, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("kasino", 4, True, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("kasino", 4, True, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("classic", 2, False, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "judge 30x 0.8s"),
    ("classic", 2, False, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "expert 60x 0.8s"),
    ("classic", 2, False, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "judge 30x 0.8s"),
    ("classic", 2, False, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "expert 60x 0.8s"),
    ("classic", 3, False, 1, 4): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("classic", 3, False, 1, 6): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("classic", 3, False, 2, 4): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("classic", 3, False, 2, 6): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("classic", 4, False, 1, 4): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("classic", 4, False, 1, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("classic", 4, False, 2, 4): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("classic", 4, False, 2, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("classic", 4, True, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("classic", 4, True, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("classic", 4, True, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("classic", 4, True, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("royal", 2, False, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "judge 30x 0.8s"),
    ("royal", 2, False, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "expert 60x 0.8s"),
    ("royal", 2, False, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "judge 30x 0.8s"),
    ("royal", 2, False, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "expert 60x 0.8s"),
    ("royal", 3, False, 1, 4): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("royal", 3, False, 1, 6): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("royal", 3, False, 2, 4): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("royal", 3, False, 2, 6): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("royal", 4, False, 1, 4): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("royal", 4, False, 1, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("royal", 4, False, 2, 4): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("royal", 4, False, 2, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("royal", 4, True, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("royal", 4, True, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("royal", 4, True, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("royal", 4, True, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("spade", 2, False, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "judge 30x 0.8s"),
    ("spade", 2, False, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "expert 60x 0.8s"),
    ("spade", 2, False, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "judge 30x 0.8s"),
    ("spade", 2, False, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "expert 60x 0.8s"),
    ("spade", 3, False, 1, 4): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("spade", 3, False, 1, 6): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("spade", 3, False, 2, 4): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("spade", 3, False, 2, 6): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("spade", 4, False, 1, 4): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("spade", 4, False, 1, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("spade", 4, False, 2, 4): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("spade", 4, False, 2, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("spade", 4, True, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("spade", 4, True, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("spade", 4, True, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("spade", 4, True, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("faces-all", 2, False, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "judge 30x 0.8s"),
    ("faces-all", 2, False, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "expert 60x 0.8s"),
    ("faces-all", 2, False, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "judge 30x 0.8s"),
    ("faces-all", 2, False, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "expert 60x 0.8s"),
    ("faces-all", 3, False, 1, 4): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("faces-all", 3, False, 1, 6): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("faces-all", 3, False, 2, 4): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("faces-all", 3, False, 2, 6): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("faces-all", 4, False, 1, 4): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("faces-all", 4, False, 1, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("faces-all", 4, False, 2, 4): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("faces-all", 4, False, 2, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("faces-all", 4, True, 1, 4): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("faces-all", 4, True, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("faces-all", 4, True, 2, 4): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("faces-all", 4, True, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("mulle", 2, False, 1, 5): ("greedy", "heedless", "distracted", "closing", "judge 30x 0.8s"),
    ("mulle", 2, False, 1, 6): ("greedy", "heedless", "distracted", "closing", "expert 60x 0.8s"),
    ("mulle", 2, False, 2, 5): ("greedy", "heedless", "distracted", "closing", "judge 30x 0.8s"),
    ("mulle", 2, False, 2, 6): ("greedy", "heedless", "distracted", "closing", "expert 60x 0.8s"),
    ("mulle", 3, False, 1, 5): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("mulle", 3, False, 1, 6): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("mulle", 3, False, 2, 5): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("mulle", 3, False, 2, 6): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("mulle", 4, False, 1, 5): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("mulle", 4, False, 1, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("mulle", 4, False, 2, 5): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("mulle", 4, False, 2, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("mulle", 4, True, 1, 5): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("mulle", 4, True, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("mulle", 4, True, 2, 5): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("mulle", 4, True, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
    ("tablic", 2, False, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "expert 60x 0.8s"),
    ("tablic", 2, False, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "expert 60x 0.8s"),
    ("tablic", 3, False, 1, 6): ("greedy", "careful", "last-card 1x 0.5s", "expert 6x 0.5s", "pimc 30x 0.4s"),
    ("tablic", 3, False, 2, 6): ("greedy", "careful", "last-card 6x 0.5s", "expert 24x 0.5s", "pimc 30x 0.4s"),
    ("tablic", 4, False, 1, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("tablic", 4, False, 2, 6): ("oblivious", "dozy", "absent-minded", "glancing", "long-endgame 30x 0.8s"),
    ("tablic", 4, True, 1, 6): ("greedy", "careful", "expert 1x 0.5s", "expert 6x 0.5s", "long-endgame 30x 0.8s"),
    ("tablic", 4, True, 2, 6): ("greedy", "careful", "expert 6x 0.5s", "expert 24x 0.5s", "long-endgame 30x 0.8s"),
}


def shown(bot: str, limit: Limit) -> str:
    """A level's bot and limit as the table above writes them."""
    return " ".join([bot, *([f"{limit.iterations}x"] if limit.iterations is not None else []),
                     *([f"{limit.seconds}s"] if limit.seconds is not None else [])])


def tables() -> list[tuple[str, int, bool, int, int]]:
    """Every table the pin covers: each preset's allowed player counts, each for
    themselves and in partnerships, one and two decks, its hand size and six."""
    found = []
    for name in PRESET_NAMES:
        usual = Rules.preset(name).deal_size
        for players, partners in ((2, False), (3, False), (4, False), (4, True)):
            for decks in (1, 2):
                for deal in sorted({usual, 6}):
                    try:
                        Rules.preset(name, players=players, partnerships=partners,
                                     decks=decks, deal_size=deal)
                    except RulesError:
                        continue
                    found.append((name, players, partners, decks, deal))
    return found


def test_the_pin_covers_every_table_a_preset_allows() -> None:
    assert tables() == list(PINNED)


@pytest.mark.parametrize("table", list(PINNED))
def test_each_level_plays_on_each_table_what_it_played_before_levels_became_data(
        table: tuple[str, int, bool, int, int]) -> None:
    name, players, partners, decks, deal = table
    rules = Rules.preset(name, players=players, partnerships=partners, decks=decks,
                         deal_size=deal)
    assert tuple(shown(*lv.on(rules)) for lv in LEVELS.values()) == PINNED[table]


def test_each_levels_usual_bot_limit_and_bots_stay() -> None:
    """``bot`` and ``limit`` are what a level plays where nothing else applies (the web
    and terminal menus, ``make_level``); ``bots`` is what ``TablesBot`` builds, its
    usual one first; ``varies`` says whether a ``TablesBot`` is needed at all."""
    usual = {n: (lv.bot, lv.limit) for n, lv in LEVELS.items()}
    assert usual == {
        "beginner": ("greedy", Limit()),
        "easy": ("careful", Limit()),
        "medium": ("expert", Limit(iterations=1, seconds=0.5)),
        "hard": ("expert", Limit(iterations=6, seconds=0.5)),
        "expert": ("judge", Limit(iterations=30, seconds=0.8)),
    }
    bots = {n: (lv.bots[0], sorted(lv.bots), len(lv.bots)) for n, lv in LEVELS.items()}
    assert bots == {
        "beginner": ("greedy", ["greedy", "oblivious"], 2),
        "easy": ("careful", ["careful", "dozy", "hasty", "heedless"], 4),
        "medium": ("expert", ["absent-minded", "distracted", "expert", "last-card",
                              "unwary"], 5),
        "hard": ("expert", ["careful", "closing", "expert", "glancing"], 4),
        "expert": ("judge", ["expert", "fair-reply", "judge", "long-endgame", "pimc"], 5),
    }
    assert all(lv.varies for lv in LEVELS.values())
    assert all(level_bot(lv, seed=1).name == lv.bot for lv in LEVELS.values())
