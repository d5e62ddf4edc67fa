"""Fuzzing the two parsers with hypothesis: bad input raises the documented error, never
anything else (docs/position.md §2.5).

- The move parser (``Position.parse_move``): arbitrary text, and mutations of legal move
  texts, either name a legal move or raise ``IllegalMove``.
- The position reader (``Position.from_json``): arbitrary JSON values and mutated valid
  positions either give a ``Position`` or raise ``InvalidPosition``. A position it accepts
  round-trips through ``to_json`` and has a legal move unless its round is over.

The pools of valid positions come from seeded random games of several presets, including
observations (hidden hands and stock as counts) and finished rounds.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino import HiddenInformation, IllegalMove, InvalidPosition, Match, Position
from casino.engine.errors import CasinoError

FUZZ = settings(max_examples=250, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

GAMES = [("casino", 2), ("casino", 5), ("krypkasino", 3), ("kasino", 4), ("classic", 6),
         ("royal", 7), ("mulle", 8), ("tablic", 9)]


def _game_positions(name: str, seed: int) -> list[Position]:
    """Positions of one random round, preferring builds so that builds appear."""
    match = Match(name, seed=seed)
    rng = random.Random(seed)
    seen = []
    while match.position.result is None:
        pos = match.position
        seen.append(pos)
        moves = pos.legal_moves()
        onto = [m for m in moves if m.kind in ("build", "add", "raise")]
        match.play(rng.choice(onto if onto and rng.random() < 0.5 else moves))
    seen.append(match.position)
    return seen


def _pools() -> tuple[list[Position], list[dict[str, Any]]]:
    positions: list[Position] = []
    for name, seed in GAMES:
        game = _game_positions(name, seed)
        positions += [*game[::5], game[-1]]
    objs = [p.to_json() for p in positions]
    objs += [p.observation(p.to_move) for p in positions[::3]]
    return positions, objs


POSITIONS, POSITION_JSON = _pools()
MOVE_POSITIONS = [p for p in POSITIONS if p.result is None]


# ----------------------------------------------------------------------
# (a) The move parser

MOVE_ALPHABET = "AaTtJjQqKk0123456789schdSCHD♠♣♥♦xX>=+[] ,-\n\t\ufe0f"


def _check_parse(pos: Position, text: str) -> None:
    try:
        move = pos.parse_move(text)
    except IllegalMove:
        return
    assert move in pos.legal_moves(), f"{text!r} gave {move!r}, which is not legal"
    assert pos.parse_move(str(move)) == move


@FUZZ
@given(pos=st.sampled_from(MOVE_POSITIONS),
       text=st.one_of(st.text(max_size=40), st.text(alphabet=MOVE_ALPHABET, max_size=40)))
def test_fuzz_parse_move_arbitrary_text(pos: Position, text: str) -> None:
    _check_parse(pos, text)


def _mutate_text(text: str, data: st.DataObject) -> str:
    tokens = text.split(" ")
    op = data.draw(st.sampled_from(
        ["delete_char", "insert_char", "replace_char", "drop_token", "dup_token",
         "swap_tokens", "replace_token", "upper", "strip_value", "change_value"]))
    if op in ("delete_char", "insert_char", "replace_char"):
        i = data.draw(st.integers(0, max(len(text) - 1, 0)))
        ch = data.draw(st.sampled_from(MOVE_ALPHABET))
        if op == "delete_char":
            return text[:i] + text[i + 1:]
        if op == "insert_char":
            return text[:i] + ch + text[i:]
        return text[:i] + ch + text[i + 1:]
    i = data.draw(st.integers(0, len(tokens) - 1))
    if op == "drop_token":
        del tokens[i]
    elif op == "dup_token":
        tokens.insert(i, tokens[i])
    elif op == "swap_tokens":
        j = data.draw(st.integers(0, len(tokens) - 1))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif op == "replace_token":
        tokens[i] = data.draw(st.sampled_from(
            ["x", ">", "=8", "=15", "=0", "[8]", "[]", "[5d+3s]", "As", "10d", "Td+4c", "+",
             "[14]", "2s", "Kh", "=", "=99999999999999999999"]))
    elif op == "upper":
        return text.upper()
    elif op == "strip_value":
        return text.split("=")[0]
    else:
        return text.split("=")[0] + f"={data.draw(st.integers(-3, 30))}"
    return " ".join(tokens)


@FUZZ
@given(pos=st.sampled_from(MOVE_POSITIONS), data=st.data())
def test_fuzz_parse_move_mutated_legal_texts(pos: Position, data: st.DataObject) -> None:
    move = data.draw(st.sampled_from(pos.legal_moves()))
    text = str(move)
    for _ in range(data.draw(st.integers(1, 3))):
        text = _mutate_text(text, data)
    _check_parse(pos, text)


# ----------------------------------------------------------------------
# (b) The position reader

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 60), st.integers(),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
    st.sampled_from(["casino", "Td", "As", "10d", "5d", "casino-position/1", "kasino",
                     "krypkasino", "classic", "mulle", "tablic", "royal", "XX", ""]),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(st.lists(children, max_size=6),
                               st.dictionaries(st.text(max_size=10), children, max_size=6)),
    max_leaves=30,
)


def _check_read(obj: Any) -> None:
    """``from_json`` gives a Position or InvalidPosition; an accepted position is sound."""
    try:
        pos = Position.from_json(obj)
    except InvalidPosition:
        return
    again = Position.from_json(pos.to_json())
    assert again == pos
    assert Position.from_json(json.dumps(pos.to_json())) == pos
    hand = pos.hands[pos.to_move]
    if isinstance(hand, int) and pos.result is None:
        with pytest.raises(HiddenInformation):
            pos.legal_moves()
        return
    moves = pos.legal_moves()
    if pos.result is None:
        assert moves, f"no legal move in an accepted position: {pos.to_json()}"
    for m in moves[:3]:
        assert pos.parse_move(str(m)) == m
        with contextlib.suppress(HiddenInformation):  # the next deal may need a hidden stock
            pos.play(m)
    str(pos)


@FUZZ
@given(obj=json_values)
def test_fuzz_from_json_arbitrary_values(obj: Any) -> None:
    _check_read(obj)


@FUZZ
@given(text=st.one_of(st.text(max_size=60),
                      json_values.map(json.dumps),
                      st.binary(max_size=40)))
def test_fuzz_from_json_arbitrary_text(text: str | bytes) -> None:
    _check_read(text)


@FUZZ
@given(base=st.sampled_from(POSITION_JSON), data=st.data())
def test_fuzz_from_json_arbitrary_values_per_key(base: dict[str, Any],
                                                  data: st.DataObject) -> None:
    """Every top-level key given an arbitrary value, one at a time."""
    obj = copy.deepcopy(base)
    key = data.draw(st.sampled_from(sorted(obj)))
    obj[key] = data.draw(json_values)
    _check_read(obj)


# Mutations of valid positions: paths into the JSON tree and edits at them.

Path = tuple[Any, ...]


def _paths(obj: Any, prefix: Path = ()) -> list[Path]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


def _get(obj: Any, path: Path) -> Any:
    for p in path:
        obj = obj[p]
    return obj


CARD_TEXTS = ["As", "Ac", "2s", "5d", "3s", "8h", "8c", "Td", "10d", "Kh", "Qs", "Jd", "9c",
              "1s", "Ts", "0s", "AS", "♠A", "7♥"]


def _new_value(old: Any, data: st.DataObject) -> Any:
    kind = data.draw(st.sampled_from(
        ["card", "seat", "tweak", "type", "json", "wrap", "none", "empty"]))
    if kind == "card":
        return data.draw(st.sampled_from(CARD_TEXTS))
    if kind == "seat":
        return data.draw(st.integers(-2, 5))
    if kind == "tweak":
        if isinstance(old, bool):
            return not old
        if isinstance(old, int):
            return old + data.draw(st.integers(-3, 3))
        if isinstance(old, str):
            return old[:-1] if old else "x"
        return data.draw(st.integers(0, 20))
    if kind == "type":
        return data.draw(st.sampled_from([str(old), 1.5, True, [old], {"v": old}, -1]))
    if kind == "wrap":
        return [old]
    if kind == "none":
        return None
    if kind == "empty":
        return type(old)() if isinstance(old, list | dict | str) else 0
    return data.draw(json_values)


def _mutate(obj: Any, data: st.DataObject) -> Any:
    paths = _paths(obj)
    path = data.draw(st.sampled_from(paths))
    op = data.draw(st.sampled_from(["replace", "delete", "rename", "insert", "duplicate"]))
    if not path:
        return _new_value(obj, data) if op == "replace" else obj
    parent = _get(obj, path[:-1])
    last = path[-1]
    if op == "replace":
        parent[last] = _new_value(parent[last], data)
    elif op == "delete":
        del parent[last]
    elif op == "rename" and isinstance(parent, dict):
        new = data.draw(st.sampled_from(
            [last.upper(), last + "s", last[:-1], "extra", "", "value", "owner", "groups",
             "set_aside", "carry", "mulles", "result", "items"]))
        parent[new] = parent.pop(last)
    elif op == "insert" and isinstance(parent, list):
        parent.insert(last, _new_value(parent[last], data))
    elif op == "duplicate" and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[last]))
    else:
        parent[last] = _new_value(parent[last], data)
    return obj


@FUZZ
@given(base=st.sampled_from(POSITION_JSON), data=st.data())
def test_fuzz_from_json_mutated_positions(base: dict[str, Any], data: st.DataObject) -> None:
    obj = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(1, 3))):
        obj = _mutate(obj, data)
    _check_read(obj)


@FUZZ
@given(base=st.sampled_from(POSITION_JSON), data=st.data())
def test_fuzz_from_json_card_moved_between_places(base: dict[str, Any],
                                                  data: st.DataObject) -> None:
    """Move a card from one place to another (hand, table, pile, stock): the card count
    stays right, so only the rules of the position can refuse it."""
    obj = copy.deepcopy(base)
    places = [p for p in _paths(obj) if isinstance(_get(obj, p), str)
              and p and p[0] in ("hands", "table", "piles", "stock")]
    lists = [p for p in _paths(obj) if isinstance(_get(obj, p), list)
             and p and p[0] in ("hands", "table", "piles", "stock")]
    if not places or not lists:
        return
    src = data.draw(st.sampled_from(places))
    dst = data.draw(st.sampled_from(lists))
    parent = _get(obj, src[:-1])
    target = _get(obj, dst)
    card = parent.pop(src[-1])
    target.append(card)
    _check_read(obj)


def test_fuzz_pools_are_valid_and_varied() -> None:
    """The seed positions themselves read back, and include builds, hidden parts and
    finished rounds, so mutations reach every part of the reader."""
    for obj in POSITION_JSON:
        _check_read(obj)
    assert any(isinstance(h, int) for obj in POSITION_JSON for h in obj["hands"])
    assert any(isinstance(i, dict) for obj in POSITION_JSON for i in obj["table"])
    assert any(obj["result"] is not None for obj in POSITION_JSON)
    assert any(isinstance(obj["rules"], str) and obj["rules"] == "mulle"
               for obj in POSITION_JSON)


def test_reader_refuses_every_hand_empty_in_a_round_not_over() -> None:
    """With every hand empty and no result, no move exists: ``play`` deals at once when
    the hands run out (or scores the round), so such a position cannot arise."""
    obj = {
        "format": "casino-position/1", "rules": "casino", "round": 1, "deal": 2,
        "dealer": 1, "to_move": 1, "hands": [[], []],
        "table": ["Td", "Js", "7c", "4h", "9s", "6s"],
        "piles": [["5s", "5h", "6c", "7d", "Jh", "Qc"],
                  ["3c", "3d", "5c", "8s", "8d", "Tc", "Kc", "Kh"]],
        "sweeps": [], "last_capture": 0,
        "stock": ["5d", "2s", "Ah", "7h", "4s", "9d", "2c", "3s", "4c", "Qh", "Th", "As",
                  "Ts", "2h", "9h", "7s", "Jd", "8h", "6d", "2d", "3h", "Ad", "Ks", "4d",
                  "8c", "Ac", "9c", "Jc", "Kd", "Qs", "6h", "Qd"],
        "scores": [0, 0], "result": None,
    }
    with pytest.raises(InvalidPosition):
        Position.from_json(obj)


def test_positions_reached_by_play_read_back() -> None:
    """An accepted position at the last deal (deal 6 of 6) with cards still in the stock
    must either be refused, or its successors must read back: here ``play`` deals a 7th
    deal, which the reader then refuses ("deal: must be at most 6")."""
    named = ["2c", "3c", "Kh"]
    rest = [c for c in (f"{r}{s}" for r in "A23456789TJQK" for s in "schd") if c not in named]
    obj = {
        "format": "casino-position/1", "rules": "casino", "round": 1, "deal": 6,
        "dealer": 1, "to_move": 0, "hands": [["2c"], ["3c"]], "table": ["Kh"],
        "piles": [[], rest[8:]], "sweeps": [], "last_capture": 1, "stock": rest[:8],
        "scores": [0, 0], "result": None,
    }
    try:
        pos = Position.from_json(obj)
    except InvalidPosition:
        return
    after = pos.play("2c").play("3c")
    assert Position.from_json(after.to_json()) == after


def test_non_json_python_objects_are_refused() -> None:
    """Python values that JSON cannot hold (sets, tuples, non-text keys) are refused as
    InvalidPosition, not with a TypeError."""
    base = copy.deepcopy(POSITION_JSON[0])
    odd: list[Any] = [
        {**base, "hands": ({"Td"}, [])},
        {**base, 3: "x"},
        {**base, "table": [{"value": 8, "owner": 0, "groups": [["5d", "3s"]], 1: 2}]},
        {**base, "result": {"items": [], "scores": [0, 0], "winner": None, 5: 1}},
        {**base, "rules": {"preset": ["casino"]}},
        {**base, "rules": {"preset": "casino", "players": "two"}},
        {**base, "rules": {"preset": "casino", "face_values": [1]}},
        {**base, "rules": {"preset": "casino", "nonsense": 1}},
    ]
    for obj in odd:
        with contextlib.suppress(CasinoError):
            Position.from_json(obj)
