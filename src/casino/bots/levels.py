"""Levels for players, mapped onto the ladder with limits that keep play snappy.

The weaker levels are the rule-based bots rather than noisy strong ones, so that
they make the mistakes people make (grabbing points now, missing what the
table leaves) instead of random ones. The oracle bots, which see every card,
are never offered here.
"""

from __future__ import annotations

from dataclasses import dataclass

from casino.bots.base import Bot, Limit


@dataclass(frozen=True)
class Level:
    """A player-facing level: which bot, with which limit, and a line for the menu."""

    name: str
    bot: str
    limit: Limit
    blurb: str


LEVELS: dict[str, Level] = {
    "beginner": Level("beginner", "greedy", Limit(),
                      "takes the most it can right now, and plans nothing"),
    "easy": Level("easy", "careful", Limit(),
                  "a sensible club player: guards its Aces and casinos, avoids leaving sweeps"),
    # medium and hard are the same bot; what separates them is how many guesses at
    # the hidden hand it weighs. Samples are counted, not timed (the 0.5 s is a cap
    # that only a long last-deal solve reaches), so a level plays alike on any
    # machine. (pimc with 12 samples, the old hard, was too close to pimc with 30
    # to tell apart in 1,000 games: research/bots-log.md, "The player levels".)
    "medium": Level("medium", "expert", Limit(iterations=1, seconds=0.5),
                    "counts every card and plays the last deal perfectly, "
                    "but bets everything on one guess at your hand"),
    "hard": Level("hard", "expert", Limit(iterations=6, seconds=0.5),
                  "the same card counter, weighing six guesses at your hand "
                  "before each move"),
    # The issue bounds the expert level's think time (median < 0.3 s, p95 < 1 s):
    # pimc stops at its deadline, so 0.8 s keeps the p95 under the bound.
    "expert": Level("expert", "pimc", Limit(iterations=30, seconds=0.8),
                    "searches thirty sampled deals four moves ahead, "
                    "the last deal to its end"),
}


def make_level(level: str, seed: int | None = None) -> tuple[Bot, Limit]:
    """The bot and limit of a player level; ValueError naming the levels otherwise."""
    from casino.bots import make_bot

    try:
        lv = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; the levels are "
                         f"{', '.join(LEVELS)}") from None
    return make_bot(lv.bot, seed), lv.limit
