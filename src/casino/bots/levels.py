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

    ``seats_bot``: (players, bot) pairs: at a table of that many players the level
    plays that bot, with the same limit, because there the usual bot plays worse
    or slower than it should (research/bots-log.md, "The expert level at three and
    four players").
    """

    name: str
    bot: str
    limit: Limit
    blurb: str
    twin_samples: int | None = None
    seats_bot: tuple[tuple[int, str], ...] = ()

    def on(self, rules: Rules) -> tuple[str, Limit]:
        """The bot and limit this level plays with on a table of ``rules``."""
        bot = dict(self.seats_bot).get(rules.players, self.bot)
        if self.twin_samples is not None and rules.decks > 1:
            return bot, replace(self.limit, iterations=self.twin_samples)
        return bot, self.limit

    @property
    def varies(self) -> bool:
        """Whether the level plays another bot or limit on some tables."""
        return self.twin_samples is not None or bool(self.seats_bot)


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
    # With three or four players pimc's four plies on guessed hands cost a median
    # 0.24-0.6 s a move and were no better than hard's card counter (one-round
    # pairs: kasino 4 -0.84, classic 4 -0.15, kasino 3 +0.09, classic 3 +0.94 a
    # round), so there the level is the card counter weighing 30 guesses in the
    # last deal (research/bots-log.md, "The expert level at three and four players").
    "expert": Level("expert", "pimc", Limit(iterations=30, seconds=0.8),
                    "searches thirty sampled deals four moves ahead, "
                    "the last deal to its end (with three or four players: "
                    "the card counter, weighing thirty guesses)",
                    seats_bot=((3, "expert"), (4, "expert"))),
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
    """The bot of a level that plays otherwise on some tables: another number of
    samples with two decks (:attr:`Level.twin_samples`), another bot at some table
    sizes (:attr:`Level.seats_bot`).

    It reads the observed position's rules at every move, so one level's bot serves
    any table, as the web game and the arena use it."""

    def __init__(self, level: Level, seed: int | None = None) -> None:
        from casino.bots import make_bot

        super().__init__(seed)
        self.level = level
        names = dict.fromkeys((level.bot, *(b for _, b in level.seats_bot)))
        self.bots = {b: make_bot(b, seed) for b in names}
        self.name = self.bots[level.bot].name

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        # The seconds left are the caller's; the bot and samples are the table's.
        name, own = self.level.on(pos.rules)
        return self.bots[name].pick(pos, moves, replace(limit, iterations=own.iterations))


def level_bot(level: Level, seed: int | None = None) -> Bot:
    """The bot that plays ``level`` (its limit is ``level.limit``)."""
    from casino.bots import make_bot

    if not level.varies:
        return make_bot(level.bot, seed)
    return TablesBot(level, seed)
