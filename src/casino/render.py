"""Positions as plain text for terminals and logs (the CLI's replay and demo)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from casino.builds import Build
from casino.cards import card_symbol

if TYPE_CHECKING:
    from casino.position import Position


def build_text(b: Build) -> str:
    groups = " ".join("+".join(card_symbol(c) for c in g) for g in b.groups)
    kind = "multiple " if b.multiple else ""
    return f"[{groups}] ({kind}build of {b.value}, seat {b.owner})"


def render_position(pos: Position) -> str:
    """A few lines: round and deal, the table, each hand, piles and scores."""
    rules = pos.rules
    unit = "game" if rules.scoring == "krypkasino" else "round"
    lines = [f"{rules.name}: {unit} {pos.round}, deal {pos.deal}/{rules.deals_per_round}, "
             f"dealer seat {pos.dealer}, stock {pos.stock_size}"]
    items = [card_symbol(i) if isinstance(i, int) else build_text(i) for i in pos.table]
    lines.append("table: " + (" ".join(items) if items else "(empty)"))
    if pos.set_aside:
        lines.append("set aside: " + " ".join(card_symbol(c) for c in pos.set_aside))
    for seat in range(rules.players):
        h = pos.hands[seat]
        hand = f"{h} hidden" if isinstance(h, int) else " ".join(card_symbol(c) for c in h)
        mark = "*" if seat == pos.to_move and pos.result is None else " "
        pile = pos.piles[seat]
        spades = sum(1 for c in pile if c & 3 == 0)
        sweeps = sum(1 for s in pos.sweeps if s == seat)
        lines.append(f"{mark}seat {seat}: {hand or '-'}   | pile {len(pile)} cards, "
                     f"{spades} spades, {sweeps} sweeps; score {pos.scores[seat]}")
    if pos.result is not None:
        parts = [f"{i.item} {i.points:+d} seat {i.seat}" for i in pos.result.items]
        lines.append("result: " + ", ".join(parts))
        lines.append("scores: " + " ".join(str(s) for s in pos.result.scores)
                     + (f"; winner seat {pos.result.winner}"
                        if pos.result.winner is not None else ""))
    return "\n".join(lines)
