"""What the tests of the textual apps (the game, the start screen, the viewer) and of the
plain line mode share.

A key press or a timer changes an app between two asserts of one test, but mypy
narrows an expression such as ``app.screen`` or ``widget.display`` after an
``assert`` on it for the rest of the function, and would then take a later
assert of the opposite for unreachable code. These helpers read the app afresh
each time, so the tests say what they check without fighting the type checker.

They also make the games the tests play: a session against beginner computers (their
moves are instant), played forward through the session itself, and the "another game"
callable the apps are handed, which keeps what it made for the test to check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from textual.app import App
from textual.screen import Screen

from casino.engine.rules import preset
from casino.play.session import GameSession

S = TypeVar("S", bound=Screen[Any])


def on_top(app: App[Any], kind: type[S]) -> S:
    """The app's current screen, which must be a ``kind`` (the test fails otherwise)."""
    screen = app.screen
    assert isinstance(screen, kind), f"{type(screen).__name__} is on top, not {kind.__name__}"
    return screen


def current(flag: bool) -> bool:
    """``flag`` as read now: a plain bool that an earlier assert has not narrowed."""
    return flag


def beginner_session(save_path: Path | None, rules: str = "casino", *, seed: int | None,
                     options: Mapping[str, object] | None = None,
                     autosave: bool = True) -> GameSession:
    """A game of ``rules`` (with its ``options``) against beginner computers, saved to
    ``save_path`` after each move unless ``autosave`` is off."""
    return GameSession.new(preset(rules, **(options or {})), level="beginner", seed=seed,
                           save_path=save_path, autosave=autosave)


def play_on(session: GameSession, *, to: str = "game", moves: int | None = None
            ) -> GameSession:
    """Play ``session`` forward through the session itself, the person taking the first
    legal move: to the end of the game (``to="game"``, starting each next round) or of
    the round (``to="round"``), or for at most ``moves`` moves of the round."""
    while not (session.game_over if to == "game" else session.round_over):
        if moves is not None:
            if moves <= 0:
                break
            moves -= 1
        if session.round_over:
            session.next_round()
        elif session.computer_to_move:
            session.computer_move()
        else:
            session.play(session.legal_moves()[0])
    return session


class NewGames:
    """What an app calls to start another game: each call makes one with ``make`` and
    keeps it in :attr:`made`, so a test can check whether the app asked, and that it
    took the game it was given."""

    def __init__(self, make: Callable[[], GameSession]) -> None:
        self.make = make
        self.made: list[GameSession] = []

    def __call__(self) -> GameSession:
        self.made.append(self.make())
        return self.made[-1]


def f1_text(session: GameSession, widget_id: str) -> str:
    """What the F1 screen's widget ``widget_id`` shows in a game of ``session``, once the
    person is to move (the computers may play first)."""
    import asyncio

    from casino.tui.app import CasinoApp
    from casino.tui.screens import RulesScreen

    app = CasinoApp(session, None, pause=0)
    shown: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            for _ in range(200):
                await app.workers.wait_for_complete()
                await pilot.pause()
                if app.session.to_move == 0:
                    break
            await pilot.press("f1")
            await pilot.pause()
            screen = on_top(app, RulesScreen)
            shown.append(str(screen.query_one(f"#{widget_id}").render()))

    asyncio.run(main())
    return shown[0]
