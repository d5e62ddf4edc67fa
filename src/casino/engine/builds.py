"""The Build value: cards on the table that can only move as a whole (docs/rules.md §2.3)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from casino.engine.wording import build_notation


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
    #: Whether the text names the owner (``[7s+5h]@1``). Only two decks can put two
    #: builds of the same cards and value on the table, owned by different seats; the
    #: position marks both so that every move's text names exactly one of them.
    owner_shown: bool = field(compare=False, default=False)

    @staticmethod
    def make(value: int, owner: int, groups: tuple[tuple[int, ...], ...]) -> Build:
        """The build of ``groups`` with its cards sorted and its groups in canonical order,
        so that equal builds compare and hash equal however they were formed."""
        cards = tuple(sorted(c for g in groups for c in g))
        return Build(value, owner, cards, _canonical_groups(groups))

    @property
    def multiple(self) -> bool:
        """Whether the build holds more than one group of its value (a multiple build, which
        cannot be raised)."""
        return len(self.groups) > 1

    def text(self) -> str:
        """``[5d+3s]``; a multiple build shows its groups: ``[8h 5d+3s]``; a build
        with a twin owned by another seat names its owner: ``[7s+5h]@1``."""
        body = build_notation(self.groups)
        return f"{body}@{self.owner}" if self.owner_shown else body

    def __str__(self) -> str:
        return self.text()


def mark_twins(table: tuple[int | Build, ...]) -> tuple[int | Build, ...]:
    """``table`` with :attr:`Build.owner_shown` set on exactly the builds that share
    their cards and value with a build of another owner (the same table when no
    mark changes)."""
    builds = [b for b in table if isinstance(b, Build)]
    if not builds or (len(builds) < 2 and not builds[0].owner_shown):
        return table
    seen = Counter((b.value, b.cards) for b in builds)
    if all((seen[b.value, b.cards] > 1) == b.owner_shown for b in builds):
        return table
    return tuple(
        replace(x, owner_shown=seen[x.value, x.cards] > 1) if isinstance(x, Build) else x
        for x in table)


def _canonical_groups(groups: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    ordered = (tuple(sorted(g, reverse=True)) for g in groups)
    return tuple(sorted(ordered, key=lambda g: (len(g), g)))
