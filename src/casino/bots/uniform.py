"""Determinized search without our own strategy fusion at the next turn.

Plain PIMC searches each sample of the hidden cards as if every card were
visible, so on a sample the bot's *own* next move is tailored to the opponent's
hidden hand: after a build it "knows" whether to take the build at once or to
leave it, and that imagined flexibility is credited to the build. Here the
bot's move at its next turn (ply 3) is one choice for every sample that agrees
with what it will have seen by then (its first move and the reply), as in the
αμ algorithm (Cazenave) with one vector: the opponent's replies are still chosen
sample by sample (it knows its own hand), but our second move is the one with
the best *total* over those samples.

Two sides only: with more players the reply is several moves and the bot falls
back to plain per-sample search.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from casino.bots.solver import EXACT, Evaluator, SearchAborted, Searcher, game_value, ordered_moves
from casino.moves import Move
from casino.position import Position

#: One sample's table for a root move: the value of each of our second moves after
#: each reply (keyed by the reply), or a float when the line ends before our turn.
ReplyTable = dict[Move, list[float] | float]


def sample_tables(full: Position, seat: int, cand: Sequence[Move], evaluate: Evaluator,
                  deadline: float | None, max_moves: int | None) -> list[ReplyTable | float]:
    """For each root move: its value if nothing follows, else the reply table of ``full``."""
    s = Searcher(seat, horizon="deal", evaluate=evaluate, terminal=game_value,
                 deadline=deadline, max_moves=max_moves)
    s._prepare(full)
    out: list[ReplyTable | float] = []
    for m1 in cand:
        p1 = full.successor(m1)
        leaf = s._leaf(p1)
        if leaf is not None:
            out.append(leaf)
            continue
        table: ReplyTable = {}
        for r in ordered_moves(p1, None, max_moves):
            p2 = p1.successor(r)
            leaf = s._leaf(p2)
            if leaf is not None:
                table[r] = leaf
                continue
            if p2.to_move != seat:  # not our turn (cannot happen with two sides)
                table[r] = s.alphabeta(p2, 2, -EXACT, EXACT)
                continue
            table[r] = [s.alphabeta(p2.successor(m2), 1, -EXACT, EXACT)
                        for m2 in ordered_moves(p2, None, max_moves)]
        out.append(table)
    return out


def uniform_totals(tables: Sequence[Sequence[ReplyTable | float]], n_moves: int) -> list[float]:
    """Each root move's total over the samples when our second move is one choice per
    history (root move, reply) for all the samples where that reply was possible."""
    totals = [0.0] * n_moves
    for i in range(n_moves):
        sums: dict[Move, list[float]] = {}
        for t in tables:
            ti = t[i]
            if isinstance(ti, float):
                continue
            for r, vals in ti.items():
                if isinstance(vals, list):
                    acc = sums.get(r)
                    if acc is None:
                        sums[r] = list(vals)
                    else:
                        for j, v in enumerate(vals):
                            acc[j] += v
        choice = {r: max(range(len(acc)), key=acc.__getitem__) for r, acc in sums.items()}
        for t in tables:
            ti = t[i]
            if isinstance(ti, float):
                totals[i] += ti
                continue
            worst = float("inf")
            for r, vals in ti.items():
                v = vals[choice[r]] if isinstance(vals, list) else vals
                if v < worst:
                    worst = v
            totals[i] += worst
    return totals


def uniform_choose(pos: Position, cand: Sequence[Move], draw: Callable[[], Position],
                   n: int, deadline: float, evaluate: Evaluator,
                   max_moves: int | None, first_deadline: float) -> Move | None:
    """The root move with the best total over up to ``n`` samples; ``None`` when not
    even the first sample completes by ``deadline`` (the caller falls back to a
    cheaper search)."""
    seat = pos.to_move
    tables: list[list[ReplyTable | float]] = []
    for k in range(max(1, n)):
        try:
            tables.append(sample_tables(draw(), seat, cand, evaluate,
                                        deadline if k else first_deadline, max_moves))
        except SearchAborted:
            break
        if time.perf_counter() > deadline:
            break
    if not tables:
        return None
    totals = uniform_totals(tables, len(cand))
    return cand[max(range(len(cand)), key=totals.__getitem__)]
