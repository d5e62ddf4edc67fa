"""Starting ``casino play``: the start screen, continuing a saved game, options a saved game
cannot take, names, and where records are written.

The start screen is driven headless through textual's Pilot; the command through
CliRunner (not a terminal: the plain game) and a real pseudo-terminal.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Select, Static

from casino.engine.match import Match
from casino.engine.record import SaveError, load_record, save_record, write_record
from casino.engine.rules import preset
from casino.play.session import (
    GameSession,
    last_saved_game,
    player_name,
    saved_games,
)
from casino.tui.app import GameScreen
from casino.tui.start import StartApp, StartChoice, StartScreen
from tests.cli_helpers import run as run_cli
from tests.tui_helpers import beginner_session, on_top, play_on

CASINO = str(Path(sys.executable).parent / "casino")


def run(*args: str, input: str = "quit\n") -> tuple[int, str, str]:
    """``casino ARGS``; a game it starts is quit at once unless ``input`` says more."""
    return run_cli(*args, input=input)


@pytest.fixture()
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A games folder of our own (XDG_DATA_HOME), as the session finds it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "casino" / "games"


def saved_game(path: Path, seed: int, moves: int, *, finish: bool = False,
               mtime: float | None = None) -> GameSession:
    session = play_on(beginner_session(path, seed=seed), to="round", moves=moves)
    if finish:
        match = Match("casino", seed=seed)
        match.play_out(lambda p: p.legal_moves()[0])
        path.write_text(write_record(match, names=["You", "Computer"],
                                     players=["human", "beginner"]))
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return session


# ----------------------------------------------------------------------
# Saved games and names


def test_saved_games_are_listed_newest_first_and_continue_takes_the_last_unfinished(
        games: Path) -> None:
    saved_game(games / "old.rec", 1, 3, mtime=1_000_000)
    saved_game(games / "new.rec", 2, 5, mtime=3_000_000)
    saved_game(games / "done.rec", 3, 0, finish=True, mtime=4_000_000)
    (games / "broken.rec").write_text("not a record")
    listed = saved_games()
    assert [g.path.name for g in listed] == ["done.rec", "new.rec", "old.rec"]
    assert [g.path.name for g in saved_games(unfinished=True)] == ["new.rec", "old.rec"]
    last = last_saved_game()
    assert last is not None and last.path == games / "new.rec"
    words = last.words()
    assert words.startswith("casino · You vs Computer (beginner) · round 1, 5 moves · You ")
    assert "finished" in listed[0].words()


@pytest.mark.parametrize(("raw", "name"), [("", "You"), ("   ", "You"), (" Ann  Lee ", "Ann Lee"),
                                          ("Bo  b\n", "Bo b"), ("Bo\x07b", "Bob"), (None, "You")])
def test_a_blank_name_is_no_name(raw: str | None, name: str) -> None:
    assert player_name(raw) == name


def test_a_blank_name_on_the_command_line_is_no_name(tmp_path: Path) -> None:
    path = tmp_path / "g.rec"
    code, out, _ = run("play", "--name", "", "--seed", "3", "--level", "beginner",
                       "--save", str(path))
    assert code == 0 and "()" not in out
    assert load_record(path).names == ("You", "Computer")
    code, _, err = run("play", "--name", "x" * 40)
    assert code == 2 and "--name: a name has at most 24 characters" in err


# ----------------------------------------------------------------------
# --resume and --continue


def test_resume_refuses_options_a_saved_game_cannot_take(tmp_path: Path) -> None:
    path = tmp_path / "g.rec"
    saved_game(path, 4, 2)
    before = path.read_text()
    code, _, err = run("play", "--resume", str(path), "--rules", "kasino", "--players", "3",
                       "--level", "expert")
    assert code == 2
    assert "--rules and --players and --level cannot change a saved game" in err
    assert "You, Computer (beginner)" in err and "Leave out" in err
    for flags in (["--seed", "9"], ["--name", "Ann"], ["--level", "hard"]):
        code, _, err = run("play", "--resume", str(path), *flags)
        assert code == 2 and f"{flags[0]} cannot change a saved game" in err
    assert path.read_text() == before  # refused: nothing changed
    code, out, _ = run("play", "--resume", str(path))
    assert code == 0 and "Resuming: 2 moves played so far." in out


def test_resume_takes_a_level_for_a_record_that_does_not_name_its_players(
        tmp_path: Path) -> None:
    path = tmp_path / "demo.rec"
    code, _, _ = run("demo", "--seed", "3", "--save", str(path), input="")
    assert code == 0 and load_record(path).players is None
    match = Match("casino", seed=3)  # an unfinished game without a players line
    match.play(match.legal_moves()[0])
    path.write_text(write_record(match))
    code, out, _ = run("play", "--resume", str(path), "--level", "beginner")
    assert code == 0 and "(beginner)" in out
    assert load_record(path).players == ("human", "beginner")


def test_continue_resumes_the_last_unfinished_game(games: Path) -> None:
    code, _, err = run("play", "--continue")
    assert code == 2 and f"no unfinished game is saved in {games}" in err
    saved_game(games / "a.rec", 5, 3, mtime=1_000_000)
    saved_game(games / "b.rec", 6, 4, mtime=2_000_000)
    code, out, err = run("play", "--continue")
    assert code == 0
    assert f"Continuing the game saved in {games / 'b.rec'}." in out
    assert "Resuming: 4 moves played so far." in out
    assert f"game record saved to {games / 'b.rec'}" in err
    code, _, err = run("play", "--continue", "--resume", str(games / "a.rec"))
    assert code == 2 and "--resume and --continue contradict each other" in err
    code, _, err = run("play", "--continue", "--rules", "tablic")
    assert code == 2 and "--rules cannot change a saved game" in err


# ----------------------------------------------------------------------
# Writing records: one place, the same everywhere


def test_demo_save_creates_missing_folders_like_save_as(tmp_path: Path) -> None:
    target = tmp_path / "new" / "folders" / "demo.rec"
    code, _, err = run("demo", "--seed", "2", "--save", str(target), input="")
    assert code == 0 and f"record saved to {target}" in err
    assert load_record(target).seed == 2
    session = saved_game(tmp_path / "g.rec", 2, 1)
    other = tmp_path / "more" / "folders" / "mine.rec"
    session.save_as(other)
    assert load_record(other).rules == session.rules


def test_an_unwritable_record_is_refused_in_words_everywhere(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    bad = blocker / "x.rec"
    code, out, err = run("demo", "--seed", "2", "--save", str(bad), input="")
    assert code == 2 and out == ""  # said before the game is played, not after
    assert f"cannot write {bad}: {blocker} is a file, not a folder" in err
    for text in (".tmp", "[Errno", "Traceback"):
        assert text not in err
    code, _, err = run("play", "--seed", "2", "--save", str(bad))
    assert code == 2 and f"cannot write {bad}: {blocker} is a file, not a folder" in err
    assert ".tmp" not in err and "[Errno" not in err
    # Save-as to such a place says why and goes on saving where it did.
    session = saved_game(tmp_path / "g.rec", 2, 1)
    with pytest.raises(SaveError) as caught:
        session.save_as(bad)
    assert ".tmp" not in str(caught.value) and caught.value.strerror is not None
    assert session.save_path == tmp_path / "g.rec"
    with pytest.raises(SaveError):
        save_record(Match("casino", seed=1), tmp_path)  # a folder, not a file
    assert not list(tmp_path.glob("*.tmp")) and not list(blocker.parent.glob("*.tmp"))


# ----------------------------------------------------------------------
# The start screen

StartTest = Callable[[StartApp, Pilot[None]], Awaitable[None]]


def start_app(tmp_path: Path, saved: list | None = None) -> tuple[StartApp, list[StartChoice]]:  # type: ignore[type-arg]
    chosen: list[StartChoice] = []

    def open_game(choice: StartChoice) -> tuple[GameSession, None]:
        chosen.append(choice)
        if choice.resume is not None:
            return GameSession.resume(choice.resume), None
        rules = preset(choice.rules, players=choice.players)
        return GameSession.new(rules, level="beginner", seed=1, you=choice.name,
                               save_path=tmp_path / "new.rec"), None

    return StartApp(saved or [], open_game, pause=0, folder=tmp_path), chosen


def drive(app: StartApp, test: StartTest) -> None:
    async def main() -> None:
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.pause()
            await test(app, pilot)

    asyncio.run(main())


def test_the_start_screen_starts_the_game_chosen(tmp_path: Path) -> None:
    app, chosen = start_app(tmp_path)

    async def test(app: StartApp, pilot: Pilot[None]) -> None:
        start = on_top(app, StartScreen)
        saved = start.query_one("#start-saved", OptionList)
        assert "No unfinished game is saved" in str(saved.get_option_at_index(0).prompt)
        start.query_one("#start-rules", Select).value = "classic"
        await pilot.pause()
        players = start.query_one("#start-players", Select)
        start.query_one("#start-players", Select).value = 4
        await pilot.pause()
        assert players.value == 4
        start.query_one("#start-level", Select).value = "easy"
        name = start.query_one("#start-name", Input)
        name.value = "  Ann  "
        name.focus()
        await pilot.press("enter")
        await pilot.pause()
        on_top(app, GameScreen)
        assert chosen == [StartChoice("classic", 4, "easy", "Ann")]
        session = app.session
        assert session is not None
        assert session.rules.name == "classic" and session.rules.players == 4
        assert session.names[session.human] == "Ann"

    drive(app, test)


def test_the_start_screen_changes_the_player_counts_with_the_rules(tmp_path: Path) -> None:
    app, _ = start_app(tmp_path)

    async def test(app: StartApp, pilot: Pilot[None]) -> None:
        players = app.screen.query_one("#start-players", Select)
        for rules, counts in (("kasino", {2, 3, 4}), ("krypkasino", {2}), ("casino", {2})):
            app.screen.query_one("#start-rules", Select).value = rules
            await pilot.pause()
            offered = {v for _, v in players._options if isinstance(v, int)}
            assert offered == counts, rules
            assert players.value in counts
            assert players.disabled == (len(counts) == 1)

    drive(app, test)


def test_a_blank_name_starts_as_you(tmp_path: Path) -> None:
    app, chosen = start_app(tmp_path)

    async def test(app: StartApp, pilot: Pilot[None]) -> None:
        app.screen.query_one("#start-name", Input).value = "   "
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert chosen[0].name == "You"
        assert app.session is not None and app.session.names[0] == "You"

    drive(app, test)


def test_the_start_screen_continues_a_saved_game(tmp_path: Path) -> None:
    saved_game(tmp_path / "a.rec", 7, 3, mtime=1_000_000)
    saved_game(tmp_path / "b.rec", 8, 2, mtime=2_000_000)
    listed = saved_games(tmp_path, unfinished=True)
    app, chosen = start_app(tmp_path, listed)

    async def test(app: StartApp, pilot: Pilot[None]) -> None:
        box = app.screen.query_one("#start-saved", OptionList)
        assert box.option_count == 2
        assert "b.rec" not in str(box.get_option_at_index(0).prompt)  # words, not file names
        assert "round 1, 2 moves" in str(box.get_option_at_index(0).prompt)
        box.focus()
        box.highlighted = 1
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert chosen == [StartChoice(resume=tmp_path / "a.rec")]
        assert app.session is not None and app.session.save_path == tmp_path / "a.rec"
        assert len(app.session.log) >= 3  # the 3 saved moves, and the computer may go on

    drive(app, test)


def test_a_choice_that_cannot_be_opened_is_said_on_the_start_screen(tmp_path: Path) -> None:
    def open_game(choice: StartChoice) -> tuple[GameSession, None]:
        raise SaveError(tmp_path / "x.rec", "permission denied")

    app = StartApp([], open_game, pause=0)

    async def test(app: StartApp, pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        error = str(app.screen.query_one("#start-error", Static).visual)
        assert f"cannot write {tmp_path / 'x.rec'}: permission denied" in error

    drive(app, test)


def test_pty_play_without_choices_opens_the_start_screen(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color"}
    child = pexpect.spawn(CASINO, ["play"], env=env, encoding="utf-8", timeout=30,
                          dimensions=(40, 110))
    child.expect("Continue")
    child.send("\x1b")  # Escape quits
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert not (tmp_path / "casino" / "games").exists()  # nothing was started or saved
