"""The second rung: the move that scores best right now.

``GreedyBot`` takes the move with the highest :func:`immediate_gain` (cards,
spades, 10♦, 2♠, Aces and sweeps weighted by their points; in Krypkasino the
fewest penalties). Ties, which are common (every trail and build gains 0), go
to the move that plays the least valuable card, so valuable cards stay in hand
for captures, and then to chance. It looks no further: it will happily trail
an Ace or leave a table the opponent sweeps, which is what ``careful`` fixes.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence

from casino.bots.base import Bot, Limit
from casino.bots.evaluation import card_weights, immediate_gain
from casino.engine.moves import CAPTURE, TRAIL, Move
from casino.engine.position import Position

#: Above this many legal moves, only a cheap shortlist is scored (see :func:`shortlist`).
SHORTLIST = 300


def _taken(m: Move) -> int:
    return len(m.loose) + sum(len(b.cards) for b in m.builds)


def shortlist(moves: Sequence[Move], limit: int = SHORTLIST) -> list[Move]:
    """At most about ``limit`` candidates from a possibly huge move list.

    A table of up to 12 loose cards can offer thousands of captures (any subset
    that splits into groups; crowded tables give a short selection anyway:
    :meth:`Position.candidate_moves`). Outside Krypkasino every card taken is
    worth something, so for each played card the captures taking the most cards
    are the ones worth scoring; every trail is kept, and the other moves (builds)
    up to the limit. One pass over the list with a cheap key, so the cost stays
    linear.
    """
    if len(moves) <= limit:
        return list(moves)
    captures: dict[int, list[Move]] = {}
    trails: list[Move] = []
    others: list[Move] = []
    for m in moves:
        if m.kind == CAPTURE:
            captures.setdefault(m.card, []).append(m)
        elif m.kind == TRAIL:
            trails.append(m)
        elif len(others) < limit // 3:
            others.append(m)
    per_card = max(4, (limit - len(trails) - len(others)) // max(1, len(captures)))
    out = trails + others
    for caps in captures.values():
        if len(caps) <= per_card:
            out.extend(caps)
        else:
            # The largest captures, plus a few of the smallest: where captures are
            # compulsory and penalties lurk, taking less can be the better choice.
            out.extend(heapq.nlargest(per_card - 2, caps, key=_taken))
            out.extend(heapq.nsmallest(2, caps, key=_taken))
    return list(dict.fromkeys(out))


def noticed(moves: list[Move], share: float, rng: random.Random) -> list[Move]:
    """The moves a player sees who notices each capture by chance, ``share`` of them
    (1: every one); every other move is seen. All of them when it sees nothing."""
    if share >= 1:
        return moves
    seen = [m for m in moves if m.kind != CAPTURE or rng.random() < share]
    return seen or moves


class GreedyBot(Bot):
    """Best immediate gain; ties to the cheapest card played, then at random."""

    name = "greedy"
    #: The share of its captures it notices, each by chance (1: every one).
    notice: float = 1.0

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """The noticed move with the best immediate gain; ties to the card worth least to
        keep, then at random."""
        seat = pos.to_move
        weights = card_weights(pos)
        best: list[Move] = []
        best_key: tuple[float, float] | None = None
        for m in noticed(shortlist(moves), self.notice, self.rng):
            key = (round(immediate_gain(pos, m, seat), 9), -round(weights[m.card], 9))
            if best_key is None or key > best_key:
                best, best_key = [m], key
            elif key == best_key:
                best.append(m)
        return self.rng.choice(best)
