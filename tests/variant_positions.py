"""Build test positions from short JSON-like specs, accounting for every card.

A rule test names only the cards that matter (hands, table, maybe a pile or the
top of the stock). The JSON reader rightly refuses a position that does not hold
every card of the ruleset exactly (52, or 104 with two decks), so this helper
puts the unnamed cards somewhere harmless: into the stock (after any named top
cards) or, with ``fill="piles"``, into a pile so that the round is in its last
deal. The result goes through ``Position.from_json``, so the helper never builds
a position the contract forbids.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

from casino import Match, Position, Rules, card_text, parse_card, preset
from casino.engine.moves import BUILD, CAPTURE, TRAIL, Move

Fill = Literal["stock", "piles"]

SPEC_KEYS = {
    "rules", "hands", "table", "piles", "stock", "fill", "fill_seat", "to_move", "dealer",
    "deal", "round", "sweeps", "last_capture", "scores", "set_aside", "carry", "mulles",
}


def cards(text: str) -> list[str]:
    """``"7h 7c As"`` -> ``["7h", "7c", "As"]`` (canonical text)."""
    return [card_text(parse_card(t)) for t in text.split()]


def _rules_of(rules: str | dict[str, Any] | Rules) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return preset(rules)
    opts = {k: v for k, v in rules.items() if k != "preset"}
    return preset(rules["preset"], **opts)


def _named_cards(obj: Any) -> Iterable[str]:
    """Every card text inside hands / table / piles / stock entries (builds included)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for g in obj.get("groups", []):
            yield from _named_cards(g)
    elif isinstance(obj, list | tuple):
        for x in obj:
            yield from _named_cards(x)


def _as_list(x: Any) -> Any:
    return x.split() if isinstance(x, str) else x


def rest_of_deck(rules: Rules, used: Iterable[str]) -> list[str]:
    """The cards of the ruleset's deck(s) not in ``used``, in id order (a multiset)."""
    left: Counter[int] = Counter({c: rules.decks for c in range(52)})
    for t in used:
        c = parse_card(t)
        left[c] -= 1
        if left[c] < 0:
            raise ValueError(f"{t} is named more often than the deck holds it")
    return [card_text(c) for c in sorted(left.elements())]


def spec_json(spec: dict[str, Any]) -> dict[str, Any]:
    """The full ``casino-position/1`` object for a short spec.

    Keys: ``rules`` (name, options object or Rules), ``hands`` (lists or
    space-separated strings), ``table`` (cards and build objects), ``piles``,
    ``stock`` (the named top of the stock), ``fill`` (``stock`` or ``piles``),
    ``fill_seat`` (the pile that gets the rest), and any position key. Without
``last_capture``, a seat with captured cards made the last capture.
    """
    unknown = set(spec) - SPEC_KEYS
    if unknown:
        raise ValueError(f"unknown spec keys {sorted(unknown)}")
    rules = _rules_of(spec.get("rules", "casino"))
    n = rules.players
    hands = [_as_list(h) for h in spec["hands"]]
    table = [t for t in _as_list(spec.get("table", []))]
    piles = [list(_as_list(p)) for p in spec.get("piles", [[] for _ in range(n)])]
    stock = list(_as_list(spec.get("stock", [])))
    set_aside = list(_as_list(spec.get("set_aside", [])))
    used = [*_named_cards(hands), *_named_cards(table), *_named_cards(piles), *stock, *set_aside]
    rest = rest_of_deck(rules, used)
    fill: Fill = spec.get("fill", "stock")
    if fill == "stock":
        stock = stock + rest
    else:
        piles[spec.get("fill_seat", 0)].extend(rest)
    dealer = spec.get("dealer", (spec.get("to_move", 0) - rules.direction) % n)
    out: dict[str, Any] = {
        "format": "casino-position/1",
        "rules": rules.to_json(),
        "round": spec.get("round", 1),
        "deal": spec.get("deal", rules.deals_per_round if not stock else 2),
        "dealer": dealer,
        "to_move": spec.get("to_move", 0),
        "hands": hands,
        "table": table,
        "piles": piles,
        "sweeps": list(spec.get("sweeps", [])),
        "last_capture": spec.get("last_capture", _last_capturer(piles, spec.get("fill_seat", 0))),
        "stock": stock,
        "set_aside": set_aside,
        "scores": list(spec.get("scores", [0] * n)),
        "result": None,
    }
    for key in ("carry", "mulles"):
        if key in spec:
            out[key] = spec[key]
    return out


def _last_capturer(piles: list[list[str]], fill_seat: int) -> int | None:
    """A seat that may have made the last capture: only a capture fills a pile, so a
    position with captured cards names one (the filled pile's seat first)."""
    if piles[fill_seat]:
        return fill_seat
    return next((s for s, p in enumerate(piles) if p), None)


def make(spec: dict[str, Any] | str) -> Position:
    """The Position for a short spec (a dict, or its JSON text)."""
    if isinstance(spec, str):
        spec = json.loads(spec)
    assert isinstance(spec, dict)
    return Position.from_json(spec_json(spec))


def pos(rules: str | dict[str, Any] | Rules, hands: Sequence[Any], table: Any = (),
        **keys: Any) -> Position:
    """Shorthand: ``pos("kasino", ["Ah 5c", "9d"], "As 4h", fill="piles")``."""
    spec: dict[str, Any] = {"rules": rules, "hands": list(hands), "table": _as_list(table)}
    spec.update(keys)
    return make(spec)


def texts(moves: Iterable[Any]) -> set[str]:
    """The canonical texts of some moves, for readable set comparisons."""
    return {str(m) for m in moves}


def round_positions(name: str, players: int, seed: int, every: int = 3) -> Iterator[Position]:
    """Positions of one seeded random round of preset ``name``, every ``every``-th, the
    round played building often (half the time a build, addition or raise is legal)."""
    rng = random.Random(seed)
    match = Match(name, seed=seed, players=players)
    i = 0
    while match.position.result is None:
        pos = match.position
        if i % every == 0:
            yield pos
        moves = pos.legal_moves()
        onto = [m for m in moves if m.kind in ("build", "add", "raise")]
        match.play(rng.choice(onto) if onto and rng.random() < 0.5 else rng.choice(moves))
        i += 1


#: Every preset, and Krypkasino with the cardinality option (``kryp-cardinality``): the
#: rulesets the move checks are compared on.
GAMES = ["casino", "krypkasino", "kasino", "classic", "royal", "spade", "faces-all", "mulle",
         "tablic", "kryp-cardinality"]


def game_rules(name: str) -> Rules:
    """The ruleset of a :data:`GAMES` name."""
    if name == "kryp-cardinality":
        return preset("krypkasino", maximal_capture="cardinality")
    return preset(name)


def growing_round(name: str, seed: int) -> list[Position]:
    """Every position of one seeded random round of a :data:`GAMES` ruleset, played
    trailing and building often so that tables grow and builds pile up."""
    match = Match(game_rules(name), seed=seed)
    rng = random.Random(seed)
    out = []
    while match.position.result is None:
        pos = match.position
        out.append(pos)
        moves = pos.legal_moves()
        trails = [m for m in moves if m.kind == "trail"]
        onto = [m for m in moves if m.kind in ("build", "add", "raise")]
        r = rng.random()
        pick = (rng.choice(trails) if trails and r < 0.4
                else rng.choice(onto) if onto and r < 0.7 else rng.choice(moves))
        match.play(pick)
    return out


def mutations(pos: Position, legal: list[Move], rng: random.Random) -> set[Move]:
    """Moves made by changing some legal moves of ``pos`` (another card, a card fewer,
    another build, another value, a random selection of the table): legal or not."""
    out: set[Move] = set()
    hand = set(pos.hand(pos.to_move))
    for m in legal[:25]:
        out.update(Move(m.kind, c, m.loose, m.builds, m.value) for c in hand)
        if m.loose:
            out.add(Move(m.kind, m.card, m.loose[1:], m.builds, m.value))
        for b in pos.builds:
            out.add(Move(m.kind, m.card, m.loose, (b,), m.value))
            out.add(Move(CAPTURE, m.card, m.loose, (b,)))
        out.update(Move(BUILD, m.card, m.loose, (), v) for v in range(2, 15))
        if pos.loose:
            sub = tuple(sorted(rng.sample(pos.loose, rng.randint(1, len(pos.loose)))))
            out.add(Move(CAPTURE, m.card, sub))
            out.update(Move(BUILD, m.card, sub, (), v) for v in range(2, 15))
        out.add(Move(TRAIL, m.card))
    return out


def deck_from(rules: Rules, top: Sequence[str]) -> list[int]:
    """A full deck (ids, top first) starting with ``top``, the rest in id order."""
    return [parse_card(t) for t in top] + [parse_card(t) for t in rest_of_deck(rules, top)]
