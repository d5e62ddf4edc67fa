"""A ruleset's scoring as data: the items of a round in counting order (docs/rules.md §2.7, §3-§6).

:func:`scheme` reads a :class:`~casino.engine.rules.Rules` once and says what a round
scores and in which order: majorities, cards that score by themselves, spades
counted one by one, sweeps, mulles and the last capture. It is the one place that
knows which cards score and what they are worth; the scorer
(:func:`casino.engine.scoring.round_items`), the rules summary, the score pad, the
bots' card weights and the narration all read it instead of keeping a copy.

This module imports :class:`Rules` only for type checking, so that
:mod:`casino.engine.rules` can use it to write its summary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from casino.engine.cards import ACE, CLUBS, DIAMONDS, JACK, KING, QUEEN, SPADES, card, card_text
from casino.engine.memo import per_rules

if TYPE_CHECKING:
    from casino.engine.rules import Rules

TEN_DIAMONDS = card(9, DIAMONDS)
TWO_SPADES = card(1, SPADES)
TWO_CLUBS = card(1, CLUBS)
JACK_SPADES = card(JACK, SPADES)
ACES = tuple(card(ACE, s) for s in range(4))
#: Tablić's counting cards besides the 2♣: every A, K, Q, J and 10, rank by rank.
TABLIC_COUNTERS = tuple(card(rank, suit) for rank in (ACE, KING, QUEEN, JACK, 9)
                        for suit in range(4))


def is_spade(c: int) -> bool:
    """Whether ``c`` is a spade (the spade majorities and spade points count them)."""
    return c & 3 == SPADES


@dataclass(frozen=True, slots=True)
class Majority:
    """Most cards (``what="cards"``) or most spades (``"spades"``) for ``points``.

    ``ties``: ``"lost"`` (nobody scores a tie), ``"carry"`` (Finnish most cards: a tie
    carries to the next round) or ``"split-or-carry"`` (Finnish most spades: two
    tied players share it, more, or four sides, carry it). ``carries``: carried
    points from the previous round are added (Finnish Kasino only)."""

    what: Literal["cards", "spades"]
    points: int
    ties: Literal["lost", "carry", "split-or-carry"] = "lost"
    carries: bool = False


@dataclass(frozen=True, slots=True)
class CardPoints:
    """Each copy of ``card`` scores ``points`` for the side that took it."""

    card: int
    points: int

    @property
    def name(self) -> str:
        """The card's canonical text, as the item is named in a round's score."""
        return card_text(self.card)


@dataclass(frozen=True, slots=True)
class EachSpade:
    """Every spade not in ``besides`` scores ``points`` (Spade Casino by side;
    Krypkasino's other spades by player, ``by_seat``)."""

    points: int = 1
    besides: tuple[int, ...] = ()
    by_seat: bool = False


@dataclass(frozen=True, slots=True)
class SpadesAbove:
    """Finnish two-player option: a point for each spade a side has above ``count``."""

    count: int = 7


@dataclass(frozen=True, slots=True)
class Sweeps:
    """Each sweep scores ``points``. ``cancel``: a new sweep of another side knocks
    one down (Finnish option). ``previous_loses``: Krypkasino, the player before the
    sweeper has the points taken off."""

    points: int
    cancel: bool = False
    previous_loses: bool = False


@dataclass(frozen=True, slots=True)
class Mulles:
    """Each mulle (a card taken alone by its identical twin) scores ``points``."""

    points: int


@dataclass(frozen=True, slots=True)
class LastCapture:
    """The last capture of the round scores ``points``."""

    points: int


ScoringItem = Majority | CardPoints | EachSpade | SpadesAbove | Sweeps | Mulles | LastCapture


@dataclass(frozen=True, slots=True)
class Scheme:
    """A ruleset's scoring: ``items`` in counting order; ``penalty``: the points are
    penalties (Krypkasino: the lower total wins)."""

    items: tuple[ScoringItem, ...]
    penalty: bool = False

    def card_points(self) -> tuple[CardPoints, ...]:
        """The cards that score by themselves, in counting order."""
        return tuple(i for i in self.items if isinstance(i, CardPoints))

    def points_of(self, c: int) -> int:
        """What card ``c`` scores by itself (named card items and spades counted one by
        one; majorities not included), in the scheme's own sign (penalties positive)."""
        total = 0
        for i in self.items:
            named = isinstance(i, CardPoints) and i.card == c
            counted = isinstance(i, EachSpade) and is_spade(c) and c not in i.besides
            if named or counted:
                total += i.points  # type: ignore[union-attr]
        return total

    def majority(self, what: Literal["cards", "spades"]) -> Majority | None:
        """The most-cards or most-spades item, or None when the ruleset scores none."""
        return next((i for i in self.items if isinstance(i, Majority) and i.what == what), None)

    def each_spade(self) -> EachSpade | None:
        """The item that scores every spade, or None (only Spade Casino and Krypkasino have
        one)."""
        return next((i for i in self.items if isinstance(i, EachSpade)), None)

    def spades_above(self) -> SpadesAbove | None:
        """The item that scores the spades above 7 (Finnish Kasino's option), or None."""
        return next((i for i in self.items if isinstance(i, SpadesAbove)), None)


_KRYPKASINO_PENALTIES = (CardPoints(TEN_DIAMONDS, 3), CardPoints(TWO_SPADES, 2),
                         CardPoints(ACES[0], 2), *(CardPoints(a, 1) for a in ACES[1:]))


@per_rules
def scheme(rules: Rules) -> Scheme:
    """The scoring items of ``rules`` in counting order; items the ruleset makes
    worth nothing are left out (Krypkasino's sweeps, and Finnish most spades, are
    listed whatever their points, as the scorer always has).

    Memoised by the Rules object's identity: the scorer calls this for every round
    a bot plays out, and hashing a Rules value field by field costs more than
    building the scheme."""
    return _build(rules)


def _build(rules: Rules) -> Scheme:
    kind = rules.scoring
    if kind == "krypkasino":
        # Penalties (docs/rules.md §3.4): the named cards, other spades 1 each, then
        # sweeps +5 to the sweeper and -5 to the player before.
        return Scheme((*_KRYPKASINO_PENALTIES,
                       EachSpade(1, besides=(TWO_SPADES, ACES[0]), by_seat=True),
                       Sweeps(rules.sweep_points, previous_loses=True)), penalty=True)
    items: list[ScoringItem] = []
    kasino = kind == "kasino"
    if rules.cards_points:
        items.append(Majority("cards", rules.cards_points,
                              "carry" if kasino else "lost", carries=kasino))
    if kind == "spade":
        items.append(EachSpade(1))
        items.append(CardPoints(JACK_SPADES, 1))
    elif kasino:
        items.append(SpadesAbove(7) if rules.spades_above_7 else
                     Majority("spades", rules.spades_points, "split-or-carry", carries=True))
    elif kind != "tablic" and rules.spades_points:
        items.append(Majority("spades", rules.spades_points))
    if kind == "tablic":
        items.extend(CardPoints(c, 2 if c == TEN_DIAMONDS else 1) for c in TABLIC_COUNTERS)
        items.append(CardPoints(TWO_CLUBS, 1))
    elif kasino:
        items.extend(CardPoints(a, 1) for a in ACES)
        items.extend((CardPoints(TEN_DIAMONDS, 2), CardPoints(TWO_SPADES, 1)))
    else:
        items.extend((CardPoints(TEN_DIAMONDS, 2), CardPoints(TWO_SPADES, 1)))
        items.extend(CardPoints(a, 1) for a in ACES)
    if rules.sweep_points:
        items.append(Sweeps(rules.sweep_points, cancel=rules.sweeps_cancel))
    if rules.mulle_points:
        items.append(Mulles(rules.mulle_points))
    if rules.last_capture_points:
        items.append(LastCapture(rules.last_capture_points))
    return Scheme(tuple(items))
