"""Answering move questions without listing every move (docs/rules.md §2.4-2.5, §3).

The number of legal moves grows exponentially with the table (every subset of
loose cards that splits into groups is a capture of its own), but no question a
player asks needs them all. This module answers those questions in time
polynomial in the table, through :mod:`casino.engine.partition`:

- :func:`find`: is this move legal, and with which split into groups;
- :func:`card_options`: what one card can do (trail, the values it can capture,
  the values a build may announce, the builds it can join or raise);
- :func:`moves_of` / :func:`candidate_moves`: a bounded set of moves of a card
  (all of them on a small table; on a crowded one the best capture of each
  value and the smallest and a large build of each kind), for lists shown to
  people (:func:`ranked`) and for bots;
- :func:`moves_with`: what a card can do with the table items a player picked.

The full enumeration (:func:`casino.engine.movegen.generate`) stays the reference:
``tests/test_legality.py`` checks every answer here against it on every
position where it is small. Each rule is applied once here, as it is there:
the cards named being there in :meth:`_Checker.presence_refusal`, captures in
:meth:`_Checker.capture`, builds and their values in :meth:`_Checker.build`,
adding and raising in :meth:`_Checker.onto` (with :meth:`_Checker.raise_limit` and
:meth:`_Checker.raise_own_refusal`), trailing in :meth:`_Checker.trail_refusal`,
Krypkasino's compulsion in :meth:`_Checker.sweep_refusal` and
:meth:`_Checker.compulsory_capture`, and the ownership rule in
:meth:`_Checker.unheld`.

The same methods say why a move is illegal. Each returns ``None`` when its rule
allows the move, else a :class:`Refusal` naming the rule with its data (the value
not held, the cards that must sweep, ...); :meth:`_Checker.judge` gives the one
verdict on a move, the legal move or the first refusal. :meth:`_Checker.find`,
``trail``, ``holds`` and ``options`` answer yes or no through those methods, and
:mod:`casino.engine.explain` only turns refusals into words, so legality cannot
drift from its explanation (``tests/test_explain.py``). A refusal is made only for
a refused move: a legal one costs nothing more than before.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from casino.engine import core
from casino.engine.builds import Build
from casino.engine.cards import ACE
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.partition import Piece, Split, best_split, fewest_group, has_block, has_group
from casino.engine.scheme import scheme

if TYPE_CHECKING:
    from casino.engine.position import Position

#: Up to this many loose cards the full enumeration is cheap (at most 2**12 subsets
#: per value): lists of moves there are complete, not a selection.
SMALL_TABLE = 12

#: On a larger table the full enumeration is tried with this many steps
#: (:class:`casino.engine.movegen.Budget`, about a millisecond or two of work); most
#: tables of 13 to 20 loose cards that play reaches finish within it, and their lists
#: are complete too. Past it, a bounded selection is made instead.
LISTING_STEPS = 8_000

#: The compiled core's steps for each of a card's exact best captures on a crowded
#: table (:meth:`_Checker.exact_best_captures`): about a millisecond of its work.
BEST_CAPTURE_STEPS = 100_000

_TEN_DIAMONDS, _TWO_SPADES = 9 * 4 + 3, 1 * 4 + 0


def worth(card: int) -> int:
    """A simple order of what a card is worth to take: the 10♦ and 2♠, Aces, spades."""
    w = 0
    if card in (_TEN_DIAMONDS, _TWO_SPADES):
        w += 3
    if card >> 2 == ACE:
        w += 2
    if card & 3 == 0:
        w += 1
    return w


@dataclass(frozen=True)
class CardOptions:
    """What one card in hand can do now (each entry checked to have a legal move)."""

    card: int
    trail: bool
    #: Played values with at least one legal capture (0: a face card without a value).
    captures: tuple[int, ...]
    #: Values a new build with this card may announce.
    builds: tuple[int, ...]
    #: Builds it may join as another group.
    adds: tuple[Build, ...]
    #: Builds it may raise, with the value each would become.
    raises: tuple[tuple[Build, int], ...]

    @property
    def playable(self) -> bool:
        """Whether the card has any legal move: the screens grey out a card that has none."""
        return bool(self.trail or self.captures or self.builds or self.adds or self.raises)


@dataclass(frozen=True)
class MoveList:
    """Some legal moves, ranked; ``complete`` says whether they are all of them."""

    moves: tuple[Move, ...]
    complete: bool


# -- why a move is refused ----------------------------------------------------------
# Each rule of move legality is one method of :class:`_Checker`, and the method both
# decides and says why: it returns ``None`` when the rule allows the move, else a
# :class:`Refusal` naming the rule and carrying the data its sentence needs. The
# yes/no questions (:meth:`_Checker.find`, ``trail``, ``holds``, ``options``) are
# answered through the same methods, so a move is refused exactly when a reason is
# given, and for that reason; :mod:`casino.engine.explain` only puts it into words.

#: A new build names existing builds (builds never merge).
MERGE = "merge"
#: The played card is not in the mover's hand.
NOT_HELD = "not-held"
#: The move's loose cards or builds are not in sorted order (moves are made so).
UNSORTED = "unsorted"
#: A loose card is named more often than it lies loose (``cards``: it; ``value``:
#: times named; ``other``: times it lies loose; ``build``: a build holding it).
NOT_ON_TABLE = "not-on-table"
#: A build the move names is not on the table (``build``: it).
NO_SUCH_BUILD = "no-such-build"
#: A trail names table cards, builds or a value.
TRAIL_SHAPE = "trail-shape"
#: Trailing while owning a build (``build``: the first one owned), docs/rules.md §2.5.
OWNS_BUILD = "owns-build"
#: Krypkasino's forced sweep (``cards``: the cards that can take the whole table).
FORCED_SWEEP = "forced-sweep"
#: Krypkasino: trailing a card that can capture.
MUST_CAPTURE = "must-capture"
#: Krypkasino: a capture that is not maximal (``value``: the value captured).
NOT_MAXIMAL = "not-maximal"
#: A capture announces a value.
CAPTURE_VALUE = "capture-value"
#: A capture names nothing to take.
CAPTURE_EMPTY = "capture-empty"
#: A build taken whose value the card does not have (``build``: it).
BUILD_VALUE = "build-value"
#: A face card without a number value may only pair with its rank.
FACE_ONLY = "face-only"
#: The loose cards do not split into pairs and groups of the card's value (``cards``).
CANNOT_TAKE = "cannot-take"
#: A build, addition or raise in a ruleset without building, or under compulsion.
NO_BUILDING = "no-building"
#: Building with a card that has no number value.
NO_NUMBER = "no-number"
#: A build's announced value outside 2 to the largest build (``value``).
BUILD_RANGE = "build-range"
#: A new build of the played card alone.
BUILD_ALONE = "build-alone"
#: A new build announcing no value.
UNANNOUNCED = "unannounced"
#: The cards of a new build do not split into groups of its value (``value``: the
#: announced value; ``other``: the cards' total).
BUILD_SPLIT = "build-split"
#: Adding to or raising more than one build at once.
ONE_BUILD = "one-build"
#: An addition announcing another value than the build's (``value``; ``build``).
ADD_VALUE = "add-value"
#: The groups added to a build, or a raise's loose groups, do not make its value.
ADD_GROUP = "add-group"
#: Raising a multiple build (``build``).
MULTIPLE_RAISE = "multiple-raise"
#: A raise above the largest build (``value``: the value it would make).
RAISE_HIGH = "raise-high"
#: A raise announcing another value than it makes (``value``: announced; ``other``:
#: the value it makes).
RAISE_VALUE = "raise-value"
#: Raising one's own build where the rules forbid it (``build``).
RAISE_OWN = "raise-own"
#: The ownership rule, docs/rules.md §2.5 (``value``: a build value left without a card
#: to take it; ``other``: the value of the build the move makes, 0 for none).
OWNERSHIP = "ownership"
#: Not a kind of move.
NO_KIND = "no-kind"

#: The rules checked once a move's cards fit together (the card could make it, were it
#: not for them): a refusal by one of these speaks of the very move, where one by an
#: earlier rule may only say that the cards were not those of a move.
FITTING = frozenset({RAISE_OWN, FORCED_SWEEP, MUST_CAPTURE, NOT_MAXIMAL, OWNERSHIP})


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the checker refuses a move: the rule (one of the constants above) and what
    its sentence needs. Made only when a move is refused, never on the way to a legal
    one, so the yes/no checks allocate nothing more when a move is legal."""

    rule: str
    card: int
    value: int = 0
    other: int = 0
    cards: tuple[int, ...] = ()
    build: Build | None = None


def checker(pos: Position) -> _Checker:
    """The checker of ``pos``'s player to move, made once per position."""
    return pos.memo("legality", lambda: _Checker(pos))


def find(pos: Position, move: Move) -> Move | None:
    """The legal move equal to ``move`` (with a split into groups), or ``None``."""
    if pos.result is not None:
        return None
    return checker(pos).find(move)


@dataclass(frozen=True)
class Selected:
    """The legal moves of a card using exactly the items picked (``exact``), and some
    that use them and more (``more``); ``complete``: ``more`` holds all such moves."""

    exact: tuple[Move, ...]
    more: tuple[Move, ...]
    complete: bool


def moves_with(pos: Position, card: int, loose: Sequence[int],
               builds: Sequence[Build]) -> Selected:
    """What ``card`` can do with the picked table items: the answer to a player who
    picks a card and some table items, polynomial in the table."""
    if pos.result is not None:
        return Selected((), (), True)
    return checker(pos).selected(card, loose, builds)


def card_options(pos: Position, card: int) -> CardOptions:
    """What ``card`` (in the hand of the player to move) can do."""
    return checker(pos).options(card)


def moves_of(pos: Position, card: int) -> MoveList:
    """The moves of ``card``: all of them on a small table, else a bounded selection."""
    return checker(pos).moves_of(card)


def candidate_moves(pos: Position) -> MoveList:
    """The moves of every card in hand, as :func:`moves_of` gives them: on a small
    table exactly :meth:`Position.legal_moves`, in its order."""
    if pos.result is not None:
        return MoveList((), True)
    listed = listing(pos)
    if listed is not None:
        return MoveList(tuple(listed), True)
    c = checker(pos)
    moves: list[Move] = []
    complete = True
    for card in sorted(set(c.hand)):
        got = c.moves_of(card)
        moves.extend(got.moves)
        complete = complete and got.complete
    return MoveList(tuple(moves), complete)


def is_small(pos: Position) -> bool:
    """Whether listing every legal move of ``pos`` is cheap: a table of at most
    :data:`SMALL_TABLE` loose cards, or one whose listing finishes within
    :data:`LISTING_STEPS` (tried once per position, and kept)."""
    return listing(pos) is not None


def listing(pos: Position) -> list[Move] | None:
    """Every legal move of ``pos`` when listing them is cheap (:func:`is_small`), else
    ``None``: the bounded selection is then made instead."""
    if len(pos.loose) <= SMALL_TABLE:
        return pos.legal_moves()
    return pos.moves_within(LISTING_STEPS)


class _Checker:
    """The rules of one position, for its player to move."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.rules = pos.rules
        self.table = pos.rules.table
        self.seat = pos.to_move
        self.hand = pos.hand(pos.to_move)
        self.loose = pos.loose
        self.builds = pos.builds
        self.owned = [b for b in self.builds if b.owner == self.seat]
        self._held: dict[int, int] = {}
        self.compulsory = self.rules.compulsory_capture or self.rules.forced_sweep
        d = self.rules.ace_sum_alt
        self.alt_delta = (d - self.rules.ace_sum) if d else 0
        self._sweepers: tuple[int, ...] | None = None
        self._piece_of: dict[object, Callable[[int], Piece]] = {}

    # -- pieces: how a loose card takes part in a split ---------------------------
    def _values(self, x: int) -> tuple[int, ...]:
        s = self.table.sum_value[x]
        if not s:
            return ()
        if self.table.sum_alt[x] and self.alt_delta:
            return (s, s + self.alt_delta)
        return (s,)

    def capture_piece(self, card: int, *, optional: bool = False) -> Callable[[int], Piece]:
        keys = self.table.pair_played[card]
        pair_table = self.table.pair_table
        return self._pieces((keys, optional),
                            lambda x: Piece(self._values(x), pair_table[x] in keys, optional))

    def build_piece(self, *, optional: bool = False) -> Callable[[int], Piece]:
        return self._pieces(("build", optional),
                            lambda x: Piece(self._values(x), False, optional))

    def _pieces(self, key: object, make: Callable[[int], Piece]) -> Callable[[int], Piece]:
        """``make`` with each card's Piece made once per checker: the split searches ask
        for the same cards' pieces thousands of times on a crowded table."""
        got = self._piece_of.get(key)
        if got is None:
            made: dict[int, Piece] = {}

            def piece(x: int) -> Piece:
                p = made.get(x)
                if p is None:
                    p = made[x] = make(x)
                return p
            got = self._piece_of[key] = piece
        return got

    # -- the ownership rule (docs/rules.md §2.5) -----------------------------------
    def held(self, card: int) -> int:
        """Values held after playing ``card``: bit v set when a card of value v is left
        (worked out once per card: the ownership rule asks it for every move)."""
        mask = self._held.get(card)
        if mask is None:
            rest = list(self.hand)
            rest.remove(card)
            mask = 0
            for c in rest:
                mask |= self.table.holds[c]
            self._held[card] = mask
        return mask

    def unheld(self, card: int, owned_after: Sequence[int]) -> int:
        """The ownership rule itself: the first build value owned after playing ``card``
        that no card left in hand has, or 0 when every one is held (build values are 2
        or more)."""
        held = self.held(card)
        for v in owned_after:
            if not held >> v & 1:
                return v
        return 0

    def holds(self, card: int, owned_after: Sequence[int]) -> bool:
        """Whether the ownership rule allows owning ``owned_after`` after playing ``card``."""
        return not self.unheld(card, owned_after)

    def ownership_refusal(self, card: int, owned_after: Sequence[int],
                          new_value: int = 0) -> Refusal | None:
        """The ownership rule for a move of ``card`` after which the player owns builds of
        ``owned_after`` and, when ``new_value``, the build the move makes."""
        v = self.unheld(card, [*owned_after, new_value] if new_value else owned_after)
        return Refusal(OWNERSHIP, card, v, new_value) if v else None

    def _owned_values(self, but: Sequence[Build] = ()) -> list[int]:
        left = Counter(but)
        out = []
        for b in self.owned:
            if left[b]:
                left[b] -= 1
            else:
                out.append(b.value)
        return out

    # -- checking one move ---------------------------------------------------------
    def find(self, move: object) -> Move | None:
        """The legal move equal to ``move``, with a split into groups; else ``None``."""
        if not isinstance(move, Move):
            return None
        got = self.judge(move)
        return got if isinstance(got, Move) else None

    def refusal(self, move: Move) -> Refusal | None:
        """Why ``move`` is illegal, by the rule that refuses it; ``None`` when it is legal."""
        got = self.judge(move)
        return got if isinstance(got, Refusal) else None

    def judge(self, move: Move) -> Move | Refusal:
        """The one verdict on ``move``: the legal move (with a split into groups), or the
        refusal of the first rule that forbids it. Rules come in the order a player
        thinks: are the cards there, do they fit together as that kind of move, and
        then the rules that forbid a move that fits (:data:`FITTING`)."""
        card = move.card
        if move.kind == BUILD and move.builds:
            return Refusal(MERGE, card)
        refused = self.presence_refusal(card, move.loose, move.builds)
        if refused is not None:
            return refused
        if move.loose != tuple(sorted(move.loose)) or move.builds != tuple(sorted(move.builds)):
            return Refusal(UNSORTED, card)
        if move.kind == TRAIL:
            if move.loose or move.builds or move.value:
                return Refusal(TRAIL_SHAPE, card)
            return self.trail_refusal(card) or Move(TRAIL, card)
        if move.kind == CAPTURE:
            if move.value:
                return Refusal(CAPTURE_VALUE, card)
            if not move.loose and not move.builds:
                return Refusal(CAPTURE_EMPTY, card)
            if self.compulsory:
                return self.compulsory_capture(move)
            return self.capture(move)
        if move.kind not in (BUILD, ADD, RAISE):
            return Refusal(NO_KIND, card)
        if self.compulsory or not self.rules.building:
            return Refusal(NO_BUILDING, card)
        if not self.table.sum_value[card]:
            return Refusal(NO_NUMBER, card)
        if move.kind == BUILD:
            return self.build(move)
        if len(move.builds) != 1:
            return Refusal(ONE_BUILD, card)
        return self.onto(move)

    def presence_refusal(self, card: int, loose: Sequence[int],
                         builds: Sequence[Build]) -> Refusal | None:
        """A move names only what is there: the card in hand, the loose cards (as often
        as they lie) and the builds on the table."""
        if card not in self.hand:
            return Refusal(NOT_HELD, card)
        if loose:
            lying = Counter(self.loose)
            named = Counter(loose)
            for c, n in named.items():
                if lying[c] < n:
                    within = next((b for b in self.builds if c in b.cards), None)
                    return Refusal(NOT_ON_TABLE, card, n, lying[c], (c,), within)
        if builds:
            left = Counter(self.builds)
            for b in builds:
                if not left[b]:
                    return Refusal(NO_SUCH_BUILD, card, build=b)
                left[b] -= 1
        return None

    def trail(self, card: int) -> bool:
        """Whether ``card`` may be trailed (see :meth:`trail_refusal`)."""
        return self.trail_refusal(card) is None

    def trail_refusal(self, card: int) -> Refusal | None:
        """Trailing (docs/rules.md §2.4): never while owning a build; in Krypkasino only a
        card that can capture nothing, and never when a sweep is forced."""
        if self.owned:
            return Refusal(OWNS_BUILD, card, build=self.owned[0])
        if not self.compulsory:
            return None
        sweepers = self.sweepers()
        if sweepers:
            return Refusal(FORCED_SWEEP, card, cards=sweepers)
        if self.rules.compulsory_capture and any(
                has_block(self.loose, v, self.capture_piece(card)) for v in self._played(card)):
            return Refusal(MUST_CAPTURE, card)
        return None

    def _played(self, card: int) -> tuple[int, ...]:
        return self.table.played[card] or (0,)

    def _split_capture(self, card: int, loose: Sequence[int], v: int) -> Split | None:
        if v == 0 and self.table.face_one[card] and len(loose) > 1:
            return None
        return best_split(loose, v, self.capture_piece(card), min_group=2)

    def capture(self, move: Move) -> Move | Refusal:
        """Captures (docs/rules.md §2.4): disjoint blocks of the played value, and builds of
        it; then the ownership rule for the builds left."""
        card = move.card
        for v in self._played(card):
            if move.builds and (v == 0 or any(b.value != v for b in move.builds)):
                continue
            split = self._split_capture(card, move.loose, v)
            if split is not None:
                return (self.ownership_refusal(card, self._owned_values(move.builds))
                        or Move(CAPTURE, card, move.loose, move.builds, 0, split.blocks))
        return self._unfit_capture(move)

    def _unfit_capture(self, move: Move) -> Refusal:
        """Why the cards of a capture do not fit its card: a build of another value, a
        face card without a value, or loose cards that make no blocks of its value."""
        card = move.card
        values = self.table.played[card]
        for b in move.builds:
            if b.value not in values:
                return Refusal(BUILD_VALUE, card, build=b)
        if not values:
            return Refusal(FACE_ONLY, card)
        return Refusal(CANNOT_TAKE, card, cards=move.loose)

    def sweepers(self) -> tuple[int, ...]:
        """Krypkasino's forced sweep (docs/rules.md §3.2): the cards in hand that can take
        the whole table."""
        if self._sweepers is None:
            found: list[int] = []
            loose = self.loose
            if (self.rules.forced_sweep and loose
                    and all(self.table.sum_value[c] for c in loose)):
                for card in sorted(set(self.hand)):
                    if any(self._split_capture(card, loose, v) is not None
                           for v in self._played(card)):
                        found.append(card)
            self._sweepers = tuple(found)
        return self._sweepers

    def sweep_refusal(self, card: int, loose: Sequence[int]) -> Refusal | None:
        """The forced sweep: when a card can take the whole table, a capture must be one
        of those sweeps."""
        sweepers = self.sweepers()
        if sweepers and (card not in sweepers or len(loose) != len(self.loose)):
            return Refusal(FORCED_SWEEP, card, cards=sweepers)
        return None

    def compulsory_capture(self, move: Move) -> Move | Refusal:
        """Krypkasino (docs/rules.md §3.2): a forced sweep first; else a capture must be
        maximal (docs/rules.md K2)."""
        card = move.card
        if move.builds:
            return Refusal(NO_BUILDING, card)
        refused: Refusal | None = None
        for v in self._played(card):
            split = self._split_capture(card, move.loose, v)
            if split is None:
                continue
            swept = self.sweep_refusal(card, move.loose)
            if swept is not None:
                return swept
            if self.rules.compulsory_capture and not self._maximal(card, move.loose, v):
                refused = refused or Refusal(NOT_MAXIMAL, card, v)
                continue
            return Move(CAPTURE, card, move.loose, (), 0, split.blocks)
        return refused or self._unfit_capture(move)

    def _maximal(self, card: int, taken: Sequence[int], v: int) -> bool:
        left = list((Counter(self.loose) - Counter(taken)).elements())
        if has_block(left, v, self.capture_piece(card)):
            return False
        if self.rules.maximal_capture == "cardinality":
            best = self.best_capture(card, v, count_first=True)
            return best is None or len(taken) >= len(best.cards)
        return True

    def build(self, move: Move) -> Move | Refusal:
        """New builds (docs/rules.md §2.4): the played card and loose cards in groups of
        the value announced, from 2 to the largest build; then the ownership rule."""
        card, v = move.card, move.value
        sc = self.table.sum_value[card]
        if v and not 2 <= v <= self.table.max_build:
            return Refusal(BUILD_RANGE, card, v)
        if not move.loose:
            return Refusal(BUILD_ALONE, card)
        if not v:
            return Refusal(UNANNOUNCED, card)
        split = (best_split(move.loose, v, self.build_piece(), min_group=1, partner=v - sc)
                 if v >= sc else None)
        if split is None:
            total = sc + sum(self.table.sum_value[c] for c in move.loose)
            return Refusal(BUILD_SPLIT, card, v, total)
        return (self.ownership_refusal(card, self._owned_values(), v)
                or Move(BUILD, card, move.loose, (), v, _build_groups(card, split)))

    def onto(self, move: Move) -> Move | Refusal:
        """Adding a group to a build, or raising a single build (docs/rules.md §2.4); then
        whether one's own build may be raised, and the ownership rule."""
        card, target = move.card, move.builds[0]
        sc = self.table.sum_value[card]
        if move.kind == ADD:
            v = target.value
            if move.value != v:
                return Refusal(ADD_VALUE, card, move.value, build=target)
            split = (best_split(move.loose, v, self.build_piece(), min_group=1, partner=v - sc)
                     if sc <= v else None)
            if split is None:
                return Refusal(ADD_GROUP, card, build=target)
            return (self.ownership_refusal(card, self._owned_values((target,)), v)
                    or Move(ADD, card, move.loose, (target,), v, _build_groups(card, split)))
        limit = self.raise_limit(card, target)
        if limit is not None and limit.rule == MULTIPLE_RAISE:
            return limit  # first: whatever value is said, a multiple build is never raised
        if not 2 <= move.value <= self.table.max_build:
            return Refusal(BUILD_RANGE, card, move.value)
        if limit is not None:
            return limit
        w = target.value + sc
        if move.value != w:
            return Refusal(RAISE_VALUE, card, move.value, w, build=target)
        split = best_split(move.loose, w, self.build_piece(), min_group=1)
        if split is None:
            return Refusal(ADD_GROUP, card, build=target)
        return (self.raise_own_refusal(card, target)
                or self.ownership_refusal(card, self._owned_values((target,)), w)
                or Move(RAISE, card, move.loose, (target,), w, ((card,), *split.blocks)))

    def raise_limit(self, card: int, target: Build) -> Refusal | None:
        """What forbids ``card`` raising ``target`` whatever cards go with it: a multiple
        build is never raised, and no raise goes above the largest build."""
        if target.multiple:
            return Refusal(MULTIPLE_RAISE, card, build=target)
        w = target.value + self.table.sum_value[card]
        if w > self.table.max_build:
            return Refusal(RAISE_HIGH, card, w, build=target)
        return None

    def raise_own_refusal(self, card: int, target: Build) -> Refusal | None:
        """Some rulesets forbid raising one's own build (``Rules.raise_own_build``)."""
        if target.owner == self.seat and not self.rules.raise_own_build:
            return Refusal(RAISE_OWN, card, build=target)
        return None

    # -- a split as the player wrote it -------------------------------------------------
    def as_written(self, move: Move, groups: Sequence[tuple[int, ...]]) -> Move | None:
        """Legal ``move`` shown with the player's own ``groups``, when they are a valid
        split of it (any split of a legal move is as good); else ``None``."""
        if not groups:
            return None
        card = move.card
        if move.kind == CAPTURE:
            if sorted(c for g in groups for c in g) != list(move.loose):
                return None
            piece = self.capture_piece(card)
            for v in self._played(card):
                if move.builds and any(b.value != v for b in move.builds):
                    continue
                if v == 0 and self.table.face_one[card] and len(groups) > 1:
                    continue
                if all((len(g) == 1 and piece(g[0]).alone)
                       or (len(g) > 1 and v in self._sums(g)) for g in groups):
                    return dataclasses.replace(move, groups=_display(groups))
            return None
        if move.kind == TRAIL or groups[0][:1] != (card,):
            return None
        first, others = groups[0], groups[1:]
        if sorted(c for g in (first[1:], *others) for c in g) != list(move.loose):
            return None
        if move.kind == RAISE and len(first) != 1:
            return None
        if move.kind != RAISE and self.table.sum_value[card] + sum(
                self.table.sum_value[c] for c in first[1:]) != move.value:
            return None
        if not all(move.value in self._sums(g) for g in others):
            return None
        shown = (first[:1] + tuple(sorted(first[1:], reverse=True)), *_display(others))
        return dataclasses.replace(move, groups=shown)

    def _sums(self, group: Sequence[int]) -> set[int]:
        totals = {0}
        for c in group:
            totals = {t + x for t in totals for x in self._values(c)}
        return totals

    # -- what one card can do --------------------------------------------------------
    def options(self, card: int) -> CardOptions:
        if card not in self.hand:
            return CardOptions(card, False, (), (), (), ())
        captures = tuple(v for v in self._played(card) if self._can_capture(card, v))
        builds: list[int] = []
        adds: list[Build] = []
        raises: list[tuple[Build, int]] = []
        sc = self.table.sum_value[card]
        if self.rules.building and sc and not self.compulsory:
            piece = self.build_piece()
            owned = self._owned_values()
            for v in range(max(2, sc), self.table.max_build + 1):
                if not self.holds(card, [*owned, v]):
                    continue
                if (has_group(self.loose, v - sc, piece) if v > sc
                        else has_group(self.loose, v, piece)):
                    builds.append(v)
            for b in dict.fromkeys(self.builds):
                others = self._owned_values((b,))
                if sc <= b.value and self.holds(card, [*others, b.value]) and has_group(
                        self.loose, b.value - sc, piece):
                    adds.append(b)
                w = b.value + sc
                if (self.raise_limit(card, b) is None and self.raise_own_refusal(card, b) is None
                        and self.holds(card, [*others, w])):
                    raises.append((b, w))
        return CardOptions(card, self.trail(card), captures, tuple(builds), tuple(adds),
                           tuple(raises))

    def _can_capture(self, card: int, v: int) -> bool:
        vbuilds = [b for b in self.builds if v and b.value == v]
        if self.compulsory:
            sweepers = self.sweepers()
            if sweepers:
                return card in sweepers and self._split_capture(card, self.loose, v) is not None
            if v == 0 and self.table.face_one[card]:
                return any(self.capture_piece(card)(x).alone for x in self.loose)
            return has_block(self.loose, v, self.capture_piece(card))
        if not self.holds(card, self._owned_values(vbuilds)):
            return False
        return bool(vbuilds) or has_block(self.loose, v, self.capture_piece(card))

    def best_capture(self, card: int, v: int, *, count_first: bool = False) -> Split | None:
        """The capture of value ``v`` taking the most (by :func:`worth`, or by count
        first) of the loose cards, every one of them optional."""
        if v == 0 and self.table.face_one[card]:
            pairs = [x for x in self.loose if self.capture_piece(card)(x).alone]
            if not pairs:
                return None
            x = max(pairs, key=worth)
            return Split(worth(x), None, ((x,),))

        def score(x: int) -> int:
            return 1000 + worth(x) if count_first else 10 + worth(x)
        piece = self.capture_piece(card, optional=True)
        # Krypkasino's cardinality rule makes legality depend on the largest capture.
        return best_split(self.loose, v, piece, min_group=2, score=score,
                          exact_best=count_first and self.compulsory)

    def exact_best_captures(self, card: int, v: int, vbuilds: tuple[Build, ...]) -> list[Move]:
        """The captures of value ``v`` taking the most cards, and those taking the most
        points, found exactly by the compiled core within :data:`BEST_CAPTURE_STEPS`
        (with the builds of that value and without, each checked legal): on a crowded
        table the bounded split search can miss them. None where there is no core,
        or its steps run out (the split search's capture stands)."""
        points = scheme(self.rules).points_of
        cards_first = [1000 + max(0, points(x)) for x in self.loose]
        points_first = [1000 * max(0, points(x)) + 1 for x in self.loose]
        out: list[Move] = []
        for scores in (cards_first, points_first):
            loose = core.best_capture(self.rules, card, v, self.loose, scores,
                                      BEST_CAPTURE_STEPS)
            if not loose:
                continue
            for taken in dict.fromkeys((vbuilds, ())):
                legal = find(self.pos, Move(CAPTURE, card, loose, taken))
                if legal is not None:
                    out.append(legal)
        return out

    def selected(self, card: int, loose: Sequence[int], builds: Sequence[Build]) -> Selected:
        loose = tuple(sorted(loose))
        picked = Counter(builds)
        if card not in self.hand:
            return Selected((), (), True)
        mine = self.moves_of(card)

        def uses_all(m: Move) -> bool:
            return not (Counter(loose) - Counter(m.loose)) and not (picked - Counter(m.builds))

        def uses_only(m: Move) -> bool:
            return m.loose == loose and Counter(m.builds) == picked
        if mine.complete:
            exact = [m for m in mine.moves if uses_only(m)]
            more = [m for m in mine.moves if uses_all(m) and not uses_only(m)]
            return Selected(tuple(exact), tuple(ranked(more)), True)
        named: list[Move] = []
        sorted_builds = tuple(sorted(builds))
        if loose or builds:
            named.append(Move(CAPTURE, card, loose, sorted_builds))
        opts = self.options(card)
        sc = self.table.sum_value[card]
        if not builds:
            named.extend(Move(BUILD, card, loose, (), v) for v in opts.builds)
        elif len(builds) == 1:
            b = sorted_builds[0]
            named += [Move(ADD, card, loose, (b,), b.value), Move(RAISE, card, loose, (b,),
                                                                 b.value + sc)]
        exact = [m for m in (self.find(n) for n in named) if m is not None]
        wider: list[Move] = []
        for v in opts.captures:
            if any(b.value != v for b in builds):
                continue
            every = tuple(sorted(b for b in self.builds if v and b.value == v))
            for taken in dict.fromkeys((sorted_builds, every)):
                split = best_split(self.loose, v, self.capture_piece(card, optional=True),
                                   min_group=2, required=loose,
                                   score=lambda x: 1000 + worth(x))
                if split is not None and (split.cards or taken):
                    wider.append(Move(CAPTURE, card, split.cards, tuple(taken)))
        if not builds:
            for v in opts.builds:
                split = best_split(self.loose, v, self.build_piece(optional=True), min_group=1,
                                   partner=v - sc if v > sc else v, required=loose,
                                   score=_most)
                if split is not None and split.cards:
                    wider.append(Move(BUILD, card, split.cards, (), v))
        elif len(builds) == 1:
            b = sorted_builds[0]
            if b in opts.adds:
                split = best_split(self.loose, b.value, self.build_piece(optional=True),
                                   min_group=1, partner=b.value - sc, required=loose,
                                   score=_most)
                if split is not None:
                    wider.append(Move(ADD, card, split.cards, (b,), b.value))
            for rb, w in opts.raises:
                if rb == b:
                    split = best_split(self.loose, w, self.build_piece(optional=True),
                                       min_group=1, required=loose, score=_most)
                    if split is not None:
                        wider.append(Move(RAISE, card, split.cards, (b,), w))
        more = [m for m in (self.find(w) for w in dict.fromkeys(wider))
                if m is not None and m not in exact]
        return Selected(tuple(exact), tuple(ranked(more)), False)

    def moves_of(self, card: int) -> MoveList:
        if card not in self.hand:
            return MoveList((), True)
        listed = listing(self.pos)
        if listed is not None:
            return MoveList(tuple(m for m in listed if m.card == card), True)
        return MoveList(tuple(ranked(self._selection(card))), False)

    def _selection(self, card: int) -> list[Move]:
        """A bounded set of legal moves of ``card`` on a crowded table: the best capture
        of each value (with the builds of that value and without), and the smallest and
        a large (greedy, maximal) build, addition and raise of each kind."""
        opts = self.options(card)
        found: list[Move] = []
        if opts.trail:
            found.append(Move(TRAIL, card))
        for v in opts.captures:
            vbuilds = tuple(sorted(b for b in self.builds if v and b.value == v))
            split = self.best_capture(card, v, count_first=self.compulsory)
            loose = split.cards if split else ()
            for taken in dict.fromkeys((vbuilds, ())):
                if self.compulsory and taken:
                    continue
                if loose or taken:
                    found.append(Move(CAPTURE, card, loose, taken))
            if not self.compulsory:
                found.extend(self.exact_best_captures(card, v, vbuilds))
        sc = self.table.sum_value[card]
        piece = self.build_piece()
        for v in opts.builds:
            fewest = fewest_group(self.loose, v - sc if v > sc else v, piece)
            if fewest:
                found.append(Move(BUILD, card, tuple(sorted(fewest)), (), v))
            split = best_split(self.loose, v, self.build_piece(optional=True), min_group=1,
                               partner=v - sc if v > sc else v, score=_most, greedy=True)
            if split is not None and split.cards:
                found.append(Move(BUILD, card, split.cards, (), v))
        for b in opts.adds:
            fewest = fewest_group(self.loose, b.value - sc, piece)
            if fewest is not None:
                found.append(Move(ADD, card, tuple(sorted(fewest)), (b,), b.value))
            split = best_split(self.loose, b.value, self.build_piece(optional=True),
                               min_group=1, partner=b.value - sc, score=_most, greedy=True)
            if split is not None:
                found.append(Move(ADD, card, split.cards, (b,), b.value))
        for b, w in opts.raises:
            found.append(Move(RAISE, card, (), (b,), w))
            split = best_split(self.loose, w, self.build_piece(optional=True), min_group=1,
                               score=_most, greedy=True)
            if split is not None and split.cards:
                found.append(Move(RAISE, card, split.cards, (b,), w))
        out: list[Move] = []
        for m in dict.fromkeys(found):
            legal = self.find(m)
            if legal is not None:
                out.append(legal)
        return out


def _display(groups: Sequence[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """Groups in the order moves show them: each high card first, short groups first."""
    return tuple(sorted((tuple(sorted(g, reverse=True)) for g in groups),
                        key=lambda g: (len(g), g)))


def _most(card: int) -> int:
    """Every card covered counts: the largest build."""
    return 1


def _build_groups(card: int, split: Split) -> tuple[tuple[int, ...], ...]:
    first = (card, *(split.partner or ()))
    return (first, *split.blocks)


_KIND_ORDER = {CAPTURE: 0, BUILD: 1, ADD: 2, RAISE: 3, TRAIL: 4}


def ranked(moves: Sequence[Move]) -> list[Move]:
    """Moves in the order lists show them to people: captures first (most cards, then
    most worth, first), then builds, additions, raises, the trail last."""
    def key(m: Move) -> tuple[int, int, int, int]:
        taken = len(m.loose) + sum(len(b.cards) for b in m.builds)
        w = sum(worth(c) for c in m.loose) + sum(worth(c) for b in m.builds for c in b.cards)
        return (_KIND_ORDER[m.kind], -taken, -w, m.value)
    return sorted(moves, key=key)
