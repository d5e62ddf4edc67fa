"""The engine's errors: all are ValueErrors whose message says what was wrong and why.

Like python-chess, every failure of input is a ``ValueError`` subclass, so a
caller that only wants "bad input" catches ``ValueError``; finer classes let a
front end tell an illegal move from a malformed one.
"""

from __future__ import annotations


class CasinoError(ValueError):
    """Base of every error the engine raises about its input."""


class CardError(CasinoError):
    """Text that is not a card."""


class RulesError(CasinoError):
    """An unknown preset or a bad option."""


class IllegalMove(CasinoError):
    """A move that is not legal in the position, or text that is not a move.

    The position is never changed by a move that raises this.
    """


class MalformedMove(IllegalMove):
    """Move text that cannot be read at all (as opposed to a readable but illegal move)."""


class InvalidPosition(CasinoError):
    """A position that cannot exist; ``key`` names the offending key when known."""

    def __init__(self, message: str, key: str | None = None) -> None:
        self.key = key
        super().__init__(f"{key}: {message}" if key else message)


class InvalidRecord(CasinoError):
    """A damaged game record; ``line`` is the 1-based line where it went wrong."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)
