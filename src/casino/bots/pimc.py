"""``pimc``: perfect-information Monte Carlo (determinized) search, and its oracle twin.

For each of N samples of the hidden cards (:func:`casino.bots.knowledge.sample`:
consistent with the seen cards, the hand sizes and build ownership) the bot
searches the sampled full position with alpha-beta toward the end of the current
deal (in the last deal, exactly to the round's end), at most :attr:`PimcBot.max_depth`
plies (4), with an evaluation where it stops, and adds up each root move's value
across samples; the best total wins. Round ends are valued for the game
(:func:`casino.bots.solver.game_value`): a round that decides the game counts the
win or loss far above any margin, so near the target the bot plays for the game,
not the round.

Why only 4 plies: on a sample both players see every card, so the deeper the
search, the more each side's later moves are tailored to cards it could not know
(strategy fusion, and an opponent who dodges every threat in one's hand). Against
``expert`` on the same 40 mirrored one-round pairs (research/bots-log.md), capping the
depth at 4 plies (with the evaluation below) scored +1.5 ± 1.1 points per round
more than searching all 8 plies of a deal with ``estimate`` on one seed, +0.0 ±
1.1 on another, at a lower median think time; a whole-game run showed no clear
difference. So the gain is likely but not proven.

The evaluation past the horizon is :func:`casino.bots.evaluation.deal_start_estimate`:
``estimate`` with corrections fitted for the first position of a deal with every
hand known (both players' captures from the table, and who leads in the last deal);
it measured +1.1 ± 1.1 points per round over plain ``estimate`` at full depth.

Time: ``limit.iterations`` samples (default 20) within ``limit.seconds`` (default
1 s). The first sample fixes the depth: the full deal (or ``max_depth``) if it fits
a share of the time, else two plies less until it does (one ply, which only
evaluates each candidate's successor, always completes); later samples use that
depth and the search stops at the deadline, counting only completed samples. The
seconds count from the call to :meth:`Bot.choose`, so generating the candidates
comes out of them; the search reads the clock at every node, and stops generating
a crowded table's moves at the deadline (:meth:`casino.bots.solver.Searcher._moves`).

Two options, off by default because neither measured better against ``expert``
(40 mirrored single-round pairs, same seeds, full-depth search, margin per round
paired with the default: ``cap=3``: -0.40 ± 0.38 s.e.; ``min_plies=8``: -0.84 ±
0.55 s.e. and a median think time of 0.74 s instead of 0.05 s):
``min_plies`` searches past the deal's end when fewer plies than that are left in
it, and ``cap`` values each sample's clearly worse moves only as "``cap`` points or
more worse" (:meth:`casino.bots.solver.Searcher.values`), two to three times
faster at the start of a deal, at the price of a bias toward risky moves.

``PimcOracle`` (``pimc-oracle``) runs the same search (the fair bot's depth,
evaluation and options) on the true full position (no sampling). It sees every
card, so it is only a yardstick: how close the fair bots come to perfect
information. It refuses observations; the arena calls :meth:`PimcOracle.choose_full`.
It is never offered as an opponent.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from casino.bots import compiled as bots_core
from casino.bots import evaluation
from casino.bots.base import EvaluatingBot, Limit
from casino.bots.expert import MAX_INNER, candidates, perfect_information
from casino.bots.knowledge import sample
from casino.bots.solver import (
    Evaluator,
    SearchAborted,
    Searcher,
    best_over_samples,
    default_estimate,
    game_value,
    plies_left,
    remember_moves,
)
from casino.engine.moves import Move
from casino.engine.position import Position


def pimc_choose(pos: Position, moves: list[Move], draw: Callable[[], Position], n: int,
                seconds: float, max_inner: int | None = MAX_INNER,
                min_plies: int = 0, cap: float | None = None,
                max_depth: int | None = None, evaluate: Evaluator | None = None) -> Move:
    """The move with the best total value over up to ``n`` positions from ``draw()``.

    ``pos`` is the position the moves belong to (an observation or a full position);
    each drawn position must agree with it on the mover's hand and the table.
    With ``min_plies``, when fewer plies than that are left in the deal (and a next
    deal exists), the search goes on into the next deal (the sample deals it) to
    ``min_plies`` plies, so the deal's last moves see the next deal's first ones.
    ``cap``: see :meth:`Searcher.values` (moves searched best-total-first).
    ``max_depth``: plies searched at most (the evaluation stands in past them).
    ``evaluate``: the evaluation past the horizon (default :func:`default_estimate`).
    """
    start = time.perf_counter()
    deadline = start + seconds
    seat = pos.to_move
    # Every drawn position shares the mover's hand and table: its moves are these.
    remember_moves(pos, moves)
    cand = candidates(pos, moves)
    evaluate = evaluate or default_estimate()
    depth: int | None = None
    horizon = "deal"

    def values(k: int, totals: list[float]) -> list[float]:
        nonlocal depth, horizon
        full = draw()
        if depth is not None:
            s = Searcher(seat, horizon=horizon, evaluate=evaluate, terminal=game_value,
                         deadline=deadline, max_moves=max_inner)
            return s.values(full, cand, depth, cap, _order(totals))
        # The first sample fixes the depth that fits a share of the time.
        d = plies_left(full, "deal")
        if d < min_plies and full.stock_size:
            horizon = "round"
            d = min(min_plies, plies_left(full, "round"))
        if max_depth is not None:
            d = max(1, min(d, max_depth))
        # (Never past the deadline: with one sample, twice its share would be.)
        share = min(deadline, start + max(seconds / 3, seconds / max(1, n) * 2))
        while True:
            # One ply generates no moves (each candidate's successor is evaluated), so
            # it needs no deadline: the first sample always completes.
            s = Searcher(seat, horizon=horizon, evaluate=evaluate, terminal=game_value,
                         deadline=share if d > 1 else None, max_moves=max_inner)
            try:
                vals = s.values(full, cand, d, cap, _order(totals))
                break
            except SearchAborted:
                d = max(1, d - 2)
        depth = d
        return vals

    return best_over_samples(cand, n, deadline, values)


def _order(totals: list[float]) -> list[int]:
    """Indices by total so far, best first (stable: ties keep the candidates' order)."""
    return sorted(range(len(totals)), key=lambda i: -totals[i])


class PimcBot(EvaluatingBot):
    """Perfect-information Monte Carlo: each sample of the hidden cards searched a few plies
    with alpha-beta, each move's values summed over the samples (see the module's notes)."""
    name = "pimc"
    samples = 20
    seconds = 1.0
    #: Plies searched at least (past the deal's end when it is nearer); 0: the deal's end.
    min_plies = 0
    #: Loss cap of the per-sample values (see :meth:`Searcher.values`); None: exact.
    cap: float | None = None
    #: Plies searched at most; None: to the horizon (see the module's notes).
    max_depth: int | None = 4
    #: The evaluation past the horizon, by its name in :mod:`casino.bots.evaluation`.
    leaf_eval = "deal_start_estimate"

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """The move with the best total over the samples done within the time (one exact
        sample when nothing is hidden); on the compiled core where it can hold the position."""
        n = limit.iterations if limit.iterations is not None else self.samples
        seconds = limit.seconds if limit.seconds is not None else self.seconds
        full = perfect_information(pos)
        on_core = self._on_core(pos)
        if full is not None:
            # Nothing is hidden: one exact sample says all that N would.
            known = full
            if on_core:
                got = _core_choice(pos, moves, [known], seconds)
                if got is not None:
                    return got
            return pimc_choose(pos, moves, lambda: known, 1, seconds, max_inner=None)
        rng: random.Random = self.rng
        if on_core:
            # The compiled core searches every sample in one call, as the Python loop
            # below would (the same values: tests/test_core.py), many times faster.
            deals = [sample(pos, rng) for _ in range(max(1, n))]
            got = _core_choice(pos, moves, deals, seconds, cap=self.cap,
                               depth=self.max_depth, max_inner=MAX_INNER)
            if got is not None:
                return got
        return pimc_choose(pos, moves, lambda: sample(pos, rng), n, seconds,
                           min_plies=self.min_plies, cap=self.cap, max_depth=self.max_depth,
                           evaluate=evaluation.evaluator(self.leaf_eval, self.eval_params))


    def _on_core(self, pos: Position) -> bool:
        """Whether the compiled core can run this bot's search here: two players, the
        shipped evaluation and constants, and no search past the deal's end."""
        return (self.leaf_eval == "deal_start_estimate" and self.min_plies == 0
                and self.eval_params == evaluation.DEFAULT_PARAMS
                and bots_core.evaluation_ready(pos.rules))


def _core_choice(pos: Position, moves: list[Move], deals: list[Position], seconds: float,
                 *, cap: float | None = None, depth: int | None = None,
                 max_inner: int | None = None) -> Move | None:
    """:func:`pimc_choose` on the compiled core: the candidates' totals over the samples
    searched within ``seconds`` (at least one), the best total's move; ``None`` where
    the core cannot answer (the caller searches in Python)."""
    deadline = time.perf_counter() + seconds
    cand = candidates(pos, moves)
    rows = bots_core.sampled_values(deals, cand, game=True, cap=cap, deadline=deadline,
                                    depth=depth, max_moves=max_inner)
    if rows is None:
        return None
    totals = [0.0] * len(cand)
    for row in rows:
        for i, v in enumerate(row):
            totals[i] += v
    return cand[max(range(len(cand)), key=lambda i: totals[i])]


class PimcOracle(EvaluatingBot):
    """The PIMC search on the true position: a measuring stick, never an opponent."""

    name = "pimc-oracle"
    sees_all = True
    seconds = 1.0
    #: The fair bot whose search settings (depth, cap, evaluation and its constants)
    #: it copies; other constants passed to the oracle itself (``eval_params``) win.
    fair: type[PimcBot] = PimcBot

    def choose(self, observation: dict[str, Any] | Position, limit: Limit | None = None) -> Move:
        """Refused: the oracle sees every card, so it plays only through
        :meth:`choose_full`."""
        raise TypeError("pimc-oracle sees every card: call choose_full(position, limit), "
                        "it cannot play from an observation")

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """Refused as :meth:`choose` is: only :meth:`choose_full` may call the search."""
        raise TypeError("pimc-oracle plays only through choose_full")

    def choose_full(self, pos: Position, limit: Limit | None = None) -> Move:
        """The move the PIMC search picks on the true full position ``pos``."""
        return self.decide(pos, limit or Limit(), self._search)

    def _search(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        seconds = limit.seconds if limit.seconds is not None else self.seconds
        exact = pos.stock_size == 0 and sum(1 for h in pos.hands if h) <= 2
        # The same search as the fair bot's (its depth, cap and evaluation), on the one
        # true deal; in the last deal, exact as the fair bot is there.
        fair = self.fair
        return pimc_choose(pos, moves, lambda: pos, 1, seconds,
                           max_inner=None if exact else MAX_INNER,
                           min_plies=0 if exact else fair.min_plies, cap=fair.cap,
                           max_depth=None if exact else fair.max_depth,
                           evaluate=evaluation.evaluator(fair.leaf_eval, self._params()))

    def _params(self) -> evaluation.EvalParams:
        """The evaluation's constants: the oracle's own if given others, else the fair
        bot's (so a variant of the fair bot is measured against its own oracle)."""
        if self.eval_params != evaluation.DEFAULT_PARAMS:
            return self.eval_params
        return self.fair.eval_params


__all__ = ["PimcBot", "PimcOracle", "pimc_choose"]
