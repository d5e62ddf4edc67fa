"""The wording primitives every layer shares: counts, lists, groups and builds.

Cards, groups of cards, builds and counted nouns appear in the engine's own
text (a position printed for a log, why a move is illegal), in the narration,
in the terminal and web games, in the tools and on the command line. Each of
them is worded here once, so ``2 cards``, ``9♣, 4♣ + 5♥ and the 8-build`` and
``[5♦+3♠]`` read the same wherever they are shown. The module lives in the
engine, and uses the standard library only, because the engine words things
too and may import nothing outside itself; every other layer may import it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from casino.engine.cards import CARD_TEXTS, card_symbol
from casino.i18n import _, ngettext, pgettext, pN_

if TYPE_CHECKING:
    from casino.engine.builds import Build

#: Plurals that do not add an ``s``, and verbs that agree with a count (``is``/``are``).
_IRREGULAR = {"match": "matches", "this": "these", "is": "are", "goes": "go", "was": "were",
              "has": "have"}


def noun(n: int, word: str, words: str | None = None) -> str:
    """``word`` in the number ``n`` asks for: ``card`` for 1, ``cards`` otherwise.

    ``words`` names an irregular plural; a few common ones are known."""
    if n == 1:
        return word
    return words or _IRREGULAR.get(word, word + "s")


def plural(n: int, word: str, words: str | None = None, *, zero: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 sweeps``: a count and its noun.

    ``zero`` words a count of nothing (``zero="no"``: ``no sweeps``)."""
    count = zero if n == 0 and zero is not None else str(n)
    return f"{count} {noun(n, word, words)}"


def times(n: int) -> str:
    """``once``, ``twice``, ``3 times``: how often something happens or is given, in the
    language in force (Finnish *kerran*, *kahdesti*, Swedish *en gång*, *två gånger*)."""
    if n == 1:
        return _("once")
    if n == 2:
        return _("twice")
    return ngettext("%(n)s time", "%(n)s times", n) % {"n": n}


#: The words :func:`listing` puts before its last part, translated where a list is made.
_LAST_WORDS = {"and": pN_("listing", "and"), "or": pN_("listing", "or")}


def listing(parts: Sequence[str], *, serial: bool = False, last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``: parts in a sentence.

    ``serial`` puts a comma before the last ``and`` too; the move helper uses it
    when a part carries its own clause (``5♥ + 4♣ because 5 + 4 = 9``), where an
    ``and`` without a comma would read as part of that clause. ``last`` is the
    word before the last part (``or`` for alternatives); ``and`` and ``or`` are said in
    the language in force (*ja*/*tai*, *och*/*eller*)."""
    if len(parts) <= 1:
        return "".join(parts)
    if last in _LAST_WORDS:
        last = pgettext("listing", _LAST_WORDS[last])
    comma = "," if serial else ""
    return ", ".join(parts[:-1]) + f"{comma} {last} " + parts[-1]


def cards_words(cards: Iterable[int], sep: str = " ") -> str:
    """``9♣ 4♦``: cards by their symbols, in the order given."""
    return sep.join(card_symbol(c) for c in cards)


def group_words(group: Iterable[int], sep: str = " + ") -> str:
    """``6♥ + A♦``: one group of cards, highest first, as builds show theirs, so a
    group reads the same everywhere; ``sep="+"`` gives the compact ``6♥+A♦``."""
    return cards_words(sorted(group, reverse=True), sep)


def build_notation(groups: Iterable[Iterable[int]], *, symbols: bool = False) -> str:
    """``[5d+3s]``; a multiple build shows its groups: ``[8h 5d+3s]``.

    The notation of moves and positions uses card text (``5d``); ``symbols``
    gives the same shape with suit symbols (``[5♦+3♠]``) for people to read.
    Groups come as the build keeps them (highest first within each group)."""
    if symbols:
        return "[" + " ".join("+".join(card_symbol(c) for c in g) for g in groups) + "]"
    text = CARD_TEXTS
    return "[" + " ".join(["+".join([text[c] for c in g]) for g in groups]) + "]"


#: The build's words by who owns it as said (``the``, ``your``, ``seat``: the owner's
#: seat's number, as the move helper names the other players), whether the word
#: *multiple* is said, and whether its cards are shown; each translated where shown.
_BUILD_WORDS = {
    ("the", False, True): pN_("build", "the %(value)s-build (%(groups)s)"),
    ("the", True, True): pN_("build", "the multiple %(value)s-build (%(groups)s)"),
    ("the", False, False): pN_("build", "the %(value)s-build"),
    ("the", True, False): pN_("build", "the multiple %(value)s-build"),
    ("your", False, True): pN_("build", "your %(value)s-build (%(groups)s)"),
    ("your", True, True): pN_("build", "your multiple %(value)s-build (%(groups)s)"),
    ("your", False, False): pN_("build", "your %(value)s-build"),
    ("your", True, False): pN_("build", "your multiple %(value)s-build"),
    ("seat", False, True): pN_("build", "seat %(seat)s's %(value)s-build (%(groups)s)"),
    ("seat", True, True): pN_("build", "seat %(seat)s's multiple %(value)s-build "
                              "(%(groups)s)"),
    ("seat", False, False): pN_("build", "seat %(seat)s's %(value)s-build"),
    ("seat", True, False): pN_("build", "seat %(seat)s's multiple %(value)s-build"),
}


def build_words(b: Build, whose: str = "the", *, cards: bool = True,
                kind: bool = True) -> str:
    """``the 8-build (5♦ + 3♠)``; ``the multiple 8-build (8♥, 5♦ + 3♠)``.

    ``whose`` opens it (``your``; ``seat``: ``seat 1's``, its owner's seat);
    ``cards=False`` leaves out the cards and ``kind=False`` the word ``multiple``, for a
    short ``the 8-build``. With ``the``, ``your`` or ``seat`` it is said in the language
    in force (*8:n rakennelma*, *8-bygget*); another ``whose`` is an English-only
    caller's, worded in English."""
    multiple = kind and b.multiple
    groups = ", ".join(group_words(g) for g in b.groups)
    key = (whose, multiple, cards)
    if key in _BUILD_WORDS:
        return pgettext("build", _BUILD_WORDS[key]) % {"value": b.value, "groups": groups,
                                                       "seat": b.owner}
    text = f"{whose} {'multiple ' if multiple else ''}{b.value}-build"
    return text + (f" ({groups})" if cards else "")


def table_item_words(item: int | Build) -> str:
    """A table item in short: ``7♦`` or ``the 8-build``."""
    return card_symbol(item) if isinstance(item, int) else build_words(item, cards=False,
                                                                       kind=False)


def unit_word(round_word: str) -> str:
    """What a scored deal-cycle is called (``round_word``, a ruleset's ``round`` or
    ``game``, marked for translation where the presets set it), in the language in force:
    one word for every screen that counts them."""
    return pgettext("unit", round_word)
