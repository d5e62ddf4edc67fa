"""The ``casino-position/1`` JSON form (docs/position.md): strict in, canonical out.

Every error is an :class:`InvalidPosition` naming the key and the reason. The
reader refuses unknown keys (typos), cards that cannot exist (a card twice in
a one-deck game, more cards than the ruleset has), builds whose groups do not
add up, and seats out of range. Hidden hands and a hidden stock are numbers.

Two keys beyond the thirteen required ones are written only where a ruleset needs
state that the others do not name (docs/rules.md §9.5): ``carry`` (Finnish
Kasino's carried majority points) and ``mulles`` (Mulle's mulles, in order).
They are omitted when empty, so positions of every other ruleset are exactly
the documented form.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from casino.engine.builds import Build
from casino.engine.cards import CARD_TEXTS, card_text, parse_card
from casino.engine.errors import CardError, InvalidPosition, RulesError
from casino.engine.rules import Rules, rules_from_json
from casino.engine.scoring import Carry, Item, Result
from casino.engine.wording import plural, times

if TYPE_CHECKING:
    from casino.engine.position import Position

FORMAT = "casino-position/1"
REQUIRED = ("format", "rules", "round", "deal", "dealer", "to_move", "hands", "table",
            "piles", "sweeps", "last_capture", "stock", "scores")
OPTIONAL = ("set_aside", "result", "carry", "mulles")
MAX_JSON = 1_000_000


def _cards_json(cards: tuple[int, ...]) -> list[str]:
    text = CARD_TEXTS
    return [text[c] for c in cards]


def _pile_json(pile: tuple[int, ...]) -> list[str]:
    """``_cards_json(pile)``, kept per pile: a pile is the same tuple from one capture of
    its seat to the next, and the research env writes a JSON at every step. The list
    returned is a fresh copy (the JSON is the caller's)."""
    got = _PILE_TEXTS.get(pile)
    if got is None:
        if len(_PILE_TEXTS) > 4096:
            _PILE_TEXTS.clear()
        got = _PILE_TEXTS[pile] = _cards_json(pile)
    return got[:]


_PILE_TEXTS: dict[tuple[int, ...], list[str]] = {}


def _build_json(b: Build) -> dict[str, Any]:
    return {"value": b.value, "owner": b.owner, "groups": [_cards_json(g) for g in b.groups]}


def _rules_json(rules: Rules) -> str | dict[str, Any]:
    """``rules.to_json()``; a preset's name kept per Rules object, found by identity
    (hashing a Rules value to look up its options reads its dozens of fields, and the
    research env writes a JSON at every step). Options are written anew each time: the
    dict is the caller's."""
    got = _RULES_NAME.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    out = rules.to_json()
    if isinstance(out, str):
        if len(_RULES_NAME) > 256:
            _RULES_NAME.clear()
        _RULES_NAME[id(rules)] = (rules, out)
    return out


_RULES_NAME: dict[int, tuple[Rules, str]] = {}


def position_to_json(pos: Position, seat: int | None = None) -> dict[str, Any]:
    """The JSON form of ``pos``; with ``seat``, of its observation by that seat (what
    ``pos.observe(seat)`` would write, without making that position)."""
    if seat is None:
        shown = pos.hands
        stock = pos.stock if isinstance(pos.stock, int) else _cards_json(pos.stock)
    else:
        shown = pos.seen_hands(seat)
        stock = pos.stock_size
    hands = [h if isinstance(h, int) else _cards_json(tuple(sorted(h))) for h in shown]
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": _rules_json(pos.rules),
        "round": pos.round,
        "deal": pos.deal,
        "dealer": pos.dealer,
        "to_move": pos.to_move,
        "hands": hands,
        "table": [CARD_TEXTS[i] if isinstance(i, int) else _build_json(i) for i in pos.table],
        "piles": [_pile_json(p) for p in pos.piles],
        "sweeps": list(pos.sweeps),
        "last_capture": pos.last_capture,
        "stock": stock,
        "set_aside": _cards_json(pos.set_aside),
        "scores": list(pos.scores),
        "result": pos.result.to_json() if pos.result is not None else None,
    }
    if pos.carry:
        out["carry"] = {"cards": pos.carry.cards, "spades": pos.carry.spades}
    if pos.mulles:
        out["mulles"] = list(pos.mulles)
    return out


def observation_json(pos: Position, seat: int) -> dict[str, Any]:
    """``position_to_json(pos.observe(seat))``, written straight from ``pos``."""
    if not 0 <= seat < pos.rules.players:
        raise ValueError(f"seat {seat} is not a seat of this {pos.rules.players}-player game")
    return position_to_json(pos, seat)


# ----------------------------------------------------------------------
# Reading


def _int(obj: Any, key: str, lo: int | None = None, hi: int | None = None) -> int:
    if not isinstance(obj, int) or isinstance(obj, bool):
        raise InvalidPosition(f"must be a whole number, not {obj!r}", key)
    if lo is not None and obj < lo:
        raise InvalidPosition(f"must be at least {lo}, not {obj}", key)
    if hi is not None and obj > hi:
        raise InvalidPosition(f"must be at most {hi}, not {obj}", key)
    return obj


def _seat(obj: Any, key: str, rules: Rules) -> int:
    if not isinstance(obj, int) or isinstance(obj, bool):
        raise InvalidPosition(f"must be a seat number, not {obj!r}", key)
    if not 0 <= obj < rules.players:
        raise InvalidPosition(
            f"seat {obj} does not exist: seats are 0 to {rules.players - 1}", key)
    return obj


def _card(obj: Any, key: str) -> int:
    if not isinstance(obj, str):
        raise InvalidPosition(f"a card must be text such as 'Td', not {obj!r}", key)
    try:
        return parse_card(obj)
    except CardError as exc:
        raise InvalidPosition(str(exc), key) from None


def _card_list(obj: Any, key: str) -> tuple[int, ...]:
    if not isinstance(obj, list):
        raise InvalidPosition(f"must be a list of cards, not {type(obj).__name__}", key)
    return tuple(_card(c, f"{key}[{i}]") for i, c in enumerate(obj))


def _seat_list(obj: Any, key: str, rules: Rules) -> list[Any]:
    if not isinstance(obj, list):
        raise InvalidPosition(f"must be a list with one entry per seat, not "
                              f"{type(obj).__name__}", key)
    if len(obj) != rules.players:
        raise InvalidPosition(
            f"has {len(obj)} entries but this is a {rules.players}-player game", key)
    return obj


def _read_build(obj: dict[str, Any], key: str, rules: Rules) -> Build:
    extra = set(obj) - {"value", "owner", "groups"}
    if extra:
        raise InvalidPosition(f"unknown key {sorted(extra)[0]!r} in a build "
                              "(a build has value, owner and groups)", key)
    for k in ("value", "owner", "groups"):
        if k not in obj:
            raise InvalidPosition(f"a build needs {k!r}", key)
    if not rules.building:
        raise InvalidPosition(f"{rules.name} has no builds", key)
    table = rules.table
    value = _int(obj["value"], f"{key}.value", 2, table.max_build)
    owner = _seat(obj["owner"], f"{key}.owner", rules)
    groups_obj = obj["groups"]
    if not isinstance(groups_obj, list) or not groups_obj:
        raise InvalidPosition("must be a non-empty list of groups of cards", f"{key}.groups")
    groups = []
    for gi, g in enumerate(groups_obj):
        gkey = f"{key}.groups[{gi}]"
        cards = _card_list(g, gkey)
        if not cards:
            raise InvalidPosition("a group cannot be empty", gkey)
        for c in cards:
            if not table.sum_value[c]:
                raise InvalidPosition(f"{card_text(c)} has no number value and cannot be "
                                      "in a build", gkey)
        total = sum(table.sum_value[c] for c in cards)
        if total != value:
            shown = " + ".join(card_text(c) for c in cards)
            raise InvalidPosition(f"{shown} adds up to {total}, not the build's value {value}",
                                  gkey)
        groups.append(cards)
    if sum(len(g) for g in groups) < 2:
        raise InvalidPosition("a build has at least two cards (a lone card is never a build)",
                              key)
    return Build.make(value, owner, tuple(groups))


def _read_result(obj: Any, rules: Rules) -> Result | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise InvalidPosition("must be null or an object with items, scores and winner",
                              "result")
    extra = set(obj) - {"items", "scores", "winner"}
    if extra:
        raise InvalidPosition(f"unknown key {sorted(extra)[0]!r}", "result")
    for k in ("items", "scores", "winner"):
        if k not in obj:
            raise InvalidPosition(f"needs {k!r}", "result")
    items_obj = obj["items"]
    if not isinstance(items_obj, list):
        raise InvalidPosition("must be a list", "result.items")
    items = []
    for i, it in enumerate(items_obj):
        key = f"result.items[{i}]"
        if not isinstance(it, dict) or set(it) != {"item", "seat", "points"}:
            raise InvalidPosition("each item is an object with item, seat and points", key)
        if not isinstance(it["item"], str) or not it["item"]:
            raise InvalidPosition("item must be a short name such as 'cards'", key)
        items.append(Item(it["item"], _seat(it["seat"], f"{key}.seat", rules),
                          _int(it["points"], f"{key}.points")))
    scores = _seat_list(obj["scores"], "result.scores", rules)
    score_vals = tuple(_int(s, f"result.scores[{i}]") for i, s in enumerate(scores))
    winner = obj["winner"]
    win = None if winner is None else _seat(winner, "result.winner", rules)
    return Result(tuple(items), score_vals, win)


def json_object(obj: Any, what: str, error: Callable[[str], Exception],
                max_chars: int) -> dict[str, Any]:
    """``obj`` parsed when it is JSON text, and checked to be an object.

    Shared by every reader of a JSON document (a position, a score pad), so that
    oversized text, bad JSON and a non-object are refused with the same words,
    each as the reader's own error type (``error(message)``)."""
    if isinstance(obj, str | bytes):
        if len(obj) > max_chars:
            raise error(f"the JSON text is too large to be {what}")
        try:
            obj = json.loads(obj)
        except (ValueError, RecursionError) as exc:
            raise error(f"not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise error(f"{what} is a JSON object, not {type(obj).__name__}")
    return obj


def position_from_json(obj: Any) -> Position:
    """The position of a ``casino-position/1`` object or text (see docs/position.md);
    InvalidPosition names the field that is wrong and why, so that a bad file is refused in
    words."""
    from casino.engine.position import Position

    obj = json_object(obj, "a position", InvalidPosition, MAX_JSON)
    for k in obj:
        if k not in REQUIRED and k not in OPTIONAL:
            raise InvalidPosition("unknown key (check its spelling)", str(k))
    for k in REQUIRED:
        if k not in obj:
            raise InvalidPosition("is missing", k)
    if obj["format"] != FORMAT:
        raise InvalidPosition(f"must be {FORMAT!r}, not {obj['format']!r}", "format")
    try:
        rules = rules_from_json(obj["rules"])
    except RulesError as exc:
        raise InvalidPosition(str(exc), "rules") from None
    rnd = _int(obj["round"], "round", 1)
    deal = _int(obj["deal"], "deal", 1)
    dealer = _seat(obj["dealer"], "dealer", rules)
    to_move = _seat(obj["to_move"], "to_move", rules)

    hands: list[tuple[int, ...] | int] = []
    for s, h in enumerate(_seat_list(obj["hands"], "hands", rules)):
        if isinstance(h, int) and not isinstance(h, bool):
            hands.append(_int(h, f"hands[{s}]", 0, max(rules.first_hand, rules.deal_size)))
        else:
            cards = _card_list(h, f"hands[{s}]")
            if len(cards) > max(rules.first_hand, rules.deal_size):
                raise InvalidPosition(f"holds {len(cards)} cards; a hand holds at most "
                                      f"{max(rules.first_hand, rules.deal_size)}", f"hands[{s}]")
            hands.append(tuple(sorted(cards)))

    table_obj = obj["table"]
    if not isinstance(table_obj, list):
        raise InvalidPosition("must be a list of cards and builds", "table")
    table: list[int | Build] = []
    for i, item in enumerate(table_obj):
        key = f"table[{i}]"
        if isinstance(item, dict):
            table.append(_read_build(item, key, rules))
        else:
            table.append(_card(item, key))

    piles = tuple(tuple(sorted(_card_list(p, f"piles[{s}]")))
                  for s, p in enumerate(_seat_list(obj["piles"], "piles", rules)))
    sweeps_obj = obj["sweeps"]
    if not isinstance(sweeps_obj, list):
        raise InvalidPosition("must be a list of seats", "sweeps")
    sweeps = tuple(_seat(s, f"sweeps[{i}]", rules) for i, s in enumerate(sweeps_obj))
    last = obj["last_capture"]
    last_capture = None if last is None else _seat(last, "last_capture", rules)
    stock_obj = obj["stock"]
    stock: tuple[int, ...] | int
    if isinstance(stock_obj, int) and not isinstance(stock_obj, bool):
        stock = _int(stock_obj, "stock", 0, rules.deck_size)
    else:
        stock = _card_list(stock_obj, "stock")
    set_aside = tuple(sorted(_card_list(obj.get("set_aside", []), "set_aside")))
    if set_aside and not rules.set_aside_pictures:
        raise InvalidPosition(f"{rules.name} sets no cards aside", "set_aside")
    for c in set_aside:
        if c >> 2 < 10:
            raise InvalidPosition(f"only J, Q and K are set aside, not {card_text(c)}",
                                  "set_aside")
    scores = tuple(_int(s, f"scores[{i}]")
                   for i, s in enumerate(_seat_list(obj["scores"], "scores", rules)))
    result = _read_result(obj.get("result"), rules)
    carry = _read_carry(obj.get("carry"), rules)
    mulles_obj = obj.get("mulles", [])
    if not isinstance(mulles_obj, list):
        raise InvalidPosition("must be a list of seats", "mulles")
    mulles = tuple(_seat(s, f"mulles[{i}]", rules) for i, s in enumerate(mulles_obj))
    if mulles and not rules.mulle_points:
        raise InvalidPosition(f"{rules.name} has no mulles", "mulles")

    _check_cards(rules, hands, table, piles, stock, set_aside)
    _check_captures(piles, sweeps, last_capture, mulles, dealer, result is not None)
    sizes = [h if isinstance(h, int) else len(h) for h in hands]
    if result is None:
        if not any(sizes):
            raise InvalidPosition("every hand is empty but the round is not over: the next "
                                  "deal (or the round's result) is missing", "hands")
        if sizes[to_move] == 0:
            raise InvalidPosition("the player to move has no cards", "to_move")
        _check_owners(rules, hands, table, to_move)
    return Position(
        rules=rules, round=rnd, deal=deal, dealer=dealer, to_move=to_move,
        hands=tuple(hands), table=tuple(table), piles=piles, sweeps=sweeps,
        last_capture=last_capture, stock=stock, set_aside=set_aside, scores=scores,
        result=result, carry=carry, mulles=mulles,
    )


def _check_captures(piles: tuple[tuple[int, ...], ...], sweeps: tuple[int, ...],
                    last_capture: int | None, mulles: tuple[int, ...], dealer: int,
                    over: bool) -> None:
    """Refuse piles that no play can reach: only a capture fills a pile during a round
    (the leftovers go to the last capturer, or to the dealer when nobody captured, only
    as it ends), and a sweep, a mulle or the last capture is a capture into that pile.
    Left unchecked, a pile without a last capturer would send the round's leftovers to
    the dealer although a seat captured."""
    if last_capture is None:
        filled = [s for s, p in enumerate(piles) if p and not (over and s == dealer)]
        if filled:
            raise InvalidPosition(
                f"seat {filled[0]} has captured cards but no seat made the last capture: "
                "only a capture puts cards in a pile", "last_capture")
    elif not piles[last_capture]:
        raise InvalidPosition(f"seat {last_capture} made the last capture but its pile is "
                              "empty", "last_capture")
    for key, seats in (("sweeps", sweeps), ("mulles", mulles)):
        for i, s in enumerate(seats):
            if not piles[s]:
                raise InvalidPosition(f"seat {s} has no captured cards, so it cannot have "
                                      f"made a {key[:-1]}", f"{key}[{i}]")


def _check_owners(rules: Rules, hands: list[tuple[int, ...] | int],
                  table: list[int | Build], to_move: int) -> None:
    """docs/rules.md §2.5: the player to move, if they own a build, holds a card of its value
    (else they would have no legal move). Other seats are not checked: their hands only
    matter on their own turn, and hand-made positions often leave them out
    (docs/rules.md §9.21)."""
    played = rules.table.played
    for i, item in enumerate(table):
        if isinstance(item, int) or item.owner != to_move:
            continue
        hand = hands[item.owner]
        if isinstance(hand, int):
            continue
        if not any(item.value in played[c] for c in hand):
            raise InvalidPosition(
                f"seat {item.owner} owns a build of {item.value} but holds no card of value "
                f"{item.value}; an owner always keeps one", f"table[{i}]")


def _read_carry(obj: Any, rules: Rules) -> Carry:
    if obj is None:
        return Carry()
    if not isinstance(obj, dict) or not set(obj) <= {"cards", "spades"}:
        raise InvalidPosition("must be an object with cards and spades points", "carry")
    if rules.scoring != "kasino" and any(obj.values()):
        raise InvalidPosition(f"{rules.name} carries no points between rounds", "carry")
    return Carry(cards=_int(obj.get("cards", 0), "carry.cards", 0),
                 spades=_int(obj.get("spades", 0), "carry.spades", 0))


def _check_cards(rules: Rules, hands: list[tuple[int, ...] | int], table: list[int | Build],
                 piles: tuple[tuple[int, ...], ...], stock: tuple[int, ...] | int,
                 set_aside: tuple[int, ...]) -> None:
    """Every card accounted for: none more often than the decks hold, and all of them
    when nothing is hidden."""
    counts: Counter[int] = Counter()
    where: dict[int, str] = {}

    def add(cards: tuple[int, ...], key: str) -> None:
        for c in cards:
            counts[c] += 1
            if counts[c] > rules.decks:
                first = where.get(c, key)
                raise InvalidPosition(
                    f"{card_text(c)} appears more than {times(rules.decks)} (also in {first}); "
                    f"{rules.name} has {plural(rules.decks, 'deck')}",
                    key)
            where.setdefault(c, key)

    hidden = 0
    for s, h in enumerate(hands):
        if isinstance(h, int):
            hidden += h
        else:
            add(h, f"hands[{s}]")
    for i, item in enumerate(table):
        add((item,) if isinstance(item, int) else item.cards, f"table[{i}]")
    for s, p in enumerate(piles):
        add(p, f"piles[{s}]")
    if isinstance(stock, int):
        hidden += stock
    else:
        add(stock, "stock")
    add(set_aside, "set_aside")
    total = sum(counts.values()) + hidden
    if total != rules.deck_size:
        raise InvalidPosition(
            f"the position holds {total} cards, but {rules.name} is played with "
            f"{rules.deck_size}: every card must be in a hand, on the table, in a pile, "
            "in the stock or set aside")
