"""Moves, scored items and game results in words, for people watching a game.

Front ends (the terminal game, its plain mode, the web game) show the same
sentences, so they are made here once: ``"Computer takes 9♣ and 5♥ + 4♣ with
the 9♦ (5 + 4 = 9)"``, ``"most spades"``, ``"You reached 21 first, with the
10♦"``. Nothing here sees more than the positions it is given.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from casino.engine.builds import Build
from casino.engine.cards import card_symbol, parse_card
from casino.engine.errors import CardError
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.position import Position
from casino.engine.rules import Rules
from casino.engine.scheme import Scheme, is_spade, scheme
from casino.engine.scoring import Item, Result, point_cards, team_piles
from casino.engine.wording import build_words, group_words, listing
from casino.i18n import _, current, ngettext, pgettext, pN_

#: The scored items' names by their key in the result (which stays English in records
#: and JSON), translated where shown (:func:`item_name`).
_ITEM_WORDS = {
    "cards": pN_("scoring item", "most cards"),
    "spades": pN_("scoring item", "spades"),
    "sweep": pN_("scoring item", "sweep"),
    "last": pN_("scoring item", "last capture"),
    "mulle": pN_("scoring item", "mulle"),
}


def item_name(key: str) -> str:
    """The name of the scored item ``key`` (``cards``: ``most cards``) in the language
    in force."""
    return pgettext("scoring item", _ITEM_WORDS[key])


def sum_values(rules: Rules, group: Sequence[int],
               targets: Sequence[int]) -> list[int] | None:
    """The values that make ``group`` add up to one of ``targets``, or None.

    An Ace may count its second sum value (Tablić's 11), so this tries each
    card's values; a card with no sum value (a classic face) never adds up.
    """
    table = rules.table
    choices = []
    for c in group:
        alt = table.sum_alt[c]
        choices.append((table.sum_value[c], alt) if alt else (table.sum_value[c],))
    for values in itertools.product(*choices):
        if 0 not in values and sum(values) in targets:
            return list(values)
    return None


def _sum_note(rules: Rules, group: Sequence[int], targets: Sequence[int]) -> str | None:
    """``4 + 5 = 9`` when a group of two or more cards sums to one of ``targets``."""
    if len(group) < 2:
        return None
    values = sum_values(rules, sorted(group, reverse=True), targets)
    if values is None:
        return None
    return " + ".join(str(v) for v in values) + f" = {sum(values)}"


#: The sentences of a move by kind, each in three forms: an option with no subject
#: (``take 9♣ with the 9♦``), the reader's own move (``You take``) and another's
#: (``Ann takes``); marked here, translated where a move is told (Finnish and Swedish
#: shape them so that a build's words keep their basic form).
_SENTENCES: dict[str, tuple[str, str, str]] = {
    TRAIL: (pN_("move", "trail the %(card)s"), pN_("move", "%(who)s trail the %(card)s"),
            pN_("move", "%(who)s trails the %(card)s")),
    CAPTURE: (pN_("move", "take %(items)s with the %(card)s"),
              pN_("move", "%(who)s take %(items)s with the %(card)s"),
              pN_("move", "%(who)s takes %(items)s with the %(card)s")),
    BUILD: (pN_("move", "make a build of %(value)s: %(groups)s"),
            pN_("move", "%(who)s make a build of %(value)s: %(groups)s"),
            pN_("move", "%(who)s makes a build of %(value)s: %(groups)s")),
    "multiple": (pN_("move", "make a multiple build of %(value)s: %(groups)s"),
                 pN_("move", "%(who)s make a multiple build of %(value)s: %(groups)s"),
                 pN_("move", "%(who)s makes a multiple build of %(value)s: %(groups)s")),
    RAISE: (pN_("move", "raise %(build)s to %(value)s with the %(card)s"),
            pN_("move", "%(who)s raise %(build)s to %(value)s with the %(card)s"),
            pN_("move", "%(who)s raises %(build)s to %(value)s with the %(card)s")),
    "raise-more": (
        pN_("move", "raise %(build)s to %(value)s with the %(card)s, taking in %(groups)s"),
        pN_("move", "%(who)s raise %(build)s to %(value)s with the %(card)s, taking in "
                    "%(groups)s"),
        pN_("move", "%(who)s raises %(build)s to %(value)s with the %(card)s, taking in "
                    "%(groups)s")),
    ADD: (pN_("move", "add %(groups)s to %(build)s"),
          pN_("move", "%(who)s add %(groups)s to %(build)s"),
          pN_("move", "%(who)s adds %(groups)s to %(build)s")),
}

#: The option labels of the terminal game's list (:func:`move_phrase`'s ``short``).
_SHORT: dict[str, str] = {
    TRAIL: pN_("option", "trail %(card)s"),
    CAPTURE: pN_("option", "capture %(items)s"),
    BUILD: pN_("option", "build %(value)s: %(groups)s"),
    "multiple": pN_("option", "multiple build %(value)s: %(groups)s"),
    RAISE: pN_("option", "raise %(build)s to %(value)s"),
    "raise-more": pN_("option", "raise %(build)s to %(value)s, with %(groups)s"),
    ADD: pN_("option", "add %(groups)s to %(build)s"),
}


def move_words(move: Move, rules: Rules, who: str, *, you: bool = False) -> str:
    """What ``who`` did, in a sentence without a final stop (``you``: "You take"), in the
    language in force."""
    return _predicate(move, rules, (who, you))


def move_phrase(move: Move, rules: Rules | None = None, *, short: bool = False) -> str:
    """The move as an option to choose, with no subject: ``take 9♣ with the 9♦``.

    ``short``: in a few words, as the terminal game's option list shows it
    (``capture 9♣ and 4♣+5♥``, ``build 8: 5♥+3♠``, ``raise the 5-build to 8``,
    ``trail 7♥``), short enough to compare several options at a glance; the log
    has the full sentences. Without ``rules`` a sentence leaves out its sums."""
    return _predicate(move, rules, None, "short" if short else "sentence")


def move_explanation(move: Move, rules: Rules,
                     whose: Callable[[Build], str] = lambda b: "the") -> str:
    """The move with the sums that make it legal, its card the subject, as the move
    helper explains a play at a real table: ``9♦ takes the 9♣, and 5♥ + 4♣ because
    5 + 4 = 9``. ``whose`` names a build's owner (``your``, ``seat 1's``)."""
    return _predicate(move, rules, None, "explain", whose)


def _because(rules: Rules, group: Sequence[int], targets: Sequence[int]) -> str:
    """``the 9♣``, ``5♥ + 4♣ because 5 + 4 = 9``: a group with the sum that makes it
    one of ``targets``."""
    group = sorted(group, reverse=True)
    cards = group_words(group)
    if len(group) == 1:
        return _("the %(card)s") % {"card": cards}
    values = sum_values(rules, group, targets)
    if values is None:
        return cards
    return _("%(cards)s because %(sum)s") % {
        "cards": cards, "sum": f"{' + '.join(map(str, values))} = {sum(values)}"}


def _explained(parts: Sequence[str]) -> str:
    """``a, b and c``; with a comma before ``and`` when a part explains a sum (its
    ``=``), so the ``and`` does not read as part of that sum's ``because``. Finnish and
    Swedish have no serial comma: there the comma before *ja*/*och* closes the clause
    of the part just before it, and only then."""
    if current() == "en":
        serial = any(" = " in p for p in parts)
    else:
        serial = len(parts) > 1 and " = " in parts[-2]
    return listing(parts, serial=serial)


def _kind_key(move: Move) -> str:
    """The key of the move's sentences: its kind, a multiple build, a raise taking in
    loose cards."""
    if move.kind == BUILD and len(move.groups) > 1:
        return "multiple"
    if move.kind == RAISE and len(move.groups) > 1:
        return "raise-more"
    return move.kind


def _predicate(move: Move, rules: Rules | None, subject: tuple[str, bool] | None,
               style: str = "sentence",
               whose: Callable[[Build], str] = lambda b: "the") -> str:
    """The one switch from a move to words, in three styles that name the same cards
    the same way: ``sentence``, a sentence (``Ann takes 9♣ with the 9♦``; without a
    ``subject``, who and whether it is the reader, an option: ``take 9♣ with the 9♦``);
    ``short``, an option label (``capture 9♣``); ``explain``, the helper's account
    with the card as subject and the sums that make the move legal (it needs
    ``rules``)."""
    if move.kind not in _SHORT:
        raise ValueError(f"unknown move kind {move.kind!r}")
    card = card_symbol(move.card)
    short = style == "short"
    groups = [group_words(g, "+" if short else " + ") for g in move.groups]
    if style == "explain":
        if rules is None:
            raise ValueError("the explaining style needs the rules")
        return _explain(move, rules, card, lambda b: build_words(b, whose(b)))

    def build(b: Build) -> str:
        return build_words(b, cards=not short, kind=not short)

    key = _kind_key(move)
    values: dict[str, object] = {"card": card, "value": move.value}
    if move.kind == CAPTURE:
        values["items"] = listing(groups + [build(b) for b in move.builds])
    elif move.kind in (RAISE, ADD):
        values["build"] = build(move.builds[0])
        values["groups"] = listing(groups[1:] if move.kind == RAISE else groups)
    else:
        values["groups"] = ", ".join(groups) if short else listing(groups)
    if short:
        return pgettext("option", _SHORT[key]) % values
    if subject is None:
        text = pgettext("move", _SENTENCES[key][0]) % values
    else:
        who, you = subject
        text = pgettext("move", _SENTENCES[key][1 if you else 2]) % {**values, "who": who}
    if move.kind == CAPTURE and rules is not None:
        notes = [n for g in move.groups
                 if (n := _sum_note(rules, g, rules.table.played[move.card])) is not None]
        text += f" ({'; '.join(notes)})" if notes else ""
    return text


def _explain(move: Move, rules: Rules, card: str, build: Callable[[Build], str]) -> str:
    """The ``explain`` style of :func:`_predicate`, kind by kind."""
    if move.kind == TRAIL:
        return _("trail the %(card)s (lay it on the table)") % {"card": card}
    if move.kind == CAPTURE:
        played = rules.table.played[move.card]
        parts = [_because(rules, g, played) for g in move.groups]
        parts += [build(b) for b in move.builds]
        return _("%(card)s takes %(parts)s") % {"card": card, "parts": _explained(parts)}
    value = (move.value,)
    own = next((g for g in move.groups if move.card in g), move.groups[0])
    others = [g for g in move.groups if g is not own]
    base = " + ".join(card_symbol(x) for x in own if x != move.card)
    note = ""
    vals = sum_values(rules, own, value)
    if vals is not None and len(own) > 1:
        note = f" ({' + '.join(map(str, vals))} = {move.value})"
    values: dict[str, object] = {"card": card, "value": move.value, "base": base,
                                 "note": note}
    if move.kind == BUILD:
        return _explain_build(move, rules, values, others)
    target = move.builds[0]
    values["build"] = build(target)
    if move.kind == RAISE:
        text = _("%(card)s raises %(build)s to %(value)s (%(old)s + %(rise)s = %(value)s)") % {
            **values, "old": target.value, "rise": move.value - target.value}
        if move.groups[1:]:
            text = _("%(text)s, taking in %(others)s") % {"text": text, "others": _explained(
                [_because(rules, g, value) for g in move.groups[1:]])}
        return text
    text = (_("%(card)s with %(base)s joins %(build)s as another group of %(value)s%(note)s")
            if base else _("%(card)s joins %(build)s as another group of %(value)s%(note)s")
            ) % values
    if others:
        text = _("%(text)s, with %(others)s") % {"text": text, "others": _explained(
            [_because(rules, g, value) for g in others])}
    return text


def _explain_build(move: Move, rules: Rules, values: dict[str, object],
                   others: Sequence[tuple[int, ...]]) -> str:
    """The ``explain`` style of a build made: the card on the loose cards it joins, the
    sum, and the other groups of the build's value."""
    value = (move.value,)
    multiple = len(move.groups) > 1
    if not values["base"]:
        on = _explained([_because(rules, g, value) for g in others])
        return (_("%(card)s on %(on)s makes a multiple build of %(value)s") if multiple
                else _("%(card)s on %(on)s makes a build of %(value)s")) % {**values, "on": on}
    text = (_("%(card)s on %(base)s makes a multiple build of %(value)s%(note)s") if multiple
            else _("%(card)s on %(base)s makes a build of %(value)s%(note)s")) % values
    if others:
        text = _("%(text)s with %(others)s") % {"text": text, "others": _explained(
            [_because(rules, g, value) for g in others])}
    return text


def play_words(before: Position, move: Move, after: Position, who: str, *,
               you: bool = False, names: Sequence[str] | None = None) -> str:
    """The sentence for a move as played, without a final stop: a sweep it scored is
    noted (as the penalty it is in Krypkasino), and with ``names`` (each seat as
    named mid-sentence: "you" for the reader) so are the leftovers the round's end
    gives away."""
    text = move_words(move, before.rules, who, you=you)
    if move.kind == CAPTURE and after.round == before.round:
        made = len(after.sweeps) - len(before.sweeps)
        if made > 0:
            text += f" — {sweep_words(before.rules, made)}"
    if names is not None:
        told = leftover_words(before, move, after, names)
        if told:
            text += f"; {told}"
    return text


#: The name a person gets by default at a table with computers (the terminal game, the
#: web game against the computer). A seat so named is told as the reader is: "You take",
#: "go to you", never "You takes" or "go to You".
YOU = "You"


def spoken_names(names: Sequence[str], reader: int | None = None) -> list[str]:
    """Each seat's name as said mid-sentence to the person at seat ``reader``: "you" for
    the reader and for a seat named :data:`YOU`, the name itself for the others
    (``reader`` None: told to nobody in particular, as a game's public log is)."""
    return ["you" if seat == reader or name == YOU else name
            for seat, name in enumerate(names)]


def told_play(before: Position, move: Move, after: Position, seat: int,
              names: Sequence[str], reader: int | None = None) -> str:
    """:func:`play_words` for the move ``seat`` played, told to the person at ``reader``:
    their own move (or one by a seat named :data:`YOU`) as "You take ...", the others'
    as "Ann takes ...", and every seat named mid-sentence as :func:`spoken_names` says.

    The terminal game, the web game's log and its replay all tell moves with this, so
    a move reads the same wherever it is shown to the same person."""
    spoken = spoken_names(names, reader)
    if seat == reader or names[seat] == YOU:
        return play_words(before, move, after, YOU, you=True, names=spoken)
    return play_words(before, move, after, names[seat], names=spoken)


def sweep_words(rules: Rules, made: int) -> str:
    """``a sweep``, ``a double sweep``, with its penalty where sweeps are penalties
    (the log's note of a sweep played, and the hints' reasons)."""
    kind = _("a double sweep") if made > 1 else _("a sweep")
    if scheme(rules).penalty:
        points = made * rules.sweep_points
        return ngettext("%(kind)s: %(n)s penalty point", "%(kind)s: %(n)s penalty points",
                        points) % {"kind": kind, "n": points}
    return kind


def leftover_words(before: Position, move: Move, after: Position,
                   names: Sequence[str]) -> str | None:
    """``the 2 cards left (6♥, 4♠) go to you, who captured last``, when ``move``
    ended the round and the cards left on the table (and any set aside) went to a
    pile; None otherwise. Found from the piles, so it says what the engine did."""
    if after.result is None or after.round != before.round:
        return None
    taken = Counter((move.card, *move.loose, *(c for b in move.builds for c in b.cards))
                    if move.kind == CAPTURE else ())
    for seat, (old, new) in enumerate(zip(before.piles, after.piles, strict=True)):
        gained = Counter(new) - Counter(old)
        if seat == before.to_move:
            gained -= taken
        if gained:
            cards = sorted(gained.elements(), reverse=True)
            return _leftover_sentence(cards, names[seat], after.last_capture is not None)
    return None


def _leftover_sentence(cards: Sequence[int], name: str, captured: bool) -> str:
    """:func:`leftover_words`' sentence: the ``cards`` left go to ``name`` (``you``: the
    reader, as :func:`spoken_names` says it), who captured last or (not ``captured``)
    dealt."""
    n = len(cards)
    values = {"n": n, "name": name, "cards": ", ".join(card_symbol(c) for c in cards)}
    if name == "you":
        text = (ngettext("the card left (%(cards)s) goes to you, who captured last",
                         "the %(n)s cards left (%(cards)s) go to you, who captured last", n)
                if captured else
                ngettext("the card left (%(cards)s) goes to you, the dealer, as nobody "
                         "captured", "the %(n)s cards left (%(cards)s) go to you, the "
                         "dealer, as nobody captured", n))
    else:
        text = (ngettext("the card left (%(cards)s) goes to %(name)s, who captured last",
                         "the %(n)s cards left (%(cards)s) go to %(name)s, who captured "
                         "last", n)
                if captured else
                ngettext("the card left (%(cards)s) goes to %(name)s, the dealer, as nobody "
                         "captured", "the %(n)s cards left (%(cards)s) go to %(name)s, the "
                         "dealer, as nobody captured", n))
    return text % values


def item_words(item: Item) -> str:
    """``most cards``, ``10♦``, ``A♠``, ``sweep``: what a scored item is, in the language
    in force (the item's key, ``item.item``, stays as recorded)."""
    if item.item in _ITEM_WORDS:
        return item_name(item.item)
    try:
        return card_symbol(parse_card(item.item))
    except CardError:
        return item.item


def result_lines(result: Result, rules: Rules, names: Sequence[str],
                 scores_before: Sequence[int],
                 end: Position | None = None) -> list[str]:
    """A round's items in counting order, one line each, with the running totals.

    With the round's ``end`` position, a majority nobody won (a tie) gets a line of
    its own where its item would be, so the summary never leaves it out silently. The
    items' column is as wide as its longest name (13 at least: *eniten kortteja* is
    longer than *most cards*)."""
    totals = {t: scores_before[t] for t in rules.teams}
    ties = dict(majority_ties(rules, end, names)) if end is not None else {}
    lines = []
    width = max([13, *(len(item_words(it)) for it in result.items),
                 *(len(item_name(kind)) for kind in ties)])

    def tie_line(kind: str) -> None:
        if kind in ties:
            tied = _("tied")
            lines.append(f"{item_name(kind):<{width}} {tied:>3}  {ties.pop(kind)}")

    for it in result.items:
        if it.item != "cards":
            tie_line("cards")
        if it.item not in ("cards", "spades"):
            tie_line("spades")
        totals[it.seat] += it.points
        running = ", ".join(f"{names[t]} {totals[t]}" for t in rules.teams)
        lines.append(f"{item_words(it):<{width}} {it.points:+d}  {names[it.seat]:<12} "
                     f"[{running}]")
    tie_line("cards")
    tie_line("spades")
    return lines


def majority_ties(rules: Rules, end: Position,
                  names: Sequence[str]) -> list[tuple[str, str]]:
    """``("cards", "26 each (You and Computer): nobody scores")`` for each majority
    the round's ``end`` left tied (most cards, most spades), in counting order."""
    result = end.result
    if result is None:
        return []
    scored = {i.item for i in result.items}
    piles = team_piles(rules, end.piles)
    # The majorities the scheme scores (a Finnish spade majority worth nothing, or
    # replaced by the spades-above-7 option, is not one).
    sch = scheme(rules)
    counted = []
    if sch.majority("cards") is not None:
        counted.append(("cards", {t: len(p) for t, p in piles.items()}))
    spades = sch.majority("spades")
    if spades is not None and spades.points and not rules.spades_above_7:
        counted.append(("spades", {t: sum(1 for c in p if is_spade(c))
                                   for t, p in piles.items()}))
    out = []
    for kind, counts in counted:
        if kind in scored:
            continue
        best = max(counts.values())
        leaders = [t for t, n in counts.items() if n == best]
        who = listing([names[t] for t in leaders])
        fate = (_("carried to the next round") if _carried(sch, kind)
                else _("nobody scores"))
        out.append((kind, _("%(n)s each (%(who)s): %(fate)s") % {"n": best, "who": who,
                                                                   "fate": fate}))
    return out


def _carried(sch: Scheme, kind: str) -> bool:
    """Does a tie for this majority carry to the next round (Finnish Kasino)?"""
    majority = sch.majority("cards" if kind == "cards" else "spades")
    return majority is not None and majority.ties != "lost"


def winner_words(result: Result, rules: Rules, names: Sequence[str],
                 scores_before: Sequence[int]) -> str:
    """Who won the game and by which rule, or how the game goes on."""
    winner = result.winner
    values: dict[str, object] = {"target": rules.target}
    if winner is not None:
        values.update(name=names[winner], score=result.scores[winner])
    if rules.win_rule == "counting-order":
        if winner is None:
            return _("Nobody has %(target)s yet: the game goes on.") % values
        totals = {t: scores_before[t] for t in rules.teams}
        for it in result.items:
            totals[it.seat] += it.points
            if it.seat == winner and totals[winner] >= rules.target:
                return _("%(name)s reached %(target)s first, with %(item)s (points count in "
                         "order: the first to %(target)s wins).") % {
                             **values, "item": item_words(it)}
    if rules.win_rule == "higher-total":
        if winner is None:
            return _("Nobody has won yet: the game ends when someone has %(target)s or more "
                     "with the higher total.") % values
        return _("%(name)s wins with %(score)s, the higher total at %(target)s or "
                 "more.") % values
    # Krypkasino: the lower total after the match's games.
    if winner is None:
        return _("No winner yet: after each pair of games the lower total wins (a tie plays "
                 "two more).")
    return _("%(name)s wins with the fewer penalty points, %(score)s.") % values


def tie_words(rules: Rules, end: Position, names: Sequence[str]) -> list[str]:
    """``Most cards tied, 26 each (Ann and Bob): nobody scores``, one per tied majority
    of the round that ``end`` finished."""
    return [_("%(item)s tied, %(text)s") % {"item": item_name(kind).capitalize(), "text": text}
            for kind, text in majority_ties(rules, end, names)]


@dataclass(frozen=True)
class Tally:
    """What a player has captured so far, as everyone at the table can see it."""

    cards: int
    spades: int
    sweeps: int
    #: The ruleset's point cards in the pile (:func:`casino.engine.scoring.point_cards`).
    point_cards: tuple[int, ...]
    #: What those cards are called: ``point cards``, or ``penalty cards`` in Krypkasino
    #: (:func:`point_cards_label`, in the language in force when the tally was made).
    label: str = "point cards"

    def words(self) -> str:
        """``12 cards, 3 spades, 1 sweep; point cards A♠ 10♦``: the tally on one line of
        plain text, in the language in force."""
        shown = " ".join(card_symbol(c) for c in self.point_cards)
        sweeps = (", " + ngettext("%(n)s sweep", "%(n)s sweeps", self.sweeps)
                  % {"n": self.sweeps}) if self.sweeps else ""
        cards = ngettext("%(n)s card", "%(n)s cards", self.cards) % {"n": self.cards}
        spades = ngettext("%(n)s spade", "%(n)s spades", self.spades) % {"n": self.spades}
        return (f"{cards}, {spades}{sweeps}"
                + (f"; {self.label} {shown}" if shown else ""))


def point_cards_label(rules: Rules, n: int = 2) -> str:
    """What the cards that score on their own are called in ``rules`` (``n`` of them:
    ``point card`` for one), in the language in force."""
    if scheme(rules).penalty:
        return ngettext("penalty card", "penalty cards", n)
    return ngettext("point card", "point cards", n)


def tally(pos: Position, seat: int) -> Tally:
    """The captured cards of ``seat``: counts, spades, sweeps and the ruleset's point
    cards (each copy, with two decks), in counting order."""
    pile = Counter(pos.piles[seat])
    points = tuple(c for c in point_cards(pos.rules) for _ in range(pile[c]))
    return Tally(sum(pile.values()), sum(n for c, n in pile.items() if c & 3 == 0),
                 sum(1 for s in pos.sweeps if s == seat), points,
                 point_cards_label(pos.rules))
