"""Positions as plain text for terminals and logs (the CLI's replay and demo, the guide's
worked deals), in the language in force: English in logs and tests, the reader's in
``casino replay --lang fi`` and the Finnish guide. The cards stay in symbols."""

from __future__ import annotations

from typing import TYPE_CHECKING

from casino.engine.builds import Build
from casino.engine.cards import card_symbol
from casino.engine.wording import build_notation, unit_word
from casino.i18n import _, ngettext

if TYPE_CHECKING:
    from casino.engine.position import Position


def build_text(b: Build) -> str:
    """``[5♦+3♠] (build of 8, seat 1)``: a build with its value and owner."""
    words = (_("multiple build of %(value)s, seat %(seat)s") if b.multiple
             else _("build of %(value)s, seat %(seat)s")) % {"value": b.value, "seat": b.owner}
    return f"{build_notation(b.groups, symbols=True)} ({words})"


def table_text(pos: Position) -> str:
    """The table's items in a line (``3♦ 7♣ [5♦+3♠] (build of 8, seat 1)``), or that it
    is empty."""
    items = [card_symbol(i) if isinstance(i, int) else build_text(i) for i in pos.table]
    return " ".join(items) if items else _("(empty)")


def _cards(n: int) -> str:
    """``n`` cards in words (``no cards``, ``1 card``)."""
    return _("no cards") if n == 0 else ngettext("%(n)s card", "%(n)s cards", n) % {"n": n}


def _pile_counts(cards: int, spades: int, sweeps: int) -> str:
    """A pile's counts: ``12 cards, 3 spades, no sweeps``."""
    return ", ".join((
        _cards(cards),
        _("no spades") if spades == 0 else ngettext("%(n)s spade", "%(n)s spades", spades)
        % {"n": spades},
        _("no sweeps") if sweeps == 0 else ngettext("%(n)s sweep", "%(n)s sweeps", sweeps)
        % {"n": sweeps}))


def render_position(pos: Position, *, result: bool = True) -> str:
    """A few lines: round and deal, the table, each hand, piles and scores.

    ``result``: the scored items too, once the round is over (a replay's text leaves
    them to its own counting-order lines); they are named by their keys (``cards``,
    ``spades``), as the record names them."""
    rules = pos.rules
    lines = [_("%(rules)s: %(unit)s %(round)s, deal %(deal)s/%(deals)s, dealer seat "
               "%(dealer)s, stock %(stock)s") % {
        "rules": rules.name, "unit": unit_word(rules.round_word), "round": pos.round,
        "deal": pos.deal, "deals": rules.deals_per_round, "dealer": pos.dealer,
        "stock": _cards(pos.stock_size)}]
    lines.append(_("table: %(items)s") % {"items": table_text(pos)})
    if pos.set_aside:
        lines.append(_("set aside: %(cards)s")
                     % {"cards": " ".join(card_symbol(c) for c in pos.set_aside)})
    for seat in range(rules.players):
        h = pos.hands[seat]
        hand = (_("%(cards)s hidden") % {"cards": _cards(h)} if isinstance(h, int)
                else " ".join(card_symbol(c) for c in h))
        mark = "*" if seat == pos.to_move and pos.result is None else " "
        pile = pos.piles[seat]
        spades = sum(1 for c in pile if c & 3 == 0)
        sweeps = sum(1 for s in pos.sweeps if s == seat)
        counts = _pile_counts(len(pile), spades, sweeps)
        lines.append(mark + _("seat %(seat)s: %(hand)s   | pile: %(counts)s; score %(score)s")
                     % {"seat": seat, "hand": hand or "-", "counts": counts,
                        "score": pos.scores[seat]})
    if pos.result is not None and result:
        parts = [_("%(item)s %(points)s seat %(seat)s")
                 % {"item": i.item, "points": f"{i.points:+d}", "seat": i.seat}
                 for i in pos.result.items]
        lines.append(_("result: %(items)s") % {"items": ", ".join(parts)})
        scores = " ".join(str(s) for s in pos.result.scores)
        if pos.result.winner is not None:
            lines.append(_("scores: %(scores)s; winner seat %(seat)s")
                         % {"scores": scores, "seat": pos.result.winner})
        else:
            lines.append(_("scores: %(scores)s") % {"scores": scores})
    return "\n".join(lines)
