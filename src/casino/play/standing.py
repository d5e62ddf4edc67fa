"""Where a round stands, from one seat's view: the points so far and the cards unseen
(who captured last is :attr:`Position.last_capture`).

A player at a real table keeps these in their head; the computer does too (the
bots count cards), so the front ends show them. Everything here is read from an
observation (:meth:`Position.observe`, :attr:`GameSession.view`): the piles,
the sweeps, the table and one's own hand are public to that seat, other hands and
the stock are not, so nothing here can leak a hidden card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from casino.engine.cards import RANKS, SUIT_SYMBOLS, card
from casino.engine.position import Position
from casino.engine.scoring import round_items


def round_so_far(view: Position) -> dict[int, int]:
    """Each side's points if the round were scored on the piles as they stand.

    Keyed by side (a partnership's first seat, as :attr:`Rules.teams`). The cards
    still on the table are left out, and so is the last capture's point: both are
    only settled when the round ends. In Krypkasino these are penalty points.
    """
    rules = view.rules
    points = dict.fromkeys(rules.teams, 0)
    if view.result is not None:
        for item in view.result.items:
            points[item.seat] += item.points
        return points
    for item in round_items(rules, view.piles, view.sweeps, view.mulles, None, view.carry):
        points[item.seat] += item.points
    return points


@dataclass(frozen=True)
class Unseen:
    """The cards one seat has not seen, as a multiset (two decks repeat cards), and
    where they are: in the other players' hands or in the stock."""

    cards: Counter[int]
    in_hands: int
    in_stock: int
    decks: int

    @property
    def count(self) -> int:
        """How many cards are unseen, copies counted."""
        return sum(self.cards.values())

    def by_suit(self) -> list[tuple[str, list[tuple[str, int]]]]:
        """For each suit, each rank and how many of its copies are unseen (0 to decks)."""
        rows = []
        for suit, symbol in enumerate(SUIT_SYMBOLS):
            ranks = [("10" if r == 9 else RANKS[r], self.cards[card(r, suit)])
                     for r in range(len(RANKS))]
            rows.append((symbol, ranks))
        return rows

    def words(self) -> str:
        """``♠ A 7 J K; ♥ none; ...``: the unseen cards suit by suit, for plain text
        (with two decks a rank is named once for each unseen copy: ``♠ A A 7``)."""
        parts = []
        for symbol, ranks in self.by_suit():
            names = [name for name, n in ranks for _ in range(n)]
            parts.append(f"{symbol} " + (" ".join(names) if names else "none"))
        return "; ".join(parts)


def unseen(view: Position, seat: int) -> Unseen:
    """The cards ``seat`` has not seen this round: the whole deck less its own hand,
    the table (loose cards and builds), every pile and the cards set aside.

    What the others hold and the stock are made of exactly these cards.
    """
    rules = view.rules
    seen: Counter[int] = Counter()
    own = view.hands[seat]
    if isinstance(own, tuple):
        seen.update(own)
    for item in view.table:
        seen.update((item,) if isinstance(item, int) else item.cards)
    for pile in view.piles:
        seen.update(pile)
    seen.update(view.set_aside)
    deck: Counter[int] = Counter({c: rules.decks for c in range(52)})
    left = deck - seen
    in_hands = sum(view.hand_size(s) for s in rules.seats if s != seat)
    return Unseen(left, in_hands, view.stock_size, rules.decks)


__all__ = ["Unseen", "round_so_far", "unseen"]
