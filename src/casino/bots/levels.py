"""Levels for players, mapped onto the ladder with limits that keep play snappy.

The weaker levels are the rule-based bots rather than noisy strong ones, so that
they make the mistakes people make (grabbing points now, missing what the
table leaves) instead of random ones; the ones that err by chance err as people
do: Mulle's ``medium`` (``distracted``) misses what it leaves on some moves, and
with four players each for themselves the levels below ``expert`` overlook some
of their captures. The oracle bots, which see every card, are never offered here.

A level is a table of rows (:class:`Row`), read top to bottom: on a table of some
rules the first row whose condition holds says the bot and limit, so which choice
wins where two could apply is the order of the rows. The conditions are the named
predicates on :class:`~casino.engine.rules.Rules` below. Each row of :data:`LEVELS`
says in a line why it is there and names the section of research/bots-log.md
("bots-log") with the measurements behind it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from casino.bots.base import Bot, Limit
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.rules import Rules
from casino.i18n import pgettext, pN_

#: A condition on the rules of a table: whether a row of a level applies there.
Condition = Callable[[Rules], bool]


def anywhere(rules: Rules) -> bool:
    """Every table: the last row of each level, its usual bot and limit, played where
    no row above it applies."""
    return True


def two_with_forced_sweeps(rules: Rules) -> bool:
    """Two players where a card that can sweep the table must (Krypkasino): there the
    hidden hand decides the most."""
    return rules.forced_sweep and rules.players == 2


def two_with_mulles(rules: Rules) -> bool:
    """Two players where a card taking its identical twin alone scores a mulle (Mulle
    with two players)."""
    return bool(rules.mulle_points) and rules.players == 2


def four_each_for_themselves(rules: Rules) -> bool:
    """Four players each for themselves (Kasino or Mulle with four; Classic with four
    plays in partnerships): each seat plays a quarter of the moves, and most of a
    round's result is the deal."""
    return rules.players == 4 and not rules.partnerships


def two_decks(rules: Rules) -> bool:
    """Two decks shuffled together (Krypkasino, Mulle, any table with ``decks: 2``):
    twice the unseen cards, and a mulle or a double sweep hangs on one twin."""
    return rules.decks > 1


def players(n: int) -> Condition:
    """Tables of ``n`` players, in partnerships or not (three: Classic or Kasino with
    three; four: with four)."""
    def holds(rules: Rules) -> bool:
        """Whether the table seats that many players."""
        return rules.players == n
    holds.__name__ = f"players({n})"
    return holds


def cards_a_hand(n: int) -> Condition:
    """Tables whose later deals give each player ``n`` cards (six: Tablić)."""
    def holds(rules: Rules) -> bool:
        """Whether a deal gives each player that many cards."""
        return rules.deal_size == n
    holds.__name__ = f"cards_a_hand({n})"
    return holds


def all_of(*conditions: Condition) -> Condition:
    """Tables where every one of ``conditions`` holds (three players with two decks)."""
    def holds(rules: Rules) -> bool:
        """Whether every condition holds on the table."""
        return all(c(rules) for c in conditions)
    holds.__name__ = " and ".join(c.__name__ for c in conditions)
    return holds


@dataclass(frozen=True)
class Row:
    """One row of a level: on a table where ``when`` holds (and no row above it does),
    the level plays ``bot`` with ``limit``."""

    when: Condition
    bot: str
    limit: Limit = field(default_factory=Limit)


@dataclass(frozen=True)
class Level:
    """A player-facing level: a line for the menu, and its rows, read top to bottom.

    The last row holds :func:`anywhere`: it is the level's usual bot and limit
    (:attr:`bot`, :attr:`limit`), what the menus, ``make_level`` and the journals
    start from, and it makes sure every table has a row.
    """

    name: str
    blurb: str
    rows: tuple[Row, ...]

    def __post_init__(self) -> None:
        """ValueError unless the last row is the usual one (:func:`anywhere`): without it
        some table would have no bot."""
        if not self.rows or self.rows[-1].when is not anywhere:
            raise ValueError(f"level {self.name!r}: its last row must hold anywhere")

    def shown_name(self) -> str:
        """The level's name in the language in force, for menus (its :attr:`name` is what
        is typed and stored)."""
        return pgettext("level", self.name)

    def shown_blurb(self) -> str:
        """:attr:`blurb` in the language in force, for the menus that describe levels."""
        return pgettext("level", self.blurb)

    @property
    def bot(self) -> str:
        """The bot the level plays where no other row applies."""
        return self.rows[-1].bot

    @property
    def limit(self) -> Limit:
        """The limit the level plays with where no other row applies."""
        return self.rows[-1].limit

    def on(self, rules: Rules) -> tuple[str, Limit]:
        """The bot and limit this level plays with on a table of ``rules``: the first
        row whose condition holds there."""
        row = next(r for r in self.rows if r.when(rules))
        return row.bot, row.limit

    @property
    def varies(self) -> bool:
        """Whether the level plays another bot or limit on some tables."""
        return len(self.rows) > 1

    @property
    def bots(self) -> tuple[str, ...]:
        """Every bot the level plays on some table, its usual one first, then the
        others in the order of the rows."""
        return tuple(dict.fromkeys((self.bot, *(r.bot for r in self.rows))))


#: The usual limit of ``medium``: samples are counted, not timed, so that a level plays
#: alike on any machine; the seconds cap only a long last-deal solve.
ONE_GUESS = Limit(iterations=1, seconds=0.5)

#: The levels' names as menus show them, marked for translation (:meth:`Level.shown_name`).
SHOWN_NAMES = (pN_("level", "beginner"), pN_("level", "easy"), pN_("level", "medium"),
               pN_("level", "hard"), pN_("level", "expert"))

LEVELS: dict[str, Level] = {
    "beginner": Level("beginner",
                      pN_("level",
                          "takes the most it can right now, and plans nothing "
                          "(with four players each for themselves: the club player "
                          "who spots one capture in five)"), (
        # Fair players above careful are level there; the levels spread below careful
        # (bots-log: "Four players each for themselves: the levels spread below careful").
        Row(four_each_for_themselves, "oblivious"),
        Row(anywhere, "greedy"),
    )),
    "easy": Level("easy",
                  pN_("level",
                      "a sensible club player: guards its Aces and casinos, avoids leaving "
                      "sweeps "
                      "(on Krypkasino: looks at what it leaves only to choose among "
                      "equal moves; on Mulle: never looks at what it leaves; with four "
                      "players each for themselves: the club player overlooking two "
                      "captures in three)"), (
        # The card counter's guesses do not tell apart; the levels spread below careful
        # (bots-log: "Krypkasino: the levels spread below careful").
        Row(two_with_forced_sweeps, "hasty"),
        # Any weight on what it leaves plays like careful; the rungs weigh it less often
        # (bots-log: "Mulle: the levels spread below careful").
        Row(two_with_mulles, "heedless"),
        # The club player noticing about a third of its captures
        # (bots-log: "Four players each for themselves: the levels spread below careful")
        Row(four_each_for_themselves, "dozy"),
        Row(anywhere, "careful"),
    )),
    "medium": Level("medium",
                    pN_("level",
                        "counts every card and plays the last deal perfectly, "
                        "but bets everything on one guess at your hand "
                        "(six guesses with two decks; with three players it looks "
                        "ahead only at the last card of each hand; on Krypkasino: the "
                        "club player, fearing what it leaves only a little; on Mulle: "
                        "the club player, looking at what it leaves on half its moves; "
                        "with four players each for themselves: the club player "
                        "overlooking half its captures)"), (
        # The club player fearing what it leaves a little: between hasty and careful
        # (bots-log: "Krypkasino: the levels spread below careful")
        Row(two_with_forced_sweeps, "unwary"),
        # careful looking at what it leaves on half its moves: between heedless and careful
        # (bots-log: "Mulle: the levels spread below careful")
        Row(two_with_mulles, "distracted"),
        # The club player noticing half its captures
        # (bots-log: "Four players each for themselves: the levels spread below careful")
        Row(four_each_for_themselves, "absent-minded"),
        # At three players one guess already gets the exact last deal, so medium searches
        # only each hand's last card (bots-log: "A medium between easy and hard at three
        # players"), with two decks weighing six guesses as below.
        Row(all_of(players(3), two_decks), "last-card", Limit(iterations=6, seconds=0.5)),
        Row(players(3), "last-card", ONE_GUESS),
        # With two decks one guess lost to easy (bots-log: "Two decks").
        Row(two_decks, "expert", Limit(iterations=6, seconds=0.5)),
        # One guess against hard's six (bots-log: "The player levels").
        Row(anywhere, "expert", ONE_GUESS),
    )),
    "hard": Level("hard",
                  pN_("level",
                      "the same card counter, weighing six guesses at your hand "
                      "before each move (24 with two decks; on Krypkasino: the "
                      "sensible club player; on Mulle: the club player who plays "
                      "the round's last four cards perfectly; with four players each "
                      "for themselves: the club player overlooking three captures "
                      "in ten)"), (
        # careful itself, which the fair search stands far above there
        # (bots-log: "Krypkasino: the levels spread below careful")
        Row(two_with_forced_sweeps, "careful"),
        # careful playing the round's last four cards exactly turns points into games
        # (bots-log: "Mulle: a hard level that closes the round").
        Row(two_with_mulles, "closing"),
        # The club player noticing seven captures in ten
        # (bots-log: "Four players each for themselves: the levels spread below careful")
        Row(four_each_for_themselves, "glancing"),
        # A guessed hand is a poorer likeness with two decks: more guesses (bots-log: "Two
        # decks").
        Row(two_decks, "expert", Limit(iterations=24, seconds=0.5)),
        # pimc with twelve samples, the old hard, was not told from pimc with thirty
        # (bots-log: "The player levels").
        Row(anywhere, "expert", Limit(iterations=6, seconds=0.5)),
    )),
    "expert": Level("expert",
                    pN_("level",
                        "plays the move the hint names: 64 sampled deals, each searched "
                        "to its end (without the compiled core: thirty deals, four "
                        "moves ahead), the last deal to its end (with three players: "
                        "thirty deals four moves ahead, within 0.4 s; "
                        "with four: the card counter, weighing thirty guesses "
                        "at the last deal; on Krypkasino: the card counter weighing "
                        "24 guesses, whose guessed opponent cannot see its hand; "
                        "on Tablić: the card counter weighing 60 guesses)"), (
        # pimc did not separate from hard there; the card counter whose guessed opponent
        # cannot see its hand did (bots-log: "An opponent who cannot see the hand").
        Row(two_with_forced_sweeps, "fair-reply", Limit(iterations=24, seconds=0.5)),
        # pimc within 0.4 s beats hard and keeps to the think-time bound (bots-log:
        # "pimc within 0.4 s as the three-player expert level").
        Row(players(3), "pimc", Limit(iterations=30, seconds=0.4)),
        # pimc was slow and no better than hard; the card counter, its endgame searched
        # longer (bots-log: "The expert level at three and four players", "A longer
        # endgame for the four-player expert level").
        Row(players(4), "long-endgame", Limit(iterations=30, seconds=0.8)),
        # pimc's four plies over six-card hands fill its time (bots-log: "The expert
        # level on Tablić").
        Row(cards_a_hand(6), "expert", Limit(iterations=60, seconds=0.8)),
        # The judge's move where the compiled core judges, else pimc; 0.8 s keeps the p95
        # within the think-time bound (bots-log: "The expert level plays the judge's move").
        Row(anywhere, "judge", Limit(iterations=30, seconds=0.8)),
    )),
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
    """The bot of a level that plays otherwise on some tables (a level of more than one
    row, :attr:`Level.varies`): another number of samples, or another bot.

    It reads the observed position's rules at every move, so one level's bot serves
    any table, as the web game and the arena use it."""

    def __init__(self, level: Level, seed: int | None = None) -> None:
        from casino.bots import make_bot

        super().__init__(seed)
        self.level = level
        self.bots = {b: make_bot(b, seed) for b in level.bots}
        self.name = self.bots[level.bot].name

    def decide(self, pos: Position, limit: Limit,
               chooser: Callable[[Position, list[Move], Limit], Move],
               start: float | None = None) -> Move:
        # The samples are the table's. The seconds are the caller's (the level's
        # limit, or what a clock leaves), except that a table where the level thinks
        # for less than its usual limit caps them there.
        """The table's samples, and the caller's seconds, capped where the level thinks for
        less at this table than its usual limit."""
        own, usual = self.level.on(pos.rules)[1], self.level.limit.seconds
        seconds = limit.seconds
        if own.seconds is not None and (usual is None or own.seconds < usual):
            seconds = own.seconds if seconds is None else min(seconds, own.seconds)
        return super().decide(pos, Limit(seconds=seconds, iterations=own.iterations),
                              chooser, start)

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """The move of the bot this level plays at the observed table."""
        return self.bots[self.level.on(pos.rules)[0]].pick(pos, moves, limit)


def level_bot(level: Level, seed: int | None = None) -> Bot:
    """The bot that plays ``level`` (its limit is ``level.limit``)."""
    from casino.bots import make_bot

    if not level.varies:
        return make_bot(level.bot, seed)
    return TablesBot(level, seed)
