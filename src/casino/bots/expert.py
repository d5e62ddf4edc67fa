"""The ``expert`` bot: card memory, inference from builds, and exact play of the last deal.

What it knows is exactly what a club player with perfect memory knows
(:mod:`casino.bots.knowledge`): every card not in its hand, on the table, in the
piles or set aside is unseen, and an opponent who owns a build holds a card of
its value. Its samples of the hidden cards respect both.

* **Last deal, one hidden hand** (two players, stock empty): the unseen cards are
  the opponent's hand, so the position is of perfect information; the bot builds
  it and solves it with :func:`casino.bots.solver.search` to the round's end,
  valuing the round's end for the game (:func:`casino.bots.solver.game_value`).
  On very large last deals (Tablic's 6+6 cards) a deadline stops the search and
  the deepest completed iteration decides.
* **Before that**: a shallow determinized lookahead: a few samples, in each a
  2-ply search (its move, the best reply) scored by the evaluation, summed over
  samples. It is cheap (well under the level's 0.3 s median) and sees the
  reply that sweeps or steals a build, which one-ply greed misses.
* **Three or four players**: one ply, valued by the evaluation from what the bot
  knows, and the last deal's endgame searched per sample (:meth:`ExpertBot.depth_for`).

Time: ``limit.seconds`` (default 0.5 s) from the call to :meth:`Bot.choose`,
generating the candidates included. Every sample stops at the deadline; when not
even the first completes (a crowded table, where every reply needs the opponent's
moves on a new table, or a slow machine), one ply on one sample decides: each
candidate's successor evaluated, which needs no move generation.
"""

from __future__ import annotations

import time
from dataclasses import replace

from casino.bots.base import EvaluatingBot, Limit
from casino.bots.knowledge import knowledge, sample
from casino.bots.solver import (
    EXACT,
    Evaluator,
    Searcher,
    best_over_samples,
    card_weights,
    default_estimate,
    game_value,
    order_key,
    remember_moves,
    search,
)
from casino.engine import core
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.rules import Rules

#: Root moves considered at most (a huge Finnish capture list is cut to the best-looking).
MAX_ROOT = 40
#: Moves considered at most at inner nodes of the heuristic search.
MAX_INNER = 25
#: More than two players: the last deal is searched to the round's end in every
#: sample once the hands hold at most this many cards together.
ENDGAME_CARDS = 8
#: The same for :class:`LongEndgameBot`.
LONG_ENDGAME_CARDS = 12


def perfect_information(pos: Position) -> Position | None:
    """The full position behind ``pos`` when the observer can deduce it: the stock is
    empty and at most one other seat holds cards, so those cards are exactly the unseen
    ones. ``None`` otherwise."""
    if pos.stock_size:
        return None
    k = knowledge(pos)
    hidden = k.hidden_seats
    if len(hidden) > 1:
        return None
    hands = list(pos.hands)
    for s in range(pos.rules.players):
        if s != k.seat:
            hands[s] = k.unseen if s in hidden else ()
    if hidden and len(k.unseen) != k.hand_sizes[hidden[0]]:
        return None
    return replace(pos, hands=tuple(hands), stock=())


def solve_known(pos: Position, moves: list[Move], deadline: float | None) -> Move | None:
    """The exact move, for the game, when every card's place can be deduced
    (:func:`perfect_information`), else ``None``: the rest of the round searched
    within ``deadline``, its root moves the bot's own ``moves``."""
    full = perfect_information(pos)
    if full is None:
        return None
    weights = card_weights(pos.rules)
    ordered = sorted(moves, key=lambda m: order_key(m, weights), reverse=True)
    values = core.solve(full, ordered, game=True, deadline=deadline)
    if values is not None:  # the compiled core's exact search, the same values
        return ordered[max(range(len(ordered)), key=values.__getitem__)]
    remember_moves(pos, moves)
    return search(full, pos.to_move, horizon="round", terminal=game_value,
                  deadline=deadline).move


def candidates(pos: Position, moves: list[Move], cap: int = MAX_ROOT) -> list[Move]:
    """At most ``cap`` moves, the best-looking first (keeps per-move work bounded)."""
    if len(moves) <= cap:
        return moves
    weights = card_weights(pos.rules)
    return sorted(moves, key=lambda m: order_key(m, weights), reverse=True)[:cap]


class ExpertBot(EvaluatingBot):
    """Card memory, inference from builds, a shallow lookahead over samples of the hidden
    cards, and the last deal solved exactly (see the module's notes): the ``medium`` and
    ``hard`` levels, with one sample and with six."""
    name = "expert"
    #: Samples and seconds when the limit leaves them open.
    samples = 6
    seconds = 0.5
    depth = 2
    #: Depth with more than two players (see :meth:`depth_for`).
    depth_multi = 1
    #: Whether the last deal is searched to the round's end (see :meth:`depth_for`).
    solves_last_deal = True

    def depth_for(self, pos: Position) -> int:
        """Plies searched per sample.

        Two players: :attr:`depth` (its move, the reply). More than two: one ply
        (:attr:`depth_multi`), valued by :func:`~casino.bots.evaluation.estimate`,
        which there counts every seat before the bot's next turn from what the bot
        knows, not from the sample's guessed hands; a 2-ply search with one guessed
        reply lost to careful play on three- and four-player tables even with six
        samples (research/bots-log.md, issue 20 part 2). In the last deal, once the
        hands hold at most :data:`ENDGAME_CARDS` cards, to the round's end: who
        takes the leftovers decides much there (+0.5 a round v careful's move on
        classic-3, little on the four-player tables).
        """
        if pos.rules.players == 2:
            return self.depth
        return EXACT if self.in_endgame(pos) else self.depth_multi

    def endgame_cards(self, rules: Rules) -> int:
        """The cards left in the hands from which the last deal is searched exactly."""
        return ENDGAME_CARDS

    def in_endgame(self, pos: Position) -> bool:
        """More than two players: whether the last deal is searched to the round's end
        from here, once the hands hold at most :meth:`endgame_cards` cards."""
        left = sum(pos.hand_size(s) for s in range(pos.rules.players))
        return (self.solves_last_deal and pos.stock_size == 0
                and left <= self.endgame_cards(pos.rules))

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """The last deal solved when every card's place is known; else the lookahead over
        samples, within ``limit.seconds`` (else :attr:`seconds`) from the call."""
        start = time.perf_counter()
        budget = limit.seconds if limit.seconds is not None else self.seconds
        deadline = start + budget
        if self.solves_last_deal:
            known = solve_known(pos, moves, deadline)
            if known is not None:
                return known
        # Every sample shares the observer's hand and table: its moves are these.
        remember_moves(pos, moves)
        return self._lookahead(pos, moves, limit, deadline)

    def searcher(self, seat: int, evaluate: Evaluator, deadline: float) -> Searcher:
        """The search of one sample before the last deal, to the deal's end at most."""
        return Searcher(seat, horizon="deal", evaluate=evaluate, terminal=game_value,
                        deadline=deadline, max_moves=MAX_INNER)

    def _lookahead(self, pos: Position, moves: list[Move], limit: Limit,
                   deadline: float) -> Move:
        seat = pos.to_move
        cand = candidates(pos, moves)
        n = limit.iterations if limit.iterations is not None else self.samples
        evaluate = default_estimate(self.eval_params)
        depth = self.depth_for(pos)

        def values(k: int, totals: list[float]) -> list[float]:
            # Every sample stops at the deadline, the first too.
            return self.searcher(seat, evaluate, deadline).values(
                sample(pos, self.rng), cand, depth)

        def one_ply() -> Move:
            # Not even one sample completed (a crowded table, where each reply needs
            # the opponent's moves on a new table, or a slow machine): one ply on one
            # sample generates no moves (each candidate's successor is evaluated, what
            # the opponent can take next included), so it takes milliseconds.
            s = Searcher(seat, horizon="deal", evaluate=evaluate, terminal=game_value)
            vals = s.values(sample(pos, self.rng), cand, 1)
            return cand[max(range(len(cand)), key=lambda i: vals[i])]

        return best_over_samples(cand, n, deadline, values, one_ply)


class OnePlyBot(ExpertBot):
    """``expert`` one fair ply deep on every move, the last deal included.

    The card counter's evaluation without any search, not even of the last plies:
    the floor against which :class:`LastCardBot`'s short search was measured. No
    level plays it.
    """

    name = "one-ply"
    depth = 1
    solves_last_deal = False


class LastCardBot(ExpertBot):
    """``expert`` one ply deep, searching exactly only once each hand is down to its
    last card: the ``medium`` level at three players.

    There the card counter's exact search of the last deal's final eight cards is
    most of what ``hard`` has over ``easy``, so ``medium`` (the same bot with fewer
    samples) could not be told from ``hard``, and ``one-ply``, with no search at
    all, could not be told from ``easy``. Searching only the last round of plays
    sits between the two (research/bots-log.md, "A medium between easy and hard at
    three players"). With two players it plays the last deal exactly, as ``expert``.
    """

    name = "last-card"
    depth = 1

    def in_endgame(self, pos: Position) -> bool:
        """Only once the stock is out and every hand holds at most one card: the last round
        of plays."""
        return pos.stock_size == 0 and all(
            pos.hand_size(s) <= 1 for s in range(pos.rules.players))


class LongEndgameBot(ExpertBot):
    """``expert`` searching the last deal to the round's end from twelve cards left
    in the hands, not eight: the ``expert`` level at four players.

    There ``pimc``'s guessed plies were no better than the card counter, and the
    card counter's thirty guesses added little to ``hard``'s six over the last eight
    cards (classic-4, 400 games, 51.0%); the exact search from the first round of
    the last deal's plays on gains more (research/bots-log.md, "A longer endgame
    for the four-player expert level"). The search per guess costs about 0.3 s at
    its start, so the level's seconds cap how many guesses it weighs there.

    Only in partnerships: with three or four each for themselves the search is
    paranoid (every other seat plays against the bot), a poor likeness of rivals
    who each play for their own points, and searching it longer lost to ``hard``
    on kasino-4; there, and with two players, it plays as ``expert``.
    """

    name = "long-endgame"

    def endgame_cards(self, rules: Rules) -> int:
        """Twelve cards in partnerships, where the longer search pays; eight elsewhere, as
        ``expert``."""
        return LONG_ENDGAME_CARDS if rules.partnerships else ENDGAME_CARDS


__all__ = ["ExpertBot", "LastCardBot", "LongEndgameBot", "OnePlyBot", "candidates",
           "perfect_information", "solve_known"]
