"""Cards as small integers, and their text.

A card is an int ``rank * 4 + suit``: rank 0..12 for ``A 2 3 4 5 6 7 8 9 T J Q K``
and suit 0..3 for ``s c h d``. Sorting ids therefore sorts by rank, then suit,
which is the order people lay cards out in. Two-deck rulesets use the same ids
twice: copies are interchangeable, so collections of cards are multisets, kept
as sorted tuples of ids.

Parsing is lenient (``10d``, ``TD``, ``t♦``), output canonical (``Td``).
"""

from __future__ import annotations

from collections.abc import Iterable

from casino.engine.errors import CardError
from casino.i18n import _, pgettext, pN_

RANKS = "A23456789TJQK"
SUITS = "schd"
SUIT_SYMBOLS = "♠♣♥♦"
#: The ranks' and suits' names in English, each marked for translation within its context
#: ("rank", "suit"; :func:`card_name` translates them). SUIT_NAMES also names the suits
#: in the pages' markup (``data-suit``), where they stay English.
RANK_NAMES = (
    pN_("rank", "Ace"), pN_("rank", "2"), pN_("rank", "3"), pN_("rank", "4"),
    pN_("rank", "5"), pN_("rank", "6"), pN_("rank", "7"), pN_("rank", "8"),
    pN_("rank", "9"), pN_("rank", "10"), pN_("rank", "Jack"), pN_("rank", "Queen"),
    pN_("rank", "King"),
)
SUIT_NAMES = (pN_("suit", "spades"), pN_("suit", "clubs"), pN_("suit", "hearts"),
              pN_("suit", "diamonds"))

ACE, JACK, QUEEN, KING = 0, 10, 11, 12
SPADES, CLUBS, HEARTS, DIAMONDS = 0, 1, 2, 3

#: The 52 distinct cards of one deck.
DECK: tuple[int, ...] = tuple(range(52))

_SYMBOL_TO_SUIT = {sym: i for i, sym in enumerate(SUIT_SYMBOLS)}
# Variation selectors sometimes follow the suit symbols (♠️).
_IGNORED = {"\ufe0e", "\ufe0f"}


def card(rank: int, suit: int) -> int:
    """The id of the card of ``rank`` (0 = Ace .. 12 = King) and ``suit``."""
    return rank * 4 + suit


def rank_of(c: int) -> int:
    """The card's rank index, 0 for the Ace to 12 for the King (``card(rank, suit)``'s
    inverse)."""
    return c >> 2


def suit_of(c: int) -> int:
    """The card's suit: :data:`SPADES`, :data:`CLUBS`, :data:`HEARTS` or :data:`DIAMONDS`."""
    return c & 3


def card_text(c: int) -> str:
    """Canonical text: rank then suit letter, as ``Td`` or ``As``."""
    return RANKS[c >> 2] + SUITS[c & 3]


#: Each card id's :func:`card_text`, looked up rather than built where many are written
#: at once (a position's JSON, every move's text at every step of the research env).
CARD_TEXTS: tuple[str, ...] = tuple(card_text(c) for c in DECK)


def card_symbol(c: int) -> str:
    """Text with the suit symbol and ``10``, for people: ``10♦``."""
    rank = "10" if c >> 2 == 9 else RANKS[c >> 2]
    return rank + SUIT_SYMBOLS[c & 3]


def card_name(c: int) -> str:
    """Words, for messages, in the language in force (:mod:`casino.i18n`): ``10 of
    diamonds``, in Finnish ``ruutukymppi``, in Swedish ``ruter tia``."""
    return pgettext("card", "%(rank)s of %(suit)s") % {
        "rank": pgettext("rank", RANK_NAMES[c >> 2]),
        "suit": pgettext("suit", SUIT_NAMES[c & 3])}


def parse_card(text: str) -> int:
    """Read one card leniently; raise :class:`CardError` saying why it is not one."""
    if not isinstance(text, str):
        raise CardError(_("a card must be text such as 'Td', not %(kind)s")
                        % {"kind": type(text).__name__})
    raw = "".join(ch for ch in text.strip() if ch not in _IGNORED)
    if len(raw) < 2:
        raise CardError(_("%(text)s is not a card: write rank then suit, as 'Td' or '7s'")
                        % {"text": repr(text)})
    rank_part, suit_part = raw[:-1], raw[-1]
    if rank_part == "10":
        rank = 9
    elif len(rank_part) == 1 and rank_part.upper() in RANKS:
        rank = RANKS.index(rank_part.upper())
    elif rank_part == "1":
        rank = ACE
    else:
        raise CardError(_("%(text)s is not a card: %(rank)s is not a rank (A 2-9 T/10 J Q K)")
                        % {"text": repr(text), "rank": repr(rank_part)})
    if suit_part in _SYMBOL_TO_SUIT:
        suit = _SYMBOL_TO_SUIT[suit_part]
    elif suit_part.lower() in SUITS:
        suit = SUITS.index(suit_part.lower())
    else:
        raise CardError(_("%(text)s is not a card: %(suit)s is not a suit (s c h d or ♠ ♣ ♥ "
                          "♦)") % {"text": repr(text), "suit": repr(suit_part)})
    return rank * 4 + suit


def cards_text(cards: Iterable[int]) -> str:
    """The cards' canonical texts separated by spaces (``Td 2s``), as :func:`parse_cards`
    reads them."""
    return " ".join(card_text(c) for c in cards)


def parse_cards(text: str) -> tuple[int, ...]:
    """Read cards separated by spaces or commas."""
    parts = text.replace(",", " ").split()
    return tuple(parse_card(p) for p in parts)


def remove_cards(hand: tuple[int, ...], taken: Iterable[int]) -> tuple[int, ...]:
    """``hand`` less one copy of each card of ``taken`` (which must all be there)."""
    rest = list(hand)
    for c in taken:
        rest.remove(c)
    return tuple(rest)


class Cards(tuple[int, ...]):
    """A multiset of cards for the public API: a sorted tuple of ids that prints as text.

    The engine's hot path never uses it; it exists so that people and tools
    see ``Cards('7d 8c As')`` rather than a tuple of numbers.
    """

    __slots__ = ()

    def __new__(cls, cards: Iterable[int] | str = ()) -> Cards:
        ids = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        return super().__new__(cls, sorted(ids))

    def __str__(self) -> str:
        return cards_text(self)

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"
