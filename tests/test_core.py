"""The compiled core is held equal to the Python engine, and its boundary is safe.

The pure-Python generator (:func:`casino.engine.movegen.generate`) is the reference: on
random and crowded positions of every preset and player count the core must list the
same moves in the same order, shown with the same groups, and spend the same steps
against a budget. benchmarks/core_equal.py runs the million; here a sample (a larger
one is marked slow, for CI). Whatever a caller passes, the core answers or raises a
Python exception: it never crashes the process.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino import Match, Position, preset
from casino.bots import compiled as bots_core
from casino.bots import evaluation
from casino.bots.solver import Searcher, game_value
from casino.engine import core, movegen
from casino.engine.builds import Build
from casino.engine.moves import TRAIL, Move
from tests.benchmark_scripts import load

equal = load("core_equal")

compiled = pytest.mark.skipif(core.module() is None,
                              reason=f"no compiled core here: {core.engine_name()}")


def test_the_core_is_built_wherever_the_tests_run_in_ci() -> None:
    """CI builds the core (make test installs it); only the run with the core switched off
    plays in pure Python."""
    if os.environ.get("CI") != "true" or os.environ.get(core.SWITCH):
        pytest.skip("only CI promises a compiler")
    assert core.module() is not None, core.engine_name()


def test_the_switch_turns_the_core_off() -> None:
    env = {**os.environ, core.SWITCH: "off"}
    out = subprocess.run(
        [sys.executable, "-c", "from casino.engine import core; print(core.engine_name())"],
        env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "pure Python (CASINO_CORE=off)"


def _sample(per_table: int, seed: int) -> Iterator[tuple[str, Position, int | None]]:
    """``per_table`` positions of every table, from rounds of the three styles in turn
    (random, growing, crowded: the seed decides), each round cut to a tenth of them."""
    for index, rules in enumerate(equal.tables()):
        count = 0
        s = seed + 997 * index
        while count < per_table:
            for pos, steps in islice(equal.positions(rules, s), max(1, per_table // 10)):
                count += 1
                yield equal.label(rules), pos, steps
            s += 1


def _compare(per_table: int, seed: int) -> None:
    bad = []
    count = 0
    for name, pos, steps in _sample(per_table, seed):
        count += 1
        problem = equal.check(pos, steps, count)
        if problem is not None:
            bad.append(f"{name}: {problem}\n{pos.to_json()}")
    assert count >= per_table * len(equal.tables())
    assert not bad, "\n".join(bad[:5])


@compiled
def test_the_core_lists_the_same_moves_as_python_on_every_preset() -> None:
    """Random, growing and crowded positions of every preset and player count: the same
    moves, in the same order, with the same groups, and the same budget decisions; and
    the same position after one of them (the next deal dealt, the round ended and
    scored, where the move does so)."""
    _compare(per_table=60, seed=11)


@compiled
@pytest.mark.slow
def test_the_core_lists_the_same_moves_as_python_on_many_positions() -> None:
    _compare(per_table=1500, seed=1_000)


@compiled
def test_a_budget_runs_out_in_the_core_where_it_does_in_python() -> None:
    """A crowded Finnish table: a small budget runs out in both, a large one in neither,
    and the steps left agree, so bounded work is bounded the same way."""
    pos = _crowded_kasino()
    for steps in (10, 1_000, 100_000, 10_000_000):
        assert equal.listing(pos, steps, compiled=True) == equal.listing(pos, steps,
                                                                          compiled=False)
    assert equal.listing(pos, 10, compiled=True)[0] is None
    assert pos.moves_within(10) is None


def _crowded_kasino() -> Position:
    match = Match("kasino", seed=11)
    while len(match.position.loose) < 18 or match.position.to_move != 0:
        pos = match.position
        match.play(Move(TRAIL, pos.hand(pos.to_move)[0]))
    return match.position


def _last_deals(per_table: int) -> Iterator[Position]:
    """Positions of every table's last deal with at most eight cards in hand."""
    for rules in equal.tables():
        found = 0
        seed = 0
        while found < per_table:
            match = Match(rules, seed=seed)
            rng = random.Random(seed)
            while match.position.result is None:
                pos = match.position
                if pos.stock_size == 0 and sum(pos.hand_size(s) for s in rules.seats) <= 8:
                    found += 1
                    yield pos
                moves = pos.moves_within(20_000) or list(pos.candidate_moves().moves)
                match.play(rng.choice(moves))
            seed += 1


@compiled
def test_the_cores_exact_search_values_every_move_as_the_python_searcher_does() -> None:
    """The rest of the round searched exactly, for the game and for the round's margin:
    every root move's value equals :class:`~casino.bots.solver.Searcher`'s."""
    checked = 0
    for k, pos in enumerate(_last_deals(4)):
        moves = list(pos.candidate_moves().moves)
        game = k % 2 == 0
        searcher = Searcher(pos.to_move, horizon="round",
                            terminal=game_value if game else evaluation.value)
        want = searcher.values(pos, moves)
        got = core.solve(pos, moves, game=game, every_value=True)
        assert got == want, (pos.to_json(), moves)
        best = core.solve(pos, moves, game=game)
        assert best is not None and max(best) == max(want)
        checked += 1
    assert checked >= 4 * len(equal.tables())


def _two_player_positions(rounds: int) -> Iterator[Position]:
    """Every position of ``rounds`` random rounds of each two-player table."""
    for rules in equal.tables():
        if rules.players != 2:
            continue
        for seed in range(rounds):
            match = Match(rules, seed=seed)
            rng = random.Random(seed)
            while match.position.result is None:
                pos = match.position
                yield pos
                moves = pos.moves_within(20_000) or list(pos.candidate_moves().moves)
                match.play(rng.choice(moves))


@compiled
def test_the_cores_evaluation_is_the_bots_evaluation() -> None:
    """``estimate`` and ``deal_start_estimate`` of whole two-player positions of every
    preset, from both seats: the core's equal the Python evaluation's."""
    checked = 0
    for pos in _two_player_positions(1):
        assert bots_core.evaluation_ready(pos.rules)
        for seat in (0, 1):
            for deal_start in (True, False):
                fn = evaluation.deal_start_estimate if deal_start else evaluation.estimate
                got = core.evaluate(pos, seat, deal_start=deal_start)
                assert got == pytest.approx(fn(pos, seat), abs=1e-9), pos.to_json()
                checked += 1
    assert checked > 1_000


@compiled
def test_a_ruleset_the_core_makes_afresh_gets_its_evaluation_again() -> None:
    """The core's copy of a ruleset is kept per ruleset and made afresh once 256 others
    have been seen; the evaluation handed to the old copy must follow to the new one,
    or a search to the deal's end is refused (a hint or a review then failed)."""
    match = Match(preset("mulle"), seed=2)
    pos = match.position
    moves = list(pos.candidate_moves().moves)
    assert bots_core.evaluation_ready(pos.rules) and core.has_evaluation(pos.rules)
    before = bots_core.deal_values(pos, moves)
    core._tables.memo.clear()  # as after 256 other rulesets
    assert not core.has_evaluation(pos.rules)
    assert bots_core.evaluation_ready(pos.rules) and core.has_evaluation(pos.rules)
    assert bots_core.deal_values(pos, moves) == before is not None


@compiled
def test_the_cores_search_to_the_deals_end_values_every_move_as_python_does() -> None:
    """The judge's search of one deal (to the deal's end, standing on
    ``deal_start_estimate`` there): every root move's value equals the Python
    searcher's, searched to the same horizon without a cap on the moves."""
    checked = 0
    for k, pos in enumerate(_two_player_positions(1)):
        if sum(pos.hand_size(s) for s in (0, 1)) > 5 or k % 3:
            continue
        moves = list(pos.candidate_moves().moves)
        searcher = Searcher(pos.to_move, horizon="deal",
                            evaluate=evaluation.deal_start_estimate, terminal=evaluation.value)
        want = searcher.values(pos, moves, 100)
        got = bots_core.deal_values(pos, moves)
        assert got == pytest.approx(want, abs=1e-9), (pos.to_json(), moves)
        checked += 1
    assert checked > 50


def test_a_table_beyond_the_cores_masks_is_listed_by_python() -> None:
    """Two decks can lay more than 64 loose cards: the Python engine answers there, with
    the same budget rule."""
    rules = preset("mulle")
    loose = tuple(sorted(list(range(52)) + list(range(14))))  # 66 loose cards
    pos = Position(rules=rules, round=1, deal=9, dealer=1, to_move=0, hands=((51,), ()),
                   table=loose, piles=((), ()), scores=(0, 0))
    want = equal.listing(pos, 5_000, compiled=False)
    assert equal.listing(pos, 5_000, compiled=True) == want


# ----------------------------------------------------------------------
# The boundary: a corrupted call gets a Python exception, never a crash


def _rules_capsule() -> object:
    return core._tables(preset("casino"))


@compiled
@pytest.mark.parametrize(("hand", "loose", "builds", "seat", "error"), [
    ((52,), (), (), 0, ValueError),
    ((-1,), (), (), 0, ValueError),
    ((1,), (3.5,), (), 0, TypeError),
    ((1,), (True,), (), 0, TypeError),
    ([1], (), (), 0, TypeError),
    ((1,), (), (Build(99, 0, (1, 2)),), 0, ValueError),
    ((1,), (), (Build(8, 7, (1, 2)),), 0, ValueError),
    ((1,), (), ("not a build",), 0, AttributeError),
    ((1,), (), (), 9, ValueError),
])
def test_a_corrupted_call_is_refused_with_an_exception(
        hand: object, loose: object, builds: object, seat: int,
        error: type[Exception]) -> None:
    module = core.module()
    assert module is not None
    with pytest.raises(error):
        module.generate(_rules_capsule(), hand, loose, builds, seat, -1)


@compiled
def test_the_core_refuses_what_is_not_a_ruleset() -> None:
    module = core.module()
    assert module is not None
    with pytest.raises(ValueError):
        module.generate(object(), (1,), (), (), 0, -1)
    table = preset("casino").table
    with pytest.raises(ValueError):
        module.make_rules(table.played[:51], table.sum_value, table.sum_alt,
                          table.pair_played, table.pair_table, table.holds, table.face_one,
                          14, 14, 0, False, True, True, False, False, False)
    with pytest.raises(ValueError):
        module.make_rules(table.played, table.sum_value, table.sum_alt, table.pair_played,
                          table.pair_table, table.holds, table.face_one, 99, 14, 0, False,
                          True, True, False, False, False)


_junk = st.one_of(st.integers(-3, 60), st.none(), st.text(max_size=2), st.floats(),
                  st.booleans())


@compiled
@settings(max_examples=300, deadline=None)
@given(hand=st.lists(_junk, max_size=8).map(tuple),
       loose=st.lists(_junk, max_size=20).map(tuple),
       seat=st.integers(-2, 6), steps=st.integers(-5, 5_000))
def test_fuzzing_the_boundary_gives_answers_or_exceptions(
        hand: tuple[object, ...], loose: tuple[object, ...], seat: int, steps: int) -> None:
    module = core.module()
    assert module is not None
    try:
        got = module.generate(_rules_capsule(), hand, loose, (), seat, steps)
    except (TypeError, ValueError):
        return
    moves, left = got
    assert moves is None or all(isinstance(m, Move) for m in moves)
    assert isinstance(left, int)
    if moves is not None and all(isinstance(c, int) for c in hand + loose):
        budget = movegen.Budget(steps) if steps >= 0 else None
        want = movegen.generate(preset("casino"), hand, loose, (), seat, budget)  # type: ignore[arg-type]
        assert [(m, m.groups) for m in moves] == [(m, m.groups) for m in want]


# ----------------------------------------------------------------------
# The best capture on a crowded table


def _taken(move: Move) -> list[int]:
    return [move.card, *move.loose, *(c for b in move.builds for c in b.cards)]


@compiled
@pytest.mark.parametrize("name", ["kasino", "tablic", "casino"])
def test_a_crowded_tables_lists_hold_the_captures_taking_the_most_cards_and_points(
        name: str) -> None:
    """On tables of 16 to 22 loose cards, where the lists are a bounded selection, each
    card's captures in the list include one taking as many cards as any legal capture of
    that card, and one taking as many points (the full listing, within a large budget,
    says how many)."""
    from casino.engine.legality import LISTING_STEPS
    from casino.engine.scheme import scheme

    rules = preset(name)
    points = scheme(rules).points_of
    checked = 0
    for seed in (2, 5, 8, 11, 14, 17):
        for pos, _ in equal.positions(rules, seed):
            if not 16 <= len(pos.loose) <= 22 or pos.moves_within(LISTING_STEPS) is not None:
                continue
            try:
                full = movegen.generate(rules, pos.hand(pos.to_move), pos.loose, pos.builds,
                                        pos.to_move, movegen.Budget(3_000_000))
            except movegen.TooMuchWork:
                continue
            listed = pos.candidate_moves().moves
            for card in set(pos.hand(pos.to_move)):
                every = [m for m in full if m.card == card and m.is_capture]
                if not every:
                    continue
                shown = [m for m in listed if m.card == card and m.is_capture]
                checked += 1
                most = max(len(_taken(m)) for m in every)
                assert max(len(_taken(m)) for m in shown) == most, (pos.to_json(), card)
                best = max(sum(map(points, _taken(m))) for m in every)
                assert max(sum(map(points, _taken(m))) for m in shown) == best, pos.to_json()
    assert checked >= 10


@compiled
def test_the_cores_best_capture_is_the_best_union_of_disjoint_groups() -> None:
    """On random tables of up to 12 loose cards, the core's best capture of each value
    scores what the best of every capture (movegen's closure of the pairs and groups)
    scores."""
    rng = random.Random(5)
    for name in ("casino", "kasino", "tablic", "mulle", "classic"):
        rules = preset(name)
        table = rules.table
        alt = (rules.ace_sum_alt - rules.ace_sum) if rules.ace_sum_alt else 0
        for _ in range(60):
            loose = rng.sample(range(52), rng.randint(2, 12))
            card = rng.choice([c for c in range(52) if c not in loose])
            scores = [rng.randint(0, 5) for _ in loose]
            sums = movegen.TableSums(table, loose, max(table.max_value, table.max_build), alt)
            keys = table.pair_played[card]
            pairs = [1 << i for i, x in enumerate(loose) if table.pair_table[x] in keys]
            for v in table.played[card] or (0,):
                groups = [m for m in sums.by_sum[v] if m & (m - 1)] if 0 < v <= sums.maxv else []
                unions = list(movegen.closure(pairs + groups))
                if not table.played[card] and table.face_one[card]:
                    unions = [0, *pairs]
                want = max(sum(s for i, s in enumerate(scores) if u >> i & 1) for u in unions)
                got = core.best_capture(rules, card, v, loose, scores, 10_000_000)
                assert got is not None
                score = sum(scores[loose.index(c)] for c in got)  # one deck: cards differ
                assert score == want, (name, loose, card, v, scores, got)
