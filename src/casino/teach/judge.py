"""The judge: what a move is worth, by a search that sees every card of a full position.

A post-game review (:mod:`casino.teach.review`) values a player's candidate moves
twice. *Fairly*: on K deals of the hidden cards sampled consistently with what the
player saw (:func:`casino.bots.knowledge.sample`), each valued by the judge, so that
the move with the best mean is the one the strongest fair search prefers. And, once
the game is over, *in hindsight*: on the true deal, which the record holds.

The judge is alpha-beta to the end of the current deal (:class:`~casino.bots.solver.Searcher`
with ``horizon="deal"``), standing on :func:`casino.bots.evaluation.deal_start_estimate`
past it and scoring a finished round by its points margin. Every search has a budget
of work and looks at a bounded number of moves per node, so a crowded table costs
polynomial work: it deepens from one ply (each candidate's successor evaluated, which
generates no moves and always completes) two plies at a time, and the deepest
iteration finished within the budget gives the values. The budget counts nodes and
evaluations, not seconds, so the same seed gives the same values on any machine.

The judge is not the truth (it too stops at the deal's end, and its opponents see the
judged player's hand in every sample), but it is one yardstick for every decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from casino.bots import evaluation
from casino.bots.expert import candidates as expert_candidates
from casino.bots.expert import perfect_information
from casino.bots.knowledge import sample
from casino.bots.solver import SearchAborted, Searcher, plies_left
from casino.engine.moves import Move
from casino.engine.position import Position

#: Root moves judged at most (the expert's bound: the best-looking first).
MAX_CANDIDATES = 40
#: Moves searched at most at an inner node (a crowded table's list is cut to these).
MAX_INNER = 25
#: What one new evaluation counts for in a search's budget, in interior nodes: it
#: costs several times a node (a millisecond on a Tablić deal of six cards a hand).
EVALUATION_COST = 4


@dataclass(frozen=True)
class Budget:
    """How hard the judge looks: plies to search (at most to the deal's end) and the
    work one search may do, in interior nodes (a new evaluation counts
    :data:`EVALUATION_COST` of them), before it settles for its last completed depth."""

    depth: int = 8
    nodes: int = 20_000

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"the judge searches one ply or more, not {self.depth}")
        if self.nodes < 1:
            raise ValueError(f"a node budget is one node or more, not {self.nodes}")


def candidate_moves(pos: Position, played: Move | None = None,
                    cap: int = MAX_CANDIDATES) -> list[Move]:
    """The moves judged at ``pos`` (a full position or an observation of its mover):
    the engine's bounded candidates (:meth:`Position.candidate_moves`, never the full
    list on a crowded table), at most ``cap`` of them the best-looking first, and
    ``played`` too when it is not among them."""
    moves = list(pos.candidate_moves().moves)
    cand = list(expert_candidates(pos, moves, cap))
    if played is not None and played not in cand:
        cand.append(played)
    return cand


def judge(pos: Position, moves: Sequence[Move], budget: Budget = Budget()) -> list[float]:
    """The value of each of ``moves`` on the full position ``pos`` for its player to
    move: the margin in round points its side can expect (higher is better)."""
    return judge_depth(pos, moves, budget)[0]


def judge_depth(pos: Position, moves: Sequence[Move],
                budget: Budget = Budget()) -> tuple[list[float], int]:
    """:func:`judge`'s values and the depth they were searched to.

    Iterative deepening: one ply first (each successor evaluated: no move is
    generated, so it always completes), then 2, 4, ... plies up to ``budget.depth``
    or the deal's end, every iteration sharing one budget of work, counted in
    interior nodes and new evaluations (an evaluation costs as much as several
    nodes); the deepest completed iteration gives the values."""
    seat = pos.to_move
    target = max(1, min(budget.depth, plies_left(pos, "deal")))
    s = Searcher(seat, horizon="deal", evaluate=evaluation.deal_start_estimate,
                 terminal=evaluation.value, max_moves=MAX_INNER)

    def counted(p: Position, who: int) -> float:
        # _evaluate calls this only for a position not evaluated yet (memoised).
        s.nodes += EVALUATION_COST
        if s.max_nodes is not None and s.nodes > s.max_nodes:
            raise SearchAborted
        return evaluation.deal_start_estimate(p, who)

    s.evaluate = counted
    values = s.values(pos, moves, 1)
    done = 1
    s.max_nodes = budget.nodes
    for depth in sorted({*range(2, target, 2), target} - {1}):
        try:
            values = s.values(pos, moves, depth)
        except SearchAborted:
            break
        done = depth
    return values, done


def fair_tables(seen: Position, moves: Sequence[Move], samples: int, rng: random.Random,
                budget: Budget = Budget()) -> list[list[float]]:
    """The judge's value of each of ``moves`` on ``samples`` deals of the hidden cards
    consistent with ``seen``, the observation of the player to move (one row per deal).

    When the observer can deduce every card (two players, stock empty: the unseen
    cards are the other hand), there is one deal, judged once."""
    return fair_judgement(seen, moves, samples, rng, budget)[0]


def fair_judgement(seen: Position, moves: Sequence[Move], samples: int, rng: random.Random,
                   budget: Budget = Budget()) -> tuple[list[list[float]], int, bool]:
    """:func:`fair_tables`, the shallowest depth any of its searches reached, and
    whether the observer could deduce every card (then the one deal is the true one,
    and it is searched with the work of all the samples: the last deal is judged
    exactly more often, for the time the samples would have taken)."""
    deals, known = fair_deals(seen, samples, rng)
    tables, depth = judge_deals(deals, moves, samples, budget, known)
    return tables, depth, known


def fair_deals(seen: Position, samples: int,
               rng: random.Random) -> tuple[list[Position], bool]:
    """The full positions :func:`fair_judgement` judges: ``samples`` deals of the hidden
    cards consistent with ``seen`` (drawn from ``rng``), or the one deal the observer
    can deduce, and whether it could (then the list holds that deal only).

    Apart so that a caller may look at the same deals the judge valued (the hint's
    next-player replies, :mod:`casino.teach.hint`)."""
    full = perfect_information(seen)
    if full is not None:
        return [full], True
    return [sample(seen, rng) for _ in range(max(1, samples))], False


def judge_deals(deals: Sequence[Position], moves: Sequence[Move], samples: int,
                budget: Budget, known: bool) -> tuple[list[list[float]], int]:
    """The judge's values of ``moves`` on each of ``deals`` (:func:`fair_deals`) and the
    shallowest depth reached; a ``known`` deal is searched with the work of ``samples``."""
    if known:
        whole = Budget(depth=budget.depth, nodes=budget.nodes * max(1, samples))
        values, reached = judge_depth(deals[0], moves, whole)
        return [values], reached
    tables: list[list[float]] = []
    depth = budget.depth
    for deal in deals:
        values, reached = judge_depth(deal, moves, budget)
        tables.append(values)
        depth = min(depth, reached)
    return tables, depth


def information_value(tables: Sequence[Sequence[float]],
                      true_values: Sequence[float]) -> tuple[float, float]:
    """What not seeing the other cards costs a fair player at a decision, by the judge,
    bracketed from both sides over the consistent deals' ``tables``.

    * The *floor*: the mean of the best value in each deal less the best mean value
      (the move a fair player would choose if the judge's values were known for
      every consistent deal). Later decisions are not counted, and the best of K
      noisy means is biased up, so this is estimated low.
    * The *judge's own fair choice*: the move with the best mean over those deals,
      valued on the true deal (``true_values``), as the played move is. That is a
      fair player (PIMC with the judge's full-deal search and K samples), so its
      loss is one that a fair player does achieve, an estimate from above.
    """
    best_each = sum(max(t) for t in tables) / len(tables)
    means = [sum(t[i] for t in tables) / len(tables) for i in range(len(true_values))]
    pick = max(range(len(true_values)), key=lambda i: means[i])
    return best_each - means[pick], max(true_values) - true_values[pick]


__all__ = [
    "EVALUATION_COST",
    "MAX_CANDIDATES",
    "MAX_INNER",
    "Budget",
    "candidate_moves",
    "fair_deals",
    "fair_judgement",
    "fair_tables",
    "information_value",
    "judge",
    "judge_deals",
    "judge_depth",
]
