"""How good a position is for a seat, in round points (higher is better for it).

``value(pos, seat)`` is exact once the round is over (its result's items) and a
heuristic before: the round scored as if it ended now, from the piles. Search
bots call it at their horizon; the stable signature is ``value(pos, seat) -> float``.
For Krypkasino, whose points are penalties, the sign is turned so that higher
is still better.
"""

from __future__ import annotations

from casino.position import Position
from casino.scoring import Item, round_items


def _margin(items: list[Item] | tuple[Item, ...], pos: Position, seat: int) -> float:
    rules = pos.rules
    side = rules.team_of(seat)
    totals = {t: 0.0 for t in rules.teams}
    for it in items:
        totals[it.seat] += it.points
    mine = totals[side]
    others = [v for t, v in totals.items() if t != side]
    margin = mine - (max(others) if others else 0.0)
    return -margin if rules.scoring == "krypkasino" else margin


def value(pos: Position, seat: int) -> float:
    """Round points of ``seat``'s side less the best other side's (exact at the end)."""
    if pos.result is not None:
        return _margin(pos.result.items, pos, seat)
    items = round_items(pos.rules, pos.piles, pos.sweeps, pos.mulles, pos.last_capture,
                        pos.carry)
    return _margin(items, pos, seat)
