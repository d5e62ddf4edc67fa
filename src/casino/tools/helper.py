"""The move helper: a table and a hand from a real game in, the legal plays out.

A player at a real table describes what they see (the loose cards, the builds
with their value and owner, their own hand) and gets the legal plays for the
chosen ruleset, each explained in words ("9♦ takes the 9♣, and 5♥ + 4♣ because
5 + 4 = 9"), with the strongest computer player's pick marked.

The helper does not know the rules itself. It builds a legal
:class:`~casino.engine.position.Position` from the description, as an observation
of the player (seat 0, "you"): the other hands and the stock are hidden, as
counts. The engine offers the moves (:meth:`Position.candidate_moves`: every
legal move on a small table, a bounded selection on a crowded one) and a bot
that is given only that observation picks one. Unseen cards (not on the
table, in your hand, or among the captured cards given) are taken to be in the
other hands and the stock.

The list is ranked (the biggest captures first, the trail last; or, with a
``rank`` function, by the fair judgement of the hints, ``casino.teach.hint``, each
play with its reason) and capped at :data:`~casino.words.shortlist.MAX_SHOWN` plays,
the bot's pick always among them, with the count of the rest: a crowded Finnish
Kasino table has hundreds of thousands of legal plays, and the answer must stay
small and quick whatever the table. One card's plays (``card``), and those using
picked table items (``using``), reach the plays such a list leaves out.

Text form of a table (``casino helper --table``): cards and builds separated by
spaces; a build is its groups in brackets, then ``=VALUE`` and ``:OWNER``
(0 is you, 1 the next player, ...): ``9c 4c 5h [5d+3s]=8:1``, a multiple build
``[8h 5d+3s]=8:0``. The value may be left out when the cards say it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from casino.engine.builds import Build
from casino.engine.cards import card_symbol, card_text, parse_card
from casino.engine.errors import CardError, CasinoError, InvalidPosition, RulesError
from casino.engine.legality import MoveList, moves_with, ranked
from casino.engine.moves import CAPTURE, TRAIL, Move
from casino.engine.position import Position
from casino.engine.presets import DEFAULT
from casino.engine.rules import Rules, preset, rules_from_json
from casino.engine.wording import build_notation
from casino.i18n import _, ngettext, pgettext
from casino.words.narrate import move_explanation
from casino.words.shortlist import MAX_SHOWN, shortlist

#: The seat of the person using the helper.
YOU = 0


class HelperError(CasinoError):
    """A table, hand or set-up that cannot be; the message says why."""


@dataclass(frozen=True)
class TableBuild:
    """A build as described: its groups of cards, value (None: from the cards) and owner."""

    groups: tuple[tuple[int, ...], ...]
    owner: int
    value: int | None = None


TableItem = int | TableBuild


@dataclass(frozen=True)
class Setup:
    """What the player tells the helper.

    ``opponents``: the hand sizes of the other seats in play order (None: as many
    cards as your hand). ``stock``: cards left to deal (None: every unseen card not
    in a hand). ``captured``: the cards each seat has captured, where known; the
    nearest seat before you with captured cards is taken to have captured last.
    """

    rules: Rules
    table: tuple[TableItem, ...]
    hand: tuple[int, ...]
    opponents: tuple[int, ...] | None = None
    stock: int | None = None
    captured: tuple[tuple[int, ...], ...] | None = None
    scores: tuple[int, ...] | None = None
    #: Krypkasino: the picture cards set aside so far (seen, out of play).
    set_aside: tuple[int, ...] = ()


#: A judge of plays the front ends hand the helper (``casino.teach.hint.rank_plays``,
#: a layer the tools do not import): given the observation, the plays to judge (None:
#: its own bounded candidates) and a play that must be among them, the plays judged,
#: best first, each with its value (the expected round margin) and its reason.
Rank = Callable[[Position, Sequence[Move] | None, Move | None],
                Sequence[tuple[Move, float, str]]]


@dataclass(frozen=True)
class Option:
    """One legal play: the move, its canonical text, words, and the bot's mark; with
    a ``rank``, its ``value`` by the judge and its ``reason`` (None: not judged)."""

    move: Move
    text: str
    words: str
    best: bool = False
    value: float | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The play as the web helper and ``casino helper --json`` give it."""
        return {"move": self.text, "kind": self.move.kind, "card": card_text(self.move.card),
                "words": self.words, "best": self.best, "value": self.value,
                "reason": self.reason}


@dataclass(frozen=True)
class Analysis:
    """The position built from a set-up, the plays shown, and the bot's pick (if asked).

    ``options`` are ranked and capped (:func:`casino.words.shortlist.shortlist`): ``more``
    plays were found but not shown, and ``complete`` says whether the plays found
    are every legal play (on a crowded table they are a selection). ``judged``: the
    options were ranked by a judge (:data:`Rank`), best first, those judged first. ``card`` and
    ``using``: the options are those of that card, with those table items (indices
    into the table as described), when the asker chose them.
    """

    position: Position
    options: tuple[Option, ...]
    pick: Move | None
    level: str | None
    more: int = 0
    complete: bool = True
    card: int | None = None
    using: tuple[int, ...] = ()
    judged: bool = False

    @property
    def total(self) -> int | None:
        """How many legal plays the list stands for, when it knows (``complete``)."""
        return len(self.options) + self.more if self.complete else None

    def to_json(self) -> dict[str, Any]:
        """The analysis as the web helper and ``casino helper --json`` give it: the
        position, the plays shown, the pick, and what was left out."""
        return {
            "position": self.position.to_json(),
            "moves": [o.to_json() for o in self.options],
            "best": str(self.pick) if self.pick is not None else None,
            "level": self.level,
            "more": self.more,
            "complete": self.complete,
            "total": self.total,
            "card": card_text(self.card) if self.card is not None else None,
            "using": list(self.using),
            "judged": self.judged,
        }


# ----------------------------------------------------------------------
# Reading text


_TOKEN = re.compile(r"\[[^\]]*\](?:\s*[=:]\s*[^\s\[\]=:]+)*|\[[^\]]*$|[^\s\[]+")


def _cards(text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(parse_card(t) for t in text.replace(",", " ").replace("+", " ").split())
    except CardError as exc:
        raise HelperError(f"{what}: {exc}") from None


def parse_hand(text: str) -> tuple[int, ...]:
    """``"9d 2s"`` (spaces or commas; ``10d``, symbols accepted)."""
    return _cards(text, pgettext("helper field", "hand"))


def _owner(text: str, token: str) -> int:
    word = text.strip().lower()
    if word in ("me", "you", "mine"):
        return YOU
    if not word.isdigit():
        raise HelperError(_("%(build)s: the owner after ':' is a seat number (0 is you), "
                            "not %(text)r") % {"build": token, "text": text})
    return int(word)


def parse_table(text: str) -> tuple[TableItem, ...]:
    """Loose cards and builds: ``"9c 4c 5h [5d+3s]=8:1"`` (see the module)."""
    items: list[TableItem] = []
    for token in _TOKEN.findall(text):
        if not token.startswith("["):
            items.extend(_cards(token, pgettext("helper field", "table")))
            continue
        end = token.find("]")
        if end < 0:
            raise HelperError(_("table: %(build)r opens '[' but does not close it")
                              % {"build": token})
        inner, rest = token[1:end], token[end + 1:]
        where = _("table: build %(build)s") % {"build": token}
        groups = tuple(_cards(g, where) for g in inner.replace(",", " ").split())
        if not groups:
            raise HelperError(_("table: %(build)r is an empty build") % {"build": token})
        value: int | None = None
        owner: int | None = None
        for mark, part in re.findall(r"([=:])\s*([^\s=:]+)", rest):
            if mark == "=":
                if not part.isdigit():
                    raise HelperError(_("table: %(build)s: the value after '=' must be a "
                                        "number, not %(text)r") % {"build": token, "text": part})
                value = int(part)
            else:
                owner = _owner(part, token)
        if owner is None:
            raise HelperError(_("table: say who owns the build %(build)s: add ':0' if it is "
                                "yours, ':1' for the next player's") % {"build": token})
        items.append(TableBuild(groups, owner, value))
    return tuple(items)


def parse_using(table: Sequence[TableItem], text: str) -> tuple[int, ...]:
    """The table items that ``text``'s cards name, as indices into ``table``: a loose
    card names itself (each loose card once: two decks may lay two alike), a card in a
    build names the build (``"3c 5d"``: the 3♣ and the build holding the 5♦)."""
    out: list[int] = []
    for card in _cards(text, pgettext("helper field", "using")):
        loose = [i for i, item in enumerate(table) if item == card and i not in out]
        held = [i for i, item in enumerate(table)
                if isinstance(item, TableBuild) and any(card in g for g in item.groups)]
        if loose:
            out.append(loose[0])
        elif held:
            if held[0] not in out:
                out.append(held[0])
        elif any(item == card for item in table):
            raise HelperError(_("using: the %(card)s is named more often than it lies on "
                                "the table") % {"card": card_symbol(card)})
        else:
            raise HelperError(_("using: the %(card)s is not on the table")
                              % {"card": card_symbol(card)})
    return tuple(out)


def parse_captured(text: str, players: int) -> tuple[tuple[int, ...], ...]:
    """Captured cards per seat, seats separated by ``|``: ``"As Td | 2s"`` (you first)."""
    parts = text.split("|")
    if len(parts) > players:
        raise HelperError(ngettext("captured: %(piles)s piles given for %(players)s player",
                                   "captured: %(piles)s piles given for %(players)s players",
                                   players) % {"piles": len(parts), "players": players})
    piles = [_cards(p, _("captured (seat %(seat)s)") % {"seat": i})
             for i, p in enumerate(parts)]
    piles += [()] * (players - len(piles))
    return tuple(piles)


# ----------------------------------------------------------------------
# Building the position


def _build_value(rules: Rules, b: TableBuild, where: str) -> int:
    sums = rules.table.sum_value
    totals = []
    for g in b.groups:
        for c in g:
            if not sums[c]:
                raise HelperError(_("%(where)s: the %(card)s has no number value in "
                                    "%(rules)s and cannot be in a build")
                                  % {"where": where, "card": card_symbol(c), "rules": rules.name})
        totals.append(sum(sums[c] for c in g))
    value = b.value if b.value is not None else totals[0]
    for g, t in zip(b.groups, totals, strict=True):
        if t != value:
            shown = " + ".join(card_symbol(c) for c in g)
            nums = " + ".join(str(sums[c]) for c in g)
            raise HelperError(_("%(where)s: %(cards)s makes %(sum)s, not %(value)s: every "
                                "group of a build adds up to its value")
                              % {"where": where, "cards": shown, "sum": f"{nums} = {t}",
                                 "value": value})
    if sum(len(g) for g in b.groups) < 2:
        raise HelperError(_("%(where)s: a build has at least two cards (one card alone is a "
                            "loose card)") % {"where": where})
    if not 2 <= value <= rules.table.max_build:
        raise HelperError(_("%(where)s: a build is worth 2 to %(most)s, not %(value)s")
                          % {"where": where, "most": rules.table.max_build, "value": value})
    return value


class _Tally:
    """How often each card is given and where, to refuse a card given more often than
    the decks hold it, naming the places (in the order the setup gives them)."""

    def __init__(self) -> None:
        self.seen: Counter[int] = Counter()
        self.where: dict[int, list[str]] = {}

    def count(self, cards: Sequence[int], place: str) -> None:
        """Note ``cards`` as given ``place`` ("on the table", "in your hand", ...)."""
        for c in cards:
            self.seen[c] += 1
            self.where.setdefault(c, []).append(place)

    def check(self, rules: Rules) -> None:
        """Refuse a card given more often than ``rules``' decks hold it."""
        for c, k in self.seen.items():
            if k > rules.decks:
                places = ", ".join(dict.fromkeys(self.where[c]))
                raise HelperError(ngettext(
                    "the %(card)s is given %(times)s times (%(places)s), but %(rules)s is "
                    "played with one deck",
                    "the %(card)s is given %(times)s times (%(places)s), but %(rules)s is "
                    "played with %(decks)s decks", rules.decks)
                    % {"card": card_symbol(c), "times": k, "places": places,
                       "rules": rules.name, "decks": rules.decks})


def position(setup: Setup) -> Position:
    """The legal position (an observation of seat 0) that ``setup`` describes; raises
    :class:`HelperError` saying why when it cannot be."""
    rules = setup.rules
    n = rules.players
    biggest = _hand_limit(setup)
    captured = setup.captured or tuple(() for _ in range(n))
    if len(captured) != n:
        raise HelperError(_("captured: give one pile per seat (%(seats)s), not %(piles)s")
                          % {"seats": n, "piles": len(captured)})
    # Every card at most as often as the decks hold it.
    tally = _Tally()
    table_json, builds = _table(setup, tally)
    tally.count(setup.hand, _("in your hand"))
    for s, pile in enumerate(captured):
        tally.count(pile, pgettext("helper field", "captured") if s == YOU
                    else _("captured by seat %(seat)s") % {"seat": s})
    if setup.set_aside and not rules.set_aside_pictures:
        raise HelperError(_("set aside: %(rules)s sets no cards aside") % {"rules": rules.name})
    tally.count(setup.set_aside, pgettext("helper field", "set aside"))
    tally.check(rules)
    unseen = rules.deck_size - sum(tally.seen.values())
    opponents = _opponents(setup, biggest)
    stock = _stock(setup, unseen, opponents)
    _check_build_owners(rules, builds, opponents, tally.seen)
    scores = setup.scores if setup.scores is not None else (0,) * n
    if len(scores) != n:
        raise HelperError(_("scores: give one per seat (%(seats)s), not %(scores)s")
                          % {"seats": n, "scores": len(scores)})
    obj = {
        "format": "casino-position/1", "rules": rules.to_json(), "round": 1, "deal": 1,
        "dealer": (YOU - rules.direction) % n, "to_move": YOU,
        "hands": [[card_text(c) for c in setup.hand], *opponents],
        "table": table_json,
        "piles": [[card_text(c) for c in p] for p in captured],
        "sweeps": [], "last_capture": _last_capturer(rules, captured), "stock": stock,
        "scores": list(scores),
        "set_aside": [card_text(c) for c in setup.set_aside],
    }
    try:
        return Position.from_json(obj)
    except InvalidPosition as exc:
        raise HelperError(_position_words(str(exc))) from None


def _hand_limit(setup: Setup) -> int:
    """The most cards a hand holds in ``setup``'s rules, once your hand is refused if it
    is empty (you are the one to play) or holds more."""
    rules = setup.rules
    if not setup.hand:
        raise HelperError(_("hand: give the cards in your hand (you are the one to play)"))
    biggest = max(rules.first_hand, rules.deal_size)
    if len(setup.hand) > biggest:
        raise HelperError(_("hand: %(cards)s cards, but a hand in %(rules)s holds at most "
                            "%(most)s") % {"cards": len(setup.hand), "rules": rules.name,
                                           "most": biggest})
    return biggest


def _table(setup: Setup, tally: _Tally) -> tuple[list[Any], list[tuple[TableBuild, int]]]:
    """The table's JSON form and its builds with their values, each card counted in
    ``tally``; a build that cannot be (no builds in the rules, an owner who is no seat,
    groups that do not make its value) is refused, the first one met in table order."""
    rules = setup.rules
    n = rules.players
    table_json: list[Any] = []
    builds: list[tuple[TableBuild, int]] = []
    for item in setup.table:
        if isinstance(item, int):
            tally.count((item,), _("on the table"))
            table_json.append(card_text(item))
            continue
        label = _("table: build %(build)s") % {"build": build_notation(item.groups)}
        if not rules.building:
            raise HelperError(_("%(where)s: there are no builds in %(rules)s")
                              % {"where": label, "rules": rules.name})
        if not 0 <= item.owner < n:
            raise HelperError(_("%(where)s: owner %(owner)s is not a seat (0 is you, seats "
                                "go to %(last)s)") % {"where": label, "owner": item.owner,
                                                      "last": n - 1})
        value = _build_value(rules, item, label)
        tally.count([c for g in item.groups for c in g], _("in a build"))
        builds.append((item, value))
        table_json.append({"value": value, "owner": item.owner,
                           "groups": [[card_text(c) for c in g] for g in item.groups]})
    return table_json, builds


def _opponents(setup: Setup, biggest: int) -> tuple[int, ...]:
    """The other seats' hand sizes: as given, else as many as your hand (at most a full
    hand); each from 0 to ``biggest``."""
    n = setup.rules.players
    if setup.opponents is not None:
        opponents = tuple(setup.opponents)
        if len(opponents) != n - 1:
            raise HelperError(ngettext("opponents: give %(want)s hand size, not %(given)s",
                                       "opponents: give %(want)s hand sizes, not %(given)s",
                                       n - 1) % {"want": n - 1, "given": len(opponents)})
    else:
        opponents = (min(len(setup.hand), biggest),) * (n - 1)
    for k in opponents:
        if not 0 <= k <= biggest:
            raise HelperError(_("opponents: a hand holds 0 to %(most)s cards, not %(given)s")
                              % {"most": biggest, "given": k})
    return opponents


def _stock(setup: Setup, unseen: int, opponents: Sequence[int]) -> int:
    """The stock's size: as given, else the ``unseen`` cards not in the other hands;
    the unseen cards must be exactly the other hands and the stock."""
    stock = setup.stock if setup.stock is not None else unseen - sum(opponents)
    if stock < 0 or unseen != sum(opponents) + stock:
        if setup.stock is None or stock < 0:
            raise HelperError(_("only %(unseen)s cards are unseen, fewer than the "
                                "%(hands)s in the other hands")
                              % {"unseen": unseen, "hands": sum(opponents)})
        raise HelperError(
            _("%(unseen)s cards are unseen, but the other hands (%(hands)s) and the stock "
              "(%(stock)s) hold %(total)s: give the cards already captured, or leave out the "
              "stock size") % {"unseen": unseen, "hands": sum(opponents), "stock": stock,
                               "total": sum(opponents) + stock})
    return stock


def _check_build_owners(rules: Rules, builds: Sequence[tuple[TableBuild, int]],
                        opponents: Sequence[int], seen: Counter[int]) -> None:
    """Refuse a build another seat owns when that seat cannot hold a card of its value
    (docs/rules.md §2.5): its hand is empty, or every such card is already seen."""
    for b, value in builds:
        if b.owner == YOU:
            continue
        if opponents[b.owner - 1] == 0:
            raise HelperError(_("seat %(seat)s owns the build %(build)s of %(value)s, so they "
                                "hold a card of that value, but their hand is empty")
                              % {"seat": b.owner, "build": build_notation(b.groups),
                                 "value": value})
        visible = {c for c, k in seen.items() if k >= rules.decks}
        holders = [c for c in range(52) if value in rules.table.played[c] and c not in visible]
        if not holders:
            raise HelperError(_("seat %(seat)s owns the build %(build)s of %(value)s, so they "
                                "hold a card of value %(value)s, but every such card is "
                                "already seen") % {"seat": b.owner,
                                                   "build": build_notation(b.groups),
                                                   "value": value})


def _last_capturer(rules: Rules, captured: Sequence[Sequence[int]]) -> int | None:
    """Who captured last, as far as the piles tell: the nearest seat before you in turn
    order with captured cards (you last). It decides only where the round's leftovers go,
    and nobody has captured while every pile is empty."""
    n = rules.players
    for back in range(1, n + 1):
        seat = (YOU - back * rules.direction) % n
        if captured[seat]:
            return seat
    return None


def _position_words(message: str) -> str:
    """The codec's reason, with its JSON keys put in the helper's words."""
    message = re.sub(r"^hands\[0\]", "your hand", message)
    message = re.sub(r"^table\[(\d+)\]", lambda m: f"table item {int(m.group(1)) + 1}", message)
    message = message.replace("seat 0 owns", "you own").replace(" but holds no ",
                                                                " but hold no ")
    return message


# ----------------------------------------------------------------------
# Words


def _whose(b: Build) -> str:
    """Whose a build is, as the helper's seat 0 says it: ``your``, or ``seat``, which
    :func:`~casino.engine.wording.build_words` says as ``seat 1's``."""
    return "your" if b.owner == YOU else "seat"


def _keeps(rules: Rules, hand: Sequence[int], move: Move) -> str:
    rest = list(hand)
    rest.remove(move.card)
    keep = [c for c in dict.fromkeys(rest) if move.value in rules.table.played[c]]
    if not keep:
        return ""
    cards = _(" or the ").join(card_symbol(c) for c in keep)
    return _("; you keep the %(cards)s to take it") % {"cards": cards}


def move_words(move: Move, rules: Rules, hand: Sequence[int],
               table_size: int | None = None) -> str:
    """The play in words, with the sums that make it legal:
    ``9♦ takes the 9♣, and 5♥ + 4♣ because 5 + 4 = 9`` (the narration's
    :func:`~casino.words.narrate.move_explanation`), and what only the helper knows:
    that a capture clears the table, and which card in hand takes a build later."""
    text = move_explanation(move, rules, _whose)
    if move.kind == CAPTURE:
        taken = len(move.loose) + len(move.builds)
        if table_size is not None and taken == table_size:
            text += _(" (clearing the table)")
        return text
    if move.kind == TRAIL:
        return text
    return text + _keeps(rules, hand, move)


# ----------------------------------------------------------------------
# Analysis


def analyse(setup: Setup, level: str | None = "expert", seed: int = 0, *,
            card: int | None = None, using: Sequence[int] = (),
            limit: int = MAX_SHOWN, rank: Rank | None = None) -> Analysis:
    """The legal plays of the set-up in words, ranked and capped at ``limit``, with the
    ``level`` bot's pick marked and always shown (``None``: no bot). The bot is given
    only the observation.

    ``rank``: the plays are ranked by that judge instead, best first, each with its
    value and reason: the judge's own bounded candidates (with the bot's pick) for the
    whole hand, the plays the list would show for one card (those using exactly the
    picked items still first); any room left in the list is filled in the usual
    order, unjudged.

    ``card``: only that card's plays; ``using``: only those of ``card`` that use the
    table items at these indices of ``setup.table`` (those using exactly them first).
    The plays come from :meth:`Position.candidate_moves` and the like, never from
    every legal move, so the work and the answer are bounded on any table."""
    pos = position(setup)
    items = _picked(pos, setup, card, using)
    exact: list[Move] = []
    dropped = 0  # plays using exactly the items, beyond the limit
    found: MoveList
    if card is None:
        found = pos.candidate_moves()
    elif not using:
        found = pos.moves_of(card)
    else:  # the plays using exactly the picked items first, as the asker means them
        loose = [x for x in items if isinstance(x, int)]
        builds = [x for x in items if isinstance(x, Build)]
        sel = moves_with(pos, card, loose, builds)
        exact = ranked(sel.exact)[:limit]
        dropped = len(sel.exact) - len(exact)
        found = MoveList(sel.more, sel.complete)
    pick: Move | None = None
    if level is not None:
        from casino.bots.levels import make_level

        bot, bot_limit = make_level(level, seed=seed)
        pick = bot.choose(pos.observation(YOU), bot_limit)
    keep = pick if pick is not None and _fits(pick, card, items) else None
    if keep in exact:
        keep = None
    room = limit - len(exact)
    if room > 0:
        short = shortlist(found, keep, room)
        moves, more = (*exact, *short.moves), short.more + dropped
    else:
        moves, more = tuple(exact), len(found.moves) + dropped
    complete = found.complete
    judged: dict[Move, tuple[float, str]] = {}
    if rank is not None:
        ranked_plays = rank(pos.observe(YOU), None if card is None else moves, keep)
        judged = {m: (v, why) for m, v, why in ranked_plays}
        first = [m for m, _, _ in ranked_plays][:limit]
        if card is None:  # the judge's candidates, then the list's others while room is left
            rest = [m for m in moves if m not in judged][:max(0, limit - len(first))]
            moves = (*first, *rest)
            listed = set(found.moves)
            more = max(0, len(listed) - sum(1 for m in moves if m in listed))
        else:  # those using exactly the picked items stay first, each part judged
            exact_set = set(exact)
            place = {m: k for k, m in enumerate(first)}
            moves = tuple(sorted(moves, key=lambda m: (m not in exact_set,
                                                       place.get(m, len(place)))))
    table_size = len(pos.table)
    options = tuple(
        Option(m, str(m), move_words(m, pos.rules, setup.hand, table_size), m == pick,
               *judged.get(m, (None, None)))
        for m in moves)
    return Analysis(pos, options, pick, level, more, complete, card, tuple(using),
                    judged=rank is not None)


def _picked(pos: Position, setup: Setup, card: int | None,
            using: Sequence[int]) -> list[int | Build]:
    """The table items at ``using`` (indices into the table as described), once the
    choice is checked: a card of the hand, items only with a card, each item once."""
    if using and card is None:
        raise HelperError(_("using: choose the card of your hand that plays with these "
                            "table items"))
    if card is not None and card not in setup.hand:
        raise HelperError(_("card: the %(card)s is not in your hand")
                          % {"card": card_symbol(card)})
    if len(set(using)) != len(using):
        raise HelperError(_("using: each table item once"))
    items: list[int | Build] = []
    for i in using:
        if not 0 <= i < len(pos.table):
            raise HelperError(_("using: the table has items 0 to %(last)s, not %(given)s")
                              % {"last": len(pos.table) - 1, "given": i} if pos.table
                              else _("using: the table is empty"))
        items.append(pos.table[i])
    return items


def _uses(move: Move) -> Counter[int | Build]:
    return Counter([*move.loose, *move.builds])


def _fits(move: Move, card: int | None, items: Sequence[int | Build]) -> bool:
    """Whether ``move`` belongs in a list of ``card``'s plays with ``items``."""
    if card is not None and move.card != card:
        return False
    return not (Counter(items) - _uses(move))


def setup_from_text(rules: Rules | str, table: str, hand: str, *,
                    opponents: Sequence[int] | None = None, stock: int | None = None,
                    captured: str | None = None, players: int | None = None) -> Setup:
    """A :class:`Setup` from the command line's text forms."""
    if isinstance(rules, str):
        try:
            rules = preset(rules, **({"players": players} if players else {}))
        except RulesError as exc:
            raise HelperError(str(exc)) from None
    return Setup(
        rules=rules, table=parse_table(table), hand=parse_hand(hand),
        opponents=tuple(opponents) if opponents is not None else None, stock=stock,
        captured=parse_captured(captured, rules.players) if captured else None,
    )


def _card_list(obj: Any, key: str) -> tuple[int, ...]:
    if not isinstance(obj, list):
        raise HelperError(_("%(key)s: must be a list of cards") % {"key": key})
    try:
        return tuple(parse_card(c) for c in obj)
    except CardError as exc:
        raise HelperError(f"{key}: {exc}") from None


def _int(obj: Any, key: str) -> int:
    if not isinstance(obj, int) or isinstance(obj, bool):
        raise HelperError(_("%(key)s: must be a whole number, not %(given)r")
                          % {"key": key, "given": obj})
    return obj


def setup_from_json(obj: Any) -> Setup:
    """``{"rules": "casino", "table": ["9c", {"value": 8, "owner": 1, "groups":
    [["5d", "3s"]]}], "hand": ["9d"], "opponents": [4], "stock": 0, "captured":
    [[...], [...]], "scores": [0, 0]}``; the table may also be text (``parse_table``)."""
    if not isinstance(obj, dict):
        raise HelperError(_("a helper request is a JSON object"))
    known = {"rules", "table", "hand", "opponents", "stock", "captured", "scores", "level",
             "seed", "set_aside", "card", "using"}
    for k in obj:
        if k not in known:
            raise HelperError(_("unknown key %(key)r") % {"key": k})
    try:
        rules = rules_from_json(obj.get("rules", DEFAULT.name))
    except RulesError as exc:
        raise HelperError(_("rules: %(reason)s") % {"reason": exc}) from None
    table_obj = obj.get("table", [])
    table: list[TableItem] = []
    if isinstance(table_obj, str):
        table = list(parse_table(table_obj))
    elif isinstance(table_obj, list):
        for i, item in enumerate(table_obj):
            key = f"table[{i}]"
            if isinstance(item, str):
                table.extend(_card_list([item], key))
            elif isinstance(item, dict):
                if not set(item) <= {"value", "owner", "groups"} or "groups" not in item \
                        or "owner" not in item:
                    raise HelperError(_("%(key)s: a build is {value, owner, groups}")
                                      % {"key": key})
                groups = item["groups"]
                if not isinstance(groups, list) or not groups:
                    raise HelperError(_("%(key)s.groups: a non-empty list of groups of "
                                        "cards") % {"key": key})
                value = item.get("value")
                table.append(TableBuild(
                    tuple(_card_list(g, f"{key}.groups") for g in groups),
                    _int(item["owner"], f"{key}.owner"),
                    None if value is None else _int(value, f"{key}.value")))
            else:
                raise HelperError(_("%(key)s: a card or a build") % {"key": key})
    else:
        raise HelperError(_("table: a list of cards and builds, or text"))
    hand_obj = obj.get("hand", [])
    hand = parse_hand(hand_obj) if isinstance(hand_obj, str) else _card_list(hand_obj, "hand")

    def ints(key: str) -> tuple[int, ...] | None:
        v = obj.get(key)
        if v is None:
            return None
        if not isinstance(v, list):
            raise HelperError(_("%(key)s: must be a list of whole numbers") % {"key": key})
        return tuple(_int(x, key) for x in v)

    captured_obj = obj.get("captured")
    captured = None
    if captured_obj is not None:
        if not isinstance(captured_obj, list):
            raise HelperError(_("captured: a list of piles, one per seat"))
        captured = tuple(_card_list(p, f"captured[{i}]") for i, p in enumerate(captured_obj))
    stock = obj.get("stock")
    return Setup(rules, tuple(table), hand, ints("opponents"),
                 None if stock is None else _int(stock, "stock"), captured, ints("scores"),
                 _card_list(obj.get("set_aside", []), "set_aside"))


def helper_json(obj: Any, rank: Rank | None = None) -> dict[str, Any]:
    """The JSON API for pages: a request (:func:`setup_from_json`, plus ``level``:
    a level name or null for no bot, ``seed``, and optionally ``card``: one card of
    the hand whose plays to list, with ``using``: indices of the table items those
    plays must use) in, :meth:`Analysis.to_json` out; ``rank``: as :func:`analyse`."""
    setup = setup_from_json(obj)
    level = obj.get("level", "expert")
    if level is not None and not isinstance(level, str):
        raise HelperError(_("level: a level name or null"))
    seed = _int(obj.get("seed", 0), "seed")
    card, using = selection_from_json(obj)
    try:
        return analyse(setup, level, seed, card=card, using=using, rank=rank).to_json()
    except ValueError as exc:
        if isinstance(exc, HelperError):
            raise
        raise HelperError(str(exc)) from None


def check_request(obj: Any) -> None:
    """Raise :class:`HelperError` for whatever :func:`helper_json` would refuse in the
    set-up or the choice of card and items, without the work (no bot, no moves)."""
    setup = setup_from_json(obj)
    card, using = selection_from_json(obj)
    _picked(position(setup), setup, card, using)


def selection_from_json(obj: dict[str, Any]) -> tuple[int | None, tuple[int, ...]]:
    """A request's ``card`` (a card text or null) and ``using`` (a list of indices into
    its table), checked for their form; :func:`analyse` checks them against the set-up."""
    card_obj = obj.get("card")
    card = None
    if card_obj is not None:
        if not isinstance(card_obj, str):
            raise HelperError(_("card: one card of your hand, as 'Td'"))
        card = _card_list([card_obj], "card")[0]
    using_obj = obj.get("using", [])
    if not isinstance(using_obj, list):
        raise HelperError(_("using: a list of table item numbers (from 0)"))
    using = tuple(_int(i, "using") for i in using_obj)
    return card, using
