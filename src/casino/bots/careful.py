"""The third rung: greedy play plus the rules a sensible club player follows.

``CarefulBot`` scores each candidate move as the points it secures now
(:func:`immediate_gain`) adjusted by a one-ply look at the table it leaves:

* **What the next player can take.** For every card the mover cannot see (its
  :func:`knowledge`: the deck less its hand, the table, the piles), the best
  capture that card could make on the table after the move, sweeps included
  (weighted by their points); then the expectation of the best card in a hand
  of the next player's size (:func:`best_outcome`). Leaving a table that an
  unseen card can sweep, or a 10♦ that an unseen 10 pairs with, costs what it
  is likely to cost. A build's owner is known to hold its value, so that
  capture is certain.
* **Builds.** A build the mover owns after the move is credited with its cards'
  points, times the chance the next player holds no card that takes it: making
  a build you hold the value of, taking over an opponent's build by raising or
  adding to it, and collecting your builds are all weighed against taking now.
* **Never trail an Ace, 10♦ or 2♠** (any card with points of its own under the
  ruleset) when any other move will do. In Krypkasino, where those cards are
  penalties, the reverse: shedding one by a trail is mildly preferred, and
  taking one costs its penalty through the gain.
* **The last capture.** In the last deal the leftovers go to the last capturer:
  when the mover plays the round's last card, it keeps a card that can still
  capture for that turn.

Its variants are this bot with other settings (:data:`VARIANTS`, built by
:func:`variant`), not subclasses. Weaker ones weigh the next player's capture less
(``reply``: ``hasty``, ``unwary``), on only some moves (``heed``: ``distracted``) or
not at all (``heedless``), or overlook some of their captures (``notice``:
``glancing`` down to ``oblivious``). They are the lower levels on the tables where
the levels spread below ``careful`` (Krypkasino, Mulle, four players each for
themselves: :mod:`casino.bots.levels`). One stronger variant, ``closing``, plays a
two-player round's last four cards exactly (``exact_cards``): Mulle's ``hard``.

It sees only its observation. Per move it scores at most a shortlist of
candidates (:func:`casino.bots.greedy.shortlist`), each with one table analysis,
so it stays fast on crowded Finnish tables.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from itertools import takewhile
from typing import TypedDict, Unpack

from casino.bots.base import Bot, Limit
from casino.bots.evaluation import (
    Captures,
    best_outcome,
    card_weights,
    direct_points,
    immediate_gain,
    none_prob,
    table_after,
)
from casino.bots.expert import solve_known
from casino.bots.greedy import noticed, shortlist
from casino.bots.knowledge import Knowledge, knowledge
from casino.engine.builds import Build
from casino.engine.moves import TRAIL, Move
from casino.engine.position import Position
from casino.engine.scheme import scheme

#: Candidates scored per move at most.
CANDIDATES = 120
#: Weight of the next player's expected best capture (it may have better uses for
#: its cards, and part of what it takes would have gone elsewhere anyway).
REPLY = 0.8
#: Share of an owned build's points credited to its owner when it is not taken first.
BUILD = 0.9
#: Krypkasino: credit per penalty point for getting rid of a penalty card by trailing.
SHED = 0.3
#: Credit (times the table's weight) for keeping a card that can make the last capture.
LAST = 0.5
#: Seconds the exact search of the last cards (:attr:`CarefulBot.exact_cards`) may take
#: when the bot is given no limit.
EXACT_SECONDS = 0.5


class Settings(TypedDict, total=False):
    """What a variant of the club player sets otherwise than ``careful``: the
    attributes of :class:`CarefulBot` of the same names."""

    reply: float
    heed: float
    remembers: bool
    exact_cards: int
    notice: float


class _Turn:
    """What one decision needs, worked out once: knowledge, weights, the next player."""

    def __init__(self, pos: Position, remembers: bool = True) -> None:
        self.pos = pos
        self.rules = pos.rules
        self.me = pos.to_move
        self.side = self.rules.team_of(self.me)
        self.know: Knowledge = knowledge(pos)
        self.weights = card_weights(pos)
        self.unseen = self.know.unseen if remembers else _forgotten(pos, self.know)
        self.next_seat, self.next_size = self._next_player()
        self.opponent_next = (self.next_seat is not None
                              and self.rules.team_of(self.next_seat) != self.side)
        self.threat_seats, self.threat_size = self._threats()
        self.final_player = self._plays_last()
        self._caps: dict[tuple[tuple[int, ...], tuple[Build, ...]], Captures] = {}
        self.sweep_on = self._next_sweep_counts()

    def _sizes_after(self) -> list[int]:
        sizes = [self.pos.hand_size(s) for s in range(self.rules.players)]
        sizes[self.me] -= 1
        return sizes

    def _next_player(self) -> tuple[int | None, int]:
        """The seat that moves after this move and its hand size (a new deal if needed)."""
        rules = self.rules
        sizes = self._sizes_after()
        seat = rules.next_seat(self.me)
        for _ in range(rules.players):
            if sizes[seat]:
                return seat, sizes[seat]
            seat = rules.next_seat(seat)
        stock = self.pos.stock_size
        if not stock:
            return None, 0
        leader = rules.next_seat(self.pos.dealer)
        return leader, min(rules.deal_size, stock // rules.players or 1)

    def _threats(self) -> tuple[tuple[int, ...], int]:
        """The opponents who move before this seat's next turn or a partner's, and
        their cards together: any of them may take what the move leaves (more than
        two players; with two it is the next player). A new deal's leader alone."""
        if not self.opponent_next or self.next_seat is None:
            return (), 0
        rules = self.rules
        sizes = self._sizes_after()
        if not sizes[self.next_seat]:
            return (self.next_seat,), self.next_size
        before = takewhile(lambda s: s != self.me and rules.team_of(s) != self.side,
                           rules.playing_order(self.next_seat))
        seats = tuple(s for s in before if sizes[s])
        return seats, sum(sizes[s] for s in seats)

    def _plays_last(self) -> bool:
        """In the last deal: whether this seat plays the round's last card."""
        if self.pos.stock_size:
            return False
        rules = self.rules
        sizes = self._sizes_after()
        seat = rules.next_seat(self.me)
        last = self.me
        while any(sizes):
            if sizes[seat]:
                sizes[seat] -= 1
                last = seat
            seat = rules.next_seat(seat)
        return last == self.me

    def _next_sweep_counts(self) -> bool:
        rules = self.rules
        if not rules.sweep_points:
            return False
        if rules.sweep_limit is not None and any(s > rules.sweep_limit for s in self.pos.scores):
            return False
        return not (rules.no_sweep_last_deal and self.pos.stock_size == 0)

    def captures(self, loose: tuple[int, ...], builds: tuple[Build, ...]) -> Captures:
        key = (tuple(sorted(loose)), tuple(sorted(builds)))
        caps = self._caps.get(key)
        if caps is None:
            caps = Captures(self.rules, loose, builds, self.weights, sweep=self.sweep_on)
            self._caps[key] = caps
        return caps

    def take_chance(self, value: int) -> float:
        """P(an opponent moving before this seat again holds a card that takes a build
        of ``value``)."""
        if not self.threat_seats:
            return 0.0
        if any(value in self.know.must_hold.get(s, ()) for s in self.threat_seats):
            return 1.0
        played = self.rules.table.played
        k = sum(1 for c in self.unseen if value in played[c])
        n = len(self.unseen)
        return 1.0 - none_prob(n, min(self.threat_size, n), k)


class CarefulBot(Bot):
    """Greedy gain, less what the next player can take, plus club-player rules."""

    name = "careful"
    #: Weight of the next player's expected best capture (:data:`REPLY`).
    reply: float = REPLY
    #: The share of moves on which it weighs what it leaves at all (1: every move).
    heed: float = 1.0
    #: Whether it remembers the captured cards (else every card out of its hand and
    #: off the table may be anywhere).
    remembers: bool = True
    #: Two players, the stock empty: once the hands hold at most this many cards
    #: between them, it plays the rest exactly, for the game (0: never).
    exact_cards: int = 0
    #: The share of its captures it notices, each by chance (1: every one).
    notice: float = 1.0

    def __init__(self, seed: int | None = None, *, name: str | None = None,
                 **settings: Unpack[Settings]) -> None:
        """``careful``, or a variant of it: ``name`` and ``settings`` (see
        :data:`VARIANTS`) replace the class's for this bot; what is not given stays
        the class's, so a subclass that sets them (research's ``--set``) still counts."""
        super().__init__(seed)
        if name is not None:
            self.name = name
        for key, value in settings.items():
            setattr(self, key, value)

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """The candidate with the best :meth:`score`, ties to the cheapest card and then at
        random; a point card is never trailed while another move will do, and once the
        hands hold :attr:`exact_cards` or fewer the rest is played exactly."""
        if self.exact_cards and self._exact_now(pos):
            deadline = (limit.deadline() if limit.seconds is not None
                        else time.perf_counter() + EXACT_SECONDS)
            known = solve_known(pos, moves, deadline)
            if known is not None:
                return known
        turn = _Turn(pos, self.remembers)
        cands = noticed(shortlist(moves, CANDIDATES), self.notice, self.rng)
        if not scheme(pos.rules).penalty:
            # Never trail a card with points of its own while any other move will do.
            others = [m for m in cands
                      if not (m.kind == TRAIL and direct_points(pos.rules, m.card) > 0)]
            cands = others or cands
        reply = self.reply if self.heed >= 1 or self.rng.random() < self.heed else 0.0
        best: list[Move] = []
        best_key: tuple[float, float] | None = None
        for m in cands:
            key = (round(self.score(turn, m, reply), 6), -round(turn.weights[m.card], 6))
            if best_key is None or key > best_key:
                best, best_key = [m], key
            elif key == best_key:
                best.append(m)
        return self.rng.choice(best)

    def _exact_now(self, pos: Position) -> bool:
        return (pos.rules.players == 2 and pos.stock_size == 0
                and pos.hand_size(0) + pos.hand_size(1) <= self.exact_cards)

    def score(self, turn: _Turn, m: Move, reply: float = REPLY) -> float:
        """The move's value in margin points (documented in the module docstring),
        the next player's best capture weighed at ``reply``."""
        pos, rules = turn.pos, turn.rules
        s = immediate_gain(pos, m, turn.me)
        loose, builds = table_after(pos, m)
        caps = turn.captures(loose, builds) if (loose or builds) else None
        if caps is not None and turn.threat_seats:
            s -= reply * best_outcome(
                caps, turn.unseen, hidden=True, hand_size=turn.threat_size,
                must_values=tuple(v for t in turn.threat_seats
                                  for v in turn.know.must_hold.get(t, ())))
        for b in builds:
            if rules.team_of(b.owner) == turn.side:
                worth = sum(turn.weights[c] for c in b.cards)
                s += BUILD * worth * (1.0 - turn.take_chance(b.value))
        if scheme(rules).penalty and m.kind == TRAIL:
            s += SHED * -direct_points(rules, m.card)
        if turn.final_player and caps is not None and loose:
            kept = _rest(pos.hand(turn.me), m.card)
            if len(kept) <= 2 and any(caps.info(c) is not None for c in kept):
                s += LAST * (sum(turn.weights[c] for c in loose) + 0.5)
        return s


def _forgotten(pos: Position, know: Knowledge) -> tuple[int, ...]:
    """What a player who forgets the captured cards takes to be unseen: what it cannot
    see, and the cards in the piles and set aside as well."""
    return tuple(sorted((*know.unseen, *(c for pile in pos.piles for c in pile),
                         *pos.set_aside)))


def _rest(hand: Sequence[int], card: int) -> list[int]:
    rest = list(hand)
    rest.remove(card)
    return rest


#: The club player's variants on the ladder: name -> what each sets otherwise. They are
#: ``careful`` configured, not subclasses, so that each differs from it in these numbers
#: alone; the levels that play them and why are in :mod:`casino.bots.levels`.
VARIANTS: dict[str, Settings] = {
    # Notices each of its captures by chance (trailing instead), as a club player who
    # sometimes overlooks a take: one in five, a newcomer yet to learn to look ...
    "oblivious": {"notice": 0.2},
    # ... about one in three ...
    "dozy": {"notice": 0.35},
    # ... half ...
    "absent-minded": {"notice": 0.5},
    # ... seven in ten.
    "glancing": {"notice": 0.7},
    # The club rules (never trail a card with points, credit its own builds, keep a
    # capturing card for the last turn) without weighing what it leaves at all.
    "heedless": {"reply": 0.0},
    # Looks at the table it leaves only to choose among moves that gain alike (which
    # card to trail), never giving up a point now to deny one later.
    "hasty": {"reply": 0.02},
    # Weighs what it leaves on half its moves, chosen by chance, and plays as heedless
    # on the others: the lapses of a player who knows to look and sometimes does not.
    "distracted": {"heed": 0.5},
    # Gives up a small gain now for a large threat only.
    "unwary": {"reply": 0.15},
    # Plays the last four cards of a two-player round exactly, for the game: once the
    # stock is empty every card is known, and who takes the leftovers and the last
    # points decides many a game.
    "closing": {"exact_cards": 4},
}


def variant(name: str, settings: Settings | None = None) -> Callable[[int | None], CarefulBot]:
    """The constructor (seed -> bot) of the club player's variant ``name``: ``careful``
    with that variant's :data:`VARIANTS` settings, or with ``settings`` when given
    (research tries others under the variant's name). KeyError for an unknown name."""
    chosen = VARIANTS[name] if settings is None else settings

    def make(seed: int | None = None) -> CarefulBot:
        """A ``careful`` playing as the variant, called by its name."""
        return CarefulBot(seed, name=name, **chosen)

    return make
