"""What a seat knows, and sampling hidden cards consistently with it.

Every captured card was shown, so a seat with perfect memory knows every card
outside the other hands and the stock: the *unseen* cards are the deck less
its own hand, the table, the piles and the cards set aside. Builds tell more:
an owner always holds a card of each value they own (docs/rules.md §2.5). A sample
(a *determinization*) deals the unseen cards to the hidden hands and the stock
so that all of this holds; search bots play on such samples.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace

from casino.engine.builds import Build
from casino.engine.position import Position


@dataclass(frozen=True)
class Knowledge:
    """The facts a seat can rely on in an observed position."""

    seat: int
    #: Cards not visible to the seat (other hands and the stock), as a sorted multiset.
    unseen: tuple[int, ...]
    #: Hand sizes by seat.
    hand_sizes: tuple[int, ...]
    stock_size: int
    #: For each other seat, the build values it must hold a card of.
    must_hold: dict[int, tuple[int, ...]]

    @property
    def hidden_seats(self) -> tuple[int, ...]:
        """The other seats that still hold cards: the hands whose cards a sample must guess."""
        return tuple(s for s, n in enumerate(self.hand_sizes) if s != self.seat and n)


def knowledge(pos: Position, seat: int | None = None) -> Knowledge:
    """The knowledge of ``seat`` (default: the seat to move) in ``pos``."""
    seat = pos.to_move if seat is None else seat
    rules = pos.rules
    seen: Counter[int] = Counter(pos.hand(seat))
    for item in pos.table:
        if isinstance(item, Build):
            seen.update(item.cards)
        else:
            seen[item] += 1
    for pile in pos.piles:
        seen.update(pile)
    seen.update(pos.set_aside)
    unseen: list[int] = []
    for c in range(52):
        unseen.extend([c] * (rules.decks - seen[c]))
    must: dict[int, set[int]] = {}
    for b in pos.builds:
        if b.owner != seat:
            must.setdefault(b.owner, set()).add(b.value)
    return Knowledge(
        seat=seat,
        unseen=tuple(sorted(unseen)),
        hand_sizes=tuple(pos.hand_size(s) for s in range(rules.players)),
        stock_size=pos.stock_size,
        must_hold={s: tuple(sorted(v)) for s, v in must.items()},
    )


def sample(pos: Position, rng: random.Random, seat: int | None = None,
           tries: int = 50) -> Position:
    """A full position (every hand and the stock known) that ``seat`` cannot tell from
    ``pos``: the unseen cards dealt at random to the hidden hands and the stock, each
    build's owner holding a card of its value.

    Rejection first (it keeps the distribution uniform over consistent deals); if
    the constraints are tight, a constructive deal that places the needed cards first.
    """
    k = knowledge(pos, seat)
    played = pos.rules.table.played
    cards = list(k.unseen)
    if len(cards) != sum(k.hand_sizes[s] for s in k.hidden_seats) + k.stock_size:
        raise ValueError("the observation's card counts do not add up")
    for _ in range(tries):
        rng.shuffle(cards)
        hands = _deal(k, cards)
        if all(any(v in played[c] for c in hands[s]) for s, vals in k.must_hold.items()
               for v in vals):
            return _fill(pos, k, hands, cards)
    # Constructive: give each owner one card of each value it must hold, then the rest.
    pool = list(k.unseen)
    rng.shuffle(pool)
    fixed: dict[int, list[int]] = {s: [] for s in k.hidden_seats}
    for s, vals in k.must_hold.items():
        for v in vals:
            if s not in fixed or any(v in played[c] for c in fixed[s]):
                continue
            if len(fixed[s]) >= k.hand_sizes[s]:
                continue
            pick = next((c for c in pool if v in played[c]), None)
            if pick is not None:
                pool.remove(pick)
                fixed[s].append(pick)
    order: list[int] = []
    for s in k.hidden_seats:
        need = k.hand_sizes[s] - len(fixed[s])
        order.extend(fixed[s])
        order.extend(pool[:need])
        del pool[:need]
    order.extend(pool)
    hands = _deal(k, order)
    return _fill(pos, k, hands, order)


def _deal(k: Knowledge, cards: list[int]) -> dict[int, tuple[int, ...]]:
    hands: dict[int, tuple[int, ...]] = {}
    i = 0
    for s in k.hidden_seats:
        n = k.hand_sizes[s]
        hands[s] = tuple(sorted(cards[i:i + n]))
        i += n
    return hands


def _fill(pos: Position, k: Knowledge, hands: dict[int, tuple[int, ...]],
          cards: list[int]) -> Position:
    used = sum(len(h) for h in hands.values())
    stock = tuple(cards[used:used + k.stock_size])
    new_hands = tuple(hands.get(s, pos.hands[s] if s == k.seat else ())
                      for s in range(pos.rules.players))
    return replace(pos, hands=new_hands, stock=stock)
