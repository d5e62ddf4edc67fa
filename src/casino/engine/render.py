"""Positions as plain text for terminals and logs (the CLI's replay and demo)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from casino.engine.builds import Build
from casino.engine.cards import card_symbol
from casino.engine.wording import build_notation, plural

if TYPE_CHECKING:
    from casino.engine.position import Position


def build_text(b: Build) -> str:
    """``[5♦+3♠] (build of 8, seat 1)``: a build with its value and owner."""
    kind = "multiple " if b.multiple else ""
    return f"{build_notation(b.groups, symbols=True)} ({kind}build of {b.value}, seat {b.owner})"


def render_position(pos: Position, *, result: bool = True) -> str:
    """A few lines: round and deal, the table, each hand, piles and scores.

    ``result``: the scored items too, once the round is over (a replay's text leaves
    them to its own counting-order lines)."""
    rules = pos.rules
    unit = rules.round_word
    lines = [f"{rules.name}: {unit} {pos.round}, deal {pos.deal}/{rules.deals_per_round}, "
             f"dealer seat {pos.dealer}, stock {plural(pos.stock_size, 'card', zero='no')}"]
    items = [card_symbol(i) if isinstance(i, int) else build_text(i) for i in pos.table]
    lines.append("table: " + (" ".join(items) if items else "(empty)"))
    if pos.set_aside:
        lines.append("set aside: " + " ".join(card_symbol(c) for c in pos.set_aside))
    for seat in range(rules.players):
        h = pos.hands[seat]
        hand = (f"{plural(h, 'card', zero='no')} hidden" if isinstance(h, int)
                else " ".join(card_symbol(c) for c in h))
        mark = "*" if seat == pos.to_move and pos.result is None else " "
        pile = pos.piles[seat]
        spades = sum(1 for c in pile if c & 3 == 0)
        sweeps = sum(1 for s in pos.sweeps if s == seat)
        counts = ", ".join(plural(n, word, zero="no") for n, word in
                           ((len(pile), "card"), (spades, "spade"), (sweeps, "sweep")))
        lines.append(f"{mark}seat {seat}: {hand or '-'}   | pile: {counts}; "
                     f"score {pos.scores[seat]}")
    if pos.result is not None and result:
        parts = [f"{i.item} {i.points:+d} seat {i.seat}" for i in pos.result.items]
        lines.append("result: " + ", ".join(parts))
        lines.append("scores: " + " ".join(str(s) for s in pos.result.scores)
                     + (f"; winner seat {pos.result.winner}"
                        if pos.result.winner is not None else ""))
    return "\n".join(lines)
