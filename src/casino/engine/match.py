"""A whole game (or Krypkasino match): the only place where cards are shuffled.

``Match`` shuffles a deck for each round, deals it, keeps every round's deck
and moves (so a record replays exactly, whatever Python's generator does in
later versions), passes the deal round the table, and ends when a round's
result names a winner under the preset's rule.

Where the decks come from is a matter of security, not only of fairness: a
player who could predict the shuffles would know every hidden card. A game
given no seed is shuffled by the operating system's random source
(``random.SystemRandom``), and keeps no seed, so there is nothing to guess:
no seed can be searched for from the cards a player sees, and no generator's
state can be rebuilt from the decks of earlier rounds (as Mersenne Twister's
can). A seeded game (practice, tests, the arena) is repeatable on purpose and
so is no secret: the same seed always gives the same first dealer and decks.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from casino.engine.errors import IllegalMove
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.presets import DEFAULT
from casino.engine.rules import Rules, preset
from casino.engine.scoring import Carry, Result
from casino.engine.wording import plural
from casino.i18n import _


def shuffle_words(seed: int | None) -> str:
    """How a game's decks are shuffled, for a header: a seed is shown, since it is no secret."""
    return f"seed {seed}" if seed is not None else "shuffled by the system's random source"


@dataclass
class RoundLog:
    """One round as played: its deck (top first), dealer, moves and outcome."""

    number: int
    dealer: int
    deck: tuple[int, ...]
    start: Position
    moves: list[Move] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    result: Result | None = None

    def position_after(self, count: int) -> Position:
        """The position after the round's first ``count`` moves, replayed from its deal:
        what an undo returns to, and what a delayed spectator is shown."""
        pos = self.start
        for move in self.moves[:count]:
            pos = pos.successor(move)
        return pos


class Match:
    """A game: ``Match("casino")`` shuffled by the system, ``Match("casino", seed=7)`` repeatable.

    :attr:`seed` is the seed given, or ``None`` for a game shuffled by the
    operating system's random source (see the module's docstring for why such a
    game keeps no seed). Play with :meth:`play`. After a round ends,
    :attr:`position` holds its scored result; call :meth:`next_round` to deal
    the next one (unless :attr:`is_over`).
    """

    def __init__(self, rules: Rules | str = DEFAULT.name, *, seed: int | None = None,
                 first_dealer: int | None = None, **options: Any) -> None:
        self.rules = rules if isinstance(rules, Rules) else preset(rules, **options)
        if isinstance(rules, Rules) and options:
            raise ValueError("give options either in the Rules value or as keywords, not both")
        self.seed: int | None = seed
        self._rng: random.Random = (random.Random(seed) if seed is not None
                                    else random.SystemRandom())
        if first_dealer is None:
            first_dealer = self._rng.randrange(self.rules.players)  # the cut
        elif not 0 <= first_dealer < self.rules.players:
            raise ValueError(f"first_dealer must be a seat from 0 to {self.rules.players - 1}")
        self.first_dealer = first_dealer
        self.rounds: list[RoundLog] = []
        self._start_round(1, first_dealer, (0,) * self.rules.players, Carry())

    @classmethod
    def dealt(cls, rules: Rules, deck: tuple[int, ...], first_dealer: int) -> Match:
        """A game whose first round is dealt from ``deck`` (top first), shuffled
        elsewhere: the web's daily deal, drawn once from the system's random source and
        dealt to everyone alike. Later rounds are shuffled by the system."""
        if sorted(deck) != sorted(list(range(52)) * rules.decks):
            raise ValueError(f"a deck must hold every card of {plural(rules.decks, 'deck')} "
                             f"once each")
        match = cls(rules, first_dealer=first_dealer)
        match.rounds.clear()
        match._start_round(1, first_dealer, (0,) * rules.players, Carry(), deck)
        return match

    # ------------------------------------------------------------------
    def shuffled_deck(self) -> tuple[int, ...]:
        """A new deck (all of the rules' decks) shuffled by the match's generator: the
        seeded one, or the operating system's."""
        deck = list(range(52)) * self.rules.decks
        self._rng.shuffle(deck)
        return tuple(deck)

    def _start_round(self, number: int, dealer: int, scores: tuple[int, ...], carry: Carry,
                     deck: tuple[int, ...] | None = None) -> None:
        deck = deck if deck is not None else self.shuffled_deck()
        pos = Position.start_round(self.rules, deck, dealer, round=number, scores=scores,
                                   carry=carry)
        self.rounds.append(RoundLog(number, dealer, deck, pos))
        self.position = pos

    @property
    def current(self) -> RoundLog:
        """The round being played, or the last one played."""
        return self.rounds[-1]

    @property
    def winner(self) -> int | None:
        """The winning seat (first seat of a partnership) once the game is over."""
        result = self.position.result
        return result.winner if result is not None else None

    @property
    def is_over(self) -> bool:
        """Whether the game has a winner: no round may follow."""
        return self.winner is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """The totals: after the round's scoring when the round is over, else those it began
        with."""
        result = self.position.result
        return result.scores if result is not None else self.position.scores

    def legal_moves(self) -> list[Move]:
        """Every legal move now: :meth:`Position.legal_moves`, exponential in a crowded
        table; :meth:`Position.candidate_moves` is its bounded counterpart."""
        return self.position.legal_moves()

    def play(self, move: Move | str) -> Position:
        """Play a move (or its text) for the seat to move; IllegalMove changes nothing."""
        if self.position.result is not None:
            raise IllegalMove(_("the round is over: start the next round first")
                              if not self.is_over else _("the game is over"))
        if isinstance(move, str):
            move = self.position.parse_move(move)
        return self._record(move, self.position.play(move))

    def play_listed(self, move: Move) -> Position:
        """Play a move taken from this very position's own lists (``legal_moves()``,
        ``candidate_moves()``, ``moves_of()``), without checking it again: for code
        that plays many moves it listed itself (the research environment). Anything
        else should call :meth:`play`."""
        if self.position.result is not None:
            raise IllegalMove(_("the round is over: start the next round first"))
        return self._record(move, self.position.successor(move))

    def _record(self, move: Move, new: Position) -> Position:
        self.current.moves.append(move)
        self.current.movers.append(self.position.to_move)
        self.position = new
        if new.result is not None:
            self.current.result = new.result
        return new

    def played(self) -> Iterator[tuple[int, Position, Move, Position]]:
        """Every move of the game so far: (seat, position before, move, position after)."""
        for rnd in self.rounds:
            pos = rnd.start
            for seat, move in zip(rnd.movers, rnd.moves, strict=True):
                after = pos.successor(move)
                yield seat, pos, move, after
                pos = after

    def take_back(self, count: int = 1) -> Position:
        """Take back the last ``count`` moves of the round being played (an undo).

        The position is replayed from the round's first deal, so it is exactly
        what it was; a finished round cannot be taken back.
        """
        rnd = self.current
        if rnd.result is not None:
            raise ValueError("the round is over: its moves cannot be taken back")
        if not 0 < count <= len(rnd.moves):
            raise ValueError(f"cannot take back {count} moves: this round has "
                             f"{len(rnd.moves)}")
        del rnd.moves[-count:]
        del rnd.movers[-count:]
        self.position = rnd.position_after(len(rnd.moves))
        return self.position

    def next_round(self, deck: tuple[int, ...] | None = None) -> Position:
        """Deal the next round: the deal passes on, totals (and Finnish carries) go with it."""
        pos = self.position
        if pos.result is None:
            raise ValueError("the round is still being played")
        if self.is_over:
            raise ValueError("the game is over")
        dealer = self.rules.next_seat(pos.dealer)
        self._start_round(pos.round + 1, dealer, pos.result.scores, pos.next_carry(), deck)
        return self.position

    def play_out(self, choose: Any) -> None:
        """Play to the end of the game, asking ``choose(position) -> Move`` for each move."""
        while True:
            while self.position.result is None:
                self.play(choose(self.position))
            if self.is_over:
                return
            self.next_round()
