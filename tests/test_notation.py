"""The move notation of docs/notation.md: every example in the document, the round trip
``pos.parse_move(str(m)) == m`` over random positions of every preset, and the
reasons given for illegal moves.

The document's examples live in fenced ``example`` blocks: a ``hand:`` line, a
``table:`` line, then moves (``text``, ``text => canonical`` or
``text !! words of the error``). This module reads the document itself, so an
example added there is checked here without further work.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from casino import PRESET_NAMES, IllegalMove, MalformedMove, Match, Position, card_text, parse_card
from casino.engine.rules import Rules

DOC = Path(__file__).resolve().parent.parent / "docs" / "notation.md"


# ----------------------------------------------------------------------
# Reading the document's examples


@dataclass
class Example:
    """One ``example`` block: the position and its move lines."""

    line: int
    hand: str
    table: str
    moves: list[tuple[int, str]] = field(default_factory=list)


def read_examples(text: str) -> list[Example]:
    examples: list[Example] = []
    current: Example | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        if raw.strip() == "```example":
            current = Example(n, "", "")
            continue
        if current is None:
            continue
        if raw.strip() == "```":
            examples.append(current)
            current = None
        elif raw.startswith("hand:"):
            current.hand = raw[5:].strip()
        elif raw.startswith("table:"):
            current.table = raw[6:].strip()
        else:
            current.moves.append((n, raw))
    assert current is None, "an example block is not closed"
    return examples


EXAMPLES = read_examples(DOC.read_text(encoding="utf-8"))
_ITEM = re.compile(r"\[[^\]]*\]\*?|\S+")


def _build_json(token: str) -> dict[str, Any]:
    mine = token.endswith("*")
    groups = [g.split("+") for g in token.rstrip("*")[1:-1].split()]
    sums = Rules.preset("casino").table.sum_value
    value = sum(sums[parse_card(c)] for c in groups[0])
    return {"value": value, "owner": 0 if mine else 1, "groups": groups}


def example_position(ex: Example) -> Position:
    """The example's position in the house game: seat 0 to move, every other card in the
    stock, so the position holds all 52 cards."""
    table: list[Any] = []
    named = ex.hand.split()
    for tok in _ITEM.findall(ex.table):
        if tok.startswith("["):
            b = _build_json(tok)
            table.append(b)
            named += [c for g in b["groups"] for c in g]
        else:
            table.append(tok)
            named.append(tok)
    used = {parse_card(c) for c in named}
    rest = [card_text(c) for c in range(52) if c not in used]
    # Deal 2 of 6: at most 32 cards still to deal; the others were captured before.
    return Position.from_json({
        "format": "casino-position/1", "rules": "casino", "round": 1, "deal": 2,
        "dealer": 1, "to_move": 0, "hands": [ex.hand.split(), []], "table": table,
        "piles": [[], rest[32:]], "sweeps": [], "last_capture": 1,
        "stock": rest[:32], "scores": [0, 0], "result": None,
    })


def _cases() -> list[Any]:
    out = []
    for ex in EXAMPLES:
        for n, line in ex.moves:
            out.append(pytest.param(ex, line, id=f"line{n}:{line.strip() or '(empty)'}"))
    return out


@pytest.mark.parametrize(("example", "line"), _cases())
def test_doc_example(example: Example, line: str) -> None:
    """Each example line: canonical text reads back as itself, a lenient text reads as the
    canonical one shown, a refused text raises IllegalMove with the words shown."""
    pos = example_position(example)
    if "!!" in line:
        text, words = (part.strip() for part in line.split("!!", 1))
        with pytest.raises(IllegalMove) as info:
            pos.parse_move(text)
        assert words in str(info.value), f"{text!r}: {info.value}"
        return
    if "=>" in line:
        text, canonical = (part.strip() for part in line.split("=>", 1))
    else:
        text = canonical = line.strip()
    move = pos.parse_move(text)
    assert str(move) == canonical
    assert pos.parse_move(canonical) == move
    assert pos.play(text) == pos.play(move)


def test_doc_examples_show_every_kind_of_move() -> None:
    """The document shows a trail, a capture of several groups and builds, new single and
    multiple builds, adding a group, raising, and raising with a loose group."""
    shown: set[str] = set()
    for ex in EXAMPLES:
        pos = example_position(ex)
        for _, line in ex.moves:
            if "!!" in line:
                continue
            m = pos.parse_move(line.split("=>")[-1].strip())
            shown.add(m.kind)
            if m.kind == "capture" and len(m.builds) >= 1 and len(m.groups) >= 2:
                shown.add("capture of groups and builds")
            if m.kind == "capture" and len(m.builds) >= 2:
                shown.add("capture of several builds")
            if m.kind == "build":
                shown.add("multiple build" if len(m.groups) > 1 else "single build")
            if m.kind == "raise" and m.loose:
                shown.add("raise with a loose group")
            if m.kind == "add" and len(m.groups) > 1:
                shown.add("add with a loose group")
    assert shown >= {
        "trail", "capture", "build", "add", "raise", "capture of groups and builds",
        "capture of several builds", "single build", "multiple build",
        "raise with a loose group", "add with a loose group",
    }


def test_doc_has_examples_of_refusals_and_ambiguity() -> None:
    lines = [line for ex in EXAMPLES for _, line in ex.moves]
    assert any("could mean several moves" in line for line in lines)
    assert sum("!!" in line for line in lines) >= 15


# ----------------------------------------------------------------------
# Round trip over random positions of every preset


def _positions(name: str, seed: int, rounds: int = 1) -> list[Position]:
    match = Match(name, seed=seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(rounds):
        while match.position.result is None:
            seen.append(match.position)
            match.play(rng.choice(match.legal_moves()))
        if match.is_over:
            break
        match.next_round()
    return seen


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_legal_move_text_reads_back_as_itself(name: str) -> None:
    """``pos.parse_move(str(m)) == m`` and distinct moves have distinct texts."""
    for seed in (1, 2):
        for pos in _positions(name, seed):
            moves = pos.legal_moves()
            texts = [str(m) for m in moves]
            assert len(set(texts)) == len(texts), f"two moves share a text in {pos!r}"
            for m, t in zip(moves, texts, strict=True):
                back = pos.parse_move(t)
                assert back == m, f"{t!r} read back as {back!r}"


@pytest.mark.parametrize("name", ["casino", "royal", "mulle"])
def test_building_positions_round_trip_with_builds_on_the_table(name: str) -> None:
    """Seek positions with builds (random play rarely keeps many) by preferring build
    moves, and check every move's text there."""
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        match = Match(name, seed=seed)
        while match.position.result is None:
            pos = match.position
            moves = pos.legal_moves()
            if pos.builds:
                for m in moves:
                    assert pos.parse_move(str(m)) == m
                checked += 1
            onto = [m for m in moves if m.kind in ("build", "add", "raise")]
            match.play(rng.choice(onto if onto and rng.random() < 0.7 else moves))
    assert checked > 10


# ----------------------------------------------------------------------
# Lenient reading


def _pos(hand: str, table: str) -> Position:
    return example_position(Example(0, hand, table))


@pytest.mark.parametrize("text", [
    "Td x Tc", "10d x 10c", "TD X TC", "td x tc", "10♦ x 10♣", "10♦️ x 10♣️", "t♦ takes T♣",
    "  Td   x   Tc  ",
])
def test_lenient_card_forms(text: str) -> None:
    pos = _pos("Td 2c", "Tc 4h")
    assert str(pos.parse_move(text)) == "Td x Tc"


def test_parse_move_returns_the_legal_move_object() -> None:
    pos = _pos("9d 2c", "9c 5h 4c")
    m = pos.parse_move("9d x 9c 4c 5h")
    assert m in pos.legal_moves()


# ----------------------------------------------------------------------
# Reasons for illegal moves, in a player's words


def _refused(pos: Position, text: str) -> str:
    with pytest.raises(IllegalMove) as info:
        pos.parse_move(text)
    return str(info.value)


def test_illegal_spending_only_eight_while_owning_eight_build() -> None:
    pos = _pos("8c 4d", "8h [5d+3s]*")
    msg = _refused(pos, "8c x 8h")
    assert "you own the 8-build and would have no 8 left" in msg


def test_illegal_trail_while_owning_a_build() -> None:
    msg = _refused(_pos("8c 4d", "8h [5d+3s]*"), "4d")
    assert "you own the 8-build, so you may not trail" in msg


def test_illegal_card_not_in_hand() -> None:
    assert "you do not hold the 7♦" in _refused(_pos("8c 4d", "8h"), "7d x 7h")
    assert "you do not hold the 10♦" in _refused(_pos("8c 4d", "8h"), "10d")


def test_illegal_card_not_on_the_table() -> None:
    assert "the 8♠ is not on the table" in _refused(_pos("8c 4d", "8h"), "8c x 8s")


def test_illegal_building_without_holding_the_value() -> None:
    msg = _refused(_pos("5d 9c", "3s"), "5d+3s =8")
    assert "to build 8 you must keep a card of value 8" in msg


def test_illegal_move_object_played_gives_the_same_reason() -> None:
    """``play`` of an illegal Move explains itself like ``parse_move`` does."""
    owner = _pos("8c 8d 4d", "8h [5d+3s]*")
    legal = owner.parse_move("8c x 8h")  # legal here: the 8d is kept
    lone = _pos("8c 4d", "8h [5d+3s]*")
    with pytest.raises(IllegalMove, match="would have no 8 left"):
        lone.play(legal)


def test_malformed_text_is_a_malformed_move() -> None:
    pos = _pos("9d 2c", "9c")
    for text in ("", "9d x", "x 9c", "9z", "9d > ", "9d x 9c =9", "9d =8 =8", "9d =", "=",
                 "9d+9c =²"):
        with pytest.raises(MalformedMove):
            pos.parse_move(text)


def test_unclosed_bracket_is_reported_as_such() -> None:
    """``9d x [6d+3s`` lacks its ``]``; the message must not claim an empty ``[]``."""
    pos = _pos("9d 2c", "9c [6d+3s]")
    with pytest.raises(MalformedMove) as info:
        pos.parse_move("9d x [6d+3s")
    assert "empty []" not in str(info.value)


def test_non_text_is_refused_as_illegal() -> None:
    pos = _pos("9d 2c", "9c")
    for obj in (None, 9, b"9d", ["9d"]):
        with pytest.raises(IllegalMove):
            pos.parse_move(obj)  # type: ignore[arg-type]


def test_round_over_refuses_every_move() -> None:
    match = Match("casino", seed=3)
    rng = random.Random(3)
    while match.position.result is None:
        match.play(rng.choice(match.legal_moves()))
    with pytest.raises(IllegalMove, match="round is over"):
        match.position.parse_move("9d")
