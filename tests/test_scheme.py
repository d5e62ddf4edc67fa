"""The scoring scheme as data (casino.engine.scheme) against the scorer it replaced.

Until the scheme was written, ``round_items`` had a code path per variant, and the
score pad, the bots and the narration each kept their own list of scoring cards.
The old scorer and the bots' old per-card points are kept below, verbatim, as the
reference: the scheme-driven scorer must give exactly the same items in the same
order for every preset, every player count and every scoring option, on random
piles, sweeps, mulles, last captures and Finnish carries.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence

import pytest

from casino.bots.evaluation import direct_points
from casino.engine.cards import ACE, CLUBS, DIAMONDS, JACK, KING, QUEEN, SPADES, card, card_text
from casino.engine.rules import Rules, Scoring, player_counts, preset
from casino.engine.scheme import scheme
from casino.engine.scoring import Carry, Item, next_carry, point_cards, round_items
from casino.tools.scorepad import scoring_cards

PRESETS = ("casino", "krypkasino", "kasino", "classic", "royal", "spade", "faces-all",
           "mulle", "tablic")
SCHEMES: tuple[Scoring, ...] = ("casino", "krypkasino", "kasino", "spade", "mulle", "tablic")

TEN_DIAMONDS = card(9, DIAMONDS)
TWO_SPADES = card(1, SPADES)
TWO_CLUBS = card(1, CLUBS)
JACK_SPADES = card(JACK, SPADES)
ACES = tuple(card(ACE, s) for s in range(4))

# ---------------------------------------------------------------------------
# The scorer before the scheme (engine/scoring.py at the time), kept verbatim.

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


def old_round_items(rules: Rules, piles: Sequence[Sequence[int]], sweeps: Sequence[int],
                mulles: Sequence[int] = (), last_capture: int | None = None,
                carry: Carry = Carry()) -> list[Item]:  # noqa: B008 (verbatim)
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


def old_point_cards(rules: Rules) -> tuple[int, ...]:
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


def _old_next_carry(rules: Rules, piles: Sequence[Sequence[int]], carry: Carry) -> Carry:
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


# The bots' per-card points before the scheme (bots/evaluation.py at the time).

_KRYP_PENALTY = {TEN_DIAMONDS: 3, TWO_SPADES: 2, ACES[0]: 2, ACES[1]: 1, ACES[2]: 1, ACES[3]: 1}
_TABLIC_RANKS = (ACE, KING, QUEEN, JACK, 9)


def old_direct_points(rules: Rules, c: int) -> float:
    """What card ``c`` scores by itself for its capturer, in good-for-the-holder points
    (Krypkasino: minus its penalty). Majorities are not included."""
    scheme = rules.scoring
    if scheme == "krypkasino":
        return -float(_KRYP_PENALTY.get(c, 1 if _is_spade(c) else 0))
    if scheme == "tablic":
        if c == TEN_DIAMONDS:
            return 2.0
        if c >> 2 in _TABLIC_RANKS or c == TWO_CLUBS:
            return 1.0
        return 0.0
    pts = 0.0
    if c == TEN_DIAMONDS:
        pts += 2
    if c == TWO_SPADES:
        pts += 1
    if c >> 2 == ACE:
        pts += 1
    if scheme == "spade" and _is_spade(c):
        pts += 2 if c == JACK_SPADES else 1
    if scheme == "kasino" and rules.spades_above_7 and _is_spade(c):
        # Each spade above 7 scores 1: a spade is worth about half a point before the
        # count is known (a rough share, documented rather than modelled).
        pts += 0.5
    return pts



def old_scoring_cards(rules: Rules) -> tuple[int, ...]:
    """The score pad's scoring cards before the scheme (tools/scorepad.py)."""
    scheme = rules.scoring
    if scheme == "tablic":
        named = [card(r, s) for r in (ACE, KING, QUEEN, JACK, 9) for s in range(4)]
        return (*named, TWO_CLUBS)
    if scheme == "kasino":
        return (*ACES, TEN_DIAMONDS, TWO_SPADES)
    if scheme == "spade":
        return (JACK_SPADES, TEN_DIAMONDS, TWO_SPADES, *ACES)
    return (TEN_DIAMONDS, TWO_SPADES, *ACES)


# ---------------------------------------------------------------------------


def _variants(name: str) -> list[Rules]:
    """Every scoring option of preset ``name`` at each of its player counts (the
    options set straight on the Rules, as a saved game or an option may)."""
    out = []
    for players in player_counts(name):
        base = preset(name, players=players)
        teams = (False, True) if players == 4 else (base.partnerships,)
        for (scoring, cards, spades, last, mulle, above7, sweep, cancel,
             partners) in itertools.product(SCHEMES, (0, 3), (0, 1, 2), (0, 1), (0, 5),
                                           (False, True), (0, 5), (False, True), teams):
            out.append(dataclasses.replace(
                base, scoring=scoring, cards_points=cards, spades_points=spades,
                last_capture_points=last, mulle_points=mulle, spades_above_7=above7,
                sweep_points=sweep, sweeps_cancel=cancel, partnerships=partners))
    return out


def _round(rules: Rules, rng: random.Random) -> tuple[list[list[int]], list[int], list[int],
                                                     int | None, Carry]:
    deck = [c for c in range(52) for _ in range(rules.decks)]
    rng.shuffle(deck)
    deck = deck[:rng.choice((len(deck), len(deck), rng.randrange(len(deck) + 1)))]
    piles: list[list[int]] = [[] for _ in range(rules.players)]
    if rng.random() < 0.3:  # equal piles: ties for most cards
        for k, c in enumerate(deck[:len(deck) - len(deck) % rules.players]):
            piles[k % rules.players].append(c)
    else:
        for c in deck:
            piles[rng.randrange(rules.players)].append(c)
    seats = range(rules.players)
    sweeps = [rng.choice(seats) for _ in range(rng.randrange(6))]
    mulles = [rng.choice(seats) for _ in range(rng.randrange(3))]
    last = rng.choice([None, *seats])
    carry = (Carry(rng.choice((0, 1, 2)), rng.choice((0, 2, 4))) if rules.scoring == "kasino"
             else Carry())
    return piles, sweeps, mulles, last, carry


@pytest.mark.parametrize("stride", [3, pytest.param(1, marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", PRESETS)
def test_round_items_as_before(name: str, stride: int) -> None:
    """Every third variant in the fast suite, every one in the slow suite."""
    rng = random.Random(f"scheme-{name}")
    for rules in _variants(name)[::stride]:
        piles, sweeps, mulles, last, carry = _round(rules, rng)
        new = round_items(rules, piles, sweeps, mulles, last, carry)
        old = old_round_items(rules, piles, sweeps, mulles, last, carry)
        assert new == old, (rules, piles, sweeps, mulles, last, carry)
        assert next_carry(rules, piles, carry) == _old_next_carry(rules, piles, carry), \
            (rules, piles, carry)


@pytest.mark.parametrize("name", PRESETS)
def test_card_facts_as_before(name: str) -> None:
    seen = set()
    for rules in _variants(name):
        # The card facts depend on the scheme's kind and the spades-above-7 option only.
        key = (rules.scoring, rules.spades_above_7, rules.decks)
        if key in seen:
            continue
        seen.add(key)
        assert point_cards(rules) == old_point_cards(rules)
        assert scoring_cards(rules) == old_scoring_cards(rules)
        assert [direct_points(rules, c) for c in range(52)] == \
            [old_direct_points(rules, c) for c in range(52)], rules


def test_scheme_reads_the_fields() -> None:
    """A few items spelled out, so a reader sees what the data says."""
    casino = scheme(preset("casino"))
    assert [type(i).__name__ for i in casino.items] == [
        "Majority", "Majority", "CardPoints", "CardPoints", "CardPoints", "CardPoints",
        "CardPoints", "CardPoints", "Sweeps"]
    assert [(card_text(i.card), i.points) for i in casino.card_points()] == [
        ("Td", 2), ("2s", 1), ("As", 1), ("Ac", 1), ("Ah", 1), ("Ad", 1)]
    kryp = scheme(preset("krypkasino"))
    assert kryp.penalty and kryp.points_of(TEN_DIAMONDS) == 3
    assert kryp.points_of(card(KING, SPADES)) == 1 and kryp.points_of(TWO_SPADES) == 2
    assert scheme(preset("spade")).points_of(JACK_SPADES) == 2



def test_rules_summary_is_written_from_the_scheme() -> None:
    """`casino rules` says what the scorer counts, options included."""
    from casino.engine.rules import describe

    def scoring_line(rules: Rules) -> str:
        return next(x for x in describe(rules) if x.startswith("Scoring: "))

    assert scoring_line(preset("casino")) == (
        "Scoring: most cards 3, most spades 1, Td 2, 2s 1, each Ace 1 (in the order "
        "As Ac Ah Ad), each sweep 1.")
    assert "each sweep 5" in scoring_line(preset("casino", sweep_points=5))
    assert "(42 a game)" in scoring_line(preset("krypkasino"))
    assert "each As 2, each other Ace 1" in scoring_line(preset("krypkasino"))
    assert "Td 2, each other A K Q J 10 1, 2c 1, each tabla 1" in scoring_line(preset("tablic"))
    assert "last capture 1" in scoring_line(preset("kasino", last_capture_points=1))
