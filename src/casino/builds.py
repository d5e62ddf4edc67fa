"""The Build value: cards on the table that can only move as a whole (RULES.md §2.3)."""

from __future__ import annotations

from dataclasses import dataclass, field

from casino.cards import card_text


@dataclass(frozen=True, slots=True, order=True)
class Build:
    """A build of ``value`` owned by seat ``owner``.

    Identity is the value, the owner and the multiset of cards: how a multiple
    build's cards split into groups has no effect on play once it is made (a
    multiple build is never raised and is only ever taken whole), and whether
    it is single or multiple follows from its total. ``groups`` is kept for
    showing the build and is not compared.
    """

    value: int
    owner: int
    cards: tuple[int, ...]
    groups: tuple[tuple[int, ...], ...] = field(compare=False, default=())

    @staticmethod
    def make(value: int, owner: int, groups: tuple[tuple[int, ...], ...]) -> Build:
        cards = tuple(sorted(c for g in groups for c in g))
        return Build(value, owner, cards, _canonical_groups(groups))

    @property
    def multiple(self) -> bool:
        return len(self.groups) > 1

    def text(self) -> str:
        """``[5d+3s]``; a multiple build shows its groups: ``[8h 5d+3s]``."""
        return "[" + " ".join("+".join(card_text(c) for c in g) for g in self.groups) + "]"

    def __str__(self) -> str:
        return self.text()


def _canonical_groups(groups: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    ordered = (tuple(sorted(g, reverse=True)) for g in groups)
    return tuple(sorted(ordered, key=lambda g: (len(g), g)))
