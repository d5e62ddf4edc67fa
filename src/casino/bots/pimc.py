"""``pimc``: perfect-information Monte Carlo (determinized) search, and its oracle twin.

For each of N samples of the hidden cards (:func:`casino.bots.knowledge.sample`:
consistent with the seen cards, the hand sizes and build ownership) the bot
searches the sampled full position with alpha-beta to the end of the current
deal (in the last deal that is the round's end), with the evaluation at that
horizon, and adds up each root move's value across samples; the best total wins.
Round ends are valued for the game (:func:`casino.bots.solver.game_value`): a
round that decides the game counts the win or loss far above any margin, so near
the target the bot plays for the game, not the round.

Time: ``limit.iterations`` samples (default 20) within ``limit.seconds`` (default
1 s). The first sample fixes the depth: the full deal if it fits a share of the
time, else two plies less until it does; later samples use that depth and the
search stops at the deadline, counting only completed samples.

Two options, off by default because neither measured better against ``expert``
(40 mirrored single-round pairs, same seeds, margin per round paired with the
default: ``cap=3``: -0.40 ± 0.38 s.e.; ``min_plies=8``: -0.84 ± 0.55 s.e. and a
median think time of 0.74 s instead of 0.05 s):
``min_plies`` searches past the deal's end when fewer plies than that are left in
it, and ``cap`` values each sample's clearly worse moves only as "``cap`` points or
more worse" (:meth:`casino.bots.solver.Searcher.values`), two to three times
faster at the start of a deal, at the price of a bias toward risky moves.

``PimcOracle`` (``pimc-oracle``) runs the same search on the true full position
(no sampling). It sees every card, so it is only a yardstick: how close the fair
bots come to perfect information. It refuses observations; the arena calls
:meth:`PimcOracle.choose_full`. It is never offered as an opponent.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from casino.bots.base import Bot, Limit
from casino.bots.expert import MAX_INNER, candidates, perfect_information
from casino.bots.knowledge import sample
from casino.bots.solver import SearchAborted, Searcher, default_estimate, game_value, plies_left
from casino.moves import Move
from casino.position import Position


def pimc_choose(pos: Position, moves: list[Move], draw: Callable[[], Position], n: int,
                seconds: float, max_inner: int | None = MAX_INNER,
                min_plies: int = 0, cap: float | None = None) -> Move:
    """The move with the best total value over up to ``n`` positions from ``draw()``.

    ``pos`` is the position the moves belong to (an observation or a full position);
    each drawn position must agree with it on the mover's hand and the table.
    With ``min_plies``, when fewer plies than that are left in the deal (and a next
    deal exists), the search goes on into the next deal (the sample deals it) to
    ``min_plies`` plies, so the deal's last moves see the next deal's first ones.
    ``cap``: see :meth:`Searcher.values` (moves searched best-total-first).
    """
    start = time.perf_counter()
    deadline = start + seconds
    seat = pos.to_move
    cand = candidates(pos, moves)
    totals = [0.0] * len(cand)
    evaluate = default_estimate()
    depth: int | None = None
    horizon = "deal"
    for _ in range(max(1, n)):
        full = draw()
        if depth is None:
            # The first sample fixes the depth that fits a share of the time.
            d = plies_left(full, "deal")
            if d < min_plies and full.stock_size:
                horizon = "round"
                d = min(min_plies, plies_left(full, "round"))
            share = start + max(seconds / 3, seconds / max(1, n) * 2)
            while True:
                s = Searcher(seat, horizon=horizon, evaluate=evaluate, terminal=game_value,
                             deadline=share if d > 1 else None, max_moves=max_inner)
                try:
                    vals = s.values(full, cand, d, cap, _order(totals))
                    break
                except SearchAborted:
                    d = max(1, d - 2)
            depth = d
        else:
            s = Searcher(seat, horizon=horizon, evaluate=evaluate, terminal=game_value,
                         deadline=deadline, max_moves=max_inner)
            try:
                vals = s.values(full, cand, depth, cap, _order(totals))
            except SearchAborted:
                break
        for i, v in enumerate(vals):
            totals[i] += v
        if time.perf_counter() > deadline:
            break
    best = max(range(len(cand)), key=lambda i: totals[i])
    return cand[best]


def _order(totals: list[float]) -> list[int]:
    """Indices by total so far, best first (stable: ties keep the candidates' order)."""
    return sorted(range(len(totals)), key=lambda i: -totals[i])


class PimcBot(Bot):
    name = "pimc"
    samples = 20
    seconds = 1.0
    #: Plies searched at least (past the deal's end when it is nearer); 0: the deal's end.
    min_plies = 0
    #: Loss cap of the per-sample values (see :meth:`Searcher.values`); None: exact.
    cap: float | None = None

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        n = limit.iterations if limit.iterations is not None else self.samples
        seconds = limit.seconds if limit.seconds is not None else self.seconds
        full = perfect_information(pos)
        if full is not None:
            # Nothing is hidden: one exact sample says all that N would.
            known = full
            return pimc_choose(pos, moves, lambda: known, 1, seconds, max_inner=None)
        rng: random.Random = self.rng
        return pimc_choose(pos, moves, lambda: sample(pos, rng), n, seconds,
                           min_plies=self.min_plies, cap=self.cap)


class PimcOracle(Bot):
    """The PIMC search on the true position: a measuring stick, never an opponent."""

    name = "pimc-oracle"
    sees_all = True
    seconds = 1.0

    def choose(self, observation: dict[str, Any] | Position, limit: Limit | None = None) -> Move:
        raise TypeError("pimc-oracle sees every card: call choose_full(position, limit), "
                        "it cannot play from an observation")

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        raise TypeError("pimc-oracle plays only through choose_full")

    def choose_full(self, pos: Position, limit: Limit | None = None) -> Move:
        """The move the PIMC search picks on the true full position ``pos``."""
        return self.decide(pos, limit or Limit(), self._search)

    def _search(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        seconds = limit.seconds if limit.seconds is not None else self.seconds
        exact = pos.stock_size == 0 and sum(1 for h in pos.hands if h) <= 2
        # The same search as the fair bot's (its depth and cap), on the one true deal.
        return pimc_choose(pos, moves, lambda: pos, 1, seconds,
                           max_inner=None if exact else MAX_INNER,
                           min_plies=0 if exact else PimcBot.min_plies, cap=PimcBot.cap)


__all__ = ["PimcBot", "PimcOracle", "pimc_choose"]
