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

from casino.engine.builds import Build
from casino.engine.cards import card_text, parse_card
from casino.engine.errors import CardError
from casino.engine.explain import not_held_words, why_illegal
from casino.engine.legality import moves_with, ranked
from casino.engine.moves import CAPTURE, TRAIL, Move
from casino.engine.position import Position
from casino.engine.presets import short_title
from casino.engine.record import Settings
from casino.engine.rules import Rules
from casino.engine.scheme import scheme
from casino.engine.scoring import Result
from casino.i18n import _, pgettext, pN_
from casino.play.names import shown_names
from casino.web.table_events import Told
from casino.words.narrate import (
    item_words,
    move_phrase,
    point_cards_label,
    tally,
    tie_words,
    winner_words,
)


@dataclass(frozen=True)
class LogItem:
    """A move as everyone saw it played; ``words_you`` tells it to the player who made it.

    Its words are worded in the reader's language when first read in it
    (:class:`~casino.web.table_events.Told`): one log serves readers of every language.
    """

    round: int
    deal: int
    seat: int
    text: str
    told: Told
    told_you: Told

    @property
    def words(self) -> str:
        """The move in words, in the language in force."""
        return self.told()

    @property
    def words_you(self) -> str:
        """The move in words to the player who made it, in the language in force."""
        return self.told_you()

    def to_json(self, n: int, viewer: int | None) -> dict[str, Any]:
        """The move as the ``viewer``'s log shows it, numbered ``n``: the words addressed to
        the seat itself where it is that seat's move."""
        return {"n": n, "seat": self.seat, "text": self.text,
                "words": self.words_you if viewer == self.seat else self.words,
                "round": self.round, "deal": self.deal}


@dataclass(frozen=True)
class RoundScore:
    """A finished round for the score pad: its totals before, and its result."""

    round: int
    scores_before: tuple[int, ...]
    result: Result


#: How a game between people is shown to its table: rated (its result moves the
#: players' ratings) or casual (translated where shown, :func:`rated_words`).
RATED_WORDS = {True: pN_("game", "Rated game"), False: pN_("game", "Casual game")}


def rated_words(rated: bool) -> str:
    """"Rated game" or "Casual game", in the language in force."""
    return pgettext("game", RATED_WORDS[rated])


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
    #: Whether the viewer is offered moves now: the table is playing and the session
    #: lets them play (``LiveGame.offers_moves``, the one answer).
    your_turn: bool = False
    #: The seed of a seeded game (practice, tests): not a secret, so everyone is shown
    #: it. None for a served game, whose decks come from the system's random source.
    seed: int | None = None
    #: Whether a game between people is rated (None: a game against the computer, never
    #: rated), shown to everyone at the table.
    rated: bool | None = None
    #: How many spectators watch the game now (docs/server.md, "Spectators"): everyone at
    #: the table is told that they are watched.
    spectators: int = 0


def table_json(view: Position) -> list[dict[str, Any]]:
    """The table's items for the page, each with the id a move's ``uses`` names it by."""
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
    """The moves for the page: text, card, kind, the table items each uses, the value a
    capture takes or a build announces, and its words."""
    out = []
    for m in moves:
        words = move_phrase(m, view.rules)
        value = _capture_value(view.rules, m) if m.kind == CAPTURE else (m.value or None)
        out.append({"text": str(m), "card": card_text(m.card), "kind": m.kind,
                    "uses": move_uses(view, m), "value": value, "words": words})
    return out


def sides(rules: Rules) -> list[list[int]]:
    """The sides that score, each the list of its seats: ``[[0, 2], [1, 3]]`` in a
    partnership game, ``[[0], [1], [2]]`` otherwise. A scored item and a side's score
    belong to its first seat (:meth:`Rules.team_of`), so a page that shows one column
    per side credits both partners, not the first alone."""
    return [[s for s in rules.seats if rules.team_of(s) == t] for t in rules.teams]


def side_name(rules: Rules, names: Sequence[str], seat: int) -> str:
    """The side of ``seat`` in words: its player's name, or both partners' ("Ann & Bob")."""
    team = rules.team_of(seat)
    return " & ".join(names[s] for s in rules.seats if rules.team_of(s) == team)


def total_text(n: int) -> str:
    """A total as shown to people: "12", "−3" (the minus sign, not a hyphen)."""
    return f"\u2212{-n}" if n < 0 else str(n)


def points_text(n: int) -> str:
    """Points won or lost as shown to people: "+5", "−5", "0" (never "+-5")."""
    return f"+{n}" if n > 0 else total_text(n)


def items_json(rules: Rules, result: Result, scores_before: Sequence[int]) -> list[dict[str, Any]]:
    """A round's items in counting order, each with its side (an index into
    :func:`sides`) and every seat's running total (partners' totals are their side's)."""
    totals = {t: scores_before[t] for t in rules.teams}
    index = {t: i for i, t in enumerate(rules.teams)}
    out = []
    for it in result.items:
        totals[it.seat] += it.points
        out.append({"item": item_words(it), "points": it.points, "seat": it.seat,
                    "side": index[rules.team_of(it.seat)],
                    "running": [totals[rules.team_of(s)] for s in rules.seats]})
    return out


def result_json(rules: Rules, result: Result, scores_before: Sequence[int],
                names: Sequence[str], end: Position | None = None) -> dict[str, Any]:
    """A round's result; with its ``end`` position, the majorities left tied too."""
    return {"items": items_json(rules, result, scores_before), "scores": list(result.scores),
            "winner": result.winner,
            "ties": tie_words(rules, end, names) if end is not None else [],
            "summary": winner_words(result, rules, names, scores_before)}


def rules_json(rules: Rules) -> dict[str, Any]:
    """What the page needs of the rules: name, title, seats and sides, whether points are
    penalties, what the point cards are called, and the target (none in Krypkasino)."""
    return {"name": rules.name, "title": short_title(rules.name), "players": rules.players,
            "partnerships": rules.partnerships, "sides": sides(rules),
            "penalties": scheme(rules).penalty,
            "point_cards_label": point_cards_label(rules),
            # Krypkasino's preset has target 0: no total ends it (the lower wins after
            # each pair of games), so there is none to show.
            "target": rules.target if rules.target > 0 else None}


#: The moves of one card a view lists, and the moves of each kind an ``options`` answer
#: lists: a view of a four-card hand then holds at most 48 moves, whatever the table.
MOVES_PER_CARD = 12
OPTIONS_SHOWN = 12


class SelectionError(ValueError):
    """A selection (a card and table items) that cannot be asked about; says why."""


def _observation_of(view: Position, seat: int | None) -> None:
    """Refuse a position that shows more than ``seat``'s observation (None: a spectator,
    :meth:`~casino.engine.position.Position.observe_public`)."""
    if not isinstance(view.stock, int) or any(
            isinstance(h, tuple) and s != seat for s, h in enumerate(view.hands)):
        raise ValueError("a view is built from the seat's observation only")


def card_choices(view: Position) -> dict[str, Any]:
    """What the player to move is offered: ``legal``, at most :data:`MOVES_PER_CARD`
    ranked moves of each card in hand, and ``cards``, for each card whether it can be
    played at all, whether its list is every legal move it has (``complete``) and how
    many it leaves out (``left``; None when not known: on a crowded table the list is
    a selection, and counting the rest would mean listing them).

    ``view`` is the mover's observation; the work is bounded by the engine's
    :meth:`~casino.engine.position.Position.moves_of` (all moves only on a small table).
    """
    _observation_of(view, view.to_move)
    legal: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    if view.result is not None:
        return {"legal": legal, "cards": cards}
    for card in sorted(set(view.hand(view.to_move))):
        got = view.moves_of(card)
        moves = ranked(got.moves)
        shown = moves[:MOVES_PER_CARD]
        left = len(moves) - len(shown) if got.complete else None
        playable = bool(moves) or view.card_options(card).playable
        legal.extend(legal_json(view, shown))
        cards.append({"card": card_text(card), "playable": playable,
                      "complete": left == 0, "left": left})
    return {"legal": legal, "cards": cards}


def unknown_choices(view: Position, why: str) -> dict[str, Any]:
    """Choices not worked out (the server gave up on a table too crowded): no moves
    listed, each card's ``playable`` unknown; the page asks ``options`` instead."""
    hand = view.hands[view.to_move]
    cards = sorted(set(hand)) if isinstance(hand, tuple) else []
    return {"legal": [], "cards": [{"card": card_text(c), "playable": None,
                                     "complete": False, "left": None} for c in cards],
            "unknown": why}


def read_selection(view: Position, seat: int, card: str,
                   uses: Sequence[str]) -> tuple[int, tuple[str, ...], list[int], list[Build]]:
    """A player's selection read and checked against their view: the card (held), the
    table item ids as given (each on the table, once) and the loose cards and builds
    they name. :class:`SelectionError` saying what is wrong otherwise. The message's
    shape (a card's text, a list of ids) is checked before, by its
    model (:class:`casino.web.messages.Options`)."""
    try:
        c = parse_card(card)
    except CardError as e:
        raise SelectionError(str(e)) from None
    hand = view.hands[seat]
    if not isinstance(hand, tuple) or c not in hand:
        raise SelectionError(not_held_words(c))
    if len(uses) > len(view.table):
        raise SelectionError(_("\"uses\" names %(n)s items; the table has %(count)s")
                             % {"n": len(uses), "count": len(view.table)})
    ids = {f"t{i}": item for i, item in enumerate(view.table)}
    loose: list[int] = []
    builds: list[Build] = []
    seen: set[str] = set()
    for u in uses:
        if u not in ids:
            raise SelectionError(_("there is no table item %(id)s (the items are t0 to "
                                   "%(last)s)") % {"id": repr(u[:12]),
                                                   "last": f"t{len(view.table) - 1}"})
        if u in seen:
            raise SelectionError(_("the table item %(id)s is named twice") % {"id": u})
        seen.add(u)
        item = ids[u]
        if isinstance(item, Build):
            builds.append(item)
        else:
            loose.append(item)
    return c, tuple(uses), loose, builds


def options_json(view: Position, card: int, uses: Sequence[str], loose: Sequence[int],
                 builds: Sequence[Build]) -> dict[str, Any]:
    """The answer to an ``options`` request: the legal moves of ``card`` using exactly
    the picked items (``exact``) and some using them and more (``more``), each ranked
    and at most :data:`OPTIONS_SHOWN`; ``complete`` when those are every such move,
    ``left`` how many were left out when that is known, and when there is none at all,
    ``reason``: why the selection is no move, in the engine's words.

    Polynomial in the table (:func:`casino.engine.legality.moves_with`); with nothing picked,
    the card's own bounded list (:meth:`~casino.engine.position.Position.moves_of`).
    """
    _observation_of(view, view.to_move)
    if loose or builds:
        got = moves_with(view, card, loose, builds)
        exact, more, complete = ranked(got.exact), ranked(got.more), got.complete
    else:
        mine = view.moves_of(card)
        exact = [m for m in mine.moves if m.kind == TRAIL]
        more = ranked([m for m in mine.moves if m.kind != TRAIL])
        complete = mine.complete
    shown_exact, shown_more = exact[:OPTIONS_SHOWN], more[:OPTIONS_SHOWN]
    cut = len(exact) - len(shown_exact) + len(more) - len(shown_more)
    reason = None
    if not exact and not more:
        if loose or builds:
            named = Move(CAPTURE, card, tuple(sorted(loose)), tuple(sorted(builds)))
        else:
            named = Move(TRAIL, card)
        reason = why_illegal(view, named)
    return {"type": "options", "card": card_text(card), "uses": list(uses),
            "exact": legal_json(view, shown_exact), "more": legal_json(view, shown_more),
            "complete": complete and cut == 0, "left": cut if complete else None,
            "reason": reason, "unknown": None}


def unknown_options(card: int, uses: Sequence[str], why: str) -> dict[str, Any]:
    """An ``options`` answer not worked out (the server was busy, or gave up on a table
    too crowded), ``unknown`` saying so: nothing is known of the selection."""
    return {"type": "options", "card": card_text(card), "uses": list(uses), "exact": [],
            "more": [], "complete": False, "left": None, "reason": None, "unknown": why}


def build_view(view: Position, seat: int | None, public: Public,
               choices: dict[str, Any] | None = None) -> dict[str, Any]:
    """The VIEW for ``seat``: ``view`` must be ``session.view_of(seat)``. For a spectator
    (``seat`` None) it must be the public observation (``observe_public()``): the VIEW
    then has no hand (``you`` null, ``spectator`` true) and offers nothing.

    ``choices`` are :func:`card_choices` of ``view`` when it is the seat's turn, worked
    out beforehand (the server does so in a worker, under a deadline); else they are
    worked out here.
    """
    rules = view.rules
    _observation_of(view, seat)
    result = view.result
    playing = public.status == "playing" and result is None
    your_turn = public.your_turn
    hand = view.hands[seat] if seat is not None else ()
    assert isinstance(hand, tuple)
    log = [item.to_json(n, seat) for n, item in enumerate(public.log, start=1)]
    game_over = public.ended is not None or (result is not None and result.winner is not None)
    winner = public.winner if public.ended is not None else (
        result.winner if result is not None else None)
    status = public.status
    if status == "playing" and result is not None:
        status = "over" if game_over else "round_over"
    if not your_turn:
        choices = {"legal": [], "cards": []}
    elif choices is None:
        choices = card_choices(view)
    shown = (result_json(rules, result, view.scores, shown_names(public.names), view)
             if result is not None else None)
    if public.ended is not None:  # a resignation: its words are the game's result
        shown = {**(shown or {"items": [], "scores": list(view.scores)}),
                 "winner": winner, "summary": public.ended}
    return {
        "game": public.game,
        "version": public.version,
        "rules": rules_json(rules),
        "you": seat,
        "spectator": seat is None,
        "spectators": public.spectators,
        "names": list(shown_names(public.names)),
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
        # Public: everyone saw the capture. The table's leftovers go to this seat's side
        # when the round ends (or by the rules' default when nobody has captured).
        "last_capture": view.last_capture,
        "scores": list(result.scores if result is not None else view.scores),
        "legal": choices["legal"],
        "cards": choices["cards"],
        "moves_unknown": choices.get("unknown"),
        "log": log,
        "last": log[-1] if log else None,
        "result": shown,
        "rounds": [{"round": r.round, "items": items_json(rules, r.result, r.scores_before),
                    "scores": list(r.result.scores)} for r in public.rounds],
        "settings": {"hints": public.settings.hints, "takebacks": public.settings.takebacks,
                     "words": public.settings.words()},
        "seed": public.seed,
        "rated": public.rated,
        "rated_words": None if public.rated is None else rated_words(public.rated),
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
            "point_cards": [card_text(c) for c in t.point_cards]}
