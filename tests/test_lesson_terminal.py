"""The guided first game in the terminal: the lesson panel of the full-screen game, the
start screen's "Learn to play", and the plain mode's step before each prompt."""

from __future__ import annotations

import asyncio
import io

from casino.play.session import GameSession
from casino.teach.lesson import lesson_session, session_step
from casino.tui.app import CasinoApp, GameScreen
from casino.tui.lesson import LessonPanel
from casino.tui.plain import run_plain
from casino.tui.start import StartApp, StartChoice
from tests.test_play_tui import settle
from tests.tui_helpers import on_top


def panel_text(app: CasinoApp | StartApp) -> str:
    panel = app.screen.query_one(LessonPanel)
    return f"{panel.border_title}\n{panel.visual}"


def test_the_lesson_panel_shows_the_step_and_follows_the_game() -> None:
    app = CasinoApp(lesson_session("casino"), None, pause=0, lesson=True)

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            first = session_step(app.session)
            text = panel_text(app)
            assert first.title in text and first.move in text
            assert f"casino glossary {first.term}" in text
            # Play the suggested move: the panel moves on to the next step.
            await app.game.play(first.move)
            await settle(app, pilot)
            second = session_step(app.session)
            assert second.kind != first.kind
            assert second.title in panel_text(app)

    asyncio.run(main())


def test_an_ordinary_game_has_no_lesson_panel() -> None:
    app = CasinoApp(lesson_session("casino"), None, pause=0)

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            assert not app.screen.query(LessonPanel)

    asyncio.run(main())


def test_learn_to_play_on_the_start_screen_opens_a_lesson() -> None:
    chosen: list[StartChoice] = []

    def open_game(choice: StartChoice) -> tuple[GameSession, None]:
        chosen.append(choice)
        return lesson_session(choice.rules, you=choice.name), None

    app = StartApp([], open_game, pause=0)

    async def main() -> None:
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.pause()
            app.screen.query_one("#start-rules").value = "tablic"  # type: ignore[attr-defined]
            await pilot.pause()
            await pilot.press("ctrl+l")
            for _ in range(50):
                await pilot.pause()
                if app.screen.query(LessonPanel):
                    break
            on_top(app, GameScreen)
            assert chosen == [StartChoice("tablic", 2, "beginner", "You", lesson=True)]
            assert "Lesson: " in panel_text(app)

    asyncio.run(main())


def test_the_plain_lesson_shows_the_step_before_each_prompt_and_the_scoring() -> None:
    session = lesson_session("kasino")
    moves = []
    probe = lesson_session("kasino")
    # The moves a learner following the steps types, worked out on a twin session.
    while not probe.round_over:
        if probe.human_to_move:
            step = session_step(probe)
            move = step.move or str(probe.view.candidate_moves().moves[0])
            moves.append(move)
            probe.play(move)
        else:
            probe.computer_move()
    out = io.StringIO()
    run_plain(session, None, stdin=io.StringIO("\n".join(moves) + "\n"), stdout=out,
              lesson=True)
    text = out.getvalue()
    assert text.count("Lesson — ") == len(moves) + 1
    assert "Lesson — Pairing" in text and "Lesson — The round's scoring" in text
    assert "More: rules (the rules and the guide)" in text
    assert session.round_over


def test_casino_learn_plain_through_a_pipe() -> None:
    from tests.cli_helpers import run

    first = session_step(lesson_session("mulle"))
    code, out, err = run("learn", "--rules", "mulle", "--plain", input=first.move + "\n")
    assert code == 0, err
    assert f"Lesson — {first.title}" in out and f"Play {first.move}" in out
    assert out.count("Lesson — ") >= 2  # the next step, after the computer's move
    code, out, err = run("learn", "--rules", "snap", "--plain", input="")
    assert code != 0 and "unknown ruleset" in err
