"""What one seat is sent: the VIEW of docs/server.md, built from that seat's observation.

This is the only place that turns a game into JSON for a player, and it is
given nothing it could leak: the seat's observation (``session.view_of(seat)``,
in which other hands and the stock are counts) and the public facts of the
game (names, the log of moves played face up, finished rounds' scores). It
never sees the full position, so no other hand and no stock order can reach a
client, not even by mistake.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from casino.builds import Build
from casino.cards import card_text
from casino.moves import CAPTURE, Move
from casino.narrate import item_words, move_phrase, tally, winner_words
from casino.position import Position
from casino.record import Settings
from casino.rules import Rules
from casino.scoring import Result

TITLES = {
    "casino": "Casino",
    "krypkasino": "Krypkasino",
    "kasino": "Kasino (Finnish)",
    "classic": "Classic Casino",
    "royal": "Royal Casino",
    "spade": "Spade Casino",
    "faces-all": "Casino, faces take all",
    "mulle": "Mulle",
    "tablic": "Tablić",
}


def title(rules_name: str) -> str:
    return TITLES.get(rules_name, rules_name)


@dataclass(frozen=True)
class LogItem:
    """A move as everyone saw it played; ``words_you`` tells it to the player who made it."""

    round: int
    deal: int
    seat: int
    text: str
    words: str
    words_you: str

    def to_json(self, n: int, viewer: int | None) -> dict[str, Any]:
        return {"n": n, "seat": self.seat, "text": self.text,
                "words": self.words_you if viewer == self.seat else self.words,
                "round": self.round, "deal": self.deal}


@dataclass(frozen=True)
class RoundScore:
    """A finished round for the score pad: its totals before, and its result."""

    round: int
    scores_before: tuple[int, ...]
    result: Result


@dataclass(frozen=True)
class Public:
    """The public facts of a game the view adds to the seat's observation."""

    game: str
    version: int
    status: str
    names: tuple[str, ...]
    players: tuple[str, ...]
    log: Sequence[LogItem]
    rounds: Sequence[RoundScore]
    can_undo: bool
    invite: str | None
    rematch: str | None
    #: The table's fair-play settings, shown to everyone.
    settings: Settings
    can_hint: bool
    #: What resigning would do for the viewer, in words; None when they may not resign.
    resign_words: str | None
    #: How the game ended when it ended by a resignation ("Ann resigned: Bob wins"), and
    #: the winner then (None: nobody won).
    ended: str | None
    winner: int | None
    #: A person who has been away on their turn past the limit: {"seat", "name",
    #: "seconds", "words", "can_claim"} (None when nobody is).
    away: dict[str, Any] | None
    #: The seed of a seeded game (practice, tests): not a secret, so everyone is shown
    #: it. None for a served game, whose decks come from the system's random source.
    seed: int | None = None


def table_json(view: Position) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, item in enumerate(view.table):
        if isinstance(item, Build):
            out.append({"id": f"t{i}", "kind": "build", "value": item.value,
                        "owner": item.owner, "multiple": item.multiple,
                        "groups": [[card_text(c) for c in g] for g in item.groups]})
        else:
            out.append({"id": f"t{i}", "kind": "card", "card": card_text(item)})
    return out


def move_uses(view: Position, move: Move) -> list[str]:
    """The ids of the table items a move takes or uses (loose cards once each)."""
    wanted = Counter(move.loose)
    builds = list(move.builds)
    used: list[str] = []
    for i, item in enumerate(view.table):
        if isinstance(item, Build):
            if item in builds:
                builds.remove(item)
                used.append(f"t{i}")
        elif wanted[item] > 0:
            wanted[item] -= 1
            used.append(f"t{i}")
    return used


def _capture_value(rules: Rules, move: Move) -> int | None:
    """The value a capture is made with (an Ace worth 1 or 14 shows the one it used).

    None for a card that has no number value and only pairs (classic's faces).
    """
    played = rules.table.played[move.card]
    if not played:
        return None
    if len(played) == 1:
        return played[0]
    if move.builds:
        return move.builds[0].value
    for group in move.groups:
        total = sum(rules.table.sum_value[c] for c in group)
        if total in played:
            return total
    return played[0]


def legal_json(view: Position, moves: Sequence[Move]) -> list[dict[str, Any]]:
    out = []
    for m in moves:
        words = move_phrase(m, view.rules)
        value = _capture_value(view.rules, m) if m.kind == CAPTURE else (m.value or None)
        out.append({"text": str(m), "card": card_text(m.card), "kind": m.kind,
                    "uses": move_uses(view, m), "value": value, "words": words})
    return out


def items_json(rules: Rules, result: Result, scores_before: Sequence[int]) -> list[dict[str, Any]]:
    """A round's items in counting order, each with every seat's running total."""
    totals = {t: scores_before[t] for t in rules.teams}
    out = []
    for it in result.items:
        totals[it.seat] += it.points
        out.append({"item": item_words(it), "points": it.points, "seat": it.seat,
                    "running": [totals[rules.team_of(s)] for s in rules.seats]})
    return out


def result_json(rules: Rules, result: Result, scores_before: Sequence[int],
                names: Sequence[str]) -> dict[str, Any]:
    return {"items": items_json(rules, result, scores_before), "scores": list(result.scores),
            "winner": result.winner,
            "summary": winner_words(result, rules, names, scores_before)}


def rules_json(rules: Rules) -> dict[str, Any]:
    return {"name": rules.name, "title": title(rules.name), "players": rules.players,
            "partnerships": rules.partnerships, "penalties": rules.scoring == "krypkasino",
            "target": rules.target}


def build_view(view: Position, seat: int, public: Public) -> dict[str, Any]:
    """The VIEW for ``seat``: ``view`` must be ``session.view_of(seat)``."""
    rules = view.rules
    if not isinstance(view.stock, int) or any(
            isinstance(h, tuple) and s != seat for s, h in enumerate(view.hands)):
        raise ValueError("a view is built from the seat's observation only")
    result = view.result
    playing = public.status == "playing" and result is None
    your_turn = playing and view.to_move == seat and public.players[seat] == "human"
    hand = view.hands[seat]
    assert isinstance(hand, tuple)
    log = [item.to_json(n, seat) for n, item in enumerate(public.log, start=1)]
    game_over = public.ended is not None or (result is not None and result.winner is not None)
    winner = public.winner if public.ended is not None else (
        result.winner if result is not None else None)
    status = public.status
    if status == "playing" and result is not None:
        status = "over" if game_over else "round_over"
    shown = (result_json(rules, result, view.scores, public.names)
             if result is not None else None)
    if public.ended is not None:  # a resignation: its words are the game's result
        shown = {**(shown or {"items": [], "scores": list(view.scores)}),
                 "winner": winner, "summary": public.ended}
    return {
        "game": public.game,
        "version": public.version,
        "rules": rules_json(rules),
        "you": seat,
        "names": list(public.names),
        "players": list(public.players),
        "status": status,
        "to_move": view.to_move if playing else None,
        "your_turn": your_turn,
        "round": view.round,
        "deal": view.deal,
        "deals": rules.deals_per_round,
        "dealer": view.dealer,
        "stock": view.stock_size,
        "table": table_json(view),
        "hand": [card_text(c) for c in sorted(hand)],
        "hand_counts": [view.hand_size(s) for s in rules.seats],
        "tallies": [_tally_json(view, s) for s in rules.seats],
        "scores": list(result.scores if result is not None else view.scores),
        "legal": legal_json(view, view.legal_moves()) if your_turn else [],
        "log": log,
        "last": log[-1] if log else None,
        "result": shown,
        "rounds": [{"round": r.round, "items": items_json(rules, r.result, r.scores_before),
                    "scores": list(r.result.scores)} for r in public.rounds],
        "settings": {"hints": public.settings.hints, "takebacks": public.settings.takebacks,
                     "words": public.settings.words()},
        "seed": public.seed,
        "can_undo": public.can_undo and public.status == "playing",
        "can_hint": public.can_hint and your_turn,
        "can_resign": public.resign_words is not None and public.status == "playing",
        "resign_words": public.resign_words if public.status == "playing" else None,
        "away": public.away,
        "game_over": game_over,
        "winner": winner if game_over else None,
        "invite": public.invite,
        "rematch": public.rematch,
    }


def _tally_json(view: Position, seat: int) -> dict[str, Any]:
    t = tally(view, seat)
    return {"cards": t.cards, "spades": t.spades, "sweeps": t.sweeps,
            "keys": [card_text(c) for c in t.key_cards]}
