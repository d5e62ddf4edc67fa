"""GameSession: the game at the table that the terminal and web front ends drive."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino import IllegalMove
from casino.engine.record import load_record
from casino.engine.rules import preset
from casino.play.session import HUMAN, GameSession, default_names
from casino.teach.hint import session_hint
from tests.crowded_tables import crowded_kasino_match, forbid_enumeration


def new(tmp_path: Path, rules: str = "casino", seed: int = 5, **options: int) -> GameSession:
    return GameSession.new(preset(rules, **options), level="beginner", seed=seed,
                           save_path=tmp_path / "g.rec")


def to_human_turn(g: GameSession) -> None:
    """The computers move until a person's turn (or the round's end).

    The loops live in helpers so that mypy does not carry a loop's exit condition
    (``computer_to_move`` is False) past the moves a test makes afterwards."""
    while g.computer_to_move:
        g.computer_move()


def to_computer_turn(g: GameSession) -> None:
    """The people play their first legal move until a computer's turn (or the round's end)."""
    while g.human_to_move:
        g.play(g.legal_moves()[0])


def test_a_whole_game_is_played_and_saved_after_every_move(tmp_path: Path) -> None:
    g = new(tmp_path)
    while not g.game_over:
        while not g.round_over:
            if g.human_to_move:
                g.play(g.legal_moves()[-1])
            else:
                g.computer_move()
            record = load_record(tmp_path / "g.rec")
            assert record.position == g.match.position
        if not g.game_over:
            g.next_round()
    record = load_record(tmp_path / "g.rec")
    assert record.is_over and record.winner == g.match.winner
    assert record.players == (HUMAN, "beginner")
    assert len(g.log) == sum(len(r.moves) for r in g.match.rounds)


def test_the_view_hides_the_other_hand_and_the_stock(tmp_path: Path) -> None:
    g = new(tmp_path)
    view = g.view
    assert isinstance(view.hands[1], int) and isinstance(view.stock, int)
    assert view.hands[0] == g.match.position.hands[0]


def test_an_illegal_move_is_explained_and_changes_nothing(tmp_path: Path) -> None:
    g = new(tmp_path)
    to_human_turn(g)
    before, log, saved = g.match.position, list(g.log), (tmp_path / "g.rec").read_text()
    not_held = next(c for c in range(52) if c not in g.view.hand(g.human))
    from casino.engine.cards import card_text

    with pytest.raises(IllegalMove, match="you do not hold"):
        g.play(card_text(not_held))
    with pytest.raises(IllegalMove):
        g.play("nonsense")
    assert g.match.position is before and g.log == log
    assert (tmp_path / "g.rec").read_text() == saved


def test_moves_out_of_turn_are_refused(tmp_path: Path) -> None:
    from casino.engine.cards import card_text

    g = new(tmp_path, seed=1)
    to_computer_turn(g)
    assert g.computer_to_move
    with pytest.raises(IllegalMove, match="Computer's turn"):
        g.play(card_text(g.view.hand(g.human)[0]))
    with pytest.raises(ValueError, match="hint is for your own turn"):
        g.hint_job()
    g.computer_move()
    assert g.human_to_move
    with pytest.raises(ValueError, match="not a computer's turn"):
        g.computer_move()


def test_undo_takes_back_your_move_and_the_replies(tmp_path: Path) -> None:
    g = new(tmp_path)
    to_human_turn(g)
    assert not g.can_undo
    with pytest.raises(IllegalMove, match="nothing to undo"):
        g.undo()
    before, log = g.match.position, list(g.log)
    g.play(g.legal_moves()[0])
    to_human_turn(g)
    taken = g.undo()
    assert taken[0].seat == g.human and all(e.seat != g.human for e in taken[1:])
    assert g.match.position == before and g.log == log
    assert load_record(tmp_path / "g.rec").position == before


def test_undo_stops_at_the_deal(tmp_path: Path) -> None:
    """Cards dealt since would be seen again: undo is within the current deal only."""
    g = new(tmp_path)
    to_human_turn(g)
    while g.view.deal == 1:
        g.play(g.legal_moves()[0])
        to_human_turn(g)
    assert g.view.deal == 2
    if g.players[g.to_move] == HUMAN and all(e.deal == 1 for e in g.log):
        assert not g.can_undo
    g.play(g.legal_moves()[0])
    to_human_turn(g)
    assert g.can_undo
    g.undo()
    assert g.view.deal == 2 and not g.can_undo


def test_hint_is_a_legal_move_from_the_persons_view(tmp_path: Path) -> None:
    g = GameSession(new(tmp_path).match, [HUMAN, "beginner"], hint_level="easy")
    to_human_turn(g)
    move, advice = session_hint(g)
    assert move in g.legal_moves() and advice.best.move == str(move)


def test_resume_goes_on_from_the_same_position_with_the_same_players(tmp_path: Path) -> None:
    g = new(tmp_path, "classic", players=4)
    for _ in range(9):
        if g.human_to_move:
            g.play(g.legal_moves()[0])
        else:
            g.computer_move()
    again = GameSession.resume(tmp_path / "g.rec")
    assert again.match.position == g.match.position
    assert again.players == g.players and again.names == g.names
    assert [e.words for e in again.log] == [e.words for e in g.log]


def test_resume_of_a_record_without_players_puts_you_in_seat_0(tmp_path: Path) -> None:
    from casino import Match
    from casino.engine.record import save_record

    save_record(Match("casino", seed=2), tmp_path / "demo.rec")
    g = GameSession.resume(tmp_path / "demo.rec", level="easy")
    assert g.players == (HUMAN, "easy") and g.human == 0


def test_partners_and_opponents_are_named_from_your_seat() -> None:
    rules = preset("classic", players=4)
    assert default_names([HUMAN, "easy", "easy", "easy"], rules) == [
        "You", "Left", "Partner", "Right"]
    assert default_names([HUMAN, "easy"], preset("casino")) == ["You", "Computer"]


def test_bad_players_are_refused() -> None:
    from casino import Match

    with pytest.raises(ValueError, match="a level"):
        GameSession(Match("casino", seed=1), [HUMAN, "grandmaster"])
    with pytest.raises(ValueError, match="needs a person"):
        GameSession(Match("casino", seed=1), ["easy", "easy"])
    with pytest.raises(ValueError, match="3 players for a 2-player game"):
        GameSession(Match("casino", seed=1), [HUMAN, "easy", "easy"])


def test_no_save_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    g = GameSession.new(preset("casino"), level="beginner", seed=3, autosave=False)
    to_human_turn(g)
    g.play(g.legal_moves()[0])
    assert g.save_path is None and not any(tmp_path.iterdir())


def test_default_save_path_is_in_the_data_folder(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    g = GameSession.new(preset("casino"), level="beginner", seed=3)
    assert g.save_path is not None and g.save_path.parent == tmp_path / "casino" / "games"
    assert g.save_path.exists() and g.save_path.name.endswith("-casino-3.rec")


def test_two_people_each_play_their_own_seat_and_cannot_undo(tmp_path: Path) -> None:
    from casino import Match

    changes: list[int] = []
    g = GameSession(Match("casino", seed=8), [HUMAN, HUMAN], ["Ann", "Bob"],
                    on_change=lambda s, events: changes.append(len(s.log)))
    seat = g.to_move
    other = 1 - seat
    with pytest.raises(IllegalMove, match="turn"):
        g.play("7h", seat=other)
    g.play(g.view_of(seat).legal_moves()[0], seat=seat)
    assert g.to_move == other and changes[-1] == 1
    assert not g.can_undo
    with pytest.raises(IllegalMove, match="not a person's seat"):
        g.play("7h", seat=5)


def test_a_bot_job_carries_only_the_computers_observation(tmp_path: Path) -> None:
    from casino.play.session import run_bot_job

    g = new(tmp_path, seed=1)
    to_computer_turn(g)
    job = g.bot_job()
    assert job.observation == g.match.position.observation(g.to_move)
    assert job.observation["hands"][g.human] == len(g.match.position.hand(g.human))
    text = run_bot_job(job)
    assert run_bot_job(job) == text  # seeded: the same think gives the same move
    entry = g.play_computer(text)
    assert str(entry.move) == text
    with pytest.raises(ValueError, match="not a computer's turn"):
        g.play_computer(text)


# ----------------------------------------------------------------------
# Fair play: settings, who may take back what, resigning, takeovers


def test_the_default_settings_help_a_person_alone_and_nobody_between_people() -> None:
    from casino import Match
    from casino.engine.record import Settings
    from casino.play.session import default_settings

    assert default_settings(1) == Settings(hints=True, takebacks=True)
    assert default_settings(2) == default_settings(4) == Settings(hints=False, takebacks=False)
    g = GameSession(Match("casino", seed=8), [HUMAN, HUMAN], ["Ann", "Bob"])
    seat = g.to_move
    assert g.why_no_hint(seat) == "hints are off at this table"
    with pytest.raises(IllegalMove, match="hints are off at this table"):
        g.hint_job(seat)
    g.play(g.view_of(seat).legal_moves()[0], seat=seat)
    assert g.why_no_undo(seat) == "take-backs are off at this table"
    with pytest.raises(IllegalMove, match="take-backs are off"):
        g.undo(seat)
    assert g.notes == []


def test_between_people_a_move_is_taken_back_until_another_person_moves(
        tmp_path: Path) -> None:
    from casino import Match
    from casino.engine.record import Settings

    g = GameSession(Match("classic", seed=3, players=3), [HUMAN, HUMAN, "beginner"],
                    ["Ann", "Bob", "Cy"], settings=Settings(hints=True, takebacks=True),
                    save_path=tmp_path / "t.rec")

    def person_moves() -> int:
        to_human_turn(g)
        seat = g.to_move
        g.play(g.view_of(seat).legal_moves()[0], seat=seat)
        return seat

    first = person_moves()
    to_human_turn(g)  # the computer's replies are taken back with the move
    if g.to_move == first:
        first = person_moves()
        to_human_turn(g)
    other = g.to_move
    assert g.players[other] == HUMAN and other != first
    assert g.may_undo(first) and not g.may_undo(other)
    before = len(g.log)
    taken = g.undo(first)
    assert taken[0].seat == first and g.to_move == first and len(g.log) == before - len(taken)
    assert g.notes[-1].kind == "undo" and g.notes[-1].seat == first
    first = person_moves()
    to_human_turn(g)
    second = person_moves()  # another person moved: too late for the first
    assert g.why_no_undo(first) == (f"{g.names[second]} has moved since: a move can be "
                                    "taken back only until another player moves")
    assert g.may_undo(second)
    # The saved record keeps the take-back and reads back to the same game.
    record = load_record(tmp_path / "t.rec")
    assert record.notes == tuple(g.notes) and record.position == g.match.position


def test_resigning_and_takeovers_follow_the_sides_of_the_game() -> None:
    from casino import Match

    two = GameSession(Match("casino", seed=8), [HUMAN, "beginner"])
    assert two.resign_words(0) == "the other side wins at once"
    assert two.resign(0, "medium") and two.winner == 1 and two.game_over
    assert not two.computer_to_move and two.resign_words(0) is None
    with pytest.raises(IllegalMove, match="the game is over"):
        two.next_round()
    three = GameSession(Match("classic", seed=8, players=3), [HUMAN, HUMAN, HUMAN],
                        ["Ann", "Bob", "Cy"])
    assert three.resign_words(0) == ("a computer plays your seat from then on, and the "
                                     "others play on")
    assert not three.resign(0, "easy") and three.players[0] == "easy"
    with pytest.raises(IllegalMove, match="a computer plays this seat"):
        three.resign(0, "easy")
    assert not three.resign(1, "easy")
    assert three.resign_words(2) == ("the game ends without a winner: nobody else is left "
                                     "to play")
    assert three.why_no_takeover(2) == "Cy is the only person at this table"
    assert three.resign(2, "easy") and three.game_over and three.winner is None


# ----------------------------------------------------------------------
# Crowded tables (issue 15): the person's moves are asked of the engine, never listed


def crowded_session(tmp_path: Path) -> GameSession:
    return GameSession(crowded_kasino_match(), [HUMAN, "beginner"],
                       save_path=tmp_path / "crowded.rec")


def test_a_crowded_table_gives_bounded_lists_of_legal_moves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    forbid_enumeration(monkeypatch)
    g = crowded_session(tmp_path)
    view = g.view
    assert len(view.loose) >= 20 and g.human_to_move
    found = g.candidate_moves()
    assert not found.complete and 0 < len(found.moves) <= 20 * len(view.hand(0))
    assert all(view.is_legal(m) for m in found.moves)
    assert g.legal_moves() == list(found.moves)
    card = view.hand(0)[0]
    options = g.options_of(card)
    assert options.moves and all(m.card == card and view.is_legal(m) for m in options.moves)
    assert g.moves_with(card) == list(options.moves)
    capture = next(m for m in options.moves if m.loose)
    picked = g.moves_using(card, capture.loose[:2])
    assert all(view.is_legal(m) and set(capture.loose[:2]) <= set(m.loose)
               for m in (*picked.exact, *picked.more))
    assert g.view is view  # one observation per position: worked out once
    played = len(g.log)
    g.play(capture)
    assert g.view is not view and len(g.log) == played + 1
