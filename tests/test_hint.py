"""Hints that explain (casino/teach/hint.py): the plays ranked by the fair judgement, and
each reason's facts checked against the engine: what a play takes, its points, the
next player's reply (legal for them on a sampled deal), the margins, the seeding, and
that nothing hidden from the player is used."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from casino import Match, Position, preset
from casino.bots.evaluation import immediate_gain
from casino.bots.judge import MAX_CANDIDATES, Budget, deals_rng, fair_deals
from casino.engine.builds import Build
from casino.engine.cards import card_text, parse_card
from casino.engine.moves import CAPTURE
from casino.engine.scheme import scheme
from casino.play.session import HUMAN, GameSession
from casino.teach.hint import (
    EFFORT,
    Advice,
    advise,
    advise_job,
    rank_plays,
    session_hint,
)
from tests.crowded_tables import KASINO_24, crowded, forbid_enumeration

QUICK = Budget(depth=4, nodes=300)


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(t) for t in text.split()))


def mid_deal(seed: int = 5, plies: int = 2, name: str = "casino") -> Position:
    """A position of a real game a few moves in (the stock still holds cards)."""
    match = Match(preset(name), seed=seed)
    done = 0
    while done < plies or match.position.to_move != 0:  # seat 0 to move
        match.play(match.position.candidate_moves().moves[0])
        done += 1
    return match.position


def table_position() -> Position:
    """Casino, first deal: the 10♦, 5♠ and 5♥ on the table, 10♣ 5♦ 2♠ 7h in hand;
    the 10♦ (2 points) and the 2♠ (1 point) score by themselves."""
    rules = preset("casino")
    mine = cards("Tc 5d 2s 7h")
    table = cards("Td 5s 5h")
    rest = [c for c in range(52) if c not in mine and c not in table]
    return Position(rules=rules, round=1, deal=1, dealer=1, to_move=0,
                    hands=(mine, tuple(rest[:4])), table=table, piles=((), ()),
                    stock=tuple(rest[4:]), scores=(0, 0))


def test_the_facts_of_each_reason_are_the_engines() -> None:
    pos = table_position()
    advice = advise(pos.observe(0), seed=1, samples=3, budget=QUICK)
    sch = scheme(pos.rules)
    assert advice.plays and advice.complete
    moves = {str(m): m for m in pos.legal_moves()}
    assert {p.move for p in advice.plays} == set(moves)
    for play in advice.plays:
        move = moves[play.move]
        taken = ([move.card, *move.loose, *(c for b in move.builds for c in b.cards)]
                 if move.kind == CAPTURE else [])
        assert Counter(play.takes) == Counter(card_text(c) for c in taken)
        assert Counter(play.point_cards) == Counter(card_text(c) for c in taken
                                                    if sch.points_of(c))
        assert play.card_points == sum(sch.points_of(c) for c in taken)
        assert play.now == pytest.approx(immediate_gain(pos, move), abs=1e-3)
        after = pos.play(move)
        assert play.sweep == (len(after.sweeps) > len(pos.sweeps))
        assert play.reason.startswith("It takes")
        if play.point_cards:
            assert "10♦" in play.reason and f"({play.card_points} points)" in play.reason
    take_all = advice.play("Tc x Td")
    assert take_all is not None and take_all.point_cards == ("Td",)
    assert take_all.card_points == 2 and "the point card 10♦ (2 points)" in take_all.reason
    sweep = next(p for p in advice.plays if p.sweep)  # 10♣ takes 10♦ and 5♠ + 5♥
    assert set(sweep.takes) == {"Tc", "Td", "5s", "5h"} and "and scores a sweep" in sweep.reason
    assert "clears the table" in sweep.reason


def test_the_plays_are_ranked_and_the_margins_add_up() -> None:
    advice = advise(mid_deal().observe(0), seed=2, samples=4, budget=QUICK)
    values = [p.value for p in advice.plays]
    assert values == sorted(values, reverse=True)
    best, second = advice.plays[0], advice.plays[1]
    assert best.margin == pytest.approx(best.value - second.value, abs=2e-3)
    assert best.margin >= 0
    for p in advice.plays[1:]:
        assert p.margin == pytest.approx(p.value - best.value, abs=2e-3) and p.margin <= 0
        assert "worse on average than the best" in p.reason or "as good as" in p.reason
    assert ("better on average than the next best" in best.reason
            or "as good as the next best" in best.reason)


def test_the_reply_named_is_legal_for_the_next_player_on_a_sampled_deal() -> None:
    pos = mid_deal()
    seen = pos.observe(0)
    advice = advise(seen, seed=5, samples=4, budget=QUICK)
    deals, known = fair_deals(seen, 4, deals_rng(seen, 5))
    assert not known and len(deals) == advice.samples
    checked = 0
    for play in advice.plays:
        reply = play.reply
        assert reply is not None  # the deal goes on: somebody plays next
        move = seen.parse_move(play.move)
        found = 0
        for deal in deals:
            after = deal.play(move)
            assert reply.seat == after.to_move != seen.to_move
            for r in after.legal_moves():
                used: list[int | Build] = [*r.loose, *r.builds]
                items = sorted(card_text(x) if isinstance(x, int) else x.text() for x in used)
                if r.kind == reply.kind and tuple(items) == reply.items:
                    found += 1
                    break
        assert found >= reply.count >= 1
        assert reply.deals == len(deals) and reply.most >= reply.worth
        checked += 1
    assert checked == len(advice.plays)


def test_the_same_seed_gives_the_same_advice_and_it_survives_json() -> None:
    seen = mid_deal().observe(0)
    one = advise(seen, seed=7, samples=3, budget=QUICK)
    assert advise(seen, seed=7, samples=3, budget=QUICK) == one
    assert Advice.from_json(one.to_json()) == one
    with pytest.raises(ValueError, match="not a casino-advice/1"):
        Advice.from_json({"format": "something else"})


def test_hidden_cards_do_not_change_the_hint() -> None:
    """Two full positions that the player cannot tell apart (the opponent's hand and the
    stock exchanged) give the same advice, reasons and all."""
    pos = mid_deal()
    other = pos.hand(1)
    assert isinstance(pos.stock, tuple)
    stock = pos.stock
    swapped = replace(pos, hands=(pos.hands[0], tuple(sorted(stock[:len(other)]))),
                      stock=tuple(other) + stock[len(other):])
    assert swapped.hands[1] != pos.hands[1]
    assert swapped.observation(0) == pos.observation(0)
    a = advise(pos, seed=4, samples=3, budget=QUICK)
    b = advise(swapped, seed=4, samples=3, budget=QUICK)
    assert a == b and [p.reason for p in a.plays] == [p.reason for p in b.plays]


def test_a_crowded_table_is_judged_within_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    forbid_enumeration(monkeypatch)
    pos = crowded("kasino", " ".join(KASINO_24), "Td 8s 9c Ks")
    advice = advise(pos.observe(0), seed=0, samples=2, budget=QUICK)
    assert 1 < len(advice.plays) <= MAX_CANDIDATES and not advice.complete
    assert advice.known  # the last deal of two players: every card is deduced
    assert all(p.reason for p in advice.plays)
    ranked = rank_plays(pos.observe(0), None, None)
    assert [str(m) for m, _, _ in ranked] == [p.move for p in advise(pos).plays]


def test_the_hint_of_a_session_is_its_best_play(tmp_path: object) -> None:
    session = GameSession(Match(preset("casino"), seed=9), [HUMAN, "beginner"],
                          hint_level="beginner")
    job = session.hint_job()
    assert job.hint and job.level == "beginner"
    move, advice = session_hint(session)
    assert move in session.legal_moves() and str(move) == advice.best.move
    assert advice == advise_job(job)
    assert (advice.samples, advice.nodes) == (EFFORT["beginner"][0],
                                              EFFORT["beginner"][1].nodes)


def test_a_build_and_a_trail_are_told_as_taking_nothing() -> None:
    rules = preset("casino")
    mine = cards("8c 5d 9h")
    table = (parse_card("3s"), Build.make(8, 1, ((parse_card("6h"), parse_card("2d")),)))
    seen_cards = set(mine) | {parse_card("3s"), parse_card("6h"), parse_card("2d")}
    rest = [c for c in range(52) if c not in seen_cards]
    pos = Position(rules=rules, round=1, deal=1, dealer=1, to_move=0,
                   hands=(mine, tuple([parse_card("8d"), *rest[:3]])), table=table,
                   piles=((), ()), stock=tuple(c for c in rest[3:] if c != parse_card("8d")),
                   scores=(0, 0))
    advice = advise(pos.observe(0), seed=0, samples=2, budget=QUICK)
    trail = advice.play("9h")
    assert trail is not None and trail.takes == () and trail.reason.startswith("It takes nothing")
    assert "leaves 9♥, 3♠ and the 8-build" in trail.reason
