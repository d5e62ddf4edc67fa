"""Playing for the game where the first to the target *in counting order* wins.

In Mulle (and house rules) a round that takes both sides past the target goes to
the side that gets there first as the items are counted: most spades, each `Td`,
each `2s`, the Aces, the sweeps, the mulles (in the order they were made), the
last capture (docs/rules.md §2.8). A point counted early can then be worth a
game, and five counted late nothing: in half of all Mulle games both sides pass
21 in the same round, and one game in six goes to the side with no more points
(research/bots-log.md, "Mulle: why points a round do not become games"). A player
valuing round points alone cannot see that.

:func:`race` says, from a position in the middle of a round, how likely each side
is to end the game this round. Each stretch of the counting order (a
:class:`Phase`) gives each side points that are banked (in its pile, its sweeps
and mulles) plus points still open: a card not yet taken goes to any side alike,
or to a build's owner mostly; a majority by how decided it is; sweeps and mulles
still to come at the round's usual rate. A side's running total after each phase
is taken as normal, so the chance it has reached the target by then is one
``Φ``; a side wins the race in the phase where it first gets there, if no other
got there in an earlier phase (half the chance where both get there in the same
one). It is a model, cheap enough for every leaf of a search (a few dozen
``Φ`` a position), not a count of the ways the round can go.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from casino.bots.odds import majority_expectation, phi
from casino.engine.memo import per_rules
from casino.engine.position import Position
from casino.engine.rules import Rules
from casino.engine.scheme import (
    CardPoints,
    EachSpade,
    LastCapture,
    Majority,
    Mulles,
    Sweeps,
    is_spade,
    scheme,
)
from casino.engine.scoring import round_items

__all__ = ["Phase", "phases", "race", "race_value"]

#: The spades' card ids.
SPADES = tuple(c for c in range(52) if is_spade(c))

PhaseKind = Literal["cards", "spades", "card", "each-spade", "sweeps", "mulles", "last"]


@dataclass(frozen=True, slots=True)
class Phase:
    """One stretch of the counting order: what it counts and for how many points."""

    kind: PhaseKind
    points: float
    #: The card a ``card`` phase counts (each copy of it scores ``points``).
    card: int = -1
    #: Spades an ``each-spade`` phase does not count.
    besides: tuple[int, ...] = ()


@per_rules
def phases(rules: Rules) -> tuple[Phase, ...]:
    """The counting order of ``rules`` as phases; empty where the game is not a race
    in counting order (another win rule, or penalties).

    >>> from casino.engine.rules import Rules
    >>> [p.kind for p in phases(Rules.preset("mulle"))][:2]
    ['spades', 'card']
    >>> phases(Rules.preset("classic"))
    ()
    """
    sch = scheme(rules)
    if rules.win_rule != "counting-order" or sch.penalty:
        return ()
    out: list[Phase] = []
    for item in sch.items:
        if isinstance(item, Majority):
            out.append(Phase(item.what, float(item.points)))
        elif isinstance(item, CardPoints):
            out.append(Phase("card", float(item.points), card=item.card))
        elif isinstance(item, EachSpade):
            out.append(Phase("each-spade", float(item.points), besides=item.besides))
        elif isinstance(item, Sweeps):
            out.append(Phase("sweeps", float(item.points)))
        elif isinstance(item, Mulles):
            out.append(Phase("mulles", float(item.points)))
        elif isinstance(item, LastCapture):
            out.append(Phase("last", float(item.points)))
    return tuple(out)


def race(pos: Position, *, mulles_a_round: float = 2.2, sweeps_a_round: float = 2.0,
         build_keep: float = 0.75) -> dict[int, float]:
    """Each side's chance to win the game in this round, by the counting-order race
    (empty where the ruleset is no such race, or the round is over).

    ``mulles_a_round`` and ``sweeps_a_round``: how many a side makes in a whole
    round, on average; the rest of the round brings its share of them. The
    defaults are Mulle's between the levels (about 21 points a side a round, sd 8,
    three games in four over in the first round: the model says 74%).
    """
    rules = pos.rules
    order = phases(rules)
    if not order or pos.result is not None:
        return {}
    teams = rules.teams
    n = len(teams)
    share = 1.0 / n
    target = rules.target
    left = (sum(pos.hand_size(s) for s in range(rules.players)) + pos.stock_size) / rules.deck_size
    piles: dict[int, Counter[int]] = {t: Counter() for t in teams}
    for s, pile in enumerate(pos.piles):
        piles[rules.team_of(s)].update(pile)
    owned: list[tuple[int, tuple[int, ...]]] = [
        (rules.team_of(b.owner), b.cards) for b in pos.builds]
    banked = _banked(rules, pos.sweeps, pos.mulles)
    # Running mean and variance of each side's total, through the phases so far.
    mean = {t: float(pos.scores[t]) if pos.scores else 0.0 for t in teams}
    var = {t: 0.0 for t in teams}
    reached_before = {t: 0.0 for t in teams}
    win = {t: 0.0 for t in teams}
    for ph in order:
        _add_phase(ph, rules, piles, owned, banked, left, share, build_keep,
                   mean, var, mulles_a_round, sweeps_a_round)
        reached = {}
        for t in teams:
            gap = mean[t] - (target - 0.5)
            f = phi(gap / math.sqrt(var[t])) if var[t] > 1e-12 else float(gap > 0)
            reached[t] = max(f, reached_before[t])
        for t in teams:
            now = reached[t] - reached_before[t]
            if now <= 0.0:
                continue
            others = 1.0
            for u in teams:
                if u != t:
                    others *= (1.0 - reached[u]) + 0.5 * (reached[u] - reached_before[u])
            win[t] += now * others
        reached_before = reached
    return win


def _banked(rules: Rules, sweeps: Sequence[int],
            mulles: Sequence[int]) -> dict[int, dict[str, float]]:
    """Each side's sweep and mulle points so far, as the scorer counts them."""
    out = {t: {"sweep": 0.0, "mulle": 0.0} for t in rules.teams}
    if sweeps or mulles:
        for it in round_items(rules, [() for _ in range(rules.players)], sweeps, mulles):
            if it.item in out[it.seat]:
                out[it.seat][it.item] += it.points
    return out


def _add_phase(ph: Phase, rules: Rules, piles: dict[int, Counter[int]],
               owned: Sequence[tuple[int, tuple[int, ...]]],
               banked: dict[int, dict[str, float]], left: float, share: float,
               build_keep: float, mean: dict[int, float], var: dict[int, float],
               mulles_a_round: float, sweeps_a_round: float) -> None:
    """Add one phase's points to each side's running mean and variance."""
    pts = ph.points
    if ph.kind in ("cards", "spades"):
        spades = ph.kind == "spades"

        if spades:
            counts = {t: float(sum(p[c] for c in SPADES)) for t, p in piles.items()}
        else:
            counts = {t: float(p.total()) for t, p in piles.items()}
        total = 13 * rules.decks if spades else rules.deck_size
        for t, cards in owned:
            counts[t] += build_keep * sum(1 for c in cards if not spades or is_spade(c))
        chances = majority_expectation(counts, total, 1.0, 1.5 if spades else 2.5)
        for t, chance in chances.items():
            mean[t] += pts * chance
            var[t] += pts * pts * chance * (1.0 - chance)
        return
    if ph.kind in ("card", "each-spade"):
        def scores(c: int) -> bool:
            if ph.kind == "card":
                return c == ph.card
            return is_spade(c) and c not in ph.besides
        copies = (rules.decks if ph.kind == "card"
                  else rules.decks * (13 - len(set(ph.besides))))
        taken = 0
        for t, p in piles.items():
            k = (p[ph.card] if ph.kind == "card"
                 else sum(n for c, n in p.items() if scores(c)))
            mean[t] += pts * k
            taken += k
        for t, cards in owned:
            for c in cards:
                if scores(c):
                    taken += 1
                    mean[t] += pts * build_keep
                    var[t] += pts * pts * build_keep * (1.0 - build_keep)
                    # The rest of the copy's chance goes to the other sides alike.
                    for u in mean:
                        if u != t:
                            q = (1.0 - build_keep) / (len(mean) - 1)
                            mean[u] += pts * q
                            var[u] += pts * pts * q * (1.0 - q)
        free = max(copies - taken, 0)
        for t in mean:
            mean[t] += pts * share * free
            var[t] += pts * pts * share * (1.0 - share) * free
        return
    if ph.kind in ("sweeps", "mulles"):
        key = "sweep" if ph.kind == "sweeps" else "mulle"
        rate = (sweeps_a_round if ph.kind == "sweeps" else mulles_a_round) * left
        for t in mean:
            mean[t] += banked[t][key] + pts * rate
            var[t] += pts * pts * rate
        return
    # The last capture.
    for t in mean:
        mean[t] += pts * share
        var[t] += pts * pts * share * (1.0 - share)


def race_value(pos: Position, seat: int, weight: float, *, mulles_a_round: float = 2.2,
               sweeps_a_round: float = 2.0, build_keep: float = 0.75) -> float:
    """``weight`` times (``seat``'s side's chance to win the game this round less the
    best other side's): what the race adds to a margin evaluation, in its points.

    The weight is a game's worth in round points. On Mulle a point of lead after a
    round that leaves the game open is worth about 7% of a game (``race_win`` in
    :class:`casino.bots.evaluation.EvalParams` says more), so about 7 puts a game
    won this round on the scale of a point of margin.
    """
    chances = race(pos, mulles_a_round=mulles_a_round, sweeps_a_round=sweeps_a_round,
                   build_keep=build_keep)
    if not chances:
        return 0.0
    side = pos.rules.team_of(seat)
    others = [p for t, p in chances.items() if t != side]
    return weight * (chances[side] - (max(others) if others else 0.0))
