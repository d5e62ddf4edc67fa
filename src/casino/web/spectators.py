"""Spectators: what a person who holds no seat is shown of a live game, and what they may
not do (docs/server.md, "Spectators").

A game may be watched when its players allowed it at creation (``spectators``). A
spectator's VIEW is built by :func:`casino.web.views.build_view` like a seat's, but from
the public observation (:meth:`~casino.engine.position.Position.observe_public`: every
hand and the stock as counts), with nothing to do: no hand, no moves, no undo, no hint.
With a ``spectator_delay`` of N moves it is the game as it was N moves ago (within the
round being played), replayed from the round's deal, so that a spectator cannot tell a
player what the others just played; its states then carry no events (they would tell
the latest moves). The VIEW is built once
per version of the game and language, whatever the number of spectators
(:func:`spectator_view`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from casino import i18n
from casino.engine.position import Position
from casino.i18n import _, ngettext, pgettext, pN_
from casino.web import messages
from casino.web.store import PLAYING, WAITING
from casino.web.table_words import names_and, resignation_words
from casino.web.views import Public, build_view

if TYPE_CHECKING:
    from casino.web.live import LiveGame

#: Why a game refuses a spectator: its players did not allow it (the WebSocket's close
#: code 4403, the page's 403); translated where shown (:func:`not_watchable`).
NOT_WATCHABLE = pN_("spectator", "this game's players did not allow spectators: it cannot "
                    "be watched")
#: What each message a spectator may not send would have done, for the refusal's words.
ACTIONS = {"play": pN_("spectator", "play a move"),
           "options": pN_("spectator", "ask what a card can do"),
           "hint": pN_("spectator", "ask for a hint"),
           "undo": pN_("spectator", "take back a move"),
           "next_round": pN_("spectator", "deal the next round"),
           "rematch": pN_("spectator", "start a rematch"),
           "resign": pN_("spectator", "resign"),
           "claim": pN_("spectator", "let the computer play for a player")}
#: A message of no other kind (``do that``).
ANY_ACTION = pN_("spectator", "do that")


def not_watchable() -> str:
    """:data:`NOT_WATCHABLE` in the language in force."""
    return pgettext("spectator", NOT_WATCHABLE)


def refusal(kind: str) -> str:
    """Why a spectator's ``kind`` message changes nothing, in words."""
    action = pgettext("spectator", ACTIONS.get(kind, ANY_ACTION))
    return _("you are watching this game: a spectator cannot %(action)s") % {"action": action}


def said_hello() -> str:
    """A spectator's second ``hello``: the state is sent at each change already, and a
    whole state for each hello would let one spectator's flood cost the players' server."""
    return _("you are watching this game and have its state already: a new one comes at "
             "each change (reconnect to start again)")


def full(most: int) -> str:
    """Why a spectator finds no room: the game has ``most`` spectators already."""
    return ngettext("this game has %(n)s spectator already, as many as it may have; try "
                    "again later",
                    "this game has %(n)s spectators already, as many as it may have; try "
                    "again later", most) % {"n": most}


def watching_words(game: LiveGame, behind: int) -> str:
    """The spectator's status message: who plays, and how late the moves are shown."""
    if game.status == WAITING:
        return _("You are watching a room waiting for its players: the game starts when "
                 "they come.")
    words = _("You are watching %(names)s play.") % {"names": names_and(game.session.names)}
    if behind:
        words += " " + ngettext("The moves are shown %(n)s move late.",
                                "The moves are shown %(n)s moves late.", behind) % {"n": behind}
    return words


def watched_words(delay: int) -> str:
    """What a person about to take a seat is told of a game that may be watched."""
    if delay:
        return ngettext("Anyone with the link may watch this game: they see the table and "
                        "the moves, %(n)s move late, never a hand.",
                        "Anyone with the link may watch this game: they see the table and "
                        "the moves, %(n)s moves late, never a hand.", delay) % {"n": delay}
    return _("Anyone with the link may watch this game: they see the table and the moves, "
             "never a hand.")


@dataclass(frozen=True)
class Shown:
    """What spectators are shown at one version of a game: its VIEW (without the count of
    spectators, added as it is sent), whether it is held back (its states then carry
    no events), and the state messages made of it so far, as the JSON text sent, by the
    version each reader had and the count of spectators: spectators who had the same are
    sent the same text, made and encoded once."""

    version: int
    view: dict[str, Any]
    delayed: bool
    messages: dict[tuple[int, int], str] = field(default_factory=dict)


def spectator_view(game: LiveGame) -> Shown:
    """The spectators' VIEW of ``game`` now in the language in force, built once per
    version and language (kept on the game): a flood of spectators costs one build per
    change of the game and language read, not one each."""
    lang = i18n.current()
    got = game.shown.get(lang)
    if got is not None and got.version == game.version:
        return got
    got = game.shown[lang] = _build(game)
    return got


def _build(game: LiveGame) -> Shown:
    s = game.session
    held = _held_back(game)
    keep = len(game.log) - held
    public = Public(
        game=game.id, version=game.version, status=game.status, names=s.names,
        players=s.players, log=game.log[:keep], rounds=game.round_scores(), can_undo=False,
        invite=None, rematch=None, settings=s.settings, can_hint=False, resign_words=None,
        ended=None if held else resignation_words(s), winner=s.winner, away=None,
        your_turn=False, seed=None, rated=game.rated_shown)
    view = build_view(_position(game, held).observe_public(), None, public)
    view["message"] = watching_words(game, held)
    view["lesson"] = None
    game.service.clocks.dress(game, view)  # a game lost on time is told so
    view["spectator_delay"] = game.spectator_delay
    return Shown(game.version, view, held > 0)


def _held_back(game: LiveGame) -> int:
    """How many of the game's latest moves spectators are not shown yet: the delay's, but
    only of the round being played. A round over has had every card played, and once the
    next is dealt the last one's moves tell a player nothing (it is a new deck), so a
    round's end and a new deal are shown when they come; so is the game's end, and a
    room waiting for its players has nothing to hold back."""
    if game.status != PLAYING or game.session.match.position.result is not None:
        return 0
    return min(game.spectator_delay, len(game.session.match.current.moves))


def _position(game: LiveGame, held: int) -> Position:
    """The position spectators are shown: the game's now, or with the last ``held`` moves
    of the round being played left out, replayed from the round's deal."""
    match = game.session.match
    if held == 0:
        return match.position
    return match.current.position_after(len(match.current.moves) - held)


def spectator_state(game: LiveGame, since: int, count: int) -> str:
    """A spectator's state message, as the JSON text sent (encoded once for every
    spectator who had the same version): the events after ``since`` (none when the view
    is held back) and the VIEW, told how many spectators watch (``count``)."""
    shown = spectator_view(game)
    key = (0 if shown.delayed else since, count)
    made = shown.messages.get(key)
    if made is None:
        events = [] if shown.delayed else [messages.Event(**e.to_json(None))
                                           for e in game.events[since:]]
        made = shown.messages[key] = json.dumps(messages.State(
            version=game.version, events=events,
            view={**shown.view, "spectators": count}).wire(),
            ensure_ascii=False, separators=(",", ":"))
    return made
