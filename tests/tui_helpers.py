"""What the tests of the textual apps (the game, the start screen, the viewer) share.

A key press or a timer changes an app between two asserts of one test, but mypy
narrows an expression such as ``app.screen`` or ``widget.display`` after an
``assert`` on it for the rest of the function, and would then take a later
assert of the opposite for unreachable code. These helpers read the app afresh
each time, so the tests say what they check without fighting the type checker.
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual.app import App
from textual.screen import Screen

S = TypeVar("S", bound=Screen[Any])


def on_top(app: App[Any], kind: type[S]) -> S:
    """The app's current screen, which must be a ``kind`` (the test fails otherwise)."""
    screen = app.screen
    assert isinstance(screen, kind), f"{type(screen).__name__} is on top, not {kind.__name__}"
    return screen


def current(flag: bool) -> bool:
    """``flag`` as read now: a plain bool that an earlier assert has not narrowed."""
    return flag
