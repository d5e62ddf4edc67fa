"""Computer players: one protocol (:class:`Bot`), a ladder of strengths, and levels.

``make_bot(name, seed=...)`` builds a bot by its ladder name; ``BOTS`` lists them.
"""

from __future__ import annotations

from collections.abc import Callable

from casino.bots.base import Bot, Limit
from casino.bots.careful import CarefulBot
from casino.bots.expert import ExpertBot
from casino.bots.greedy import GreedyBot
from casino.bots.ismcts import IsmctsBot, IsmctsOracle
from casino.bots.pimc import PimcBot, PimcOracle
from casino.bots.random_bot import RandomBot

#: Ladder name -> constructor taking a seed.
BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "careful": CarefulBot,
    "expert": ExpertBot,
    "pimc": PimcBot,
    "pimc-oracle": PimcOracle,
    "ismcts": IsmctsBot,
    "ismcts-oracle": IsmctsOracle,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """The bot called ``name`` on the ladder; ValueError naming the known ones otherwise."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}") from None
    return factory(seed)


__all__ = ["BOTS", "Bot", "Limit", "RandomBot", "make_bot"]
