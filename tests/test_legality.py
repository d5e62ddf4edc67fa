"""The move questions answered without listing moves agree with the full enumeration.

``casino.engine.legality`` decides whether one move is legal, what one card can do and
which moves use picked table items, in work polynomial in the table; the plain
enumeration (``Position.legal_moves``) stays the reference. On every position
of seeded random games of every preset (played by a policy that trails and
builds often, so that tables fill and builds pile up), and of Krypkasino with
the cardinality option:

- every legal move is found legal, with a split of its own cards;
- moves made by changing a legal one (another card, a card fewer, another
  build, another value, a random selection of the table) are legal exactly
  when the enumeration lists them;
- a card's options (trail, builds, additions, raises, whether it captures) are
  those of its listed moves, and its largest capture is as large as theirs;
- the bounded selection of a card's moves on a crowded table holds only legal
  moves, and is never empty when the card has one.

Then the work itself is bounded: on crowded tables that the enumeration could
not list, checks count the states the search settles, not seconds.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from casino import Position
from casino.engine.legality import _Checker, moves_with
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.partition import _Search
from tests.crowded_tables import KASINO_27, crowded
from tests.variant_positions import GAMES, growing_round, mutations


@pytest.mark.parametrize("name", GAMES)
def test_checks_agree_with_the_enumeration(name: str) -> None:
    checked = 0
    for seed in range(2):
        for pos in growing_round(name, seed):
            legal = pos.legal_moves()
            listed = set(legal)
            check = _Checker(pos)
            for m in legal:
                found = check.find(m)
                assert found == m, f"{name}: {m} is legal but was not found"
                assert sorted(c for g in found.groups for c in g) == sorted(
                    [*m.loose, *([m.card] if m.kind in (BUILD, ADD, RAISE) else [])]), found
                checked += 1
            rng = random.Random(checked)
            for m in mutations(pos, legal, rng):
                assert (check.find(m) is not None) == (m in listed), (
                    f"{name}: {m} legal {m in listed}, table {pos.loose} {pos.builds}")
            for card in set(pos.hand(pos.to_move)):
                _card_agrees(pos, check, card, [m for m in legal if m.card == card])
    assert checked > 100


def _card_agrees(pos: Position, check: _Checker, card: int, mine: list[Move]) -> None:
    opts = check.options(card)
    assert opts.trail == any(m.kind == TRAIL for m in mine)
    assert list(opts.builds) == sorted({m.value for m in mine if m.kind == BUILD})
    assert sorted(opts.adds) == sorted({m.builds[0] for m in mine if m.kind == ADD})
    assert sorted(opts.raises) == sorted({(m.builds[0], m.value) for m in mine
                                          if m.kind == RAISE})
    captures = [m for m in mine if m.kind == CAPTURE]
    assert bool(opts.captures) == bool(captures)
    if captures and not pos.builds:
        most = max(len(m.loose) for m in captures)
        best = [check.best_capture(card, v, count_first=True) for v in opts.captures]
        assert max(len(s.cards) for s in best if s) == most
    chosen = check._selection(card)
    assert set(chosen) <= set(mine)
    assert bool(chosen) == bool(mine)


@pytest.mark.parametrize("name", ["casino", "kasino", "mulle", "tablic", "krypkasino"])
def test_picked_items_agree_with_the_enumeration(name: str) -> None:
    """``moves_with``: the moves using exactly the picked items, and some using more,
    all legal; on a small table exactly the listed ones."""
    for pos in growing_round(name, 3)[::3]:
        legal = pos.legal_moves()
        for m in legal[:20]:
            got = moves_with(pos, m.card, m.loose, m.builds)
            assert m in got.exact
            for other in got.more:
                assert other in legal
                assert not Counter(m.loose) - Counter(other.loose)


class Settled:
    """Counts the count vectors the split search settles."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.states = 0
        real = _Search.exact

        def counting(search: _Search, counts: tuple[int, ...]) -> bool:
            if counts not in search.memo:
                self.states += 1
            return real(search, counts)
        monkeypatch.setattr(_Search, "exact", counting)


def test_crowded_kasino_table_is_answered_with_bounded_work(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """27 loose cards: the enumeration would list well over 700,000 moves. Checking a
    trail, a capture of the whole table and of all but one card, the 10♦'s options and
    its selection of moves each settle few states."""
    pos = crowded("kasino", KASINO_27, "Td 8s 9c Ks")
    settled = Settled(monkeypatch)
    assert len(pos.play("8s").loose) == 28
    assert settled.states < 50
    with pytest.raises(ValueError, match=r"cannot take"):
        pos.parse_move("Td x " + KASINO_27)
    assert pos.card_options(39).captures == (16,)
    moves = pos.moves_of(39)
    assert not moves.complete and moves.moves
    best = moves.moves[0]
    assert best.kind == CAPTURE and len(best.loose) >= 20
    assert pos.is_legal(best)
    assert settled.states < 1_000  # 36 when written


def test_crowded_house_table_with_builds_is_answered_with_bounded_work(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """House rules, 16 loose cards and three builds: every card's options and selection."""
    from casino.engine.builds import Build
    from casino.engine.cards import parse_card

    loose = "Ac 2c 3c 4c 5c 6c Ad 2d 3d 4d 5d 6d Ah 2h 3h 4h"
    pos = crowded("casino", loose, "8s 9s Ts 7s")
    builds = (Build.make(8, 1, ((parse_card("7h"), parse_card("As")),)),
              Build.make(9, 1, ((parse_card("5h"), parse_card("4s")),)),
              Build.make(10, 0, ((parse_card("6h"), parse_card("4s")),)))
    rest = Counter(pos.piles[1]) - Counter(c for b in builds for c in b.cards)
    pos = Position(rules=pos.rules, round=1, deal=6, dealer=1, to_move=0, hands=pos.hands,
                   table=pos.table + builds, piles=((), tuple(sorted(rest.elements()))),
                   scores=(0, 0))
    settled = Settled(monkeypatch)
    for card in pos.hand(0):
        for m in pos.moves_of(card).moves:
            assert pos.is_legal(m)
            assert pos.play(m) is not None
    assert settled.states < 10_000  # 693 when written


#: 27 loose cards of every rank, as a crowded table of a real deal is.
MIXED_27 = ("2d 3h 3s 4c 4s 5h 5s 6c 6d 6s 7d 7h 8d 9c 9d 9h 9s Ah As Jc Js Kh Ks Qh Qs "
            "Th Ts")


@pytest.mark.parametrize("name", ["kasino", "casino", "tablic"])
def test_cards_too_high_to_take_part_cost_no_search(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card that can neither pair nor fit in a group is left out before the search: each
    such card left in was a kind the best-first search tried every count of (the 3♦'s best
    capture here settled 1.5 million states and took 37 s)."""
    pos = crowded(name, MIXED_27, "Kd 3d Td 6h")
    settled = Settled(monkeypatch)
    for card in pos.hand(0):
        for m in pos.moves_of(card).moves:
            assert pos.is_legal(m)
    assert settled.states < 100_000


def test_picked_cards_split_no_kind_in_two_for_the_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards a player picked must be covered, the rest may be: two kinds of each value,
    but whether a selection splits depends only on the values, so the split search runs
    over those (the King's moves with seven picked cards on a crowded Tablić table settled
    26,767 states and 323,778 completions when picked and free cards were apart)."""
    from casino.engine.cards import parse_card

    pos = crowded("tablic", KASINO_27, "Td 8s 9c Ks")
    picked = [parse_card(t) for t in ("5d", "2s", "3s", "7d", "6d", "6s", "4h")]
    settled = Settled(monkeypatch)
    got = moves_with(pos, parse_card("Ks"), picked, [])
    assert got.more and not got.exact
    for m in got.more:
        assert pos.is_legal(m) and set(picked) <= set(m.loose)
    assert settled.states < 10_000  # 2,829 when written


def crowded_positions(name: str, count: int, seed: int) -> list[Position]:
    """Positions of more than SMALL_TABLE loose cards from rounds where players mostly
    trail (a random capture now and then), so tables fill as trailing fills them."""
    from casino import Match
    from casino.engine.legality import SMALL_TABLE

    rng = random.Random(seed)
    found: list[Position] = []
    for _ in range(100):
        if len(found) >= count:
            break
        match = Match(name, seed=rng.randrange(2**32))
        while match.position.result is None and len(found) < count:
            pos = match.position
            if len(pos.loose) > SMALL_TABLE:
                found.append(pos)
            cands = pos.candidate_moves().moves
            trails = [m for m in cands if m.kind == TRAIL]
            match.play(rng.choice(trails if trails and rng.random() < 0.85 else cands))
    return found


@pytest.mark.parametrize("name", ["kasino", "casino", "classic", "tablic", "mulle"])
def test_listing_within_a_budget_is_the_full_listing(name: str) -> None:
    """Differential: where the budgeted enumeration finishes it gives exactly
    ``legal_moves()``, in its order, and the candidate moves are that list, complete;
    where it runs out, the bounded selection is made (``complete`` false)."""
    from casino.engine.legality import LISTING_STEPS
    from casino.engine.movegen import Budget, TooMuchWork, generate

    listed = over = 0
    for pos in crowded_positions(name, 30, seed=7):
        budget = Budget(LISTING_STEPS)
        try:
            got = generate(pos.rules, pos.hand(pos.to_move), pos.loose, pos.builds,
                           pos.to_move, budget)
        except TooMuchWork:
            over += 1
            assert budget.used > LISTING_STEPS
            assert not pos.candidate_moves().complete
            continue
        listed += 1
        plain = generate(pos.rules, pos.hand(pos.to_move), pos.loose, pos.builds, pos.to_move)
        assert got == plain
        cands = pos.candidate_moves()
        assert cands.complete and list(cands.moves) == plain
        for card in set(pos.hand(pos.to_move)):
            mine = pos.moves_of(card)
            assert mine.complete and list(mine.moves) == [m for m in plain if m.card == card]
    assert listed  # the budget lists some crowded tables of every preset


@pytest.mark.parametrize(("name", "loose", "hand"), [
    ("kasino", KASINO_27, "Td 8s 9c Ks"),
    ("casino", MIXED_27, "Kd 3d Td 6h"),
    ("tablic", KASINO_27, "Td 8s 9c Ks"),
    ("krypkasino", MIXED_27, "Kd 3d Td 6h"),
])
def test_a_listing_that_runs_out_stops_and_is_not_tried_again(
        name: str, loose: str, hand: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On 27 loose cards the enumeration would list hundreds of thousands of moves: the
    budgeted one stops once its steps are spent (charged before the work, so the
    structures it built stay within a small multiple of the budget), the position keeps
    the answer, and the candidates are the bounded selection."""
    from casino.engine import movegen
    from casino.engine import position as position_module
    from casino.engine.legality import LISTING_STEPS

    pos = crowded(name, loose, hand)
    budgets: list[movegen.Budget] = []
    real = movegen.generate

    def noted(*args: object) -> object:
        assert isinstance(args[5], movegen.Budget)
        budgets.append(args[5])
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(position_module, "generate", noted)
    assert pos.moves_within(LISTING_STEPS) is None
    assert len(budgets) == 1 and budgets[0].used > LISTING_STEPS
    cands = pos.candidate_moves()
    assert not cands.complete and cands.moves
    assert pos.moves_within(LISTING_STEPS) is None
    assert len(budgets) == 1  # kept on the position
    for m in cands.moves:
        assert pos.is_legal(m)


def test_closure_charges_its_work_before_doing_it() -> None:
    """A closure of many disjoint blocks has 2**n unions: with a budget it stops after
    about twice its steps, never building the whole table."""
    from casino.engine.movegen import Budget, TooMuchWork, closure

    blocks = [1 << i for i in range(30)]
    budget = Budget(1_000)
    with pytest.raises(TooMuchWork, match="more than 1000 steps"):
        closure(blocks, budget)
    assert budget.used <= 2 * 1_000 + 2
    assert len(closure(blocks[:8], Budget(1_000))) == 256
