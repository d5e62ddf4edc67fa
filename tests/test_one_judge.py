"""One judge for the hint, the review and the move helper (casino.bots.judge.judgement).

At the same observation the three judge the same candidates on the same deals with the
same budget: the deals' seed is derived from what the player sees, never from hidden
cards, so the hint's move is the review's preferred move there and a game played by the
hint gets no grade worse than good. A grade is taken from the lower end of the cost's
interval, so a cost within the judge's noise reads "about as good", while a clear
blunder is still a blunder.

The games here are one round of each preset with a small judge, so the file stays
quick; the slow test plays them at the default setting through the game session.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from casino import Match, Position, preset
from casino.bots import Limit, make_bot
from casino.bots import compiled as bots_core
from casino.bots import judge as judge_module
from casino.bots.judge import (
    DEFAULT_BUDGET,
    DEFAULT_SAMPLES,
    Budget,
    Judgement,
    candidate_moves,
    fair_deals,
    judgement,
    observation_seed,
)
from casino.bots.levels import LEVELS, make_level
from casino.engine import core as engine_core
from casino.engine.cards import parse_card
from casino.engine.record import RESIGN, Note, Record, read_record, write_record
from casino.engine.rules import PRESET_NAMES
from casino.play.session import HUMAN, GameSession
from casino.teach import review as review_module
from casino.teach.hint import EFFORT, advise, rank_plays, session_hint
from casino.teach.review import (
    ABOUT_AS_GOOD,
    BLUNDER,
    GOOD,
    INACCURACY,
    judge_decision,
    review,
    verdict,
)
from tests.crowded_tables import KASINO_24, crowded

#: The hint level the quick games use: its deals and budget, the review's too.
LEVEL = "easy"
SAMPLES, BUDGET = EFFORT[LEVEL]
ROOT = Path(__file__).resolve().parent.parent


def mid_deal(seed: int = 5, name: str = "casino") -> Position:
    """A real position two moves in, seat 0 to move, the stock still full."""
    match = Match(preset(name), seed=seed)
    while len(match.current.moves) < 2 or match.position.to_move != 0:
        match.play(match.position.candidate_moves().moves[0])
    return match.position


def other_deal(pos: Position) -> Position:
    """``pos`` with seat 1's hidden hand swapped for cards of the stock: another true
    deal that seat 0 cannot tell from ``pos``."""
    hand, stock = pos.hands[1], pos.stock
    assert isinstance(hand, tuple) and isinstance(stock, tuple)
    n = len(hand)
    return replace(pos, hands=(pos.hands[0], tuple(sorted(stock[:n]))),
                   stock=hand + stock[n:])


def hinted_round(name: str, seed: int, level: str) -> tuple[GameSession, Record]:
    """One round of ``name`` for two players in a game session, the person (seat 0)
    asking for the hint at every turn and playing it (the hint the game gives, at hint
    level ``level``), a beginner in seat 1; then the person resigns, which finishes the
    game (unless the round did), and its record is read back as a review reads it."""
    session = GameSession(Match(preset(name), seed=seed), [HUMAN, "beginner"],
                          hint_level=level)
    while not session.round_over:
        if session.computer_to_move:
            session.computer_move()
            continue
        move, _ = session_hint(session)
        session.hint_given()
        session.play(move)
    if not session.game_over:  # a game of one round (Mulle's) is over already
        assert session.resign(0, "beginner")
    return session, read_record(session.record_text())


def assert_hints_are_preferred(r: review_module.Review) -> None:
    hinted = [d for d in r.decisions if d.hinted]
    assert hinted and len(hinted) == len(r.decisions)
    for d in hinted:
        where = f"round {d.round} move {d.ply + 1}: {d.move}"
        assert d.grade == GOOD and d.verdict == GOOD, where
        assert d.preferred == d.move and d.cost == 0, where


# ----------------------------------------------------------------------
# Following the hint


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_round_played_by_the_hint_is_reviewed_as_the_hint_played(name: str) -> None:
    """Every hint, at the quick hint level, is the review's preferred move at the same
    setting: no decision of the hint is graded below good."""
    _, record = hinted_round(name, seed=PRESET_NAMES.index(name) + 3, level=LEVEL)
    r = review(record, 0, samples=SAMPLES, limit=BUDGET)
    assert_hints_are_preferred(r)


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_at_the_default_setting_too(name: str) -> None:
    """The game's own hint (the expert hint level, the default) and the review at its
    default setting: the same judgement, so again no hint is graded below good."""
    assert EFFORT["expert"] == (DEFAULT_SAMPLES, DEFAULT_BUDGET)
    _, record = hinted_round(name, seed=PRESET_NAMES.index(name) + 11, level="expert")
    assert_hints_are_preferred(review(record, 0))


def test_the_hint_the_review_and_the_helper_judge_alike() -> None:
    pos = mid_deal()
    seen = pos.observe(0)
    hint = advise(seen, samples=SAMPLES, budget=BUDGET)
    j = judgement(seen, samples=SAMPLES, budget=BUDGET)
    assert [p.move for p in hint.plays] == [str(j.moves[i]) for i in j.order]
    d = judge_decision(pos, seen.parse_move(hint.plays[1].move), samples=SAMPLES,
                       limit=BUDGET)
    assert d.preferred == hint.best.move  # the review prefers the hint's move
    assert d.cost == pytest.approx(-hint.plays[1].margin, abs=2e-3)
    # The helper ranks by the hint's own judgement at the default setting.
    ranked = rank_plays(seen)
    assert [str(m) for m, _, _ in ranked] == [p.move for p in advise(seen).plays]


def test_a_move_off_the_candidates_changes_nothing_of_theirs() -> None:
    """The move played, when it is not a candidate (a crowded table), is valued apart
    on the same deals: the candidates' values are the hint's to the last digit."""
    pos = crowded("kasino", " ".join(KASINO_24), "Td 8s 9c Ks")
    off = pos.parse_move("8s x 6c+2c")
    assert pos.is_legal(off) and off not in candidate_moves(pos)
    quick = Budget(depth=2, nodes=200)
    alone = judgement(pos, samples=2, budget=quick)
    with_it = judgement(pos, off, samples=2, budget=quick)
    assert with_it.moves == (*alone.moves, off) and with_it.candidates == len(alone.moves)
    assert [t[:-1] for t in with_it.tables] == list(alone.tables)
    d = judge_decision(pos, off, samples=2, limit=quick)
    assert d.preferred == str(alone.moves[alone.preferred])


# ----------------------------------------------------------------------
# The deals' seed: the observation's, and nothing hidden


def test_the_seed_depends_only_on_the_observation() -> None:
    pos = mid_deal()
    alt = other_deal(pos)
    assert alt != pos and alt.observe(0) == pos.observe(0)
    assert observation_seed(pos) == observation_seed(alt) == observation_seed(pos.observe(0))
    a = judgement(pos, samples=3, budget=BUDGET)
    b = judgement(alt, samples=3, budget=BUDGET)
    assert a.deals == b.deals and a.tables == b.tables
    # The observation from the game's JSON (what a hint job carries) is the same one.
    assert observation_seed(Position.from_json(pos.observation(0))) == observation_seed(pos)
    # Another observation, or another seed mixed in, gives other deals.
    later = pos.play(pos.observe(0).candidate_moves().moves[0])
    assert observation_seed(later) != observation_seed(pos)
    assert observation_seed(pos, 1) != observation_seed(pos)
    assert fair_deals(pos.observe(0), 3, random.Random(0))[0] != list(a.deals)


def test_the_seed_is_the_same_in_every_process() -> None:
    """A stable hash, not Python's salted ``hash()``: processes with other hash seeds
    (the web's workers, another machine) draw the same deals."""
    code = ("from casino import Match; from casino.bots.judge import observation_seed; "
            "p = Match('casino', seed=5).position; print(observation_seed(p))")
    seeds = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=ROOT,
                            env={"PYTHONHASHSEED": salt, "PYTHONPATH": str(ROOT / "src")}
                            ).stdout.strip()
             for salt in ("1", "2")}
    assert seeds == {str(observation_seed(Match("casino", seed=5).position))}


# ----------------------------------------------------------------------
# Grades outside the noise only


def judged_with(monkeypatch: pytest.MonkeyPatch, diffs: list[float]) -> review_module.Decision:
    """The decision of the first sampled position when the played move (a trail) is
    worse than the preferred one by ``diffs`` on the deals: the real judgement with its
    values replaced, so that the grade's rule alone is tested."""
    pos = mid_deal()

    def crafted(*args: object, **kwargs: object) -> Judgement:
        j = judgement(*args, **kwargs)  # type: ignore[arg-type]
        top = j.preferred
        played = j.moves.index(trail)
        tables = []
        for t, diff in zip(j.tables, diffs, strict=False):
            row = list(t)
            row[played] = row[top] - diff
            tables.append(tuple(row))
        return replace(j, tables=tuple(tables))

    trail = next(m for m in candidate_moves(pos.observe(0)) if m.kind == "trail")
    monkeypatch.setattr(review_module, "judgement", crafted)
    return judge_decision(pos, trail, samples=len(diffs), limit=Budget(depth=2, nodes=100))


def test_a_cost_within_its_noise_is_not_an_inaccuracy(monkeypatch: pytest.MonkeyPatch) -> None:
    # A mean cost of 1.4 with a spread of about 3: "1.4 ± 3.0" was an inaccuracy.
    d = judged_with(monkeypatch, [5.0, -1.0, 4.0, -2.0, 3.5, -1.5, 2.0, 1.2])
    assert d.cost == pytest.approx(1.4) and d.spread == pytest.approx(2.7, abs=0.1)
    assert d.low < 0 < d.high and d.low == pytest.approx(1.4 - 2 * d.spread / 8 ** 0.5,
                                                          abs=2e-3)
    assert d.grade == GOOD and d.verdict == ABOUT_AS_GOOD


def test_a_clear_blunder_is_still_a_blunder(monkeypatch: pytest.MonkeyPatch) -> None:
    d = judged_with(monkeypatch, [4.5, 5.0, 4.0, 4.8, 5.2, 4.4, 4.6, 5.1])
    assert d.low >= 3 and d.grade == BLUNDER and d.verdict == BLUNDER


def test_a_clear_small_cost_is_an_inaccuracy(monkeypatch: pytest.MonkeyPatch) -> None:
    d = judged_with(monkeypatch, [1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.0, 1.0])
    assert d.grade == INACCURACY and 0.5 <= d.low < 1.5


def last_deal(table: str, mine: str, theirs: str) -> Position:
    """Casino's last deal of two players, seat 0 to move: every card can be deduced."""
    cards = [[parse_card(c) for c in text.split()] for text in (table, mine, theirs)]
    rest = Counter(range(52)) - Counter(cards[0]) - Counter(cards[1]) - Counter(cards[2])
    return Position(rules=preset("casino"), round=1, deal=6, dealer=1, to_move=0,
                    hands=(tuple(sorted(cards[1])), tuple(sorted(cards[2]))),
                    table=tuple(cards[0]), piles=(tuple(sorted(rest.elements())), ()),
                    scores=(0, 0), last_capture=0)


def test_an_exact_judgement_has_no_noise() -> None:
    """The last deal of two players, every card deduced: one deal, exact values, the
    interval is the cost itself, and a cost of 3 points is a blunder."""
    pos = last_deal("Td 2s", "Tc 5h", "2c 9d")
    assert judgement(pos, samples=4, budget=BUDGET).known
    # Trailing the 10♣ lets the 2♣ take the 2♠ and leaves the 10♦ to the last capture.
    d = judge_decision(pos, pos.parse_move("Tc"), samples=4, limit=BUDGET)
    assert d.samples == 1 and d.low == d.cost == d.high
    assert d.cost >= 3 and d.grade == BLUNDER


def test_the_verdict_words() -> None:
    assert verdict(GOOD, 0.0, 0.0) == GOOD  # the preferred move itself
    assert verdict(GOOD, 1.4, -0.3) == ABOUT_AS_GOOD  # within the noise
    assert verdict(GOOD, 0.4, 0.1) == GOOD  # a small cost, surely above zero
    assert verdict(INACCURACY, 1.0, 0.6) == INACCURACY


def test_a_game_without_hints_is_graded_by_the_same_rule() -> None:
    """A game without hints is reviewed by the same rule: every decision's interval
    holds its cost, and only a cost surely above a threshold is graded worse."""
    rules = preset("casino")
    match = Match(rules, seed=4)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    while match.position.result is None:
        pos = match.position
        match.play(bots[pos.to_move].choose(pos.observation(pos.to_move)))
    notes = [Note(RESIGN, 1, 1, len(match.current.moves))]
    r = review(read_record(write_record(match, notes=notes)), 0, samples=SAMPLES,
               limit=BUDGET)
    assert not any(d.hinted for d in r.decisions)
    for d in r.decisions:
        assert d.low <= d.cost <= d.high
        assert d.grade == r.thresholds.grade(d.low)
    assert all(r.decisions[i].low > 0 for i in r.costliest)


# ----------------------------------------------------------------------
# The expert level plays the judge's move


needs_core = pytest.mark.skipif(not bots_core.evaluation_ready(preset("casino")),
                                reason=f"no compiled core here: {engine_core.engine_name()}")


@needs_core
@pytest.mark.parametrize("name", [
    n if n in ("casino", "classic", "mulle") else pytest.param(n, marks=pytest.mark.slow)
    for n in PRESET_NAMES if LEVELS["expert"].on(preset(n))[0] == "judge"])
def test_the_expert_level_plays_the_hints_move(name: str) -> None:
    """At two players with the core, the expert level's move is the hint's at every
    decision the hint judges by sampled deals (the last deal is solved for the game)."""
    match = Match(preset(name), seed=PRESET_NAMES.index(name) + 21)
    bot, limit = make_level("expert", seed=1)
    judged = 0
    while match.position.result is None:
        pos = match.position
        move = bot.choose(pos.observation(pos.to_move), replace(limit, seconds=30.0))
        if len(pos.legal_moves()) > 1 and pos.stock_size:
            assert str(move) == advise(pos).best.move, (name, str(pos))
            judged += 1
        match.play(move)
    assert judged >= 10


@needs_core
def test_a_deadline_that_cuts_the_judgement_falls_back_to_pimc() -> None:
    pos = mid_deal()
    seen = pos.observe(0)
    assert judge_module.preferred_on_core(seen, deadline=0.0) is None
    judged = judgement(seen)
    assert judge_module.preferred_on_core(seen) == judged.moves[judged.preferred]
    move = make_bot("judge", 3).choose(pos.observation(0), Limit(iterations=2, seconds=0.0))
    assert pos.is_legal(move)


def test_without_the_core_the_judge_bot_plays_pimc(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the core cannot judge, the bot is ``pimc`` with its own samples: the
    expert level of the pure-Python engine."""
    monkeypatch.setattr(bots_core, "evaluation_ready", lambda rules: False)
    pos = mid_deal()
    limit = Limit(iterations=2, seconds=60.0)
    assert (make_bot("judge", 5).choose(pos.observation(0), limit)
            == make_bot("pimc", 5).choose(pos.observation(0), limit))
