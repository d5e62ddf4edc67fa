"""A score pad for people playing with a real deck: what the table counted, scored.

Players count a finished round at the table: how many cards each side took (or
just who had most), spades, who took each scoring card, the sweeps in the
order they were made, and so on. :class:`RoundEntry` holds exactly that, and
:class:`ScorePad` keeps a game of them: the items of each round in counting
order with the running totals, the totals, and the winner by the preset's rule.

**One copy of the scoring rules.** The pad never scores anything itself. It
turns each entry into *representative piles*: real cards consistent with the
entry (the named scoring cards to their takers, then spades to reach each
side's spade count, then other cards to reach each side's card count, and
where only "who had most" is known, counts chosen so that exactly those sides
lead). Everything the scoring code reads from a pile (its size, its spades,
which scoring cards it holds) is then what the table counted, so
:func:`casino.engine.scoring.round_items`, :func:`~casino.engine.scoring.settle` and
:func:`~casino.engine.scoring.next_carry` (Finnish Kasino's carried points) give
exactly the points the engine would give for the real piles. The property test
in ``tests/test_scorepad.py`` checks this on random finished rounds.

Sides: in a partnership game (four players, partners opposite) the partners'
cards are counted together, so counts and takers are given **per side**; a
side is named by its first seat (0 or 1), as in :class:`casino.engine.scoring.Item`.
Otherwise a side is a seat. Sweeps, mulles and the last capture are given by
the seat that made them.

Everything is immutable: each change returns a new pad, and a pad that would be
impossible is never made (:class:`ScorePadError` says why, the old pad stays).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from casino.engine.cards import (
    card_symbol,
    card_text,
    parse_card,
)
from casino.engine.codec import json_object
from casino.engine.errors import CardError, CasinoError, RulesError
from casino.engine.rules import Rules, player_counts, preset, rules_from_json
from casino.engine.scheme import Sweeps, is_spade, scheme
from casino.engine.scoring import (
    Carry,
    Item,
    Result,
    next_carry,
    point_cards,
    round_items,
    settle,
)
from casino.i18n import _, ngettext, pgettext, pN_

FORMAT = "casino-scorepad/1"
#: How many earlier states the pad keeps for undo (and writes to JSON).
MAX_HISTORY = 100
#: Longest player name accepted.
MAX_NAME = 40
MAX_JSON = 2_000_000



class ScorePadError(CasinoError):
    """An entry, a change or an import the pad refuses; the message says why.

    ``field`` names the entry field at fault (``cards``, ``takers``, ...) when
    there is one, so a form can show the reason beside it; ``round`` is the
    number (from 1) of the round at fault when a change makes another round
    impossible (a correction that puts the end of the game earlier, say).
    """

    def __init__(self, message: str, field: str | None = None,
                 round: int | None = None) -> None:
        self.field = field
        self.round = round
        super().__init__(message)


# ----------------------------------------------------------------------
# What a preset asks for


FieldKind = Literal["counts-or-most", "counts", "takers", "seats-in-order", "seat"]


@dataclass(frozen=True)
class Field:
    """One thing the table counts for a preset, for building a form.

    ``key`` is the :class:`RoundEntry` attribute (``cards`` also covers
    ``most_cards``; ``spades`` covers ``most_spades``). ``kind``:

    - ``counts-or-most``: a number per side, or the side(s) with the most (several
      sides: a tie);
    - ``counts``: a number per side;
    - ``takers``: for each card of ``cards`` (``copies`` of each), the side that took it;
    - ``seats-in-order``: seats, in the order things happened (may be empty);
    - ``seat``: one seat.

    ``total`` is what the counts of all sides add up to (every card is taken by the
    end of a round; only a round without a capture whose leftovers go to nobody, F3,
    has every count 0).
    """

    key: str
    label: str
    kind: FieldKind
    required: bool
    help: str
    cards: tuple[str, ...] = ()
    copies: int = 1
    total: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "label": self.label, "kind": self.kind,
                               "required": self.required, "help": self.help}
        if self.cards:
            out["cards"] = list(self.cards)
            out["copies"] = self.copies
        if self.total is not None:
            out["total"] = self.total
        return out


def scoring_cards(rules: Rules) -> tuple[int, ...]:
    """The cards whose takers score (each in ``rules.decks`` copies), in counting order:
    the ruleset's point cards (:func:`casino.engine.scoring.point_cards`)."""
    return point_cards(rules)


def _spade_mode(rules: Rules) -> Literal["counts-or-most", "counts", "other", "none"]:
    """How the pad asks about spades, from what the scoring scheme counts of them."""
    sch = scheme(rules)
    each = sch.each_spade()
    if each is not None:
        return "other" if each.besides else "counts"
    if sch.spades_above() is not None:
        return "counts"
    return "counts-or-most" if sch.majority("spades") is not None else "none"


def _cards_asked(rules: Rules) -> bool:
    return scheme(rules).majority("cards") is not None


def _other_spades(rules: Rules) -> int:
    """Krypkasino: spades that are not a named penalty card (2♠, A♠), in all decks."""
    each = scheme(rules).each_spade()
    return (13 - len(each.besides if each is not None else ())) * rules.decks


def _previous_loses(rules: Rules) -> bool:
    """Krypkasino: a sweep takes points off the player before the sweeper."""
    return any(isinstance(i, Sweeps) and i.previous_loses for i in scheme(rules).items)


def fields(rules: Rules) -> tuple[Field, ...]:
    """What the table counts in ``rules``, in the order players count it, its labels and
    help in the language in force (the keys and kinds are the pad's, in every language)."""
    out: list[Field] = []
    deck = rules.deck_size
    if _cards_asked(rules):
        out.append(Field(
            "cards", _("Cards captured"), "counts-or-most", True,
            (_("the number of cards each side captured (with the cards left on the table "
               "at the end), or just who had the most; several: a tie") if rules.partnerships
             else _("the number of cards each player captured (with the cards left on the "
                    "table at the end), or just who had the most; several: a tie")),
            total=deck))
    out.extend(_spade_fields(rules))
    named = tuple(card_symbol(c) for c in scoring_cards(rules))
    out.append(Field("takers", _("Scoring cards"), "takers", True,
                     _("who took each copy of each of these cards") if rules.decks > 1
                     else _("who took each of these cards"), cards=named,
                     copies=rules.decks))
    if rules.sweep_points:
        out.append(_sweeps_field(rules))
    if rules.mulle_points:
        out.append(Field("mulles", _("Mulles"), "seats-in-order", False,
                         _("who made each mulle (a card taken alone by its identical twin)")))
    if rules.last_capture_points:
        out.append(Field("last_capture", _("Last capture"), "seat", True,
                         _("who made the last capture of the round")))
    return tuple(out)


def _spade_fields(rules: Rules) -> list[Field]:
    """The spades' field of ``rules``, if its spades are counted (:func:`fields`)."""
    mode = _spade_mode(rules)
    spades = 13 * rules.decks
    if mode == "counts-or-most":
        return [Field("spades", _("Spades captured"), "counts-or-most", True,
                      (_("the spades each side captured, or just who had the most; several: "
                         "a tie") if rules.partnerships
                       else _("the spades each player captured, or just who had the most; "
                              "several: a tie")), total=spades)]
    if mode == "counts":
        why = (_("each spade scores") if scheme(rules).each_spade() is not None
               else _("each spade above 7 scores"))
        help_words = (_("the spades each side captured (%(why)s)") if rules.partnerships
                      else _("the spades each player captured (%(why)s)"))
        return [Field("spades", _("Spades captured"), "counts", True,
                      help_words % {"why": why}, total=spades)]
    if mode == "other":
        return [Field("other_spades", _("Other spades"), "counts", True,
                      _("the spades each player took other than 2♠ and A♠ (1 penalty point "
                        "each; J♠ Q♠ K♠ included)"), total=_other_spades(rules))]
    return []


def _sweeps_field(rules: Rules) -> Field:
    """The sweeps' field of ``rules`` (:func:`fields`): a Swedish *tabla* keeps its name."""
    label = _("Sweeps") if rules.sweep_word == "sweep" else rules.sweep_word.capitalize() + "s"
    extra = ""
    if _previous_loses(rules):
        extra = _("; a double sweep (10 on, 10 off) is the same seat twice in a row")
    elif rules.sweep_limit is not None or rules.no_sweep_last_deal:
        extra = (_("; none in the last deal, and none once anyone had more than %(limit)s "
                   "points at the round's start") % {"limit": rules.sweep_limit})
    return Field("sweeps", label, "seats-in-order", False,
                 _("who made each of the %(what)s, in the order they were made%(extra)s")
                 % {"what": label.lower(), "extra": extra})


def fields_json(rules: Rules) -> list[dict[str, Any]]:
    return [f.to_json() for f in fields(rules)]


# ----------------------------------------------------------------------
# One round as counted


Counts = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """What the table counted at the end of one round (indices are sides, see the module).

    ``cards`` / ``spades``: a count per side; or ``most_cards`` / ``most_spades``: the
    side(s) with the most (two or more: a tie). ``other_spades``: Krypkasino's spades
    other than 2♠ and A♠, per side. ``takers``: ``(card, side)`` for each copy of each
    scoring card. ``sweeps`` and ``mulles``: seats in the order they were made (a
    Krypkasino double sweep is its seat twice in a row, as the engine records it).
    ``last_capture``: a seat.
    """

    cards: Counts | None = None
    most_cards: tuple[int, ...] | None = None
    spades: Counts | None = None
    most_spades: tuple[int, ...] | None = None
    other_spades: Counts | None = None
    takers: tuple[tuple[int, int], ...] = ()
    sweeps: tuple[int, ...] = ()
    mulles: tuple[int, ...] = ()
    last_capture: int | None = None

    @staticmethod
    def make(*, cards: Sequence[int] | None = None, most_cards: int | Sequence[int] | None = None,
             spades: Sequence[int] | None = None,
             most_spades: int | Sequence[int] | None = None,
             other_spades: Sequence[int] | None = None,
             takers: Mapping[str, int | Sequence[int]] | None = None,
             sweeps: Sequence[int] = (), mulles: Sequence[int] = (),
             last_capture: int | None = None) -> RoundEntry:
        """An entry from friendly values: ``takers={"Td": 0, "As": 1}`` (two decks: a
        list of sides per card), ``most_cards=0`` or ``most_cards=[0, 1]`` for a tie."""
        pairs: list[tuple[int, int]] = []
        for text, sides in (takers or {}).items():
            try:
                c = parse_card(text)
            except CardError as exc:
                raise ScorePadError(str(exc), "takers") from None
            for side in ([sides] if isinstance(sides, int) else sides):
                pairs.append((c, side))
        return RoundEntry(
            cards=None if cards is None else tuple(cards),
            most_cards=_leaders(most_cards),
            spades=None if spades is None else tuple(spades),
            most_spades=_leaders(most_spades),
            other_spades=None if other_spades is None else tuple(other_spades),
            takers=tuple(sorted(pairs)),
            sweeps=tuple(sweeps), mulles=tuple(mulles), last_capture=last_capture,
        )

    def takers_of(self, c: int) -> list[int]:
        """The sides that took the copies of card ``c``."""
        return [side for cc, side in self.takers if cc == c]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("cards", "most_cards", "spades", "most_spades", "other_spades"):
            value = getattr(self, key)
            if value is not None:
                out[key] = list(value)
        takers: dict[str, list[int]] = {}
        for c, side in self.takers:
            takers.setdefault(card_text(c), []).append(side)
        out["takers"] = takers
        if self.sweeps:
            out["sweeps"] = list(self.sweeps)
        if self.mulles:
            out["mulles"] = list(self.mulles)
        if self.last_capture is not None:
            out["last_capture"] = self.last_capture
        return out

    @staticmethod
    def from_json(obj: Any, where: str = "entry") -> RoundEntry:
        """Read the JSON form (types only; :class:`ScorePad` checks it against the rules)."""
        if not isinstance(obj, dict):
            raise ScorePadError(_("%(where)s: a round is a JSON object, not %(type)s")
                                % {"where": where, "type": type(obj).__name__})
        known = {"cards", "most_cards", "spades", "most_spades", "other_spades", "takers",
                 "sweeps", "mulles", "last_capture"}
        for k in obj:
            if k not in known:
                raise ScorePadError(_("%(where)s: unknown key %(key)s (a round has "
                                      "%(keys)s)") % {"where": where, "key": repr(k),
                                                       "keys": ", ".join(sorted(known))})
        lists: dict[str, tuple[int, ...] | None] = {}
        for k in ("cards", "most_cards", "spades", "most_spades", "other_spades"):
            value = obj.get(k)
            lists[k] = None if value is None else _int_list(value, f"{where}.{k}", k)
        takers_obj = obj.get("takers", {})
        if not isinstance(takers_obj, dict):
            raise ScorePadError(_("%(where)s.takers: must be an object from card to the "
                                  "sides that took it, as %(example)s")
                                % {"where": where, "example": '{"Td": [0]}'}, "takers")
        pairs: list[tuple[int, int]] = []
        for text, sides in takers_obj.items():
            try:
                c = parse_card(text)
            except CardError as exc:
                raise ScorePadError(f"{where}.takers: {exc}", "takers") from None
            if isinstance(sides, int) and not isinstance(sides, bool):
                sides = [sides]
            pairs.extend((c, s) for s in _int_list(sides, f"{where}.takers.{text}", "takers"))
        last = obj.get("last_capture")
        if last is not None and (not isinstance(last, int) or isinstance(last, bool)):
            raise ScorePadError(_("%(where)s.last_capture: must be a seat number or null, "
                                  "not %(value)s") % {"where": where, "value": repr(last)},
                                "last_capture")
        return RoundEntry(
            cards=lists["cards"], most_cards=lists["most_cards"], spades=lists["spades"],
            most_spades=lists["most_spades"], other_spades=lists["other_spades"],
            takers=tuple(sorted(pairs)),
            sweeps=_int_list(obj.get("sweeps", []), f"{where}.sweeps", "sweeps"),
            mulles=_int_list(obj.get("mulles", []), f"{where}.mulles", "mulles"),
            last_capture=last,
        )


def _leaders(value: int | Sequence[int] | None) -> tuple[int, ...] | None:
    if value is None:
        return None
    if isinstance(value, int):
        return (value,)
    return tuple(value)


def _int_list(obj: Any, where: str, fld: str) -> tuple[int, ...]:
    if not isinstance(obj, list):
        raise ScorePadError(_("%(where)s: must be a list of whole numbers, not %(type)s")
                            % {"where": where, "type": type(obj).__name__}, fld)
    if len(obj) > 1000:
        raise ScorePadError(_("%(where)s: too long") % {"where": where}, fld)
    for v in obj:
        if not isinstance(v, int) or isinstance(v, bool):
            raise ScorePadError(_("%(where)s: %(value)s is not a whole number")
                                % {"where": where, "value": repr(v)}, fld)
    return tuple(obj)


# ----------------------------------------------------------------------
# Checking an entry and turning it into representative piles


class _Sides:
    """Names and numbers of the sides of a game."""

    def __init__(self, rules: Rules, names: Sequence[str]) -> None:
        self.rules = rules
        self.ids = rules.teams
        self.names = names

    def side_name(self, side: int) -> str:
        seats = [s for s in self.rules.seats if self.rules.team_of(s) == side]
        return " & ".join(self.names[s] for s in seats)

    def check_side(self, side: int, fld: str, what: str) -> None:
        if side not in self.ids:
            words = {"what": what, "n": side, "ids": ", ".join(str(i) for i in self.ids)}
            raise ScorePadError((_("%(what)s: there is no side %(n)s (the sides are %(ids)s)")
                                 if self.rules.partnerships else
                                 _("%(what)s: there is no player %(n)s (the players are "
                                   "%(ids)s)")) % words, fld)

    def check_seat(self, seat: int, fld: str, what: str) -> None:
        if not 0 <= seat < self.rules.players:
            raise ScorePadError(_("%(what)s: seat %(seat)s does not exist (seats are 0 to "
                                  "%(last)s)") % {"what": what, "seat": seat,
                                                  "last": self.rules.players - 1}, fld)


#: What a count or a list of leaders is of, as the refusals name it (``what`` below),
#: translated where a refusal is made (``pgettext("score check", what)``).
CHECKED = (pN_("score check", "the cards captured"), pN_("score check", "the spades captured"),
           pN_("score check", "the spades other than 2♠ and A♠"),
           pN_("score check", "most cards"), pN_("score check", "most spades"))


def _check_counts(sides: _Sides, counts: Counts, fld: str, what: str, total: int,
                  exact: bool) -> None:
    n = len(sides.ids)
    words: dict[str, object] = {"what": pgettext("score check", what), "n": n,
                                "given": len(counts), "total": total,
                                "rules": sides.rules.name}
    if len(counts) != n:
        raise ScorePadError((_("%(what)s: give one number for each of the %(n)s sides, not "
                               "%(given)s") if sides.rules.partnerships else
                             _("%(what)s: give one number for each of the %(n)s players, "
                               "not %(given)s")) % words, fld)
    for side, v in zip(sides.ids, counts, strict=True):
        words.update(name=sides.side_name(side), v=v)
        if v < 0:
            raise ScorePadError(_("%(what)s: %(name)s cannot have %(v)s") % words, fld)
        if v > total:
            raise ScorePadError(_("%(what)s: %(name)s cannot have %(v)s: there are only "
                                  "%(total)s in %(rules)s") % words, fld)
    got = words["got"] = sum(counts)
    if got > total:
        raise ScorePadError(_("%(what)s add up to %(got)s, more than the %(total)s there "
                              "are in %(rules)s") % words, fld)
    if exact and got < total:
        raise ScorePadError(_("%(what)s add up to %(got)s, but all %(total)s are taken by "
                              "the end of a round of %(rules)s: count again") % words, fld)


def _check_leaders(sides: _Sides, leaders: tuple[int, ...], fld: str, what: str) -> None:
    words = {"what": pgettext("score check", what)}
    if not leaders:
        raise ScorePadError(_("%(what)s: name who had the most (several for a tie)") % words,
                            fld)
    if len(set(leaders)) != len(leaders):
        raise ScorePadError(_("%(what)s: a side is named twice") % words, fld)
    for side in leaders:
        sides.check_side(side, fld, what)


def _realize(lows: list[int], highs: list[int], total: int, leaders: Iterable[int],
             exact: bool) -> list[int] | None:
    """Counts with ``lows[i] <= c[i] <= highs[i]`` adding up to ``total`` (at most, when
    not ``exact``) whose largest value is held by exactly ``leaders``; None if there are
    none. The leaders' count is the smallest that works."""
    lead = set(leaders)
    n = len(lows)
    for m in range(0, total + 1):
        if any(not lows[i] <= m <= highs[i] for i in lead):
            continue
        rest = [i for i in range(n) if i not in lead]
        caps = [min(highs[i], m - 1) for i in rest]
        if any(lows[i] > cap for i, cap in zip(rest, caps, strict=True)):
            continue
        base = m * len(lead) + sum(lows[i] for i in rest)
        room = sum(cap - lows[i] for i, cap in zip(rest, caps, strict=True))
        if base > total or (exact and base + room < total):
            continue
        counts = list(lows)
        for i in lead:
            counts[i] = m
        need = total - base if exact else 0
        for i, cap in zip(rest, caps, strict=True):
            add = min(need, cap - lows[i])
            counts[i] += add
            need -= add
        return counts
    return None


def _split_reason(leaders: tuple[int, ...], sides: _Sides, total: int, what: str,
                  extra: str) -> str:
    who = pgettext("list", " and ").join(sides.side_name(s) for s in leaders)
    words = {"who": who, "total": total, "extra": pgettext("score check", extra)}
    if what == "cards":
        return (_("%(who)s cannot tie for the most cards: the %(total)s cards do not split "
                  "that way %(extra)s") if len(leaders) > 1 else
                _("%(who)s cannot have had the most cards %(extra)s")) % words
    return (_("%(who)s cannot tie for the most spades: the %(total)s spades do not split "
              "that way %(extra)s") if len(leaders) > 1 else
            _("%(who)s cannot have had the most spades %(extra)s")) % words


def _due(key: str, answered: Collection[str] | None) -> bool:
    """Whether a missing ``key`` is an error now: always in a whole entry; in one being
    typed only once its field is answered, since the fields after it are not asked yet."""
    return answered is None or key in answered


def _every_card_taken(rules: Rules, entry: RoundEntry) -> bool:
    """Whether every card ended the round in a side's pile, so that the counts must add
    up to all the cards there are and each copy of each scoring card needs a taker (once
    due).

    Whoever made the last capture takes the leftovers (docs/rules.md §2.6). Only a round
    in which nobody captured is different: its leftovers go to the dealer by default,
    and to nobody with ``leftovers_no_capture="nobody"`` (F3), every pile then empty.
    So under that option too, an entry that shows a capture (a count above 0, a side
    with more cards or spades than another, a taker, a sweep, a mulle, a last capture)
    is checked as under the default, and only one that shows none is the round without
    a capture, whose piles are empty. Checked as a round with cards left over, an entry
    with captures could leave a scoring card's taker open, or count more of some kind of
    card than there are, and its piles would not score as the table counted: 26 and 26
    cards and 6 and 7 spades with no takers would make piles of 26 and 20 cards, which
    give Ann most cards and most spades."""
    if rules.leftovers_no_capture == "dealer":
        return True
    counted = any(any(v) for v in (entry.cards, entry.spades, entry.other_spades) if v)
    ahead = any(len(set(leaders)) < len(rules.teams)
                for leaders in (entry.most_cards, entry.most_spades) if leaders)
    made = bool(entry.takers or entry.sweeps or entry.mulles)
    return counted or ahead or made or entry.last_capture is not None


def _refuse_unscored_spades(rules: Rules, entry: RoundEntry) -> None:
    """Refuse spades given in a form ``rules`` does not score (any at all where spades
    score nothing or only Krypkasino's other spades do; who had most where each spade
    counts), saying what to give instead: a wrong form could not be turned into piles
    that score as the table counted."""
    spade_mode = _spade_mode(rules)
    if spade_mode in ("none", "other") and (entry.spades is not None
                                            or entry.most_spades is not None):
        words = {"rules": rules.name}
        if spade_mode == "other":
            message = (_("%(rules)s does not score spades: give each player's spades other "
                         "than 2♠ and A♠ instead") if entry.most_spades is None else
                       _("%(rules)s does not score most spades: give each player's spades "
                         "other than 2♠ and A♠ instead"))
        else:
            message = (_("%(rules)s does not score spades") if entry.most_spades is None
                       else _("%(rules)s does not score most spades"))
        raise ScorePadError(message % words, "spades")
    if spade_mode == "counts" and entry.most_spades is not None:
        raise ScorePadError(_("in %(rules)s every spade counts: give the spades each "
                              "player took, not just who had most") % {"rules": rules.name},
                            "spades")


def _refuse_unasked(rules: Rules, entry: RoundEntry, asked: Collection[str]) -> None:
    """Refuse other spades, sweeps, mulles, the last capture or most cards where
    ``rules`` does not score them (``asked``: the keys of :func:`fields`), rather
    than drop them silently: the table counted something that does not count."""
    words = {"rules": rules.name}
    for key, value, message in (
            ("other_spades", entry.other_spades, _("%(rules)s does not score other spades")),
            ("sweeps", entry.sweeps, _("%(rules)s does not score sweeps")),
            ("mulles", entry.mulles, _("%(rules)s does not score mulles")),
            ("last_capture", entry.last_capture,
             _("%(rules)s does not score the last capture"))):
        if value is not None and value != () and key not in asked:
            raise ScorePadError(message % words, key)
    if "cards" not in asked and entry.most_cards is not None:
        raise ScorePadError(_("%(rules)s does not score most cards") % words, "cards")


def _refuse_counts_and_most(entry: RoundEntry) -> None:
    """Refuse both the counts and who had most, of the cards or of the spades: the two
    answer one question, and could disagree."""
    if entry.cards is not None and entry.most_cards is not None:
        raise ScorePadError(_("give the cards each side took or who had the most, not "
                              "both"), "cards")
    if entry.spades is not None and entry.most_spades is not None:
        raise ScorePadError(_("give the spades each side took or who had the most, not "
                              "both"), "spades")


def _require_answers(rules: Rules, entry: RoundEntry, asked: Collection[str],
                     answered: Collection[str] | None) -> None:
    """Refuse an entry missing a count ``rules`` scores (the cards, the spades in the
    form the ruleset asks for, the last capture) once it is due (:func:`_due`):
    without it the round cannot be scored."""
    spade_mode = _spade_mode(rules)
    if ("cards" in asked and entry.cards is None and entry.most_cards is None
            and _due("cards", answered)):
        raise ScorePadError(_("enter the cards each side captured, or who had the most"),
                            "cards")
    if (spade_mode == "counts-or-most" and entry.spades is None
            and entry.most_spades is None and _due("spades", answered)):
        raise ScorePadError(_("enter the spades each side captured, or who had the most"),
                            "spades")
    if spade_mode == "counts" and entry.spades is None and _due("spades", answered):
        raise ScorePadError(_("enter the spades each side captured"), "spades")
    if (spade_mode == "other" and entry.other_spades is None
            and _due("other_spades", answered)):
        raise ScorePadError(_("enter each player's spades other than 2♠ and A♠"),
                            "other_spades")
    if ("last_capture" in asked and entry.last_capture is None
            and _due("last_capture", answered)):
        raise ScorePadError(_("enter who made the last capture"), "last_capture")


def _check_counts_entered(sides: _Sides, entry: RoundEntry, exact: bool) -> None:
    """Check each count and each list of who had most on its own (one number per side
    within what the decks hold, adding up to all of them where all are taken; leaders
    that exist, each once) before any two are compared, so that the reason given is
    the first thing wrong in the order the table counts."""
    rules = sides.rules
    if entry.cards is not None:
        _check_counts(sides, entry.cards, "cards", pN_("score check", "the cards captured"),
                      rules.deck_size, exact)
    if entry.most_cards is not None:
        _check_leaders(sides, entry.most_cards, "cards",
                       pN_("score check", "most cards"))
    if entry.spades is not None:
        _check_counts(sides, entry.spades, "spades",
                      pN_("score check", "the spades captured"),
                      13 * rules.decks, exact)
    if entry.most_spades is not None:
        _check_leaders(sides, entry.most_spades, "spades",
                       pN_("score check", "most spades"))
    if entry.other_spades is not None:
        _check_counts(sides, entry.other_spades, "other_spades",
                      pN_("score check", "the spades other than 2♠ and A♠"),
                      _other_spades(rules), exact)


def _check_spades_within_cards(sides: _Sides, entry: RoundEntry) -> None:
    """Refuse a side with more spades than cards: spades are among the cards it took."""
    if entry.cards is not None and entry.spades is not None:
        for side, c, s in zip(sides.ids, entry.cards, entry.spades, strict=True):
            if s > c:
                raise ScorePadError(ngettext(
                    "%(name)s cannot have %(s)s spades among %(c)s card",
                    "%(name)s cannot have %(s)s spades among %(c)s cards", c)
                    % {"name": sides.side_name(side), "s": s, "c": c}, "spades")


def _check_scoring_takers(sides: _Sides, entry: RoundEntry) -> None:
    """Refuse a taker given for a card that scores nothing by itself, or a taker that
    is not a side of the game: only the scoring cards' takers are asked, and each goes
    into its side's pile."""
    rules = sides.rules
    named = set(scoring_cards(rules))
    for c, side in entry.takers:
        if c not in named:
            shown = " ".join(card_symbol(x) for x in scoring_cards(rules))
            raise ScorePadError(_("the %(card)s scores nothing by itself in %(rules)s; the "
                                  "scoring cards are %(cards)s") % {
                                      "card": card_symbol(c), "rules": rules.name,
                                      "cards": shown}, "takers")
        sides.check_side(side, "takers", _("the %(card)s") % {"card": card_symbol(c)})


def _check_copies_taken(sides: _Sides, entry: RoundEntry, exact: bool,
                        answered: Collection[str] | None) -> None:
    """Refuse more takers of a scoring card than the decks hold copies of it, and, where
    every card is taken by the end of a round, fewer once the takers are due: each
    copy is in exactly one pile, and its points go to that side."""
    rules = sides.rules
    given = Counter(c for c, _ in entry.takers)
    for c in scoring_cards(rules):
        if given[c] > rules.decks:
            holder_sides = entry.takers_of(c)
            words = {"card": card_symbol(c), "n": given[c], "copies": rules.decks,
                     "name": sides.side_name(holder_sides[0]),
                     "names": pgettext("list", " and ").join(sides.side_name(s)
                                                            for s in holder_sides)}
            words["there"] = (_("there is only one") if rules.decks == 1
                              else _("there are only %(copies)s") % words)
            if len(set(holder_sides)) == 1:
                raise ScorePadError(_("the %(card)s is entered %(n)s times for %(name)s, "
                                      "but %(there)s") % words, "takers")
            raise ScorePadError((_("the %(card)s is given to both %(names)s, but %(there)s")
                                 if len(holder_sides) == 2 else
                                 _("the %(card)s is given to %(names)s, but %(there)s"))
                                % words, "takers")
        if exact and given[c] < rules.decks and _due("takers", answered):
            card = {"card": card_symbol(c)}
            raise ScorePadError((_("who took the %(card)s?") if rules.decks == 1 else
                                 _("who took the %(card)s (both copies)?") if given[c] == 0
                                 else _("who took the %(card)s (the other copy)?")) % card,
                                "takers")


def _check_seats(sides: _Sides, entry: RoundEntry) -> None:
    """Refuse a sweep, a mulle or a last capture by a seat that is not at the table:
    these are made by a player, not a side, and score to that player's side."""
    for key, seats, what in (("sweeps", entry.sweeps, _("a sweep")),
                             ("mulles", entry.mulles, _("a mulle"))):
        for seat in seats:
            sides.check_seat(seat, key, what)
    if entry.last_capture is not None:
        sides.check_seat(entry.last_capture, "last_capture", _("the last capture"))


def _check_sweep_limit(sides: _Sides, entry: RoundEntry,
                       scores_before: Sequence[int] | None) -> None:
    """Refuse sweeps in a round that began with someone past the sweep limit (Finnish
    Kasino: no sweeps then), naming the first such player; without the scores before
    the round (``None``) there is nothing to check against."""
    rules = sides.rules
    if (entry.sweeps and rules.sweep_limit is not None and scores_before is not None
            and any(s > rules.sweep_limit for s in scores_before)):
        over = next(s for s, v in enumerate(scores_before) if v > rules.sweep_limit)
        raise ScorePadError(_("no sweeps count this round: %(name)s had more than "
                              "%(limit)s points when it began") % {
                                  "name": sides.names[over], "limit": rules.sweep_limit},
                            "sweeps")


def _spades_in(pile: Iterable[int]) -> int:
    """How many spades ``pile`` holds: what a spade count is checked and topped up
    against."""
    return sum(1 for c in pile if is_spade(c))


def _scoring_card_piles(rules: Rules, entry: RoundEntry) -> list[list[int]]:
    """One pile per seat, each side's scoring cards in its first seat's pile: the cards
    the table named go to their takers before anything is chosen around them."""
    piles: list[list[int]] = [[] for _ in rules.seats]
    for c, side in entry.takers:
        piles[side].append(c)
    return piles


def _free_cards(rules: Rules) -> tuple[list[int], list[int]]:
    """The spades and the other cards (each sorted) that the counts are made up from:
    every copy of every card except the scoring cards, which score by themselves and
    so go only where a taker was entered."""
    named = set(scoring_cards(rules))
    free = [c for c in range(52) if c not in named for _ in range(rules.decks)]
    return [c for c in free if is_spade(c)], [c for c in free if not is_spade(c)]


def _check_named_spades_fit(sides: _Sides, spades: Counts,
                            piles: Sequence[Sequence[int]]) -> None:
    """Refuse a side's spade count below the spades among its scoring cards (2♠, A♠):
    those are spades it took, so it cannot have fewer."""
    for side, want in zip(sides.ids, spades, strict=True):
        have = _spades_in(piles[side])
        if have > want:
            took = " ".join(card_symbol(c) for c in piles[side] if is_spade(c))
            raise ScorePadError(ngettext("%(name)s took %(took)s, so at least %(have)s "
                                         "spade, not %(want)s",
                                         "%(name)s took %(took)s, so at least %(have)s "
                                         "spades, not %(want)s", have)
                                % {"name": sides.side_name(side), "took": took,
                                   "have": have, "want": want}, "spades")


def _spade_counts_for_most(sides: _Sides, most_spades: tuple[int, ...],
                           cards: Counts | None, piles: Sequence[Sequence[int]],
                           exact: bool) -> list[int]:
    """Spade counts in which exactly the sides said to have most spades lead: each at
    least the spades among its scoring cards, and at most its ``cards`` (when entered)
    less its other scoring cards. Who had most is all the table said, and any such
    counts score alike."""
    n_spades = 13 * sides.rules.decks
    lows = [_spades_in(piles[s]) for s in sides.ids]
    highs = ([c - sum(1 for x in piles[s] if not is_spade(x))
              for s, c in zip(sides.ids, cards, strict=True)]
             if cards is not None else [sides.rules.deck_size] * len(sides.ids))
    got = _realize(lows, highs, n_spades, most_spades, exact)
    if got is None:
        raise ScorePadError(_split_reason(most_spades, sides, n_spades, "spades",
                                          pN_("score check", "with the other counts "
                                                             "entered")), "spades")
    return got


def _spade_counts(sides: _Sides, entry: RoundEntry, piles: Sequence[Sequence[int]],
                  exact: bool) -> list[int] | None:
    """How many spades each side's pile is to hold, from the form the spades were given
    in (Krypkasino's other spades, counts, or who had most); None where no spades are
    given, and the spades then go with the other cards."""
    if _spade_mode(sides.rules) == "other" and entry.other_spades is not None:
        return [_spades_in(piles[s]) + o for s, o in zip(sides.ids, entry.other_spades,
                                                          strict=True)]
    if entry.spades is not None:
        _check_named_spades_fit(sides, entry.spades, piles)
        return list(entry.spades)
    if entry.most_spades is not None:
        return _spade_counts_for_most(sides, entry.most_spades, entry.cards, piles,
                                      exact)
    return None


def _deal(sides: _Sides, piles: list[list[int]], needs: Sequence[int],
          pool: list[int]) -> list[int]:
    """Move the next ``needs[i]`` cards of ``pool`` to side ``i``'s pile, side by side,
    and return the cards left. Of these cards the scoring reads only how many a pile
    holds, and how many spades, so which go where does not matter; taking them in
    order gives the same piles for the same entry."""
    for side, need in zip(sides.ids, needs, strict=True):
        piles[side].extend(pool[:need])
        del pool[:need]
    return pool


def _deal_spades(sides: _Sides, piles: list[list[int]], spade_counts: Sequence[int] | None,
                 spades: list[int], others: list[int]) -> list[int]:
    """Top each pile up to its spade count from the free ``spades``, and return the pool
    the card counts are then made up from: the other cards, with any spades left after
    them so that a spade count stays as entered. With no spade counts every free card
    is alike, and the pool is all of them in order."""
    if spade_counts is None:
        return sorted(others + spades)
    needs = [want - _spades_in(piles[s]) for s, want in zip(sides.ids, spade_counts,
                                                            strict=True)]
    return others + _deal(sides, piles, needs, spades)  # no spades left, when all counted


def _deal_cards(sides: _Sides, piles: list[list[int]], counts: Counts,
                pool: list[int]) -> None:
    """Top each pile up to its side's card ``counts`` from ``pool`` (the cards left
    once the scoring cards and spades are placed): what a side captured besides them
    is only counted, never named."""
    _deal(sides, piles, [want - len(piles[s]) for s, want in zip(sides.ids, counts,
                                                                 strict=True)], pool)


def _card_counts_for_most(sides: _Sides, most_cards: tuple[int, ...],
                          piles: Sequence[Sequence[int]], exact: bool) -> Counts:
    """Card counts in which exactly the sides said to have most cards lead, each at least
    the cards its pile already holds: who had most is all the table said, and any such
    counts score alike."""
    deck = sides.rules.deck_size
    lows = [len(piles[s]) for s in sides.ids]
    got = _realize(lows, [deck] * len(sides.ids), deck, most_cards, exact)
    if got is None:
        raise ScorePadError(_split_reason(most_cards, sides, deck, "cards",
                                          pN_("score check", "with the scoring cards and "
                                                             "spades entered")),
                            "cards")
    return tuple(got)


def _check_piles_within_counts(sides: _Sides, counts: Counts,
                               piles: Sequence[Sequence[int]]) -> None:
    """Refuse a card count below the cards its side's pile already holds (its scoring
    cards and spades): those are among the cards it captured."""
    for side, want in zip(sides.ids, counts, strict=True):
        have = len(piles[side])
        if have > want:
            raise ScorePadError(ngettext(
                "%(name)s captured %(want)s card, but the scoring cards and spades entered "
                "for them make %(have)s",
                "%(name)s captured %(want)s cards, but the scoring cards and spades entered "
                "for them make %(have)s", want)
                % {"name": sides.side_name(side), "want": want, "have": have}, "cards")


def _check_cards_for_sweeps_and_mulles(sides: _Sides, entry: RoundEntry) -> None:
    """Refuse a side whose counted cards are too few for the sweeps and mulles its
    seats made: each takes at least two cards (a Krypkasino double sweep, recorded as
    two sweeps, takes two: one each)."""
    rules = sides.rules
    if entry.cards is not None:
        for what, seats in (("sweep", entry.sweeps), ("mulle", entry.mulles)):
            made = Counter(rules.team_of(s) for s in seats)
            for side, n in made.items():
                per = 1 if rules.double_sweep and what == "sweep" else 2
                if n * per > entry.cards[side]:
                    got = entry.cards[side]
                    made_words = (ngettext("%(n)s sweep", "%(n)s sweeps", n) if what == "sweep"
                                  else ngettext("%(n)s mulle", "%(n)s mulles", n)) % {"n": n}
                    raise ScorePadError(
                        _("%(name)s made %(made)s but captured only %(cards)s") % {
                            "name": sides.side_name(side), "made": made_words,
                            "cards": ngettext("%(n)s card", "%(n)s cards", got) % {"n": got}},
                        what + "s")


def representative_piles(rules: Rules, names: Sequence[str], entry: RoundEntry,
                         scores_before: Sequence[int] | None = None,
                         answered: Collection[str] | None = None) -> list[list[int]]:
    """Check ``entry`` against ``rules`` and return piles (one per seat; each side's cards
    in its first seat's pile) that the scoring code scores exactly as the table counted.

    Raises :class:`ScorePadError` naming the field and the reason when the entry is
    impossible or incomplete. ``scores_before`` (per seat) lets the Finnish sweep rule
    be checked: no sweeps once anyone had more than 10 at the round's start.

    ``answered``: the entry is being typed, and only these fields (:class:`Field` keys)
    are complete yet. A field not answered is not required, and the scoring cards may
    be given for some sides only; everything given is checked as usual, so that an
    impossible answer is refused as soon as it is typed (the piles are then only
    good for the check).
    """
    sides = _Sides(rules, names)
    exact = _every_card_taken(rules, entry)
    asked = frozenset(f.key for f in fields(rules))

    _refuse_unscored_spades(rules, entry)
    _refuse_unasked(rules, entry, asked)
    _refuse_counts_and_most(entry)
    _require_answers(rules, entry, asked, answered)

    _check_counts_entered(sides, entry, exact)
    _check_spades_within_cards(sides, entry)
    _check_scoring_takers(sides, entry)
    _check_copies_taken(sides, entry, exact, answered)
    _check_seats(sides, entry)
    _check_sweep_limit(sides, entry, scores_before)

    piles = _scoring_card_piles(rules, entry)
    spades, others = _free_cards(rules)
    spade_counts = _spade_counts(sides, entry, piles, exact)
    others = _deal_spades(sides, piles, spade_counts, spades, others)
    counts = entry.cards
    if counts is None and entry.most_cards is not None:
        counts = _card_counts_for_most(sides, entry.most_cards, piles, exact)
    if counts is not None:
        _check_piles_within_counts(sides, counts, piles)
        _deal_cards(sides, piles, counts, others)
    _check_cards_for_sweeps_and_mulles(sides, entry)
    return piles


# ----------------------------------------------------------------------
# The pad


@dataclass(frozen=True)
class Line:
    """One scored item with the totals (per seat) once it is added."""

    item: Item
    totals: tuple[int, ...]


@dataclass(frozen=True)
class RoundResult:
    """A round on the pad: its entry, items in counting order and what they make."""

    number: int
    entry: RoundEntry
    scores_before: tuple[int, ...]
    lines: tuple[Line, ...]
    result: Result
    carry_in: Carry
    carry_out: Carry

    @property
    def items(self) -> tuple[Item, ...]:
        return self.result.items

    @property
    def scores(self) -> tuple[int, ...]:
        return self.result.scores

    @property
    def winner(self) -> int | None:
        return self.result.winner


def _check_names(rules: Rules, names: Sequence[str]) -> tuple[str, ...]:
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise ScorePadError(_("names must be a list of the players' names"), "names")
    if len(names) != rules.players:
        raise ScorePadError(_("%(rules)s here has %(n)s players, so give %(n)s names, not "
                              "%(got)s") % {"rules": rules.name, "n": rules.players,
                                            "got": len(names)}, "names")
    out = []
    for n in names:
        if not isinstance(n, str) or not n.strip():
            raise ScorePadError(_("every player needs a name"), "names")
        n = " ".join(n.split())
        if len(n) > MAX_NAME:
            raise ScorePadError(_("the name %(name)s... is longer than %(n)s characters")
                                % {"name": repr(n[:MAX_NAME]), "n": MAX_NAME}, "names")
        out.append(n)
    if len({n.casefold() for n in out}) != len(out):
        raise ScorePadError(_("two players have the same name: tell them apart"), "names")
    return tuple(out)


@lru_cache(maxsize=4096)
def _score_round(rules: Rules, names: tuple[str, ...], entry: RoundEntry,
                 scores: tuple[int, ...], carry: Carry, number: int) -> RoundResult:
    """One round scored from what comes before it (cached: a pad's history shares most
    of its rounds, so undo states and imports cost little)."""
    try:
        piles = representative_piles(rules, names, entry, scores)
    except ScorePadError as exc:
        raise ScorePadError(_("round %(n)s: %(reason)s") % {"n": number, "reason": exc},
                            exc.field, number) from None
    items = round_items(rules, piles, entry.sweeps, entry.mulles, entry.last_capture, carry)
    result = settle(rules, items, scores, number)
    totals = list(scores)
    lines = []
    for it in items:
        for s in rules.seats:
            if rules.team_of(s) == it.seat:
                totals[s] += it.points
        lines.append(Line(it, tuple(totals)))
    new_carry = next_carry(rules, piles, carry)
    return RoundResult(number, entry, scores, tuple(lines), result, carry, new_carry)


def _normal(entry: RoundEntry) -> RoundEntry:
    """``entry`` with tuples everywhere (it may have been built with lists)."""
    if not isinstance(entry, RoundEntry):
        raise ScorePadError(f"a round must be a RoundEntry, not {type(entry).__name__}")

    def tup(v: Sequence[int] | None) -> tuple[int, ...] | None:
        return None if v is None else tuple(v)

    return RoundEntry(
        cards=tup(entry.cards), most_cards=tup(entry.most_cards), spades=tup(entry.spades),
        most_spades=tup(entry.most_spades), other_spades=tup(entry.other_spades),
        takers=tuple(sorted((c, s) for c, s in entry.takers)), sweeps=tuple(entry.sweeps),
        mulles=tuple(entry.mulles), last_capture=entry.last_capture)


def _compute(rules: Rules, names: tuple[str, ...],
             rounds: Sequence[RoundEntry]) -> tuple[RoundResult, ...]:
    scores = (0,) * rules.players
    carry = Carry()
    out: list[RoundResult] = []
    winner_round: int | None = None
    for i, entry in enumerate(rounds):
        number = i + 1
        if winner_round is not None:
            raise ScorePadError(
                _("the game was over after round %(over)s, so there can be no round "
                  "%(n)s: remove it or correct an earlier round")
                % {"over": winner_round, "n": number}, round=number)
        r = _score_round(rules, names, entry, scores, carry, number)
        out.append(r)
        scores = r.result.scores
        carry = r.carry_out
        if r.result.winner is not None:
            winner_round = number
    return tuple(out)


@dataclass(frozen=True)
class ScorePad:
    """A game's score sheet: ``ScorePad(preset("casino"), ["Ann", "Bob"])``.

    Every method that changes something returns a new pad and leaves this one as it
    was; an impossible change raises :class:`ScorePadError` saying why. ``history``
    holds earlier lists of rounds, for :meth:`undo`.
    """

    rules: Rules
    names: tuple[str, ...]
    rounds: tuple[RoundEntry, ...] = ()
    history: tuple[tuple[RoundEntry, ...], ...] = ()
    results: tuple[RoundResult, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise ScorePadError("rules must be a Rules value", "rules")
        object.__setattr__(self, "names", _check_names(self.rules, self.names))
        object.__setattr__(self, "rounds", tuple(_normal(e) for e in self.rounds))
        object.__setattr__(self, "history", tuple(tuple(_normal(e) for e in state)
                                                  for state in self.history)[-MAX_HISTORY:])
        object.__setattr__(self, "results", _compute(self.rules, self.names, self.rounds))

    @staticmethod
    def new(rules: Rules | str, names: Sequence[str], **options: Any) -> ScorePad:
        """A blank pad; ``rules`` may be a preset name (``players`` follows the names)."""
        if isinstance(rules, str):
            options.setdefault("players", len(names))
            try:
                rules = preset(rules, **options)
            except RulesError as exc:
                raise ScorePadError(str(exc), "rules") from None
        return ScorePad(rules, tuple(names))

    # --- views ---------------------------------------------------------------
    @property
    def sides(self) -> tuple[int, ...]:
        """The sides (first seat of each), in seat order."""
        return self.rules.teams

    def side_name(self, side: int) -> str:
        return _Sides(self.rules, self.names).side_name(side)

    @property
    def side_names(self) -> tuple[str, ...]:
        """The name of each seat's side, indexed by seat (for items, whose seat is a side)."""
        return tuple(self.side_name(self.rules.team_of(s)) for s in self.rules.seats)

    @property
    def totals(self) -> tuple[int, ...]:
        """The game totals per seat (partners share theirs)."""
        return self.results[-1].scores if self.results else (0,) * self.rules.players

    @property
    def winner(self) -> int | None:
        """The winning side (its first seat) once the game is decided."""
        return self.results[-1].winner if self.results else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def carry(self) -> Carry:
        """Finnish Kasino: points carried into the next round."""
        return self.results[-1].carry_out if self.results else Carry()

    @property
    def can_undo(self) -> bool:
        return bool(self.history)

    def fields(self) -> tuple[Field, ...]:
        return fields(self.rules)

    # --- changes -------------------------------------------------------------
    def _with_rounds(self, rounds: tuple[RoundEntry, ...]) -> ScorePad:
        return ScorePad(self.rules, self.names, rounds, (*self.history, self.rounds))

    def verify_round(self, entry: RoundEntry) -> None:
        """Raise :class:`ScorePadError` if ``entry`` cannot be the next round."""
        if self.is_over:
            raise ScorePadError(self._over())
        representative_piles(self.rules, self.names, entry, self.totals)

    def check_answers(self, entry: RoundEntry, answered: Collection[str],
                      index: int | None = None) -> None:
        """Raise :class:`ScorePadError` if the answers typed so far for the next round
        (``index``: for round ``index``, being corrected) cannot be right, whatever
        the fields not yet ``answered`` turn out to be (see
        :func:`representative_piles`). The pad at the terminal checks each answer as
        it is typed with this, instead of refusing the whole round at its end."""
        if index is None:
            if self.is_over:
                raise ScorePadError(self._over())
            before = self.totals
        else:
            before = self.results[self._index(index)].scores_before
        representative_piles(self.rules, self.names, _normal(entry), before, answered)

    def add_round(self, entry: RoundEntry) -> ScorePad:
        """The pad with ``entry`` as the next round."""
        self.verify_round(entry)
        return self._with_rounds((*self.rounds, entry))

    def _over(self) -> str:
        """Why no round can be added: the game is over, and who won it."""
        return _("the game is over: %(name)s won") % {"name": self.side_name(self.winner or 0)}

    def _index(self, index: int) -> int:
        if not isinstance(index, int) or not 0 <= index < len(self.rounds):
            n = len(self.rounds)
            words = {"n": n, "shown": index + 1 if isinstance(index, int) else index}
            raise ScorePadError((_("there is no round %(shown)s: the pad has no rounds yet")
                                 if not n else
                                 _("there is no round %(shown)s: the pad has rounds 1 to "
                                   "%(n)s")) % words)
        return index

    def replace_round(self, index: int, entry: RoundEntry) -> ScorePad:
        """The pad with round ``index`` (0-based) corrected; every later round is
        rescored from it (totals, Finnish carries, the winner)."""
        i = self._index(index)
        rounds = (*self.rounds[:i], entry, *self.rounds[i + 1:])
        return self._with_rounds(rounds)

    def remove_round(self, index: int) -> ScorePad:
        """The pad without round ``index`` (0-based); later rounds are rescored."""
        i = self._index(index)
        return self._with_rounds((*self.rounds[:i], *self.rounds[i + 1:]))

    def undo(self) -> ScorePad:
        """The pad as it was before the last change."""
        if not self.history:
            raise ScorePadError(_("there is nothing to undo"))
        return ScorePad(self.rules, self.names, self.history[-1], self.history[:-1])

    # --- JSON ----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "names": list(self.names),
            "rounds": [e.to_json() for e in self.rounds],
            "history": [[e.to_json() for e in state] for state in self.history],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @staticmethod
    def from_json(obj: Any) -> ScorePad:
        """Read a ``casino-scorepad/1`` pad (JSON text or the parsed object), checking
        everything: every round, and every earlier state kept for undo."""
        obj = json_object(obj, "a score pad", ScorePadError, MAX_JSON)
        known = {"format", "rules", "names", "rounds", "history"}
        for k in obj:
            if k not in known:
                raise ScorePadError(_("unknown key %(key)s in a score pad") % {"key": repr(k)})
        for k in ("format", "rules", "names", "rounds"):
            if k not in obj:
                raise ScorePadError(_("a score pad needs %(key)s") % {"key": repr(k)})
        if obj["format"] != FORMAT:
            raise ScorePadError(_("format must be %(format)s, not %(got)s")
                                % {"format": repr(FORMAT), "got": repr(obj["format"])})
        try:
            rules = rules_from_json(obj["rules"])
        except RulesError as exc:
            raise ScorePadError(f"rules: {exc}", "rules") from None
        names = obj["names"]
        if not isinstance(names, list):
            raise ScorePadError(_("names: must be a list of the players' names"), "names")

        def read_rounds(value: Any, where: str) -> tuple[RoundEntry, ...]:
            if not isinstance(value, list):
                raise ScorePadError(_("%(where)s: must be a list of rounds")
                                    % {"where": where})
            if len(value) > 1000:
                raise ScorePadError(_("%(where)s: too many rounds") % {"where": where})
            return tuple(RoundEntry.from_json(e, f"{where}[{i}]") for i, e in enumerate(value))

        rounds = read_rounds(obj["rounds"], "rounds")
        history_obj = obj.get("history", [])
        if not isinstance(history_obj, list):
            raise ScorePadError(_("history: must be a list of earlier lists of rounds"))
        history = tuple(read_rounds(h, f"history[{i}]")
                        for i, h in enumerate(history_obj[-MAX_HISTORY:]))
        checked_names = _check_names(rules, names)
        for i, state in enumerate(history):
            try:
                _compute(rules, checked_names, state)
            except ScorePadError as exc:
                raise ScorePadError(f"history[{i}]: {exc}", exc.field) from None
        return ScorePad(rules, checked_names, rounds, history)

    def view_json(self) -> dict[str, Any]:
        """Everything a page shows, ready to draw: sides, fields, every round's items
        with running totals, the totals and the winner in words."""
        from casino.words.narrate import item_words, winner_words

        side_names = self.side_names
        rounds = []
        for r in self.results:
            rounds.append({
                "number": r.number,
                "entry": r.entry.to_json(),
                "items": [{"item": ln.item.item, "words": item_words(ln.item),
                           "side": ln.item.seat, "name": side_names[ln.item.seat],
                           "points": ln.item.points,
                           "totals": [ln.totals[s] for s in self.sides]}
                          for ln in r.lines],
                "points": [sum(i.points for i in r.items if i.seat == s) for s in self.sides],
                "totals": [r.scores[s] for s in self.sides],
                "carry_in": {"cards": r.carry_in.cards, "spades": r.carry_in.spades},
                "winner": r.winner,
                "words": winner_words(r.result, self.rules, side_names, r.scores_before),
            })
        return {
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "title": _title(self.rules),
            "names": list(self.names),
            "sides": [{"side": s, "name": self.side_name(s)} for s in self.sides],
            "fields": fields_json(self.rules),
            "rounds": rounds,
            "totals": [self.totals[s] for s in self.sides],
            "winner": self.winner,
            "over": self.is_over,
            "carry": {"cards": self.carry.cards, "spades": self.carry.spades},
            "can_undo": self.can_undo,
        }


def _title(rules: Rules) -> str:
    from casino.engine.rules import describe

    return describe(rules)[0]


def setup_choices() -> list[dict[str, Any]]:
    """For a set-up form: every preset with its title, target, player counts, and the
    counts played in partnerships."""
    from casino.engine.rules import PRESET_NAMES

    out = []
    for name in PRESET_NAMES:
        counts = player_counts(name)
        rules = preset(name)
        out.append({
            "name": name, "title": _title(rules), "players": list(counts),
            "partnerships": [n for n in counts if preset(name, players=n).partnerships],
            "target": rules.target, "win_rule": rules.win_rule,
        })
    return out


def apply_json(pad_obj: Any, action: Any) -> dict[str, Any]:
    """The JSON API for pages: apply ``action`` to the pad ``pad_obj`` and return the new
    pad's JSON. Actions: ``{"op": "add", "round": ENTRY}``, ``{"op": "replace", "index":
    I, "round": ENTRY}``, ``{"op": "remove", "index": I}``, ``{"op": "undo"}``.
    Raises :class:`ScorePadError`; the pad given is not changed."""
    pad = ScorePad.from_json(pad_obj)
    return apply_action(pad, action).to_json()


def apply_action(pad: ScorePad, action: Any) -> ScorePad:
    """:func:`apply_json` on a pad value."""
    if not isinstance(action, dict) or "op" not in action:
        raise ScorePadError(_('an action is an object with "op": add, replace, remove or '
                              'undo'))
    op = action["op"]
    if op == "undo":
        return pad.undo()
    if op in ("replace", "remove"):
        index = action.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise ScorePadError(_('%(op)s needs "index", the number of the round from 0')
                                % {"op": op})
        if op == "remove":
            return pad.remove_round(index)
        return pad.replace_round(index, RoundEntry.from_json(action.get("round"), "round"))
    if op == "add":
        return pad.add_round(RoundEntry.from_json(action.get("round"), "round"))
    raise ScorePadError(_("unknown action %(op)s: add, replace, remove or undo")
                        % {"op": repr(op)})
