"""Random-simulation invariants (OpenSpiel style): every preset, every player count.

Seeded games of uniformly random legal moves are played with :class:`casino.engine.match.Match`
and every position on the way is checked against rules that hold at every node,
whatever was played: every card is accounted for, a legal move exists, moves are
listed once and round-trip through their text, positions round-trip through JSON,
observations hide exactly the hidden cards, builds add up and their owners hold a
card of their value, deals hand out the right cards to the right seats, and each
round's points add up to the total the ruleset fixes (docs/rules.md §2.7, §3-§6).

The checks are written from docs/rules.md, not from the engine's code, so that a
disagreement shows up as a failure here. The default run plays a few seeds per
configuration; ``-m slow`` plays many more.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from casino import Build, Match, Move, Position
from casino.engine.moves import CAPTURE, TRAIL
from casino.engine.rules import Rules, preset

CONFIGS: list[tuple[str, int]] = [
    ("casino", 2),
    ("krypkasino", 2),
    *[(name, n) for name in ("kasino", "classic", "royal", "spade", "faces-all", "mulle",
                             "tablic") for n in (2, 3, 4)],
]
CONFIG_IDS = [f"{name}-{n}p" for name, n in CONFIGS]

#: Hand sizes of the first and of later deals, and the first deal's table cards,
#: as docs/rules.md states them (not read from the Rules value, so a wrong preset shows).
DEAL_SIZES: dict[str, tuple[int, int, int]] = {
    "casino": (4, 4, 4),
    "krypkasino": (6, 4, 4),
    "kasino": (4, 4, 4),
    "classic": (4, 4, 4),
    "royal": (4, 4, 4),
    "spade": (4, 4, 4),
    "faces-all": (4, 4, 4),
    "mulle": (5, 5, 5),
    "tablic": (6, 6, 4),
}

CARD_RE = re.compile(r"^[A2-9TJQK][schd]$")
RANKS = "A23456789TJQK"


def card_id(text: str) -> int:
    return RANKS.index(text[0]) * 4 + "schd".index(text[1])


# ----------------------------------------------------------------------
# Card bookkeeping


def full_deck(rules: Rules) -> Counter[int]:
    """The ruleset's multiset of cards: each of the 52 exactly ``decks`` times."""
    return Counter({c: rules.decks for c in range(52)})


def known_hand(pos: Position, seat: int) -> tuple[int, ...]:
    h = pos.hands[seat]
    assert not isinstance(h, int), "the simulation only sees full positions"
    return h


def known_stock(pos: Position) -> tuple[int, ...]:
    assert not isinstance(pos.stock, int)
    return pos.stock


def table_cards(pos: Position) -> list[int]:
    out: list[int] = []
    for item in pos.table:
        out.extend((item,) if isinstance(item, int) else item.cards)
    return out


def all_cards(pos: Position) -> Counter[int]:
    """Hands + table loose + build cards + piles + stock + set-aside cards."""
    counts: Counter[int] = Counter()
    for s in range(pos.rules.players):
        counts.update(known_hand(pos, s))
    counts.update(table_cards(pos))
    for p in pos.piles:
        counts.update(p)
    counts.update(known_stock(pos))
    counts.update(pos.set_aside)
    return counts


def json_cards(obj: Any) -> Counter[int]:
    """Every string in ``obj`` (JSON data) that is a card, counted."""
    out: Counter[int] = Counter()
    if isinstance(obj, str):
        if CARD_RE.match(obj):
            out[card_id(obj)] += 1
    elif isinstance(obj, list):
        for x in obj:
            out.update(json_cards(x))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.update(json_cards(k))
            out.update(json_cards(v))
    return out


def played_values(rules: Rules, c: int) -> set[int]:
    """The values ``c`` has as the card you play, i.e. "a card of value v" (docs/rules.md §1)."""
    t = rules.table
    return set(t.played[c])


def sum_value(rules: Rules, c: int) -> int:
    return rules.table.sum_value[c]


# ----------------------------------------------------------------------
# Checks on one position


def check_accounting(pos: Position) -> None:
    """Every card accounted for, each exactly ``decks`` times (docs/position.md)."""
    counts = all_cards(pos)
    assert counts == full_deck(pos.rules), (
        f"cards not accounted for: extra {counts - full_deck(pos.rules)}, "
        f"missing {full_deck(pos.rules) - counts}")


def check_builds(pos: Position) -> None:
    """Builds add up (docs/rules.md §2.3) and every owner holds a card of the value
    (docs/rules.md §2.5)."""
    rules = pos.rules
    builds = [b for b in pos.table if isinstance(b, Build)]
    if not rules.building:
        assert not builds, f"{rules.name} has no builds, yet the table has {builds}"
    for b in builds:
        assert 2 <= b.value <= 14, f"build value {b.value} out of 2..14"
        assert len(b.cards) >= 2, f"a build of one card: {b}"
        assert sorted(c for g in b.groups for c in g) == list(b.cards), f"groups != cards: {b}"
        for g in b.groups:
            total = sum(sum_value(rules, c) for c in g)
            assert total == b.value, f"group {g} of {b} adds up to {total}, not {b.value}"
            assert all(sum_value(rules, c) for c in g), f"a value-less card in build {b}"
        hand = known_hand(pos, b.owner)
        assert any(b.value in played_values(rules, c) for c in hand), (
            f"seat {b.owner} owns {b} of {b.value} but holds no card of that value: "
            f"{[str(c) for c in hand]}\n{json.dumps(pos.to_json())}")


def check_json_round_trip(pos: Position) -> None:
    """``from_json(to_json(p)) == p``, directly and through JSON text (docs/position.md)."""
    data = pos.to_json()
    assert Position.from_json(data) == pos
    text = json.dumps(data)
    again = Position.from_json(json.loads(text))
    assert again == pos
    assert Position.from_json(text) == pos
    # Writing is canonical: a position read back writes the same JSON again.
    assert Position.from_json(again.to_json()).to_json() == again.to_json()


def check_observations(pos: Position) -> None:
    """Each seat's observation hides exactly the other hands and the stock."""
    rules = pos.rules
    full = pos.to_json()
    everything = all_cards(pos)
    for seat in range(rules.players):
        obs = pos.observation(seat)
        for key, value in full.items():
            if key in ("hands", "stock"):
                continue
            assert obs.get(key) == value, f"observation of seat {seat} changes {key!r}"
        assert set(obs) == set(full)
        for s in range(rules.players):
            if s == seat:
                assert obs["hands"][s] == full["hands"][s]
            else:
                assert obs["hands"][s] == len(known_hand(pos, s))
        assert obs["stock"] == len(known_stock(pos))
        hidden: Counter[int] = Counter(known_stock(pos))
        for s in range(rules.players):
            if s != seat:
                hidden.update(known_hand(pos, s))
        visible = everything - hidden
        shown = json_cards({k: v for k, v in json.loads(json.dumps(obs)).items()
                            if k != "result"})
        assert shown == visible, (
            f"seat {seat} sees {shown - visible} it should not, misses {visible - shown}")
        seen = Position.from_json(json.dumps(obs))
        assert seen == pos.observe(seat)
        if seat == pos.to_move and pos.result is None:
            assert set(seen.legal_moves()) == set(pos.legal_moves())
            assert len(seen.legal_moves()) == len(pos.legal_moves())


def check_legal_moves(pos: Position) -> list[Move]:
    """A legal move exists while the round goes on, each listed once (docs/rules.md §2.5;
    docs/position.md)."""
    moves = pos.legal_moves()
    if pos.result is not None:
        assert moves == []
        return moves
    assert moves, f"no legal move:\n{json.dumps(pos.to_json())}"
    assert len(set(moves)) == len(moves), "legal_moves() lists a move twice"
    seat = pos.to_move
    hand = known_hand(pos, seat)
    if any(isinstance(b, Build) and b.owner == seat for b in pos.table):
        assert not any(m.kind == TRAIL for m in moves), (
            "a build owner may trail (docs/rules.md §2.5)")
    for m in moves:
        assert m.card in hand
    return moves


def check_each_move(pos: Position, moves: list[Move]) -> None:
    """Every legal move plays, reads back from its text, and makes a different position."""
    results: dict[Position, Move] = {}
    for m in moves:
        text = str(m)
        back = pos.parse_move(text)
        assert back == m, f"parse_move({text!r}) gives {back!r}"
        assert str(back) == text, f"the canonical text of {text!r} is not stable: {back}"
        nxt = pos.play(m)
        if nxt.result is None:
            # Two moves are the same move exactly when they lead to the same position.
            other = results.get(nxt)
            assert other is None, f"{other} and {m} lead to the same position"
            results[nxt] = m


def check_position(pos: Position, thorough: bool) -> list[Move]:
    check_accounting(pos)
    check_builds(pos)
    moves = check_legal_moves(pos)
    if thorough:
        check_json_round_trip(pos)
        check_observations(pos)
        check_each_move(pos, moves)
    return moves


# ----------------------------------------------------------------------
# Checks on one step


def expected_deal(rules: Rules, dealer: int, stock: tuple[int, ...],
                  size: int) -> tuple[list[Counter[int]], tuple[int, ...]]:
    """A later deal (docs/rules.md §2.2): packets of 2 from the top, from the seat after
    the dealer."""
    order = [(dealer + rules.direction * k) % rules.players for k in range(1, rules.players + 1)]
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    top = 0
    while top < len(stock) and any(len(hands[s]) < size for s in order):
        for s in order:
            k = min(2, size - len(hands[s]), len(stock) - top)
            if k > 0:
                hands[s].extend(stock[top:top + k])
                top += k
    return [Counter(h) for h in hands], stock[top:]


def expected_first_deal(rules: Rules, dealer: int, deck: tuple[int, ...],
                        ) -> tuple[list[Counter[int]], Counter[int], tuple[int, ...]]:
    """The first deal (docs/rules.md §2.2, §4): packets of 2; the dealer last (the table before the
    dealer), or in Finnish Kasino every player first, then the table."""
    first_hand, _, first_table = DEAL_SIZES[rules.name]
    order = [(dealer + rules.direction * k) % rules.players for k in range(1, rules.players + 1)]
    finnish = rules.name == "kasino"
    turns: list[int | None] = [*order, None] if finnish else [*order[:-1], None, order[-1]]
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    table: list[int] = []
    top = 0
    while any(len(h) < first_hand for h in hands) or len(table) < first_table:
        for who in turns:
            dest = table if who is None else hands[who]
            want = first_table if who is None else first_hand
            k = min(2, want - len(dest))
            if k > 0:
                dest.extend(deck[top:top + k])
                top += k
    return [Counter(h) for h in hands], Counter(table), deck[top:]


def is_picture(c: int) -> bool:
    return c >> 2 >= 10


def check_first_deal(rules: Rules, deck: tuple[int, ...], dealer: int, start: Position) -> None:
    """Hand sizes, the cards each seat gets, the table, the leader (docs/rules.md §2.2,
    §3-§6)."""
    hands, table, stock = expected_first_deal(rules, dealer, deck)
    for s in range(rules.players):
        assert Counter(known_hand(start, s)) == hands[s], f"seat {s} was dealt the wrong cards"
        assert len(known_hand(start, s)) == DEAL_SIZES[rules.name][0]
    if rules.set_aside_pictures:
        pictures = Counter(c for c in table.elements() if is_picture(c))
        assert Counter(start.set_aside) == pictures
        table = table - pictures
    else:
        assert start.set_aside == ()
    assert Counter(table_cards(start)) == table
    assert known_stock(start) == stock
    assert start.deal == 1 and start.dealer == dealer
    assert start.to_move == rules.next_seat(dealer), (
        "the seat after the dealer leads (docs/rules.md §2.2)")
    assert start.piles == ((),) * rules.players and start.sweeps == ()
    assert start.last_capture is None and start.result is None


def check_later_deal(pos: Position, nxt: Position) -> None:
    """A later deal: packets of 2 from the stock, pictures set aside first
    (docs/rules.md §2.2, §3)."""
    rules = pos.rules
    size = DEAL_SIZES[rules.name][1]
    hands, stock = expected_deal(rules, pos.dealer, known_stock(pos), size)
    for s in range(rules.players):
        got = known_hand(nxt, s)
        assert Counter(got) == hands[s], f"deal {nxt.deal}: seat {s} got the wrong cards"
        assert len(got) <= size
    dealt = sum(len(known_hand(nxt, s)) for s in range(rules.players))
    assert dealt == min(len(known_stock(pos)), rules.players * size)
    assert known_stock(nxt) == stock
    assert nxt.to_move == rules.next_seat(pos.dealer), "the seat after the dealer leads"
    if rules.set_aside_pictures:
        assert not any(isinstance(c, int) and is_picture(c) for c in nxt.table), (
            "a picture card lies on the table after a Krypkasino deal")


def check_step(pos: Position, move: Move, nxt: Position) -> None:
    """What one move changes: the hand, the pile, sweeps, mulles, turn, deal."""
    rules = pos.rules
    seat = pos.to_move
    hand = known_hand(pos, seat)
    cleared = False
    taken: list[int] = []
    if move.kind == CAPTURE:
        taken = [move.card, *move.loose, *(c for b in move.builds for c in b.cards)]
        loose_before = sorted(c for c in pos.table if isinstance(c, int))
        builds_before = [b for b in pos.table if isinstance(b, Build)]
        cleared = (sorted(move.loose) == loose_before
                   and len(move.builds) == len(builds_before))
    # Sweeps (docs/rules.md §2.6, §3, §4).
    counts = cleared
    if rules.name == "kasino" and (not known_stock(pos) or any(s > 10 for s in pos.scores)):
        counts = False  # no mökki in the last deal, nor once anyone has more than 10
    gained = 0
    if counts:
        lone_twin = (len(pos.table) == 1 and isinstance(pos.table[0], int)
                     and pos.table[0] == move.card)
        gained = 2 if (rules.name == "krypkasino" and lone_twin) else 1
    assert nxt.sweeps == pos.sweeps + (seat,) * gained, (
        f"{move}: sweeps {pos.sweeps} -> {nxt.sweeps}, expected {gained} more")
    # Mulles (docs/rules.md §6.4): a capture of only the identical card.
    is_mulle = (rules.name == "mulle" and move.kind == CAPTURE and not move.builds
                and list(move.loose) == [move.card])
    assert nxt.mulles == pos.mulles + ((seat,) if is_mulle else ())
    assert nxt.last_capture == (seat if move.kind == CAPTURE else pos.last_capture)
    if nxt.result is not None:
        return
    # The pile takes the played card and what it took.
    assert Counter(nxt.piles[seat]) == Counter(pos.piles[seat]) + Counter(taken)
    if nxt.deal == pos.deal:
        assert len(known_hand(nxt, seat)) == len(hand) - 1, "the hand shrinks by one card"
        expect = rules.next_seat(seat)
        while not known_hand(nxt, expect):
            expect = rules.next_seat(expect)
        assert nxt.to_move == expect, "turns go round in the ruleset's direction"
        assert known_stock(nxt) == known_stock(pos)
    else:
        assert nxt.deal == pos.deal + 1
        assert len(hand) == 1
        assert sum(len(known_hand(pos, s)) for s in range(rules.players)) == 1, (
            "a new deal before every hand was empty")
        check_later_deal(pos, nxt)


# ----------------------------------------------------------------------
# Checks on a round's end


def _team_piles(rules: Rules, piles: tuple[tuple[int, ...], ...]) -> dict[int, list[int]]:
    teams: dict[int, list[int]] = {}
    for s, p in enumerate(piles):
        teams.setdefault(s % 2 if rules.partnerships else s, []).extend(p)
    return teams


def _leaders(counts: dict[int, int]) -> list[int]:
    best = max(counts.values())
    return [t for t, n in counts.items() if n == best]


def expected_total(end: Position) -> int:
    """The points a round hands out in all, by docs/rules.md §2.7, §3, §4, §5, §6."""
    rules = end.rules
    teams = _team_piles(rules, end.piles)
    cards = _leaders({t: len(p) for t, p in teams.items()})
    spades = _leaders({t: sum(1 for c in p if c & 3 == 0) for t, p in teams.items()})
    cards_won = len(cards) == 1
    spades_won = len(spades) == 1
    sweeps = len(end.sweeps)
    name = rules.name
    if name == "krypkasino":
        return 42  # sweeps net zero: +5 to one seat, -5 to the other
    if name in ("casino", "classic", "royal", "faces-all"):
        return 7 + 3 * cards_won + 1 * spades_won + sweeps
    if name == "spade":
        return 21 + 3 * cards_won + sweeps
    if name == "tablic":
        return 22 + 3 * cards_won + sweeps
    if name == "mulle":
        return 15 + spades_won + sweeps + 5 * len(end.mulles)
    assert name == "kasino"
    carry = end.carry
    total = 7 + sweeps
    if cards_won:
        total += 1 + carry.cards
    if spades_won:
        total += 2 + carry.spades
    elif len(spades) == 2 and rules.players != 4:
        total += 2 * ((2 + carry.spades) // 2)
    return total


def expected_winner(rules: Rules, end: Position) -> int | None:
    """The winner rules: counting order, higher total, Krypkasino's lower total."""
    result = end.result
    assert result is not None
    teams = sorted({s % 2 if rules.partnerships else s for s in range(rules.players)})
    totals = {t: end.scores[t] for t in teams}
    if rules.name in ("casino", "mulle"):  # counting order (docs/rules.md §2.8)
        for it in result.items:
            totals[it.seat] += it.points
            if totals[it.seat] >= rules.target:
                return it.seat
        return None
    for it in result.items:
        totals[it.seat] += it.points
    if rules.name == "krypkasino":  # lower total after each pair of games (docs/rules.md §3)
        if end.round % 2:
            return None
        low = _leaders({t: -v for t, v in totals.items()})
        return low[0] if len(low) == 1 else None
    target = {"kasino": 16, "spade": 61, "tablic": 101}.get(rules.name, 21)
    reached = {t: v for t, v in totals.items() if v >= target}
    if not reached:
        return None
    top = _leaders(reached)
    return top[0] if len(top) == 1 else None


def check_round_end(end: Position) -> None:
    """Nothing left in play, points add up, totals and winner follow the rules."""
    rules = end.rules
    result = end.result
    assert result is not None
    assert not any(isinstance(b, Build) for b in end.table), "a build survived the round"
    assert all(known_hand(end, s) == () for s in range(rules.players))
    assert known_stock(end) == ()
    if end.last_capture is not None or rules.leftovers_no_capture != "nobody":
        assert end.table == (), "the leftovers went to nobody"
        assert end.set_aside == (), "set-aside pictures went to nobody"
    team_heads = {s % 2 if rules.partnerships else s for s in range(rules.players)}
    assert all(it.seat in team_heads for it in result.items)
    total = sum(it.points for it in result.items)
    assert total == expected_total(end), (
        f"{rules.name} {rules.players}p round hands out {total} points, expected "
        f"{expected_total(end)}: {[(i.item, i.seat, i.points) for i in result.items]}")
    for s in range(rules.players):
        team = s % 2 if rules.partnerships else s
        gained = sum(it.points for it in result.items if it.seat == team)
        assert result.scores[s] == end.scores[s] + gained
    assert result.winner == expected_winner(rules, end)


# ----------------------------------------------------------------------
# Playing games


@dataclass
class Stats:
    """What a run saw, so a test can tell that it exercised something."""

    positions: int = 0
    rounds: int = 0
    games_over: int = 0
    max_moves: int = 0
    kinds: Counter[str] = field(default_factory=Counter)


def play_round(match: Match, rng: random.Random, stats: Stats, thorough_every: int) -> None:
    rules = match.rules
    log = match.current
    check_first_deal(rules, log.deck, log.dealer, log.start)
    pos = match.position
    step = 0
    while pos.result is None:
        thorough = thorough_every > 0 and step % thorough_every == 0
        moves = check_position(pos, thorough)
        stats.positions += 1
        stats.max_moves = max(stats.max_moves, len(moves))
        move = rng.choice(moves)
        stats.kinds[move.kind] += 1
        assert pos.parse_move(str(move)) == move, f"{move} does not read back"
        nxt = match.play(move)
        check_step(pos, move, nxt)
        pos = nxt
        step += 1
    check_position(pos, thorough_every > 0)
    assert pos.deal == rules.deals_per_round, (
        f"the round ended in deal {pos.deal}, not {rules.deals_per_round}")
    check_round_end(pos)
    stats.rounds += 1


def play_game(name: str, players: int, seed: int, *, thorough_every: int = 1,
              max_rounds: int | None = None, stats: Stats | None = None) -> Stats:
    """Play a seeded random game (or its first ``max_rounds`` rounds), checking everything."""
    stats = stats if stats is not None else Stats()
    match = Match(name, seed=seed, players=players)
    rng = random.Random(seed * 7919 + players)
    rules = match.rules
    while True:
        play_round(match, rng, stats, thorough_every)
        if match.is_over:
            stats.games_over += 1
            return stats
        if max_rounds is not None and len(match.rounds) >= max_rounds:
            return stats
        before = match.position
        start = match.next_round()
        assert start.dealer == rules.next_seat(before.dealer), "the deal passes each round"
        assert start.round == before.round + 1
        assert before.result is not None
        assert start.scores == before.result.scores
        if rules.name == "kasino":
            check_kasino_carry(before, start)
        assert len(match.rounds) < 200, "a game that never ends"


def check_kasino_carry(end: Position, start: Position) -> None:
    """Finnish Kasino (docs/rules.md §4.5): a tied most-cards point carries, and so does
    a 4-player spade tie."""
    rules = end.rules
    teams = _team_piles(rules, end.piles)
    cards = _leaders({t: len(p) for t, p in teams.items()})
    spades = _leaders({t: sum(1 for c in p if c & 3 == 0) for t, p in teams.items()})
    want_cards = 1 + end.carry.cards if len(cards) > 1 else 0
    spade_carry = len(spades) > 1 and (rules.players == 4 or len(spades) > 2)
    want_spades = 2 + end.carry.spades if spade_carry else 0
    assert (start.carry.cards, start.carry.spades) == (want_cards, want_spades)


# ----------------------------------------------------------------------
# The tests


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
def test_random_games_keep_every_invariant(name: str, players: int) -> None:
    """A seeded round per configuration, every check at every position (the slow
    tests play many more)."""
    stats = Stats()
    play_game(name, players, 1, thorough_every=1, max_rounds=1, stats=stats)
    assert stats.rounds == 1
    assert stats.positions > 10
    assert stats.kinds["capture"] > 0


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
def test_random_games_reach_a_winner(name: str, players: int) -> None:
    """A whole game to its winner, checking cheap invariants everywhere and the rest
    at every seventh position."""
    stats = play_game(name, players, seed=3, thorough_every=7)
    assert stats.games_over == 1


def _near_target(rules: Rules) -> int:
    return {"krypkasino": 20, "kasino": 13, "spade": 55, "tablic": 92}.get(rules.name, 17)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
def test_winner_rule_when_the_target_is_near(name: str, players: int) -> None:
    """Rounds started close to the target, so the winner rules are exercised often:
    counting order (casino, mulle), higher total, Krypkasino's second game."""
    rules = preset(name, players=players)
    rng = random.Random(99)
    for k in range(6):
        deck = list(range(52)) * rules.decks
        rng.shuffle(deck)
        base = _near_target(rules)
        if rules.partnerships:
            team = [base + rng.randrange(4), base + rng.randrange(4)]
            scores = tuple(team[s % 2] for s in range(rules.players))
        else:
            scores = tuple(base + rng.randrange(4) for _ in range(rules.players))
        pos = Position.start_round(rules, tuple(deck), dealer=k % rules.players,
                                   round=2 + k, scores=scores)
        check_first_deal(rules, tuple(deck), k % rules.players, pos)
        while pos.result is None:
            moves = check_position(pos, thorough=False)
            move = rng.choice(moves)
            nxt = pos.play(move)
            check_step(pos, move, nxt)
            pos = nxt
        check_round_end(pos)


def test_deals_per_round_match_the_deck() -> None:
    """``rules.deals_per_round`` agrees with the hand sizes of docs/rules.md."""
    for name, players in CONFIGS:
        rules = preset(name, players=players)
        first_hand, later, table = DEAL_SIZES[name]
        rest = rules.deck_size - players * first_hand - table
        assert rules.deals_per_round == 1 + -(-rest // (players * later))
    assert preset("krypkasino").deals_per_round == 12  # "A game is 12 deals" (docs/rules.md §3)
    assert preset("casino").deals_per_round == 6  # "6 deals make a round" (docs/rules.md §2.2)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
def test_many_random_games_keep_every_invariant(name: str, players: int) -> None:
    """200 seeded games per configuration: cheap invariants at every position, the
    expensive ones (every legal move played and read back, JSON, observations) at
    every 25th position and at every round's end."""
    stats = Stats()
    for seed in range(1000, 1200):
        play_game(name, players, seed, thorough_every=25, max_rounds=3, stats=stats)
    assert stats.rounds >= 200
