"""The bots' searches on the compiled core (:mod:`casino.engine.core`), where there is one.

The core searches whole positions in C; what it stands on at a deal's end is the bots'
own evaluation (:func:`casino.bots.evaluation.deal_start_estimate`), which this module
hands it once per ruleset: each card's own points, the majorities and the shipped
constants. Only two-player rulesets and the shipped constants are handed over (the
evaluation's terms for more players read what a seat knows, not the sample); anything
else is searched in Python, as before. tests/test_core.py holds the core's evaluation
equal to the Python one.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.bots import evaluation
from casino.bots.evaluation import DEFAULT_PARAMS, direct_points
from casino.engine import core
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.rules import Rules
from casino.engine.scheme import scheme


def evaluation_ready(rules: Rules) -> bool:
    """Whether the core evaluates positions of ``rules`` (handing it the evaluation
    where it holds none yet: the first time, and again whenever the core's copy of the
    ruleset was made afresh): a core is built and the ruleset has two players."""
    if core.module() is None or rules.players != 2:
        return False
    if core.has_evaluation(rules):
        return True
    sch = scheme(rules)
    cards = sch.majority("cards")
    spades = sch.majority("spades")
    spades_on = spades is not None and not rules.spades_above_7
    p = DEFAULT_PARAMS
    params = (p.build_keep_safe, p.build_keep_threatened, p.tempo, p.clump_cards,
              p.clump_spades, *p.deal_start, *p.deal_start_last)
    return core.set_evaluation(
        rules, [direct_points(rules, c) for c in range(52)],
        cards.points if cards is not None else -1,
        spades.points if spades is not None and spades_on else -1,
        bool(spades is not None and spades.carries), params)


def deal_values(full: Position, moves: Sequence[Move], *, deadline: float | None = None,
                max_nodes: int | None = None) -> list[float] | None:
    """Each of ``moves``' exact value on the whole position ``full`` searched to the end
    of its deal, standing there on ``deal_start_estimate`` (a round that ends is its
    margin): the judge's full-deal search of one sampled deal. ``None`` where the core
    cannot answer (none built, more than two players, a position beyond its sizes, or
    the deadline or node budget ran out)."""
    if not evaluation_ready(full.rules):
        return None
    return core.solve(full, moves, game=False, deadline=deadline, max_nodes=max_nodes,
                      every_value=True, horizon="deal")


def sampled_values(deals: Sequence[Position], moves: Sequence[Move], *, game: bool = False,
                   cap: float | None = None, deadline: float | None = None,
                   max_nodes: int | None = None, depth: int | None = None,
                   max_moves: int | None = None,
                   fresh: bool = False) -> list[list[float]] | None:
    """A whole decision in one call to the core: each of ``deals`` (sampled whole positions
    that agree on what the mover sees) searched to the end of its deal as
    :func:`deal_values` does, one row of ``moves``' values per deal searched before the
    deadline or the node budget ran out (``cap``: :func:`casino.engine.core.solve_each`'s
    loss cap; ``game``: a round that ends the game weighs the game; ``depth``: plies at
    most, the evaluation standing in past them; ``max_moves``: moves searched at most at
    an inner node, the best-looking first; ``fresh``: where ``max_nodes`` stops depends on
    this call alone). ``None`` where the core cannot answer."""
    if not deals or not evaluation_ready(deals[0].rules):
        return None
    return core.solve_each(deals, moves, game=game, deadline=deadline, max_nodes=max_nodes,
                           cap=cap, horizon="deal", depth=depth, max_moves=max_moves,
                           fresh=fresh)


__all__ = ["deal_values", "evaluation", "evaluation_ready", "sampled_values"]
