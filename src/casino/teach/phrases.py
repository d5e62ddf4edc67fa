"""The teaching layer's small words, in the language in force: lists, points, a build
named as the object of a verb, and what a move leaves on the table.

The hints' reasons and the review's sentences both use them, so a point, a list of
cards or "leaves 5♠ and the 8-build" reads the same in both, in English, Finnish and
Swedish. English is exactly what :mod:`casino.engine.wording` writes; the other
languages come from the catalogs (:mod:`casino.i18n`), at the moment of writing.
"""

from __future__ import annotations

from casino.engine.builds import Build
from casino.engine.cards import card_symbol
from casino.engine.moves import Move
from casino.engine.position import Position, table_after
from casino.engine.wording import cards_words, listing
from casino.i18n import format_number, ngettext, pgettext


def shown_points(x: float) -> tuple[str, int]:
    """``x`` as shown (one decimal, none for a whole number) and the count its noun
    agrees with: the number itself when whole, else 2 (``2.4 points``, ``0.5 points``:
    the plural in every language here)."""
    shown = round(x, 1) + 0.0
    if shown == round(shown):
        return format_number(round(shown)), round(shown)
    return format_number(shown, 1), 2


def points_words(x: float) -> str:
    """``1 point``, ``2.4 points``: a value in round points, one decimal."""
    text, n = shown_points(x)
    return ngettext("%(points)s point", "%(points)s points", n) % {"points": text}


def build_object(b: Build) -> str:
    """A build as the object of a verb (*take*, *leave*): ``the 8-build``; Finnish
    *8:n rakennelman*, Swedish *8-bygget*."""
    return pgettext("object", "the %(value)s-build") % {"value": b.value}


def item_object(item: int | Build) -> str:
    """A table item as the object of a verb: ``7♦`` or ``the 8-build``."""
    return card_symbol(item) if isinstance(item, int) else build_object(item)


def leaves_words(pos: Position, move: Move) -> str:
    """What ``move`` leaves on the table for the next player, from the mover's view:
    ``leaves 5♠, 4♥ and the 8-build``, ``clears the table``."""
    loose, builds = table_after(pos, move)
    parts = ([cards_words(sorted(loose, reverse=True), ", ")] if loose else [])
    parts += [build_object(b) for b in builds]
    if not parts:
        return pgettext("move", "clears the table")
    return pgettext("move", "leaves %(items)s") % {"items": listing(parts)}


__all__ = ["build_object", "item_object", "leaves_words", "points_words",
           "shown_points"]
