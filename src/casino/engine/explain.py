"""Naming a legal move from text, and saying in words why a move is illegal.

Text names a move when exactly one legal move matches it. The moves text can
name are few (the card, the loose cards and the value are given; only a build
named by its value alone, or a value left out, leaves a choice), so each is
checked on its own by :mod:`casino.engine.legality`, and no move list is made: this
stays fast on any table.

Why a move is illegal is not worked out here: the checker that decides legality
returns, with its verdict, the :class:`~casino.engine.legality.Refusal` of the rule
that forbids the move (:meth:`~casino.engine.legality._Checker.judge`), and this
module only puts it into words (:func:`refusal_words`). A move is therefore refused
exactly when a reason is given, and for that reason. What is left here is reading:
text may describe several moves (a value left out, a build named by its value), and
the reason given is that of the first described move whose cards fit together, or
else of the first one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from casino.engine import legality as lg
from casino.engine.builds import Build
from casino.engine.cards import card_name, card_symbol
from casino.engine.errors import IllegalMove
from casino.engine.legality import Refusal, checker, moves_of
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
from casino.i18n import _, ngettext, pgettext

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
    """The legal move that ``text`` names in ``pos``, shown with the groups the text gives;
    IllegalMove says why there is none, or which moves the text could mean."""
    spec = read_move(text)
    if pos.result is not None:
        raise IllegalMove(_round_over())
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
        raise IllegalMove(_("%(text)s could mean several moves: %(moves)s; say which "
                            "(announce the value, name the build by its cards, or by its "
                            "owner as [7s+5h]@1)") % {"text": repr(text), "moves": shown})
    raise IllegalMove(diagnose(pos, spec))


def _as_shown(spec: MoveSpec, move: Move) -> bool:
    """Whether the text's groups are those the move is shown with already."""
    def shape(groups: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        return sorted(tuple(sorted(g)) for g in groups)
    if move.kind == CAPTURE:
        return shape(spec.groups) == shape(move.groups)
    return (bool(move.groups) and spec.groups[:1] == move.groups[:1]
            and shape(spec.groups[1:]) == shape(move.groups[1:]))


def why_illegal(pos: Position, move: object) -> str | None:
    """Why ``move`` may not be played in ``pos``, in a player's words: the reason of the
    rule that refuses it; ``None`` when it is legal."""
    if not isinstance(move, Move):
        return f"{move!r} is not a move"
    if pos.result is not None:
        return _round_over()
    refused = checker(pos).refusal(move)
    return None if refused is None else refusal_words(pos, refused)


def _round_over() -> str:
    """The refusal of any move once the round is over, in the language in force."""
    return _("the round is over: no move can be played")


def _said(text: str, card: int | None = None, **values: object) -> str:
    """``text`` (a message already translated) with its values: ``card`` gives both
    ``%(card)s``, the card's symbol (``10♦``), which the English says, and
    ``%(name)s``, its name in the language in force (*ruutukymppi*, *ruter tia*), which
    the Finnish and Swedish sentences say, placed where the name keeps its basic form."""
    if card is not None:
        values = {"card": card_symbol(card), "name": card_name(card), **values}
    return text % values


def not_held_words(card: int) -> str:
    """Why ``card`` cannot be played by a seat that does not hold it: the one sentence
    for the refused move and for a selection (the web's) of a card not in the hand."""
    return _said(_("you do not hold the %(card)s"), card)


def _names(cards: Sequence[int], last: str = "and") -> dict[str, str]:
    """The values ``cards`` (their symbols listed) and ``names`` (their names listed) of a
    sentence naming several cards."""
    return {"cards": listing([card_symbol(c) for c in cards], last=last),
            "names": listing([card_name(c) for c in cards], last=last)}


def diagnose(pos: Position, spec: MoveSpec) -> str:
    """Why no move the text ``spec`` describes is legal in ``pos``, in a player's words.

    The cards named must be there (the checker's rule), and each build named must
    be one on the table (reading the text); then each move the text describes is
    judged by the checker, and the reason given is the refusal of the first whose
    cards fit together (:data:`~casino.engine.legality.FITTING`), else of the first."""
    check = checker(pos)
    refused = check.presence_refusal(spec.card, spec.loose, ())
    if refused is not None:
        return refusal_words(pos, refused)
    for ref in spec.builds:
        if not any(_ref_matches(ref, b) for b in pos.builds):
            return _no_build_words(ref.cards, ref.value, ref.owner)
    verdicts = [check.refusal(m) for m in _described(pos, spec)]
    refusals = [r for r in verdicts if r is not None]
    if not verdicts:
        return _("each build can be named only once, and there are not that many on "
                 "the table")
    if not refusals:
        return _("that move is not legal here")  # a described move is legal: resolve found it
    chosen = next((r for r in refusals if r.rule in lg.FITTING), refusals[0])
    return refusal_words(pos, chosen)


def _described(pos: Position, spec: MoveSpec) -> list[Move]:
    """The moves ``spec`` describes, legal or not: those it may name (:func:`named`), and
    what it says that names none: a build with no value announced, a raise to a value
    the card does not make, a card put onto two builds at once."""
    moves = named(pos, spec)
    if spec.kind not in ("onto", BUILD, ADD, RAISE):
        return moves
    card, value = spec.card, spec.value or 0
    if not spec.builds:
        return moves or [Move(BUILD, card, spec.loose, (), value)]
    assigned = _assignments(spec.builds, pos.builds)
    if len(spec.builds) != 1:
        return [Move(ADD, card, spec.loose, bs, value) for bs in assigned[:1]]
    sc = pos.rules.table.sum_value[card]
    for (b,) in assigned:
        if spec.value is not None and spec.value not in (b.value, b.value + sc):
            moves.append(Move(RAISE, card, spec.loose, (b,), spec.value))
    # Onto a multiple build with no value said, the raise comes first: its refusal
    # (never raised; to add, make another group of the value) answers both readings.
    return sorted(moves, key=lambda m: not (m.kind == RAISE and m.builds[0].multiple))


def _no_build_words(cards: tuple[int, ...] | None, value: int | None,
                    owner: int | None) -> str:
    values = {"cards": f"[{' '.join(card_symbol(c) for c in cards)}]" if cards else "",
              "value": value, "seat": owner}
    if cards:
        text = (_("there is no build %(cards)s on the table") if owner is None else
                _("there is no build %(cards)s owned by seat %(seat)s on the table"))
    else:
        text = (_("there is no build of %(value)s on the table") if owner is None else
                _("there is no build of %(value)s owned by seat %(seat)s on the table"))
    return text % values


def refusal_words(pos: Position, r: Refusal) -> str:
    """The sentence for the checker's refusal ``r`` of a move in ``pos``: one per rule,
    with the rule's data (the value not held, the cards that must sweep, ...)."""
    for words in _WORDS:
        said = words(pos, r)
        if said is not None:
            return said
    return _("that move is not legal here")


# The sentences of :func:`refusal_words`, a function for each family of rules so that
# each reads on its own; each says None for a rule not its own (or whose build is not
# given), and the next one is asked, in this order.


def _presence_words(pos: Position, r: Refusal) -> str | None:
    """The card or the table items the move names are not there to play."""
    rule = r.rule
    b = r.build
    if rule == lg.NOT_HELD:
        return not_held_words(r.card)
    if rule == lg.NOT_ON_TABLE:
        c = r.cards[0]
        if b is not None and not r.other:
            return _said(_("the %(card)s is part of a build: a build is only ever taken or "
                           "changed whole"), c)
        if r.other:
            return _said(_("the %(card)s is named %(named)s but lies on the table %(lies)s"),
                         c, named=times(r.value), lies=times(r.other))
        return _said(_("the %(card)s is not on the table"), c)
    if rule == lg.NO_SUCH_BUILD and b is not None:
        return _no_build_words(b.cards, b.value, b.owner)
    if rule == lg.MERGE:
        return _("a new build takes no existing build: builds never merge")
    if rule == lg.ONE_BUILD:
        return _("a card is added to one build at a time: builds never merge")
    return None


def _compulsion_words(pos: Position, r: Refusal) -> str | None:
    """What the rules force instead (no trail beside an owned build, a forced sweep, a
    compulsory or maximal capture), or a kind of play they do not have."""
    rule = r.rule
    b = r.build
    if rule == lg.OWNS_BUILD and b is not None:
        return _no_trail_words(b)
    if rule == lg.FORCED_SWEEP:
        if r.card in r.cards:
            return _said(_("the %(card)s can take the whole table, so it must (forced sweep)"),
                         r.card)
        return _sweep_words(r.cards)
    if rule == lg.MUST_CAPTURE:
        return _said(_("the %(card)s can capture, and captures are compulsory: only a card "
                       "that can capture nothing may be trailed"), r.card)
    if rule == lg.NOT_MAXIMAL:
        own = [str(m) for m in moves_of(pos, r.card).moves if m.kind == CAPTURE][:3]
        if own:
            return _said(_("the capture must be maximal, leaving nothing the %(card)s could "
                           "still take: play %(moves)s"), r.card,
                         moves=listing(own, last="or"))
        return _said(_("the capture must be maximal, leaving nothing the %(card)s could "
                       "still take"), r.card)
    if rule == lg.NO_BUILDING:
        return _("there is no building in %(rules)s: capture or trail") % {
            "rules": pos.rules.name}
    if rule == lg.CAPTURE_EMPTY:
        return _said(_("say what the %(card)s takes"), r.card)
    if rule == lg.CAPTURE_VALUE:
        return _("a capture announces no value")
    return None


def _taking_words(pos: Position, r: Refusal) -> str | None:
    """The card's values do not take or make what the move says: its played values
    against a build's value or the cards named, no number value, a build's range."""
    table = pos.rules.table
    rule = r.rule
    b = r.build
    values = table.played[r.card]
    vtext = (f" {pgettext('listing', 'or')} ".join(str(v) for v in values) if values
             else _("no number value"))
    if rule == lg.BUILD_VALUE and b is not None:
        if not values:
            return _said(_("a build of %(value)s can only be taken by a card of value "
                           "%(value)s, and the %(card)s is no number value"), r.card,
                         value=b.value)
        return _said(_("a build of %(value)s can only be taken by a card of value "
                       "%(value)s, and the %(card)s is %(values)s"), r.card,
                     value=b.value, values=vtext)
    if rule == lg.FACE_ONLY:
        return _said(_("the %(card)s has no number value: it only takes one card of its rank")
                     if table.face_one[r.card] else
                     _("the %(card)s has no number value: it only takes cards of its rank"),
                     r.card)
    if rule == lg.CANNOT_TAKE:
        return _said(_("the %(card)s (%(values)s) cannot take %(shown)s: each card it takes "
                       "must pair with it, or be in a group of two or more adding up to "
                       "%(values)s"), r.card, values=vtext,
                     shown=" ".join(card_symbol(c) for c in r.cards))
    if rule == lg.NO_NUMBER:
        return _said(_("the %(card)s has no number value and cannot be built with"), r.card)
    if rule == lg.BUILD_RANGE:
        return _("a build is worth 2 to %(max)s, not %(value)s") % {
            "max": table.max_build, "value": r.value}
    return None


def _build_words(pos: Position, r: Refusal) -> str | None:
    """A build made, raised or added to in a way the building rules forbid."""
    rule = r.rule
    b = r.build
    if b is not None:
        said = _onto_build_words(pos, r, b)
        if said is not None:
            return said
    if rule == lg.BUILD_ALONE:
        return _said(_("a build is your card on at least one loose table card; the %(card)s "
                       "alone is a trail"), r.card)
    if rule == lg.UNANNOUNCED:
        return _("announce the value of the build, as '=8'")
    if rule == lg.BUILD_SPLIT:
        return _said(_("the cards add up to %(other)s, which does not split into groups of "
                       "%(value)s with the %(card)s"), r.card, other=r.other, value=r.value)
    return None


def _onto_build_words(pos: Position, r: Refusal, b: Build) -> str | None:
    """A table build raised or added to in a way the building rules forbid."""
    rule = r.rule
    values = {"build": b.value, "value": r.value, "other": r.other,
              "max": pos.rules.table.max_build}
    if rule == lg.MULTIPLE_RAISE:
        return _("a multiple build can never be raised; to add to it, your card (with "
                 "loose cards) must make another group of %(build)s") % values
    if rule == lg.RAISE_HIGH:
        return _said(_("raising the %(build)s-build with the %(card)s would make %(value)s, "
                       "more than %(max)s"), r.card, **values)
    if rule == lg.RAISE_VALUE:
        return _said(_("the %(card)s raises the %(build)s-build to %(other)s, not %(value)s"),
                     r.card, **values)
    if rule == lg.ADD_VALUE:
        return _("a group added to the %(build)s-build keeps its value %(build)s, not "
                 "%(value)s") % values
    if rule == lg.ADD_GROUP:
        return _("those cards cannot join the %(build)s-build: every group added must add "
                 "up to the build's value") % values
    return None


def _ownership_words(pos: Position, r: Refusal) -> str | None:
    """What owning builds forbids (raising one's own, building without a card to take
    the build), and a trail the rules do not allow here."""
    rule = r.rule
    if rule == lg.RAISE_OWN:
        return _("you may not raise your own build in %(rules)s") % {"rules": pos.rules.name}
    if rule == lg.OWNERSHIP:
        if r.value == r.other:
            return _said(_("to build %(value)s you must keep a card of value %(value)s in "
                           "your hand, and after playing the %(card)s you would have none"),
                         r.card, value=r.value)
        return _("you own the %(value)s-build and would have no %(value)s left to take "
                 "it") % {"value": r.value}
    if rule == lg.TRAIL_SHAPE:
        return _said(_("you may not trail the %(card)s here"), r.card)
    return None


#: The families of :func:`refusal_words`, in the order they are asked.
_WORDS: tuple[Callable[[Position, Refusal], str | None], ...] = (
    _presence_words, _compulsion_words, _taking_words, _build_words, _ownership_words)


def _sweep_words(sweepers: Sequence[int]) -> str:
    """The forced sweep, with the cards that may make it."""
    return _("you must sweep the table with %(cards)s (forced sweep)") % _names(
        sorted(set(sweepers)), last="or")


def _no_trail_words(owned: Build) -> str:
    """No trail beside a build the player owns."""
    return _("you own the %(value)s-build, so you may not trail: capture or build "
             "instead") % {"value": owned.value}


def forced_play(pos: Position) -> str | None:
    """What the rules force on the player to move, in words; None when the choice is free.

    Front ends show it before the player tries (the terminal game's header, the
    plain game's state), so nobody has to learn a compulsion from a refusal. What
    the rules force is what stops each card from being trailed, so it is read from
    the checker's trail rule (:meth:`~casino.engine.legality._Checker.trail_refusal`)
    and worded as the refusals are: a forced sweep names the cards that must take the
    table, a compulsory capture the cards that may only capture (or that every card
    must), a build the player owns forbids trailing. Bounded on any table: it lists
    no moves.
    """
    if pos.result is not None:
        return None
    hand = pos.hand(pos.to_move)
    if not hand:
        return None
    check = checker(pos)
    cards = sorted(set(hand))
    refusals = [r for r in (check.trail_refusal(c) for c in cards) if r is not None]
    for r in refusals:
        if r.rule == lg.FORCED_SWEEP:
            return _sweep_words(r.cards)
    takers = [r.card for r in refusals if r.rule == lg.MUST_CAPTURE]
    if takers and len(takers) == len(cards):
        return _("you must capture: captures are compulsory")
    if takers:
        return ngettext("captures are compulsory: the %(cards)s must capture",
                        "captures are compulsory: the %(cards)s must capture",
                        len(takers)) % _names(takers)
    for r in refusals:
        if r.rule == lg.OWNS_BUILD and r.build is not None:
            return _no_trail_words(r.build)
    return None
