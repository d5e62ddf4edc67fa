"""Scoring a round in counting order, and deciding the game (docs/rules.md §2.7-2.8, §3-§6).

One function makes a round's items in the order players count them
(:func:`round_items`); one adds them to the game totals and finds the winner
(:func:`settle`). The score pad and the engine both call these, so there is
one copy of each scoring rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casino.engine.rules import Rules
from casino.engine.scheme import (
    ACES,
    JACK_SPADES,
    TEN_DIAMONDS,
    TWO_CLUBS,
    TWO_SPADES,
    CardPoints,
    EachSpade,
    LastCapture,
    Majority,
    Mulles,
    SpadesAbove,
    Sweeps,
    is_spade,
    scheme,
)

__all__ = ["ACES", "JACK_SPADES", "TEN_DIAMONDS", "TWO_CLUBS", "TWO_SPADES", "Carry", "Item",
           "Result", "next_carry", "point_cards", "round_items", "settle"]


@dataclass(frozen=True, slots=True)
class Item:
    """One scored item: ``item`` is a short name (``cards``, ``spades``, ``Td``,
    ``sweep``, ``mulle``, ``last``), ``seat`` the seat it goes to (the first seat of
    a partnership), ``points`` its points (negative where a rule takes points off)."""

    item: str
    seat: int
    points: int

    def to_json(self) -> dict[str, object]:
        """The item as the JSON of a round's result gives it (docs/position.md)."""
        return {"item": self.item, "seat": self.seat, "points": self.points}


@dataclass(frozen=True, slots=True)
class Result:
    """A scored round: items in counting order, the new totals, the game's winner."""

    items: tuple[Item, ...]
    scores: tuple[int, ...]
    winner: int | None

    def to_json(self) -> dict[str, object]:
        """The result as JSON: items in counting order, the new totals, the winner or null."""
        return {
            "items": [i.to_json() for i in self.items],
            "scores": list(self.scores),
            "winner": self.winner,
        }

    def points_by_seat(self, players: int) -> list[int]:
        """The points each seat's items scored this round (a partnership's items go to its
        first seat)."""
        out = [0] * players
        for i in self.items:
            out[i.seat] += i.points
        return out


@dataclass(frozen=True, slots=True)
class Carry:
    """Finnish Kasino: points of a tied majority carried into the next round."""

    cards: int = 0
    spades: int = 0

    def __bool__(self) -> bool:
        return bool(self.cards or self.spades)


def team_piles(rules: Rules, piles: Sequence[Sequence[int]]) -> dict[int, list[int]]:
    """Each side's captured cards together, by its first seat: partners score as one."""
    teams: dict[int, list[int]] = {t: [] for t in rules.teams}
    for seat, pile in enumerate(piles):
        teams[rules.team_of(seat)].extend(pile)
    return teams


def _unique_max(counts: dict[int, int]) -> int | None:
    best = max(counts.values())
    leaders = [t for t, n in counts.items() if n == best]
    return leaders[0] if len(leaders) == 1 else None


def _holders(rules: Rules, piles: Sequence[Sequence[int]], target: int) -> list[int]:
    """The sides holding each copy of ``target``, in seat order."""
    out = []
    for seat, pile in enumerate(piles):
        out.extend([rules.team_of(seat)] * sum(1 for c in pile if c == target))
    return out


def round_items(rules: Rules, piles: Sequence[Sequence[int]], sweeps: Sequence[int],
                mulles: Sequence[int] = (), last_capture: int | None = None,
                carry: Carry = Carry()) -> list[Item]:
    """The round's items in counting order (as :func:`casino.engine.scheme.scheme`
    lists them for ``rules``); items worth nothing are left out."""
    teams = team_piles(rules, piles)
    items: list[Item] = []
    for entry in scheme(rules).items:
        if isinstance(entry, Majority):
            items.extend(_majority(rules, entry, teams, carry))
        elif isinstance(entry, CardPoints):
            items.extend(Item(entry.name, t, entry.points)
                         for t in _holders(rules, piles, entry.card))
        elif isinstance(entry, EachSpade):
            items.extend(_each_spade(rules, entry, piles, teams))
        elif isinstance(entry, SpadesAbove):
            counts = _spade_counts(teams)
            items.extend(Item("spades", t, n - entry.count)
                         for t, n in counts.items() if n > entry.count)
        elif isinstance(entry, Sweeps):
            items.extend(_sweep_items(rules, entry, sweeps))
        elif isinstance(entry, Mulles):
            items.extend(Item("mulle", rules.team_of(s), entry.points) for s in mulles)
        elif isinstance(entry, LastCapture) and last_capture is not None:
            items.append(Item("last", rules.team_of(last_capture), entry.points))
    return items


def point_cards(rules: Rules) -> tuple[int, ...]:
    """The cards that score on their own in ``rules`` (penalties in Krypkasino), in
    counting order: what players watch for in each pile. Spades that count only
    towards most spades are not among them; Spade Casino's spades, each worth a
    point, are counted apart from these too."""
    return tuple(i.card for i in scheme(rules).card_points())


def _spade_counts(teams: dict[int, list[int]]) -> dict[int, int]:
    return {t: sum(1 for c in p if is_spade(c)) for t, p in teams.items()}


def _majority(rules: Rules, entry: Majority, teams: dict[int, list[int]],
              carry: Carry) -> list[Item]:
    """Most cards or most spades; a tie as ``entry.ties`` says (a carried tie is
    settled by :func:`next_carry`)."""
    if entry.what == "cards":
        counts = {t: len(p) for t, p in teams.items()}
        worth = entry.points + carry.cards
    else:
        counts = _spade_counts(teams)
        worth = entry.points + (carry.spades if entry.carries else 0)
    best = max(counts.values())
    leaders = [t for t, n in counts.items() if n == best]
    if len(leaders) == 1:
        return [Item(entry.what, leaders[0], worth)]
    if entry.ties != "split-or-carry" or len(rules.teams) == 4 or len(leaders) > 2:
        return []
    return [Item(entry.what, t, worth // 2) for t in leaders]


def _each_spade(rules: Rules, entry: EachSpade, piles: Sequence[Sequence[int]],
                teams: dict[int, list[int]]) -> list[Item]:
    def count(pile: Sequence[int]) -> int:
        return sum(entry.points for c in pile if is_spade(c) and c not in entry.besides)
    if entry.by_seat:
        pairs = [(rules.team_of(seat), count(pile)) for seat, pile in enumerate(piles)]
    else:
        pairs = [(t, count(p)) for t, p in teams.items()]
    return [Item("spades", t, n) for t, n in pairs if n]


def _sweep_items(rules: Rules, entry: Sweeps, sweeps: Sequence[int]) -> list[Item]:
    if entry.previous_loses:
        items: list[Item] = []
        for seat in sweeps:
            items.append(Item("sweep", seat, entry.points))
            # the previous player (docs/rules.md K4)
            other = (seat - rules.direction) % rules.players
            items.append(Item("sweep", other, -entry.points))
        return items
    standing = list(sweeps)
    if entry.cancel:
        standing = []
        for seat in sweeps:
            side = rules.team_of(seat)
            victim = next((k for k, s in enumerate(standing) if rules.team_of(s) != side), None)
            if victim is None:
                standing.append(seat)
            else:
                del standing[victim]
    return [Item("sweep", rules.team_of(s), entry.points) for s in standing]


def next_carry(rules: Rules, piles: Sequence[Sequence[int]], carry: Carry) -> Carry:
    """Finnish Kasino (docs/rules.md §4): a tied most-cards point, and a four-player spade tie,
    carry to the next round, where they are worth their own points as well."""
    if rules.scoring != "kasino":
        return Carry()
    teams = team_piles(rules, piles)
    cards_tied = _unique_max({t: len(p) for t, p in teams.items()}) is None
    spades = _spade_counts(teams)
    best = max(spades.values())
    leaders = [t for t, n in spades.items() if n == best]
    spades_tied = (not rules.spades_above_7 and len(leaders) > 1
                   and (len(rules.teams) == 4 or len(leaders) > 2))
    return Carry(
        cards=rules.cards_points + carry.cards if cards_tied else 0,
        spades=rules.spades_points + carry.spades if spades_tied else 0,
    )


def settle(rules: Rules, items: Sequence[Item], scores: Sequence[int],
           round_number: int) -> Result:
    """Add ``items`` to the game totals and decide the game (docs/rules.md §2.8, §3,
    §4, §5)."""
    totals = {t: scores[t] for t in rules.teams}
    winner: int | None = None
    if rules.win_rule == "counting-order":
        for it in items:
            totals[it.seat] += it.points
            if winner is None and totals[it.seat] >= rules.target:
                winner = it.seat
    else:
        for it in items:
            totals[it.seat] += it.points
        if rules.win_rule == "higher-total":
            reached = {t: v for t, v in totals.items() if v >= rules.target}
            if reached:
                winner = _unique_max(reached)
        elif round_number % rules.games_per_match == 0:
            low = min(totals.values())
            lows = [t for t, v in totals.items() if v == low]
            winner = lows[0] if len(lows) == 1 else None
    new_scores = tuple(totals[rules.team_of(s)] for s in range(rules.players))
    return Result(tuple(items), new_scores, winner)
