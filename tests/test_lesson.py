"""The guided first game (casino.teach.lesson): the arranged deal offers every kind of
move it promises, the steps lead a learner through a whole round to its scoring, the
lesson adapts to a learner who plays otherwise, and it names only cards the learner
sees."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from casino.engine.cards import card_symbol
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.rules import PRESET_NAMES
from casino.teach import lesson
from casino.teach.lesson import (
    FREE,
    LEARNER,
    LESSON_DEALS,
    LESSON_SEEDS,
    SCORING,
    TAKE_BUILD,
    WAIT,
    Step,
    lesson_kinds,
    lesson_session,
    move_kinds,
    play_lesson,
    session_step,
)
from casino.words.glossary import BY_WORD
from casino.words.narrate import item_words

SYMBOL = re.compile(r"(?:10|[2-9AJQK])[♠♣♥♦]")


def test_every_preset_has_a_lesson_and_its_kinds() -> None:
    assert set(LESSON_SEEDS) == set(PRESET_NAMES)
    assert lesson_kinds(lesson.lesson_rules("casino")) == ("sweep", "pair", "sum", "build",
                                                          "trail")
    # No builds in Krypkasino, Finnish Kasino and Tablić.
    for name in ("krypkasino", "kasino", "tablic"):
        assert "build" not in lesson_kinds(lesson.lesson_rules(name))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_arranged_first_deal_offers_each_kind_the_lesson_promises(name: str) -> None:
    """A learner following the steps is shown, and plays, each kind within the first
    deal; each step's move is one of the engine's legal moves on the learner's
    observation and shows the kind the step names."""
    session = lesson_session(name)
    offered: set[str] = set()
    while not session.round_over and session.match.position.deal <= LESSON_DEALS:
        if not session.human_to_move:
            session.computer_move()
            continue
        view = session.match.position.observe(LEARNER)
        step = session_step(session)
        if step.move:
            move = view.parse_move(step.move)
            assert move in view.legal_moves()
            kinds = move_kinds(view, move)
            assert step.kind in kinds
            offered |= kinds
            session.play(step.move)
        else:
            session.play(view.candidate_moves().moves[0])
    assert set(lesson_kinds(session.rules)) <= offered
    assert set(lesson_kinds(session.rules)) <= lesson.deals_learned(session)
    # One new idea a move where the hand allows it (a four-card hand with builds does
    # not: its one free move is a sweep, a pair and a sum at once).
    assert max(lesson.new_kinds(session)) <= lesson.most_at_once(session.rules)
    assert lesson.most_at_once(session.rules) == (
        3 if name in ("casino", "classic", "royal", "spade", "faces-all") else 2)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_learner_following_the_steps_finishes_the_round_and_is_told_its_points(
        name: str) -> None:
    session = lesson_session(name)
    steps = play_lesson(session)
    assert session.round_over
    last = steps[-1]
    assert last.kind == SCORING
    result = session.match.position.result
    assert result is not None
    names = ["You", "Computer"]
    for item in result.items:
        assert f"{names[item.seat]} {item.points:+d} for {item_words(item)}" in last.text
    totals = result.points_by_seat(2)
    assert f"You {totals[0]}, Computer {totals[1]}." in last.text
    # Every learner turn had a step.
    learner_turns = sum(1 for s, *_ in session.match.played() if s == LEARNER)
    assert len(steps) == learner_turns + 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_learner_who_plays_otherwise_gets_a_step_every_turn_and_the_game_ends(
        name: str) -> None:
    rng = random.Random(name)

    def choose(view: Position, step: Step) -> Move:
        return rng.choice(view.candidate_moves().moves)

    session = lesson_session(name)
    steps = play_lesson(session, choose)
    assert session.round_over and steps[-1].kind == SCORING
    assert all(s.kind not in (WAIT, SCORING) for s in steps[:-1])
    assert all(s.text for s in steps)


def test_the_lesson_adapts_to_the_move_played() -> None:
    """A kind counts once played, whichever step showed: the next step teaches another."""
    session = lesson_session("casino")
    first = session_step(session)
    view = session.match.position.observe(LEARNER)
    # The learner plays something else than the step says: a move of another kind.
    other = next(m for m in view.candidate_moves().moves
                 if move_kinds(view, m) and first.kind not in move_kinds(view, m))
    played = move_kinds(view, other)
    session.play(other)
    session.computer_move()
    second = session_step(session)
    assert played <= set(second.learned) and second.kind not in played
    assert first.kind not in second.learned


def test_a_build_is_followed_by_the_step_that_takes_it() -> None:
    session = lesson_session("casino")
    kinds = [s.kind for s in play_lesson(session, deals=1)]
    assert kinds.index("build") + 1 == kinds.index(TAKE_BUILD)


def _visible(view: Position, history: list[tuple[Position, Move]]) -> set[str]:
    """The cards the learner has seen: in hand, on the table, in the piles, set aside,
    and in the positions before their own moves."""
    seen: set[int] = set()
    for pos in [view, *(b for b, _ in history)]:
        hand = pos.hands[LEARNER]
        assert not isinstance(hand, int)
        seen.update(hand)
        for item in pos.table:
            seen.update([item] if isinstance(item, int) else item.cards)
        for pile in pos.piles:
            seen.update(pile)
        seen.update(pos.set_aside)
    return {card_symbol(c) for c in seen}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_step_names_no_card_the_learner_cannot_see(name: str) -> None:
    session = lesson_session(name)
    while not session.round_over:
        if session.human_to_move:
            step = session_step(session)
            view = session.match.position.observe(LEARNER)
            history = lesson.history_of(session)
            # The general text is the glossary's definition, the same for every deal.
            assert not step.general or step.general.endswith(BY_WORD[step.term].definition)
            named = set(SYMBOL.findall(step.text))
            assert named <= _visible(view, history), (step.text, named)
            session.play(step.move or view.candidate_moves().moves[0])
        else:
            session.computer_move()
    # The other player's turn: only a waiting step.
    assert session_step(session).kind == SCORING


def test_the_step_is_worked_out_from_the_observation_alone() -> None:
    """Two deals that differ only in what the learner cannot see give the same step."""
    session = lesson_session("casino")
    pos = session.match.position
    view = pos.observe(LEARNER)
    hidden = [*pos.hands[1], *pos.stock]  # type: ignore[misc]
    rng = random.Random(1)
    rng.shuffle(hidden)
    other = dataclasses.replace(pos, hands=(pos.hands[0], tuple(sorted(hidden[:4]))),
                                stock=tuple(hidden[4:]))
    assert other != pos
    assert other.observe(LEARNER) == view
    assert lesson.step(view, []) == lesson.step(other.observe(LEARNER), [])


def test_a_step_links_to_its_glossary_entry_and_the_guide() -> None:
    step = session_step(lesson_session("tablic"))
    data = step.to_json()
    assert data["glossary"] == f"/glossary#{BY_WORD[step.term].anchor}"
    assert data["guide"] == "/guide/tablic"
    assert step.lines()[0].startswith("Lesson — ")
    assert any("casino glossary" in line for line in step.lines())


def test_free_play_once_every_kind_is_learned() -> None:
    session = lesson_session("casino")
    steps = play_lesson(session)
    assert FREE in [s.kind for s in steps]
    assert set(steps[-1].learned) >= set(steps[-1].kinds)
