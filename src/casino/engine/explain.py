"""Naming a legal move from text, and saying in words why a move is illegal.

Text names a move when exactly one legal move matches it. The moves text can
name are few (the card, the loose cards and the value are given; only a build
named by its value alone, or a value left out, leaves a choice), so each is
checked on its own by :mod:`casino.engine.legality`, and no move list is made: this
stays fast on any table. When none is legal, the reason is found by asking, in
the order a player thinks, which rule stands in the way: is the card in hand,
are the cards on the table, could the card take or build that at all (ignoring
ownership), and if so, which rule of ownership or compulsion forbids it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from casino.engine.builds import Build
from casino.engine.cards import card_symbol
from casino.engine.errors import IllegalMove
from casino.engine.legality import checker, moves_of, relaxed_checker
from casino.engine.moves import (
    ADD,
    BUILD,
    CAPTURE,
    RAISE,
    TRAIL,
    BuildRef,
    Move,
    MoveSpec,
    read_move,
)
from casino.engine.wording import listing, times

if TYPE_CHECKING:
    from casino.engine.position import Position

_ONTO = (BUILD, ADD, RAISE)


def _ref_matches(ref: BuildRef, b: Build) -> bool:
    if ref.owner is not None and ref.owner != b.owner:
        return False
    if ref.cards is not None:
        return ref.cards == b.cards
    return ref.value == b.value


def _builds_match(refs: Sequence[BuildRef], builds: Sequence[Build]) -> bool:
    if len(refs) != len(builds):
        return False
    if not refs:
        return True
    first, rest = refs[0], refs[1:]
    for i, b in enumerate(builds):
        if _ref_matches(first, b) and _builds_match(rest, [*builds[:i], *builds[i + 1:]]):
            return True
    return False


def matches(spec: MoveSpec, m: Move) -> bool:
    """Whether legal move ``m`` is one that ``spec`` may name."""
    if m.card != spec.card:
        return False
    if spec.kind == TRAIL:
        return m.kind == TRAIL
    if spec.kind == CAPTURE:
        return (m.kind == CAPTURE and m.loose == spec.loose
                and _builds_match(spec.builds, m.builds))
    if m.kind not in _ONTO or m.loose != spec.loose:
        return False
    if spec.value is not None and m.value != spec.value:
        return False
    if not spec.builds:
        return m.kind == BUILD
    return m.kind in (ADD, RAISE) and _builds_match(spec.builds, m.builds)


def named(pos: Position, spec: MoveSpec) -> list[Move]:
    """Every move (legal or not) that ``spec`` may name in ``pos``: at most a few."""
    card = spec.card
    if spec.kind == TRAIL:
        return [Move(TRAIL, card)]
    builds = _assignments(spec.builds, pos.builds)
    if spec.kind == CAPTURE:
        return [Move(CAPTURE, card, spec.loose, bs) for bs in builds]
    if not spec.builds:
        return [] if spec.value is None else [Move(BUILD, card, spec.loose, (), spec.value)]
    if len(spec.builds) != 1:
        return []  # a card is added to one build at a time
    sc = pos.rules.table.sum_value[card]
    out = []
    for (b,) in builds:
        for kind, value in ((ADD, b.value), (RAISE, b.value + sc)):
            if spec.value is None or spec.value == value:
                out.append(Move(kind, card, spec.loose, (b,), value))
    return out


def _assignments(refs: Sequence[BuildRef], builds: Sequence[Build]) -> list[tuple[Build, ...]]:
    """The distinct sets of table builds that ``refs`` may name, one build each."""
    out: dict[tuple[Build, ...], None] = {}

    def walk(i: int, left: list[Build], got: list[Build]) -> None:
        if len(out) >= 64:
            return  # more than 64 readings is ambiguous enough to say so
        if i == len(refs):
            out[tuple(sorted(got))] = None
            return
        for k, b in enumerate(left):
            if _ref_matches(refs[i], b):
                walk(i + 1, left[:k] + left[k + 1:], [*got, b])
    walk(0, list(builds), [])
    return list(out)


def resolve(pos: Position, text: str) -> Move:
    spec = read_move(text)
    if pos.result is not None:
        raise IllegalMove("the round is over: no move can be played")
    # Each named move is looked up in the listed moves when the position has listed
    # them (search code does), else checked on its own.
    candidates = list(dict.fromkeys(
        m for m in (pos._listed(n) for n in named(pos, spec)) if m is not None))
    if len(candidates) == 1:
        move = candidates[0]
        if not spec.groups or _as_shown(spec, move):
            return move
        return checker(pos).as_written(move, spec.groups) or move
    if len(candidates) > 1:
        shown = ", ".join(str(m) for m in candidates[:6])
        raise IllegalMove(f"{text!r} could mean several moves: {shown}; "
                          "say which (announce the value, name the build by its cards, "
                          "or by its owner as [7s+5h]@1)")
    raise IllegalMove(diagnose(pos, spec))


def _as_shown(spec: MoveSpec, move: Move) -> bool:
    """Whether the text's groups are those the move is shown with already."""
    def shape(groups: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        return sorted(tuple(sorted(g)) for g in groups)
    if move.kind == CAPTURE:
        return shape(spec.groups) == shape(move.groups)
    return (bool(move.groups) and spec.groups[:1] == move.groups[:1]
            and shape(spec.groups[1:]) == shape(move.groups[1:]))


def why_illegal(pos: Position, move: object) -> str:
    if not isinstance(move, Move):
        return f"{move!r} is not a move"
    spec = MoveSpec(
        kind=move.kind if move.kind in (TRAIL, CAPTURE) else "onto",
        card=move.card, loose=move.loose,
        builds=tuple(BuildRef(b.cards, None, b.owner) for b in move.builds),
        value=move.value if move.kind in _ONTO else None,
    )
    if pos.result is not None:
        return "the round is over: no move can be played"
    if move.kind == BUILD and move.builds:
        return "a new build takes no existing build: builds never merge"
    return diagnose(pos, spec)


def _value_word(v: int) -> str:
    return f"{v}-build"


def diagnose(pos: Position, spec: MoveSpec) -> str:
    """Why the move ``spec`` describes is not legal in ``pos``, in a player's words."""
    rules = pos.rules
    seat = pos.to_move
    hand = pos.hand(seat)
    name = card_symbol(spec.card)
    if spec.card not in hand:
        return f"you do not hold the {name}"
    table_loose = Counter(pos.loose)
    in_builds = {c for b in pos.builds for c in b.cards}
    for c, n in Counter(spec.loose).items():
        if table_loose[c] < n:
            if c in in_builds and table_loose[c] == 0:
                return (f"the {card_symbol(c)} is part of a build: a build is only ever "
                        "taken or changed whole")
            if table_loose[c]:
                return (f"the {card_symbol(c)} is named {times(n)} but lies on the table "
                        f"{times(table_loose[c])}")
            return f"the {card_symbol(c)} is not on the table"
    for ref in spec.builds:
        if not any(_ref_matches(ref, b) for b in pos.builds):
            what = (f"[{' '.join(card_symbol(c) for c in ref.cards)}]" if ref.cards
                    else f"of {ref.value}")
            if ref.owner is not None:
                what += f" owned by seat {ref.owner}"
            return f"there is no build {what} on the table"
    owned = [b for b in pos.builds if b.owner == seat]
    if spec.kind == TRAIL:
        if owned:
            return _no_trail_words(owned[0])
        return _compulsion(pos, spec) or f"you may not trail the {name} here"
    if spec.kind != CAPTURE and not rules.building:
        return f"there is no building in {rules.name}: capture or trail"
    if spec.kind == CAPTURE and spec.loose == () and not spec.builds:
        return f"say what the {name} takes"
    # Could the card do this at all, ignoring ownership and compulsion?
    loose_check = relaxed_checker(pos, _ONE_OF_EACH_RANK)
    structural = [m for m in (loose_check.find(n) for n in named(pos, spec)) if m is not None]
    if not structural:
        return _structural(pos, spec)
    move = structural[0]
    if move.kind == RAISE and move.builds[0].owner == seat and not rules.raise_own_build:
        return f"you may not raise your own build in {rules.name}"
    reason = _compulsion(pos, spec)
    if reason:
        return reason
    return _ownership(pos, move) or "that move is not legal here"


#: One card of each rank: with them every value counts as held (only for explaining).
_ONE_OF_EACH_RANK = tuple(r * 4 for r in range(13))


def _compulsion(pos: Position, spec: MoveSpec) -> str | None:
    rules = pos.rules
    if not rules.compulsory_capture:
        return None
    name = card_symbol(spec.card)
    sweepers = checker(pos).sweepers()
    if sweepers:
        if spec.card in sweepers:
            return f"the {name} can take the whole table, so it must (forced sweep)"
        return _sweep_words(sweepers)
    own = [m for m in moves_of(pos, spec.card).moves if m.kind == CAPTURE]
    if spec.kind == TRAIL and own:
        return (f"the {name} can capture, and captures are compulsory: only a card that "
                "can capture nothing may be trailed")
    if spec.kind == CAPTURE and own:
        shown = listing([str(m) for m in own[:3]], last="or")
        return (f"the capture must be maximal, leaving nothing the {name} could still "
                f"take: play {shown}")
    return None


def _sweep_words(sweepers: Sequence[int]) -> str:
    cards = listing([card_symbol(c) for c in sorted(set(sweepers))], last="or")
    return f"you must sweep the table with {cards} (forced sweep)"


def _no_trail_words(owned: Build) -> str:
    return f"you own the {_value_word(owned.value)}, so you may not trail: capture or build instead"


def forced_play(pos: Position) -> str | None:
    """What the rules force on the player to move, in words; None when the choice is free.

    Front ends show it before the player tries (the terminal game's header, the
    plain game's state), so nobody has to learn a compulsion from a refusal: a
    forced sweep names the cards that must take the table, a compulsory capture
    the cards that may only capture (or that every card must), a build the
    player owns forbids trailing. The sentences are those that explain a refused
    move (:func:`diagnose`), so the two never disagree. Bounded on any table: it
    asks :mod:`casino.engine.legality` what each card can do, and lists no moves.
    """
    if pos.result is not None:
        return None
    seat = pos.to_move
    hand = pos.hand(seat)
    if not hand:
        return None
    sweepers = checker(pos).sweepers()
    if sweepers:
        return _sweep_words(sweepers)
    if pos.rules.compulsory_capture:
        cards = sorted(set(hand))
        takers = [c for c in cards if pos.card_options(c).captures]
        if takers and len(takers) == len(cards):
            return "you must capture: captures are compulsory"
        if takers:
            names = [card_symbol(c) for c in takers]
            return f"captures are compulsory: the {listing(names)} must capture"
    owned = [b for b in pos.builds if b.owner == seat]
    if owned:
        return _no_trail_words(owned[0])
    return None


def _ownership(pos: Position, move: Move) -> str | None:
    """The ownership rule (docs/rules.md §2.5): keep a card of every build value you own."""
    rules = pos.rules
    seat = pos.to_move
    rest = list(pos.hand(seat))
    rest.remove(move.card)
    held = {v for c in rest for v in rules.table.played[c]}
    after: list[int] = []
    touched = set(move.builds)
    for b in pos.builds:
        if b.owner == seat and b not in touched:
            after.append(b.value)
    if move.kind in _ONTO:
        after.append(move.value)
    for v in after:
        if v not in held:
            if move.kind in _ONTO and v == move.value:
                return (f"to build {v} you must keep a card of value {v} in your hand, "
                        f"and after playing the {card_symbol(move.card)} you would have none")
            return f"you own the {_value_word(v)} and would have no {v} left to take it"
    return None


def _structural(pos: Position, spec: MoveSpec) -> str:
    rules = pos.rules
    table = rules.table
    name = card_symbol(spec.card)
    values = table.played[spec.card]
    vtext = " or ".join(str(v) for v in values) if values else "no number value"
    if spec.kind == CAPTURE:
        for ref in spec.builds:
            b = next(b for b in pos.builds if _ref_matches(ref, b))
            if b.value not in values:
                return (f"a build of {b.value} can only be taken by a card of value "
                        f"{b.value}, and the {name} is {vtext}")
        if not values:
            return (f"the {name} has no number value: it only takes "
                    f"{'one card' if table.face_one[spec.card] else 'cards'} of its rank")
        shown = " ".join(card_symbol(c) for c in spec.loose)
        return (f"the {name} ({vtext}) cannot take {shown}: each card it takes must pair "
                f"with it, or be in a group of two or more adding up to {vtext}")
    if not table.sum_value[spec.card]:
        return f"the {name} has no number value and cannot be built with"
    if spec.value is not None and not 2 <= spec.value <= table.max_build:
        return f"a build is worth 2 to {table.max_build}, not {spec.value}"
    if spec.builds:
        ref0 = spec.builds[0]
        b = next(b for b in pos.builds if _ref_matches(ref0, b))
        if b.multiple and spec.value != b.value:
            return (f"a multiple build can never be raised; to add to it, your card (with "
                    f"loose cards) must make another group of {b.value}")
        if spec.value is not None and spec.value != b.value:
            raised = b.value + table.sum_value[spec.card]
            if raised > table.max_build:
                return (f"raising the {_value_word(b.value)} with the {name} would make "
                        f"{raised}, more than {table.max_build}")
            if spec.value != raised:
                return (f"the {name} raises the {_value_word(b.value)} to {raised}, "
                        f"not {spec.value}")
        return (f"those cards cannot join the {_value_word(b.value)}: every group added "
                "must add up to the build's value")
    if not spec.loose:
        return (f"a build is your card on at least one loose table card; "
                f"the {name} alone is a trail")
    total = table.sum_value[spec.card] + sum(table.sum_value[c] for c in spec.loose)
    if spec.value is None:
        return "announce the value of the build, as '=8'"
    return (f"the cards add up to {total}, which does not split into groups of "
            f"{spec.value} with the {name}")
