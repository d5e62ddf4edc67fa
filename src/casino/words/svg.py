"""Playing cards drawn as SVG: our own drawings, for the web game.

Every card is made here from a few shapes, so the web client needs no image
files and no artwork with a licence of its own. The drawings are meant for
small screens first: on a phone a hand of four to six cards is about 60 px
wide per card, and a fanned hand shows little more than each card's left
edge. So the top-left corner carries a large rank and suit (the part of a
card people actually read), and the centre has the classic pips (2-10), one
large suit (Ace) or a framed letter with an ornament (J, Q, K).

Colour is never the only clue: the four suits have clearly different
outlines (the diamond is a narrow, concave lozenge, nothing like the heart's
round lobes), and :func:`card_svg` can draw the four-colour deck (clubs green,
diamonds blue) for people who want it. Suits are paths, not font glyphs, so a
card looks the same in every browser; the only text is the rank, in a common
bold sans-serif.

Each SVG is a complete document (``xmlns``, ``viewBox`` 100 x 140, a
``<title>`` naming the card) that a page shows with ``<img>``; ids are not
used, so copies can also be inlined side by side.
"""

from __future__ import annotations

from html import escape

from casino.engine.cards import RANKS, SUIT_NAMES, card_name, card_text, rank_of, suit_of
from casino.engine.errors import CardError
from casino.i18n import _

WIDTH, HEIGHT = 100, 140

#: Ink of each suit (spades, clubs, hearts, diamonds): the classic two colours.
TWO_COLOURS = ("#1b1b1f", "#1b1b1f", "#c8102e", "#c8102e")
#: The four-colour deck used in online play: clubs green, diamonds blue.
FOUR_COLOURS = ("#1b1b1f", "#12803a", "#c8102e", "#1d5bbf")

_FONT = "'DejaVu Sans','Liberation Sans',Arial,Helvetica,sans-serif"

# Suit outlines in a 100 x 100 box centred on (50, 50). Each is a single path
# (clubs: three lobes drawn as arcs plus a stem), so a pip is one element.
_SUIT_PATHS = (
    # spade: a pointed top, two round lobes below, a flared stem
    "M50 4C40 22 8 40 8 62C8 78 22 86 34 82C40 80 44 76 46 72C45 82 40 90 30 96"
    "H70C60 90 55 82 54 72C56 76 60 80 66 82C78 86 92 78 92 62C92 40 60 22 50 4Z",
    # club: three circles of radius 19 and a flared stem
    "M50 8A19 19 0 0 0 36 40A19 19 0 1 0 46 70C45 82 40 90 30 96H70C60 90 55 82 54 70"
    "A19 19 0 1 0 64 40A19 19 0 0 0 50 8Z",
    # heart: two round lobes meeting in a point at the bottom
    "M50 92C36 78 6 60 6 34C6 18 17 8 30 8C40 8 47 14 50 24C53 14 60 8 70 8"
    "C83 8 94 18 94 34C94 60 64 78 50 92Z",
    # diamond: a tall lozenge with concave sides (distinct from the heart by shape)
    "M50 2C57 20 70 38 86 50C70 62 57 80 50 98C43 80 30 62 14 50C30 38 43 20 50 2Z",
)

# Pip centres for 2..10 in card units, as (x, y); pips below the middle are
# drawn upside down, as on printed cards.
_L, _M, _R = 37.0, 50.0, 63.0
_TOP, _BOT, _MID = 26.0, 114.0, 70.0
_Q1, _Q3 = _TOP + (_BOT - _TOP) / 3, _TOP + 2 * (_BOT - _TOP) / 3
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((_M, _TOP), (_M, _BOT)),
    3: ((_M, _TOP), (_M, _MID), (_M, _BOT)),
    4: ((_L, _TOP), (_R, _TOP), (_L, _BOT), (_R, _BOT)),
    5: ((_L, _TOP), (_R, _TOP), (_M, _MID), (_L, _BOT), (_R, _BOT)),
    6: ((_L, _TOP), (_R, _TOP), (_L, _MID), (_R, _MID), (_L, _BOT), (_R, _BOT)),
    7: ((_L, _TOP), (_R, _TOP), (_M, (_TOP + _MID) / 2), (_L, _MID), (_R, _MID),
        (_L, _BOT), (_R, _BOT)),
    8: ((_L, _TOP), (_R, _TOP), (_M, (_TOP + _MID) / 2), (_L, _MID), (_R, _MID),
        (_M, (_MID + _BOT) / 2), (_L, _BOT), (_R, _BOT)),
    9: ((_L, _TOP), (_R, _TOP), (_L, _Q1), (_R, _Q1), (_M, _MID),
        (_L, _Q3), (_R, _Q3), (_L, _BOT), (_R, _BOT)),
    10: ((_L, _TOP), (_R, _TOP), (_M, (_TOP + _Q1) / 2), (_L, _Q1), (_R, _Q1),
         (_L, _Q3), (_R, _Q3), (_M, (_Q3 + _BOT) / 2), (_L, _BOT), (_R, _BOT)),
}

# Court ornaments, drawn above the letter in the frame (card units).
_ORNAMENTS = {
    # King: a crown with three points and jewels
    "K": '<path d="M36 46L38 30L44 38L50 26L56 38L62 30L64 46Z" fill="{ink}"/>'
         '<circle cx="38" cy="29" r="2.2" fill="{ink}"/><circle cx="50" cy="25" r="2.2" '
         'fill="{ink}"/><circle cx="62" cy="29" r="2.2" fill="{ink}"/>'
         '<rect x="36" y="46" width="28" height="3" fill="{ink}"/>',
    # Queen: a flower (a round centre and five petals)
    "Q": '<g fill="{ink}"><circle cx="50" cy="28" r="4.5"/><circle cx="50" cy="42" r="4.5"/>'
         '<circle cx="43" cy="33" r="4.5"/><circle cx="57" cy="33" r="4.5"/>'
         '<circle cx="45.5" cy="40" r="3.6"/><circle cx="54.5" cy="40" r="3.6"/></g>'
         '<circle cx="50" cy="35" r="3.4" fill="#fffdf7"/>',
    # Jack: a feathered cap (a plume curling over a band)
    "J": '<path d="M38 46C38 36 44 30 52 30C58 30 62 26 64 22C66 30 62 38 56 40'
         'C60 42 62 44 62 46Z" fill="{ink}"/><rect x="36" y="46" width="28" height="3" '
         'fill="{ink}"/>',
}


def _fmt(x: float) -> str:
    """Short numbers keep the SVG small: ``12`` not ``12.0``, at most two decimals."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _suit(suit: int, cx: float, cy: float, size: float, ink: str, *, flip: bool = False) -> str:
    """One suit symbol of ``size`` card units, centred on (cx, cy)."""
    k = size / 100
    tx, ty = cx - 50 * k, cy - 50 * k
    if flip:
        transform = (f"translate({_fmt(cx)} {_fmt(cy)}) rotate(180) "
                     f"translate({_fmt(-50 * k)} {_fmt(-50 * k)}) scale({_fmt(k)})")
    else:
        transform = f"translate({_fmt(tx)} {_fmt(ty)}) scale({_fmt(k)})"
    return f'<path d="{_SUIT_PATHS[suit]}" transform="{transform}" fill="{ink}"/>'


def _rank_label(rank: int) -> str:
    return "10" if rank == 9 else RANKS[rank]


def _index(rank: int, suit: int, ink: str) -> str:
    """The corner index: a large rank over a suit, in the top-left corner."""
    label = _rank_label(rank)
    # "10" is squeezed into the width of one letter so every index lines up.
    squeeze = ' textLength="26" lengthAdjust="spacingAndGlyphs"' if len(label) > 1 else ""
    text = (f'<text x="15" y="33" text-anchor="middle" font-family="{_FONT}" '
            f'font-weight="700" font-size="33" fill="{ink}"{squeeze}>{label}</text>')
    return text + _suit(suit, 15, 49, 21, ink)


def _centre(rank: int, suit: int, ink: str) -> str:
    """The middle of the card: one large suit, a framed court letter, or the pips."""
    if rank == 0:  # Ace: one large suit
        return _suit(suit, 50, 70, 50, ink)
    if rank >= 10:  # court: a framed letter with its ornament
        letter = RANKS[rank]
        return (f'<rect x="30" y="15" width="40" height="110" rx="5" fill="none" '
                f'stroke="{ink}" stroke-width="2"/>'
                f'<rect x="33" y="18" width="34" height="104" rx="3" fill="none" '
                f'stroke="{ink}" stroke-width="0.8"/>'
                + _ORNAMENTS[letter].format(ink=ink)
                + f'<text x="50" y="86" text-anchor="middle" font-family="{_FONT}" '
                f'font-weight="700" font-size="36" fill="{ink}">{letter}</text>'
                + _suit(suit, 50, 106, 16, ink))
    return "".join(_suit(suit, x, y, 15, ink, flip=y > _MID)
                   for x, y in _PIPS[rank + 1])


def card_svg(card: int, *, four_colour: bool = False) -> str:
    """The SVG document of ``card`` (an id 0..51, ``rank * 4 + suit``).

    ``four_colour`` inks clubs green and diamonds blue, for people who tell
    red from black with difficulty or simply prefer it.
    """
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
        raise CardError(f"{card!r} is not a card id (0..51)")
    rank, suit = rank_of(card), suit_of(card)
    ink = (FOUR_COLOURS if four_colour else TWO_COLOURS)[suit]
    name = card_name(card)
    index = _index(rank, suit, ink)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{name}" '
        f'data-card="{card_text(card)}" data-suit="{SUIT_NAMES[suit]}">'
        f"<title>{name}</title>"
        f'<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf7" '
        f'stroke="#8a8576" stroke-width="1.5"/>'
        f"{index}"
        f'<g transform="rotate(180 50 70)">{index}</g>'
        f"{_centre(rank, suit, ink)}"
        "</svg>"
    )


def back_svg() -> str:
    """The back of every card: a lattice in two blues inside a white border; its title
    and ``aria-label`` in the language in force."""
    # A lattice of small lozenges filling the panel (8..92 x 8..132), no clipping needed.
    lattice = "".join(
        f"M{x} {y - 5}L{x + 5} {y}L{x} {y + 5}L{x - 5} {y}Z"
        for y in range(14, 130, 8) for x in range(14 + (y // 8 % 2) * 5, 90, 10)
    )
    label = escape(_("back of a card"))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{label}">'
        f"<title>{label}</title>"
        '<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf7" '
        'stroke="#8a8576" stroke-width="1.5"/>'
        '<rect x="8" y="8" width="84" height="124" rx="4" fill="#1f4f9a"/>'
        f'<path d="{lattice}" fill="#3a6fc0"/>'
        '<rect x="8" y="8" width="84" height="124" rx="4" fill="none" stroke="#0f2f66" '
        'stroke-width="2"/>'
        '<path d="M50 48L66 70L50 92L34 70Z" fill="#fffdf7" stroke="#0f2f66" '
        'stroke-width="2"/>'
        '<path d="M50 58L58 70L50 82L42 70Z" fill="#c8102e"/>'
        "</svg>"
    )
