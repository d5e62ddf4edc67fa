"""The game's refusals: :class:`GameError`, a request that cannot be done, in words for
the player and with its HTTP status; the routes and the WebSocket turn it into a
response or an error message, unchanged."""

from __future__ import annotations

from casino.i18n import pgettext, pN_
from casino.play.session import player_name

#: What a change made against an old version of a game is told (a move sent at once
#: with another for the same turn, in this process or another): English, translated by
#: :func:`moved_on_refusal` where it is raised.
MOVED_ON = pN_("refusal", "the game has moved on: that was not played; here is the game "
               "as it stands")


class GameError(Exception):
    """A request that cannot be done, in words for the player; ``status`` for HTTP."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def moved_on_refusal() -> GameError:
    """The refusal of a change made against an old version of the game (409), in the
    language in force."""
    return GameError(pgettext("refusal", MOVED_ON), 409)


def clean_name(raw: str | None, default: str, limit: int) -> str:
    """A player name fit for the table and the record (:func:`casino.play.session.player_name`),
    refused in words for the player (its type is the request's model's to check)."""
    try:
        return player_name(raw, default, limit)
    except ValueError as exc:
        raise GameError(str(exc)) from None

