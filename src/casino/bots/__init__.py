"""Computer players: one protocol (:class:`Bot`), a ladder of strengths, and levels.

``make_bot(name, seed=...)`` builds a bot by its ladder name; ``BOTS`` lists them.
A name ``level:NAME`` is the bot of that player level (:mod:`casino.bots.levels`),
so the arena can play the levels as players meet them.
"""

from __future__ import annotations

from collections.abc import Callable

from casino.bots.base import Bot, Limit
from casino.bots.careful import CarefulBot, variant
from casino.bots.counter import CounterBot
from casino.bots.expert import ExpertBot, LastCardBot, LongEndgameBot, OnePlyBot
from casino.bots.fair_reply import FairReplyBot
from casino.bots.greedy import GreedyBot
from casino.bots.ismcts import IsmctsBot, IsmctsOracle
from casino.bots.judge_bot import JudgeBot
from casino.bots.levels import LEVELS, Level
from casino.bots.pimc import PimcBot, PimcOracle
from casino.bots.random_bot import RandomBot
from casino.bots.searcher import SearcherBot

#: Ladder name -> constructor taking a seed. The club player's variants are ``careful``
#: configured (:data:`casino.bots.careful.VARIANTS`), each called by its own name.
BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "oblivious": variant("oblivious"),
    "dozy": variant("dozy"),
    "absent-minded": variant("absent-minded"),
    "glancing": variant("glancing"),
    "heedless": variant("heedless"),
    "hasty": variant("hasty"),
    "distracted": variant("distracted"),
    "unwary": variant("unwary"),
    "careful": CarefulBot,
    "closing": variant("closing"),
    "expert": ExpertBot,
    "one-ply": OnePlyBot,
    "last-card": LastCardBot,
    "long-endgame": LongEndgameBot,
    "fair-reply": FairReplyBot,
    "pimc": PimcBot,
    "pimc-oracle": PimcOracle,
    "judge": JudgeBot,
    "ismcts": IsmctsBot,
    "ismcts-oracle": IsmctsOracle,
    # The outside yardstick (docs/bots.md): benchmark opponents from a published
    # description, never player levels.
    "counter": CounterBot,
    "searcher": SearcherBot,
}


#: The prefix of a player level's name among bot names (``level:hard``).
LEVEL_PREFIX = "level:"


def level_of(name: str) -> Level | None:
    """The player level that ``level:NAME`` stands for; None for any other name.
    ValueError naming the levels when NAME is not one."""
    if not name.startswith(LEVEL_PREFIX):
        return None
    level = LEVELS.get(name.removeprefix(LEVEL_PREFIX))
    if level is None:
        raise ValueError(f"unknown level {name!r}; the levels are "
                         f"{', '.join(LEVEL_PREFIX + lv for lv in LEVELS)}")
    return level


def check_name(name: str) -> None:
    """ValueError, naming what is known, unless ``name`` is a bot or ``level:NAME``."""
    if level_of(name) is None and name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}, "
                         f"or {LEVEL_PREFIX}NAME for a player level")


def make_bot(name: str, seed: int | None = None) -> Bot:
    """The bot called ``name`` on the ladder, or the bot of the level ``level:NAME``;
    ValueError naming the known ones otherwise."""
    check_name(name)
    level = level_of(name)
    if level is not None:
        from casino.bots.levels import level_bot

        return level_bot(level, seed)
    return BOTS[name](seed)


__all__ = ["BOTS", "LEVEL_PREFIX", "Bot", "Limit", "RandomBot", "check_name", "level_of",
           "make_bot"]
