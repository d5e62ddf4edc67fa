"""Levels for players, mapped onto the ladder with limits that keep play snappy.

The weaker levels are the rule-based bots rather than noisy strong ones, so that
they make the mistakes people make (grabbing points now, missing what the
table leaves) instead of random ones. The oracle bots, which see every card,
are never offered here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from casino.bots.base import Bot, Limit
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.rules import Rules


@dataclass(frozen=True)
class Level:
    """A player-facing level: which bot, with which limit, and a line for the menu.

    ``twin_samples``: with two decks shuffled together (Krypkasino, Mulle) the bot
    weighs this many samples instead of ``limit.iterations`` (the seconds stay),
    because there the usual count does not keep the levels in order
    (research/bots-log.md, "Two decks").
    """

    name: str
    bot: str
    limit: Limit
    blurb: str
    twin_samples: int | None = None

    def on(self, rules: Rules) -> tuple[str, Limit]:
        """The bot and limit this level plays with on a table of ``rules``."""
        if self.twin_samples is not None and rules.decks > 1:
            return self.bot, replace(self.limit, iterations=self.twin_samples)
        return self.bot, self.limit


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
    # With two decks a guessed hand is a poorer likeness of the real one (twice the
    # unseen cards, and a mulle or a double sweep hangs on one identical twin):
    # medium on one guess lost to easy there, so both weigh more guesses.
    "medium": Level("medium", "expert", Limit(iterations=1, seconds=0.5),
                    "counts every card and plays the last deal perfectly, "
                    "but bets everything on one guess at your hand "
                    "(six guesses with two decks)",
                    twin_samples=6),
    "hard": Level("hard", "expert", Limit(iterations=6, seconds=0.5),
                  "the same card counter, weighing six guesses at your hand "
                  "before each move (24 with two decks)",
                  twin_samples=24),
    # The issue bounds the expert level's think time (median < 0.3 s, p95 < 1 s):
    # pimc stops at its deadline, so 0.8 s keeps the p95 under the bound.
    "expert": Level("expert", "pimc", Limit(iterations=30, seconds=0.8),
                    "searches thirty sampled deals four moves ahead, "
                    "the last deal to its end"),
}


def make_level(level: str, seed: int | None = None) -> tuple[Bot, Limit]:
    """The bot and limit of a player level; ValueError naming the levels otherwise."""
    try:
        lv = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; the levels are "
                         f"{', '.join(LEVELS)}") from None
    return level_bot(lv, seed), lv.limit


class TablesBot(Bot):
    """The bot of a level that weighs another number of samples with two decks
    (:attr:`Level.twin_samples`).

    It reads the observed position's rules at every move, so one level's bot serves
    any table, as the web game and the arena use it."""

    def __init__(self, level: Level, seed: int | None = None) -> None:
        from casino.bots import make_bot

        super().__init__(seed)
        self.level = level
        self.bot = make_bot(level.bot, seed)
        self.name = self.bot.name

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        # The seconds left are the caller's; the samples are the table's.
        _, own = self.level.on(pos.rules)
        return self.bot.pick(pos, moves, replace(limit, iterations=own.iterations))


def level_bot(level: Level, seed: int | None = None) -> Bot:
    """The bot that plays ``level`` (its limit is ``level.limit``)."""
    from casino.bots import make_bot

    if level.twin_samples is None:
        return make_bot(level.bot, seed)
    return TablesBot(level, seed)
