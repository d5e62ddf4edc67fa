"""The terminal game's end screen offers the review of the person's play: it is judged
in a thread with a progress bar, then browsed decision by decision, and Escape goes back
to the end screen. The plain (line) game offers it at its last question."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path
from typing import Any, TypeVar

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Button, DataTable, Static

from casino.bots.judge import Budget
from casino.engine.record import read_record
from casino.play.session import GameSession
from casino.teach.report import report_lines
from casino.teach.review import review
from casino.tui.app import CasinoApp
from casino.tui.plain import run_plain
from casino.tui.review import ReviewScreen
from casino.tui.screens import RoundOverScreen
from tests.tui_helpers import beginner_session, on_top, play_on

S = TypeVar("S", bound=Screen[Any])

#: Little work, so the test is quick; the screen shows whatever the review says.
LIGHT: dict[str, Any] = {"samples": 2, "seed": 3, "limit": Budget(depth=2, nodes=60)}


def text(screen: ReviewScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).visual)


def test_the_end_screen_reviews_the_persons_play(tmp_path: Path) -> None:
    session = play_on(beginner_session(tmp_path / "g.rec", seed=23))
    expected = review(read_record(session.record_text()), session.human, **LIGHT)
    app = CasinoApp(session, None, pause=0)
    app.game.review_settings = dict(LIGHT)

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(app, pilot, RoundOverScreen)
            assert on_top(app, RoundOverScreen).query_one("#review", Button)
            await pilot.press("r")
            screen = await wait_for(app, pilot, ReviewScreen)
            for _ in range(400):
                await app.workers.wait_for_complete()
                await pilot.pause()
                if screen.result is not None:
                    break
            assert screen.result == expected  # the same review as the command's engine
            table = screen.query_one(DataTable)
            assert table.row_count == len(expected.decisions) > 0
            first = expected.decisions[0]
            detail = text(screen, "#review-position")
            assert first.move in detail and "Hindsight" in detail and "Your hand" in detail
            assert "↑ this move" in text(screen, "#review-graph")
            assert f"Round {first.round}" in text(screen, "#review-graph")
            await pilot.press("down")
            await pilot.pause()
            assert expected.decisions[1].move in text(screen, "#review-position")
            await pilot.press("escape")
            await wait_for(app, pilot, RoundOverScreen)

    asyncio.run(main())


def test_a_round_that_is_not_the_last_offers_no_review(tmp_path: Path) -> None:
    """Only a finished game is reviewed: a round's end in mid-game has no review button."""
    session = play_on(beginner_session(tmp_path / "g.rec", seed=23), to="round")
    assert not session.game_over
    app = CasinoApp(session, None, pause=0)

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await wait_for(app, pilot, RoundOverScreen)
            assert not screen.query("#review")
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, RoundOverScreen)

    asyncio.run(main())


async def wait_for(app: CasinoApp, pilot: Pilot[None], kind: type[S]) -> S:
    for _ in range(400):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if isinstance(app.screen, kind):
            return app.screen
    raise AssertionError(f"{type(app.screen).__name__} is on top, not {kind.__name__}")


def plain_end(tmp_path: Path, lines: list[str], *, again: bool) -> tuple[str, GameSession]:
    """A finished game handed to the plain terminal game, answering with ``lines``."""
    session = play_on(beginner_session(tmp_path / "g.rec", seed=23))
    out = io.StringIO()
    stdin = io.StringIO("".join(f"{line}\n" for line in lines))
    run_plain(session, (lambda: beginner_session(None, seed=5)) if again else None,
              stdin=stdin, stdout=out, review=LIGHT)
    return out.getvalue(), session


def test_the_plain_game_offers_the_review_at_its_end(tmp_path: Path) -> None:
    out, session = plain_end(tmp_path, ["y"], again=False)
    expected = review(read_record(session.record_text()), session.human, **LIGHT)
    assert "Answer review to the next question" in out
    assert "Review your play? [y/n] y" in out
    report = out.split("Review your play? [y/n] y\n", 1)[1]
    assert report_lines(expected, read_record(session.record_text()))[0] in report
    assert expected.advice[0] in report
    # Read by screen readers: no box drawing (so no graph), no escape codes.
    assert "\x1b" not in report and not re.search("[\u2500-\u259f]", report)


def test_review_at_play_again_reviews_then_asks_again(tmp_path: Path) -> None:
    out, _ = plain_end(tmp_path, ["review", "n"], again=True)
    _, rest = out.split("Play again? [y/n] review\n", 1)
    assert "Judging each of your decisions" in rest
    assert rest.rstrip().endswith("Play again? [y/n] n")
    assert "Review of You" in rest.rsplit("Play again?", 1)[0]


def test_declining_the_review_judges_nothing(tmp_path: Path) -> None:
    out, _ = plain_end(tmp_path, ["n"], again=False)
    assert "Judging" not in out and out.endswith("Review your play? [y/n] n\n")
