"""Reading the other hands from how they were played in this deal.

Uniform samples of the hidden cards (:func:`casino.bots.knowledge.sample`) ignore
what the other players' choices say: a player who trailed a 3 while the 10♦ lay
on the table most likely held no 10, and a player who took a lone 2 with a 2
rather than a pair of 7s probably held no 7. Here each sample is weighed by how
likely the plays seen in this deal are under a simple model of the player,
and samples are drawn from a pool in proportion to those weights (importance
resampling). Nothing of a previous deal is used: a new deal's hands are fresh
from the stock, so earlier plays say nothing about them.

The model: a player picks each legal move with probability proportional to
``exp(gain / TEMPERATURE)``, the gain being the points the move secures at once
(:func:`casino.bots.evaluation.immediate_gain`). Strong players do not play
greedily, so the model is only a soft lean: a declined capture of a few points
makes the hands that could have made it some times less likely, never impossible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from casino.bots.evaluation import immediate_gain
from casino.bots.knowledge import sample
from casino.moves import Move
from casino.position import Position

#: Points of immediate gain that make a move e times likelier in the player model.
TEMPERATURE = 1.0
#: Candidate samples drawn per sample wanted (the pool the weights choose from).
POOL = 4

#: A play seen in this deal: the position as the observer saw it before, and the play.
Play = tuple[Position, Move]


def play_likelihood(before: Position, move: Move, hand: tuple[int, ...]) -> float:
    """The model's probability that the player to move in ``before``, holding ``hand``,
    plays ``move`` (0 when it is not a legal play of that hand)."""
    mover = before.to_move
    hands = tuple(hand if s == mover else h for s, h in enumerate(before.hands))
    q = replace(before, hands=hands)
    moves = q.legal_moves()
    if move not in moves:
        return 0.0
    gains = [immediate_gain(q, m) for m in moves]
    top = max(gains)
    total = math.fsum(math.exp((g - top) / TEMPERATURE) for g in gains)
    return math.exp((immediate_gain(q, move) - top) / TEMPERATURE) / total


def deal_plays(pos: Position, history: Sequence[Play]) -> list[Play]:
    """The plays of ``history`` made by other seats in ``pos``'s deal."""
    seat = pos.to_move
    return [(b, m) for b, m in history
            if b.round == pos.round and b.deal == pos.deal and b.to_move != seat]


class PlayReader:
    """Weighs full positions (samples of ``pos``) by the likelihood of ``plays``."""

    def __init__(self, plays: Sequence[Play]) -> None:
        self.plays = list(plays)
        self._cache: dict[tuple[int, tuple[int, ...]], float] = {}

    def weight(self, full: Position) -> float:
        """The likelihood of the plays if ``full``'s hidden hands are the true ones."""
        w = 1.0
        for k, (before, move) in enumerate(self.plays):
            s = before.to_move
            later = [m.card for b, m in self.plays[k:] if b.to_move == s]
            hand = tuple(sorted((*full.hand(s), *later)))
            key = (k, hand)
            p = self._cache.get(key)
            if p is None:
                p = self._cache[key] = play_likelihood(before, move, hand)
            w *= p
            if not w:
                break
        return w


def inferred_sampler(pos: Position, history: Sequence[Play], rng: random.Random,
                     n: int) -> Callable[[], Position]:
    """A ``draw()`` of samples of ``pos`` weighted by the plays seen in this deal (plain
    uniform samples when there are none, or when no pooled sample explains them)."""
    plays = deal_plays(pos, history)
    if not plays:
        return lambda: sample(pos, rng)
    reader = PlayReader(plays)
    pool = [sample(pos, rng) for _ in range(max(1, POOL * n))]
    weights = [reader.weight(p) for p in pool]
    if not math.fsum(weights) > 0.0:
        return lambda: sample(pos, rng)
    return lambda: rng.choices(pool, weights)[0]


__all__ = ["PlayReader", "deal_plays", "inferred_sampler", "play_likelihood"]
