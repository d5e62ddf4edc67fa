"""From a picked card and chosen table items to the legal moves they may mean.

A person points at a card of the hand and at some table items; several legal
moves can fit (a capture or a build of the same cards, a build announced as 8
or as 10), so the screen lists them and the person chooses. These are plain
functions of moves and the table, kept apart from the screen so they can be read
and tested on their own. The screen asks the engine for the moves of a card and
its items (:meth:`GameSession.moves_using`), never for every legal move: a
crowded table has hundreds of thousands of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from casino.engine.builds import Build
from casino.engine.cards import card_text
from casino.engine.moves import Move
from casino.engine.position import TableItem
from casino.engine.wording import table_item_words


def uses(move: Move) -> Counter[int | Build]:
    """The table items a move takes or builds on, as a multiset (two decks repeat cards)."""
    return Counter([*move.loose, *move.builds])


def chosen_words(table: Sequence[TableItem], selected: Iterable[int]) -> str:
    """``7♦, the 8-build``: the selected items in words."""
    return ", ".join(table_item_words(table[i]) for i in selected)


def attempt_text(card: int, table: Sequence[TableItem], selected: Iterable[int]) -> str:
    """The card and the selected items as move text (a capture, or a trail without items).

    When no legal move fits the choice, this is handed to the engine so that it
    says in words which rule stands in the way.
    """
    items = [t.text() if isinstance(t, Build) else card_text(t)
             for t in (table[i] for i in selected)]
    return f"{card_text(card)} x {' '.join(items)}" if items else card_text(card)
