"""Lists of moves shown to people: ranked, capped, and honest about the rest.

A crowded table (Finnish Kasino lets people trail until 20-odd loose cards lie
there) has hundreds of thousands of legal moves, and nobody reads a list of
them. Every list a person sees (the move helper, the terminal game's options)
is therefore made here from a bounded :class:`~casino.engine.legality.MoveList`
(:meth:`Position.candidate_moves`, :meth:`Position.moves_of`, or the moves
using picked items): ranked as :func:`casino.engine.legality.ranked` orders them
(the biggest captures first, the trail last), cut to :data:`MAX_SHOWN`, with
the count of what was left out and whether the list found every legal move,
so the page or the terminal can say "and 12 more" or "pick a card to see its
other plays". A move that must be seen (the computer's pick) is always kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casino.engine.legality import MoveList, ranked
from casino.engine.moves import Move
from casino.i18n import _, ngettext

#: The most moves one list shows: a screen's worth, and a bounded answer however
#: crowded the table.
MAX_SHOWN = 40


@dataclass(frozen=True)
class Shortlist:
    """Ranked moves to show, and what was left out.

    ``more``: moves found but not shown (the list was capped). ``complete``: the
    moves found were every legal move, so ``more`` counts the rest exactly; when it
    is False the table is crowded and other legal moves exist that no list names
    (a card's own list, the items a person picks, or typed notation reach them).
    """

    moves: tuple[Move, ...]
    more: int
    complete: bool

    @property
    def total(self) -> int | None:
        """How many legal moves there are, when the list knows (``complete``)."""
        return len(self.moves) + self.more if self.complete else None

    @property
    def everything(self) -> bool:
        """Whether the list shows every legal move."""
        return self.complete and self.more == 0


def shortlist(found: MoveList | Sequence[Move], keep: Move | None = None,
              limit: int = MAX_SHOWN, *, complete: bool | None = None) -> Shortlist:
    """The first ``limit`` of ``found`` in :func:`~casino.engine.legality.ranked` order, with
    ``keep`` (a legal move, say the computer's pick) among them even when it ranks
    lower or was not found. A plain sequence is taken as complete unless told."""
    if limit < 1:
        raise ValueError(f"a list shows at least one move, not {limit}")
    if isinstance(found, MoveList):
        moves, whole = found.moves, found.complete
    else:
        moves, whole = tuple(found), True
    if complete is not None:
        whole = complete
    order = ranked(list(dict.fromkeys(moves)))
    shown = order[:limit]
    if keep is not None and keep not in shown:
        shown = ranked([*shown[:limit - 1], keep])
    found_set = set(order)
    left = len(order) - sum(1 for m in shown if m in found_set)
    return Shortlist(tuple(shown), left, whole)


def _more(n: int, noun: str) -> str:
    """``12 more plays`` (``noun``: ``play``, ``move`` or ``option``), in the language in
    force."""
    if noun == "move":
        text = ngettext("%(n)s more move", "%(n)s more moves", n)
    elif noun == "option":
        text = ngettext("%(n)s more option", "%(n)s more options", n)
    else:
        text = ngettext("%(n)s more play", "%(n)s more plays", n)
    return text % {"n": n}


def _others(noun: str) -> str:
    """``other plays`` (``noun``: ``play``, ``move`` or ``option``), in the language in
    force."""
    if noun == "move":
        return _("other moves")
    if noun == "option":
        return _("other options")
    return _("other plays")


def rest_words(short: Shortlist, noun: str = "play") -> str:
    """``and 12 more plays`` / ``and other plays``: what the list leaves out, in words
    (empty when it shows everything), in the language in force. ``noun`` is what the
    list holds: ``play``, ``move`` or ``option``."""
    if short.everything:
        return ""
    if short.complete:
        return _("and %(more)s") % {"more": _more(short.more, noun)}
    if short.more:
        return _("and %(more)s found, and others") % {"more": _more(short.more, noun)}
    return _("and %(others)s") % {"others": _others(noun)}
