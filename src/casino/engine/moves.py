"""The Move value, its canonical text, and the reading of move text.

Notation (docs/notation.md has the full grammar and examples)::

    7h                      trail the 7h
    9d x 9c 5h+4c [5d+3s]   9d captures the 9c, the 5h+4c group and a build
    5d+3s =8                play 5d onto the 3s: a new single build of 8
    2c+5s 4d+3h 7c =7       2c with 5s, plus 4d+3h and 7c: a new multiple build of 7
    8c 8h =8                8c onto the 8h as two groups: a multiple build of 8
    2h+6c > [5d+3s] =8      add the group 2h+6c to the 8-build (it becomes multiple)
    3c > [4d+Ac] =8         raise the 5-build to 8 with the 3c
    2h > [4d+3s] 9c =9      raise 7 to 9 and take in the loose 9c as another group

Reading is lenient: ``10d``, upper case, suit symbols, any grouping of the
loose cards (``9d x 9c 4c 5h``), and a build named by its value alone (``[8]``)
when only one build has that value. Two decks can put two builds of the same
cards and value, owned by different seats, on the table: their text names the
owner (``[7s+5h]@1``). Text is only *read* here; which legal move
it names is decided by :meth:`casino.engine.position.Position.parse_move`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from casino.engine.builds import Build
from casino.engine.cards import CARD_TEXTS, card_name, card_text, parse_card
from casino.engine.errors import CardError, MalformedMove
from casino.i18n import _

TRAIL, CAPTURE, BUILD, ADD, RAISE = "trail", "capture", "build", "add", "raise"
KINDS = (TRAIL, CAPTURE, BUILD, ADD, RAISE)


@dataclass(frozen=True, slots=True)
class Move:
    """One legal play of one card.

    Identity (equality, hashing) is what the rules care about: the kind, the
    played card, the multiset of loose table cards it takes or uses, the builds
    it takes or changes, and the announced value. ``groups`` is one way the
    cards split into groups, kept only for showing the move.
    """

    kind: str
    card: int
    loose: tuple[int, ...] = ()
    builds: tuple[Build, ...] = ()
    value: int = 0
    groups: tuple[tuple[int, ...], ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return move_text(self)

    def __repr__(self) -> str:
        return f"Move({move_text(self)!r})"

    @property
    def is_capture(self) -> bool:
        """Whether the move takes cards from the table."""
        return self.kind == CAPTURE


def _group_text(group: tuple[int, ...]) -> str:
    text = CARD_TEXTS
    return "+".join([text[c] for c in group])


def move_text(move: Move) -> str:
    """The canonical text of a move."""
    c = CARD_TEXTS[move.card]
    if move.kind == TRAIL:
        return c
    if move.kind == CAPTURE:
        items = [_group_text(g) for g in move.groups]
        items += [b.text() for b in move.builds]
        return f"{c} x " + " ".join(items)
    groups = list(move.groups)
    first = _group_text(groups[0]) if groups else c
    rest = " ".join(_group_text(g) for g in groups[1:])
    if move.kind == BUILD:
        body = first + (" " + rest if rest else "")
    else:
        body = f"{first} > {move.builds[0].text()}" + (" " + rest if rest else "")
    return f"{body} ={move.value}"


# ----------------------------------------------------------------------
# Reading


@dataclass(frozen=True)
class BuildRef:
    """A build named in move text: by its cards, or by its value alone, and by its
    owner when two builds differ by owner alone (``[7s+5h]@1``)."""

    cards: tuple[int, ...] | None
    value: int | None
    owner: int | None = None


@dataclass(frozen=True)
class MoveSpec:
    """What move text says, before it is matched against the legal moves."""

    kind: str  # trail, capture, or "onto" (build / add / raise; the value decides)
    card: int
    loose: tuple[int, ...]
    builds: tuple[BuildRef, ...]
    value: int | None
    #: The groups as written: a capture's loose groups; a build's groups, the first
    #: holding the played card. Kept so a legal move is shown as the player wrote it.
    groups: tuple[tuple[int, ...], ...] = ()


_TOKEN = re.compile(
    r"\[[^\]]*\](?:@[0-9]+)?|=\s*[0-9]+|[xX>]|[^\s\[\]=>+]+(?:\+[^\s\[\]=>+]+)*|\+|\S")


def _unreadable(text: str, why: str) -> MalformedMove:
    """The error for move ``text`` that cannot be read, saying ``why`` (translated), in
    the language in force: a person sees it when a typed move is not notation."""
    return MalformedMove(_("cannot read %(text)s: %(why)s") % {"text": repr(text), "why": why})


def _card(token: str, text: str) -> int:
    try:
        return parse_card(token)
    except CardError as exc:
        raise _unreadable(text, str(exc)) from None


def _build_ref(token: str, text: str) -> BuildRef:
    token, at, seat = token.partition("@")
    owner = None
    if at:
        if not (seat.isascii() and seat.isdigit()) or len(seat) > 2:
            raise _unreadable(text, _("name a build's owner by seat, as '@1'"))
        owner = int(seat)
    if not token.endswith("]"):
        raise _unreadable(text, _("a '[' is not closed by ']'"))
    inner = token[1:-1].replace("+", " ").replace(",", " ").split()
    if not inner:
        raise _unreadable(text, _("an empty [] names no build"))
    if len(inner) == 1 and inner[0].isascii() and inner[0].isdigit() and len(inner[0]) <= 3:
        return BuildRef(None, int(inner[0]), owner)
    return BuildRef(tuple(sorted(_card(t, text) for t in inner)), None, owner)


def read_move(text: str) -> MoveSpec:
    """Read move text into a :class:`MoveSpec`; :class:`MalformedMove` if unreadable."""
    if not isinstance(text, str):
        raise MalformedMove(f"a move must be text, not {type(text).__name__}")
    src = text.strip()
    if not src:
        raise MalformedMove(_("an empty text is not a move: name the card you play"))
    if len(src) > 400:
        raise MalformedMove(_("move text is too long to be a move"))
    low = src.lower()
    for word, repl in (("takes", " x "), ("trail", " "), ("onto", " > ")):
        low = low.replace(word, repl)
    tokens = _TOKEN.findall(low)
    tokens = [t for t in tokens if t.strip()]
    if not tokens:
        raise MalformedMove(_("cannot read %(text)s as a move") % {"text": repr(text)})
    value: int | None = None
    body: list[str] = []
    for t in tokens:
        if t.startswith("="):
            if value is not None:
                raise _unreadable(text, _("the value is given twice"))
            digits = t[1:].strip()
            if not (digits.isascii() and digits.isdigit()) or len(digits) > 3:
                raise _unreadable(text, _("announce the build's value as a number, as '=8'"))
            value = int(digits)
        else:
            if value is not None:
                raise _unreadable(text, _("the value '=%(value)s' must come last")
                                  % {"value": value})
            body.append(t)
    if not body:
        raise _unreadable(text, _("no card to play"))
    if body[0].lower() == "x" or body[0] == ">" or body[0].startswith("["):
        raise _unreadable(text, _("start with the card you play"))
    if "x" in (b.lower() for b in body[1:]) or (len(body) > 1 and body[1].lower() == "x"):
        return _read_capture(text, body, value)
    first = body[0].split("+")
    played = _card(first[0], text)
    first_rest = tuple(_card(t, text) for t in first[1:] if t)
    loose: list[int] = list(first_rest)
    groups: list[tuple[int, ...]] = [(played, *first_rest)]
    builds: list[BuildRef] = []
    saw_onto = False
    for t in body[1:]:
        if t == ">":
            if saw_onto:
                raise _unreadable(text, _("'>' appears twice"))
            saw_onto = True
        elif t.startswith("["):
            if not saw_onto:
                raise _unreadable(text, _("write '>' before the build you add to or raise"))
            builds.append(_build_ref(t, text))
        elif t == "+":
            continue
        else:
            group = tuple(_card(p, text) for p in t.split("+") if p)
            loose.extend(group)
            groups.append(group)
    if saw_onto and not builds:
        raise _unreadable(text, _("'>' must be followed by a build in []"))
    if len(builds) > 1:
        raise _unreadable(text, _("a card is added to one build at a time"))
    if value is None and not builds and not loose:
        return MoveSpec(TRAIL, played, (), (), None)
    if value is None and not builds:
        raise _unreadable(text, _("to build, announce the value (as '=8'); to capture, "
                                  "write 'x' after your card"))
    return MoveSpec("onto", played, tuple(sorted(loose)), tuple(builds), value, tuple(groups))


def _read_capture(text: str, body: list[str], value: int | None) -> MoveSpec:
    if value is not None:
        raise _unreadable(text, _("a capture announces no value"))
    if len(body) < 2 or body[1].lower() != "x":
        raise _unreadable(text, _("write the played card, then 'x', then what it takes"))
    played = _card(body[0], text)
    loose: list[int] = []
    groups: list[tuple[int, ...]] = []
    builds: list[BuildRef] = []
    for t in body[2:]:
        if t.lower() == "x":
            raise _unreadable(text, _("'x' appears twice"))
        if t == ">":
            raise _unreadable(text, _("a capture does not use '>'"))
        if t.startswith("["):
            builds.append(_build_ref(t, text))
        elif t == "+":
            continue
        else:
            group = tuple(_card(p, text) for p in t.split("+") if p)
            loose.extend(group)
            groups.append(group)
    if not loose and not builds:
        raise _unreadable(text, _("say what the %(card)s takes")
                          % {"card": card_text(played), "name": card_name(played)})
    return MoveSpec(CAPTURE, played, tuple(sorted(loose)), tuple(builds), None, tuple(groups))
