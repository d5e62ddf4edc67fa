"""The observation encoding: one seat's view as a fixed-size ``float32`` array.

It is a function of ``Position.observation(seat)`` alone (the JSON form with every
other hand and the stock as counts; docs/position.md §1.4): :func:`encode` reads that
JSON, and :func:`encode_position` reads of a position only what the seat sees, so it
cannot hold a card the seat may not see. The same size serves every preset and player
count (``SIZE`` = 1,094 numbers).

**Seats are relative**: entry 0 of every per-seat field is the observing seat, entry
1 the next seat in seat order (seat + 1 mod players), and so on; fields have room for
4 seats and the seats a game does not have stay 0. **Cards** are counted by card id
(``rank * 4 + suit``, ranks ``A 2 .. K``, suits ``s c h d``): 52 entries, each 0, 1 or
2 (two-deck rulesets).

| field | size | meaning |
|---|---|---|
| `hand` | 52 | the seat's own hand |
| `loose` | 52 | the loose cards on the table |
| `builds` | 12 × 57 | up to 12 builds (see below) |
| `piles` | 4 × 52 | the cards each seat has captured this round (visible to all) |
| `set_aside` | 52 | Krypkasino's picture cards set aside this game |
| `hand_sizes` | 4 | how many cards each seat holds |
| `stock` | 1 | the undealt cards left |
| `scores` | 4 | each seat's game total before this round (partners share one) |
| `sweeps` | 4 | the sweeps each seat has scored this round |
| `mulles` | 4 | the mulles each seat has made this round (Mulle) |
| `to_move` | 4 | one-hot: whose turn it is |
| `dealer` | 4 | one-hot: the dealer |
| `last_capture` | 4 | one-hot: who captured last this round (all 0: nobody yet) |
| `seats` | 4 | 1 for each seat the game has |
| `side` | 4 | 1 for each seat of the observer's side (itself, and its partner) |
| `round_deal` | 2 | the round (Krypkasino: the game) and the deal within it |
| `round_points` | 4 | once the round is scored: the points each seat's side made in it |
| `over` | 1 | 1 once the round is scored |
| `carry` | 2 | Finnish Kasino: majority points carried into this round (cards, spades) |

Each build slot holds the build's cards (52), its value (1) and its owner one-hot
(4); the builds fill the slots ordered by value, then owner (relative), then cards,
and the slots left over are all 0.

``FIELDS`` gives each field's offset and size, and :func:`field` reads one field of
an encoded array by name. A table can hold more than 12 builds only in theory (the
most seen in random play of every preset is 4). On such a table the array keeps the
first 12 builds in the slots' order (the lowest values; they are the ones most often
taken next, by the smallest cards) and leaves the rest out, rather than fail mid-game;
``builds_left_out`` says how many, and the JSON observation in the infos still holds
every build.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from casino.engine.builds import Build
from casino.engine.position import Position
from casino.engine.rules import Rules

#: Room for this many seats in every per-seat field.
SEATS = 4
#: Build slots.
MAX_BUILDS = 12


def builds_left_out(pos: Position) -> int:
    """How many of the table's builds an observation array of ``pos`` leaves out."""
    return max(0, len(pos.builds) - MAX_BUILDS)
#: Numbers per build slot: its cards, its value, its owner one-hot.
BUILD_SIZE = 52 + 1 + SEATS


@dataclass(frozen=True)
class Field:
    """One field of the array: where it starts, how long it is, its bounds."""

    name: str
    offset: int
    size: int
    low: float
    high: float


_BIG = 1_000_000.0
_SPEC: tuple[tuple[str, int, float, float], ...] = (
    ("hand", 52, 0, 2),
    ("loose", 52, 0, 2),
    ("builds", MAX_BUILDS * BUILD_SIZE, 0, 64),
    ("piles", SEATS * 52, 0, 2),
    ("set_aside", 52, 0, 2),
    ("hand_sizes", SEATS, 0, 104),
    ("stock", 1, 0, 104),
    ("scores", SEATS, -_BIG, _BIG),
    ("sweeps", SEATS, 0, 104),
    ("mulles", SEATS, 0, 104),
    ("to_move", SEATS, 0, 1),
    ("dealer", SEATS, 0, 1),
    ("last_capture", SEATS, 0, 1),
    ("seats", SEATS, 0, 1),
    ("side", SEATS, 0, 1),
    ("round_deal", 2, 0, _BIG),
    ("round_points", SEATS, -_BIG, _BIG),
    ("over", 1, 0, 1),
    ("carry", 2, -_BIG, _BIG),
)


def _fields() -> dict[str, Field]:
    out: dict[str, Field] = {}
    offset = 0
    for name, size, low, high in _SPEC:
        out[name] = Field(name, offset, size, low, high)
        offset += size
    return out


FIELDS: dict[str, Field] = _fields()
SIZE = sum(f.size for f in FIELDS.values())


def bounds() -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The lowest and highest value of each entry (the observation space's box)."""
    low = np.zeros(SIZE, dtype=np.float32)
    high = np.zeros(SIZE, dtype=np.float32)
    for f in FIELDS.values():
        low[f.offset:f.offset + f.size] = f.low
        high[f.offset:f.offset + f.size] = f.high
    return low, high


def field(array: NDArray[Any], name: str) -> NDArray[Any]:
    """The entries of field ``name`` in an encoded observation (a view)."""
    f = FIELDS[name]
    return array[f.offset:f.offset + f.size]


def encode(observation: dict[str, Any], seat: int) -> NDArray[np.float32]:
    """The array of ``observation``, the JSON that ``Position.observation(seat)`` gave."""
    pos = Position.from_json(observation)
    return encode_position(pos, seat)


_OFF = {name: f.offset for name, f in FIELDS.items()}
_HAND, _LOOSE, _BUILDS, _PILES_AT, _SET_ASIDE = (
    _OFF["hand"], _OFF["loose"], _OFF["builds"], _OFF["piles"], _OFF["set_aside"])
_SIZES, _STOCK, _SCORES, _ROUND, _POINTS, _OVER, _CARRY = (
    _OFF["hand_sizes"], _OFF["stock"], _OFF["scores"], _OFF["round_deal"],
    _OFF["round_points"], _OFF["over"], _OFF["carry"])


class _Layout(NamedTuple):
    """What depends only on the ruleset and the observing seat: the array's start (the
    ``seats`` and ``side`` entries set), each seat's relative place, and each seat's
    entry in the one-hot and per-seat count fields."""

    start: bytes
    rel: tuple[int, ...]
    sweeps: tuple[int, ...]
    mulles: tuple[int, ...]
    to_move: tuple[int, ...]
    dealer: tuple[int, ...]
    last_capture: tuple[int, ...]


def _layout(rules: Rules, seat: int) -> _Layout:
    """The :class:`_Layout` of ``rules`` and ``seat``, kept per Rules object and seat,
    found by the object's identity (hashing a Rules value reads its dozens of fields, at
    every step), the object kept with it so that its id is not reused."""
    key = (id(rules), seat)
    got = _LAYOUTS.get(key)
    if got is None or got[0] is not rules:
        if len(_LAYOUTS) > 256:
            _LAYOUTS.clear()
        n = rules.players
        rel = tuple((s - seat) % n for s in range(n))
        start = bytearray(SIZE)
        side = rules.team_of(seat)
        for s in range(n):
            start[_OFF["seats"] + rel[s]] = 1
            if rules.team_of(s) == side:
                start[_OFF["side"] + rel[s]] = 1

        def at(name: str) -> tuple[int, ...]:
            return tuple(_OFF[name] + r for r in rel)

        got = _LAYOUTS[key] = (rules, _Layout(
            bytes(start), rel, at("sweeps"), at("mulles"), at("to_move"), at("dealer"),
            at("last_capture")))
    return got[1]


_LAYOUTS: dict[tuple[int, int], tuple[Rules, _Layout]] = {}


def _counts(cards: tuple[int, ...]) -> bytes:
    """Each card id's count in ``cards`` (52 bytes), kept per tuple: a pile is the same
    tuple from one capture of its seat to the next (and Krypkasino's set-aside pictures
    from one deal to the next), and piles hold most of the cards an array counts."""
    got = _COUNTS.get(cards)
    if got is None:
        if len(_COUNTS) > 4096:
            _COUNTS.clear()
        counts = bytearray(52)
        for c in cards:
            counts[c] += 1
        got = _COUNTS[cards] = bytes(counts)
    return got


_COUNTS: dict[tuple[int, ...], bytes] = {}


def encode_position(pos: Position, seat: int) -> NDArray[np.float32]:
    """The array of what ``seat`` sees of ``pos``: the whole position or its observation
    (``Position.observe(seat)``) give the same array, since only the seat's own hand is
    read and every other hand is only counted (so is the stock). The env encodes the
    whole position and makes no observed position. ``tests/test_env_fast.py`` checks it
    against :func:`encode_plain` on random games of every preset."""
    return to_array(encode_bytes(pos, seat))


#: An encoded array before it is made float32: the entries that fit in a byte, and the
#: entries that do not (index, value), to be set afterwards.
Encoded = tuple[bytearray, list[tuple[int, int]]]


def to_array(encoded: Encoded) -> NDArray[np.float32]:
    """The float32 array of :func:`encode_bytes`' answer (a new array at each call)."""
    small, large = encoded
    out = np.array(small, dtype=np.float32)
    for i, v in large:
        out[i] = v
    return out


def encode_bytes(pos: Position, seat: int) -> Encoded:
    """:func:`encode_position`'s entries, as a ``bytearray`` of the whole numbers that fit
    in a byte (nearly all) and a list of the others (a negative or large score).

    The array is made float32 from it by one numpy call (:func:`to_array`): numpy's
    per-call costs (an index array, a value array, a fancy assignment) would be a
    quarter of the engine's whole move, and each Python operation saved here is one of
    every learner's steps (benchmarks/env_speed.py). So the bytearray starts as the
    seat's :class:`_Layout` (the fields that depend only on the ruleset and the seat
    already set), the fields kept in seat order are written at once with the seats
    turned so that the observer comes first (the piles as each pile's 52 counts, kept
    per pile), the cards one by one, and the other numbers are written as they are,
    since a bytearray refuses a number that does not fit in a byte: only then are they
    all listed for the float array."""
    rules = pos.rules
    got = _LAYOUTS.get((id(rules), seat))
    layout = got[1] if got is not None and got[0] is rules else _layout(rules, seat)
    start, rel, sweeps_at, mulles_at, to_move_at, dealer_at, capture_at = layout
    small = bytearray(start)

    # Cards are counted: two decks may put a card twice in one field.
    hand = pos.hands[seat]
    for c in hand if not isinstance(hand, int) else pos.hand(seat):  # hidden: it raises
        small[_HAND + c] += 1
    builds: list[Build] = []
    for item in pos.table:
        if isinstance(item, int):
            small[_LOOSE + item] += 1
        else:
            builds.append(item)
    if builds:
        if len(builds) > 1:
            builds.sort(key=lambda b: (b.value, rel[b.owner], b.cards))
        at = _BUILDS
        for b in builds[:MAX_BUILDS]:  # the rest left out: see the module's docstring
            for c in b.cards:
                small[at + c] += 1
            small[at + 52] = b.value
            small[at + 53 + rel[b.owner]] = 1
            at += BUILD_SIZE
    # Per-seat fields in relative order: the observer's entry first, then the next seat's.
    piles = pos.piles
    hands = pos.hands
    scores = pos.scores
    if seat:
        piles = piles[seat:] + piles[:seat]
        hands = hands[seat:] + hands[:seat]
        scores = scores[seat:] + scores[:seat]
    get = _COUNTS.get
    at = _PILES_AT
    for pile in piles:
        if pile:
            small[at:at + 52] = get(pile) or _counts(pile)
        at += 52
    at = _SIZES
    for h in hands:
        small[at] = h if isinstance(h, int) else len(h)
        at += 1
    if pos.set_aside:
        small[_SET_ASIDE:_SET_ASIDE + 52] = _counts(pos.set_aside)
    for s in pos.sweeps:
        small[sweeps_at[s]] += 1
    for s in pos.mulles:
        small[mulles_at[s]] += 1
    stock = pos.stock
    small[_STOCK] = stock if isinstance(stock, int) else len(stock)
    small[to_move_at[pos.to_move]] = 1
    small[dealer_at[pos.dealer]] = 1
    if pos.last_capture is not None:
        small[capture_at[pos.last_capture]] = 1
    carry = pos.carry
    over = pos.result is not None
    if over:
        small[_OVER] = 1
    try:
        small[_ROUND] = pos.round
        small[_ROUND + 1] = pos.deal
        small[_SCORES:_SCORES + len(scores)] = scores
        if carry.cards or carry.spades:  # bool(carry), without the call
            small[_CARRY] = carry.cards
            small[_CARRY + 1] = carry.spades
        if over:
            small[_POINTS:_POINTS + rules.players] = _round_points(pos, seat)
    except ValueError:  # a number that does not fit in a byte: all of them in the floats
        return small, _numbers(pos, seat)
    return small, []


def _round_points(pos: Position, seat: int) -> tuple[int, ...]:
    """Each seat's side's points in the scored round ``pos``, in relative order."""
    assert pos.result is not None
    rules = pos.rules
    points = pos.result.points_by_seat(rules.players)
    sides = tuple(points[rules.team_of(s)] for s in rules.seats)
    return sides[seat:] + sides[:seat]


def _numbers(pos: Position, seat: int) -> list[tuple[int, int]]:
    """Every entry of the round and deal, the scores, the carry and the round's points,
    with its index: where one of them does not fit in a byte."""
    scores = pos.scores[seat:] + pos.scores[:seat]
    out = [(_ROUND, pos.round), (_ROUND + 1, pos.deal), (_CARRY, pos.carry.cards),
           (_CARRY + 1, pos.carry.spades)]
    out += [(_SCORES + i, v) for i, v in enumerate(scores)]
    if pos.result is not None:
        out += [(_POINTS + i, v) for i, v in enumerate(_round_points(pos, seat))]
    return out


def encode_plain(pos: Position, seat: int) -> NDArray[np.float32]:
    """The array of an observed position, field by field: the reference that
    :func:`encode_position` is tested against (same entries, more slowly)."""
    rules = pos.rules
    n = rules.players
    out = np.zeros(SIZE, dtype=np.float32)

    def rel(s: int) -> int:
        return (s - seat) % n

    def put(name: str, i: int, v: float) -> None:
        out[FIELDS[name].offset + i] += v

    for c in pos.hand(seat):
        put("hand", c, 1)
    for c in pos.loose:
        put("loose", c, 1)
    builds = sorted(pos.builds, key=lambda b: (b.value, rel(b.owner), b.cards))
    for i, b in enumerate(builds[:MAX_BUILDS]):
        for c in b.cards:
            put("builds", i * BUILD_SIZE + c, 1)
        put("builds", i * BUILD_SIZE + 52, b.value)
        put("builds", i * BUILD_SIZE + 53 + rel(b.owner), 1)
    for s in range(n):
        for c in pos.piles[s]:
            put("piles", rel(s) * 52 + c, 1)
    for c in pos.set_aside:
        put("set_aside", c, 1)
    for s in pos.sweeps:
        put("sweeps", rel(s), 1)
    for s in pos.mulles:
        put("mulles", rel(s), 1)
    side = rules.team_of(seat)
    for s in range(n):
        put("hand_sizes", rel(s), pos.hand_size(s))
        put("scores", rel(s), pos.scores[s])
        put("seats", rel(s), 1)
        if rules.team_of(s) == side:
            put("side", rel(s), 1)
    put("stock", 0, pos.stock_size)
    put("to_move", rel(pos.to_move), 1)
    put("dealer", rel(pos.dealer), 1)
    if pos.last_capture is not None:
        put("last_capture", rel(pos.last_capture), 1)
    put("round_deal", 0, pos.round)
    put("round_deal", 1, pos.deal)
    if pos.result is not None:
        points = pos.result.points_by_seat(n)
        for s in range(n):
            put("round_points", rel(s), points[rules.team_of(s)])
        put("over", 0, 1)
    put("carry", 0, pos.carry.cards)
    put("carry", 1, pos.carry.spades)
    return out
