"""``searcher``: the outside yardstick's strong bot (docs/bots.md, "The outside yardstick").

From the published description (:mod:`casino.bots.counter` has the worth it counts):

* **Before the last deal**: it samples 32 worlds (the hidden hands and the stock's
  order, consistent with what it knows: :func:`casino.bots.knowledge.sample`), takes
  the 8 best moves by ``counter``'s score (24 samples), plays each of them in every
  world to the end of the current deal with ``counter`` playing every seat, and
  keeps the move with the best mean worth margin over the rest of the deal (its
  side's worth captured less the other sides', sweeps included, the move itself
  counted). Ties go to counter's order.
* **In the last deal**, once every card's place is known (stock empty, at most one
  other hand holding cards), it solves the rest of the round exactly with
  :func:`casino.bots.solver.search`.

Where the description is silent:

* Inside a world every hand is known, so counter in the playouts weighs the
  world's actual reply (one "sample", not 24): 256 playouts of up to 8 plies, each
  ply scoring every candidate against 24 sampled replies, would take minutes a move
  in Python.
* The exact solve's objective is the engine's real round points (the margin of the
  round's points), and a round that decides the game counts as the game won or
  lost above any margin (:func:`casino.bots.solver.game_value`, as ``expert`` plays
  the last deal): that is what wins, while the worth is only the description's
  estimate of it. With no time limit the solve is exact; a time limit makes it
  iterative deepening that stops at the deadline.
* In the last deal with more than one other hand holding cards (three or four
  players), the worlds' playouts run to the round's end: the leftovers go to the
  last capturer at their worth, as :func:`casino.bots.counter.margin_gain` counts them.
* More than two players: the margin is its side's worth less the sum of the other
  sides'; partners count as its side.

Limit: ``iterations`` is the number of worlds (default 32); ``seconds`` is a real
limit: counter's sampling and the worlds stop at the deadline (a world cut short
does not count), and when no world completes counter's best move is played. With
no limit the described 32 worlds, 8 moves and 24 samples are used in full.
:attr:`SearcherBot.last_worlds` says how many worlds the last decision completed.
"""

from __future__ import annotations

import math
import time

from casino.bots.base import Bot, Limit
from casino.bots.counter import (
    SAMPLES,
    Tables,
    best_index,
    counter_scores,
    margin_gain,
    ranked,
    sampled_scores,
)
from casino.bots.expert import solve_known
from casino.bots.knowledge import sample
from casino.bots.solver import (
    SearchAborted,
    best_over_samples,
    ordered_moves,
)
from casino.engine.legality import SMALL_TABLE
from casino.engine.moves import Move
from casino.engine.partition import OutOfTime
from casino.engine.partition import deadline as time_limit
from casino.engine.position import Position


def _moves(pos: Position, deadline: float | None) -> list[Move]:
    """The candidate moves of ``pos`` in the solver's order (memoised); on a crowded
    table, where finding them can take a tenth of a second or more, SearchAborted
    when the deadline passes meanwhile."""
    if deadline is None or len(pos.table) <= SMALL_TABLE:
        return ordered_moves(pos)
    try:
        with time_limit(deadline):
            return ordered_moves(pos)
    except OutOfTime:
        raise SearchAborted from None


def counter_move(pos: Position, tables: Tables, deadline: float | None = None) -> Move:
    """counter's move in the full position ``pos``, weighing the actual reply."""
    moves = _moves(pos, deadline)
    if len(moves) == 1:
        return moves[0]
    return moves[best_index(moves, counter_scores(pos, moves, (pos,), pos.to_move, tables))]


def playout(world: Position, move: Move, seat: int, tables: Tables,
            deadline: float | None = None) -> float:
    """The worth margin for ``seat``'s side from ``move`` in ``world`` to the end of the
    deal, counter playing every seat; SearchAborted past ``deadline``."""
    total = margin_gain(world, move, seat)
    deal = world.deal
    p = world.successor(move)
    while p.result is None and p.deal == deal:
        if deadline is not None and time.perf_counter() > deadline:
            raise SearchAborted
        m = counter_move(p, tables, deadline)
        total += margin_gain(p, m, seat)
        p = p.successor(m)
    return total


class SearcherBot(Bot):
    """counter's best moves played out in sampled worlds; the last deal solved."""

    name = "searcher"
    #: Worlds sampled, moves played out in each, samples of counter's ranking.
    worlds = 32
    top = 8
    samples = SAMPLES

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        #: Worlds the last decision completed (0 when it solved or needed none).
        self.last_worlds = 0

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """The last deal solved when every card's place is known; else the counter's
        :attr:`top` moves, each played out in :attr:`worlds` sampled worlds, the best total
        winning (:attr:`last_worlds` counts the worlds completed)."""
        deadline = limit.deadline()
        self.last_worlds = 0
        known = solve_known(pos, moves, deadline)
        if known is not None:  # every card's place is known: the exact solve
            return known
        tables = Tables()
        scores = sampled_scores(pos, moves, self, self.samples, deadline, tables)
        top = [moves[i] for i in ranked(moves, scores)[:self.top]]
        if len(top) == 1:
            return top[0]
        seat = pos.to_move
        n = limit.iterations if limit.iterations is not None else self.worlds

        def values(k: int, totals: list[float]) -> list[float]:
            world = sample(pos, self.rng)
            vals = [playout(world, m, seat, tables, deadline) for m in top]
            self.last_worlds += 1
            return vals

        return best_over_samples(top, n, math.inf if deadline is None else deadline, values,
                                 fallback=lambda: top[0])


__all__ = ["SearcherBot", "counter_move", "playout"]
