"""``casino replay`` and ``casino demo``: the steps of a game, the plain dump for pipes, and
the full-screen viewer (driven headless through textual's Pilot, and through a real
pseudo-terminal as a person runs it).
"""

from __future__ import annotations

import asyncio
import io
import os
import random
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from casino.engine.cards import card_symbol
from casino.engine.match import Match
from casino.engine.record import UNDO, load_record, read_record, write_record
from casino.tui.replay import DEAL, MOVE, NOTE, dump_record, record_steps
from casino.tui.viewer import (
    DemoPlayer,
    DemoViewer,
    GoToRoundScreen,
    SeatView,
    ViewerApp,
    record_viewer,
)
from casino.words.narrate import leftover_words
from tests.tui_helpers import beginner_session, current, on_top

SIZE = (110, 36)
CASINO = str(Path(sys.executable).parent / "casino")

ViewerTest = Callable[[ViewerApp, Pilot[None]], Awaitable[None]]


def finished_record(seed: int = 4, names: tuple[str, str] | None = ("Ann", "Bob")) -> str:
    match = Match("casino", seed=seed)
    rng = random.Random(seed)
    match.play_out(lambda p: rng.choice(p.legal_moves()))
    assert len(match.rounds) >= 2
    return write_record(match, names=names)


def drive(app: ViewerApp, test: ViewerTest) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await test(app, pilot)

    asyncio.run(main())


def text(app: ViewerApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).visual)


def seat_text(app: ViewerApp, seat: int) -> str:
    view = next(v for v in app.screen.query(SeatView) if v.seat == seat)
    return str(view.visual)


# ----------------------------------------------------------------------
# The steps and the plain dump


def test_steps_are_each_deal_and_move_in_order_with_words() -> None:
    record = read_record(finished_record())
    steps = record_steps(record)
    deals = [s for s in steps if s.kind == DEAL]
    moves = [s for s in steps if s.kind == MOVE]
    assert [s.round for s in deals] == [r.number for r in record.rounds]
    assert [s.move for s in moves] == [m for r in record.rounds for m in r.moves]
    assert [s.position for s in moves] == [p for r in record.rounds for p in r.positions[1:]]
    assert moves[0].words.startswith(("Ann ", "Bob ")) and moves[0].words.endswith(".")
    assert all(not s.words.endswith("!.") for s in steps)
    # The move that ends a round carries its result.
    assert [s.round for s in moves if s.ends_round] == [r.number for r in record.rounds]
    # And says where the cards left on the table went, as the web replay does.
    told = [leftover_words(r.positions[-2], r.moves[-1], r.positions[-1], ["Ann", "Bob"])
            for r in record.rounds]
    assert any(told)
    for step, words in zip([s for s in moves if s.ends_round], told, strict=True):
        assert (words is not None) == ("; the " in step.words)
        assert words is None or step.words.endswith(f"; {words}.")


def test_take_backs_and_hints_are_steps_where_they_happened(tmp_path: Path) -> None:
    session = beginner_session(tmp_path / "g.rec", seed=5)
    if session.computer_to_move:
        session.computer_move()
    session.hint_given()
    session.play(session.legal_moves()[0])
    session.computer_move()
    taken = session.undo()
    record = load_record(tmp_path / "g.rec")
    steps = record_steps(record)
    notes = [s for s in steps if s.kind == NOTE]
    assert [n.note.kind for n in notes if n.note is not None] == ["hint", UNDO]
    undo = notes[-1]
    # The take-back shows the position it went back to, after the moves it took back.
    assert undo.position == record.rounds[0].positions[-1]
    assert steps.index(undo) == len(steps) - 1
    assert "took back 2 moves" in undo.words and len(taken) == 2
    out = io.StringIO()
    dump_record(record, out)
    assert "-- You asked for a hint." in out.getvalue()
    assert "-- You took back 2 moves" in out.getvalue()
    assert out.getvalue().rstrip().endswith("The game is not finished.")


def test_the_dump_says_counts_as_people_do_and_results_in_counting_order() -> None:
    record = read_record(finished_record())
    out = io.StringIO()
    dump_record(record, out)
    text = out.getvalue()
    assert "pile: no cards, no spades, no sweeps" in text
    assert "pile: 1 card," in text or "1 spade," in text or "1 sweep;" in text
    for bad in ("1 cards", "1 spades", "1 sweeps", "0 cards", "0 spades"):
        assert f" {bad}" not in text, bad
    assert "Result of round 1, in counting order:" in text
    assert "most cards" in text and "Totals: Ann " in text
    assert "   Ann " in text or "   Bob " in text  # each move in words under its notation


# ----------------------------------------------------------------------
# The viewer


def test_the_viewer_steps_back_and_forth_and_jumps_by_rounds() -> None:
    record = read_record(finished_record())
    steps = record_steps(record)
    app = ViewerApp(record_viewer(record, source="g.rec"))

    async def test(app: ViewerApp, pilot: Pilot[None]) -> None:
        viewer = app.viewer
        assert viewer.index == 0 and "Round 1" in text(app, "#viewer-event")
        assert f"step 1 of {len(steps)}" in text(app, "#viewer-where")
        # Every hand of a finished game is shown, and the screen says why.
        first = record.rounds[0].start
        for seat in (0, 1):
            shown = seat_text(app, seat).split("\n")[0]
            assert shown == " ".join(card_symbol(c) for c in first.hand(seat))
        assert "the record holds the whole deck" in text(app, "#viewer-score")
        await pilot.press("right", "right")
        assert viewer.index == 2
        assert steps[2].words in text(app, "#viewer-event")
        assert str(steps[2].move) in text(app, "#viewer-event")
        log = app.screen.query_one("#viewer-log", OptionList)
        assert log.highlighted == 2
        await pilot.press("left")
        assert viewer.index == 1
        await pilot.press("pagedown")
        second = next(i for i, s in enumerate(steps) if s.kind == DEAL and s.round == 2)
        assert viewer.index == second and "Round 2" in text(app, "#viewer-where")
        await pilot.press("right", "pageup")
        assert viewer.index == second  # back to this round's deal first
        await pilot.press("pageup")
        assert viewer.index == 0
        await pilot.press("end")
        assert viewer.index == len(steps) - 1
        result = text(app, "#viewer-result")
        assert "In counting order:" in result and "Winner: " in result
        assert record.winner is not None and record.names is not None
        assert f"Winner: {record.names[record.winner]}." in result
        await pilot.press("home")
        assert viewer.index == 0
        # Go to a round by its number; a wrong number is explained and changes nothing.
        await pilot.press("g")
        box = on_top(app, GoToRoundScreen).query_one(Input)
        box.value = "99"
        await pilot.press("enter")
        on_top(app, GoToRoundScreen)
        assert "There is no round 99: the rounds are 1 to" in text(app, "#goto-error")
        box.value = "2"
        await pilot.press("enter")
        assert app.screen is viewer and viewer.index == second
        # Space plays the steps by themselves; any step key pauses.
        viewer.pace = 0.2
        await pilot.press("space")
        assert viewer.playing
        await pilot.pause(0.5)
        assert viewer.index > second
        await pilot.press("left")
        assert not current(viewer.playing)
        await pilot.press("q")

    drive(app, test)


def test_a_game_that_can_still_be_resumed_shows_only_the_persons_hand(tmp_path: Path) -> None:
    session = beginner_session(tmp_path / "g.rec", seed=8)
    if session.computer_to_move:
        session.computer_move()
    session.play(session.legal_moves()[0])
    record = load_record(tmp_path / "g.rec")
    app = ViewerApp(record_viewer(record))
    other = 1 - session.human

    async def test(app: ViewerApp, pilot: Pilot[None]) -> None:
        await pilot.press("end")
        assert "hidden" in seat_text(app, other)
        assert "hidden" not in seat_text(app, session.human)
        assert "can still be resumed" in text(app, "#viewer-score")
        await pilot.press("v")
        assert "hidden" not in seat_text(app, other)
        assert "Every hand is shown" in text(app, "#viewer-score")
        await pilot.press("v")
        assert "hidden" in seat_text(app, other)

    drive(app, test)


def test_the_demo_viewer_follows_the_game_as_the_computers_play() -> None:
    match = Match("casino", seed=6)
    from casino.cli import level_player
    from casino.play.session import bot_seed

    player = DemoPlayer(match, level_player("beginner", bot_seed(match), 2),
                        ("Seat 0", "Seat 1"), delay=0)
    app = ViewerApp(DemoViewer(player, pace=0.02, level="beginner"))

    async def test(app: ViewerApp, pilot: Pilot[None]) -> None:
        viewer = app.viewer
        for _ in range(1200):
            await asyncio.sleep(0.05)
            if not viewer.live:
                break
        assert not viewer.live and match.is_over
        assert viewer.playing and viewer.index > 0  # following the game, step by step
        await pilot.press("end")
        assert not current(viewer.playing) and viewer.index == len(viewer.steps) - 1
        moves = [s for s in viewer.steps if s.kind == MOVE]
        assert len(moves) == sum(len(r.moves) for r in match.rounds)
        assert "Winner: Seat" in text(app, "#viewer-result")
        await pilot.press("home")
        assert viewer.index == 0

    drive(app, test)
    assert player.stop() is True


# ----------------------------------------------------------------------
# Through a pseudo-terminal


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color"}
    return pexpect.spawn(CASINO, list(args), env=env, encoding="utf-8", timeout=30,
                         dimensions=(36, 110))


def test_pty_replay_opens_the_viewer_and_demo_quits_early_with_its_record(
        tmp_path: Path) -> None:
    path = tmp_path / "g.rec"
    path.write_text(finished_record())
    child = spawn(tmp_path, "replay", str(path))
    child.expect("step")
    child.expect("1 of")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # The demo on a terminal opens the viewer too; quitting stops the game between two
    # moves and --save keeps it, its missing folders created.
    saved = tmp_path / "new" / "folder" / "demo.rec"
    child = spawn(tmp_path, "demo", "--seed", "3", "--delay", "0.2", "--save", str(saved))
    child.expect("Demo")
    child.expect("Move")  # a move or two in
    child.send("q")
    child.expect(pexpect.EOF)
    out = str(child.before)
    child.close()
    assert child.exitstatus == 0
    assert "stopped before the end" in out and f"record saved to {saved}" in out
    record = load_record(saved)
    assert record.seed == 3 and record.winner is None


@pytest.mark.parametrize("command", ["replay", "demo"])
def test_plain_prints_even_on_a_terminal(tmp_path: Path, command: str) -> None:
    path = tmp_path / "g.rec"
    path.write_text(finished_record())
    args = ["replay", str(path), "--plain"] if command == "replay" else \
        ["demo", "--plain", "--seed", "2", "--delay", "0"]
    child = spawn(tmp_path, *args)
    child.expect("Winner: seat")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_viewer_and_the_game_draw_a_seat_the_same_way() -> None:
    """Both seat boxes are one drawing (widgets.SeatBox): the same frame (name, ▶ on the
    seat's turn, the dealer) and the same pile line, at every step of a round."""
    from textual.app import App, ComposeResult
    from textual.containers import Horizontal

    from casino.tui.widgets import SeatBox, SeatPanel
    from casino.words.narrate import tally

    match = Match("casino", seed=4)
    rng = random.Random(4)
    positions = [match.position]
    while positions[-1].result is None and len(positions) < 30:
        pos = positions[-1]
        positions.append(pos.successor(rng.choice(pos.legal_moves())))
    assert any(pos.sweeps for pos in positions) or any(pos.piles[1] for pos in positions)

    class Seats(App[None]):
        def compose(self) -> ComposeResult:
            yield Horizontal(*(SeatPanel(s) for s in (0, 1)), id="game")
            yield Horizontal(*(SeatView(s) for s in (0, 1)), id="viewer")

    async def main() -> None:
        app = Seats()
        async with app.run_test(size=SIZE) as pilot:
            for pos in positions:
                panels = list(app.query(SeatPanel))
                views = list(app.query(SeatView))
                for panel, view in zip(panels, views, strict=True):
                    assert isinstance(panel, SeatBox) and isinstance(view, SeatBox)
                    panel.show(pos.observe(0), ("Ann", "Bob"), 0, tally(pos, panel.seat))
                    view.show(pos, ("Ann", "Bob")[view.seat], "", hidden=False)
                await pilot.pause()
                for panel, view in zip(panels, views, strict=True):
                    assert panel.border_title == view.border_title
                    assert panel.has_class("to-move") == view.has_class("to-move")
                    assert ("dealer" in str(panel.border_subtitle)) == (
                        view.border_subtitle == "dealer")
                    assert str(panel.visual).splitlines()[1] == str(view.visual).splitlines()[1]

    asyncio.run(main())
