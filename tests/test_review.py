"""The post-game review (casino.teach.review) and ``casino review``.

The searches here are small (few samples, a small node budget): the tests check what
the review says and that it sees only what the reviewed seat saw, not how well the
judge plays; docs/review.md has the default setting's figures.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from casino.bots import judge as judge_module
from casino.bots import knowledge, make_bot
from casino.bots.judge import DEFAULT_BUDGET, DEFAULT_SAMPLES, Budget, candidate_moves
from casino.cli import review as cli_review
from casino.engine.match import Match
from casino.engine.moves import TRAIL, Move
from casino.engine.position import Position
from casino.engine.record import Record, read_record, write_record
from casino.engine.rules import preset
from casino.teach.review import (
    BLUNDER,
    GOOD,
    GRADES,
    INACCURACY,
    KINDS,
    MISTAKE,
    Decision,
    Review,
    ReviewError,
    Thresholds,
    judge_decision,
    leaves_words,
    review,
)
from tests.cli_helpers import run
from tests.crowded_tables import crowded_kasino_match, forbid_enumeration

#: A small judge: the tests check the review's logic, not the judge's strength.
SMALL = Budget(depth=4, nodes=300)


def bots_game(name: str = "casino", seed: int = 3, bot: str = "greedy",
              players: int = 2) -> Record:
    """A finished game between bots, read back from its record."""
    rules = preset(name, players=players)
    match = Match(rules, seed=seed)
    bots = [make_bot(bot, seed * 10 + s) for s in range(rules.players)]
    while match.winner is None:
        pos = match.position
        if pos.result is not None:
            match.next_round()
            continue
        match.play(bots[pos.to_move].choose(pos.observation(pos.to_move)))
    return read_record(write_record(match))


@pytest.fixture(scope="module")
def game() -> Record:
    return bots_game()


@pytest.fixture(scope="module")
def reviewed(game: Record) -> Review:
    return review(game, 0, samples=2, seed=5, limit=SMALL)


# ----------------------------------------------------------------------
# Fair: the grades come from the reviewed seat's observation only


def other_deal(pos: Position) -> Position:
    """``pos`` with seat 1's hidden hand swapped for the first cards of the stock: a
    different true deal that seat 0 cannot tell from ``pos``."""
    hand, stock = pos.hands[1], pos.stock
    assert isinstance(hand, tuple) and isinstance(stock, tuple)
    n = len(hand)
    return replace(pos, hands=(pos.hands[0], tuple(sorted(stock[:n]))),
                   stock=hand + stock[n:])


def test_grades_use_only_the_seats_observation() -> None:
    # Seed 11's first position, seat 0 to lead. A judge that sees
    # seat 1's hand prefers another move than the fair one on the true deal; on a
    # deal seat 0 cannot tell from it, the fair judgement is the same to the last
    # digit, and only the hindsight changes.
    pos = Match(preset("casino"), seed=11, first_dealer=1).position
    assert pos.to_move == 0
    alt = other_deal(pos)
    assert alt != pos and alt.observe(0) == pos.observe(0)
    played = candidate_moves(pos.observe(0))[0]
    a = judge_decision(pos, played, samples=4, seed=1, limit=SMALL)
    b = judge_decision(alt, played, samples=4, seed=1, limit=SMALL)
    fair = ("preferred", "cost", "spread", "low", "high", "grade", "verdict", "options",
            "margin", "depth", "samples", "position")
    assert {k: getattr(a, k) for k in fair} == {k: getattr(b, k) for k in fair}
    # The hidden cards decide: seeing them, the judge prefers another move on the true
    # deal than the fair one, and the hindsight differs between the two deals.
    assert a.hindsight.best != a.preferred
    assert a.hindsight != b.hindsight


def test_the_samples_are_drawn_from_the_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every deal the fair judgement searches is sampled from the observation (hidden
    # hands as counts); the true position reaches the judge once, for the hindsight.
    pos = Match(preset("casino"), seed=2, first_dealer=1).position
    seen: list[Position] = []
    real = knowledge.sample

    def spy(p: Position, rng: random.Random) -> Position:
        seen.append(p)
        return real(p, rng)

    monkeypatch.setattr(judge_module, "sample", spy)
    judge_decision(pos, candidate_moves(pos)[0], samples=3, limit=SMALL)
    assert len(seen) == 3 and all(p == pos.observe(0) for p in seen)
    assert all(isinstance(p.hands[1], int) and isinstance(p.stock, int) for p in seen)


def test_the_last_deal_of_two_players_is_judged_once(game: Record) -> None:
    # The stock is empty: the unseen cards are the other hand, nothing is sampled.
    rnd = game.rounds[0]
    ply = next(i for i, (p, s) in enumerate(zip(rnd.positions, rnd.movers, strict=False))
               if p.is_last_deal and s == 0 and len(candidate_moves(p.observe(0))) > 1)
    d = judge_decision(rnd.positions[ply], rnd.moves[ply], ply=ply, samples=4, limit=SMALL)
    assert d.samples == 1 and d.spread == 0 and d.last_deal
    assert d.low == d.cost == d.high  # exact: the interval is the cost itself
    # The one deal the seat could deduce is the true one: the hindsight is the judgement.
    assert d.hindsight.cost == d.cost and d.hindsight.best == d.preferred


# ----------------------------------------------------------------------
# The review's value


def test_same_seed_same_review(game: Record, reviewed: Review) -> None:
    calls: list[tuple[int, int]] = []
    again = review(game, 0, samples=2, seed=5, limit=SMALL,
                   progress=lambda done, total: calls.append((done, total)))
    assert again == reviewed
    n = len(reviewed.decisions)
    assert calls == [(k, n) for k in range(n + 1)]  # before the first, after each


def test_every_decision_of_the_seat_is_judged_or_forced(game: Record,
                                                        reviewed: Review) -> None:
    moves = sum(1 for rnd in game.rounds for s in rnd.movers if s == 0)
    assert len(reviewed.decisions) + reviewed.forced == moves
    for d in reviewed.decisions:
        # Graded by the lower end of the cost's interval.
        assert d.grade in GRADES and d.grade == reviewed.thresholds.grade(d.low)
        assert d.low <= d.cost <= d.high
        assert d.cost >= 0 and d.spread >= 0 and d.hindsight.cost >= 0
        assert d.preferred == d.options[0].move  # the best mean first
        assert any(o.move == d.move for o in d.options)
        if d.cost == 0:
            assert d.grade == GOOD
    # The graph: swings within a round, each round's first decision starting at 0.
    firsts: dict[int, Decision] = {}
    for d in reviewed.decisions:
        firsts.setdefault(d.round, d)
    assert all(d.swing == 0 for d in firsts.values())


def test_the_summary(reviewed: Review) -> None:
    assert [t.kind for t in reviewed.totals] == list(KINDS)
    assert sum(t.decisions for t in reviewed.totals) == len(reviewed.decisions)
    assert sum(t.cost for t in reviewed.totals) == pytest.approx(reviewed.cost, abs=0.01)
    costs = [reviewed.decisions[i].cost for i in reviewed.costliest]
    assert costs == sorted(costs, reverse=True) and len(reviewed.costliest) <= 3
    assert all(c > 0 for c in costs)
    # The costliest of those that surely cost something (the interval above zero): a
    # cost within the judge's noise is no advice.
    assert all(reviewed.decisions[i].low > 0 for i in reviewed.costliest)
    sure = [d.cost for d in reviewed.decisions if d.low > 0]
    assert max(sure, default=0) == (costs[0] if costs else 0)
    for i, text in zip(reviewed.costliest, reviewed.advice, strict=True):
        d = reviewed.decisions[i]
        assert d.preferred_words in text and d.words in text


def test_the_json_round_trips(reviewed: Review) -> None:
    data = json.loads(json.dumps(reviewed.to_json()))
    assert data["format"] == "casino-review/2"
    assert isinstance(data["decisions"][0]["position"], dict)  # an object, for front ends
    assert Review.from_json(data) == reviewed
    with pytest.raises(ValueError, match="casino-review/2"):
        Review.from_json({"format": "something else"})
    with pytest.raises(ValueError, match="casino-review/2"):
        Review.from_json({"format": "casino-review/2"})
    with pytest.raises(ValueError, match="casino-review/2"):  # graded by older rules
        Review.from_json({**data, "format": "casino-review/1"})


def test_thresholds() -> None:
    t = Thresholds(inaccuracy=0.5, mistake=1.5, blunder=3)
    assert [t.grade(x) for x in (0, 0.49, 0.5, 1.5, 2.9, 3, 9)] == [
        GOOD, GOOD, INACCURACY, MISTAKE, MISTAKE, BLUNDER, BLUNDER]
    with pytest.raises(ValueError, match="rise"):
        Thresholds(inaccuracy=2, mistake=1)


def test_leaves_words() -> None:
    pos = Match(preset("casino"), seed=1, first_dealer=1).position
    trail = next(m for m in candidate_moves(pos) if m.kind == TRAIL)
    assert leaves_words(pos, trail).startswith("leaves ")


def test_refuses_what_cannot_be_reviewed(game: Record) -> None:
    with pytest.raises(ReviewError, match="seat 2 is not a seat"):
        review(game, 2)
    with pytest.raises(ReviewError, match="2 sampled deals or more"):
        review(game, 0, samples=1)  # one deal cannot tell its own noise
    unfinished = read_record(write_record(Match(preset("casino"), seed=4)))
    with pytest.raises(ReviewError, match="not finished"):
        review(unfinished, 0)


def test_a_crowded_table_is_judged_without_listing_every_move(
        monkeypatch: pytest.MonkeyPatch) -> None:
    match = crowded_kasino_match()
    pos = match.position
    forbid_enumeration(monkeypatch)
    d = judge_decision(pos, Move(TRAIL, pos.hand(0)[0]), samples=2,
                       limit=Budget(depth=2, nodes=100))
    assert d.grade in GRADES and len(d.options) <= 6


@pytest.mark.parametrize(("name", "players"), [
    ("kasino", 2),
    pytest.param("tablic", 2, marks=pytest.mark.slow),
    pytest.param("kasino", 4, marks=pytest.mark.slow),
    pytest.param("tablic", 4, marks=pytest.mark.slow),
])
def test_other_presets_review(name: str, players: int) -> None:
    # Games of the other families (Finnish Kasino, Tablić), of four players each for
    # themselves and of two partnerships (nothing is deduced there, every decision is
    # sampled): the review runs. Finnish Kasino of two is the fast variant.
    g = bots_game(name, seed=2, players=players)
    r = review(g, 1, samples=2, limit=Budget(depth=2, nodes=100))
    assert r.decisions and r.seat == 1


# ----------------------------------------------------------------------
# casino review


def test_the_cli_defaults_are_the_reviews() -> None:
    assert cli_review.SAMPLES == DEFAULT_SAMPLES
    assert DEFAULT_BUDGET.depth == cli_review.DEPTH
    assert DEFAULT_BUDGET.nodes == cli_review.NODES


FAST = ("--samples", "2", "--depth", "2", "--nodes", "100")


def test_cli_reviews_a_demo_game(tmp_path: Path) -> None:
    path = tmp_path / "demo.rec"
    code, _, err = run("demo", "--seed", "3", "--plain", "--delay", "0", "--save", str(path))
    assert code == 0, err
    code, out, err = run("review", str(path), *FAST)
    assert code == 0, err
    assert "Review of" in out and "Round 1" in out and "By kind of move" in out
    assert "hindsight" in out
    # A demo's seats are named by number: the header does not say it twice.
    assert out.startswith("Review of seat 0, casino,"), out.splitlines()[0]
    code, bar_out, err = run("review", str(path), *FAST, "--progress")  # the bar's code
    assert code == 0 and bar_out == out, err
    code, out, err = run("review", str(path), *FAST, "--seat", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["seat"] == 1 and Review.from_json(data).seat == 1


def test_cli_reviews_a_bots_game_the_same_way_twice(tmp_path: Path, game: Record) -> None:
    path = tmp_path / "bots.rec"
    path.write_text(write_record(game, players=["human", "expert"]), encoding="utf-8")
    outs = [run("review", str(path), *FAST, "--json", "--seed", "9")[1] for _ in range(2)]
    assert outs[0] == outs[1]
    assert json.loads(outs[0])["seat"] == 0  # the one person at the table


def test_cli_errors(tmp_path: Path) -> None:
    code, _, err = run("review", str(tmp_path / "nowhere.rec"))
    assert code == 2 and "nowhere.rec" in err and "Traceback" not in err
    bad = tmp_path / "bad.rec"
    bad.write_text("not a record\n", encoding="utf-8")
    code, _, err = run("review", str(bad))
    assert code == 2 and "bad.rec: line 1" in err
    unfinished = tmp_path / "live.rec"
    unfinished.write_text(write_record(Match(preset("casino"), seed=4)), encoding="utf-8")
    code, _, err = run("review", str(unfinished))
    assert code == 2 and "not finished" in err
    done = tmp_path / "done.rec"
    done.write_text(write_record(bots_game()), encoding="utf-8")
    code, _, err = run("review", str(done), "--seat", "5")
    assert code == 2 and "seat 5 is not a seat" in err
    code, _, err = run("review", str(done), "--samples", "1")
    assert code == 2
