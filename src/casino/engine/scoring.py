"""Scoring a round in counting order, and deciding the game (docs/rules.md §2.7-2.8, §3-§6).

One function makes a round's items in the order players count them
(:func:`round_items`); one adds them to the game totals and finds the winner
(:func:`settle`). The score pad and the engine both call these, so there is
one copy of each scoring rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casino.engine.cards import ACE, CLUBS, DIAMONDS, JACK, KING, QUEEN, SPADES, card, card_text
from casino.engine.rules import Rules

TEN_DIAMONDS = card(9, DIAMONDS)
TWO_SPADES = card(1, SPADES)
TWO_CLUBS = card(1, CLUBS)
JACK_SPADES = card(JACK, SPADES)
ACES = tuple(card(ACE, s) for s in range(4))


@dataclass(frozen=True, slots=True)
class Item:
    """One scored item: ``item`` is a short name (``cards``, ``spades``, ``Td``,
    ``sweep``, ``mulle``, ``last``), ``seat`` the seat it goes to (the first seat of
    a partnership), ``points`` its points (negative where a rule takes points off)."""

    item: str
    seat: int
    points: int

    def to_json(self) -> dict[str, object]:
        return {"item": self.item, "seat": self.seat, "points": self.points}


@dataclass(frozen=True, slots=True)
class Result:
    """A scored round: items in counting order, the new totals, the game's winner."""

    items: tuple[Item, ...]
    scores: tuple[int, ...]
    winner: int | None

    def to_json(self) -> dict[str, object]:
        return {
            "items": [i.to_json() for i in self.items],
            "scores": list(self.scores),
            "winner": self.winner,
        }

    def points_by_seat(self, players: int) -> list[int]:
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


def _team_piles(rules: Rules, piles: Sequence[Sequence[int]]) -> dict[int, list[int]]:
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


def _is_spade(c: int) -> bool:
    return c & 3 == SPADES


def round_items(rules: Rules, piles: Sequence[Sequence[int]], sweeps: Sequence[int],
                mulles: Sequence[int] = (), last_capture: int | None = None,
                carry: Carry = Carry()) -> list[Item]:
    """The round's items in counting order; items worth nothing are left out."""
    scheme = rules.scoring
    if scheme == "krypkasino":
        return _krypkasino_items(rules, piles, sweeps)
    teams = _team_piles(rules, piles)
    items: list[Item] = []
    cards_worth = rules.cards_points + carry.cards
    if rules.cards_points:
        lead = _unique_max({t: len(p) for t, p in teams.items()})
        if lead is not None:
            items.append(Item("cards", lead, cards_worth))
    spade_counts = {t: sum(1 for c in p if _is_spade(c)) for t, p in teams.items()}
    if scheme == "spade":
        for t, n in spade_counts.items():
            if n:
                items.append(Item("spades", t, n))
        for t in _holders(rules, piles, JACK_SPADES):
            items.append(Item("Js", t, 1))
    elif scheme == "kasino":
        items.extend(_kasino_spades(rules, spade_counts, carry))
    elif scheme != "tablic" and rules.spades_points:
        lead = _unique_max(spade_counts)
        if lead is not None:
            items.append(Item("spades", lead, rules.spades_points))
    if scheme == "tablic":
        items.extend(_tablic_cards(rules, piles))
    elif scheme == "kasino":
        items.extend(_aces(rules, piles))
        items.extend(Item("Td", t, 2) for t in _holders(rules, piles, TEN_DIAMONDS))
        items.extend(Item("2s", t, 1) for t in _holders(rules, piles, TWO_SPADES))
    else:
        items.extend(Item("Td", t, 2) for t in _holders(rules, piles, TEN_DIAMONDS))
        items.extend(Item("2s", t, 1) for t in _holders(rules, piles, TWO_SPADES))
        items.extend(_aces(rules, piles))
    items.extend(_sweep_items(rules, sweeps))
    if rules.mulle_points:
        items.extend(Item("mulle", rules.team_of(s), rules.mulle_points) for s in mulles)
    if rules.last_capture_points and last_capture is not None:
        items.append(Item("last", rules.team_of(last_capture), rules.last_capture_points))
    return items


def point_cards(rules: Rules) -> tuple[int, ...]:
    """The cards that score on their own in ``rules`` (penalties in Krypkasino), in
    counting order: what players watch for in each pile. Spades that count only
    towards most spades are not among them; Spade Casino's spades, each worth a
    point, are counted apart from these too."""
    scheme = rules.scoring
    if scheme == "tablic":
        return (*(card(rank, suit) for rank in (ACE, KING, QUEEN, JACK, 9)
                  for suit in range(4)), TWO_CLUBS)
    if scheme == "krypkasino":
        return tuple(c for c, _ in _KRYP_PENALTIES)
    if scheme == "kasino":
        return (*ACES, TEN_DIAMONDS, TWO_SPADES)
    first = (JACK_SPADES,) if scheme == "spade" else ()
    return (*first, TEN_DIAMONDS, TWO_SPADES, *ACES)


def _aces(rules: Rules, piles: Sequence[Sequence[int]]) -> list[Item]:
    return [Item(card_text(a), t, 1) for a in ACES for t in _holders(rules, piles, a)]


def _sweep_items(rules: Rules, sweeps: Sequence[int]) -> list[Item]:
    if not rules.sweep_points:
        return []
    standing = list(sweeps)
    if rules.sweeps_cancel:
        standing = []
        for seat in sweeps:
            side = rules.team_of(seat)
            victim = next((k for k, s in enumerate(standing) if rules.team_of(s) != side), None)
            if victim is None:
                standing.append(seat)
            else:
                del standing[victim]
    return [Item("sweep", rules.team_of(s), rules.sweep_points) for s in standing]


def _kasino_spades(rules: Rules, counts: dict[int, int], carry: Carry) -> list[Item]:
    if rules.spades_above_7:
        return [Item("spades", t, n - 7) for t, n in counts.items() if n > 7]
    worth = rules.spades_points + carry.spades
    best = max(counts.values())
    leaders = [t for t, n in counts.items() if n == best]
    if len(leaders) == 1:
        return [Item("spades", leaders[0], worth)]
    if len(rules.teams) == 4 or len(leaders) > 2:
        return []  # carried to the next round (see next_carry)
    return [Item("spades", t, worth // 2) for t in leaders]


def next_carry(rules: Rules, piles: Sequence[Sequence[int]], carry: Carry) -> Carry:
    """Finnish Kasino (docs/rules.md §4): a tied most-cards point, and a four-player spade tie,
    carry to the next round, where they are worth their own points as well."""
    if rules.scoring != "kasino":
        return Carry()
    teams = _team_piles(rules, piles)
    cards_tied = _unique_max({t: len(p) for t, p in teams.items()}) is None
    spades = {t: sum(1 for c in p if _is_spade(c)) for t, p in teams.items()}
    best = max(spades.values())
    leaders = [t for t, n in spades.items() if n == best]
    spades_tied = (not rules.spades_above_7 and len(leaders) > 1
                   and (len(rules.teams) == 4 or len(leaders) > 2))
    return Carry(
        cards=rules.cards_points + carry.cards if cards_tied else 0,
        spades=rules.spades_points + carry.spades if spades_tied else 0,
    )


def _tablic_cards(rules: Rules, piles: Sequence[Sequence[int]]) -> list[Item]:
    items: list[Item] = []
    for rank in (ACE, KING, QUEEN, JACK, 9):
        for suit in range(4):
            c = card(rank, suit)
            worth = 2 if c == TEN_DIAMONDS else 1
            items.extend(Item(card_text(c), t, worth) for t in _holders(rules, piles, c))
    items.extend(Item("2c", t, 1) for t in _holders(rules, piles, TWO_CLUBS))
    return items


_KRYP_PENALTIES = ((TEN_DIAMONDS, 3), (TWO_SPADES, 2), (ACES[0], 2), (ACES[1], 1),
                   (ACES[2], 1), (ACES[3], 1))


def _krypkasino_items(rules: Rules, piles: Sequence[Sequence[int]],
                      sweeps: Sequence[int]) -> list[Item]:
    """Penalties (docs/rules.md §3.4): the named cards, other spades 1 each, then
    sweeps +5 / -5."""
    items: list[Item] = []
    for c, pts in _KRYP_PENALTIES:
        items.extend(Item(card_text(c), t, pts) for t in _holders(rules, piles, c))
    named = {TWO_SPADES, ACES[0]}
    for seat, pile in enumerate(piles):
        n = sum(1 for c in pile if _is_spade(c) and c not in named)
        if n:
            items.append(Item("spades", rules.team_of(seat), n))
    for seat in sweeps:
        items.append(Item("sweep", seat, rules.sweep_points))
        other = (seat - rules.direction) % rules.players  # the previous player (docs/rules.md K4)
        items.append(Item("sweep", other, -rules.sweep_points))
    return items


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
